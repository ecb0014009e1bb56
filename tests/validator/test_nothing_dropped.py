"""Property (DESIGN.md "Nothing is silently dropped"): for any parsed list, every card line
is counted in a game pile (the 100, the command zone, the companion, a planar or scheme
deck) or named, with its line, in a warning or error of check()'s report."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.factories import card, legend
from tests.validator.parse.test_property import DECKLIKE
from validator import engine
from validator.assemble import assemble, infer_commanders, named_designation
from validator.decklist import NOBODY
from validator.engine import check
from validator.parse import DecklistError, parse
from tests.support.engines import plain_python_only

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
PLAIN_LISTS = st.lists(LINE, max_size=40).map("\n".join)

# CSV exports: a header of known columns in any order, any separator, rows whose quantity
# may be no number (NULL, empty) and whose board or Commander column places the card.
CSV_COLUMNS = st.permutations(["Qty", "Card Name", "Board", "Commander"])
CSV_CELLS = {"Qty": st.sampled_from(["1", "2", "NULL", "", "0", "x"]), "Card Name": st.sampled_from(NAMES),
             "Board": st.sampled_from(["main", "side", "maybe", "C", "M", "S", "Ramp", ""]),
             "Commander": st.sampled_from(["True", "False", ""])}


@st.composite
def csv_documents(draw) -> str:
    """A CSV export with a header row (quoted cells, a blank after the separator)."""
    columns = draw(CSV_COLUMNS)[: draw(st.integers(2, 4))]
    if "Card Name" not in columns:
        columns = ["Card Name", *columns]
    separator = draw(st.sampled_from([",", ";", "\t"]))
    rows = [separator.join(columns)]
    for _ in range(draw(st.integers(0, 25))):
        cells = [draw(CSV_CELLS[column]) for column in columns]
        rows.append(separator.join(f' "{cell}"' if separator == "," and "," in cell else cell for cell in cells))
    return "\n".join(rows)


# JSON shapes no one site owns, and Moxfield's boards.
CARD_OBJECT = st.fixed_dictionaries({"name": st.sampled_from(NAMES), "quantity": st.sampled_from([1, 2, 0, "1"]),
                                     "category": st.sampled_from(["commander", "Ramp", "Sideboard", "Maybeboard",
                                                                  "companion", "Tokens"])})
JSON_DOCUMENTS = st.one_of(
    st.fixed_dictionaries({"commanders": st.lists(st.sampled_from(NAMES), max_size=2),
                           "mainboard": st.lists(st.sampled_from(NAMES), min_size=1, max_size=20),
                           "sideboard": st.lists(st.sampled_from(NAMES), max_size=3)}),
    st.fixed_dictionaries({"commander": st.sampled_from(NAMES), "cards": st.lists(CARD_OBJECT, max_size=20)}),
    st.fixed_dictionaries({"commander": st.sampled_from(NAMES), "partner": st.sampled_from([*NAMES, ""]),
                           "cards": st.lists(CARD_LINE, max_size=20).map("\r\n".join)}),
    st.fixed_dictionaries({"boards": st.fixed_dictionaries({
        board: st.fixed_dictionaries({"cards": st.dictionaries(
            st.text("abc", min_size=1, max_size=3),
            st.fixed_dictionaries({"quantity": st.sampled_from([1, 2]), "card": st.fixed_dictionaries(
                {"name": st.sampled_from(NAMES)})}), max_size=6)})
        for board in ("mainboard", "commanders", "sideboard", "tokens")})}),
).flatmap(lambda document: st.sampled_from([None, 1]).map(lambda indent: json.dumps(document, indent=indent)))

# Markdown: prose, headings, bullets, fences and front matter around card lines.
MARKDOWN_LINE = st.one_of(
    CARD_LINE, CARD_LINE.map(lambda line: f"- {line}"), st.sampled_from(NAMES).map(lambda name: f"- [Commander] {name}"),
    st.sampled_from(["## Decklist", "## Commander", "### Creatures (3)", "# My deck", "## Strategy", "```", "~~~",
                     "3 Game Changers: Sol Ring, Mountain.", "Some prose about the deck.", "", "---"]),
)
FRONT_MATTER = st.sampled_from(["", "---\ncommander: Krenko, Mob Boss\nformat: commander\n---\n",
                                "---\ncommanders:\n  - Kraum, Ludevic's Opus\n  - Vial Smasher the Fierce\n---\n",
                                "# Commander: Krenko, Mob Boss\n"])
MARKDOWN = st.tuples(FRONT_MATTER, st.lists(MARKDOWN_LINE, max_size=40)).map(lambda pair: pair[0] + "\n".join(pair[1]))
LISTS = st.one_of(PLAIN_LISTS, DECKLIKE, csv_documents(), JSON_DOCUMENTS, MARKDOWN)


def resolved(decklist) -> dict:
    """The pool's cards for the names it knows; every other name is unknown."""
    return {e.name: POOL[e.name] for e in decklist.entries if e.name in POOL}


