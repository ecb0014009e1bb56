"""validator/phrasing.py: the English every violation message is built from."""

import pytest

from tests.support.factories import ATRAXA, FOREST, SOL_RING, card, deck, entry, legend
from validator.phrasing import (
    and_list, card_names, color_text, commander_word, included_role, is_are, line_numbers, or_list, pairing_summary,
    plural,
)


@pytest.mark.parametrize(("names", "joined", "alternatives"), [
    (("A",), "A", "A"),
    (("A", "B"), "A and B", "A or B"),
    (("A", "B", "C"), "A, B and C", "A, B or C"),
])
def test_lists_of_names(names, joined, alternatives):
    assert (and_list(names), or_list(names)) == (joined, alternatives)


@pytest.mark.parametrize(("count", "text"), [(0, "0 cards"), (1, "1 card"), (2, "2 cards"), (99, "99 cards")])
def test_plural(count, text):
    assert plural(count, "card") == text


def test_colors_are_wubrg_ordered_or_colorless():
    assert (color_text("GWU"), color_text(set("RB")), color_text(())) == ("WUG", "BR", "colorless")


def test_names_and_lines_are_sorted_and_distinct():
    entries = [entry(SOL_RING, lines=(9, 3)), entry(FOREST, lines=(4,)), entry(SOL_RING, lines=(3,))]
    assert card_names(entries) == ("Forest", "Sol Ring")
    assert line_numbers(entries) == (3, 4, 9)
    # one distinct card on two lines is still "is"
    assert (is_are([entries[0], entries[2]]), is_are(entries)) == ("is", "are")


def test_commander_word_and_included_role_follow_the_deck():
    krenko = legend("Krenko, Mob Boss", "R")
    one, two = deck(ATRAXA, main=[SOL_RING]), deck(commanders=[ATRAXA, krenko])
    assert (commander_word(one), commander_word(two)) == ("commander's", "commanders'")
    assert included_role("Atraxa, Praetors' Voice", one) == " (commander included)"
    assert included_role("Sol Ring", one) == ""
    assert included_role("Sol Ring", deck(ATRAXA, companion=SOL_RING)) == " (companion included)"


@pytest.mark.parametrize(("commander", "summary"), [
    (legend("Akiri, Line-Slinger", "RW", text="First strike\nPartner"), "Akiri, Line-Slinger has Partner"),
    (card("Raised by Giants", "Legendary Enchantment — Background", identity="G"), "Raised by Giants is a Background"),
    (legend("The Tenth Doctor", "R", subtypes="Time Lord Doctor"), "The Tenth Doctor is a Doctor"),
    (ATRAXA, "Atraxa, Praetors' Voice has no pairing ability"),
])
def test_pairing_summary_says_what_pairs_the_card(commander, summary):
    assert pairing_summary(commander) == summary
