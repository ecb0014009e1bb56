"""edh-validate --lang (DESIGN.md "Answers in the player's language"): the text output, the
messages of every format, its own errors and warnings and --help in the chosen language, card
names as printed in it; English by default and byte for byte the same as --lang en, so CI
logs stay stable; codes, severities, rule numbers and JSON keys never change."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from tests.support.cli_runs import annotations, run_cli, run_process
from tests.support.factories import FOREIGN_BASICS, FOREIGN_SPELLS, deck_text, load_card_names
from tests.support.foreign_names import real_names_store

SPANISH_DECK = deck_text(commander="Atraxa, voz de los pretores", spells=FOREIGN_SPELLS, basics=FOREIGN_BASICS)
OFF_COLOR = deck_text(extra=("Lightning Bolt",))


@pytest.fixture
def decks(fixture_db, tmp_path):
    load_card_names(fixture_db)
    (tmp_path / "mazo.txt").write_text(SPANISH_DECK, encoding="utf-8")
    (tmp_path / "off.txt").write_text(OFF_COLOR, encoding="utf-8")
    return fixture_db, tmp_path / "mazo.txt", tmp_path / "off.txt"


def test_english_is_the_default_and_the_same_as_lang_en(decks):
    db, spanish, off = decks
    plain = run_cli("--offline", "--card-db", db, spanish, off)
    english = run_cli("--offline", "--card-db", db, "--lang", "en", spanish, off)
    assert (plain.returncode, plain.stdout, plain.stderr) == (english.returncode, english.stdout, english.stderr)
    assert "2 files checked: 1 valid, 1 invalid; 2 errors, 0 warnings." in plain.stdout


def test_text_output_in_spanish(decks):
    db, spanish, off = decks
    result = run_cli("--offline", "--card-db", db, "--lang", "es", spanish, off)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[-1] == "2 archivos comprobados: válidos: 1, no válidos: 1; 2 errores y 0 advertencias."
    assert any(line.endswith("mazo.txt: válido (0 errores y 0 advertencias)") for line in lines), lines
    assert "  leído en otros idiomas: 4 líneas en español (es) y 1 línea en francés (fr)" in lines
    # severity and code stay English (what a reader greps for); the rule number is said in Spanish
    identity = next(line for line in lines if " error color_identity: " in line)
    assert identity.startswith(f"  {off}:29: ") and identity.endswith(" (regla 903.5c)")


@pytest.mark.parametrize("output", ["json", "github", "junit"])
def test_machine_outputs_keep_their_fields(decks, output):
    db, spanish, off = decks
    english = run_cli("--offline", "--card-db", db, "--format", output, spanish, off)
    spoken = run_cli("--offline", "--card-db", db, "--format", output, "--lang", "ja", spanish, off)
    assert english.returncode == spoken.returncode == 1
    if output == "json":
        strip = lambda body: [{**f, "violations": [{k: v for k, v in x.items() if k != "message"} for x in f["violations"]],
                               "bracket": {**f["bracket"], "reasons": [r["bracket"] for r in f["bracket"]["reasons"]]}}
                              for f in body]
        assert strip(json.loads(spoken.stdout)) == strip(json.loads(english.stdout))
    elif output == "github":
        assert [(level, props) for level, props, _ in annotations(spoken.stdout)] == \
               [(level, props) for level, props, _ in annotations(english.stdout)]
        assert "ファイル" in spoken.stdout.splitlines()[-1]
    else:
        tree, english_tree = ET.fromstring(spoken.stdout.split("\n", 1)[1]), ET.fromstring(english.stdout.split("\n", 1)[1])
        assert tree.attrib == english_tree.attrib
        failure = tree.find(".//failure")
        assert failure.get("type") == "invalid_deck" and failure.get("message") == "エラー 2 件、警告 0 件"


def test_its_own_errors_and_warnings_speak_the_language(decks, tmp_path):
    db, _, _ = decks
    result = run_cli("--offline", "--card-db", db, "--lang", "de", tmp_path / "missing.txt")
    assert result.returncode == 2 and result.stderr.startswith("edh-validate: Fehler: ")
    refused = run_cli("--offline", "--card-db", db, "--lang", "fr", "--game-format", "duel", "--bracket", "2",
                      tmp_path / "x.txt")
    assert refused.returncode == 2
    assert refused.stderr.strip() == "edh-validate: erreur : --bracket ne s'applique qu'en commander, pas en duel"


def test_an_unsupported_language_is_english_never_an_error(decks):
    db, spanish, _ = decks
    for tag in ("tlh", "x" * 500, "es-MX"):
        result = run_cli("--offline", "--card-db", db, "--lang", tag, spanish)
        assert result.returncode == 0
    assert "archivo comprobado" in result.stdout  # es-MX -> es


def test_help_in_spanish_and_english():
    spanish = run_cli("--lang", "es", "--help")
    assert spanish.returncode == 0
    assert spanish.stdout.startswith("uso: edh-validate")
    for text in ("opciones:", "muestra este mensaje de ayuda y sale", "trata las advertencias como errores",
                 "Valida archivos de listas de mazos de Commander (EDH)."):
        assert text in " ".join(spanish.stdout.split()), text
    english = run_cli("--help")
    assert english.stdout.startswith("usage: edh-validate") and "treat warnings as errors" in english.stdout


def test_a_real_process_speaks_japanese():
    result = run_process("--lang=ja", "--help")
    assert result.returncode == 0 and result.stdout.startswith("使い方: edh-validate")
    assert "警告をエラーとして扱う" in result.stdout


def test_card_names_in_messages_are_printed_in_the_language(shared_dir, tmp_path):
    db, tsp, _ = real_names_store(shared_dir, tmp_path)
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 Saffi Eriksdotter\n\nDeck\n1 Walk the Aeons\n", encoding="utf-8")
    card = next(card for card in tsp["data"]["cards"] if card["name"] == "Walk the Aeons")
    spanish = next(entry["name"] for entry in card["foreignData"] if entry["language"] == "Spanish")
    result = run_cli("--offline", "--card-db", db, "--lang", "es", deck)
    bracket = next(line for line in result.stdout.splitlines() if line.startswith("  grupo mínimo"))
    assert spanish in bracket and "Walk the Aeons" not in bracket
    english = run_cli("--offline", "--card-db", db, deck)
    assert "Walk the Aeons" in english.stdout


def test_a_file_it_cannot_check_says_why_in_the_language(decks, tmp_path):
    db, _, _ = decks
    brawl = tmp_path / "brawl.txt"
    brawl.write_text("Format: Brawl\n" + OFF_COLOR, encoding="utf-8")  # a declared bracket means nothing in Brawl
    english = run_cli("--offline", "--card-db", db, "--bracket", "2", brawl)
    french = run_cli("--offline", "--card-db", db, "--bracket", "2", "--lang", "fr", brawl)
    assert english.returncode == french.returncode == 2
    assert "not checked: cannot check: bracket applies only in Commander" in english.stdout
    assert "non vérifié : impossible de vérifier : " in french.stdout and "applies only" not in french.stdout
