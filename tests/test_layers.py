"""The layers stay clean (docs/architecture.md): every production module is read with
`ast` and its imports followed, whatever form they take (top level, `if TYPE_CHECKING`,
inside a function), so that

- no module imports from a layer above its own: validator < card_data < edh_service <
  the entry points (root app.py and cli.py, scripts/: programs, never imported, so they
  may import any layer). A package's __main__.py is its package's, in its layer:
  `python -m card_data` may not run the service's `cards` command;
- no import circle exists between production modules (a module importing its own
  package's __init__ is no circle: Python imports the package first anyway);
- no production module is over MAX_LINES lines, and root cli.py is a shim of SHIM_LINES;
- inside card_data and edh_service, the sub-packages keep an order too (INNER_LAYERS: each
  sub-package's docstring says what it owns and what it may import): a module imports
  nothing of a rank above its own, and no folder holds more than MAX_MODULES modules.
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
MAX_MODULES = 16  # production modules a folder holds besides its __init__: "about 15" (DESIGN.md "Layout")

# Inside a package: rank of each of its parts (a dotted prefix; the longest that names a
# module wins), lowest first. A package's base modules (the shared vocabulary) rank 0; its
# facade (what the layer above calls) ranks last; anything unlisted ranks with the base.
INNER_LAYERS = {
    "card_data": {
        "card_data.store": 1,
        "card_data.coordination": 2,
        "card_data.scryfall": 3,
        "card_data.lists": 4,
        "card_data.names": 5,
        "card_data.sites": 5,
        "card_data.sync": 6, "card_data.repository": 6, "card_data": 6, "card_data.__main__": 6,
    },
    "edh_service": {
        "edh_service.serving": 1,
        "edh_service.api": 2,
        "edh_service.web": 3,
        "edh_service.cli": 3,
        "edh_service.factory": 4, "edh_service": 4,
        # the programs gunicorn loads (its config and the WSGI entry): nothing imports them
        "edh_service.serving.gunicorn_conf": 5, "edh_service.serving.wsgi": 5,
    },
}


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


def inner_rank(name: str) -> int:
    """A module's rank inside its package (INNER_LAYERS): its longest listed prefix's."""
    ranks = INNER_LAYERS.get(name.split(".")[0], {})
    parts = name.split(".")
    for end in range(len(parts), 1, -1):  # the package's own name ranks its __init__ alone
        prefix = ".".join(parts[:end])
        if prefix in ranks:
            return ranks[prefix]
    return ranks.get(name, 0) if name == parts[0] else 0


def inner_upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """'a -> b' for every import of a higher-ranked part of the same package."""
    return [f"{name} -> {target}" for name, targets in sorted(graph.items()) for target in sorted(targets)
            if name.split(".")[0] == target.split(".")[0] and inner_rank(target) > inner_rank(name)]


def crowded_folders(root: Path = ROOT) -> dict[str, int]:
    """Folders of production code holding more than MAX_MODULES modules."""
    counts: dict[str, int] = {}
    for path in production_modules(root).values():
        if path.parent != root and path.parent.name != "scripts" and path.name != "__init__.py":
            folder = str(path.parent.relative_to(root))
            counts[folder] = counts.get(folder, 0) + 1
    return {folder: count for folder, count in counts.items() if count > MAX_MODULES}


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
    assert graph["card_data.repository"] >= {"card_data.store.cards", "validator.deck"}  # the graph is read at all
    assert upward_imports(graph) == []


def test_no_import_circle():
    assert circles(import_graph()) == []


def package_init_circles(root: Path = ROOT) -> list[str]:
    """'package <-> module' for a module that imports an ancestor package by name (`from P
    import x`) while P's __init__ imports that module: the import graph above reads the
    former as an import of P.x, but Python runs P's __init__ first."""
    modules = production_modules(root)
    found = []
    for name, path in modules.items():
        parts = name.split(".")
        ancestors = {".".join(parts[:end]) for end in range(1, len(parts))} & modules.keys()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            package = node.module if isinstance(node, ast.ImportFrom) and not node.level else None
            if package in ancestors and name in imported(package, modules[package], modules):
                found.append(f"{package} <-> {name}")
                break
    return found


def test_no_module_imports_its_own_package_whose_init_imports_it():
    assert package_init_circles() == []


def test_a_module_importing_its_package_that_imports_it_is_found(tmp_path):
    root = write(tmp_path, {"validator/__init__.py": "", "edh_service/__init__.py": "", "card_data/__init__.py": "",
                            "card_data/sites/__init__.py": "from card_data.sites.sources import DeckSites\n",
                            "card_data/sites/archidekt.py": "",
                            "card_data/sites/sources.py": "from card_data.sites import archidekt\n"})
    assert package_init_circles(root) == ["card_data.sites <-> card_data.sites.sources"]


def test_no_module_imports_a_higher_part_of_its_own_package():
    graph = import_graph()
    assert "card_data.store.cards" in graph["card_data.scryfall.building"]  # the graph reads the sub-packages
    assert inner_upward_imports(graph) == []


def test_no_folder_is_crowded():
    assert crowded_folders() == {}


def test_every_sub_package_says_what_it_owns_and_may_import():
    for package in ("card_data", "edh_service"):
        for init in sorted((ROOT / package).glob("*/__init__.py")):
            doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
            assert "May import" in doc or "may import" in doc, init


def test_every_production_module_is_short():
    too_long = {name: lines for name, path in production_modules().items() if (lines := line_count(path)) > MAX_LINES}
    assert too_long == {}


def test_root_modules_are_shims():
    assert line_count(ROOT / "cli.py") <= SHIM_LINES
    assert line_count(ROOT / "app.py") <= SHIM_LINES


def test_the_root_holds_only_the_shims():
    """DESIGN.md "Layout": no other module at the root, a setup.py neither (the build's steps
    are scripts/build_backend.py, pyproject.toml's backend)."""
    assert sorted(path.name for path in ROOT.glob("*.py")) == ["app.py", "cli.py"]


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


def test_an_import_of_a_higher_sub_package_and_a_crowded_folder_are_found(tmp_path):
    files = {"validator/__init__.py": "", "edh_service/__init__.py": "", "card_data/__init__.py": "",
             "card_data/store/__init__.py": "", "card_data/scryfall/__init__.py": "",
             "card_data/store/cards.py": "def f():\n    from card_data.scryfall import client\n",
             "card_data/scryfall/client.py": "from card_data.store import cards\n"}
    files.update({f"card_data/names/m{index}.py": "" for index in range(MAX_MODULES + 1)})
    root = write(tmp_path, files)
    assert inner_upward_imports(import_graph(root)) == ["card_data.store.cards -> card_data.scryfall.client"]
    assert crowded_folders(root) == {"card_data/names": MAX_MODULES + 1}


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
