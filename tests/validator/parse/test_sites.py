"""Archidekt's and Moxfield's API documents read as each site means its boards (DESIGN.md
"Decks by URL"): pasted as JSON (validator.parse) and as validator.parse.sites gives them
to the service's deck-by-URL reader, with the shapes seen in real responses."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from validator.decklist import Section
from validator.parse import parse
from validator.parse.sites import site_cards

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"


def document(name: str) -> dict:
    return json.loads((SITES / name).read_text(encoding="utf-8"))


def placed(cards) -> dict[str, Section]:
    return {card.name: card.section for card in cards}


def archidekt(*cards: dict, categories=None) -> dict:
    """A minimal Archidekt deck document."""
    return {"id": 1, "name": "t", "deckFormat": 3, "categories": categories or [], "cards": list(cards)}


def entry(name: str, **fields) -> dict:
    return {"quantity": 1, "card": {"oracleCard": {"name": name}}, **fields}


def test_archidekt_piles_as_the_site_means_them():
    cards = placed(site_cards(document("archidekt-4242.json"), "archidekt"))
    assert cards == {
        "Atraxa, Praetors' Voice": Section.COMMANDER,
        "Sol Ring": Section.MAIN,  # first category Ramp, a user's own
        "Rhystic Study": Section.MAIN,  # `categories: null`, as on an official precon
        "Cultivate": Section.MAIN,
        "Forest": Section.MAIN,
        "Lightning Bolt": Section.SIDEBOARD,  # Sideboard is includedInDeck: true on Archidekt, and still outside
        "Counterspell": Section.MAYBEBOARD,
        "Ponder": Section.SIDEBOARD,  # "Out": a user's category with includedInDeck false
    }  # Mana Crypt: deletedAt, gone


def test_archidekt_2021_singular_category_and_a_companion_by_its_category():
    cards = placed(site_cards(document("archidekt-2021.json"), "archidekt"))
    assert cards["Atraxa, Praetors' Voice"] is Section.COMMANDER
    assert cards["Lurrus of the Dream-Den"] is Section.COMPANION
    assert cards["Forest"] is Section.MAIN


@pytest.mark.parametrize(("fields", "section"), [
    ({"categories": ["Creature"], "companion": True}, Section.COMPANION),  # the flag, whatever the pile
    ({"categories": ["Companion"], "companion": None}, Section.COMPANION),  # 2024: null, marked by its category
    ({"categories": ["Sideboard", "Commander"]}, Section.SIDEBOARD),  # the first category is the pile
    ({"categories": ["Maybeboard"]}, Section.MAYBEBOARD),
    ({"categories": []}, Section.MAIN),
    ({"categories": None}, Section.MAIN),
])
def test_archidekt_one_card(fields, section):
    categories = [{"name": "Sideboard", "includedInDeck": True}, {"name": "Maybeboard", "includedInDeck": False}]
    assert site_cards(archidekt(entry("Obosh, the Preypiercer", **fields), categories=categories),
                      "archidekt")[0].section is section


def test_is_premier_decides_nothing():
    categories = [{"name": "Ramp", "isPremier": True, "includedInDeck": True},
                  {"name": "Commander", "isPremier": False, "includedInDeck": True}]
    cards = placed(site_cards(archidekt(entry("Sol Ring", categories=["Ramp"]),
                                        entry("Tymna the Weaver", categories=["Commander"]), categories=categories),
                              "archidekt"))
    assert cards == {"Sol Ring": Section.MAIN, "Tymna the Weaver": Section.COMMANDER}


def test_a_pile_is_named_for_each_card():
    cards = site_cards(document("archidekt-4242.json"), "archidekt")
    assert {card.name: card.pile for card in cards}["Ponder"] == "Out"
    boards = {card.name: card.pile for card in site_cards(document("moxfield-Hand-Made_1.json"), "moxfield")}
    assert boards["Soldier"] == "tokens" and boards["Lightning Bolt"] == "sideboard"


def test_moxfield_v3_boards():
    cards = placed(site_cards(document("moxfield-Hand-Made_1.json"), "moxfield"))
    assert cards["Atraxa, Praetors' Voice"] is Section.COMMANDER
    assert cards["Lightning Bolt"] is Section.SIDEBOARD and cards["Counterspell"] is Section.MAYBEBOARD
    assert cards["Soldier"] is Section.IGNORED


@pytest.mark.parametrize(("board", "section"), [
    ("planes", Section.PLANAR), ("schemes", Section.SCHEMES), ("signatureSpells", Section.SIGNATURE),
    ("companions", Section.COMPANION), ("attractions", Section.IGNORED), ("stickers", Section.IGNORED),
    ("contraptions", Section.IGNORED), ("tokens", Section.IGNORED),
])
def test_every_moxfield_v3_board(board, section):
    deck = {"format": "commander", "boards": {board: {"count": 1, "cards": {"x": {
        "quantity": 1, "card": {"name": "Chaotic Aether"}}}}}}
    assert site_cards(deck, "moxfield")[0].section is section


def test_pasted_archidekt_json_reads_the_same():
    decklist = parse((SITES / "archidekt-4242.json").read_text(encoding="utf-8"))
    counts = Counter()
    for item in decklist.entries:
        counts[item.section] += item.quantity
    assert counts == {Section.COMMANDER: 1, Section.MAIN: 99, Section.SIDEBOARD: 2, Section.MAYBEBOARD: 1}
    assert decklist.format == "archidekt_json" and decklist.named_format.text == "Commander"


def test_pasted_2021_archidekt_json_finds_its_commander_and_companion():
    decklist = parse((SITES / "archidekt-2021.json").read_text(encoding="utf-8"))
    assert {e.name: e.section for e in decklist.entries}["Lurrus of the Dream-Den"] is Section.COMPANION
    assert not decklist.problems


def test_a_stickers_header_is_outside_the_deck():
    decklist = parse("Commander\n1 Atraxa, Praetors' Voice\n\nStickers\n1 Ancestral Hot Dog Minotaur\n")
    assert decklist.entries[-1].section is Section.IGNORED


def test_moxfield_v2_lists_its_companion_again_in_the_side_boards():
    obosh = {"quantity": 1, "card": {"name": "Obosh, the Preypiercer"}}
    deck = {"format": "commander", "mainboard": {"Forest": {"quantity": 99, "card": {"name": "Forest"}}},
            "commanders": {}, "companions": {"Obosh, the Preypiercer": obosh},
            "sideboard": {"Obosh, the Preypiercer": {**obosh, "isCompanion": True}},
            "maybeboard": {"Obosh, the Preypiercer": obosh, "Ponder": {"quantity": 1, "card": {"name": "Ponder"}}}}
    assert placed(site_cards(deck, "moxfield")) == {"Forest": Section.MAIN, "Obosh, the Preypiercer": Section.COMPANION,
                                                    "Ponder": Section.MAYBEBOARD}
    assert len(site_cards(deck, "moxfield")) == 3
