"""House rules in the engine (DESIGN.md "House rules"): a table's own bans, bans as
commander, unbans and bracket, given to check() as a resolved formats.HouseRules; the
codes house_banned, house_banned_as_commander and house_unbanned, across formats."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.factories import (
    ATRAXA, LIGHTNING_BOLT, LUTRI, SOL_RING, card, everywhere, filler, full_deck, legend,
)
from validator.decklist import Decklist, ListEntry, Section
from validator.engine import check, validate
from validator.formats import COMMANDER, DUEL, OATHBREAKER, HouseRules

ATRAXA_ALL = everywhere(ATRAXA)
SOL = everywhere(SOL_RING, duel="banned")  # Duel Commander bans Sol Ring
BOLT = everywhere(LIGHTNING_BOLT)
THRASIOS = everywhere(legend("Thrasios, Triton Hero", "GU", text="Partner (You can have two commanders ...)"))
TYMNA = everywhere(legend("Tymna the Weaver", "WB", text="Partner (You can have two commanders ...)"))
# banned in Commander, legal in Duel (the real card's legalities)
TITAN = everywhere(card("Primeval Titan", "Creature — Giant", identity="G", cost="{4}{G}{G}", text="Trample"),
                   commander="banned")
# legal in Commander, banned as commander only in Duel
DEREVI = everywhere(legend("Derevi, Empyrial Tactician", "GWU", subtypes="Bird Wizard", text="Flying"),
                    duel="restricted")
EDGAR = everywhere(legend("Edgar Markov", "RWB", subtypes="Vampire Knight", text="Eminence"))
CHANGER = everywhere(card("Rhystic Study", "Enchantment", identity="U", cost="{2}{U}", game_changer=True))
CONSPIRACY = everywhere(card("Power Play", "Conspiracy", layout="normal"), commander="banned", duel=None)
LUTRI_ALL = everywhere(LUTRI)


def judged(*commanders, main=(), fmt=COMMANDER, house: HouseRules | None = None, companion=None):
    """The violations of a full deck (filler legal everywhere) judged in `fmt` under `house`."""
    cards = {c: 1 for c in main}
    cards.update({everywhere(c): q for c, q in filler(100 - len(commanders) - len(main)).items()})
    deck = full_deck(*commanders, main=cards, game_format=fmt, companion=companion)
    return validate(replace(deck, house_rules=house))


def found(violations, *codes) -> list[tuple[str, str, tuple[str, ...]]]:
    """(code, severity, cards) of the violations with one of these codes."""
    return [(v.code, str(v.severity), v.cards) for v in violations if v.code in codes]


HOUSE = ("house_banned", "house_banned_as_commander", "house_unbanned", "banned", "banned_as_commander")


def test_no_house_rules_changes_nothing():
    assert judged(ATRAXA_ALL, main=[SOL]) == judged(ATRAXA_ALL, main=[SOL], house=HouseRules())


def test_a_house_ban_of_a_commanders_partner():
    house = HouseRules(banned=frozenset({TYMNA.name}), name="Thursday at the store")
    deck = replace(full_deck(THRASIOS, TYMNA, main={everywhere(c): q for c, q in filler(98).items()}),
                   house_rules=house)
    violations = validate(deck)
    assert found(violations, *HOUSE) == [("house_banned", "error", (TYMNA.name,))]
    [banned] = [v for v in violations if v.code == "house_banned"]
    assert banned.message == "Tymna the Weaver is banned under the house rules (Thursday at the store)."
    assert banned.lines == deck.commanders[1].lines  # the partner's own line
    assert [v.code for v in violations] == ["house_banned"]  # the pair itself is fine


def test_a_house_ban_is_one_violation_a_card_beside_the_formats_own_ban():
    mana_crypt = everywhere(card("Mana Crypt", "Artifact"), commander="banned")
    house = HouseRules(banned=frozenset({SOL.name, mana_crypt.name, "Not In The Deck"}))
    violations = judged(ATRAXA_ALL, main=[SOL, mana_crypt], house=house)
    assert found(violations, *HOUSE) == [  # errors by code, then line: Sol Ring is listed first
        ("banned", "error", ("Mana Crypt",)),
        ("house_banned", "error", ("Sol Ring",)), ("house_banned", "error", ("Mana Crypt",))]
    assert next(v for v in violations if v.code == "house_banned").message.endswith("under the house rules.")


def test_a_house_ban_reaches_the_companion_and_not_the_sideboard():
    house = HouseRules(banned=frozenset({LUTRI_ALL.name, BOLT.name}))
    deck = replace(full_deck(ATRAXA_ALL, main={everywhere(c): q for c, q in filler(99).items()},
                             companion=LUTRI_ALL, sideboard=[BOLT]), house_rules=house)
    assert found(validate(deck), *HOUSE) == [("house_banned", "error", (LUTRI_ALL.name,))]


@pytest.mark.parametrize(("where", "expected"), [
    ("commander", [("house_banned_as_commander", "error", (EDGAR.name,))]),
    ("99", []),
])
def test_banned_as_commander_is_for_the_command_zone_only(where, expected):
    house = HouseRules(banned_as_commander=frozenset({EDGAR.name}), name="Cube night")
    violations = judged(EDGAR, house=house) if where == "commander" else judged(ATRAXA_ALL, main=[EDGAR], house=house)
    assert found(violations, *HOUSE) == expected
    if expected:
        message = next(v for v in violations if v.code == "house_banned_as_commander").message
        assert message == "Edgar Markov is banned as a commander under the house rules (Cube night); it is legal in the deck."


def test_banned_outright_and_as_commander_is_house_banned_alone():
    house = HouseRules(banned=frozenset({EDGAR.name}), banned_as_commander=frozenset({EDGAR.name}))
    assert found(judged(EDGAR, house=house), *HOUSE) == [("house_banned", "error", (EDGAR.name,))]


def test_banned_as_commander_says_the_formats_word_for_it():
    walker = everywhere(card("Teferi, Master of Time", "Legendary Planeswalker — Teferi", identity="U"))
    spell = everywhere(card("Brainstorm", "Instant", identity="U"))
    house = HouseRules(banned_as_commander=frozenset({walker.name}))
    deck = full_deck(walker, main={}, size=60, signature_spells=[spell], game_format=OATHBREAKER)
    violations = validate(replace(deck, house_rules=house))
    assert [v.message for v in violations if v.code == "house_banned_as_commander"] == [
        "Teferi, Master of Time is banned as an oathbreaker under the house rules; it is legal in the deck."]


@pytest.mark.parametrize(("fmt", "card_", "expected"), [
    # banned in Commander, legal in Duel: lifted in Commander, nothing to lift in Duel
    (COMMANDER, TITAN, [("house_unbanned", "warning", (TITAN.name,))]),
    (DUEL, TITAN, []),
    # banned in Duel, legal in Commander
    (DUEL, SOL, [("house_unbanned", "warning", (SOL.name,))]),
    (COMMANDER, SOL, []),
])
def test_an_unban_lifts_the_formats_own_ban_only(fmt, card_, expected):
    house = HouseRules(unbanned=frozenset({card_.name}), name="Thursday at the store")
    violations = judged(ATRAXA_ALL, main=[card_], fmt=fmt, house=house)
    assert found(violations, *HOUSE) == expected
    assert not [v for v in violations if v.severity == "error"]
    without = judged(ATRAXA_ALL, main=[card_], fmt=fmt)
    assert bool(found(without, "banned")) == bool(expected)  # what was lifted was a real ban


def test_an_unban_says_what_it_lifted():
    house = HouseRules(unbanned=frozenset({TITAN.name}), name="Thursday at the store")
    [warning] = [v for v in judged(ATRAXA_ALL, main=[TITAN], house=house) if v.code == "house_unbanned"]
    assert warning.message == "Primeval Titan is banned in Commander, but the house rules (Thursday at the store) allow it."
    assert warning.lines and warning.rule is None


def test_an_unban_lifts_duels_ban_as_commander():
    house = HouseRules(unbanned=frozenset({DEREVI.name}))
    assert found(judged(DEREVI, fmt=DUEL), *HOUSE) == [("banned_as_commander", "error", (DEREVI.name,))]
    violations = judged(DEREVI, fmt=DUEL, house=house)
    assert found(violations, *HOUSE) == [("house_unbanned", "warning", (DEREVI.name,))]
    assert "banned as a commander in Duel Commander" in violations[0].message


def test_an_unbanned_card_still_obeys_every_other_rule():
    red_titan = replace(TITAN, name="Red Titan", color_identity=frozenset("R"))
    house = HouseRules(unbanned=frozenset({TITAN.name, red_titan.name}))
    cards = {TITAN: 2, red_titan: 1}
    cards.update({everywhere(c): q for c, q in filler(96).items()})
    violations = validate(replace(full_deck(ATRAXA_ALL, main=cards), house_rules=house))
    assert sorted(found(violations, "singleton", "color_identity", "house_unbanned", "banned")) == [
        ("color_identity", "error", ("Red Titan",)),
        ("house_unbanned", "warning", ("Primeval Titan",)), ("house_unbanned", "warning", ("Red Titan",)),
        ("singleton", "error", ("Primeval Titan",))]


def test_an_unbanned_conspiracy_is_still_judged_by_its_pool():
    """A Conspiracy is `banned` by its type; unbanned, the format's key judges it: no value, unknown."""
    house = HouseRules(unbanned=frozenset({CONSPIRACY.name}))
    violations = judged(ATRAXA_ALL, main=[CONSPIRACY], fmt=DUEL, house=house)
    assert found(violations, "house_unbanned", "banned", "legality_unknown") == [
        ("house_unbanned", "warning", (CONSPIRACY.name,)), ("legality_unknown", "warning", (CONSPIRACY.name,))]


