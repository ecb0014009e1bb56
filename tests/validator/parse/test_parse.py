"""The decklist parser: one hand-written sample per format, then markers, headers,
quantities, unparsed lines and commander inference (the line-based reader,
validator/parse/text.py) and input bounds (validator/parse/common.py). The XML, JSON and
CSV readers' own cases are in test_xml, test_json and test_csv."""

from __future__ import annotations

import pytest

from tests.validator.parse import C, M, MB, S, codes, one, rows, sample
from validator.decklist import ListEntry, Section
from validator.parse import EXTENSIONS, FORMATS, MAX_LINE_LENGTH, MAX_LINES, DecklistError, parse, split_lines
from validator.violations import Code, Severity

# --- one sample per format --------------------------------------------------------

SAMPLE_CASES = [
    ("plain.txt", "text", [
        ("Sol Ring", 1, M, 2), ("Command Tower", 1, M, 3), ("Atraxa, Praetors' Voice", 1, M, 4),
        ("Forest", 10, M, 6), ("Thrasios, Triton Hero", 1, C, 9),
    ]),
    ("arena.txt", "arena", [
        ("Teysa, Opulent Oligarch", 1, C, 5), ("Lurrus of the Dream-Den", 1, Section.COMPANION, 8),
        ("Sol Ring", 1, M, 11), ("Swamp", 8, M, 12), ("Fire /// Ice", 1, M, 13),
        ("Delver of Secrets", 1, M, 14), ("Reliquary Tower", 1, S, 17), ("Grim Tutor", 1, MB, 20),
    ]),
    ("moxfield.txt", "moxfield", [
        ("Atraxa, Praetors' Voice", 1, C, 1), ("Sol Ring", 1, M, 2),
        ("Branchloft Pathway // Boulderloft Pathway", 1, M, 3), ("Forest", 36, M, 4),
        ("Arcane Signet", 1, M, 5), ("Tainted Strike", 1, S, 8),
    ]),
    ("archidekt.txt", "archidekt", [
        ("Atla Palani, Nest Tender", 1, C, 2), ("Sol Ring", 1, M, 5),
        ("Sephiroth, Fabled SOLDIER // Sephiroth, One-Winged Angel", 1, C, 6),
        ("Cultivate", 1, S, 7), ("Grim Tutor", 1, MB, 8), ("Rampant Growth", 1, M, 9),
    ]),
    ("mtggoldfish.txt", "text", [
        ("Sol Ring", 1, M, 1), ("Arcane Signet", 1, M, 2), ("Command Tower", 1, M, 3),
        ("Island", 95, M, 4), ("Thrasios, Triton Hero", 1, C, 6), ("Tymna the Weaver", 1, C, 7),
    ]),
    ("mtgo.dek", "mtgo_dek", [
        ("Riverglide Pathway", 1, M, 5), ("Refuse/Cooperate", 1, M, 6), ("Island", 97, M, 7),
        ("Kenrith, the Returned King", 1, C, 8),
    ]),
    ("cockatrice.cod", "cockatrice", [
        ("Sol Ring", 1, M, 6), ("Naturalize", 1, M, 7), ("Forest", 97, M, 8),
        ("Atraxa, Praetors' Voice", 1, C, 11), ("Soldier", 1, Section.IGNORED, 14),
    ]),
    ("forge.dck", "forge", [
        ("Krenko, Mob Boss", 1, C, 5), ("Sol Ring", 1, M, 7), ("Mountain", 97, M, 8),
        ("Goblin Matron", 1, M, 9), ("Goblin Lackey", 1, S, 11), ("Tazeem", 1, Section.PLANAR, 13),
    ]),
    ("xmage.dck", "xmage", [
        ("Sol Ring", 1, M, 2), ("Plains", 97, M, 3), ("Realm-Cloaked Giant", 1, M, 4),
        ("Kenrith, the Returned King", 1, C, 5),
    ]),
    ("taw.txt", "text", [
        ("Bright-Palm, Soul Awakener", 1, C, 4), ("Shalai and Hallar", 1, M, 5), ("Heaven // Earth", 1, M, 6),
        ("Plains", 8, M, 7), ("The Golden City of Orazca", 1, Section.PLANAR, 10),
        ("Jund", 1, Section.PLANAR, 11), ("Your Inescapable Doom", 1, Section.SCHEMES, 14),
        ("Bright-Palm, Soul Awakener", 1, Section.DISPLAY, 17),
    ]),
    ("tappedout.txt", "moxfield", [
        ("Krenko, Mob Boss", 1, C, 2), ("Goblin Matron", 1, M, 5), ("Goblin Lackey", 1, M, 6),
        ("Mountain", 97, M, 9), ("Goblin Rabblemaster", 1, S, 12),
    ]),
    ("moxfield_v3.json", "moxfield_json", [
        ("Atraxa, Praetors' Voice", 1, C, 5), ("Jegantha, the Wellspring", 1, Section.COMPANION, 6),
        ("Sol Ring", 1, M, 8), ("Forest", 97, M, 9), ("Grim Tutor", 1, MB, 12),
    ]),
    ("scryfall.csv", "scryfall_csv", [
        ("Kraum, Ludevic's Opus", 1, C, 2), ("Sol Ring", 1, M, 3), ("Island", 97, M, 4),
        ("Obosh, the Preypiercer", 1, S, 5),
    ]),
]


