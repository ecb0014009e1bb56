"""Reading a list as its author meant (DESIGN.md): one realistic file per exporter's
convention in tests/fixtures/decklists, read by parse() and judged by check() with the
cards known, asserting the commander(s), the card count and every code.

Names resolve through a small stand-in for card_data: the commanders and companions are
hand-written cards with their real rules text, basics are basics, and every other name is
a plain colorless card (nothing here is about color identity).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.factories import card, legend
from validator.decklist import Candidate, Designation, Section
from validator.engine import check
from validator.parse import parse
from validator.violations import Code, Severity

SAMPLES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"

KRENKO = legend("Krenko, Mob Boss", "R", subtypes="Goblin Warrior", cost="{2}{R}{R}")
KRAUM = legend("Kraum, Ludevic's Opus", "UR", subtypes="Zombie Horror", text="Flying, haste\nPartner")
VIAL = legend("Vial Smasher the Fierce", "BR", subtypes="Goblin Berserker", text="Partner")
CAESAR = legend("Caesar, Legion's Emperor", "RWB")
ZEDRUU = legend("Zedruu the Greathearted", "URW", subtypes="Minotaur Monk")
TIN_STREET = legend("Krenko, Tin Street Kingpin", "R", subtypes="Goblin Warrior")
PURPHOROS = card("Purphoros, God of the Forge", "Legendary Enchantment Creature — God", identity="R")
LURRUS = card("Lurrus of the Dream-Den", "Legendary Creature — Cat Nightmare", identity="WB", cost="{1}{W/B}{W/B}",
              text="Companion — Each permanent card in your starting deck has mana value 2 or less.")
YORION = card("Yorion, Sky Nomad", "Legendary Creature — Bird Serpent", identity="WU", cost="{3}{W/U}{W/U}",
              text="Companion — Your starting deck contains at least twenty cards more than the minimum deck size.")
TOKEN = card("Goblin", "Token Creature — Goblin", identity="R", layout="token", legality="not_legal")
BASICS = {name: card(name, f"Basic Land — {name}") for name in ("Mountain", "Plains", "Island", "Swamp", "Forest")}
KNOWN = {c.name: c for c in (KRENKO, KRAUM, VIAL, CAESAR, ZEDRUU, TIN_STREET, PURPHOROS, LURRUS, YORION, TOKEN)} | BASICS


def resolve(decklist, *extra: str) -> dict:
    """{name as typed: Card} for every entry (and any extra name)."""
    names = {e.name for e in decklist.entries} | set(extra)
    return {name: KNOWN.get(name) or card(name, "Artifact") for name in names}


def read(name: str, **options):
    """(Decklist, Report) of a fixture file, decoded as the API decodes a body."""
    decklist = parse((SAMPLES / name).read_bytes().decode("utf-8"), options.pop("format", None))
    designation = Designation.of(**options)
    return decklist, check(decklist, resolve(decklist, *designation.commanders), designation=designation)


def codes(report) -> list[tuple[str, str]]:
    """(code, severity) of every violation, in report order."""
    return [(v.code, v.severity) for v in report.violations]


def violation(report, code: str):
    """The one violation of a code."""
    (found,) = [v for v in report.violations if v.code == code]
    return found


INFERRED = (Code.COMMANDER_INFERRED, Severity.WARNING)
SIDEBOARD = (Code.SIDEBOARD, Severity.WARNING)
NOT_IN_DECK = (Code.NOT_IN_DECK, Severity.WARNING)


# --- each convention, from a file of that exporter's shape ------------------------

@pytest.mark.parametrize(("name", "commanders", "expected", "source", "inferred_lines"), [
    # 1. Moxfield's MTGO download: main, blank, SIDEBOARD:, blank, the commander last
    ("moxfield_mtgo.txt", ("Krenko, Mob Boss",), [INFERRED, SIDEBOARD], "the final block after the sideboard", (43,)),
    # 3. the commander alone on line 1, a blank line, then the 99
    ("commander_first.txt", ("Krenko, Mob Boss",), [INFERRED], "the first block", (1,)),
    # 4. partners appended as the last two SB: lines after three real sideboard cards (Cockatrice .dec)
    ("cockatrice_sb_partners.dec", ("Kraum, Ludevic's Opus", "Vial Smasher the Fierce"), [INFERRED, SIDEBOARD],
     "the last two cards of the SB: (sideboard) lines", (42, 43)),
    # 4. the commander appended as the last Sideboard="true" card of an MTGO .dek
    ("mtgo_side_appended.dek", ("Krenko, Mob Boss",), [INFERRED, SIDEBOARD], "the last card of the sideboard", (44,)),
    # 5. Cockatrice: the commander only in the deck comment (CDR:) and the banner card
    ("cockatrice_comment.cod", ("Krenko, Mob Boss",), [INFERRED, NOT_IN_DECK], "the deck comment (CDR: Krenko, Mob Boss)",
     (9,)),
])
def test_commander_is_inferred_from_the_files_own_layout(name, commanders, expected, source, inferred_lines):
    decklist, report = read(name)
    assert report.commanders == commanders
    assert report.card_count == 100
    assert codes(report) == expected
    warning = violation(report, Code.COMMANDER_INFERRED)
    assert source in warning.message and "100 cards" in warning.message
    assert (warning.cards, warning.lines) == (commanders, inferred_lines)
    assert report.valid is True


def test_moxfield_mtgo_sideboard_cards_are_named_with_their_lines():
    _, report = read("moxfield_mtgo.txt")
    side = violation(report, Code.SIDEBOARD)
    assert (side.cards, side.lines) == (("Pyroblast", "Red Elemental Blast", "Tormod's Crypt"), (39, 40, 41))


def test_cockatrice_banner_card_alone_names_the_commander():
    text = (SAMPLES / "cockatrice_comment.cod").read_text(encoding="utf-8")
    text = text.replace("CDR: Krenko, Mob Boss\n", "")
    decklist = parse(text)
    report = check(decklist, resolve(decklist))
    assert (report.commanders, report.card_count) == (("Krenko, Mob Boss",), 100)
    assert "banner card" in violation(report, Code.COMMANDER_INFERRED).message
    # the tokens zone is named, not dropped
    assert (violation(report, Code.NOT_IN_DECK).cards, violation(report, Code.NOT_IN_DECK).lines) == (("Goblin",), (47,))


def test_archidekt_user_category_tokens_stays_in_the_deck():
    # 2. `[Tokens]` is the user's own category; only {noDeck} leaves the deck
    decklist, report = read("archidekt_tokens.txt")
    tokens = [e for e in decklist.entries if e.name in ("Academy Manufactor", "Dragon Fodder", "Krenko's Command")]
    assert {e.section for e in tokens} == {Section.MAIN}
    assert (report.commanders, report.card_count) == (("Krenko, Mob Boss",), 100)
    assert codes(report) == [SIDEBOARD]  # no commander_inferred: Archidekt marks it
    side = violation(report, Code.SIDEBOARD)
    assert side.cards == ("Goblin Piledriver", "Goblin Sharpshooter", "Goblin Token")
    assert side.lines == (39, 40, 41)


def test_arena_commander_section_ends_at_the_blank_line():
    # 6. `Commander`, the commander, a blank line, then the deck with no `Deck` header
    decklist, report = read("arena_commander_blank.txt")
    assert [e.line for e in decklist.entries if e.section is Section.COMMANDER] == [2]
    assert (report.commanders, report.card_count, codes(report)) == (("Krenko, Mob Boss",), 100, [])


def test_cockatrice_set_code_inside_the_name_is_a_printing():
    # 7. name="Caesar, Legion's Emperor (PIP)"
    decklist, report = read("cockatrice_set_in_name.cod")
    (caesar,) = [e for e in decklist.entries if e.section is Section.COMMANDER]
    assert (caesar.name, caesar.set_code) == ("Caesar, Legion's Emperor", "PIP")
    assert (report.commanders, report.card_count, codes(report)) == (("Caesar, Legion's Emperor",), 100, [])


@pytest.mark.parametrize("name", ["Erase (Not the Urza's Legacy One)", "B.F.M. (Big Furry Monster)"])
def test_parentheses_that_are_no_set_code_stay_in_an_xml_name(name):
    decklist = parse(f'<?xml version="1.0"?>\n<cockatrice_deck version="1">\n<zone name="main">\n'
                     f'<card number="1" name="{name}"/>\n</zone>\n</cockatrice_deck>\n')
    assert [e.name for e in decklist.entries] == [name]


# --- inference only where the evidence is clear -----------------------------------

def lines_of(name: str) -> list[str]:
    """A fixture's lines, to vary one thing."""
    return (SAMPLES / name).read_text(encoding="utf-8").split("\n")


