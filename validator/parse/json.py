"""JSON site exports pasted whole: Moxfield, Archidekt, Aetherhub, MTGJSON, TappedOut and
TCGplayer, and the shapes other tools write: bare-name arrays (`{"commanders": [...],
"mainboard": [...]}`), a `cards` array of `{name, quantity, category}`, and a site record
whose `cards` is one string of `N Name` lines beside `commander` and `partner` fields.

Each site reader turns the document into a list of `_Card`s without touching the
collector, so a document that is not the shape it looked like is reported once instead
of half-read. Lines: pasted JSON is often one line; where it spans several, an entry's
line is the line of the first string in the document that is its name (TappedOut: that
is, or else the line of the string the names were read from).
"""

from __future__ import annotations

import json
import re
from collections import deque
from typing import Any, Callable

from validator.decklist import Section
from validator.messages import msg
from validator.parse.common import Collector, DecklistError, check_collections, check_entries, clean_text, heading_section
from validator.parse.json_lines import LineFinder
from validator.parse.sites import SITE_ERRORS, archidekt_format, site_cards
from validator.parse.sites import SiteCard as _Card  # a card read from an export, before it is checked and numbered
from validator.parse.tappedout_board import board_cards

# What json.loads accepts right after the opening bracket and JSON whitespace: a key or
# "}" in an object, a value or "]" in an array (NaN and Infinity included).
_OPENED = {"{": frozenset('"}'), "[": frozenset('{["]-0123456789tfnNI')}


def looks_like_json(text: str) -> bool:
    """Cheap test before json.loads: an object or array from first to last character
    (a Forge `[metadata]` ... `[Sideboard]` file is not: no array starts `[m`)."""
    stripped = text.strip()
    opened = _OPENED.get(stripped[:1])
    return opened is not None and stripped[-1:] in ("}", "]") and stripped[1:].lstrip(" \t\r\n")[:1] in opened


def load_json(text: str) -> Any:
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


def read_json(document: Any, text: str, lines: list[str], c: Collector) -> str:
    """Read a decoded site export; returns the format name it was read as."""
    site, reader = _site_of(document)
    if reader is None:
        c.unparsed(1, lines[0] if lines else "", msg("Line {line} is JSON, but not a deck export this service reads "
                                                     "(Moxfield, Archidekt, Aetherhub, MTGJSON, TappedOut, TCGplayer, "
                                                     "arrays of card names, a cards array or a cards string): "
                                                     "\"{text}\""))
    else:
        try:
            cards = reader(document)
        except DecklistError:
            raise  # a ValueError, but a refusal of the whole list, not a misread site
        except SITE_ERRORS as error:
            c.unparsed(1, lines[0] if lines else "", msg("Line {line} looks like a {site} export but could not be read "
                                                         "({error}): \"{text}\"", site=site,
                                                         error=clean_text(f"{type(error).__name__}: {error}")))
        else:
            check_entries(len(cards))
            _add_all(cards, text, c, site in _GENERIC_SHAPES)
            _name_format(site, document, text, c)
    c.account_rest(lines)
    return ("mtgjson" if site == "mtgjson" else f"{site}_json") if reader else "json"


def _add_all(cards: list[_Card], text: str, c: Collector, generic: bool = False) -> None:
    """Check and number every card read from a JSON export (`generic`: a shape no one site
    owns, whose `commander` field repeats a name its cards hold: the card's `"name"` is its line)."""
    line_of = LineFinder(text, prefer_names=True) if generic else LineFinder(text)
    for card in cards:
        name = clean_text(card.name.strip()) if isinstance(card.name, str) else ""
        line = line_of(name, card.name, card.source)
        if not name:
            if card.source_id is not None:
                why = msg("Line {line} holds a card without a name (id {id}: a numeric id alone cannot be resolved to "
                          "a card): \"{text}\"", id=clean_text(repr(card.source_id)))
            else:
                why = msg("Line {line} holds a card without a name: \"{text}\"")
            c.unparsed(line, repr(card.name), why)
            continue
        hints: dict[str, Any] = {"foil": bool(card.foil)}
        if isinstance(card.set_code, str) and card.set_code:
            hints["set_code"] = card.set_code
        if isinstance(card.collector_number, (str, int)) and str(card.collector_number):
            hints["collector_number"] = str(card.collector_number)
        c.add(name, card.quantity, line, card.section, **hints)


