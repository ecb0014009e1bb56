"""The parser's entry point (validator/parse/__init__.py): one hand-written sample per
format, read by detection and by the format hint, and the input bounds every reader
shares (validator/parse/common.py). Each reader's own cases: test_text, test_xml,
test_json, test_csv."""

from __future__ import annotations

import pytest

from tests.validator.parse import C, M, MB, S, rows, sample
from validator.decklist import Section
from validator.parse import FORMATS, MAX_LINES, DecklistError, parse
from validator.violations import Severity

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
        ("Bright-Palm, Soul Awakener", 1, Section.IGNORED, 17),
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


def test_formats_lists_every_reader_internals_md_names():
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


# --- lines and bounds -------------------------------------------------------------

@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_numbers_count_each_line_break_once_after_the_bom(newline):
    text = "\ufeff" + newline.join(["// x", "1 Sol Ring", "", "1 Forest"])
    assert [e.line for e in parse(text).entries] == [2, 4]


def test_over_max_lines_is_refused():
    with pytest.raises(DecklistError, match=str(MAX_LINES)):
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


@pytest.mark.parametrize("text", ["\u200b1 Sol Ring", "1 Sol Ring\u200b", "1 Sol \u00adRing",
                                  "1 \u2060Sol Ring"])
def test_invisible_characters_pasted_from_web_pages_are_dropped(text):
    decklist = parse(text)
    assert rows(decklist) == [("Sol Ring", 1, M, 1)]
    assert decklist.problems == ()