@pytest.mark.parametrize(("name", "format", "expected"), SAMPLE_CASES)
def test_sample_parses_to_its_entries(name, format, expected):
    decklist = parse(sample(name))
    assert decklist.format == format
    assert rows(decklist) == expected
    assert [p.code for p in decklist.problems if p.severity is Severity.ERROR] == []


@pytest.mark.parametrize(("name", "format", "expected"), SAMPLE_CASES)
def test_format_hint_reads_the_same_entries(name, format, expected):
    hint = {"moxfield_json": "json", "scryfall_csv": "csv"}.get(format, format)
    assert rows(parse(sample(name), hint)) == expected


def test_formats_lists_every_reader_the_docs_name():
    assert {"text", "arena", "moxfield", "archidekt", "mtgo_dek", "cockatrice", "forge", "xmage"} <= set(FORMATS)


@pytest.mark.parametrize(("name", "accounted"), [
    ("plain.txt", (1, 5, 8)),
    ("arena.txt", (1, 2, 4, 7, 10, 16, 19)),
    ("forge.dck", (1, 2, 3, 4, 6, 10, 12)),
    ("xmage.dck", (1, 6, 7)),
    ("taw.txt", (1, 2, 3, 9, 13, 16)),
    ("tappedout.txt", (1, 4, 8, 11)),
])
def test_headers_comments_and_metadata_are_accounted_for(name, accounted):
    assert parse(sample(name)).accounted == accounted


# --- printing hints and markers ---------------------------------------------------

@pytest.mark.parametrize(("line", "name", "section", "set_code", "number", "foil", "etched"), [
    ("1 Sol Ring (C21) 263", "Sol Ring", M, "C21", "263", False, False),
    ("1 Sol Ring (C21)", "Sol Ring", M, "C21", None, False, False),
    ("1 Sol Ring (PLST) IFIYW-10", "Sol Ring", M, "PLST", "IFIYW-10", False, False),
    ("1 Erase (Not the Urza's Legacy One)", "Erase (Not the Urza's Legacy One)", M, None, None, False, False),
    ("1 Atraxa, Praetors' Voice (CMM) 1068 *F* *CMDR*", "Atraxa, Praetors' Voice", C, "CMM", "1068", True, False),
    ("1x Alesha, Who Smiles at Death *CMDR*", "Alesha, Who Smiles at Death", C, None, None, False, False),
    ("1 Arcane Signet *E*", "Arcane Signet", M, None, None, False, True),
    ("1x Atla Palani, Nest Tender (M20) 191 [Commander{top}]", "Atla Palani, Nest Tender", C, "M20", "191", False, False),
    ("1x Cultivate (m21) 177 [Ramp{noDeck}]", "Cultivate", S, "m21", "177", False, False),
    ("1x Grim Tutor [Maybeboard{noDeck}{noPrice}]", "Grim Tutor", MB, None, None, False, False),
    ("1x Cultivate (m21) 177 [Ramp] ^Test,#2ccce4^", "Cultivate", M, "m21", "177", False, False),
    ("1x Lurrus of the Dream-Den [Companion]", "Lurrus of the Dream-Den", Section.COMPANION, None, None, False, False),
    ("1 Krenko, Mob Boss|DDT|1", "Krenko, Mob Boss", M, "DDT", None, False, False),
    ("1 [C21:263] Sol Ring", "Sol Ring", M, "C21", "263", False, False),
    ("1 [KLD] Demolition Stomper", "Demolition Stomper", M, "KLD", None, False, False),  # deckstats, MWS
    ("1 Bright-Palm, Soul Awakener [MOC:134] [foil] [etched]", "Bright-Palm, Soul Awakener", M, "MOC", "134", True, True),
    ("8 Plains [CMD:*]", "Plains", M, "CMD", None, False, False),
    ("COMMANDER: 1 Zedruu the Greathearted", "Zedruu the Greathearted", C, None, None, False, False),
    ("1 Fire /// Ice", "Fire /// Ice", M, None, None, False, False),
    ("1 Circle of Protection: Red", "Circle of Protection: Red", M, None, None, False, False),
    ("1 Lim-Dûl's Vault", "Lim-Dûl's Vault", M, None, None, False, False),
    ("1\tSol Ring   ", "Sol Ring", M, None, None, False, False),
    ("x2 Sol Ring", "Sol Ring", M, None, None, False, False),
    ("_____", "_____", M, None, None, False, False),
    # a trailing "# ..." is a comment (no card name has "#"); deckstats marks its commander "# !Commander"
    ("1 Sol Ring # ramp", "Sol Ring", M, None, None, False, False),
    ("1 Sol Ring (C21) 263 #ramp #staple", "Sol Ring", M, "C21", "263", False, False),
    ("1 Kelsien, the Plague # !Commander", "Kelsien, the Plague", C, None, None, False, False),
    ("1 Black Waltz No. 3 #!Commander", "Black Waltz No. 3", C, None, None, False, False),
    ("1 Sol Ring # !Foil", "Sol Ring", M, None, None, False, False),
])
def test_markers_and_printings_are_stripped_from_the_name(line, name, section, set_code, number, foil, etched):
    entry = one(line)
    assert (entry.name, entry.section, entry.set_code, entry.collector_number, entry.foil, entry.etched) == (
        name, section, set_code, number, foil, etched)


