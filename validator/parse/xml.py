"""The XML decklists: MTGO `.dek` and Cockatrice `.cod`.

Parsed with defusedxml's SAX reader: entity declarations and external references are
refused (no billion-laughs, no file reads), and the SAX locator gives each element's
line. A document that is not well-formed is salvaged line by line, so one broken tag
reports one line instead of losing the deck.
"""

from __future__ import annotations

import io
import re
import xml.sax
from typing import NamedTuple
from xml.sax.handler import ContentHandler
from xml.sax.xmlreader import AttributesImpl, InputSource, Locator

import defusedxml
import defusedxml.sax

from validator.decklist import Section
from validator.messages import Text, Value, msg
from validator.parse.common import (
    MAX_ENTRIES, MAX_LINE_LENGTH, MAX_NAME_LENGTH, MAX_NAMED, Collector, DecklistError, check_entries, deck_cards,
    clean_text, side_zone_section, snippet,
)

# Every pattern here is linear whatever the input (issue 19): no two quantifiers that can
# share a character follow each other, and a pattern searched through a run starts only at
# the run's first character (a lookbehind), so a 50,000-character run costs one pass.
# Salvage mode: a self-contained card element on one line, or a line of pure markup.
_CARD_ELEMENT = re.compile(r"<(Cards|card)\s([^<>]*)>(?:([^<>]*)</card>)?", re.I)
# An attribute name starts at the first letter of a run of name characters: an attempt
# from inside the run would end where that one ends (at the run's end), and fail the same.
_ATTRIBUTE = re.compile(r"""(?<![\w.-])(?:(?![A-Za-z_])[\w.-])*+([A-Za-z_][\w.-]*+)\s*+=\s*+(?:"([^"]*)"|'([^']*)')""")
_ZONE = re.compile(r"""<zone\s[^<>]*?name\s*=\s*["']([^"']*)["']""")
_MARKUP = re.compile(r"(?:<[^<>]*>\s*)+|(?:<[^<>]*>)?[^<>]*</[\w.-]+>")
# A set code some writers keep in the name: `Caesar, Legion's Emperor (PIP)`. Only a
# final parenthesised code without spaces, so "Erase (Not the Urza's Legacy One)" stays.
_NAME_SET = re.compile(r"(.*\S)\s+\(([A-Za-z0-9]{2,6})\)")
# A deck comment line naming the commander(s): `CDR: Krenko, Mob Boss`, `Commander: A + B`.
_COMMENT_COMMANDER = re.compile(r"[\s/#*-]*+(?:cdr|cmdr|commanders?)\s*+[:=]", re.I)
# Between two names: `+`, `;`, `|` (spaces around optional), or ` & `, ` / `. A match starts
# at a run of blanks' first character, never inside it.
_NAME_LIST = re.compile(r"(?<!\s)(?:\s*+[+;|]\s*+|\s++[&/]\s++)")
# Tags ("<") a document may hold: four for each of MAX_ENTRIES cards. Each element costs
# a few Python calls in the SAX driver, so 1 MiB of `<a/>` (262,000 elements) would cost
# as much as checking a deck of them; counting "<" costs one pass in C.
MAX_XML_TAGS = 4 * MAX_ENTRIES
# The elements the readers look at; every other one is only walked through.
_READ_TAGS = frozenset({"Cards", "card", "zone", "comments", "bannerCard"})


class _Element(NamedTuple):
    """An element a reader reads: its tag, attributes, the line its start tag is on, and the
    pieces of its text content."""

    tag: str
    attrs: dict[str, str]
    line: int
    text: list[str]


# A card of a side zone, placed once the zone is whole: (name, attributes, line)
_SideCard = tuple[str | None, dict[str, str], int]


