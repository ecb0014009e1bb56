"""Names printed in other languages from the command line: `cards import-names`, `cards
status`, `cards sync` refreshing them, and edh-validate's text line and JSON `translated`."""

from __future__ import annotations

import json

import pytest

from card_data.store import names_table
from edh_service.cli import cards as cli
from tests.support.cli_runs import run_cli
from tests.support.factories import FOREIGN_BASICS, FOREIGN_SPELLS, PRINTED_NAMES, deck_text, load_card_names
from tests.support.scryfall_server import FIXTURES, load_jsonl

SPANISH_DECK = deck_text(commander="Atraxa, voz de los pretores", spells=FOREIGN_SPELLS, basics=FOREIGN_BASICS)


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_names_then_status(fixture_db, capsys):
    code, out, err = run(capsys, "import-names", str(FIXTURES / PRINTED_NAMES), "--db", str(fixture_db),
                         "--updated-at", "2026-11-29T00:00:00+00:00")
    assert code == 0 and err == ""
    assert "card names updated: 26 printed names in 5 languages (de, es, fr, ja, ru)" in out
    code, out, _ = run(capsys, "status", "--db", str(fixture_db))
    assert code == 0
    assert "  card names: 26 printed names in 5 languages (de, es, fr, ja, ru) from file:printed-names.jsonl, " \
           "updated_at 2026-11-29T00:00:00+00:00" in out
    code, out, _ = run(capsys, "status", "--db", str(fixture_db), "--json")
    assert json.loads(out)["card_names"] == {"languages": ["de", "es", "fr", "ja", "ru"], "names": 26,
                                             "updated_at": "2026-11-29T00:00:00+00:00"}


def test_status_says_when_there_is_no_names_table(fixture_db, capsys):
    code, out, _ = run(capsys, "status", "--db", str(fixture_db))
    assert code == 0 and "card names: not loaded (names in other languages are unknown cards)" in out


def test_import_names_keeps_the_languages_setting_and_refuses_when_it_is_off(fixture_db, capsys, monkeypatch):
    monkeypatch.setenv("CARD_NAME_LANGUAGES", "es,ja")
    code, out, _ = run(capsys, "import-names", str(FIXTURES / PRINTED_NAMES), "--db", str(fixture_db))
    assert code == 0 and "in 2 languages (es, ja)" in out
    monkeypatch.setenv("CARD_NAME_LANGUAGES", "")
    code, _, err = run(capsys, "import-names", str(FIXTURES / PRINTED_NAMES), "--db", str(fixture_db))
    assert code == 1 and "CARD_NAME_LANGUAGES is empty" in err
    monkeypatch.setenv("CARD_NAME_LANGUAGES", "es,xx")
    code, _, err = run(capsys, "import-names", str(FIXTURES / PRINTED_NAMES), "--db", str(fixture_db))
    assert code == 1 and "unknown language code 'xx'" in err


def test_import_names_of_a_missing_or_broken_file_is_an_error(fixture_db, tmp_path, capsys):
    code, _, err = run(capsys, "import-names", str(tmp_path / "nope.jsonl"), "--db", str(fixture_db))
    assert code == 1 and "no such card names file" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{"object": "list", "data": [{"object": "card", "name": "Sol', encoding="utf-8")
    code, _, err = run(capsys, "import-names", str(broken), "--db", str(fixture_db))
    assert code == 1 and "not valid JSON" in err
    assert not names_table.read_status(fixture_db).loaded


def test_sync_refreshes_the_names_and_warns_when_they_fail(tmp_path, capsys, scryfall_server):
    db = str(tmp_path / "cards.sqlite3")
    code, out, err = run(capsys, "sync", "--db", db, "--api-url", scryfall_server.base_url)
    assert code == 0  # no all_cards (404): a warning, the cards are fine
    assert "warning: card names not refreshed (no table loaded): Scryfall answered 404" in err
    scryfall_server.all_cards = load_jsonl(FIXTURES / PRINTED_NAMES)
    code, out, err = run(capsys, "sync", "--db", db, "--api-url", scryfall_server.base_url)
    assert code == 0 and "card names: 26 printed names in 5 languages" in out


def test_edh_validate_says_how_many_lines_it_read_in_which_language(fixture_db, tmp_path):
    load_card_names(fixture_db)
    deck = tmp_path / "mazo.txt"
    deck.write_text(SPANISH_DECK, encoding="utf-8")
    result = run_cli("--offline", "--card-db", fixture_db, deck)
    assert result.returncode == 0, result.stdout
    assert "  read in other languages: 4 lines in Spanish (es), 1 line in French (fr)" in result.stdout.splitlines()
    result = run_cli("--offline", "--card-db", fixture_db, "--strict", deck)
    assert result.returncode == 0  # not a warning: --strict is unaffected
    result = run_cli("--offline", "--card-db", fixture_db, "--format", "json", deck)
    (body,) = json.loads(result.stdout)
    assert body["translated"][1] == {"name": "Contrahechizo", "card": "Counterspell", "lang": "es", "lines": [8]}


def test_edh_validate_of_an_english_list_prints_no_language_line(fixture_db, tmp_path):
    load_card_names(fixture_db)
    deck = tmp_path / "deck.txt"
    deck.write_text(deck_text(), encoding="utf-8")
    result = run_cli("--offline", "--card-db", fixture_db, deck)
    assert result.returncode == 0 and "other languages" not in result.stdout


@pytest.mark.parametrize("value", ["all", "ES, de", ""])
def test_the_languages_setting_reads(value):
    from edh_service.config import languages

    assert languages(value) == {"all": None, "ES, de": ("es", "de"), "": ()}[value]


def test_sync_no_names_leaves_the_names_to_the_service(tmp_path, capsys, scryfall_server):
    scryfall_server.all_cards = load_jsonl(FIXTURES / PRINTED_NAMES)
    db = str(tmp_path / "cards.sqlite3")
    code, out, err = run(capsys, "sync", "--no-names", "--db", db, "--api-url", scryfall_server.base_url)
    assert code == 0 and "card names" not in out + err
    assert not [path for path in scryfall_server.paths() if "all-cards" in path]
