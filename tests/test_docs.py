"""The documentation cannot drift: its generated tables equal what the code says now, the
site builds with --strict (a broken link or anchor fails), and the README keeps a
newcomer's two answers near its top."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from scripts import gen_docs
from tests.support.cli_runs import ROOT

BLOCKS = [(page, name) for page, blocks in gen_docs.BLOCKS.items() for name in blocks]


@pytest.mark.parametrize(("page", "name"), BLOCKS)
def test_generated_block_is_what_the_code_says(page, name):
    text = (gen_docs.DOCS / page).read_text(encoding="utf-8")
    assert gen_docs.committed(text, name) == gen_docs.BLOCKS[page][name](), (
        f"docs/{page} is stale: run `python -m scripts.gen_docs` (or `make docs`)")


def test_regenerating_keeps_the_text_around_a_block():
    text = "intro\n<!-- generated: x (by hand) -->\nold\n<!-- end generated: x -->\noutro\n"
    assert gen_docs.regenerate(text, {"x": lambda: "new"}) == (
        "intro\n<!-- generated: x (by hand) -->\nnew\n<!-- end generated: x -->\noutro\n")
    with pytest.raises(ValueError):
        gen_docs.regenerate("no markers", {"x": lambda: "new"})


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="mkdocs is not installed")
def test_the_site_builds_strictly(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})  # Material's banner about its successor
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "http-api" / "index.html").is_file()


def test_the_readme_answers_a_newcomer_on_its_first_screens():
    """The API's curl within the first screen (50 lines), running offline within two."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("curl ") for line in lines[:50])
    assert any("CARD_DATA_FILE=" in line for line in lines[:100])
    assert any("CARD_DATA_OFFLINE=1" in line for line in lines[:100])
    assert len(lines) <= 250
