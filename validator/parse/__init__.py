"""Decklist text in, `Decklist` out: every format people paste, nothing dropped silently.

`parse()` picks a reader (or takes the caller's `format` hint), and every reader reports
into one `Collector`, so quantities, problems and accounted-for lines follow the same
rules in every format. Pure: no I/O, no card data (names are resolved later).

One module per syntax family: `text` (every line-based syntax), `xml` (MTGO `.dek`,
Cockatrice `.cod`), `json` (site exports; `sites` reads Archidekt's and Moxfield's
API documents, pasted or fetched from a link), `csv` (CSV exports with a header row),
`markdown` (a Markdown document's list part, read by `text`), `common` (limits, header
words, the `Collector` they all report into), and `reading` (which reader reads a text:
`parse()` itself).
"""

from __future__ import annotations

from validator.parse.common import MAX_LINE_LENGTH, MAX_LINES, MAX_NAME_LENGTH, DecklistError, split_lines
from validator.parse.reading import EXTENSIONS, FORMATS, parse

__all__ = ["EXTENSIONS", "FORMATS", "MAX_LINES", "MAX_LINE_LENGTH", "MAX_NAME_LENGTH", "DecklistError", "parse", "split_lines"]
