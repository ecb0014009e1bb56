"""JSON site exports pasted whole: Moxfield, Archidekt, Aetherhub, MTGJSON, TappedOut and
TCGplayer.

Each site reader turns the document into a list of `_Card`s without touching the
collector, so a document that is not the shape it looked like is reported once instead
of half-read. Lines: pasted JSON is often one line; where it spans several, an entry's
line is the first line where its name appears.
"""

from __future__ import annotations

import bisect
import json
from html.parser import HTMLParser
from typing import Callable, NamedTuple

from validator.decklist import Section
from validator.parse.common import Collector, heading_section

_SITE_ERRORS = (TypeError, KeyError, AttributeError, ValueError, IndexError)


class _Card(NamedTuple):
    """A card read from an export, before it is checked and numbered."""

    name: object
    quantity: object
    section: Section
    set_code: object = None
    collector_number: object = None
    foil: bool = False
    source_id: object = None  # the site's own id, quoted when the name is missing


# What json.loads accepts right after the opening bracket and JSON whitespace: a key or
# "}" in an object, a value or "]" in an array (NaN and Infinity included).
_OPENED = {"{": frozenset('"}'), "[": frozenset('{["]-0123456789tfnNI')}


def looks_like_json(text: str) -> bool:
    """Cheap test before json.loads: an object or array from first to last character
    (a Forge `[metadata]` ... `[Sideboard]` file is not: no array starts `[m`)."""
    stripped = text.strip()
    opened = _OPENED.get(stripped[:1])
    return opened is not None and stripped[-1:] in ("}", "]") and stripped[1:].lstrip(" \t\r\n")[:1] in opened


def load_json(text: str):
    """The decoded document, or None when it is not JSON (then it is read as text)."""
    try:
        return json.loads(text, parse_int=_integer)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
        return None


def _integer(digits: str) -> int | str:
    """A JSON integer, or its digits as text when Python refuses to convert that many
    (over 4,300: a ValueError that made the whole export read as text). No count is that
    long: `quantity_of` refuses the text, an invalid_quantity quoting what was typed."""
    try:
        return int(digits)
    except ValueError:
        return digits


def read_json(document, text: str, lines: list[str], c: Collector) -> str:
    """Read a decoded site export; returns the format name it was read as."""
    site, reader = _site_of(document)
    if reader is None:
        c.unparsed(1, lines[0] if lines else "", "is JSON, but not a deck export this service reads "
                   "(Moxfield, Archidekt, Aetherhub, MTGJSON, TappedOut, TCGplayer)")
    else:
        try:
            cards = reader(document)
        except _SITE_ERRORS as error:
            c.unparsed(1, lines[0] if lines else "", f"looks like a {site} export but could not be read ({type(error).__name__}: {error})")
        else:
            _add_all(cards, text, c)
            _name_format(site, document, text, c)
    c.account_rest(lines)
    return ("mtgjson" if site == "mtgjson" else f"{site}_json") if reader else "json"


def _add_all(cards: list[_Card], text: str, c: Collector) -> None:
    """Check and number every card read from a JSON export."""
    line_of = _LineFinder(text)
    for card in cards:
        name = card.name.strip() if isinstance(card.name, str) else ""
        line = line_of(name)
        if not name:
            why = "holds a card without a name"
            if card.source_id is not None:
                why += f" (id {card.source_id!r}: a numeric id alone cannot be resolved to a card)"
            c.unparsed(line, repr(card.name), why)
            continue
        hints = {"foil": bool(card.foil)}
        if isinstance(card.set_code, str) and card.set_code:
            hints["set_code"] = card.set_code
        if isinstance(card.collector_number, (str, int)) and str(card.collector_number):
            hints["collector_number"] = str(card.collector_number)
        c.add(name, card.quantity, line, card.section, **hints)


# Archidekt's deckFormat numbers (its API; pyrchidekt's Format enum), as the site names them.
# 13 is Archidekt's "Brawl" from before Arena's Dec 2023 rename, the 60-card Standard one;
# 20 "Historic Brawl" is Arena's 100-card Brawl today.
ARCHIDEKT_FORMATS = {
    1: "Standard", 2: "Modern", 3: "Commander", 4: "Legacy", 5: "Vintage", 6: "Pauper", 7: "Custom",
    8: "Frontier", 9: "Future Standard", 10: "Penny Dreadful", 11: "1v1 Commander", 12: "Duel Commander",
    13: "Standard Brawl", 14: "Oathbreaker", 15: "Pioneer", 16: "Historic", 17: "Pauper EDH", 18: "Alchemy",
    19: "Explorer", 20: "Historic Brawl", 21: "Gladiator", 22: "Premodern", 23: "PreDH", 24: "Timeless",
    25: "Canadian Highlander",
}


