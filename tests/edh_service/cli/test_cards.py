"""The `cards` command: import, sync, status and their exit codes."""

from __future__ import annotations

import json

import pytest

from card_data.settings import BracketSources
from edh_service.cli import cards as cli
from edh_service.config import bracket_sources
from card_data.store import read_metadata
from tests.support.scryfall_server import FIXTURES


def run(capsys, *argv):
    """Run `cards argv...`; return (exit code, stdout, stderr)."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_then_status(tmp_path, capsys):
    db = str(tmp_path / "cards.sqlite3")
    code, out, _ = run(capsys, "import", str(FIXTURES / "cards.jsonl"), "--db", db,
                       "--updated-at", "2026-11-01T00:00:00+00:00")
    assert code == 0 and "98 cards" in out
    code, out, _ = run(capsys, "status", "--db", db, "--json")
    assert code == 0
    assert json.loads(out)["card_data"] == {
        "source": "file:cards.jsonl", "updated_at": "2026-11-01T00:00:00+00:00", "cards": 98,
    }


def test_status_without_store_fails(tmp_path, capsys):
    code, out, _ = run(capsys, "status", "--db", str(tmp_path / "none.sqlite3"))
    assert code == cli.EXIT_ERROR and "no card store" in out


def test_sync_then_sync_again_is_up_to_date(tmp_path, capsys, scryfall_server):
    db = str(tmp_path / "cards.sqlite3")
    assert run(capsys, "sync", "--db", db, "--api-url", scryfall_server.base_url)[0] == 0
    code, out, _ = run(capsys, "sync", "--db", db, "--api-url", scryfall_server.base_url)
    assert code == 0 and "up to date" in out
    assert read_metadata(db).updated_at == scryfall_server.updated_at


def test_environment_chooses_store_and_api(tmp_path, capsys, scryfall_server, monkeypatch):
    monkeypatch.setenv("CARD_DB", str(tmp_path / "env.sqlite3"))
    monkeypatch.setenv("SCRYFALL_API_URL", scryfall_server.base_url)
    assert run(capsys, "sync")[0] == 0
    assert read_metadata(tmp_path / "env.sqlite3").cards == 98


@pytest.mark.parametrize(("fault", "code", "message"), [
    ({"fail_next": [429]}, cli.EXIT_TEMPFAIL, "retry after 30 s"),
    ({"malformed_line": True}, cli.EXIT_ERROR, "malformed card data"),
])
def test_sync_failures_exit_nonzero_with_a_message(tmp_path, capsys, scryfall_server, fault, code, message):
    for name, value in fault.items():
        setattr(scryfall_server, name, value)
    result, _, err = run(capsys, "sync", "--db", str(tmp_path / "cards.sqlite3"), "--api-url", scryfall_server.base_url)
    assert result == code and message in err


def test_import_of_a_missing_file(tmp_path, capsys):
    code, _, err = run(capsys, "import", str(tmp_path / "absent.jsonl.gz"), "--db", str(tmp_path / "c.sqlite3"))
    assert code == cli.EXIT_ERROR and "no such card data file" in err


def test_settings_name_the_sources():
    settings = {"SCRYFALL_API_URL": "http://127.0.0.1:1", "SPELLBOOK_URL": "http://127.0.0.1:2",
                "MASS_LAND_DENIAL_FILE": "/m.txt", "COMBOS_FILE": "/c.txt", "USER_AGENT": None}
    assert bracket_sources(settings) == BracketSources("http://127.0.0.1:1", "http://127.0.0.1:2", "/m.txt", "/c.txt")
    assert bracket_sources({}, api_url="http://x").spellbook_url == "https://json.commanderspellbook.com"
    assert bracket_sources({"USER_AGENT": "bot/1"}).user_agent == "bot/1"


def test_cards_reads_the_sources_from_the_settings_table(monkeypatch):
    from edh_service.config import setting

    monkeypatch.setenv("SPELLBOOK_URL", "http://127.0.0.1:3/sb")
    monkeypatch.setenv("COMBOS_FILE", "/c.txt")
    monkeypatch.delenv("SCRYFALL_API_URL", raising=False)
    found = cli.bracket_sources(setting)
    assert found.spellbook_url == "http://127.0.0.1:3/sb" and found.combos_file == "/c.txt"
    assert found.mass_land_denial_file is None
    assert found.api_url == "https://api.scryfall.com"  # the table's default