def test_unbanned_and_banned_as_commander_together():
    """Allowed in the deck, still not as the commander: a table's usual compromise."""
    titan_legend = replace(TITAN, name="Primeval Legend", supertypes=frozenset({"Legendary"}))
    house = HouseRules(unbanned=frozenset({titan_legend.name}), banned_as_commander=frozenset({titan_legend.name}))
    assert found(judged(ATRAXA_ALL, main=[titan_legend], house=house), *HOUSE) == [
        ("house_unbanned", "warning", (titan_legend.name,))]
    assert found(judged(titan_legend, house=house), *HOUSE) == [
        ("house_banned_as_commander", "error", (titan_legend.name,)), ("house_unbanned", "warning", (titan_legend.name,))]


def test_a_card_no_deck_may_hold_is_non_deck_card_alone():
    plane = everywhere(card("Tazeem", "Plane — Zendikar", layout="planar"), commander="not_legal")
    house = HouseRules(banned=frozenset({plane.name}))
    assert found(judged(ATRAXA_ALL, main=[plane], house=house), "house_banned", "non_deck_card") == [
        ("non_deck_card", "error", (plane.name,))]


# --- check(): the bracket, the report and the formats block -----------------------------------


def _decklist(commander: str, *names: str) -> Decklist:
    entries = [ListEntry(commander, 1, 1, Section.COMMANDER)]
    entries += [ListEntry(name, 1, line, Section.MAIN) for line, name in enumerate(names, start=3)]
    return Decklist(entries=tuple(entries), problems=(), format="text")