def unnamed_lines(text: str) -> list[tuple[int, str]]:
    """(line, name) of card lines neither in a game pile nor named with their line."""
    decklist = parse(text)
    cards = resolved(decklist)
    report = check(decklist, cards)
    designation = named_designation(decklist, cards, NOBODY)  # a `# Commander:` comment's
    listed = decklist if designation.commanders else infer_commanders(decklist, cards)
    deck = assemble(listed, cards, designation=designation)  # what check() judged
    in_game = [*deck.commanders, *deck.main, *deck.planar, *deck.schemes]
    if deck.companion:
        in_game.append(deck.companion)
    # a display copy of a commander is that commander (not_in_deck names any other display card)
    in_game += [e for e in deck.displayed if e.card.name in {c.card.name for c in deck.commanders}]
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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(csv_documents(), JSON_DOCUMENTS, MARKDOWN))
def test_csv_json_and_markdown_card_lines_are_played_or_named(text):
    """The second round's readers (issue 22) on their own, so each gets its share of examples."""
    try:
        assert unnamed_lines(text) == []
    except DecklistError:
        pass


def test_the_strategies_reach_the_new_readers():
    formats = {parse(text).format for text in (
        "Qty;Card Name\n1;Sol Ring", json.dumps({"commanders": ["Sol Ring"], "mainboard": ["Mountain"]}),
        json.dumps({"commander": "Sol Ring", "cards": [{"name": "Mountain", "quantity": 1, "category": "x"}]}),
        json.dumps({"commander": "Sol Ring", "partner": "", "cards": "1 Mountain\r\n1 Sol Ring"}),
        "# My deck\n\n- 1 Sol Ring\n- Mountain\n")}
    assert formats == {"csv", "names_json", "cards_json", "lines_json", "markdown"}


@plain_python_only
def test_the_property_sees_a_dropped_line(monkeypatch):
    text = "Commander\n1 Krenko, Mob Boss\n\nDisplay Commander\n1 Sol Ring\n1 Nope Card\n1 Krenko, Mob Boss\n"
    assert unnamed_lines(text) == []
    decklist = parse(text)
    report = check(decklist, resolved(decklist))
    # the display copy of the commander (line 7) is the commander; the others are named
    assert [(v.code, v.cards, v.lines) for v in report.violations if v.code == "not_in_deck"] == [
        ("not_in_deck", ("Sol Ring", "Nope Card"), (5, 6))]
    # without that warning the two display lines would be dropped silently: the check says so
    judged = engine.validate
    monkeypatch.setattr(engine, "validate",
                        lambda deck, rules=engine.RULES: [v for v in judged(deck, rules) if v.code != "not_in_deck"])
    assert unnamed_lines(text) == [(5, "Sol Ring"), (6, "Nope Card")]
