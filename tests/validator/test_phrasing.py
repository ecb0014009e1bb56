"""validator/phrasing.py: the sentences violation messages share, as Texts."""

import pytest

from tests.support.factories import ATRAXA, FOREST, SOL_RING, card, deck, entry, legend
from validator.phrasing import card_names, color_text, included_role, line_numbers, pairing_summary


def test_colors_are_wubrg_ordered_or_the_word_colorless():
    assert (color_text("GWU"), color_text(set("RB")), color_text(())) == ("WUG", "BR", "colorless")


def test_names_and_lines_are_sorted_and_distinct():
    entries = [entry(SOL_RING, lines=(9, 3)), entry(FOREST, lines=(4,)), entry(SOL_RING, lines=(3,))]
    assert card_names(entries) == ("Forest", "Sol Ring")
    assert line_numbers(entries) == (3, 4, 9)


def test_included_role_follows_the_deck():
    one = deck(ATRAXA, main=[SOL_RING])
    assert included_role("Atraxa, Praetors' Voice", one) == "commander"
    assert included_role("Sol Ring", one) is None
    assert included_role("Sol Ring", deck(ATRAXA, companion=SOL_RING)) == "companion"


@pytest.mark.parametrize(("commander", "summary"), [
    (legend("Akiri, Line-Slinger", "RW", text="First strike\nPartner"), ["Akiri, Line-Slinger has Partner."]),
    (legend("Kraum, Ludevic's Opus", "UR", text="Partner with Tymna the Weaver"),
     ["Kraum, Ludevic's Opus has Partner with Tymna the Weaver."]),
    (legend("Dustin", "R", text="Partner—Friends forever"), ["Dustin has Partner—Friends forever."]),
    (card("Raised by Giants", "Legendary Enchantment — Background", identity="G"), ["Raised by Giants is a Background."]),
    (legend("The Tenth Doctor", "R", subtypes="Time Lord Doctor"), ["The Tenth Doctor is a Doctor."]),
    (ATRAXA, ["Atraxa, Praetors' Voice has no pairing ability."]),
])
def test_pairing_summary_says_what_pairs_the_card_one_sentence_an_ability(commander, summary):
    assert [text.english() for text in pairing_summary(commander)] == summary