def test_printed_lines_read_by_the_fast_path_are_whole_entries():
    """`N Name`, `N Name|SET|art` and `N Name (SET) number` are read in one match and built straight
    from a tuple: each equals what ListEntry() makes, every field there."""
    assert parse("1 Krenko, Mob Boss |DDT|1").entries == (ListEntry("Krenko, Mob Boss", 1, 1, M, "DDT"),)
    assert parse("2 Sol Ring (C21) 263").entries == (ListEntry("Sol Ring", 2, 1, M, "C21", "263"),)
    assert parse("3 Sol Ring").entries == (ListEntry("Sol Ring", 3, 1, M),)  # the plain line's fast path too


# --- headers ----------------------------------------------------------------------

@pytest.mark.parametrize(("header", "section"), [
    ("Commander", C), ("Commanders", C), ("Commander:", C), ("COMMANDER (2)", C),
    ("Companion", Section.COMPANION), ("Deck", M), ("Main", M), ("Mainboard (99)", M),
    ("Sideboard", S), ("SIDEBOARD:", S), ("Maybeboard", MB), ("Considering (3)", MB),
    ("Display Commander", Section.DISPLAY), ("Tokens", Section.IGNORED),
    ("Planar Deck", Section.PLANAR), ("Scheme Deck", Section.SCHEMES),
    ("[Commander]", C), ("[main]", M), ("[Sideboard]", S), ("[Planes]", Section.PLANAR),
    ("[Schemes]", Section.SCHEMES), ("[Avatar]", Section.IGNORED),
    ("Creatures (2)", M), ("Card Draw (10)", M), ("Lands", M),
    # headers written as comments (deckstats `//Sideboard`, `# Commander`)
    ("//Commander", C), ("// Main", M), ("//Sideboard", S), ("# Maybeboard", MB),
])
def test_header_puts_the_following_cards_in_its_section(header, section):
    decklist = parse(f"Sideboard\n{header}\n1 Sol Ring\n")
    assert rows(decklist) == [("Sol Ring", 1, section, 3)]
    assert decklist.accounted == (1, 2)
    assert decklist.problems == ()


@pytest.mark.parametrize(("text", "expected", "accounted"), [
    ("About\nName X\nCommander\n1 Atraxa, Praetors' Voice\n", [("Atraxa, Praetors' Voice", 1, C, 4)], (1, 2, 3)),
    ("About\nName X\n1 Sol Ring\n", [("Sol Ring", 1, M, 3)], (1, 2)),
    ("[metadata]\nName=X\n1 Sol Ring\n", [("Sol Ring", 1, M, 3)], (1, 2)),
])
def test_metadata_blocks_never_swallow_cards(text, expected, accounted):
    decklist = parse(text)
    assert (rows(decklist), decklist.accounted) == (expected, accounted)


