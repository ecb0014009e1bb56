"""Real decklists, second round (issue 22): one fixture per convention and bug in
tests/fixtures/decklists, read by parse() and judged by check() with the cards known,
asserting the commanders, the card count, every code and the lines that matter.

Names resolve as in test_conventions: the commanders are hand-written cards with their
real identities, basics are basics, every other name is a plain colorless card, and the
names listed in UNKNOWN resolve to nothing (a typo, or a card newer than the store).
"""

from __future__ import annotations

import json

import pytest

from tests.support.factories import card, legend
from tests.validator.test_conventions import KNOWN, SAMPLES, codes, violation
from validator.decklist import NamedCommanders, Section
from validator.engine import check
from validator.parse import parse
from validator.parse.common import commander_readings
from validator.violations import Code, Severity

OWN = {c.name: c for c in (
    legend("Firesong and Sunspeaker", "RW", subtypes="Minotaur Shaman"),
    legend("Firesong", "R"),  # a split of the real name must never win over the name
    legend("Sunspeaker", "W"),
    legend('Miles "Tails" Prower', "U", subtypes="Fox Pilot", text="Partner"),
    card("Esika, God of the Tree // The Prismatic Bridge", "Legendary Creature — God", identity="WUBRG",
         text="Partner"),
    card("Lightning Bolt", "Instant", identity="R"),
    card("Bloodchief's Thirst", "Sorcery", identity="B"),
    card("Snow-Covered Mountain", "Basic Snow Land — Mountain"),
)}
CARDS = KNOWN | OWN
UNKNOWN = frozenset({"Krenko, Mob Bos", "Goblin Recruiterr", "Vial Smasher the Fierse"})

INFERRED = (Code.COMMANDER_INFERRED, Severity.WARNING)
SIDEBOARD = (Code.SIDEBOARD, Severity.WARNING)
NOT_IN_DECK = (Code.NOT_IN_DECK, Severity.WARNING)
ASSUMED = (Code.QUANTITY_ASSUMED, Severity.WARNING)
UNREAD = (Code.UNREAD_LINES, Severity.WARNING)
UNKNOWN_CARD = (Code.UNKNOWN_CARD, Severity.ERROR)
KRENKO = ("Krenko, Mob Boss",)
PARTNERS = ("Kraum, Ludevic's Opus", "Vial Smasher the Fierce")


def resolve(decklist) -> dict:
    """{name as typed: Card} for every entry (a stand-in artifact when not in CARDS), and for
    the names the list names its commanders by that are real cards; UNKNOWN resolve to nothing."""
    cards = {e.name: CARDS.get(e.name) or card(e.name, "Artifact") for e in decklist.entries}
    cards.update({name: CARDS[name] for name in decklist.named_names() if name in CARDS})
    return {name: found for name, found in cards.items() if name not in UNKNOWN}


def read(name: str):
    """(Decklist, Report) of a fixture, decoded as the API decodes a body."""
    decklist = parse((SAMPLES / name).read_bytes().decode("utf-8"))
    return decklist, check(decklist, resolve(decklist))


def lines_of(decklist, section: Section) -> list[int]:
    """The lines of the entries in a section."""
    return [e.line for e in decklist.entries if e.section is section]


# --- every convention: commanders, count, codes ------------------------------------