class _Elements(ContentHandler):
    """Collects every element the readers read (_READ_TAGS), in document order, and the root
    element's tag."""

    def __init__(self) -> None:
        super().__init__()
        self.root: str | None = None
        self.found: list[_Element] = []
        self.open: list[_Element | None] = []  # None: an element no reader reads
        self.locator: Locator | None = None

    def setDocumentLocator(self, locator: Locator) -> None:  # noqa: N802 (SAX's name)
        """Keep where the parser is, for the lines of the elements."""
        self.locator = locator

    def startElement(self, name: str, attrs: AttributesImpl[str]) -> None:  # noqa: N802
        """Record the element and the line its start tag is on."""
        if self.root is None:
            self.root = name
        record = None
        if name in _READ_TAGS:
            line = self.locator.getLineNumber() if self.locator is not None else None
            record = _Element(name, dict(attrs), line or 0, [])
            self.found.append(record)
        self.open.append(record)

    def characters(self, content: str) -> None:
        """Text content: Cockatrice writers may put the card name there."""
        if self.open and (record := self.open[-1]) is not None:
            record.text.append(content)

    def endElement(self, name: str) -> None:  # noqa: N802
        """Close the innermost element."""
        self.open.pop()


def _parse(text: str, handler: ContentHandler) -> None:
    """Run defusedxml's SAX parser over the text. The text is handed over as UTF-8 and the
    parser told so, which overrides whatever encoding the declaration names (a regex that
    removed the declaration's encoding was quadratic in the spaces before `?>`)."""
    source = InputSource()
    source.setByteStream(io.BytesIO(text.encode("utf-8")))
    source.setEncoding("utf-8")
    parser = defusedxml.sax.make_parser()
    parser.setContentHandler(handler)
    parser.parse(source)


def read_xml(text: str, lines: list[str], collector: Collector, format: str) -> str:
    """Read a .dek or .cod document; returns the format actually read. Raises DecklistError
    for a document of over MAX_XML_TAGS tags or MAX_ENTRIES card elements."""
    tags = text.count("<")
    if tags > MAX_XML_TAGS:
        raise DecklistError(msg("The XML document has {count} tags; at most {most} are accepted.", count=tags,
                                most=MAX_XML_TAGS))
    handler = _Elements()
    try:
        _parse(text, handler)
    except xml.sax.SAXParseException as error:
        _salvage(lines, collector, error.getLineNumber() or 0,
                 msg("the XML is not well-formed: {error} at line {at}", error=clean_text(str(error.getMessage())),
                     at=str(error.getLineNumber())))
        return format
    except (defusedxml.DefusedXmlException, ValueError) as error:
        # entity declarations and external references are refused outright
        _salvage(lines, collector, 1, msg("the document declares XML entities or external references, which are "
                                          "refused ({error})", error=type(error).__name__))
        return format
    check_entries(sum(1 for element in handler.found if element.tag in ("Cards", "card")))
    if handler.root == "cockatrice_deck":
        _cockatrice(handler.found, collector)
        format = "cockatrice"
    else:
        _mtgo(handler.found, collector)
        format = "mtgo_dek"
    collector.account_rest(lines)
    return format


def _mtgo(elements: list[_Element], c: Collector) -> None:
    """MTGO `.dek`: `<Cards Quantity Sideboard Name/>`; the sideboard is the command zone."""
    side: list[_SideCard] = []
    for tag, attrs, line, _ in elements:
        if tag != "Cards":
            continue
        if attrs.get("Sideboard", "").strip().lower() == "true":
            side.append((attrs.get("Name"), attrs, line))
        else:
            _add(c, attrs.get("Name"), attrs.get("Quantity"), line, Section.MAIN, attrs)
    _add_side_zone(c, side, "Quantity", msg("the sideboard (Sideboard=\"true\")"), _DeckCount(c))


class _DeckCount:
    """deck_cards() of the collector's entries so far, each entry counted once (a .cod of
    10,000 zones summed every entry again for every zone)."""

    def __init__(self, c: Collector) -> None:
        self.entries = c.entries
        self.counted = 0
        self.total = 0

    def __call__(self) -> int:
        """The count now, adding only the entries added since the last call."""
        self.total += deck_cards(self.entries[self.counted:])
        self.counted = len(self.entries)
        return self.total


