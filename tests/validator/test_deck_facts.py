"""validator/deck_facts.py: what a deck adds up to (count, designated commanders, identity)."""

from tests.support.factories import ATRAXA, FOREST, LIGHTNING_BOLT, SOL_RING, card, deck, legend
from validator.deck import UnknownName
from validator.deck_facts import (
    assumed_colors, card_count, commander_identity, designated_commanders, identity_entries, unchosen_commanders,
)

PIPER = legend("The Prismatic Piper", text="If The Prismatic Piper is your commander, choose a color before the game begins.")
KRENKO = legend("Krenko, Mob Boss", "R")


def test_card_count_counts_unknown_names_of_the_deck_only():
    unknown = (UnknownName("Sol Rnig", 2), UnknownName("Ghost Commander", section="commander"),
               UnknownName("Side Card", 5, section="sideboard"))
    d = deck(ATRAXA, main={FOREST: 10, SOL_RING: 1}, companion=LIGHTNING_BOLT, sideboard=[KRENKO], unknown=unknown)
    assert card_count(d) == 1 + 11 + 2 + 1  # commander, main, unknown main and commander; no companion or side
    assert designated_commanders(d) == 2


def test_identity_adds_a_valid_choice_of_a_color_choosing_commander_only():
    assert commander_identity(deck(commanders=[PIPER, KRENKO], color_choices={"The Prismatic Piper": "U"})) == {"U", "R"}
    assert commander_identity(deck(commanders=[PIPER], color_choices={"The Prismatic Piper": "X"})) == frozenset()
    assert commander_identity(deck(commanders=[KRENKO], color_choices={"Krenko, Mob Boss": "U"})) == {"R"}


def test_unchosen_commanders_are_assumed_the_most_needed_colors():
    blue = card("Counterspell", "Instant", identity="U")
    green = card("Llanowar Elves", "Creature — Elf Druid", identity="G")
    d = deck(PIPER, main={blue: 1, green: 1, FOREST: 5}, companion=LIGHTNING_BOLT)
    assert unchosen_commanders(d) == [PIPER]
    assert [e.card for e in identity_entries(d)] == [blue, green, FOREST, LIGHTNING_BOLT]
    assert assumed_colors(d, frozenset(), 1) == {"G"}  # six green cards against one blue and one red
    assert assumed_colors(d, frozenset({"G"}), 1) == {"U"}  # ties go in WUBRG order: blue before red
    assert unchosen_commanders(deck(PIPER, color_choices={"The Prismatic Piper": "W"})) == []