@pytest.mark.parametrize(("name", "commanders", "count", "expected", "fmt"), [
    # a leading comment names the commander, who is not in the 99: it is added (like a request's)
    ("comment_commander.txt", KRENKO, 100, [], "text"),
    # `A and B` naming two cards of the list: they designate, no second copy
    ("comment_partners_and.txt", PARTNERS, 100, [], "text"),
    # `A and B` that is one real card name: never split
    ("comment_real_and_name.txt", ("Firesong and Sunspeaker",), 100, [], "text"),
    # double quotes inside a name, and `Front // Back` (not in the list: added)
    ("comment_quotes_faces.txt", ('Miles "Tails" Prower', "Esika, God of the Tree // The Prismatic Bridge"), 100, [],
     "text"),
    # two CDR: comment lines, a banner naming one of them: both (the comment is the marker)
    ("cockatrice_two_cdr.cod", PARTNERS, 100, [INFERRED], "cockatrice"),
    # CSV: `;`, a Commander column, NULL and empty quantities, quoted fields after a blank
    ("csv_semicolon_commander_column.csv", KRENKO, 100, [ASSUMED, SIDEBOARD], "csv"),
    # CSV: tabs, a section column of letters (C commander, M main, S side), a format column
    ("csv_tabs_section_letters.tsv", KRENKO, 100, [SIDEBOARD], "csv"),
    # CSV: no quantity column (one copy a row), `yes` in a Commander column
    ("csv_no_quantity_column.csv", KRENKO, 100, [], "csv"),
    # JSON: bare-name arrays, one copy a name
    ("json_name_arrays.json", KRENKO, 100, [SIDEBOARD], "names_json"),
    # JSON: a cards array whose category marks the commander (the commander field agrees)
    ("json_cards_array.json", KRENKO, 100, [SIDEBOARD], "cards_json"),
    # JSON: a cards string (CRLF) beside commander and partner fields, which add to it
    ("json_cards_string_crlf.json", PARTNERS, 100, [], "lines_json"),
    # JSON: a cards string (LF), an empty partner
    ("json_cards_string_lf.json", KRENKO, 100, [], "lines_json"),
    # Moxfield's current API: boards, a companion listed in companions and sideboard, tokens
    ("moxfield_current.json", KRENKO, 100, [NOT_IN_DECK, SIDEBOARD], "moxfield_json"),
    # Markdown: the list in one fenced block; prose around it
    ("markdown_fenced.md", KRENKO, 100, [INFERRED, UNREAD], "markdown"),
    # Markdown: front matter naming the commander, `## Decklist` bullets, `- [Commander]`
    ("markdown_headings.md", KRENKO, 100, [UNREAD], "markdown"),
    # `Mountain: 60` after a list naming Mountain once: 60 in all
    ("basic_totals.txt", KRENKO, 100, [], "arena"),
    # MTGGoldfish exact versions, the commander last after a blank line
    ("mtggoldfish_exact_versions.txt", KRENKO, 100, [INFERRED], "text"),
    # XMage: LAYOUT lines of any length are editor state
    ("xmage_long_layout.dck", KRENKO, 100, [], "xmage"),
    # CR CR LF line ends: one break, so the commander-last block still reads
    ("crcrlf_commander_last.txt", KRENKO, 100, [INFERRED], "text"),
    # an unknown card in the deck does not stop the inference from Moxfield's MTGO layout
    ("moxfield_mtgo_unknown_card.txt", KRENKO, 100, [UNKNOWN_CARD, INFERRED, SIDEBOARD], "text"),
])
def test_each_convention_reads_as_its_author_meant(name, commanders, count, expected, fmt):
    decklist, report = read(name)
    assert report.commanders == commanders
    assert report.card_count == count
    assert codes(report) == expected
    assert report.format == fmt


# --- commanders named in a comment ---------------------------------------------------

def test_a_leading_comment_designates_and_adds_a_commander_not_in_the_list():
    decklist, report = read("comment_commander.txt")
    assert decklist.named_commanders == NamedCommanders((KRENKO,), 1)  # the remark in parentheses dropped
    assert decklist.accounted == (1, 2)
    assert not lines_of(decklist, Section.COMMANDER)
    assert (report.commanders, report.valid) == (KRENKO, True)


def test_a_commander_named_in_the_comment_and_listed_is_that_card():
    decklist, report = read("comment_partners_and.txt")
    assert decklist.named_commanders.readings == (
        ("Kraum, Ludevic's Opus and Vial Smasher the Fierce",), PARTNERS)
    assert report.card_count == 100  # listed once each, not a second copy
    assert Code.SINGLETON not in [v.code for v in report.violations]


