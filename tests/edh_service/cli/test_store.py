"""edh_service/cli/store.py: the card store edh-validate opens (a "~" in --card-db is the
user's home, as the pre-commit hook passes it without a shell)."""

from __future__ import annotations

from edh_service.cli import store
from tests.support.cli_runs import ROOT


def test_card_db_tilde_is_expanded_as_the_hook_passes_it(monkeypatch, tmp_path):
    # pre-commit passes args without a shell, so "~" arrives literally.
    monkeypatch.setenv("HOME", str(tmp_path))
    bulk = ROOT / "tests" / "fixtures" / "cards.jsonl"
    repository = store.open_card_store("~/.cache/edh-validate/cards.sqlite3", offline=True, bulk_file=str(bulk))
    assert (tmp_path / ".cache" / "edh-validate" / "cards.sqlite3").is_file()
    assert repository.metadata().source == "file:cards.jsonl"