def test_arena_about_block_is_metadata_until_the_blank_line():
    decklist = parse("About\nName My Deck\n\n1 Name-Sticker Goblin\n")
    assert rows(decklist) == [("Name-Sticker Goblin", 1, M, 4)]
    assert decklist.accounted == (1, 2)


# --- quantities -------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "0 Sol Ring", "-1 Sol Ring", "-12x Sol Ring", "1000 Sol Ring", "0x Forest",
    "1" + "0" * 30 + " Sol Ring", "9" * 900 + " Forest",
])
def test_bad_quantity_is_invalid_quantity_and_not_an_entry(line):
    decklist = parse(f"1 Command Tower\n{line}\n")
    assert rows(decklist) == [("Command Tower", 1, M, 1)]
    assert codes(decklist) == [(Code.INVALID_QUANTITY, (2,))]
    assert decklist.problems[0].severity is Severity.ERROR


@pytest.mark.parametrize(("text", "quantity"), [("999 Relentless Rats", 999), ("1x Sol Ring", 1), ("12x Forest", 12)])
def test_sane_quantities_are_kept(text, quantity):
    assert one(text).quantity == quantity


@pytest.mark.parametrize(("text", "name", "quantity"), [
    # a spaced "x" after the count: read as the card "x Sol Ring"
    ("1 x Sol Ring", "Sol Ring", 1), ("4 X Forest", "Forest", 4), ("1 x Sol Ring (C21) 263", "Sol Ring", 1),
    ("1 x Lim-Dûl's Vault", "Lim-Dûl's Vault", 1), ("COMMANDER: 1 x Krenko, Mob Boss", "Krenko, Mob Boss", 1),
    # the count after the name (forum and chat lists): read as the card "Sol Ring x2"
    ("Sol Ring x2", "Sol Ring", 2), ("Sol Ring x 2", "Sol Ring", 2), ("Forest X12", "Forest", 12),
    ("Sol Ring x2 (C21) 263", "Sol Ring", 2), ("Sol Ring x1 *F*", "Sol Ring", 1), ("Sideboard:\nNegate x2", "Negate", 2),
    ("Fire // Ice x1", "Fire // Ice", 1),
    # the documented forms stay as they were
    ("1x Sol Ring", "Sol Ring", 1), ("x1 Sol Ring", "Sol Ring", 1), ("2 Sol Ring", "Sol Ring", 2),
])
def test_a_spaced_x_or_a_count_after_the_name_is_the_quantity(text, name, quantity):
    entry = one(text)
    assert (entry.name, entry.quantity) == (name, quantity)


@pytest.mark.parametrize("name", [
    # real names ending in digits or holding an X (../shared/carddata has no name ending in
    # " x<digits>" and none starting with "x "): never cut into a name and a count
    "Spider-Man 2099", "Pip-Boy 3000", "Behemoth of Vault 0", "Relentless X-ATM092", "Black Waltz No. 3",
    "Xenagos, the Reveler", "X", "Ajani Goldmane",
])
def test_names_ending_in_digits_or_starting_with_x_stay_whole(name):
    assert (one(name).name, one(name).quantity) == (name, 1)
    assert (one(f"1 {name}").name, one(f"1x {name}").name, one(f"1 {name}").quantity) == (name, name, 1)


def test_sb_lines_take_either_form():
    decklist = parse("1 x Sol Ring\nSB: 1 x Tormod's Crypt\nSB: Negate x2\nSB: Duress x 1\n")
    assert rows(decklist) == [("Sol Ring", 1, M, 1), ("Tormod's Crypt", 1, S, 2), ("Negate", 2, S, 3), ("Duress", 1, S, 4)]


def test_a_count_after_the_name_is_checked_like_any_quantity():
    decklist = parse("1 Command Tower\nSol Ring x0\nForest x1000\nGoblin x\n")
    assert rows(decklist) == [("Command Tower", 1, M, 1), ("Goblin x", 1, M, 4)]
    assert codes(decklist) == [(Code.INVALID_QUANTITY, (2,)), (Code.INVALID_QUANTITY, (3,))]
    # a leading count wins: the rest is the name as typed (a card data miss, not a guess)
    assert (one("2 Sol Ring x2").name, one("2 Sol Ring x2").quantity) == ("Sol Ring x2", 2)