@pytest.mark.parametrize(("text", "readings"), [
    ("Krenko, Mob Boss", [("Krenko, Mob Boss",)]),
    ("Kraum + Tymna the Weaver (blue-red-white-black)", [("Kraum", "Tymna the Weaver")]),
    ("Minsc & Boo, Timeless Heroes", [("Minsc & Boo, Timeless Heroes",), ("Minsc", "Boo, Timeless Heroes")]),
    ("Thrasios / Tymna", [("Thrasios / Tymna",), ("Thrasios", "Tymna")]),
    ("Fire // Ice", [("Fire // Ice",)]),
    ('"Krenko, Mob Boss"', [("Krenko, Mob Boss",)]),
    ("1 Krenko, Mob Boss", [("Krenko, Mob Boss",)]),
    ("A and B and C", [("A and B and C",), ("A", "B and C"), ("A and B", "C")]),
    ("x" * 500, []),
])
def test_commander_readings(text, readings):
    assert list(commander_readings(text)) == readings


def test_a_comment_after_the_first_card_names_nothing():
    decklist = parse("1 Sol Ring\n# Commander: Krenko, Mob Boss\n")
    assert decklist.named_commanders is None


def test_the_lists_own_marks_win_over_a_comment_naming_another():
    text = "# Commander: Krenko, Tin Street Kingpin\n" + (SAMPLES / "basic_totals.txt").read_text(encoding="utf-8")
    decklist = parse(text)
    report = check(decklist, resolve(decklist))
    assert report.commanders == KRENKO


def test_an_unknown_name_in_the_comment_is_unknown_card_in_the_command_zone():
    text = "# Commander: Krenko, Mob Bos\n" + "\n".join(
        (SAMPLES / "comment_commander.txt").read_text(encoding="utf-8").split("\n")[1:])
    decklist = parse(text)
    report = check(decklist, resolve(decklist))
    assert (report.commanders, report.card_count) == ((), 100)
    unknown = violation(report, Code.UNKNOWN_CARD)
    assert unknown.cards == ("Krenko, Mob Bos",)
    assert Code.COMMANDER_MISSING not in [v.code for v in report.violations]


def test_cockatrice_comment_lines_are_one_marker_and_the_banner_is_inside_it():
    decklist, report = read("cockatrice_two_cdr.cod")
    warning = violation(report, Code.COMMANDER_INFERRED)
    assert "the deck comment (CDR: Kraum, Ludevic's Opus; CDR: Vial Smasher the Fierce)" in warning.message
    assert (warning.cards, warning.lines) == (PARTNERS, (9, 10))
    assert [c.source.english() for c in decklist.candidates] == [
        "the deck comment (CDR: Kraum, Ludevic's Opus; CDR: Vial Smasher the Fierce)", "the deck's banner card"]


# --- CSV --------------------------------------------------------------------------

def test_csv_null_and_empty_quantities_are_one_copy_with_a_warning_naming_the_lines():
    decklist, report = read("csv_semicolon_commander_column.csv")
    assumed = violation(report, Code.QUANTITY_ASSUMED)
    assert (assumed.cards, assumed.lines) == (("Mind Stone", "Sol Ring"), (28, 34))
    assert "'NULL'" in assumed.message and "empty" in assumed.message
    assert [e.quantity for e in decklist.entries if e.line in (28, 34)] == [1, 1]
    assert 1 in decklist.accounted and not [e for e in decklist.entries if e.line == 1]  # the header is no card
    side = violation(report, Code.SIDEBOARD)
    assert (side.cards, side.lines) == (("Goblin Guide", "Pyroblast"), (39, 40))
    assert lines_of(decklist, Section.COMMANDER) == [2]


