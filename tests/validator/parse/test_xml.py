"""The XML reader (validator/parse/xml.py): MTGO .dek and Cockatrice .cod, safely."""

from __future__ import annotations

from tests.validator.parse import C, M, codes, rows
from validator.parse import parse
from validator.violations import Code


def test_xml_entities_are_refused_not_expanded():
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
            '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n'
            '<Deck>\n<Cards Quantity="1" Sideboard="false" Name="&lol2;" />\n</Deck>\n')
    decklist = parse(bomb)
    assert decklist.entries == ()
    assert codes(decklist) == [(Code.UNPARSED_LINE, (2,)), (Code.UNPARSED_LINE, (4,))]
    assert all("entities" in p.message for p in decklist.problems)


def test_broken_xml_reports_the_broken_line_and_keeps_the_cards_it_can_read():
    text = ('<?xml version="1.0" encoding="utf-16"?>\n<Deck>\n'
            '<Cards Quantity="1" Sideboard="false" Name="Sol Ring" />\n'
            '<Cards Quantity="2" Sideboard="false" Name="Forest"\n'
            '<Cards Quantity="1" Sideboard="true" Name="Atraxa, Praetors\' Voice" />\n</Deck>\n')
    decklist = parse(text)
    assert rows(decklist) == [("Sol Ring", 1, M, 3), ("Atraxa, Praetors' Voice", 1, C, 5)]
    assert codes(decklist) == [(Code.UNPARSED_LINE, (4,))]
    assert "not well-formed" in decklist.problems[0].message
    assert decklist.accounted == (1, 2, 6)


def test_xml_broken_only_in_structure_still_says_so():
    decklist = parse('<?xml version="1.0"?>\n<Deck>\n<Cards Quantity="1" Sideboard="false" Name="Sol Ring" />\n</Dek>\n')
    assert rows(decklist) == [("Sol Ring", 1, M, 3)]
    assert codes(decklist) == [(Code.UNPARSED_LINE, (4,))]


def test_dek_card_without_a_name_is_reported_not_dropped():
    decklist = parse('<?xml version="1.0"?>\n<Deck>\n<Cards CatID="1" Quantity="1" Sideboard="false" Name="" />\n</Deck>')
    assert decklist.entries == ()
    assert codes(decklist) == [(Code.UNPARSED_LINE, (3,))]


def test_dek_bad_quantity_is_invalid_quantity_on_the_element_line():
    decklist = parse('<?xml version="1.0"?>\n<Deck>\n\n<Cards Quantity="0" Sideboard="false" Name="Sol Ring" />\n</Deck>')
    assert codes(decklist) == [(Code.INVALID_QUANTITY, (4,))]
