"""Every real deck's full API report equals the stored golden one (tests/support/golden_reports.py
says how the file was made and how to regenerate it). Skipped without ../shared."""

from __future__ import annotations

import json

import pytest

from tests.support.golden_reports import GOLDEN, build_store, deck_paths, reports


@pytest.fixture(scope="module")
def answers(shared_dir, tmp_path_factory):
    """The reports the service gives now, over a freshly imported real store."""
    db = build_store(shared_dir, tmp_path_factory.mktemp("golden") / "cards.sqlite3")
    return reports(shared_dir, db)


def test_the_golden_file_covers_every_deck(shared_dir):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(golden) == sorted(deck_paths(shared_dir))
    # not a file of errors: the real precons validate to real reports
    assert sum(1 for a in golden.values() if a["status"] == 200 and a["body"]["card_count"] == 100) >= 30


def test_reports_equal_the_golden_ones(answers):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for path, expected in golden.items():
        assert answers[path] == expected, path
