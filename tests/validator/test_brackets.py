"""Commander Brackets (DESIGN.md): every minimum step, every bracket_* code, null lists, real cards."""

from __future__ import annotations

import pytest

from tests.support.factories import SOL_RING, WASTES, card, deck, legend, load_real_cards
from validator.brackets import BracketData, Combo, card_flags, evaluate, grants_extra_turn, violations
from validator.decklist import Decklist, ListEntry, Section
from validator.engine import Report, check
from validator.violations import Code

COMMANDER = legend("Plain Commander", "")
GC = [card(f"Changer {i}", "Artifact", game_changer=True) for i in range(5)]
GC_COMMANDER = legend("Changer Commander", "", game_changer=True)
EXTRA = card("Time Warp", "Sorcery", text="Target player takes an extra turn after this one.")
MLD = card("Armageddon", "Sorcery", text="Destroy all lands.")
COMBO_A = card("Thassa's Oracle", "Creature")
COMBO_B = card("Demonic Consultation", "Instant")
FAST_A = card("Fast Half", "Artifact")
FAST_B = card("Other Fast Half", "Artifact")

DATA = BracketData(
    mass_land_denial=frozenset({"Armageddon"}),
    combos=(Combo(("Thassa's Oracle", "Demonic Consultation")), Combo(("Fast Half", "Other Fast Half"), fast=True)),
)


def build(*cards, commander=COMMANDER, **kwargs):
    """A deck with the commander and one copy of each card."""
    return deck(commander, main=[*cards, WASTES], **kwargs)


# --- minimum: one row per step of DESIGN.md's ladder -----------------------------------

@pytest.mark.parametrize(("name", "cards", "commander", "minimum", "steps"), [
    ("nothing", [SOL_RING], COMMANDER, 1, [1]),
    ("an extra-turn card", [EXTRA], COMMANDER, 2, [2]),
    ("one Game Changer", GC[:1], COMMANDER, 3, [3]),
    ("three Game Changers", GC[:3], COMMANDER, 3, [3]),
    ("four Game Changers", GC[:4], COMMANDER, 4, [4]),
    ("a Game Changer commander alone", [], GC_COMMANDER, 3, [3]),
    ("a Game Changer commander is the fourth", GC[:3], GC_COMMANDER, 4, [4]),
    ("a two-card combo", [COMBO_A, COMBO_B], COMMANDER, 3, [3]),
    ("half a combo", [COMBO_A], COMMANDER, 1, [1]),
    ("a fast combo", [FAST_A, FAST_B], COMMANDER, 4, [4]),
    ("mass land denial", [MLD], COMMANDER, 4, [4]),
    ("extra turn and a Game Changer", [EXTRA, GC[0]], COMMANDER, 3, [2, 3]),
    ("everything: still never 5", [EXTRA, MLD, COMBO_A, COMBO_B, FAST_A, FAST_B, *GC], COMMANDER, 4, [2, 4, 3, 4, 4]),
])
def test_minimum_steps(name, cards, commander, minimum, steps):
    found = evaluate(build(*cards, commander=commander), DATA)
    assert found.minimum == minimum, name
    assert [reason.bracket for reason in found.reasons] == steps, name
    assert found.declared is None


def test_each_reason_names_its_cards():
    found = evaluate(build(EXTRA, MLD, COMBO_A, COMBO_B, FAST_A, FAST_B, GC[0]), DATA)
    by_bracket = [(reason.bracket, reason.cards) for reason in found.reasons]
    assert by_bracket == [
        (2, ("Time Warp",)),
        (3, ("Changer 0",)),
        (3, ("Demonic Consultation", "Thassa's Oracle")),
        (4, ("Fast Half", "Other Fast Half")),
        (4, ("Armageddon",)),
    ]
    assert "fast" in found.reasons[3].message and "bracket tag R" in found.reasons[3].message