def _add_side_zone(c: Collector, cards: list[_SideCard], quantity: str, where: Value, deck: _DeckCount) -> None:
    """A side zone: the command zone when it holds 1-2 cards; with more, its last one or two
    cards are offered as the commander(s) (exporters that append them there)."""
    section = side_zone_section(len(cards), deck())
    added: list[int] = []
    for name, attrs, line in cards:
        before = len(c.entries)
        _add(c, name, attrs.get(quantity), line, section, attrs)
        added.extend(range(before, len(c.entries)))
    if section is Section.SIDEBOARD:
        c.propose_side_tail(added, where)


_ZONES = {"main": Section.MAIN, "tokens": Section.IGNORED}


def _cockatrice(elements: list[_Element], c: Collector) -> None:
    """Cockatrice `.cod`: `<zone name>` holds `<card number name/>`; `side` is the command
    zone (Cockatrice has no commander zone), `tokens` is not part of the deck. The cards
    the deck comment names (all its `CDR:` lines together), and those the banner card
    names, are proposed as the commanders."""
    zone = "main"
    cards_by_zone: dict[str, list[_SideCard]] = {}
    comments: list[tuple[str, str]] = []  # (names, the comment line(s) saying them)
    banners: list[str] = []
    for tag, attrs, line, content in elements:
        if tag == "zone":
            zone = attrs.get("name", "").strip().lower()
        elif tag == "card":
            cards_by_zone.setdefault(zone, []).append((attrs.get("name") or "".join(content), attrs, line))
        elif tag == "comments":
            comments.extend(_comment_commanders("".join(content)))
        elif tag == "bannerCard":
            banners.append(attrs.get("name") or "".join(content))
    main: list[int] = []
    deck = _DeckCount(c)
    for zone, cards in cards_by_zone.items():
        section = _ZONES.get(zone)
        if section is None:
            _add_side_zone(c, cards, "number", msg("the {zone} zone", zone=repr(snippet(zone))), deck)
            continue
        for name, attrs, line in cards:
            before = len(c.entries)
            _add(c, name, attrs.get("number"), line, section, attrs)
            if section is Section.MAIN:
                main.extend(range(before, len(c.entries)))
    if comments or banners:
        by_name: dict[str, list[int]] = {}  # folded name -> the main-zone entries of that name
        for i in main:
            by_name.setdefault(_fold(c.entries[i].name), []).append(i)
        # the comment is one marker however many lines it takes (`CDR: A` and `CDR: B`): its
        # cards are proposed together, so a banner naming one of them is inside it, not beside it
        # each distinct text once: 5,000 `CDR: Sol Ring` lines over 5,000 Sol Rings were
        # 25 million look-ups
        found = sorted({i for names in dict.fromkeys(names for names, _ in comments)
                        for i in _named_entries(by_name, names)})
        if 1 <= len(found) <= 2:
            c.propose(found, msg("the deck comment ({comment})", comment='; '.join(shown for _, shown in comments)[:60]))
        for names in dict.fromkeys(banners):
            found = _named_entries(by_name, names)
            if 1 <= len(found) <= 2:
                c.propose(found, msg("the deck's banner card"))


def _comment_commanders(comment: str) -> list[tuple[str, str]]:
    """(names, the line(s) saying them) for each comment line that names the commander(s):
    `CDR: Krenko`, or `Commander:` with the names on the next non-blank line. Lines longer
    than any such line (MAX_LINE_LENGTH) are not looked at."""
    lines = comment.split("\n")
    found = []
    for number, line in enumerate(lines):
        if len(line) > MAX_LINE_LENGTH or not (match := _COMMENT_COMMANDER.match(line)):
            continue
        names, last = line[match.end():].strip(), number
        while not names and last + 1 < len(lines) and len(lines[last + 1]) <= MAX_LINE_LENGTH:
            last += 1
            names = lines[last].strip()
        if names:
            found.append((names, "\n".join(lines[number:last + 1]).strip()[:60]))
    return found


def _named_entries(main: dict[str, list[int]], names: str) -> list[int]:
    """The main-zone entries a comment line or the banner names (the whole text, or its
    parts split at `+`, `;`, ` & `...); text longer than two names names none."""
    if len(names) > MAX_NAMED:
        return []
    found = main.get(_fold(names), [])
    if not found:
        parts = {_fold(part) for part in _NAME_LIST.split(names)}
        found = sorted(i for part in parts for i in main.get(part, ()))
    return found


