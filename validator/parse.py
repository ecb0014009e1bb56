"""Decklist text in, `Decklist` out: every format people paste, nothing dropped silently.

`parse()` picks a reader (or takes the caller's `format` hint), and every reader reports
into one `Collector`, so quantities, problems and accounted-for lines follow the same
rules in every format. Pure: no I/O, no card data (names are resolved later).
"""

from __future__ import annotations

from validator.decklist import Decklist
from validator.parse_common import MAX_LINE_LENGTH, MAX_LINES, Collector, DecklistError, check_size, split_lines
from validator.parse_text import detect_dialect, read_text

__all__ = ["FORMATS", "MAX_LINES", "MAX_LINE_LENGTH", "DecklistError", "parse"]

# The line-based dialects share one reader; the name is what Decklist.format reports.
TEXT_FORMATS = ("text", "arena", "moxfield", "archidekt", "forge", "xmage")
FORMATS: tuple[str, ...] = TEXT_FORMATS


def parse(text: str, format: str | None = None) -> Decklist:
    """Parse decklist text in any supported format (`format` forces one of FORMATS).

    Raises DecklistError only for input refused outright (over MAX_LINES lines, an
    unknown format name); every other problem is in the result's `problems`.
    """
    if format is not None and format not in FORMATS:
        raise DecklistError(f"Unknown decklist format {format!r}; expected one of {', '.join(FORMATS)}.")
    text = text.removeprefix("\ufeff")  # a BOM is no character of line 1
    lines = split_lines(text)
    check_size(lines)
    collector = Collector()
    dialect = format or detect_dialect(text)
    read_text(lines, collector, xmage=dialect == "xmage")
    return collector.decklist(dialect)