def test_commander_quantity_above_one_is_kept_for_assemble_to_judge():
    decklist = parse("Commander\n2 Atraxa, Praetors' Voice\n")
    assert rows(decklist) == [("Atraxa, Praetors' Voice", 2, C, 2)]
    assert decklist.problems == ()


# --- unparsed lines ---------------------------------------------------------------

@pytest.mark.parametrize(("line", "fragment"), [
    ("!!!", "!!!"),
    ("5", "quantity but no card name"),
    ("1x", "quantity but no card name"),
    ("1 <b>Sol Ring</b>", "<b>Sol Ring</b>"),
    ("{{{}}}", "{{{}}}"),
    ("-----", "-----"),
    ("1 Sol Ring | ^ *", "Sol Ring"),
    ("x" * (MAX_LINE_LENGTH + 1), f"longer than {MAX_LINE_LENGTH:,}"),
])
def test_line_that_is_no_card_entry_is_unparsed_with_its_line(line, fragment):
    decklist = parse(f"// deck\n1 Sol Ring\n{line}\n1 Forest\n")
    assert rows(decklist) == [("Sol Ring", 1, M, 2), ("Forest", 1, M, 4)]
    assert codes(decklist) == [(Code.UNPARSED_LINE, (3,))]
    assert fragment in decklist.problems[0].message
    assert len(decklist.problems[0].message) < 200  # long lines are quoted truncated


@pytest.mark.parametrize("line", ["1 Sol Rnig", "Sol Rnig", "1 Totally Not A Card"])
def test_card_shaped_line_naming_no_card_is_an_entry_for_card_data_to_judge(line):
    assert one(line).name.endswith(("Rnig", "Card"))


# --- commander inference ----------------------------------------------------------

def test_final_block_after_a_blank_line_is_inferred_as_commanders_with_a_warning():
    decklist = parse(sample("mtggoldfish.txt"))
    (warning,) = decklist.problems
    assert (warning.code, warning.severity, warning.lines) == (Code.COMMANDER_INFERRED, Severity.WARNING, (6, 7))
    assert warning.cards == ("Thrasios, Triton Hero", "Tymna the Weaver")
    assert "blank line" in warning.message


@pytest.mark.parametrize("text", [
    "1 Sol Ring\n1 Forest\n\n1 A\n1 B\n1 C\n",  # three cards: a sideboard, not commanders
    "1 Sol Ring\n1 Forest\n\n2 Atraxa, Praetors' Voice\n",  # two copies: not a commander block
    "1 Sol Ring\n\n1 Forest\n\n1 Atraxa, Praetors' Voice\n",  # three blocks: grouped by type?
    "Deck\n1 Sol Ring\n1 Forest\n\n1 Atraxa, Praetors' Voice\n",  # the text marks its sections
    "1 Sol Ring\n1 Forest\n\n1 Atraxa, Praetors' Voice\n!!!\n",  # a broken line in the block
    "1 Sol Ring\n1 Forest\n1 Island\n",  # one block
    "1 Atraxa, Praetors' Voice\n\n1 Sol Ring\n",  # the "main deck" is no bigger than the block
])
def test_commanders_are_not_inferred_when_ambiguous(text):
    decklist = parse(text)
    assert [e for e in decklist.entries if e.section is C] == []
    assert Code.COMMANDER_INFERRED not in [p.code for p in decklist.problems]


def test_sb_lines_of_a_text_list_are_commanders_with_a_warning():
    decklist = parse("1 Sol Ring\n1 Forest\nSB: 1 Atraxa, Praetors' Voice\n")
    assert rows(decklist)[-1] == ("Atraxa, Praetors' Voice", 1, C, 3)
    assert codes(decklist) == [(Code.COMMANDER_INFERRED, (3,))]


def test_xmage_sb_lines_are_the_command_zone_without_a_warning():
    decklist = parse("1 [C21:263] Sol Ring\nSB: 1 [CMR:523] Kraum, Ludevic's Opus\nSB: 1 [CMR:540] Vial Smasher the Fierce\n")
    assert [e.section for e in decklist.entries] == [M, C, C]
    assert decklist.problems == ()


def test_deckstats_sb_commander_marked_with_a_comment_is_no_inferred_commander():
    decklist = parse("1 Sol Ring\n1 Forest\nSB: 1 Kelsien, the Plague # !Commander\n")
    assert rows(decklist)[-1] == ("Kelsien, the Plague", 1, C, 3)
    assert decklist.problems == ()