def _name_format(site: str, document: dict, text: str, c: Collector) -> None:
    """The game format a site export names for itself (Moxfield `format`, TCGplayer's
    deck `format`, Archidekt's `deckFormat` number), with the line that says it."""
    if site == "moxfield":
        named = document.get("format")
    elif site == "tcgplayer":
        named = document["result"]["deck"].get("format")
    elif site == "archidekt":
        number = document.get("deckFormat")
        named = ARCHIDEKT_FORMATS.get(number) if isinstance(number, int) and not isinstance(number, bool) else None
    else:
        return
    if isinstance(named, str):
        key = '"deckFormat"' if site == "archidekt" else '"format"'
        at = text.find(key)
        c.name_format(named, text.count("\n", 0, at) + 1 if at >= 0 else None)


class _LineFinder:
    """Line of the first occurrence of a name in the text (1 when not found or one line)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        if "\n" in text:
            self.starts += [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def __call__(self, name: str) -> int:
        """1-based line of the name's JSON spelling."""
        if len(self.starts) == 1 or not name:
            return 1
        at = self.text.find(json.dumps(name)[1:-1])
        if at < 0:
            at = self.text.find(json.dumps(name, ensure_ascii=False)[1:-1])
        return bisect.bisect_right(self.starts, at) if at >= 0 else 1


# --- the sites -----------------------------------------------------------------------

_MOXFIELD_BOARDS = {
    "commanders": Section.COMMANDER,
    "companions": Section.COMPANION,
    "mainboard": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "planes": Section.PLANAR,
    "schemes": Section.SCHEMES,
    "signatureSpells": Section.SIGNATURE,  # Oathbreaker's
}  # attractions, stickers, contraptions, tokens: not part of the deck


def _moxfield(data: dict) -> list[_Card]:
    """Moxfield API: boards of {key: {quantity, card: {name, set, cn}}} (v2 at the top
    level, v3 under "boards"); a companion is listed in both companions and sideboard."""
    boards = data.get("boards")
    if isinstance(boards, dict):
        piles = {key: (board or {}).get("cards") or {} for key, board in boards.items()}
    else:
        piles = {key: data[key] for key in (*_MOXFIELD_BOARDS, "attractions", "stickers", "contraptions")
                 if isinstance(data.get(key), dict)}
    has_companions = bool(piles.get("companions"))
    cards = []
    for key, pile in piles.items():
        section = _MOXFIELD_BOARDS.get(key, Section.IGNORED)
        for item in pile.values():
            if section is Section.SIDEBOARD and item.get("isCompanion") and has_companions:
                continue  # the same card as in companions, not a second copy
            card = item["card"]
            if section is Section.SIDEBOARD and item.get("isCompanion"):
                section_here = Section.COMPANION
            else:
                section_here = section
            cards.append(_Card(card["name"], item.get("quantity"), section_here, card.get("set"),
                               card.get("cn"), item.get("finish") == "foil" or bool(item.get("isFoil"))))
    return cards


def _archidekt(data: dict) -> list[_Card]:
    """Archidekt API: cards with categories; the first category is the pile, and a
    category with includedInDeck false is outside the deck."""
    included = {cat["name"].lower(): cat.get("includedInDeck", True) for cat in data.get("categories") or ()}
    cards = []
    for item in data["cards"]:
        if item.get("deletedAt"):
            continue  # removed from the deck on the site; kept in the API for history
        first = ((item.get("categories") or [""])[0] or "").lower()
        card = item["card"]
        cards.append(_Card(card["oracleCard"]["name"], item.get("quantity"), _archidekt_section(first, included),
                           (card.get("edition") or {}).get("editioncode"), card.get("collectorNumber"),
                           item.get("modifier") == "Foil"))
    return cards


def _archidekt_section(category: str, included: dict) -> Section:
    """The section an Archidekt category stands for."""
    if category in ("commander", "companion", "sideboard", "maybeboard", "oathbreaker", "signature spell"):
        return heading_section(category)
    if not included.get(category, True):
        return Section.SIDEBOARD
    return Section.MAIN


def _aetherhub(data: dict) -> list[_Card]:
    """Aetherhub: a flat list in which quantity-less rows are headers (Commander, Deck...)."""
    section, cards = Section.MAIN, []
    for row in data["convertedDeck"]:
        if row.get("quantity") is None:
            section = heading_section(row.get("name") or "") or section
            continue
        cards.append(_Card(row.get("name"), row["quantity"], section, row.get("set"), row.get("number")))
    return cards