def judge(text: str):
    """check() of a text with the stand-in cards."""
    decklist = parse(text)
    return check(decklist, resolve(decklist))


@pytest.mark.parametrize(("name", "old", "new", "count"), [
    # the final block is no card that can be a commander
    ("moxfield_mtgo.txt", "1 Krenko, Mob Boss", "1 Goblin Guide", 99),
    # the deck would not have 100 cards
    ("moxfield_mtgo.txt", "64 Mountain", "63 Mountain", 98),
    ("commander_first.txt", "64 Mountain", "65 Mountain", 101),
    ("commander_first.txt", "Krenko, Mob Boss", "Sol Ring", 100),
    # two cards that can't pair
    ("cockatrice_sb_partners.dec", "SB: 1 Vial Smasher the Fierce", "SB: 1 Krenko, Mob Boss", 98),
    # a card the comment names that is not in the list
    ("cockatrice_comment.cod", '<card number="1" name="Krenko, Mob Boss"/>', '<card number="1" name="Goblin Guide"/>', 100),
])
def test_no_commander_is_guessed_without_clear_evidence(name, old, new, count):
    text = "\n".join(lines_of(name)).replace(old, new, 1)
    report = judge(text)
    assert report.commanders == ()
    assert report.card_count == count
    missing = violation(report, Code.COMMANDER_MISSING)
    assert "Commander header" in missing.message and "*CMDR*" in missing.message and "--commander" in missing.message
    assert Code.COMMANDER_INFERRED not in [v.code for v in report.violations]


