"""Property: whatever is pasted, parse() raises nothing but DecklistError, and every
non-blank line ends up as an entry, an accounted header/comment/metadata line, or the
line of a problem. Nothing is dropped silently."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from validator.parse import DecklistError, parse
from validator.parse import split_lines

# Fragments of every syntax, so random lists reach the readers' branches (headers,
# markers, printings, XML and JSON openings), not only the unparsed path.
FRAGMENTS = [
    "1 Sol Ring", "1x Sol Ring (C21) 263", "Commander", "Deck", "Sideboard:", "About", "Name X",
    "*CMDR*", "*F*", "[Commander{top}]", "[Ramp{noDeck}]", "^a,#ffffff^", "|C21|1", "[C21:263]",
    "SB: ", "COMMANDER: ", "NAME:x", "LAYOUT x", "[metadata]", "[Main]", "Creatures (2)", "(",
    ")", "0", "-1", "x", "//", "#", "\t", " ", "<?xml version=\"1.0\"?>", "<Deck>", "</Deck>",
    '<Cards Quantity="1" Sideboard="true" Name="A" />', "<cockatrice_deck>", '<zone name="side">',
    '<card number="1" name="B"/>', "{", "}", "[", "]", '"name"', ",", "section,count,name", "&lol;",
    "\ufeff", "\x00", "\u2028", "\x85", "9" * 40,
    # issue 22: Markdown, CSV headers, comments naming commanders, totals, exact versions
    "```", "~~~", "---", "## Decklist", "# ", "- ", "- [Commander] ", "commander: ", "Qty;Card Name;Board",
    "Name\tCommander", "NULL", "# Commander: ", " and ", " + ", "Island: 9", " <extended>", " [C21]", " (F)",
    "LAYOUT MAIN:", "\r\r\n",
]
NEWLINES = st.sampled_from(["\n", "\r\n", "\r"])
LINE = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=6).map("".join)
DECKLIKE = st.tuples(st.lists(LINE, max_size=30), NEWLINES).map(lambda pair: pair[1].join(pair[0]))
RANDOM_BYTES = st.binary(max_size=400).map(lambda b: b.decode("utf-8", errors="replace"))
ANY_TEXT = st.one_of(st.text(max_size=400), RANDOM_BYTES, DECKLIKE)


def unaccounted(text: str, format: str | None = None) -> list[int]:
    """Non-blank lines (after the BOM) that parse() neither read nor reported."""
    decklist = parse(text, format)
    seen = {e.line for e in decklist.entries} | set(decklist.accounted)
    seen.update(n for p in decklist.problems for n in p.lines)
    lines = split_lines(text.removeprefix("\ufeff"))
    return [n for n, line in enumerate(lines, 1) if line.strip() and n not in seen]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ANY_TEXT)
def test_every_non_blank_line_is_accounted_for_and_nothing_but_decklisterror_escapes(text):
    try:
        missing = unaccounted(text)
    except DecklistError:
        return  # refusing outright is allowed; any other exception fails the test
    assert missing == []


@settings(max_examples=200, deadline=None)
@given(DECKLIKE, st.sampled_from(["text", "arena", "moxfield", "archidekt", "mtgo_dek",
                                   "cockatrice", "forge", "xmage", "json", "csv", "markdown"]))
def test_any_format_hint_on_any_text_never_raises_and_reports_every_line(text, format):
    assert unaccounted(text, format) == []


# The plain line's pattern as first written; text.py's _PLAIN spells its name class for speed.
READABLE_PLAIN = r"([1-9]\d{0,2})(?:[ \t]*[xX])?[ \t]+([^\W\d_][\w ',.!?&/-]*)"
NAME_CHARS = st.text(alphabet=st.sampled_from("Aa Zz09_',.!?&/-()|\t:ÆûöéЖ漢\u00a0"), max_size=30)


@settings(max_examples=600, deadline=None)
@given(quantity=st.sampled_from(["1", "12", "1x", "1 x", "0", "1000", ""]), name=NAME_CHARS)
def test_the_fast_plain_pattern_reads_exactly_the_readable_one(quantity, name):
    import re

    from validator.parse.text import _PLAIN

    line = f"{quantity} {name}"
    fast, readable = _PLAIN.fullmatch(line), re.fullmatch(READABLE_PLAIN, line)
    assert (fast and fast.groups()) == (readable and readable.groups())


# The Markdown test as first written: seven substring scans of the whole text.
def readable_looks_like_markdown(text: str) -> bool:
    return ("```" in text or "~~~" in text or text.lstrip().startswith("---") or "# " in text
            or "- " in text or "* " in text or "+ " in text)


@settings(max_examples=600, deadline=None)
@given(ANY_TEXT)
def test_the_markdown_test_answers_exactly_as_the_readable_one(text):
    from validator.parse.markdown import looks_like_markdown

    assert looks_like_markdown(text) == readable_looks_like_markdown(text)
