"""The two engines of one source (DESIGN.md "The compiled core"), timed in the same run:
`validate_text` on the real store from the compiled build, from the same source as plain
Python (what a machine without a C compiler runs), and from the plain source of a base
version (BENCH_BASE, a git ref; by default BASE, the last version before the typed source,
which the plain build must not be slower than), each in a process of its own taking
turns; and how long `pip install .` takes to compile the engine on this machine.

The trees are copies of the packages' .py files (the compiled one adds the .so files that
`make compiled` left beside them; without them, or without git, those rows say so). Every
tree is timed on the same store file and the same texts: the Forge precon, a commander and
99 basic lands, and a 20-card list.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_http import REAL_CARDS, REAL_DECK, store_and_deck
from bench.bench_peer import GOBLINS
from bench.common import Row, micros

NAME = "engines"
ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("validator", "card_data", "edh_service")
TURNS = 3  # each tree timed this many times, in turn
# The last commit before the typed, compiled source: what users without a compiler ran then.
BASE = "d56f28c"
TEXTS = {
    "Forge precon": None,  # REAL_DECK's text
    "commander + 99 basics": "Commander\n1 Krenko, Mob Boss\n\nDeck\n99 Mountain\n",
    "20-card list": "Commander\n1 Krenko, Mob Boss\n\nDeck\n" + "".join(f"1 {name}\n" for name in GOBLINS),
}
# Run in each tree's own process: its packages first on the path, nothing of this tree's.
CHILD = """
import json, statistics, sys, time
from card_data import open_repository
from card_data.settings import StoreSettings
from edh_service.pipeline import validate_text
import validator
db, texts = sys.argv[1], json.loads(sys.argv[2])
repository = open_repository(StoreSettings(db, offline=True))
found = {"engine": getattr(validator, "ENGINE", "python"), "medians": {}}
for label, text in texts.items():
    for _ in range(50):
        validate_text(text, repository)
    samples = []
    for _ in range(400):
        start = time.perf_counter()
        validate_text(text, repository)
        samples.append(time.perf_counter() - start)
    found["medians"][label] = statistics.median(samples)
print(json.dumps(found))
"""


def copy_tree(target: Path, compiled: bool) -> Path:
    """This tree's packages as .py files (and the in-place build's .so files, mypyc's library
    among them, when `compiled`)."""
    patterns = ("__pycache__", "*.pyc") if compiled else ("__pycache__", "*.pyc", "*.so")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, target / package, ignore=shutil.ignore_patterns(*patterns))
    return target


def base_tree(target: Path, ref: str) -> Path | None:
    """The packages of a git ref, or None when git cannot give them."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, *PACKAGES], capture_output=True)
    if archive.returncode != 0:
        return None
    target.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def timed(tree: Path, db: Path, texts: dict[str, str]) -> dict:
    """The child's medians for every text, from `tree`'s packages."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(db), json.dumps(texts)], cwd=tree, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(tree)}, timeout=600, check=True)
    return json.loads(done.stdout)


def pip_install_seconds(scratch: Path) -> tuple[float, bool]:
    """`pip install --no-deps .` from a fresh copy of the tracked files into a target folder
    (the build requirements from this venv: --no-build-isolation), and whether it compiled."""
    source = scratch / "source"
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(scratch / "installed"), str(source)], check=True, capture_output=True,
                   env={k: v for k, v in os.environ.items() if k != "EDH_PURE_PYTHON"})
    seconds = time.perf_counter() - start
    return seconds, any((scratch / "installed" / "validator").glob("*.so"))


def run() -> list[Row]:
    """The engines' medians and ratios, and the compiled install's time."""
    if not (REAL_CARDS.is_file() and REAL_DECK.is_file()):
        return [Row(NAME, "skipped", "../shared is absent")]
    db, deck, _ = store_and_deck()
    texts = {label: text or deck for label, text in TEXTS.items()}
    base_ref = os.environ.get("BENCH_BASE", BASE)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        trees = {"compiled": copy_tree(scratch / "compiled", compiled=True),
                 "plain": copy_tree(scratch / "plain", compiled=False)}
        base = base_tree(scratch / "base", base_ref)
        if base is not None:
            trees[f"plain {base_ref}"] = base
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for _ in range(TURNS):
            for name, tree in trees.items():
                runs[name].append(timed(tree, db, texts))
        medians = {name: {label: statistics.median(run["medians"][label] for run in found) for label in texts}
                   for name, found in runs.items()}
        engines = {name: found[0]["engine"] for name, found in runs.items()}
        for name in trees:
            rows.append(Row(NAME, f"validate_text, {name} ({engines[name]}): " + ", ".join(texts),
                            " / ".join(micros(medians[name][label]) for label in texts),
                            "Forge precon ≤ 150 µs" if name == "compiled" else ""))
        if engines["compiled"] != "compiled":
            rows.append(Row(NAME, "compiled engine", "none in this tree: `make compiled` first"))
        else:
            rows.append(Row(NAME, "plain / compiled, same texts", " / ".join(
                f"{medians['plain'][label] / medians['compiled'][label]:.2f}x" for label in texts)))
        if base is not None:
            base_medians = medians[f"plain {base_ref}"]
            rows.append(Row(NAME, f"plain build / plain {base_ref}, same texts", " / ".join(
                f"{medians['plain'][label] / base_medians[label]:.2f}x" for label in texts), "≤ 1.00x"))
        else:
            rows.append(Row(NAME, f"plain build / {base_ref}", f"skipped: git has no {base_ref}"))
        seconds, compiled = pip_install_seconds(scratch / "install")
        what = f"`pip install .`, fresh copy, {os.cpu_count()} cores: wall" + ("" if compiled else " (NOT compiled)")
        rows.append(Row(NAME, what, f"{seconds:.0f} s", "≤ 3 min"))
    rows.append(Row(NAME, "setup", f"{TURNS} turns of {len(trees)} processes; load {os.getloadavg()[0]:.1f}"))
    return rows
