"""deck_facts.tally: one walk over the commanders and main deck that the rules' screens,
the brackets and the report share (issue 24), and the Card facts it reads."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.factories import ATRAXA, BANNED, FOREST, LIGHTNING_BOLT, PLANE, SOL_RING, card, deck
from tests.validator.test_engine_properties import POOL, decks
from validator import brackets
from validator.brackets import BracketData, Combo
from validator.deck import WUBRG
from validator.deck_facts import Deck, card_count, judged_in, tally
from validator.engine import validate
from validator.formats import FORMATS

TIME_WARP = card("Time Warp", "Sorcery", identity="U", text="Target player takes an extra turn after this one.")
STRANGLEHOLD = card("Stranglehold", "Enchantment", identity="R",
                    text="If an opponent would begin an extra turn, that player skips that turn instead.")
RHYSTIC = card("Rhystic Study", "Enchantment", identity="U", game_changer=True)


def test_card_facts_that_depend_on_the_card_alone_are_derived_once():
    assert TIME_WARP.extra_turn and TIME_WARP.notable
    assert not STRANGLEHOLD.extra_turn and not STRANGLEHOLD.notable  # it only stops them
    assert RHYSTIC.notable and not RHYSTIC.extra_turn
    assert BANNED.notable and PLANE.notable  # commander_suspect: banned, not a deck card
    assert not SOL_RING.notable and not FOREST.notable
    assert card("Two Faces", text=("Draw a card.", "You take an extra turn.")).extra_turn  # any face


def test_the_tally_counts_names_and_screens_the_commanders_and_main_deck():
    d = deck(ATRAXA, main={FOREST: 10, SOL_RING: 2, TIME_WARP: 1, RHYSTIC: 1, BANNED: 1, LIGHTNING_BOLT: 1},
             companion=PLANE, sideboard=[TIME_WARP])
    counted = tally(d)
    assert (counted.size, counted.entries) == (1 + 16, 7)
    assert counted.names == {ATRAXA.name, FOREST.name, SOL_RING.name, TIME_WARP.name, RHYSTIC.name, BANNED.name,
                             LIGHTNING_BOLT.name}
    assert [e.card for e in counted.multiples] == [SOL_RING]  # ten Forests are basics
    assert counted.main_identity == {"G", "U", "R"}  # the commander's identity is not the main deck's
    assert [e.card for e in counted.notable] == [TIME_WARP, RHYSTIC, BANNED]  # deck order; no companion, no side
    assert card_count(d) == 17


def test_the_tally_is_walked_once_and_kept_while_the_cards_are_the_same():
    d = deck(ATRAXA, main={SOL_RING: 1})
    assert tally(d) is tally(d)
    other = FORMATS[1]
    assert tally(judged_in(d, other)) is tally(d) and judged_in(d, other).format is other
    changed = replace(d, main=(*d.main, *deck(main={FOREST: 3}).main))
    assert tally(changed).size == 5  # a Deck with other cards walks its own
    assert d == Deck(commanders=d.commanders, main=d.main)  # the kept tally takes no part in equality


# A bracket list over the pool's cards, so the brackets' look-ups by name find something.
DATA = BracketData(mass_land_denial=frozenset({"Sol Ring"}),
                   combos=(Combo(("Atraxa, Praetors' Voice", "Forest")), Combo(("Mana Crypt", "Sol Ring"), fast=True)))
EXTRA = [TIME_WARP, STRANGLEHOLD, RHYSTIC]


def _unscreened(d: Deck) -> Deck:
    """The same deck with a tally that lets no screen through (every entry a multiple and
    notable, a count of entries no set of names has, a main deck identity no commander
    allows), so every rule takes its full path: the answers the screens must not change."""
    every = (*d.commanders, *d.main)
    walked = tally(replace(d))
    unscreened = replace(d)
    unscreened._tally = replace(walked, entries=-1, multiples=every, notable=every,
                                main_identity=frozenset(WUBRG) | {"no color"})
    return unscreened


@st.composite
def decks_with_notable_cards(draw):
    """The engine properties' random decks, with extra-turn cards and Game Changers mixed in."""
    d = draw(decks())
    more = draw(st.dictionaries(st.sampled_from(EXTRA + POOL[:4]), st.integers(1, 3), max_size=4))
    return replace(d, main=(*d.main, *deck(main=more).main))


@settings(max_examples=300, deadline=None)
@given(decks_with_notable_cards())
def test_the_screens_change_no_answer(d):
    plain = _unscreened(d)
    assert validate(d) == validate(plain)
    assert brackets.evaluate(d, DATA) == brackets.evaluate(plain, DATA)
    assert brackets.evaluate(d) == brackets.evaluate(plain)
    for fmt in FORMATS:
        assert validate(judged_in(d, fmt)) == validate(judged_in(plain, fmt)), fmt.key
