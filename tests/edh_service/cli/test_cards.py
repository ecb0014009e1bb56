"""The `cards` command: import, sync, status, brackets, their output and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from card_data.store.list_tables import MASS_LAND_DENIAL, TWO_CARD_COMBOS
from card_data.settings import BracketSources, StoreSettings
from card_data.store.cards import read_metadata
from card_data.sync import adopt
from edh_service.cli import cards as cli
from edh_service.config import bracket_sources
from tests.support.scryfall_server import BRACKETS, FIXTURES, MASS_LAND_DENIAL_QUERY, with_bracket_lists
from validator import ENGINE

DOWNLOAD = "/files/oracle-cards.jsonl.gz"


def run(capsys, *argv):
    """Run `cards argv...`; return (exit code, stdout, stderr)."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def server(scryfall_server):
    """The local server with the fixture tag search and Spellbook export (with_bracket_lists)."""
    return with_bracket_lists(scryfall_server)


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
    assert json.loads(out)["engine"] == ENGINE in ("compiled", "python")
    code, out, _ = run(capsys, "status", "--db", db)
    assert code == 0 and f"  engine: {ENGINE}\n" in out


def test_python_m_edh_service_cli_cards_runs_the_command_from_any_folder(tmp_path):
    db = tmp_path / "cards.sqlite3"
    imported = subprocess.run([sys.executable, "-m", "edh_service.cli.cards", "import", str(FIXTURES / "cards.jsonl"),
                               "--db", str(db)], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0, imported.stderr
    assert "98 cards" in imported.stdout
    status = subprocess.run([sys.executable, "-m", "edh_service.cli.cards", "status", "--db", str(db), "--json"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert status.returncode == 0 and json.loads(status.stdout)["card_data"]["cards"] == 98
    missing = subprocess.run([sys.executable, "-m", "edh_service.cli.cards", "status", "--db", str(tmp_path / "none")],
                             cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert missing.returncode == cli.EXIT_ERROR and "no card store" in missing.stdout


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


# --- the bracket lists ------------------------------------------------------------------


def test_cards_sync_and_status(tmp_path, server, capsys, monkeypatch):
    db = str(tmp_path / "cards.sqlite3")
    monkeypatch.setenv("SPELLBOOK_URL", f"{server.base_url}/spellbook")
    assert cli.main(["sync", "--db", db, "--api-url", server.base_url]) == 0
    out = capsys.readouterr().out
    assert "mass land denial: 5 entries (5 names unknown to the card data)" in out
    assert "two-card combos: 4 entries from spellbook:" in out
    assert cli.main(["status", "--db", db, "--json"]) == 0
    status = json.loads(capsys.readouterr().out)["brackets"]
    assert status[TWO_CARD_COMBOS]["entries"] == 4
    assert status[TWO_CARD_COMBOS]["updated_at"] == "2026-11-30T08:15:00.123456+00:00"
    assert status[MASS_LAND_DENIAL]["source"] == f"scryfall:{MASS_LAND_DENIAL_QUERY}"


def test_cards_sync_warns_when_a_list_fails(tmp_path, server, capsys, monkeypatch):
    db = str(tmp_path / "cards.sqlite3")
    monkeypatch.setenv("SPELLBOOK_URL", f"{server.base_url}/spellbook")
    server.spellbook_export = b"[]"
    assert cli.main(["sync", "--db", db, "--api-url", server.base_url]) == 0  # the cards are fine
    err = capsys.readouterr().err
    assert "warning: two-card combos not refreshed (no list loaded)" in err
    assert cli.main(["status", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "two-card combos: not loaded" in out and "last refresh failed" in out


def test_cards_import_with_files_and_brackets_command(tmp_path, server, capsys, monkeypatch):
    db = str(tmp_path / "cards.sqlite3")
    monkeypatch.setenv("MASS_LAND_DENIAL_FILE", str(BRACKETS / "mass-land-denial.txt"))
    assert cli.main(["import", str(FIXTURES / "cards.jsonl"), "--db", db]) == 0
    assert "mass land denial: 4 entries" in capsys.readouterr().out
    monkeypatch.setenv("SPELLBOOK_URL", f"{server.base_url}/spellbook")
    assert cli.main(["brackets", "--db", db, "--api-url", server.base_url]) == 0
    assert "two-card combos: 4 entries" in capsys.readouterr().out


# --- several instances (docs/deployment.md) ----------------------------------------


def test_cards_sync_publishes_for_the_other_instances(redis_server, scryfall_server, tmp_path):
    shared = tmp_path / "shared"
    env = {**os.environ, "REDIS_URL": redis_server.url, "CARD_DATA_SHARED_DIR": str(shared),
           "SCRYFALL_API_URL": scryfall_server.base_url}
    store = tmp_path / "a" / "cards.sqlite3"
    # `python -m edh_service.cli.cards` is the command as a module (the installed `cards` script's twin)
    result = subprocess.run([sys.executable, "-m", "edh_service.cli.cards", "sync", "--db", str(store)], env=env,
                            cwd=Path(__file__).resolve().parents[3], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "updated" in result.stdout
    adopted = adopt(StoreSettings(tmp_path / "b" / "cards.sqlite3", redis_url=redis_server.url, shared_dir=shared))
    assert adopted.metadata == read_metadata(store)
    assert scryfall_server.paths("GET").count(DOWNLOAD) == 1