def test_csv_section_letters_and_format_column():
    decklist, report = read("csv_tabs_section_letters.tsv")
    assert lines_of(decklist, Section.COMMANDER) == [2]
    assert decklist.named_format.text == "commander" and decklist.named_format.line == 2
    assert violation(report, Code.SIDEBOARD).lines == (39,)


def test_csv_without_a_quantity_column_counts_one_copy_a_row():
    decklist, report = read("csv_no_quantity_column.csv")
    mountains = [e for e in decklist.entries if e.name == "Mountain"]
    assert (len(mountains), {e.quantity for e in mountains}) == (64, {1})
    assert [e.name for e in decklist.entries if e.line == 3] == ["Arcane Signet"]
    assert decklist.entries[1].set_code is None  # `Set` is no set_code column


@pytest.mark.parametrize("header", ["Name,Quantity", "Card,Count", "card name;qty", "Amount\tCard Name",
                                    "Quantity, Name, Board"])
def test_csv_header_words(header):
    delimiter = next(d for d in (";", "\t", ",") if d in header)
    columns = [h.strip().lower() for h in header.split(delimiter)]
    values = {"name": "Sol Ring", "card": "Sol Ring", "card name": "Sol Ring", "quantity": "2", "count": "2",
              "qty": "2", "amount": "2", "board": "main"}
    decklist = parse(header + "\n" + delimiter.join(values[c] for c in columns) + "\n")
    assert [(e.name, e.quantity, e.line) for e in decklist.entries] == [("Sol Ring", 2, 2)]
    assert decklist.format == "csv"


# --- JSON -------------------------------------------------------------------------

def test_json_entries_point_at_their_own_lines():
    decklist, _ = read("json_cards_array.json")
    text = (SAMPLES / "json_cards_array.json").read_text(encoding="utf-8").split("\n")
    (krenko,) = [e for e in decklist.entries if e.section is Section.COMMANDER]
    assert '"name": "Krenko, Mob Boss"' in text[krenko.line - 1]  # the card, not the commander field
    decklist, _ = read("json_name_arrays.json")
    text = (SAMPLES / "json_name_arrays.json").read_text(encoding="utf-8").split("\n")
    assert all(e.name in text[e.line - 1] for e in decklist.entries)


def test_json_cards_string_with_commander_and_partner_fields():
    decklist, report = read("json_cards_string_crlf.json")
    text = (SAMPLES / "json_cards_string_crlf.json").read_text(encoding="utf-8").split("\n")
    commanders = [e for e in decklist.entries if e.section is Section.COMMANDER]
    assert [(e.name, text[e.line - 1].split(":")[0].strip()) for e in commanders] == [
        ("Kraum, Ludevic's Opus", '"commander"'), ("Vial Smasher the Fierce", '"partner"')]
    assert {text[e.line - 1].split(":")[0].strip() for e in decklist.entries if e.section is Section.MAIN} == {'"cards"'}
    decklist, report = read("json_cards_string_lf.json")
    assert [e.name for e in decklist.entries if e.section is Section.COMMANDER] == list(KRENKO)


def test_moxfield_current_shape():
    decklist, report = read("moxfield_current.json")
    assert violation(report, Code.NOT_IN_DECK).cards == ("Goblin",)
    assert violation(report, Code.SIDEBOARD).cards == ("Goblin Guide", "Pyroblast")
    assert decklist.named_format.text == "commander"


def test_a_json_names_its_format_for_the_formats_engine():
    document = json.loads((SAMPLES / "json_name_arrays.json").read_text(encoding="utf-8"))
    document["format"] = "duelCommander"
    decklist = parse(json.dumps(document, indent=2))
    report = check(decklist, resolve(decklist))
    assert report.game_format == "duel"
    assert (violation(report, Code.FORMAT_INFERRED).lines) == (decklist.named_format.line,)


# --- Markdown ---------------------------------------------------------------------

