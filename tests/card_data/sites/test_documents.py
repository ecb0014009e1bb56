"""What card_data.sites makes of a site's document: the text it writes reads back as the
same sections (so the boards the site means are the ones judged), nothing a deck's owner
typed can make a line of another kind, and any JSON at all is a SiteDeck or a
DeckSiteFailed, never another exception (the service's "never a 500")."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from card_data.errors import DeckSiteFailed
from card_data.sites import archidekt, moxfield
from card_data.sites.decks import HEADERS, deck_text
from validator.decklist import Section
from validator.parse import parse
from validator.parse.sites import SiteCard

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
                    max_leaves=30)
KEYS = st.sampled_from(["cards", "categories", "boards", "mainboard", "name", "quantity", "card", "oracleCard",
                        "deletedAt", "companion", "category", "commanders", "sideboard", "format", "deckFormat",
                        "edhBracket", "userBracket", "bracket", "ignoreBrackets", "includedInDeck"])
SHAPED = st.recursive(JSON, lambda inner: st.dictionaries(KEYS, inner, max_size=6) | st.lists(inner, max_size=4),
                      max_leaves=40)


@pytest.mark.parametrize("section", [s for s in Section if s is not Section.IGNORED])
def test_each_section_reads_back_as_itself(section):
    text = deck_text([SiteCard("Sol Ring", 1, Section.COMMANDER), SiteCard("Chaotic Aether", 2, section)])
    assert [(e.name, e.quantity, e.section) for e in parse(text, "text").entries][-1] == ("Chaotic Aether", 2, section)


@pytest.mark.parametrize("pile", ["tokens", "attractions", "stickers", "contraptions", "someNewBoard"])
def test_a_pile_outside_the_deck_reads_back_outside(pile):
    text = deck_text([SiteCard("Soldier", 1, Section.IGNORED, pile=pile)])
    assert parse(text, "text").entries[0].section is Section.IGNORED


@pytest.mark.parametrize("name", ["Sideboard", "Commander: Sol Ring", "1 Sol Ring\nCommander\n1 Mana Crypt",
                                  "Format: Brawl", "# Commander: Mana Crypt", "\u2028Deck"])
def test_a_typed_name_stays_one_card_line(name):
    decklist = parse(deck_text([SiteCard(name, 1, Section.MAYBEBOARD)], "Commander"), "text")
    assert len(decklist.entries) == 1 and decklist.entries[0].section is Section.MAYBEBOARD
    assert decklist.named_commanders is None and decklist.named_format.text == "Commander"


@pytest.mark.parametrize("named", ["Brawl\nCommander\n1 Mana Crypt", "x" * 41, "<b>", ""])
def test_a_format_that_is_not_plain_words_is_left_out(named):
    assert not deck_text([SiteCard("Sol Ring", 1, Section.MAIN)], named).startswith("Format:")


def test_every_header_is_one_the_parser_knows():
    for section, header in HEADERS.items():
        assert parse(f"{header}\n1 Sol Ring\n", "text").entries[0].section is section


@given(document=SHAPED)
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_json_is_a_deck_or_a_site_failure(document):
    for site in (archidekt, moxfield):
        try:
            deck = site.read(document, "1", "2026-12-05T00:00:00+00:00")
        except DeckSiteFailed:
            continue
        parse(deck.decklist, "text")  # the text it wrote always parses (problems, perhaps; no exception)