CARDS = {c.name: c for c in (ATRAXA_ALL, SOL, TITAN, CHANGER, BOLT)}


@pytest.mark.parametrize(("declared", "max_bracket", "minimum_declared", "codes"), [
    (None, 2, 2, ["bracket_game_changers"]),  # the house's bracket, declared
    (4, 2, 4, []),  # the request's own bracket wins
    (3, None, 3, []),
    (None, None, None, []),
])
def test_a_house_max_bracket_is_a_declared_bracket_unless_the_request_declares_one(
        declared, max_bracket, minimum_declared, codes):
    house = HouseRules(max_bracket=max_bracket, name="Thursday at the store")
    report = check(_decklist(ATRAXA_ALL.name, CHANGER.name), CARDS, bracket=declared, house_rules=house)
    assert report.bracket.declared == minimum_declared
    assert [v.code for v in report.violations if v.code.startswith("bracket_")] == codes
    if codes:
        assert report.violations[0].message.endswith(" The house rules (Thursday at the store) allow bracket 2 at most.")
        assert report.violations[0].cards == (CHANGER.name,) and report.violations[0].lines == (3,)


def test_a_house_max_bracket_outside_commander_is_not_checked():
    house = HouseRules(max_bracket=1)
    report = check(_decklist(ATRAXA_ALL.name, CHANGER.name), CARDS, game_format="duel", house_rules=house)
    assert report.bracket is None and [v.code for v in report.violations] == ["deck_size"]


def test_the_report_carries_the_house_rules_and_every_formats_verdict_is_judged_under_them():
    house = HouseRules(unbanned=frozenset({TITAN.name}), banned=frozenset({BOLT.name}), name="Home")
    report = check(_decklist(ATRAXA_ALL.name, TITAN.name), CARDS, house_rules=house, with_formats=True)
    assert report.house_rules is house
    assert [(v.code, v.cards, v.lines) for v in report.violations] == [
        ("deck_size", (), ()), ("house_unbanned", (TITAN.name,), (3,))]
    assert "banned" not in report.formats["commander"].codes
    assert "house_unbanned" not in report.formats["commander"].codes  # a warning: never a format's error
    plain = check(_decklist(ATRAXA_ALL.name, TITAN.name), CARDS, with_formats=True)
    assert "banned" in plain.formats["commander"].codes and plain.house_rules is None
    banned = check(_decklist(ATRAXA_ALL.name, BOLT.name), CARDS, house_rules=house, with_formats=True)
    assert all("house_banned" in verdict.codes for verdict in banned.formats.values())


@pytest.mark.parametrize(("name", "rules"), [
    (None, "the house rules"), ("", "the house rules"), ("Thursday at the store", "Thursday at the store's rules"),
    ("The Regulars", "The Regulars' rules"),
])
def test_how_a_verdict_names_the_rules(name, rules):
    assert HouseRules(name=name).rules == rules