def test_markdown_fenced_block_is_the_list_and_prose_is_named_once():
    decklist, report = read("markdown_fenced.md")
    unread = violation(report, Code.UNREAD_LINES)
    assert unread.lines == (3, 46)  # "3 Game Changers: ..." and the closing line: no cards
    assert "2 lines" in unread.message and "lines 3, 46" in unread.message
    assert (decklist.entries[0].name, decklist.entries[0].line) == ("Krenko, Mob Boss", 6)
    assert violation(report, Code.COMMANDER_INFERRED).lines == (6,)
    assert {1, 5, 44} <= set(decklist.accounted)  # the heading and the fences


def test_markdown_headings_bullets_and_front_matter():
    decklist, report = read("markdown_headings.md")
    assert decklist.named_commanders == NamedCommanders((KRENKO,), 3)
    assert decklist.named_format.text == "commander"
    assert lines_of(decklist, Section.COMMANDER) == [13]
    unread = violation(report, Code.UNREAD_LINES)
    assert unread.lines == (9, 54, 58)  # the prose before, between and after the list
    assert [e.line for e in decklist.entries if e.name == "Mountain"] == [52]
    assert not [e for e in decklist.entries if "Game Changers" in e.name or "Attack" in e.name]


@pytest.mark.parametrize("text", [
    "# Commander\n1 Krenko, Mob Boss\n# Deck\n1 Sol Ring\n",  # comment headers of a plain list
    "// Sideboard\n1 Sol Ring\n",
    "1 Sol Ring\n1 Forest\n",
])
def test_a_plain_list_is_no_markdown_document(text):
    assert parse(text).format != "markdown"


# --- basics, versions, line ends --------------------------------------------------

def test_basic_totals_give_the_total_not_more():
    decklist, report = read("basic_totals.txt")
    mountains = [(e.quantity, e.line) for e in decklist.entries if e.name == "Mountain"]
    assert mountains == [(1, 40), (59, 43)]
    assert [(e.quantity, e.line) for e in decklist.entries if e.name == "Snow-Covered Mountain"] == [(1, 41), (3, 44)]
    assert not [e for e in decklist.entries if ":" in e.name]


@pytest.mark.parametrize(("totals", "problem"), [
    ("Mountain: 1\n", None),  # already listed: the line adds nothing
    ("Mountain: 0\n", Code.UNPARSED_LINE),
    ("Mountain: 5\nMountain: 5\n", None),
])
def test_basic_total_edges(totals, problem):
    decklist = parse("1 Krenko, Mob Boss\n1 Mountain\n\n" + totals)
    assert sum(e.quantity for e in decklist.entries if e.name == "Mountain") == (1 if "1\n" in totals else
                                                                                  1 if problem else 5)
    assert [p.code for p in decklist.problems if p.code != Code.COMMANDER_INFERRED] == ([problem] if problem else [])


def test_a_total_below_what_is_listed_is_reported():
    decklist = parse("2 Mountain\n1 Sol Ring\n\nMountain: 1\n")
    (problem,) = decklist.problems
    assert (problem.code, problem.lines) == (Code.UNPARSED_LINE, (4,))
    assert "has 2" in problem.message


def test_mtggoldfish_exact_versions():
    decklist, report = read("mtggoldfish_exact_versions.txt")
    first, second, third, fourth = decklist.entries[:4]
    assert (first.name, first.set_code, first.foil) == ("Arcane Signet", "C21", True)
    assert (second.name, third.name, fourth.name) == ("Beetleback Chief", "Blasphemous Act", "Chaos Warp")
    assert fourth.collector_number == "285"
    assert violation(report, Code.COMMANDER_INFERRED).lines == (38,)
    assert decklist.entries[-1].set_code == "PDDT" and decklist.entries[-1].foil


def test_xmage_layout_lines_are_never_unparsed():
    decklist, report = read("xmage_long_layout.dck")
    assert {39, 40} <= set(decklist.accounted)
    assert not decklist.problems


