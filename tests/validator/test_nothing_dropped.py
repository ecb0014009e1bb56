"""Property (DESIGN.md "Nothing is silently dropped"): for any parsed list, every card line
is counted in a game pile (the 100, the command zone, the companion, a planar or scheme
deck) or named, with its line, in a warning or error of check()'s report."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.factories import card, legend
from tests.validator.parse.test_property import DECKLIKE
from validator import engine
from validator.assemble import assemble, infer_commanders
from validator.engine import check
from validator.parse import DecklistError, parse

POOL = {c.name: c for c in (
    legend("Krenko, Mob Boss", "R"),
    legend("Kraum, Ludevic's Opus", "UR", text="Partner"),
    legend("Vial Smasher the Fierce", "BR", text="Partner"),
    card("Lurrus of the Dream-Den", "Legendary Creature — Cat", identity="WB",
         text="Companion — Each permanent card in your starting deck has mana value 2 or less."),
    card("Sol Ring", "Artifact", cost="{1}"),
    card("Mountain", "Basic Land — Mountain"),
    card("Goblin", "Token Creature — Goblin", identity="R", layout="token", legality="not_legal"),
    card("Tazeem", "Plane — Zendikar", layout="planar", legality="not_legal"),
)}
NAMES = [*POOL, "Sol Rnig", "Nope Card"]  # the last two resolve to nothing
DECORATIONS = ["", "", " *CMDR*", " [Tokens]", " [Ramp{noDeck}]", " [Maybeboard{noDeck}]", " [Commander{top}]",
               " (C21) 263", " # !Commander"]
HEADERS = ["Commander", "Companion", "Deck", "Sideboard", "SIDEBOARD:", "Maybeboard", "Tokens", "Display Commander",
           "Planar Deck", "Scheme Deck", "[Avatar]", "[Main]", "About", "// Sideboard", "Creatures (3)"]
CARD_LINE = st.builds(
    lambda prefix, quantity, name, decoration: f"{prefix}{quantity} {name}{decoration}",
    st.sampled_from(["", "", "", "SB: ", "COMMANDER: "]), st.sampled_from(["1", "1", "2", "60", "1x"]),
    st.sampled_from(NAMES), st.sampled_from(DECORATIONS),
)
LINE = st.one_of(CARD_LINE, CARD_LINE, st.sampled_from(HEADERS), st.just(""))
LISTS = st.one_of(st.lists(LINE, max_size=40).map("\n".join), DECKLIKE)


def resolved(decklist) -> dict:
    """The pool's cards for the names it knows; every other name is unknown."""
    return {e.name: POOL[e.name] for e in decklist.entries if e.name in POOL}


def unnamed_lines(text: str) -> list[tuple[int, str]]:
    """(line, name) of card lines neither in a game pile nor named with their line."""
    decklist = parse(text)
    cards = resolved(decklist)
    report = check(decklist, cards)
    deck = assemble(infer_commanders(decklist, cards), cards)  # what check() judged
    in_game = [*deck.commanders, *deck.main, *deck.planar, *deck.schemes]
    if deck.companion:
        in_game.append(deck.companion)
    played = {line for e in in_game for line in e.lines}
    missing = []
    for entry in decklist.entries:
        if entry.line in played:
            continue
        name = cards[entry.name].name if entry.name in cards else entry.name
        if not any(entry.line in v.lines and name in v.cards for v in report.violations):
            missing.append((entry.line, entry.name))
    return missing


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LISTS)
def test_every_card_line_is_played_or_named_in_a_violation(text):
    try:
        assert unnamed_lines(text) == []
    except DecklistError:
        pass  # refused outright: nothing was read


def test_the_property_sees_a_dropped_line(monkeypatch):
    text = "Commander\n1 Krenko, Mob Boss\n\nDisplay Commander\n1 Krenko, Mob Boss\n1 Nope Card\n"
    assert unnamed_lines(text) == []
    decklist = parse(text)
    report = check(decklist, resolved(decklist))
    assert [(v.code, v.cards, v.lines) for v in report.violations if v.code == "not_in_deck"] == [
        ("not_in_deck", ("Krenko, Mob Boss", "Nope Card"), (5, 6))]
    # without that warning the two display lines would be dropped silently: the check says so
    judged = engine.validate
    monkeypatch.setattr(engine, "validate",
                        lambda deck, rules=engine.RULES: [v for v in judged(deck, rules) if v.code != "not_in_deck"])
    assert unnamed_lines(text) == [(5, "Krenko, Mob Boss"), (6, "Nope Card")]
