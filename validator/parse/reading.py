"""Which reader reads a text: `parse()` takes the caller's `format` hint or picks the
reader the text looks like, and every reader reports into one `Collector`. A module of its
own (the package's `__init__` re-exports it) so the compiled engine compiles it too.
"""

from __future__ import annotations

import re

from validator.decklist import Decklist
from validator.messages import msg
from validator.parse.common import Collector, DecklistError, check_size, clean_text, line_feeds, split_lines
from validator.parse.csv import looks_like_csv, read_csv
from validator.parse.json import load_json, looks_like_json, read_json
from validator.parse.markdown import Plan, looks_like_markdown, markdown_plan, read_markdown
from validator.parse.text import read_text
from validator.parse.xml import read_xml

# The line-based dialects share one reader; the name is what Decklist.format reports.
TEXT_FORMATS = ("text", "arena", "moxfield", "archidekt", "forge", "xmage")
XML_FORMATS = ("mtgo_dek", "cockatrice")
# "json" and "csv" are site exports (Moxfield, Archidekt, Aetherhub, MTGJSON, TappedOut,
# TCGplayer JSON; Scryfall CSV); Decklist.format then names the site, e.g. "moxfield_json".
FORMATS: tuple[str, ...] = TEXT_FORMATS + XML_FORMATS + ("json", "csv", "markdown")
# The file extensions each format's files carry as the tools that write them save them
# (Cockatrice and Apprentice .dec are plain text; Forge and XMage share .dck; the CSV
# reader takes tabs too). edh-validate scans folders for these and the page's file
# chooser offers them; every format has its entry (tests/validator/parse/test_parse.py).
EXTENSIONS: dict[str, tuple[str, ...]] = {
    **{name: (".txt",) for name in TEXT_FORMATS},
    "text": (".txt", ".dec"),
    "forge": (".dck",),
    "xmage": (".dck",),
    "mtgo_dek": (".dek",),
    "cockatrice": (".cod",),
    "json": (".json",),
    "csv": (".csv", ".tsv"),
    "markdown": (".md",),
}

# Only the roots of the supported XML formats: a text list whose first line happens to
# start with "<" is still read line by line.
_XML_START = re.compile(r"\s*<(?:\?xml|!DOCTYPE|Deck\b|cockatrice_deck\b)", re.I)


def parse(text: str, format: str | None = None) -> Decklist:
    """Parse decklist text in any supported format (`format` forces one of FORMATS).

    Raises DecklistError only for input refused outright (over MAX_LINES lines, an
    unknown format name); every other problem is in the result's `problems`.
    """
    if format is not None and format not in FORMATS:
        raise DecklistError(msg("Unknown decklist format {name}; expected one of {keys}.", name=repr(format),
                                keys=", ".join(FORMATS)))
    text = text.removeprefix("\ufeff")  # a BOM is no character of line 1
    if "\r" in text and "\r\r\n" in text:
        # one line break as split_lines counts it, in XML and JSON too (all of them as LF: a
        # partial replacement could leave a new CR CR LF that a second split counts again)
        text = line_feeds(text)
    lines = split_lines(text)
    check_size(lines)
    collector = Collector()
    return collector.decklist(_read(text, lines, format, collector))


def _read(text: str, lines: list[str], format: str | None, collector: Collector) -> str:
    """Run the reader the hint names, or the one the text looks like; returns the format.

    A lone surrogate is no character (common.clean_text): JSON decodes its own strings and
    read_json cleans the names it decoded (a large paste is not encoded once more for
    nothing); every other reader gets the text with each one replaced."""
    if format == "json" or (format is None and looks_like_json(text)):  # no XML looks like JSON
        document = load_json(text)
        if document is not None:
            return read_json(document, text, lines, collector)
        if format == "json":
            collector.unparsed(1, lines[0], msg("Line {line} is not valid JSON: \"{text}\""))
            collector.account_rest(lines)
            return "json"
    if (cleaned := clean_text(text)) is not text:
        text, lines = cleaned, split_lines(cleaned)
    if format in XML_FORMATS or (format is None and _XML_START.match(text)):
        return read_xml(text, lines, collector, format or "mtgo_dek")
    if format == "csv" or (format is None and looks_like_csv(lines)):
        return read_csv(lines, collector)
    if format == "markdown" or (format is None and looks_like_markdown(text)):
        plan = markdown_plan(lines)
        if plan is None and format == "markdown":  # no Markdown marks: the whole text is the list
            plan = Plan(list(enumerate(lines, 1)), [], [], [])
        if plan is not None:
            return read_markdown(lines, plan, collector)
    return read_text(lines, collector, format)