@pytest.mark.parametrize("side", [3, 4])
def test_three_or_more_side_cards_stay_sideboard_and_nothing_is_inferred(side):
    cards = "".join(f'<Cards Quantity="1" Sideboard="true" Name="Card {i}" />\n' for i in range(side))
    decklist = parse(f'<?xml version="1.0"?>\n<Deck>\n<Cards Quantity="1" Sideboard="false" Name="Sol Ring" />\n{cards}</Deck>\n')
    assert [e.section for e in decklist.entries] == [M] + [S] * side
    assert decklist.problems == ()


# --- lines and bounds -------------------------------------------------------------

@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_numbers_count_each_line_break_once_after_the_bom(newline):
    text = "\ufeff" + newline.join(["// x", "1 Sol Ring", "", "1 Forest"])
    assert [e.line for e in parse(text).entries] == [2, 4]


def test_over_max_lines_is_refused():
    with pytest.raises(DecklistError, match=f"{MAX_LINES:,}"):
        parse("1 Forest\n" * MAX_LINES + "1 Island")


def test_max_lines_is_accepted():
    assert len(parse("1 Forest\n" * (MAX_LINES - 1)).entries) == MAX_LINES - 1


def test_max_lines_ending_in_a_line_break_is_accepted():
    assert len(parse("1 Forest\n" * MAX_LINES).entries) == MAX_LINES


def test_unknown_format_name_is_refused():
    with pytest.raises(DecklistError, match="Unknown decklist format"):
        parse("1 Sol Ring", "pdf")


def test_list_entries_are_immutable():
    from validator.decklist import ListEntry

    entry = ListEntry("Sol Ring", 2, 7, S)
    assert (entry.section, entry.set_code, entry.foil) == (S, None, False)
    with pytest.raises(AttributeError):
        entry.name = "x"


def test_a_comment_that_is_no_header_leaves_the_section_alone():
    decklist = parse("Sideboard\n// NAME: My deck\n# ramp package\n1 Sol Ring\n")
    assert rows(decklist) == [("Sol Ring", 1, S, 4)]


@pytest.mark.parametrize("text", ["\u200b1 Sol Ring", "1 Sol Ring\u200b", "1 Sol \u00adRing",
                                  "1 \u2060Sol Ring"])
def test_invisible_characters_pasted_from_web_pages_are_dropped(text):
    decklist = parse(text)
    assert rows(decklist) == [("Sol Ring", 1, M, 1)]
    assert decklist.problems == ()


@pytest.mark.parametrize("invisible", "\u200b\u200c\u200d\u2060\ufeff\u00ad")
@pytest.mark.parametrize("other", ["Anillo solar", "\u592a\u967d\u306e\u6307\u8f2a", "\U0001f600"])
def test_every_invisible_character_is_dropped_in_text_of_any_width(invisible, other):
    """The search skips characters wider than the text's widest: Latin-1, BMP and astral
    texts each still lose every invisible character."""
    decklist = parse(f"1 Sol {invisible}Ring\n1 {other}\n")
    assert rows(decklist)[0] == ("Sol Ring", 1, M, 1)


@pytest.mark.parametrize("text, lines", [
    ("\r\r\r\r\n0", ["", "", "0"]),  # hypothesis found it: CR CR CR CR LF, then a line
    ("a\r\r\r\r\nb", ["a", "", "b"]),
    ("1 Sol Ring\r\r\n1 Forest\r\r\n", ["1 Sol Ring", "1 Forest", ""]),
])
def test_the_reader_numbers_cr_runs_as_split_lines_does(text, lines):
    """A run of CRs before a LF: parse() numbers every line as split_lines does (the page and
    the API count lines with it), so each non-blank line is an entry's or a problem's."""
    assert split_lines(text) == lines
    decklist = parse(text)
    numbered = {entry.line for entry in decklist.entries} | {n for p in decklist.problems for n in p.lines}
    assert numbered == {n for n, line in enumerate(lines, 1) if line.strip()}


def test_every_format_names_the_file_extensions_it_is_saved_with():
    # edh-validate scans folders for these: a format added without them would go unscanned
    assert list(EXTENSIONS) == list(FORMATS)
    assert all(EXTENSIONS[name] and all(ext.startswith(".") and ext == ext.lower() for ext in EXTENSIONS[name])
               for name in FORMATS)
    assert EXTENSIONS["json"] == (".json",) and EXTENSIONS["markdown"] == (".md",) and ".tsv" in EXTENSIONS["csv"]
