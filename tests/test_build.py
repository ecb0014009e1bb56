"""The package's build: pyproject.toml names the in-tree backend (scripts/build_backend.py,
setuptools' hooks with the two steps pyproject.toml cannot say), a compiling build asks for
all its type check reads, and what a frontend builds through it holds what the service
needs. Built here as `python -m build` would, offline: an sdist through the backend's hook,
then pip's wheel from that sdist (plain Python, EDH_PURE_PYTHON=1: compiling takes minutes,
and `make test-compiled` holds the compiled build to the plain one's answers,
tests/test_engines.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from importlib.metadata import packages_distributions
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from setuptools import build_meta

from scripts import build_backend
from tests.support.action_runner import checkout

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / build_backend.CATALOGS


def test_pyproject_names_the_in_tree_backend():
    system = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    assert (system["build-backend"], system["backend-path"]) == ("build_backend", ["scripts"])
    assert Path(build_backend.__file__).resolve() == ROOT / "scripts" / "build_backend.py"


def test_the_backend_has_every_hook_of_setuptools():
    hooks = set(build_meta.__all__) - {"SetupRequirementsError", "__legacy__"}
    assert hooks <= {name for name in dir(build_backend) if callable(getattr(build_backend, name))}
    assert all(getattr(build_backend, hook).__self__ is build_backend._BACKEND for hook in hooks)


def test_pure_python_is_asked_for_with_edh_pure_python(monkeypatch):
    monkeypatch.setattr(build_backend, "compiler_at_hand", lambda: True)
    for value, compiles in (("", True), ("0", True), ("1", False), ("yes", False)):
        monkeypatch.setenv("EDH_PURE_PYTHON", value)
        assert build_backend.compiling() is compiles, value


def test_only_a_compiling_build_asks_for_mypy_and_the_packages_it_reads(monkeypatch):
    monkeypatch.setattr(build_meta._BuildMetaBackend, "get_requires_for_build_wheel",
                        lambda self, config_settings=None: ["setuptools's own"])
    for compiles, extra in ((True, build_backend.COMPILING), (False, [])):
        monkeypatch.setattr(build_backend, "compiling", lambda: compiles)
        assert build_backend.get_requires_for_build_wheel() == ["setuptools's own", *extra]
        assert build_backend.get_requires_for_build_editable() == ["setuptools's own"]  # never compiles


def test_the_build_pins_what_the_requirements_files_pin():
    """An isolated build type-checks and compiles with the development venv's versions."""
    pinned = {}
    for name in ("requirements.txt", "requirements-dev.txt"):
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            if "==" in line and not line.startswith("#"):
                pinned[line.partition("==")[0].strip().lower()] = line.strip()
    system = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    for requirement in [*system["requires"], *build_backend.COMPILING]:
        assert pinned.get(requirement.partition("==")[0].lower()) == requirement


def test_compiling_asks_for_every_package_the_engines_type_check_reads(tmp_path):
    """mypy run as mypyc runs it, on the compiled modules, but blind to installed packages:
    every package it then misses is one a compiling build must ask for (COMPILING), its stubs
    too where it ships no types, else `pip install .` fails in a fresh venv."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-site-packages", "--no-error-summary", "--cache-dir",
                           str(tmp_path), *build_backend.engine_modules()], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    untyped = set(re.findall(r'Library stubs not installed for "(\w+)', done.stdout))
    missing = set(re.findall(r'module named "(\w+)', done.stdout)) | untyped
    assert missing >= {"requests", "defusedxml"}, done.stdout + done.stderr  # the check reads them at all
    asked = {requirement.partition("==")[0].lower() for requirement in build_backend.COMPILING}
    distributions = packages_distributions()
    needed = {distribution.lower() for module in missing for distribution in distributions[module]}
    needed |= {f"types-{distribution.lower()}" for module in untyped for distribution in distributions[module]}
    assert needed <= asked


def built(source: Path, out: Path, env: dict[str, str]) -> Path:
    """An sdist of `source` made by the backend's own hook, as a frontend calls it."""
    hook = "import sys, build_backend; print(build_backend.build_sdist(sys.argv[1]))"
    done = subprocess.run([sys.executable, "-c", hook, str(out)], cwd=source,
                          env={**env, "PYTHONPATH": str(source / "scripts")}, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out / done.stdout.split()[-1]


def wheel_of(sdist: Path, out: Path, env: dict[str, str]) -> Path:
    """pip's wheel built from the sdist: offline, with this environment's setuptools, Babel and mypy."""
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
                           "--no-build-isolation", "--no-cache-dir", "--wheel-dir", str(out), str(sdist)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    [wheel] = out.glob("*.whl")
    return wheel


def test_a_wheel_built_from_the_sdist_holds_the_compiled_catalogs(tmp_path):
    env = {**os.environ, "EDH_PURE_PYTHON": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    sdist = built(checkout(tmp_path / "source"), tmp_path / "sdist", env)
    with tarfile.open(sdist) as archive:
        assert f"{sdist.name.removesuffix('.tar.gz')}/scripts/build_backend.py" in archive.getnames()
    wheel = wheel_of(sdist, tmp_path / "wheel", env)
    assert wheel.name.endswith("-py3-none-any.whl")  # plain Python: no platform, no .so
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert not [name for name in names if name.endswith(".so") or name.startswith("scripts/")]
        sources = sorted(CATALOGS.glob("*/LC_MESSAGES/*.po"))
        assert len(sources) >= 10
        for po in sources:
            mo = po.with_suffix(".mo").relative_to(ROOT).as_posix()
            assert mo in names, mo
            with po.open("rb") as text:
                expected = {plain(message.id): plain(message.string) for message in read_po(text)
                            if message.id and any(plain(message.string)) and not message.fuzzy}
            with archive.open(mo) as compiled:
                found = {plain(message.id): plain(message.string) for message in read_mo(compiled) if message.id}
            assert found == expected and expected, po


def plain(text: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A message's id or text, singular or plural forms, as one comparable value."""
    return (text,) if isinstance(text, str) else tuple(text)