def test_two_fitting_candidates_are_ambiguous_and_nothing_is_guessed():
    # the comment names one legend of the deck, the banner card another
    text = "\n".join(lines_of("cockatrice_comment.cod")).replace(
        ">Krenko, Mob Boss</bannerCard>", ">Krenko, Tin Street Kingpin</bannerCard>")
    report = judge(text)
    assert report.commanders == ()
    assert Code.COMMANDER_MISSING in [v.code for v in report.violations]


def test_a_marked_commander_is_never_replaced_by_a_guess():
    text = "\n".join(lines_of("commander_first.txt")).replace("1 Sol Ring", "1 Sol Ring *CMDR*")
    report = judge(text)
    assert report.commanders == ("Sol Ring",)
    assert Code.COMMANDER_INFERRED not in [v.code for v in report.violations]


def test_the_request_designation_wins_over_the_layout():
    _, report = read("commander_first.txt", commanders=["Purphoros, God of the Forge"])
    assert report.commanders == ("Purphoros, God of the Forge",)
    assert Code.COMMANDER_INFERRED not in [v.code for v in report.violations]


def test_side_tail_commander_and_companion_are_told_apart():
    # the last two SB: lines are the commander and its companion (MTGO keeps both there)
    text = "\n".join(lines_of("cockatrice_sb_partners.dec"))
    text = text.replace("63 Mountain", "64 Mountain").replace("SB: 1 Kraum, Ludevic's Opus", "SB: 1 Krenko, Mob Boss")
    text = text.replace("SB: 1 Vial Smasher the Fierce", "SB: 1 Lurrus of the Dream-Den")
    report = judge(text)
    assert (report.commanders, report.companion, report.card_count) == (("Krenko, Mob Boss",), "Lurrus of the Dream-Den", 100)
    assert violation(report, Code.COMMANDER_INFERRED).message.endswith(
        "Lurrus of the Dream-Den has Companion, so it is the companion.")
    assert violation(report, Code.SIDEBOARD).cards == ("Pyroblast", "Red Elemental Blast", "Tormod's Crypt")


# --- companions -------------------------------------------------------------------

def test_two_companions_declared_are_reported_not_resolved_silently():
    text = "\n".join(lines_of("arena_commander_blank.txt")).replace(
        "Commander\n", "Companion\n1 Lurrus of the Dream-Den\n1 Yorion, Sky Nomad\n\nCommander\n", 1)
    report = judge(text)
    assert report.companion == "Lurrus of the Dream-Den"
    found = violation(report, Code.COMPANION_INELIGIBLE)
    assert (found.cards, found.lines) == (("Yorion, Sky Nomad",), (3,))
    assert "only one card can be your companion" in found.message
    assert Code.SIDEBOARD not in [v.code for v in report.violations]


def test_yorion_with_a_120_card_list_is_only_deck_size():
    text = "\n".join(lines_of("arena_commander_blank.txt")).replace("64 Mountain", "84 Mountain").replace(
        "Commander\n1 Krenko, Mob Boss (DDT) 1", "Companion\n1 Yorion, Sky Nomad\n\nCommander\n1 Zedruu the Greathearted (CMD) 231")
    report = judge(text)
    assert (report.commanders, report.card_count, report.companion) == (("Zedruu the Greathearted",), 120, "Yorion, Sky Nomad")
    assert [v.code for v in report.violations] == [Code.DECK_SIZE]


