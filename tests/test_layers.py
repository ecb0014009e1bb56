"""The layers stay clean (docs/architecture.md): every production module is read with
`ast` and its imports followed, whatever form they take (top level, `if TYPE_CHECKING`,
inside a function), so that

- no module imports from a layer above its own: validator < card_data < edh_service <
  the entry points (root app.py and cli.py, scripts/: programs, never imported, so they
  may import any layer). A package's __main__.py is its package's, in its layer:
  `python -m card_data` may not run the service's `cards` command;
- no import circle exists between production modules (a module importing its own
  package's __init__ is no circle: Python imports the package first anyway);
- no production module is over MAX_LINES lines, and root cli.py is a shim of SHIM_LINES.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("validator", "card_data", "edh_service")
LAYERS = {"validator": 0, "card_data": 1, "edh_service": 2}
ENTRY = 3  # root modules and scripts/
MAX_LINES = 450
SHIM_LINES = 30


def production_modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file of every production module (packages, root modules, scripts)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    for path in sorted(root.glob("*.py")) + sorted((root / "scripts").glob("*.py")):
        name = path.stem if path.parent == root else f"scripts.{path.stem}"
        modules[name] = path
    return modules


def layer(name: str) -> int:
    """A module's layer: its package's (its __main__ included), or ENTRY for the programs."""
    return LAYERS.get(name.split(".")[0], ENTRY)


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The production modules `name` imports anywhere in its file (each `from X import Y`
    names X.Y when that is a module, else X), less its own ancestor packages."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            candidates = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in modules:
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name and not name.startswith(candidate + "."):
                targets.add(candidate)
                break  # `from X import Y` with Y a module imports X.Y; X is its ancestor
    return targets


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the production modules it imports."""
    modules = production_modules(root)
    return {name: imported(name, path, modules) for name, path in modules.items()}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """'a -> b' for every import of a module in a higher layer."""
    return [f"{name} -> {target}" for name, targets in sorted(graph.items()) for target in sorted(targets)
            if layer(target) > layer(name)]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def line_count(path: Path) -> int:
    """Lines in a file (a final newline ends the last line)."""
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_imports_from_a_layer_above():
    graph = import_graph()
    assert graph["card_data.repository"] >= {"card_data.store", "validator.deck"}  # the graph is read at all
    assert upward_imports(graph) == []


def test_no_import_circle():
    assert circles(import_graph()) == []


def test_every_production_module_is_short():
    too_long = {name: lines for name, path in production_modules().items() if (lines := line_count(path)) > MAX_LINES}
    assert too_long == {}


def test_root_modules_are_shims():
    assert line_count(ROOT / "cli.py") <= SHIM_LINES
    assert line_count(ROOT / "app.py") <= SHIM_LINES


def test_card_data_runs_without_the_service():
    """The card-data library imports nothing of the service, not even lazily, nor does its
    `python -m card_data` (it points to the `cards` command)."""
    graph = import_graph()
    service = {f"{name} -> {target}" for name, targets in graph.items() for target in targets
               if name.startswith("card_data") and layer(name) == LAYERS["card_data"]
               and target.startswith("edh_service")}
    assert service == set()


# -- the checks themselves can fail -------------------------------------------------------


def write(root: Path, files: dict[str, str]) -> Path:
    """A small tree of production modules for the checks to read."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("form", [
    "from edh_service.config import setting\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from edh_service import config\n",
    "def main():\n    from edh_service.config import setting\n",
    "import edh_service.config\n",
])
def test_an_upward_import_in_any_form_is_found(tmp_path, form):
    root = write(tmp_path, {"validator/__init__.py": "", "card_data/__init__.py": "",
                            "card_data/cli.py": form, "edh_service/__init__.py": "",
                            "edh_service/config.py": ""})
    assert upward_imports(import_graph(root)) == ["card_data.cli -> edh_service.config"]


def test_a_circle_through_a_lazy_or_relative_import_is_found(tmp_path):
    root = write(tmp_path, {"validator/__init__.py": "", "edh_service/__init__.py": "",
                            "card_data/__init__.py": "",
                            "card_data/sync.py": "from card_data import brackets\n",
                            "card_data/brackets.py": "def f():\n    from .sync import records\n",
                            "card_data/client.py": "from card_data.coordination import Limits\n",
                            "card_data/coordination.py": "from . import streams\n",
                            "card_data/streams.py": "import card_data.client\n"})
    assert circles(import_graph(root)) == [["card_data.brackets", "card_data.sync"],
                                           ["card_data.client", "card_data.coordination", "card_data.streams"]]


def test_an_entry_point_may_import_any_layer_but_a_packages_main_is_in_its_layer(tmp_path):
    root = write(tmp_path, {"validator/__init__.py": "", "edh_service/__init__.py": "",
                            "edh_service/cli.py": "", "card_data/__init__.py": "",
                            "card_data/__main__.py": "from edh_service.cli import main\n",
                            "validator/__main__.py": "import card_data\n",
                            "scripts/tool.py": "from edh_service.cli import main\n",
                            "cli.py": "from edh_service.cli import main\n"})
    graph = import_graph(root)
    assert graph["cli"] == graph["scripts.tool"] == graph["card_data.__main__"] == {"edh_service.cli"}
    assert upward_imports(graph) == ["card_data.__main__ -> edh_service.cli", "validator.__main__ -> card_data"]