def test_cr_cr_lf_is_one_line_break():
    decklist, report = read("crcrlf_commander_last.txt")
    assert violation(report, Code.COMMANDER_INFERRED).lines == (38,)
    assert [e.line for e in decklist.entries[:3]] == [1, 2, 3]


# --- inference with unknown cards -------------------------------------------------

def test_commander_first_block_with_an_unknown_commander():
    decklist, report = read("commander_first_unknown.txt")
    assert (report.commanders, report.card_count) == ((), 100)
    assert codes(report) == [UNKNOWN_CARD, INFERRED]
    inferred = violation(report, Code.COMMANDER_INFERRED)
    assert inferred.message.startswith("No commander was marked; Krenko, Mob Bos taken as commander")
    assert "not in the card data" in inferred.message
    assert (inferred.cards, inferred.lines) == (("Krenko, Mob Bos",), (1,))
    assert violation(report, Code.UNKNOWN_CARD).lines == (1,)


def test_an_unknown_partner_causes_no_color_identity_finding():
    decklist, report = read("commander_first_partner_unknown.txt")
    assert (report.commanders, report.card_count) == (("Kraum, Ludevic's Opus",), 100)
    # Bloodchief's Thirst (B) is outside Kraum (UR) alone, but maybe not outside the pair
    assert codes(report) == [UNKNOWN_CARD, INFERRED]
    assert violation(report, Code.UNKNOWN_CARD).cards == ("Vial Smasher the Fierse",)


def test_moxfield_mtgo_layout_infers_beside_an_unknown_card():
    _, report = read("moxfield_mtgo_unknown_card.txt")
    assert violation(report, Code.UNKNOWN_CARD).cards == ("Goblin Recruiterr",)
    assert violation(report, Code.COMMANDER_INFERRED).lines == (41,)


def test_an_unknown_card_in_a_side_tail_is_never_taken():
    text = "\n".join(f"1 Card {i}" for i in range(99)) + "\nSB: 1 Pyroblast\nSB: 1 Shock\nSB: 1 Krenko, Mob Bos\n"
    decklist = parse(text)
    report = check(decklist, resolve(decklist))
    assert report.commanders == ()
    assert Code.COMMANDER_MISSING in [v.code for v in report.violations]


# --- what must not change ---------------------------------------------------------

def _judged(text: str):
    decklist = parse(text)
    return check(decklist, resolve(decklist))


def _fixture(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("text", [
    # a bare list whose first line is a legend, no blank line after it
    _fixture("no_marks_legend_first.txt"),
    # two first lines that happen to be a legal pair
    "1 Kraum, Ludevic's Opus\n1 Vial Smasher the Fierce\n" + "\n".join(_fixture("no_marks_legend_first.txt")
                                                                       .split("\n")[1:]).replace("64 Mountain", "63 Mountain"),
    # a commander out of alphabetical order with nothing marking it
    _fixture("no_marks_legend_first.txt").replace("1 Krenko, Mob Boss\n", "").replace("1 Impact Tremors\n",
                                                                                         "1 Impact Tremors\n1 Krenko, Mob Boss\n"),
    # a first CSV row
    "Quantity,Name\n" + "\n".join(f"{line.split(' ', 1)[0]},\"{line.split(' ', 1)[1]}\""
                                  for line in _fixture("no_marks_legend_first.txt").strip().split("\n")),
    # a legend inside a Markdown list
    "# My deck\n\n" + "\n".join(f"- {line}" for line in _fixture("no_marks_legend_first.txt").strip().split("\n")),
])
def test_lists_marking_no_commander_stay_commander_missing(text):
    report = _judged(text)
    assert report.commanders == ()
    assert report.card_count == 100
    assert Code.COMMANDER_MISSING in [v.code for v in report.violations]
    assert Code.COMMANDER_INFERRED not in [v.code for v in report.violations]