def test_lists_name_canonical_deck_cards_commanders_included():
    commander = legend("Thassa's Oracle", "U", game_changer=True)
    found = evaluate(build(COMBO_B, MLD, EXTRA, GC[1], GC[0], commander=commander), DATA)
    assert found.game_changers == ("Changer 0", "Changer 1", "Thassa's Oracle")
    assert found.two_card_combos == (("Demonic Consultation", "Thassa's Oracle"),)
    assert found.mass_land_denial == ("Armageddon",)
    assert found.extra_turns == ("Time Warp",)
    assert found.fast_combos == ()


def test_cards_outside_the_game_do_not_count():
    found = evaluate(deck(COMMANDER, main=[WASTES], sideboard=[GC[0], MLD, COMBO_A], companion=GC[1]), DATA)
    assert (found.game_changers, found.mass_land_denial, found.two_card_combos) == ((), (), ())
    assert found.minimum == 1


@pytest.mark.parametrize(("data", "mld", "combos", "notes"), [
    (BracketData(), None, None, 2),
    (BracketData(mass_land_denial=frozenset()), (), None, 1),
    (BracketData(combos=()), None, (), 1),
    (BracketData(mass_land_denial=frozenset(), combos=()), (), (), 0),
])
def test_lists_are_null_with_a_reason_when_their_data_is_not_loaded(data, mld, combos, notes):
    found = evaluate(build(MLD, COMBO_A, COMBO_B), data)
    assert found.mass_land_denial == mld
    assert found.two_card_combos == combos
    not_checked = [reason for reason in found.reasons if reason.bracket is None]
    assert len(not_checked) == notes
    assert all("not checked" in reason.message for reason in not_checked)
    # what was not checked never raises the minimum, and never shows up as "none found"
    assert found.minimum == 1
    assert found.reasons[0].bracket == 1


def test_a_combo_counts_once_whatever_order_or_repeats_the_data_has():
    data = BracketData(combos=(Combo(("A", "B")), Combo(("B", "A"), fast=True), Combo(("A", "A")), Combo(("A", "C"))))
    found = evaluate(build(card("A"), card("B")), data)
    assert found.two_card_combos == (("A", "B"),)
    assert found.fast_combos == (("A", "B"),)  # fast when any source says so
    assert found.minimum == 4


# --- declared bracket: each bracket_* code, where it applies and where it does not ----

@pytest.mark.parametrize(("cards", "declared", "codes"), [
    (GC[:1], 1, [Code.BRACKET_GAME_CHANGERS]),
    (GC[:1], 2, [Code.BRACKET_GAME_CHANGERS]),
    (GC[:3], 3, []),
    (GC[:4], 3, [Code.BRACKET_GAME_CHANGERS]),
    (GC[:5], 4, []),
    ([MLD], 1, [Code.BRACKET_MASS_LAND_DENIAL]),
    ([MLD], 3, [Code.BRACKET_MASS_LAND_DENIAL]),
    ([MLD], 4, []),
    ([EXTRA], 1, [Code.BRACKET_EXTRA_TURNS]),
    ([EXTRA], 2, []),
    ([COMBO_A, COMBO_B], 1, [Code.BRACKET_TWO_CARD_COMBO]),
    ([COMBO_A, COMBO_B], 2, [Code.BRACKET_TWO_CARD_COMBO]),
    ([COMBO_A, COMBO_B], 3, []),
    ([FAST_A, FAST_B], 3, [Code.BRACKET_TWO_CARD_COMBO]),
    ([FAST_A, FAST_B], 4, []),
    ([COMBO_A], 1, []),
    ([EXTRA, MLD, COMBO_A, COMBO_B, *GC], 5, []),
    ([EXTRA, MLD, COMBO_A, COMBO_B, GC[0]], 1, [Code.BRACKET_EXTRA_TURNS, Code.BRACKET_GAME_CHANGERS,
                                             Code.BRACKET_MASS_LAND_DENIAL, Code.BRACKET_TWO_CARD_COMBO]),
])
def test_declared_bracket_violations(cards, declared, codes):
    found = evaluate(build(*cards), DATA, declared)
    assert found.declared == declared
    errors = list(violations(found))
    assert sorted(v.code for v in errors) == codes
    assert all(v.severity == "error" and v.cards for v in errors)
    # the list breaks the declared bracket exactly when its minimum is above it
    assert bool(errors) == (found.minimum > declared)