def _name_format(site: str, document: dict[str, Any], text: str, c: Collector) -> None:
    """The game format a site export names for itself (Moxfield `format`, TCGplayer's
    deck `format`, Archidekt's `deckFormat` number), with the line that says it."""
    if site == "moxfield":
        named = document.get("format")
    elif site == "tcgplayer":
        named = document["result"]["deck"].get("format")
    elif site == "archidekt":
        named = archidekt_format(document)
    elif site in _GENERIC_SHAPES:
        named = document.get("format")
    else:
        return
    if isinstance(named, str):
        key = '"deckFormat"' if site == "archidekt" else '"format"'
        at = text.find(key)
        c.name_format(named, text.count("\n", 0, at) + 1 if at >= 0 else None)



# --- the sites -----------------------------------------------------------------------

def _moxfield(data: dict[str, Any]) -> list[_Card]:
    """Moxfield API: its boards as validator.parse.sites reads them."""
    return site_cards(data, "moxfield")


def _archidekt(data: dict[str, Any]) -> list[_Card]:
    """Archidekt API: its categories as validator.parse.sites reads them."""
    return site_cards(data, "archidekt")


def _aetherhub(data: dict[str, Any]) -> list[_Card]:
    """Aetherhub: a flat list in which quantity-less rows are headers (Commander, Deck...)."""
    section, cards = Section.MAIN, []
    check_collections(data["convertedDeck"])
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
    "displayCommander": Section.DISPLAY,
    "tokens": Section.IGNORED,
}


def _mtgjson(document: dict[str, Any]) -> list[_Card]:
    """MTGJSON deck file: data.{commander, mainBoard, sideBoard, ...} lists of cards."""
    data = document["data"]
    check_collections(*(data.get(key) for key in _MTGJSON_PILES))
    return [
        _Card(card.get("name"), card.get("count"), section, card.get("setCode"), card.get("number"),
              bool(card.get("isFoil")))
        for key, section in _MTGJSON_PILES.items()
        for card in data.get(key) or ()
    ]


_TCGPLAYER_PILES = {"commandzone": Section.COMMANDER, "maindeck": Section.MAIN, "sideboard": Section.SIDEBOARD}


def _tcgplayer(document: dict[str, Any]) -> list[_Card]:
    """TCGplayer: subDecks hold {cardID, quantity}; result.cards maps each id to its name;
    deck.companionID marks the companion among them."""
    result = document["result"]
    names = result.get("cards") or {}
    companion = result["deck"].get("companionID")
    check_collections(names)  # the names of the cards below, bounded apart
    check_collections(*result["deck"]["subDecks"].values())
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


def _tappedout(data: dict[str, Any]) -> list[_Card]:
    """TappedOut: the `board` HTML has <h3> section headings over `Nx <a>Name</a>` items;
    the flat `cards` string ("1 A||1 B") is the fallback when there is no board."""
    board = data.get("board")
    if isinstance(board, str) and board.strip():
        return [_Card(name, quantity, section, source=board) for name, quantity, section in board_cards(board)]
    check_entries(data["cards"].count("||") + 1)  # before 140,000 `1 Opt||` become cards
    cards = []
    for item in data["cards"].split("||"):
        quantity, _, name = item.strip().partition(" ")
        cards.append(_Card(name, quantity, Section.MAIN, source=data["cards"]))
    return cards


# --- shapes no one site owns ----------------------------------------------------------

# Keys of bare-name arrays (`{"commanders": ["A"], "mainboard": ["B", ...]}`), one copy a name.
_NAME_ARRAYS = {
    "commanders": Section.COMMANDER, "commander": Section.COMMANDER,
    "companions": Section.COMPANION, "companion": Section.COMPANION,
    "mainboard": Section.MAIN, "main": Section.MAIN, "maindeck": Section.MAIN, "deck": Section.MAIN,
    "sideboard": Section.SIDEBOARD, "maybeboard": Section.MAYBEBOARD,
    "tokens": Section.IGNORED,
}
# A cards array's category (or section, board) that leaves the main deck; any other is the user's own.
_CARD_CATEGORIES = ("commander", "companion", "sideboard", "maybeboard", "oathbreaker", "signature spell")
_COUNTED_LINE = re.compile(r"([0-9]{1,4})[xX]?[ \t]++(\S.*)")  # `1 Sol Ring`, `2x Forest` in a cards string


def _has_name_arrays(data: dict[str, Any]) -> bool:
    """Whether a document holds a board as an array of bare names (strings)."""
    return any(isinstance(value := data.get(key), list) and value and isinstance(value[0], str)
               for key in _NAME_ARRAYS)


def _named_commanders(value: object) -> list[str]:
    """A `commander` field's names: a string, or an array of strings (others are skipped)."""
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [name for name in names if isinstance(name, str) and name.strip()]