def test_yorion_in_a_100_card_deck_does_not_claim_a_size():
    report = judge("\n".join(lines_of("arena_commander_blank.txt")).replace(
        "Commander\n", "Companion\n1 Yorion, Sky Nomad\n\nCommander\n", 1))
    message = violation(report, Code.COMPANION_CONDITION).message
    assert "at least 120 cards" in message and "exactly 100" in message


def test_cockatrice_side_zone_with_the_commander_appended_after_sideboard_cards():
    text = "\n".join(lines_of("cockatrice_set_in_name.cod")).replace(
        '<zone name="side">\n', '<zone name="side">\n        <card number="1" name="Pyroblast"/>\n'
        '        <card number="1" name="Red Elemental Blast"/>\n        <card number="1" name="Tormod&apos;s Crypt"/>\n')
    report = judge(text)
    assert (report.commanders, report.card_count) == (("Caesar, Legion's Emperor",), 100)
    assert "the last card of the 'side' zone" in violation(report, Code.COMMANDER_INFERRED).message
    assert violation(report, Code.SIDEBOARD).cards == ("Pyroblast", "Red Elemental Blast", "Tormod's Crypt")


@pytest.mark.parametrize("header", ["Commander", "Companion", "COMMANDER:", "[Commander]"])
def test_a_command_zone_section_ends_at_a_blank_line_followed_by_cards(header):
    decklist = parse(f"{header}\n1 Krenko, Mob Boss\n\n1 Sol Ring\n98 Mountain\n")
    assert [e.section for e in decklist.entries][1:] == [Section.MAIN, Section.MAIN]


def test_a_blank_line_right_after_the_header_keeps_the_section():
    decklist = parse("Commander\n\n1 Krenko, Mob Boss\n\nDeck\n1 Sol Ring\n")
    assert [e.section for e in decklist.entries] == [Section.COMMANDER, Section.MAIN]


@pytest.mark.parametrize(("name", "candidates"), [
    ("moxfield_mtgo.txt", [((39,), "the final block after the sideboard (the layout of Moxfield's MTGO download)",
                            True)]),
    ("commander_first.txt", [((0,), "the first block, before a blank line (a commander-first list)", True)]),
    ("cockatrice_sb_partners.dec", [((39, 40), "the last two cards of the SB: (sideboard) lines"),
                                    ((40,), "the last card of the SB: (sideboard) lines")]),
    ("cockatrice_comment.cod", [((0,), "the deck comment (CDR: Krenko, Mob Boss)"), ((0,), "the deck's banner card")]),
    # the file marks its commander: nothing to propose
    ("arena_commander_blank.txt", []),
])
def test_the_parser_only_proposes_and_moves_no_card(name, candidates):
    decklist = parse((SAMPLES / name).read_bytes().decode("utf-8"))
    assert [(c.entries, c.source.english(), c.layout) for c in decklist.candidates] == [
        Candidate(*c)[:3] for c in candidates]
    assert Code.COMMANDER_INFERRED not in [p.code for p in decklist.problems]
    if candidates:
        assert not [e for e in decklist.entries if e.section is Section.COMMANDER]


def test_moxfield_mtgo_partners_in_the_final_block():
    text = "\n".join(lines_of("moxfield_mtgo.txt")).replace("64 Mountain", "63 Mountain").replace(
        "1 Krenko, Mob Boss", "1 Kraum, Ludevic's Opus\n1 Vial Smasher the Fierce")
    report = judge(text)
    assert (report.commanders, report.card_count) == (("Kraum, Ludevic's Opus", "Vial Smasher the Fierce"), 100)
    assert [v.code for v in report.violations] == [Code.COMMANDER_INFERRED, Code.SIDEBOARD]


MAIN_OF_100 = "1 Krenko, Mob Boss\n1 Goblin Lackey\n98 Mountain\n"