def test_violations_name_their_cards():
    found = evaluate(build(GC[1], GC[0], MLD, COMBO_A, COMBO_B, commander=GC_COMMANDER), DATA, 2)
    by_code = {v.code: v for v in violations(found)}
    assert by_code[Code.BRACKET_GAME_CHANGERS].cards == ("Changer 0", "Changer 1", "Changer Commander")
    assert "Bracket 2 (Core) allows no Game Changers; the deck has 3" in by_code[Code.BRACKET_GAME_CHANGERS].message
    assert by_code[Code.BRACKET_MASS_LAND_DENIAL].cards == ("Armageddon",)
    assert by_code[Code.BRACKET_TWO_CARD_COMBO].cards == ("Demonic Consultation", "Thassa's Oracle")
    assert "Demonic Consultation + Thassa's Oracle" in by_code[Code.BRACKET_TWO_CARD_COMBO].message


def test_no_violation_for_a_list_that_was_not_checked():
    found = evaluate(build(MLD, COMBO_A, COMBO_B), BracketData(), 1)
    assert list(violations(found)) == []


def test_no_declared_bracket_no_violations():
    assert list(violations(evaluate(build(*GC, MLD, EXTRA), DATA))) == []


@pytest.mark.parametrize("declared", [0, 6, -1, "3"])
def test_a_declared_bracket_is_one_to_five(declared):
    with pytest.raises(ValueError, match="1 to 5"):
        evaluate(build(), DATA, declared)


# --- extra turns from Oracle text ------------------------------------------------------

@pytest.mark.parametrize(("texts", "grants"), [
    (("Target player takes an extra turn after this one.",), True),
    (("Take two extra turns after this one.",), True),
    (("If an opponent would begin an extra turn, that player skips that turn instead.",), False),
    (("Players can't take an extra turn.",), False),
    (("Flying", "Back face: take an extra turn after this one."), True),  # any face
    (("Draw a card.",), False),
])
def test_extra_turn_text(texts, grants):
    assert grants_extra_turn(card("Some Card", "Sorcery", text=texts)) is grants


def test_card_flags():
    assert card_flags(MLD, DATA) == {"game_changer": False, "extra_turn": False, "mass_land_denial": True}
    assert card_flags(GC[0]) == {"game_changer": True, "extra_turn": False, "mass_land_denial": None}


REAL_EXTRA_TURNS = {
    "Time Warp": True,
    "Nexus of Fate": True,
    "Stranglehold": False,  # stops opponents' extra turns only
    "Ugin's Nexus": True,  # stops others' and grants its own
    "Sage of Hours": True,
    "Karn's Temporal Sundering": True,
    "Medomai the Ageless": True,  # "can't attack during extra turns", and still grants one
    "Gerrard's Hourglass Pendant": False,
    "Trouble in Pairs": False,
    "Time Stretch": True,  # "takes two extra turns after this one"
    "Ultimecia, Time Sorceress // Ultimecia, Omnipotent": True,  # the back face grants it
    "Twice Upon a Time // Unlikely Meeting": True,
    "Rhystic Study": False,
}


@pytest.fixture(scope="module")
def real_cards(shared_dir):
    """The REAL_EXTRA_TURNS cards (and a few Game Changers) from ../shared/carddata."""
    return load_real_cards(shared_dir, {*REAL_EXTRA_TURNS, "Thassa's Oracle", "Sol Ring"})


