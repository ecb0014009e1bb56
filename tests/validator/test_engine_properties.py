"""Properties of validate()/check() over random decks: never raises, sorted, codes consistent."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.factories import ATRAXA, FOREST, LIGHTNING_BOLT, SOL_RING, WASTES, card, deck, legend
from tests.support.factories import AKIRI, BACKGROUND, NISSA, PIR, TOOTHY, WESTVALE, WILSON
from tests.support.factories import GYRUDA, JEGANTHA, LUTRI, UMORI, YORION, ZIRDA
from tests.support.factories import BANNED, DWARVES, PIPER, PLANE, RATS, SYNDIC, TOKEN
from validator.deck import UnknownName
from validator.engine import validate
from validator.deck_facts import card_count
from validator.violations import Code, Severity, Violation

POOL = [ATRAXA, FOREST, LIGHTNING_BOLT, SOL_RING, WASTES, AKIRI, BACKGROUND, NISSA, PIR, TOOTHY, WESTVALE,
        WILSON, GYRUDA, JEGANTHA, LUTRI, UMORI, YORION, ZIRDA, BANNED, DWARVES, PIPER, PLANE, RATS, SYNDIC,
        TOKEN, legend("Mono Black", "B"), card("Odd Cost", "Sorcery", identity="U", cost="{U}{U}{U}")]
CODES = {code.value for code in Code}

cards = st.sampled_from(POOL)
piles = st.dictionaries(cards, st.integers(1, 40), max_size=8)


@st.composite
def decks(draw):
    """A random Deck built from the pool, sometimes with a companion, choices and unknown names."""
    commanders = draw(st.lists(cards, max_size=3, unique_by=lambda c: c.name))
    unknown = draw(st.lists(st.builds(UnknownName, st.sampled_from(["Nope", "Sol Rnig"]),
                                      section=st.sampled_from(["main", "commander", "companion"])), max_size=2))
    choices = draw(st.dictionaries(st.sampled_from([c.name for c in POOL]), st.sampled_from(list("WUBRGX") + ["RG"]), max_size=2))
    return deck(commanders=commanders, main=draw(piles), companion=draw(st.none() | cards),
                sideboard=draw(piles), planar=draw(piles), schemes=draw(piles), unknown=unknown,
                color_choices=choices)


@settings(max_examples=300, deadline=None)
@given(decks())
def test_validate_is_total_sorted_and_consistent(d):
    found = validate(d)
    assert found == sorted(found, key=Violation.sort_key)
    assert {v.code for v in found} <= CODES
    codes = [v.code for v in found]
    # deck_size fires exactly when the count is off, whatever else is wrong
    assert (Code.DECK_SIZE in codes) == (card_count(d) != 100)
    # three or more designated commanders: too_many_commanders alone among the commander codes
    designated = len(d.commanders) + sum(u.section == "commander" for u in d.unknown)
    if designated > 2:
        assert Code.COMMANDER_INELIGIBLE not in codes and Code.PARTNER_PAIRING not in codes
    assert (Code.COMMANDER_MISSING in codes) == (designated == 0)
    assert (Code.SIDEBOARD in codes) == bool(d.sideboard)
    # one legality code per card
    legality = [v.cards for v in found if v.code in (Code.NON_DECK_CARD, Code.BANNED, Code.NOT_LEGAL)]
    zone_entries = [*d.commanders, *d.main, *([d.companion] if d.companion else [])]
    assert len(legality) <= len(zone_entries)
    for v in found:
        assert v.message and v.message[0].isupper() and v.message.endswith((".", "?")), v
        assert isinstance(v.severity, Severity)