@pytest.mark.parametrize("text", [
    MAIN_OF_100 + "SB: 1 Lightning Bolt\n",
    MAIN_OF_100 + "SB: 1 Lightning Bolt\nSB: 1 Shock\n",
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n'
    "  <comments>CDR: Krenko, Mob Boss</comments>\n  <zone name=\"main\">\n"
    '    <card number="1" name="Krenko, Mob Boss"/>\n    <card number="1" name="Goblin Lackey"/>\n'
    '    <card number="98" name="Mountain"/>\n  </zone>\n  <zone name="side">\n'
    '    <card number="1" name="Lightning Bolt"/>\n  </zone>\n</cockatrice_deck>\n',
    '<?xml version="1.0" encoding="utf-8"?>\n<Deck>\n'
    '  <Cards Quantity="1" Sideboard="false" Name="Krenko, Mob Boss" />\n'
    '  <Cards Quantity="1" Sideboard="false" Name="Goblin Lackey" />\n'
    '  <Cards Quantity="98" Sideboard="false" Name="Mountain" />\n'
    '  <Cards Quantity="1" Sideboard="true" Name="Lightning Bolt" />\n</Deck>\n',
])
def test_a_small_sideboard_beside_a_full_main_deck_is_a_sideboard_not_the_commanders(text):
    """A main deck of 100 already holds its commander: one or two side cards are a real
    sideboard (user saw Lightning Bolt taken as commander: commander_ineligible, deck_size 101)."""
    decklist = parse(text)
    report = check(decklist, resolve(decklist))
    assert report.commanders == (("Krenko, Mob Boss",) if "CDR:" in text else ())
    assert report.card_count == 100
    assert ("commander_ineligible", "error") not in codes(report)
    assert ("deck_size", "error") not in codes(report)
    assert violation(report, Code.SIDEBOARD).cards[0] == "Lightning Bolt"


def test_a_final_sideboard_section_holding_only_the_commander_of_a_99_card_main_deck():
    """The user saw commander_missing and deck_size 99 for `SIDEBOARD:` then Krenko alone
    after a 99-card main deck: the sideboard is where that list keeps its commander."""
    decklist = parse("1 Goblin Lackey\n98 Mountain\n\nSIDEBOARD:\n1 Krenko, Mob Boss\n")
    report = check(decklist, resolve(decklist))
    assert (report.commanders, report.card_count) == (("Krenko, Mob Boss",), 100)
    assert codes(report) == [("commander_inferred", "warning")]
    assert violation(report, Code.COMMANDER_INFERRED).lines == (5,)
    # a real one-card sideboard beside a 100-card main deck stays a sideboard
    decklist = parse("1 Krenko, Mob Boss\n1 Goblin Lackey\n98 Mountain\n\nSIDEBOARD:\n1 Lightning Bolt\n")
    report = check(decklist, resolve(decklist))
    assert report.card_count == 100 and violation(report, Code.SIDEBOARD).cards == ("Lightning Bolt",)


MAIN_OF_99 = "1 Goblin Lackey\n98 Mountain\n"


@pytest.mark.parametrize(("side", "source"), [
    ("SB: 1 Lightning Bolt\nSB: 1 Krenko, Mob Boss\n", "the last card of the SB: (sideboard) lines"),
    ("SB: 1 Krenko, Mob Boss\nSB: 1 Lightning Bolt\n", "the first card of the SB: (sideboard) lines"),
])
def test_two_sb_lines_beside_99_cards_take_the_one_that_can_command_and_makes_100(side, source):
    """Two SB: lines beside a 99-card main deck can't both be commanders of a 100-card deck:
    only one card, or a pair that can pair and makes exactly 100, is ever taken (DESIGN's
    "the commander(s) as the last one or two sideboard lines ... when the main deck is 100
    minus them"). Lightning Bolt and Krenko were both taken: commander_ineligible, deck_size 101."""
    decklist = parse(MAIN_OF_99 + side)
    report = check(decklist, resolve(decklist))
    assert (report.commanders, report.card_count, report.valid) == (("Krenko, Mob Boss",), 100, True)
    assert codes(report) == [INFERRED, SIDEBOARD]
    inferred = violation(report, Code.COMMANDER_INFERRED)
    assert source in inferred.message and inferred.cards == ("Krenko, Mob Boss",)
    assert inferred.lines == (3 + side.startswith("SB: 1 Lightning"),)
    assert violation(report, Code.SIDEBOARD).cards == ("Lightning Bolt",)