def _fold(name: str) -> str:
    """A name compared loosely: case, curly quotes and spacing ignored."""
    return " ".join(name.replace("’", "'").split()).casefold()


def _add(c: Collector, name: str | None, quantity: str | None, line: int, section: Section,
         attrs: dict[str, str]) -> None:
    """One card element, or why it names no card."""
    name = (name or "").strip()
    if not name:
        c.unparsed(line, f"<card {' '.join(f'{k}={v!r}' for k, v in attrs.items())}>",
                   msg("Line {line} is a card element without a name (resolving by catalog id is not supported): "
                       "\"{text}\""))
        return
    if len(name) > MAX_NAME_LENGTH:  # before any pattern looks at it
        c.too_long_name(line, name)
        return
    hints: dict[str, str] = {}
    if attrs.get("setShortName"):
        hints["set_code"] = attrs["setShortName"].strip()
        if attrs.get("collectorNumber"):
            hints["collector_number"] = attrs["collectorNumber"].strip()
    if name.endswith(")") and (printed := _NAME_SET.fullmatch(name)):
        name = printed[1]
        hints.setdefault("set_code", printed[2])
    c.add(name, (quantity or "1").strip(), line, section, **hints)


def _salvage(lines: list[str], c: Collector, error_line: int, why: Text) -> None:
    """Not well-formed (or refused) XML: read each line that is still a card element on its
    own, account for pure markup, and report the rest, each saying why. A line over
    MAX_LINE_LENGTH is reported unread, as in a text list."""
    before = len(c.problems)
    zone = "main"
    side: list[_SideCard] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if len(line) > MAX_LINE_LENGTH:
            c.unparsed(number, line, msg("Line {line} is longer than {most} characters ({why}): \"{text}\"",
                                         most=MAX_LINE_LENGTH, why=why))
            continue
        element = _CARD_ELEMENT.fullmatch(line)
        attrs = _attributes(element[2]) if element else None
        if element is not None and attrs is not None:
            name = attrs.get("Name") or attrs.get("name") or _unescape(element[3] or "")
            if attrs.get("Sideboard", "").lower() == "true" or zone not in _ZONES:
                side.append((name, attrs, number))
            else:
                _add(c, name, attrs.get("Quantity") or attrs.get("number"), number, _ZONES[zone], attrs)
        elif not element and _MARKUP.fullmatch(line):
            zone = (_ZONE.search(line) or (None, zone))[1].lower()
            c.account(number)
        else:
            c.unparsed(number, line, msg("Line {line} is not a card element ({why}): \"{text}\"", why=why))
    section = side_zone_section(len(side), deck_cards(c.entries))  # one section for the zone, as in _add_side_zone
    for name, attrs, number in side:
        _add(c, name, attrs.get("Quantity") or attrs.get("number"), number, section, attrs)
    if len(c.problems) == before:  # every line read: still say the document is broken
        c.unparsed(error_line, lines[error_line - 1] if 0 < error_line <= len(lines) else "",
                   msg("Line {line} is where {why}: \"{text}\"", why=why))


_ENTITY = re.compile(r"&(#\d{1,7}|#x[0-9A-Fa-f]{1,6}|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _unescape(value: str) -> str | None:
    """XML's five entities and character references; None when any other `&` remains
    (an entity we refuse to expand) or a reference names no character XML allows (0, a
    lone surrogate such as `&#xD800;`, past U+10FFFF)."""
    def one(match: re.Match[str]) -> str:
        """One reference's character."""
        ref = match[1]
        if ref in _NAMED:
            return _NAMED[ref]
        code = int(ref[2:], 16) if ref.startswith("#x") else int(ref[1:])
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "&"

    value = _ENTITY.sub(one, value)
    return None if "&" in value else value


def _attributes(text: str) -> dict[str, str] | None:
    """The attributes of a salvaged tag, or None when one uses an entity we do not expand."""
    attrs: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(text):
        value = _unescape(match[2] if match[2] is not None else match[3])
        if value is None:
            return None
        attrs[match[1]] = value
    return attrs