@pytest.mark.parametrize(("name", "grants"), REAL_EXTRA_TURNS.items())
def test_real_extra_turn_cards(real_cards, name, grants):
    assert grants_extra_turn(real_cards[name]) is grants
    found = evaluate(build(real_cards[name]), DATA)
    assert found.extra_turns == ((name,) if grants else ())


def test_real_game_changers(real_cards):
    found = evaluate(build(real_cards["Thassa's Oracle"], real_cards["Rhystic Study"], real_cards["Sol Ring"]), DATA)
    assert found.game_changers == ("Rhystic Study", "Thassa's Oracle")
    assert found.minimum == 3


# --- the engine's check() carries the block --------------------------------------------

def _decklist(*names: str) -> Decklist:
    rows = [ListEntry(COMMANDER.name, 1, 1, Section.COMMANDER)]
    rows += [ListEntry(name, 1, line, Section.MAIN) for line, name in enumerate(names, 2)]
    return Decklist(tuple(rows))


CARDS = {c.name: c for c in (COMMANDER, WASTES, MLD, EXTRA, COMBO_A, COMBO_B, *GC)}


def test_check_always_carries_the_bracket_block():
    report = check(_decklist("Time Warp", "Changer 0"), CARDS)
    assert report.bracket.minimum == 3
    assert report.bracket.mass_land_denial is None and report.bracket.two_card_combos is None
    assert not any(v.code.startswith("bracket_") for v in report.violations)


def test_check_with_data_and_a_declared_bracket():
    report = check(_decklist("Armageddon", "Thassa's Oracle", "Demonic Consultation"), CARDS,
                   bracket_data=DATA, bracket=2)
    assert report.bracket.declared == 2 and report.bracket.minimum == 4
    codes = [v.code for v in report.violations if v.code.startswith("bracket_")]
    assert codes == [Code.BRACKET_MASS_LAND_DENIAL, Code.BRACKET_TWO_CARD_COMBO]
    assert report.valid is False
    # the same list at bracket 4 breaks nothing bracket-related
    again = check(_decklist("Armageddon", "Thassa's Oracle", "Demonic Consultation"), CARDS,
                  bracket_data=DATA, bracket=4)
    assert not any(v.code.startswith("bracket_") for v in again.violations)


def test_report_without_bracket_still_builds():
    report = Report(True, "plain", (), None, (), 0, ())
    assert report.bracket is None


@pytest.mark.parametrize(
    ("data", "message"),
    (
        (BracketData(), "No Game Changers or extra-turn cards in the deck."),
        (BracketData(mass_land_denial=frozenset()), "No Game Changers, extra-turn cards or mass land denial in the deck."),
        (BracketData(frozenset(), ()), "No Game Changers, extra-turn cards, mass land denial or two-card combos in the deck."),
    ),
)
def test_the_bracket_one_reason_names_only_what_was_checked(data, message):
    reason = evaluate(deck(legend("Plain Legend", "W"), main={WASTES: 99}), data).reasons[0]
    assert (reason.bracket, reason.cards, reason.message) == (1, (), message)
def test_declared_bracket_violations_carry_the_lines_of_their_cards():
    """The user saw bracket_* errors with "lines": [] (and GitHub annotations with no line)
    though every card they name is on a line of the list."""
    report = check(_decklist("Armageddon", "Thassa's Oracle", "Demonic Consultation", "Time Warp", "Changer 0"),
                   CARDS, bracket_data=DATA, bracket=1)
    lines = {v.code: v.lines for v in report.violations if v.code.startswith("bracket_")}
    assert lines == {
        Code.BRACKET_MASS_LAND_DENIAL: (2,),
        Code.BRACKET_TWO_CARD_COMBO: (3, 4),
        Code.BRACKET_EXTRA_TURNS: (5,),
        Code.BRACKET_GAME_CHANGERS: (6,),
    }