@pytest.mark.parametrize("text", [
    '<?xml version="1.0" encoding="utf-8"?>\n<Deck>\n'
    '  <Cards Quantity="1" Sideboard="false" Name="Goblin Lackey" />\n'
    '  <Cards Quantity="98" Sideboard="false" Name="Mountain" />\n'
    '  <Cards Quantity="1" Sideboard="true" Name="Lightning Bolt" />\n'
    '  <Cards Quantity="1" Sideboard="true" Name="Krenko, Mob Boss" />\n</Deck>\n',
    '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n  <zone name="main">\n'
    '    <card number="1" name="Goblin Lackey"/>\n    <card number="98" name="Mountain"/>\n  </zone>\n'
    '  <zone name="side">\n    <card number="1" name="Krenko, Mob Boss"/>\n'
    '    <card number="1" name="Lightning Bolt"/>\n  </zone>\n</cockatrice_deck>\n',
])
def test_a_two_card_side_zone_beside_99_cards_is_judged_the_same_way(text):
    decklist = parse(text)
    report = check(decklist, resolve(decklist))
    assert (report.commanders, report.card_count) == (("Krenko, Mob Boss",), 100)
    assert codes(report) == [INFERRED, SIDEBOARD]
    assert violation(report, Code.SIDEBOARD).cards == ("Lightning Bolt",)


@pytest.mark.parametrize("side", [
    # a partner pair beside 99 cards makes 101; either alone makes 100: which one is meant?
    "SB: 1 Kraum, Ludevic's Opus\nSB: 1 Vial Smasher the Fierce\n",
    # two legends that can't pair: either alone makes 100
    "SB: 1 Krenko, Mob Boss\nSB: 1 Krenko, Tin Street Kingpin\n",
    # neither can be a commander
    "SB: 1 Lightning Bolt\nSB: 1 Shock\n",
])
def test_two_sb_lines_beside_99_cards_that_leave_a_doubt_are_commander_missing(side):
    """Nothing is guessed: commander_missing says how to mark one, both cards are named as
    the sideboard they then are, and the count is the main deck's."""
    decklist = parse(MAIN_OF_99 + side)
    report = check(decklist, resolve(decklist))
    assert report.commanders == ()
    assert report.card_count == 99
    assert codes(report) == [(Code.COMMANDER_MISSING, Severity.ERROR), (Code.DECK_SIZE, Severity.ERROR), SIDEBOARD]
    assert "*CMDR*" in violation(report, Code.COMMANDER_MISSING).message
    assert violation(report, Code.SIDEBOARD).lines == (3, 4)


def test_two_sb_lines_beside_99_cards_may_be_commander_and_companion():
    decklist = parse(MAIN_OF_99 + "SB: 1 Krenko, Mob Boss\nSB: 1 Lurrus of the Dream-Den\n")
    report = check(decklist, resolve(decklist))
    assert (report.commanders, report.companion, report.card_count) == (("Krenko, Mob Boss",), "Lurrus of the Dream-Den", 100)
    assert violation(report, Code.COMMANDER_INFERRED).message.endswith(
        "Lurrus of the Dream-Den has Companion, so it is the companion.")
    assert Code.SIDEBOARD not in [v.code for v in report.violations]


def test_two_sb_lines_beside_98_cards_are_the_commanders_as_before():
    decklist = parse("98 Mountain\nSB: 1 Kraum, Ludevic's Opus\nSB: 1 Vial Smasher the Fierce\n")
    report = check(decklist, resolve(decklist))
    assert (report.commanders, report.card_count) == (("Kraum, Ludevic's Opus", "Vial Smasher the Fierce"), 100)
    assert codes(report) == [INFERRED]


def test_xmage_sb_lines_stay_its_command_zone_beside_99_cards():
    """XMage writes its command zone (and companion) as SB: lines, so a card put there is
    judged as put there: no guess, no commander_inferred."""
    main = "NAME:Goblins\n1 [M10:1] Goblin Lackey\n98 [M10:2] Mountain\n"
    report = judge(main + "SB: 1 [DDT:1] Krenko, Mob Boss\nSB: 1 [M10:3] Lightning Bolt\n")
    assert (report.commanders, report.card_count) == (("Krenko, Mob Boss", "Lightning Bolt"), 101)
    assert codes(report) == [(Code.COMMANDER_INELIGIBLE, Severity.ERROR), (Code.DECK_SIZE, Severity.ERROR)]
    report = judge(main + "SB: 1 [DDT:1] Krenko, Mob Boss\nSB: 1 [IKO:1] Lurrus of the Dream-Den\n")
    assert (report.commanders, report.companion, report.card_count) == (("Krenko, Mob Boss",), "Lurrus of the Dream-Den", 100)
    assert Code.COMMANDER_INFERRED not in [v.code for v in report.violations]
