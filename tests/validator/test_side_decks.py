"""901 planar deck, 904 scheme deck, 903.5e sideboard: sections beside the 100."""

import pytest

from tests.support.factories import ATRAXA, FOREST, SOL_RING, card, deck, legend
from validator.deck import UnknownName
from validator.engine import check, validate
from validator.parse import parse
from validator.rules import legality, planar_deck, scheme_deck, sideboard


def plane(i: int):
    """A distinct plane."""
    return card(f"Plane {i}", "Plane — Somewhere", layout="planar", legality="not_legal")


def phenomenon(i: int):
    """A distinct phenomenon."""
    return card(f"Phenomenon {i}", "Phenomenon", layout="planar", legality="not_legal")


def scheme(i: int, ongoing: bool = False):
    """A distinct scheme."""
    return card(f"Scheme {i}", "Ongoing Scheme" if ongoing else "Scheme", layout="scheme", legality="not_legal")


def schemes(n: int) -> dict:
    """n distinct schemes, one copy each."""
    return {scheme(i): 1 for i in range(n)}


def planes(n: int) -> dict:
    """n distinct planes, one copy each."""
    return {plane(i): 1 for i in range(n)}


@pytest.mark.parametrize(
    ("section", "expected"),
    (
        (planes(10), []),
        ({**planes(8), phenomenon(1): 1, phenomenon(2): 1}, []),
        (planes(9), [("planar_deck", ())]),
        ({**planes(10), SOL_RING: 1}, [("planar_deck", ("Sol Ring",))]),
        ({**planes(9), plane(0): 2}, [("planar_deck", ("Plane 0",))]),
        ({**planes(9), phenomenon(1): 1, phenomenon(2): 1, phenomenon(3): 1},
         [("planar_deck", ("Phenomenon 1", "Phenomenon 2", "Phenomenon 3"))]),
        ({}, []),  # no planar deck: nothing to check
    ),
)
def test_planar_deck(section, expected):
    assert [(v.code, v.cards) for v in validate(deck(ATRAXA, planar=section), (planar_deck,))] == expected


@pytest.mark.parametrize(("unknown", "codes"), ((1, []), (0, ["planar_deck"])))
def test_unknown_planar_names_count_toward_the_ten(unknown, codes):
    typo = tuple(UnknownName("Tazem", section="planar") for _ in range(unknown))
    assert [v.code for v in planar_deck(deck(ATRAXA, planar=planes(9), unknown=typo))] == codes


def test_planes_in_the_planar_deck_are_not_non_deck_cards():
    d = deck(ATRAXA, main={FOREST: 1}, planar=planes(10))
    assert [v.code for v in validate(d, (legality, planar_deck))] == []


@pytest.mark.parametrize(
    ("section", "expected"),
    (
        ({**schemes(18), scheme(90): 2}, []),
        ({**schemes(17), scheme(90): 2, scheme(91, ongoing=True): 1}, []),
        ({**schemes(19)}, [("scheme_deck", ())]),  # 904.3: at least twenty
        ({**schemes(18), scheme(90): 3}, [("scheme_deck", ("Scheme 90",))]),
        ({**schemes(20), FOREST: 1}, [("scheme_deck", ("Forest",))]),
        ({**schemes(20), plane(1): 1}, [("scheme_deck", ("Plane 1",))]),
        ({}, []),  # no scheme deck: nothing to check
    ),
)
def test_scheme_deck(section, expected):
    assert [(v.code, v.cards) for v in validate(deck(ATRAXA, schemes=section), (scheme_deck,))] == expected


@pytest.mark.parametrize(
    ("side", "expected"),
    (
        ({}, []),
        ({SOL_RING: 1}, [("sideboard", "warning", ("Sol Ring",))]),
        ({SOL_RING: 2, FOREST: 3}, [("sideboard", "warning", ("Forest", "Sol Ring"))]),
    ),
)
def test_sideboard_is_one_warning(side, expected):
    found = validate(deck(ATRAXA, sideboard=side), (sideboard,))
    assert [(v.code, v.severity, v.cards) for v in found] == expected


# --- display commanders (taw precon files: a COMMANDER: line, and a Display Commander section) ----

KRENKO = legend("Krenko, Mob Boss", "R", subtypes="Goblin Warrior")
MOUNTAIN = card("Mountain", "Basic Land — Mountain", text="({T}: Add {R}.)", identity="R")
SHOWN = {c.name: c for c in (KRENKO, MOUNTAIN, ATRAXA, SOL_RING)}


def precon(*display: str) -> str:
    """A taw-style precon: 100 cards with Krenko on a COMMANDER: line, then a Display Commander
    section holding `display` (oversized copies, foil)."""
    lines = ["// NAME: Goblin Test", "COMMANDER: 1 Krenko, Mob Boss", "1 Sol Ring", "98 Mountain", "",
             "Display Commander", *(f"1 {name} [oc14] [foil]" for name in display)]
    return "\n".join(lines) + "\n"


def judged(text: str):
    """(code, severity, cards, lines) of every violation of the parsed and resolved list."""
    decklist = parse(text)
    report = check(decklist, {e.name: SHOWN[e.name] for e in decklist.entries if e.name in SHOWN})
    return report, [(v.code, v.severity, v.cards, v.lines) for v in report.violations]


def test_a_display_copy_of_the_commander_is_no_warning():
    # a legal precon failed --strict on its own display commander
    report, found = judged(precon("Krenko, Mob Boss"))
    assert (report.valid, report.commanders, report.card_count, found) == (True, ("Krenko, Mob Boss",), 100, [])


@pytest.mark.parametrize(("display", "named", "lines"), [
    (("Atraxa, Praetors' Voice",), ("Atraxa, Praetors' Voice",), (7,)),  # another card: still named
    # the three commanders of a 2013 precon shown, one of them the deck's: the others are named
    (("Atraxa, Praetors' Voice", "Krenko, Mob Boss", "Nope Card"), ("Atraxa, Praetors' Voice", "Nope Card"), (7, 9)),
])
def test_any_other_display_card_is_still_not_in_deck(display, named, lines):
    report, found = judged(precon(*display))
    assert found == [("not_in_deck", "warning", named, lines)]
    assert (report.valid, report.card_count) == (True, 100)
