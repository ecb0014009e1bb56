"""One source, two engines (DESIGN.md "The compiled core"): the engine mypyc compiled and
the same source run as plain Python give byte-identical answers on every real deck of
../shared/decks (the golden reports' decks), with and without the formats, the overview and
a declared bracket. Runs where this tree holds the compiled build (`make test-compiled`,
as .ci/run does); the plain engine is a copy of the packages' .py files alone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.golden_reports import GOLDEN, SHARED, build_store
from validator import ENGINE

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("validator", "card_data", "edh_service")

pytestmark = pytest.mark.skipif(not (SHARED / "carddata" / "oracle-cards.jsonl.gz").is_file(),
                                reason="../shared/carddata is absent")


def answers(tree: Path, db: Path, out: Path) -> dict:
    """tests.support.engine_reports run with `tree`'s packages first on the path."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(dict.fromkeys((str(tree), str(ROOT))))}
    subprocess.run([sys.executable, "-m", "tests.support.engine_reports", str(db), str(out)], cwd=tree,
                   env=environment, check=True, timeout=600)
    return json.loads(out.read_text(encoding="utf-8"))


def test_compiled_and_plain_python_answer_byte_for_byte(tmp_path):
    """Every answer's bytes are the same from both engines, and the plain one's are the golden reports."""
    if ENGINE != "compiled":
        pytest.skip("this tree runs plain Python: `make test-compiled` builds the compiled engine first")
    db = build_store(SHARED, tmp_path / "cards.sqlite3")
    plain_tree = tmp_path / "plain"
    for package in PACKAGES:
        shutil.copytree(ROOT / package, plain_tree / package, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    compiled = answers(ROOT, db, tmp_path / "compiled.json")
    plain = answers(plain_tree, db, tmp_path / "plain.json")
    assert (compiled["engine"], Path(compiled["validator"])) == ("compiled", ROOT / "validator")
    assert (plain["engine"], Path(plain["validator"])) == ("python", plain_tree / "validator")
    assert len(plain["reports"]) == 2 * len(json.loads(GOLDEN.read_text(encoding="utf-8")))
    assert compiled["reports"].keys() == plain["reports"].keys()
    differing = [deck for deck, body in plain["reports"].items() if compiled["reports"][deck] != body]
    assert not differing, differing
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for path, expected in golden.items():
        status, _, body = plain["reports"][f"{path} []"].partition(" ")
        answer = {"status": int(status)}
        if answer["status"] == 200:
            answer["body"] = {key: value for key, value in json.loads(body).items() if key != "card_data"}
        assert answer == expected, path