def _name_arrays(data: dict[str, Any]) -> list[_Card]:
    """Boards as arrays of names, one copy each (an item that is an object gives its
    name and quantity); a `commander` string is one commander."""
    check_collections(*(data.get(key) for key in _NAME_ARRAYS))
    cards = []
    for key, section in _NAME_ARRAYS.items():
        value = data.get(key)
        for item in [value] if isinstance(value, str) and section is Section.COMMANDER else value or ():
            if isinstance(item, dict):
                cards.append(_Card(item.get("name"), item.get("quantity", item.get("count", 1)), section))
            else:
                cards.append(_Card(item, 1, section))
    return cards


def _cards_array(data: dict[str, Any]) -> list[_Card]:
    """A deck object whose `cards` are `{name, quantity, category}`: category `commander`
    (or Commander, Sideboard, Maybeboard...) places a card, any other is the main deck's;
    a `commander` field naming a card no category marks makes it the commander (one the
    array does not hold is added)."""
    commanders = data.get("commander")
    check_collections(data["cards"], commanders)
    cards = []
    for item in data["cards"]:
        name = item.get("name")
        if name is None and isinstance(item.get("card"), dict):
            name = item["card"].get("name")
        category = item.get("category", item.get("section", item.get("board")))
        category = category.strip().lower() if isinstance(category, str) else ""
        section = (heading_section(category) or Section.MAIN) if category in _CARD_CATEGORIES else Section.MAIN
        quantity = item.get("quantity", item.get("qty", item.get("count", 1)))
        cards.append(_Card(name, quantity, section, item.get("set"), item.get("collector_number")))
    return _with_commander_fields(cards, _named_commanders(commanders))


def _with_commander_fields(cards: list[_Card], names: list[str]) -> list[_Card]:
    """The cards with the commanders a field names: when no card is in the command zone
    yet, a listed card of that name moves there (the first main-deck one not moved yet),
    an unlisted one is added. One pass over the cards: a scan of them per name, with the
    names not found appended, was quadratic (20,000 of each, 140 KB: 44 s)."""
    if not names or any(card.section is Section.COMMANDER for card in cards):
        return cards
    check_entries(len(cards) + len(names))
    listed: dict[str, deque[int]] = {}  # name -> its main-deck cards, in order
    for i, card in enumerate(cards):
        if card.section is Section.MAIN and isinstance(card.name, str):
            listed.setdefault(card.name, deque()).append(i)
    for name in names:
        waiting = listed.get(name)
        if waiting:
            at = waiting.popleft()
            cards[at] = cards[at]._replace(section=Section.COMMANDER)
        else:
            cards.append(_Card(name, 1, Section.COMMANDER))
    return cards


def _card_lines(data: dict[str, Any]) -> list[_Card]:
    """A site record: `cards` is one string of `N Name` lines (CRLF or LF; a header line such
    as `Sideboard` switches section), and the `commander` and `partner` fields outside it
    add the commanders (an empty `partner` names none)."""
    text = data["cards"]
    check_entries(text.count("\n") + 1 + sum(len(data[key]) for key in ("commander", "partner")
                                             if isinstance(data.get(key), list)))
    section, cards = Section.MAIN, []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        if (header := heading_section(line)) is not None:
            section = header
            continue
        counted = _COUNTED_LINE.fullmatch(line)
        quantity, name = (counted[1], counted[2]) if counted else (1, line)
        cards.append(_Card(name, quantity, section, source=text))
    for key in ("commander", "partner"):
        cards.extend(_Card(name, 1, Section.COMMANDER) for name in _named_commanders(data.get(key)))
    return cards


_GENERIC_SHAPES = ("names", "cards", "lines")


def _site_of(document: Any) -> tuple[str, Callable[[dict[str, Any]], list[_Card]] | None]:
    """Which site wrote this JSON, by the keys only that site uses (then the shapes no one
    site owns)."""
    if not isinstance(document, dict):
        return "json", None
    if "convertedDeck" in document:
        return "aetherhub", _aetherhub
    if isinstance(document.get("data"), dict) and "mainBoard" in document["data"]:
        return "mtgjson", _mtgjson
    if isinstance(document.get("result"), dict) and "deck" in document["result"]:
        return "tcgplayer", _tcgplayer
    if "boards" in document:
        return "moxfield", _moxfield
    if _has_name_arrays(document):
        return "names", _name_arrays
    if "mainboard" in document and "commanders" in document:
        return "moxfield", _moxfield
    cards = document.get("cards")
    if isinstance(cards, list) and "categories" in document:
        return "archidekt", _archidekt
    if isinstance(cards, list):
        return "cards", _cards_array
    if isinstance(cards, str) and "||" not in cards and not isinstance(document.get("board"), str) \
            and ("\n" in cards or "commander" in document):
        return "lines", _card_lines
    if isinstance(cards, str) or isinstance(document.get("board"), str):
        return "tappedout", _tappedout
    return "json", None