_MTGJSON_PILES = {
    "commander": Section.COMMANDER,
    "mainBoard": Section.MAIN,
    "sideBoard": Section.SIDEBOARD,
    "planes": Section.PLANAR,
    "schemes": Section.SCHEMES,
    "displayCommander": Section.IGNORED,
    "tokens": Section.IGNORED,
}


def _mtgjson(document: dict) -> list[_Card]:
    """MTGJSON deck file: data.{commander, mainBoard, sideBoard, ...} lists of cards."""
    data = document["data"]
    return [
        _Card(card.get("name"), card.get("count"), section, card.get("setCode"), card.get("number"),
              bool(card.get("isFoil")))
        for key, section in _MTGJSON_PILES.items()
        for card in data.get(key) or ()
    ]


_TCGPLAYER_PILES = {"commandzone": Section.COMMANDER, "maindeck": Section.MAIN, "sideboard": Section.SIDEBOARD}


def _tcgplayer(document: dict) -> list[_Card]:
    """TCGplayer: subDecks hold {cardID, quantity}; result.cards maps each id to its name;
    deck.companionID marks the companion among them."""
    result = document["result"]
    names = result.get("cards") or {}
    companion = result["deck"].get("companionID")
    cards = []
    for key, pile in result["deck"]["subDecks"].items():
        for item in pile or ():
            card_id = item["cardID"]
            section = _TCGPLAYER_PILES.get(key, Section.SIDEBOARD)
            if companion is not None and card_id == companion:
                section = Section.COMPANION
            info = names.get(str(card_id)) or {}
            cards.append(_Card(info.get("name"), item.get("quantity"), section, info.get("set"),
                               source_id=f"TCGplayer cardID {card_id}"))
    return cards


def _tappedout(data: dict) -> list[_Card]:
    """TappedOut: the `board` HTML has <h3> section headings over `Nx <a>Name</a>` items;
    the flat `cards` string ("1 A||1 B") is the fallback when there is no board."""
    board = data.get("board")
    if isinstance(board, str) and board.strip():
        reader = _TappedOutBoard()
        reader.feed(board)
        reader.close()
        return reader.cards
    cards = []
    for item in data["cards"].split("||"):
        quantity, _, name = item.strip().partition(" ")
        cards.append(_Card(name, quantity, Section.MAIN))
    return cards


class _TappedOutBoard(HTMLParser):
    """Reads TappedOut's board HTML: headings, then `1x` and the card link in each item."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cards: list[_Card] = []
        self.section = Section.MAIN
        self.capture: str | None = None  # "heading", "item" or "name": what text goes where
        self.text: list[str] = []
        self.quantity = ""

    def handle_starttag(self, tag, attrs):
        """Start collecting a heading, an item's quantity, or a card name."""
        classes = (dict(attrs).get("class") or "").split()
        if tag == "h3":
            self.capture, self.text = "heading", []
        elif tag == "li" and "tappedout-member" in classes:
            self.capture, self.text = "item", []
        elif tag == "a" and "card-link" in classes and self.capture == "item":
            self.quantity = "".join(self.text).strip().rstrip("xX")
            self.capture, self.text = "name", []

    def handle_data(self, data):
        """Text of whatever is being collected."""
        if self.capture:
            self.text.append(data)

    def handle_endtag(self, tag):
        """A heading switches section; a card link ends a card."""
        if tag == "h3" and self.capture == "heading":
            self.section = heading_section("".join(self.text)) or Section.MAIN
            self.capture = None
        elif tag == "a" and self.capture == "name":
            self.cards.append(_Card("".join(self.text), self.quantity, self.section))
            self.capture = None


def _site_of(document) -> tuple[str, Callable[[dict], list[_Card]] | None]:
    """Which site wrote this JSON, by the keys only that site uses."""
    if not isinstance(document, dict):
        return "json", None
    if "convertedDeck" in document:
        return "aetherhub", _aetherhub
    if isinstance(document.get("data"), dict) and "mainBoard" in document["data"]:
        return "mtgjson", _mtgjson
    if isinstance(document.get("result"), dict) and "deck" in document["result"]:
        return "tcgplayer", _tcgplayer
    if "boards" in document or ("mainboard" in document and "commanders" in document):
        return "moxfield", _moxfield
    if isinstance(document.get("cards"), list) and "categories" in document:
        return "archidekt", _archidekt
    if isinstance(document.get("cards"), str) or isinstance(document.get("board"), str):
        return "tappedout", _tappedout
    return "json", None
