"""Files of card names in other languages -> one card object at a time, in bounded memory.

What `cards import-names`, CARD_NAMES_FILE and the all_cards sync read (gzip or not, by
magic bytes, through streams.decompressed like every download):
- Scryfall card objects as JSON Lines (the `all_cards` bulk file) or a JSON array:
  records.py reads them, with the bounds below instead of oracle_cards';
- a JSON document: a Scryfall list object (`{"object": "list", "data": [...]}`), an
  MTGJSON set file (`{"data": {"cards": [...]}}`) or AllPrintings (`{"data": {"SET":
  {"cards": [...]}}}`): read by ijson one card at a time, each chunk through a
  streams.JsonGuard first (nesting, string, token and item bounds).
A document is told from JSON Lines by its first line: JSON Lines starts with one whole
card object on it.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

import ijson

from card_data.errors import CardDataError
from card_data.scryfall.records import records
from card_data.streams import ChunkReader, JsonGuard, cut, decompressed

# Scryfall's all_cards: about 390 MB as .jsonl.gz, 2.4 GB of JSON Lines and ~530,000 objects
# in 2026 (every printing in every language). Past a bound the file is refused and the
# last good table stays.
MAX_NAMES_FILE_BYTES = 8 << 30  # decompressed (and raw): three times all_cards
MAX_NAMES_RECORDS = 3_000_000  # objects: five times all_cards
MAX_FIRST_LINE = 1 << 20  # a JSON Lines file's first card object is a few KB
# A JSON document's bounds: MTGJSON's AllPrintings nests 8 deep, and one set's cards are
# tens of MB (the item, what lies below data.<SET>); no name, text or number is near these.
MAX_DOCUMENT_DEPTH = 32
MAX_DOCUMENT_STRING = 1 << 20
MAX_DOCUMENT_TOKEN = 1 << 10
MAX_DOCUMENT_ITEM = 256 << 20
WHAT = "the card names file"
_OPENS, _CLOSES = ("start_map", "start_array"), ("end_map", "end_array")


def name_objects(chunks: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """Card objects (Scryfall's or MTGJSON's) from a names file's raw bytes, one at a time."""
    head, rest = _first_line(iter(decompressed(chunks, MAX_NAMES_FILE_BYTES, WHAT)))
    stream = _chain(head, rest)
    if _is_json_lines(head):
        return records(stream, limit=MAX_NAMES_FILE_BYTES, max_records=MAX_NAMES_RECORDS)
    return _document_items(stream)


def _first_line(chunks: Iterator[bytes]) -> tuple[bytes, Iterator[bytes]]:
    """The bytes up to the first non-blank line's end (at most MAX_FIRST_LINE past it)."""
    head = b""
    for chunk in chunks:
        head += chunk
        stripped = head.lstrip()
        if stripped[:1] == b"[" or b"\n" in stripped or len(head) > MAX_FIRST_LINE:
            break
    return head, chunks


def _is_json_lines(head: bytes) -> bool:
    """Whether a file starts with one whole Scryfall card object on its first line (or is a
    JSON array, which records.py reads too)."""
    stripped = head.lstrip()
    if stripped[:1] == b"[":
        return True
    line = stripped.split(b"\n", 1)[0]
    try:
        first = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(first, dict) and first.get("object") == "card"


def _chain(head: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if head:
        yield head
    yield from rest


def _is_item(prefix: str) -> bool:
    """A card's place in a document: data.item (a list object), data.cards.item (an MTGJSON
    set file) or data.<SET>.cards.item (AllPrintings)."""
    if prefix in ("data.item", "data.cards.item"):
        return True
    parts = prefix.split(".")
    return len(parts) == 4 and parts[0] == "data" and parts[2:] == ["cards", "item"]


def _document_items(chunks: Iterator[bytes]) -> Iterator[dict[str, Any]]:
    """The cards of a JSON document, each built whole (one card) and handed on."""
    guard = JsonGuard(WHAT, max_depth=MAX_DOCUMENT_DEPTH, max_string=MAX_DOCUMENT_STRING,
                      max_token=MAX_DOCUMENT_TOKEN, item_depth=2, max_item=MAX_DOCUMENT_ITEM)
    events = ijson.parse(ChunkReader(guard.checked(chunks)), use_float=True)
    count = 0
    try:
        for prefix, event, value in events:
            if event != "start_map" or not _is_item(prefix):
                continue
            count += 1
            if count > MAX_NAMES_RECORDS:
                raise CardDataError(f"{WHAT} holds over {MAX_NAMES_RECORDS:,} cards: refused")
            yield _build(event, value, events)
    except ijson.JSONError as error:  # IncompleteJSONError too: a truncated file
        raise CardDataError(f"{WHAT} is not valid JSON: {cut(str(error), 200)}") from error
    if count == 0:
        raise CardDataError(f"{WHAT} holds no card objects (a Scryfall list, JSON Lines or MTGJSON file)")


def _build(event: str, value: Any, events: Iterator[tuple[str, str, Any]]) -> dict[str, Any]:
    """One object, from its start_map to its end."""
    builder = ijson.ObjectBuilder()
    builder.event(event, value)
    depth = 1
    for _, event, value in events:
        builder.event(event, value)
        depth += (event in _OPENS) - (event in _CLOSES)
        if depth == 0:
            return builder.value
    raise CardDataError(f"{WHAT} ends inside a card object")
