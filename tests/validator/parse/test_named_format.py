"""The game format a list names for itself (Decklist.named_format): site exports'
format fields, a CSV format column, a `Format: NAME` line before the first card; and the
Oathbreaker sections and categories."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SHARED
from tests.validator.parse import C, M, codes, rows
from validator.decklist import NamedFormat, Section
from validator.parse import parse

SIG = Section.SIGNATURE


@pytest.mark.parametrize(("text", "named"), [
    ("Format: Brawl\n1 Sol Ring\n", "Brawl"),
    ("format:duelCommander\n1 Sol Ring\n", "duelCommander"),
    ("// Format: Pauper EDH\n1 Sol Ring\n", "Pauper EDH"),
    ("# FORMAT: Oathbreaker\nCommander\n1 Sol Ring\n", "Oathbreaker"),
    ("About\nName My Deck\n\nFormat: Standard Brawl\nDeck\n1 Sol Ring\n", "Standard Brawl"),
])
def test_a_format_line_before_the_first_card_names_the_format(text, named):
    decklist = parse(text)
    line = next(n for n, t in enumerate(text.split("\n"), 1) if "format" in t.lower())
    assert decklist.named_format == NamedFormat(named, line)
    assert codes(decklist) == []
    assert line in decklist.accounted
    assert [e.name for e in decklist.entries] == ["Sol Ring"]


def test_a_format_line_after_the_first_card_is_read_as_before():
    decklist = parse("1 Sol Ring\nFormat: Brawl\n")
    assert decklist.named_format is None
    assert [e.name for e in decklist.entries] == ["Sol Ring", "Format: Brawl"]  # a name that resolves to nothing
    assert parse("1 Sol Ring\n// Format: Brawl\n").named_format is None


def test_a_list_naming_no_format():
    assert parse("1 Sol Ring\n").named_format is None


@pytest.mark.parametrize(("export", "named"), [
    ({"format": "duelCommander", "boards": {"mainboard": {"cards": {}}}}, "duelCommander"),
    ({"format": "historicBrawl", "mainboard": {}, "commanders": {}}, "historicBrawl"),
    ({"deckFormat": 12, "categories": [], "cards": []}, "Duel Commander"),
    ({"deckFormat": 17, "categories": [], "cards": []}, "Pauper EDH"),
    ({"deckFormat": 20, "categories": [], "cards": []}, "Historic Brawl"),
    ({"deckFormat": 999, "categories": [], "cards": []}, None),
    ({"deckFormat": True, "categories": [], "cards": []}, None),
    ({"result": {"deck": {"format": "Pauper Commander", "subDecks": {}}}}, "Pauper Commander"),
    ({"format": None, "boards": {}}, None),
    ({"format": 7, "boards": {}}, None),
])
def test_a_site_export_names_its_format(export, named):
    text = json.dumps(export, indent=1)
    decklist = parse(text)
    found = decklist.named_format
    assert (found.text if found else None) == named
    if named:
        key = '"deckFormat"' if "deckFormat" in export else '"format"'
        assert found.line == next(n for n, t in enumerate(text.split("\n"), 1) if key in t)


def test_a_csv_format_column_names_the_format():
    decklist = parse("count,name,format\n1,Sol Ring,\n1,Island,paupercommander\n")
    assert decklist.named_format == NamedFormat("paupercommander", 3)
    assert [e.name for e in decklist.entries] == ["Sol Ring", "Island"]


def test_a_long_format_name_is_cut_short():
    decklist = parse("Format: " + "x" * 500 + "\n1 Sol Ring\n")
    assert len(decklist.named_format.text) <= 60


@pytest.mark.parametrize("text", [
    "Oathbreaker\n1 Rowan\n\nSignature Spell\n1 Lightning Bolt\n\nDeck\n1 Sol Ring\n",
    "Oathbreakers:\n1 Rowan\nSignature Spells (1)\n1 Lightning Bolt\nDeck\n1 Sol Ring\n",
])
def test_oathbreaker_and_signature_spell_headers(text):
    rows_found = [(name, section) for name, _, section, _ in rows(parse(text))]
    assert rows_found == [("Rowan", C), ("Lightning Bolt", SIG), ("Sol Ring", M)]


def test_archidekt_text_categories_for_oathbreaker():
    decklist = parse("1 Rowan [Oathbreaker]\n1 Lightning Bolt [Signature Spell]\n1 Sol Ring [Ramp]\n")
    assert [(e.name, e.section) for e in decklist.entries] == [("Rowan", C), ("Lightning Bolt", SIG), ("Sol Ring", M)]


def test_moxfield_v2_signature_spells_board():
    export = {"format": "oathbreaker", "mainboard": {"x": {"quantity": 1, "card": {"name": "Sol Ring"}}},
              "commanders": {"y": {"quantity": 1, "card": {"name": "Rowan"}}},
              "signatureSpells": {"z": {"quantity": 1, "card": {"name": "Lightning Bolt"}}}}
    decklist = parse(json.dumps(export))
    assert sorted((e.name, e.section) for e in decklist.entries) == [
        ("Lightning Bolt", SIG), ("Rowan", C), ("Sol Ring", M)]
    assert decklist.named_format.text == "oathbreaker"


FIXTURES = SHARED / "decks" / "mtg-parser-fixtures"


@pytest.mark.parametrize(("name", "named"), [
    ("moxfield_api_WBXKb_3-amigos.json", "commander"),
    ("archidekt_api_1365846_3-amigos.json", "Commander"),  # deckFormat 3
    ("tcgplayer_api_465171_cat-base.json", "Commander"),
    ("tcgplayer_api_496887_malcolm-vial-smasher.json", "commander"),
])
def test_real_exports_name_their_format(name, named):
    path = FIXTURES / name
    if not path.is_file():
        pytest.skip("../shared is absent")
    decklist = parse(path.read_bytes().decode("utf-8-sig"))
    assert decklist.named_format is not None and decklist.named_format.text == named
