"""Every benchmark module imports, and every child script a benchmark runs in a process of
its own names modules and names that exist: `make bench` is not in `make test`, so a moved
module would otherwise fail only there."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
MODULES = sorted(path.stem for path in BENCH.glob("bench_*.py"))


@pytest.mark.parametrize("name", MODULES)
def test_the_module_imports(name):
    importlib.import_module(f"bench.{name}")


def child_scripts(name: str) -> list[str]:
    """The module-level strings of a benchmark that are Python programs (its children)."""
    tree = ast.parse((BENCH / f"{name}.py").read_text(encoding="utf-8"))
    scripts = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            text = node.value.value
            if "import " in text and "\n" in text.strip():
                scripts.append(text)
    return scripts


@pytest.mark.parametrize("name", MODULES)
def test_every_child_script_imports_what_exists(name):
    for script in child_scripts(name):
        for node in ast.walk(ast.parse(script)):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                module = importlib.import_module(node.module)
                for alias in node.names:
                    assert hasattr(module, alias.name) or importlib.util.find_spec(f"{node.module}.{alias.name}"), \
                        f"{name}: from {node.module} import {alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    importlib.import_module(alias.name)
