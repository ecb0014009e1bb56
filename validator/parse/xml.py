"""The XML decklists: MTGO `.dek` and Cockatrice `.cod`.

Parsed with defusedxml's SAX reader: entity declarations and external references are
refused (no billion-laughs, no file reads), and the SAX locator gives each element's
line. A document that is not well-formed is salvaged line by line, so one broken tag
reports one line instead of losing the deck.
"""

from __future__ import annotations

import re
import xml.sax
from xml.sax.handler import ContentHandler

import defusedxml
import defusedxml.sax

from validator.decklist import Section
from validator.parse.common import Collector, side_zone_section

# The declared encoding is about bytes; we parse a str re-encoded as UTF-8, so the
# declaration is dropped (on its own line, so line numbers do not move).
_ENCODING = re.compile(r"""(<\?xml[^>\n]*?)\s+encoding\s*=\s*["'][^"'\n]*["']""")
# Salvage mode: a self-contained card element on one line, or a line of pure markup.
_CARD_ELEMENT = re.compile(r"<(Cards|card)\s([^<>]*?)/?>(?:([^<>]*)</card>)?", re.I)
_ATTRIBUTE = re.compile(r"""([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_ZONE = re.compile(r"""<zone\s[^<>]*?name\s*=\s*["']([^"']*)["']""")
_MARKUP = re.compile(r"(?:<[^<>]*>\s*)+|(?:<[^<>]*>)?[^<>]*</[\w.-]+>")
# A set code some writers keep in the name: `Caesar, Legion's Emperor (PIP)`. Only a
# final parenthesised code without spaces, so "Erase (Not the Urza's Legacy One)" stays.
_NAME_SET = re.compile(r"(.*\S)\s+\(([A-Za-z0-9]{2,6})\)")
# A deck comment naming the commander(s): `CDR: Krenko, Mob Boss`, `Commander: A + B`.
_COMMENT_COMMANDER = re.compile(r"^[\s/#*-]*(?:cdr|cmdr|commanders?)\s*[:=]\s*(.+?)\s*$", re.I | re.M)
_NAME_LIST = re.compile(r"\s*(?:\+|;|\||\s&\s|\s/\s)\s*")


class _Elements(ContentHandler):
    """Collects (tag, attributes, line, text) for every element, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[list] = []
        self.open: list[list] = []

    def startElement(self, name, attrs):  # noqa: N802 (SAX's name)
        """Record the element and the line its start tag is on."""
        record = [name, dict(attrs), self._locator.getLineNumber(), []]
        self.found.append(record)
        self.open.append(record)

    def characters(self, content):
        """Text content: Cockatrice writers may put the card name there."""
        if self.open:
            self.open[-1][3].append(content)

    def endElement(self, name):  # noqa: N802
        """Close the innermost element."""
        self.open.pop()


def read_xml(text: str, lines: list[str], collector: Collector, format: str) -> str:
    """Read a .dek or .cod document; returns the format actually read."""
    handler = _Elements()
    try:
        defusedxml.sax.parseString(_ENCODING.sub(r"\1", text, count=1).encode("utf-8"), handler)
    except xml.sax.SAXParseException as error:
        _salvage(lines, collector, error.getLineNumber(),
                 f"the XML is not well-formed: {error.getMessage()} at line {error.getLineNumber()}")
        return format
    except (defusedxml.DefusedXmlException, ValueError) as error:
        # entity declarations and external references are refused outright
        _salvage(lines, collector, 1, f"the document declares XML entities or external references, "
                 f"which are refused ({type(error).__name__})")
        return format
    if handler.found and handler.found[0][0] == "cockatrice_deck":
        _cockatrice(handler.found, collector)
        format = "cockatrice"
    else:
        _mtgo(handler.found, collector)
        format = "mtgo_dek"
    collector.account_rest(lines)
    return format


def _mtgo(elements: list[list], c: Collector) -> None:
    """MTGO `.dek`: `<Cards Quantity Sideboard Name/>`; the sideboard is the command zone."""
    side: list[tuple] = []
    for tag, attrs, line, _ in elements:
        if tag != "Cards":
            continue
        if attrs.get("Sideboard", "").strip().lower() == "true":
            side.append((attrs.get("Name"), attrs, line))
        else:
            _add(c, attrs.get("Name"), attrs.get("Quantity"), line, Section.MAIN, attrs)
    _add_side_zone(c, side, "Quantity", "the sideboard (Sideboard=\"true\")")


def _add_side_zone(c: Collector, cards: list[tuple], quantity: str, where: str) -> None:
    """A side zone: the command zone when it holds 1-2 cards; with more, its last one or two
    cards are offered as the commander(s) (exporters that append them there)."""
    section = side_zone_section(len(cards), c.entries)
    added = []
    for name, attrs, line in cards:
        before = len(c.entries)
        _add(c, name, attrs.get(quantity), line, section, attrs)
        added.extend(range(before, len(c.entries)))
    if section is Section.SIDEBOARD:
        c.propose_side_tail(added, where)


_ZONES = {"main": Section.MAIN, "tokens": Section.IGNORED}


def _cockatrice(elements: list[list], c: Collector) -> None:
    """Cockatrice `.cod`: `<zone name>` holds `<card number name/>`; `side` is the command
    zone (Cockatrice has no commander zone), `tokens` is not part of the deck."""
    zone = "main"
    cards_by_zone: dict[str, list[tuple]] = {}
    named: list[tuple[str, str]] = []  # (names, where) of the comment and banner card
    for tag, attrs, line, content in elements:
        if tag == "zone":
            zone = attrs.get("name", "").strip().lower()
        elif tag == "card":
            name = attrs.get("name") or "".join(content)
            cards_by_zone.setdefault(zone, []).append((name, attrs, line))
        elif tag == "comments":
            named.extend((m[1], f"the deck comment ({m[0].strip()[:60]})")
                         for m in _COMMENT_COMMANDER.finditer("".join(content)))
        elif tag == "bannerCard":
            named.append((attrs.get("name") or "".join(content), "the deck's banner card"))
    main: list[int] = []
    for zone, cards in cards_by_zone.items():
        section = _ZONES.get(zone)
        if section is None:
            _add_side_zone(c, cards, "number", f"the {zone!r} zone")
            continue
        for name, attrs, line in cards:
            before = len(c.entries)
            _add(c, name, attrs.get("number"), line, section, attrs)
            if section is Section.MAIN:
                main.extend(range(before, len(c.entries)))
    for names, where in named:
        _propose_named(c, main, names, where)


def _propose_named(c: Collector, main: list[int], names: str, where: str) -> None:
    """Offer the main-zone cards a comment or the banner names (the whole text, or its
    parts split at `+`, `;`, ` & `...)."""
    whole = _fold(names)
    found = [i for i in main if _fold(c.entries[i].name) == whole]
    if not found:
        parts = {_fold(part) for part in _NAME_LIST.split(names)}
        found = [i for i in main if _fold(c.entries[i].name) in parts]
    if 1 <= len(found) <= 2:
        c.propose(found, where)


def _fold(name: str) -> str:
    """A name compared loosely: case, curly quotes and spacing ignored."""
    return " ".join(name.replace("’", "'").split()).casefold()


def _add(c: Collector, name, quantity, line: int, section: Section, attrs: dict) -> None:
    """One card element, or why it names no card."""
    name = (name or "").strip()
    if not name:
        c.unparsed(line, f"<card {' '.join(f'{k}={v!r}' for k, v in attrs.items())}>",
                   "is a card element without a name (resolving by catalog id is not supported)")
        return
    hints = {}
    if attrs.get("setShortName"):
        hints["set_code"] = attrs["setShortName"].strip()
        if attrs.get("collectorNumber"):
            hints["collector_number"] = attrs["collectorNumber"].strip()
    if name.endswith(")") and (printed := _NAME_SET.fullmatch(name)):
        name = printed[1]
        hints.setdefault("set_code", printed[2])
    c.add(name, (quantity or "1").strip(), line, section, **hints)


def _salvage(lines: list[str], c: Collector, error_line: int, why: str) -> None:
    """Not well-formed (or refused) XML: read each line that is still a card element on its
    own, account for pure markup, and report the rest, each saying why."""
    before = len(c.problems)
    zone = "main"
    side: list[tuple] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        element = _CARD_ELEMENT.fullmatch(line)
        attrs = _attributes(element[2]) if element else None
        if attrs is not None:
            name = attrs.get("Name") or attrs.get("name") or _unescape(element[3] or "")
            if attrs.get("Sideboard", "").lower() == "true" or zone not in _ZONES:
                side.append((name, attrs, number))
            else:
                _add(c, name, attrs.get("Quantity") or attrs.get("number"), number, _ZONES[zone], attrs)
        elif not element and _MARKUP.fullmatch(line):
            zone = (_ZONE.search(line) or (None, zone))[1].lower()
            c.account(number)
        else:
            c.unparsed(number, line, f"is not a card element ({why})")
    for name, attrs, number in side:
        quantity = attrs.get("Quantity") or attrs.get("number")
        _add(c, name, quantity, number, side_zone_section(len(side), c.entries), attrs)
    if len(c.problems) == before:  # every line read: still say the document is broken
        c.unparsed(error_line, lines[error_line - 1] if 0 < error_line <= len(lines) else "", f"is where {why}")


_ENTITY = re.compile(r"&(#\d{1,7}|#x[0-9A-Fa-f]{1,6}|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _unescape(value: str) -> str | None:
    """XML's five entities and character references; None when any other `&` remains
    (an entity we refuse to expand)."""
    def one(match: re.Match) -> str:
        """One reference's character."""
        ref = match[1]
        if ref in _NAMED:
            return _NAMED[ref]
        code = int(ref[2:], 16) if ref.startswith("#x") else int(ref[1:])
        return chr(code) if 0 < code <= 0x10FFFF else "&"

    value = _ENTITY.sub(one, value)
    return None if "&" in value else value


def _attributes(text: str) -> dict | None:
    """The attributes of a salvaged tag, or None when one uses an entity we do not expand."""
    attrs = {}
    for match in _ATTRIBUTE.finditer(text):
        value = _unescape(match[2] if match[2] is not None else match[3])
        if value is None:
            return None
        attrs[match[1]] = value
    return attrs
