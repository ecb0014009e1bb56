"""Bulk card data as bytes -> one card object at a time: raw bytes -> gzip layers peeled by
magic bytes (streams.decompressed) -> UTF-8 text -> JSON Lines, or a JSON array decoded
incrementally. Linear in the file, memory flat: a malformed file, or one past a bound
(the MAX_* constants below and in streams.py), raises CardDataError before the store
builder keeps anything (sync.build_store).
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any, Iterable, Iterator

from card_data.errors import CardDataError
from card_data.streams import decompressed

# Bounds on one bulk file (Scryfall's oracle_cards: about 170 MB of JSON Lines and 38,000
# objects in 2026, 138 MB in 2024; default_cards about 117,000 objects). Past one, the file
# is refused and the last good store stays (streams.py says how each is enforced).
MAX_BULK_BYTES = 1 << 30  # decompressed (and raw) bytes: six times oracle_cards
MAX_CARD_CHARS = 1 << 20  # one JSON line or array item: a card object is a few KB, the largest tens of KB
MAX_RECORDS = 500_000  # objects in one file: 13 times oracle_cards, 4 times default_cards
_decoder = json.JSONDecoder()
_BLANK = re.compile(r"\s*")
_SEPARATORS = re.compile(r"[\s,]*")  # whitespace and the commas between array items


def _end(match: re.Match[str] | None) -> int:
    """Where a match of _BLANK or _SEPARATORS ends: both match the empty string, so always one."""
    assert match is not None
    return match.end()


# -- bytes -> text ------------------------------------------------------------------------


def _text(chunks: Iterable[bytes]) -> Iterator[str]:
    """UTF-8 text chunks (a BOM is dropped)."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    try:
        for chunk in chunks:
            text = decoder.decode(chunk)
            if text:
                yield text
        tail = decoder.decode(b"", final=True)
    except UnicodeDecodeError as error:
        raise CardDataError(f"the card data is not UTF-8: {error}") from error
    if tail:
        yield tail


# -- text -> card objects -----------------------------------------------------------------


def _too_long(number: int) -> CardDataError:
    """The error for a line over MAX_CARD_CHARS."""
    return CardDataError(f"card data line {number} is over {MAX_CARD_CHARS:,} characters (no card is that long): refused")


def _json_lines(texts: Iterable[str], number: int = 1) -> Iterator[dict[str, Any]]:
    """One JSON object per line (blank lines are skipped), each at most MAX_CARD_CHARS.

    Linear in the text: each chunk is searched once for line ends, a line that spans chunks
    is joined once, and runs of blank lines are skipped at C speed. `number` is the line
    the first text starts on.
    """
    pending: list[str] = []  # the start of a line whose end has not arrived yet
    pending_size = 0
    for text in texts:
        position = 0
        while True:
            if not pending:
                skipped = _end(_BLANK.match(text, position))
                number += text.count("\n", position, skipped)
                position = skipped
            end = text.find("\n", position)
            if end < 0:
                if position < len(text):
                    pending.append(text[position:])
                    pending_size += len(text) - position
                    if pending_size > MAX_CARD_CHARS:
                        raise _too_long(number)
                break
            if pending_size + end - position > MAX_CARD_CHARS:
                raise _too_long(number)
            line = "".join(pending) + text[position:end] if pending else text[position:end]
            pending.clear()
            pending_size = 0
            yield _parse_line(line, number)
            number += 1
            position = end + 1
    if pending:
        yield _parse_line("".join(pending), number)


def _parse_line(line: str, number: int) -> dict[str, Any]:
    """One JSON Lines record; a malformed line fails the whole download."""
    try:
        value = json.loads(line)
    except RecursionError as error:
        raise CardDataError(f"card data line {number} is nested too deeply: refused") from error
    except ValueError as error:
        raise CardDataError(f"malformed card data on line {number}: {error}") from error
    if not isinstance(value, dict):
        raise CardDataError(f"card data line {number} is not a JSON object")
    return value


def _json_array(texts: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The items of one JSON array, decoded incrementally with raw_decode (never whole).

    An item that has not all arrived is tried again only once the text after it has
    doubled, so a large item costs linear time; one not complete within MAX_CARD_CHARS
    is refused.
    """
    buffer = next(texts)
    position = buffer.index("[") + 1
    ended, error = False, None
    while True:
        position = _end(_SEPARATORS.match(buffer, position))
        if position < len(buffer) and buffer[position] == "]":
            return
        if position < len(buffer):
            try:
                value, position = _decoder.raw_decode(buffer, position)
            except RecursionError as caught:
                raise CardDataError("an item of the card data array is nested too deeply: refused") from caught
            except ValueError as caught:
                if ended:
                    raise CardDataError(f"malformed card data in the JSON array: {caught}") from caught
                error = caught
            else:
                if not isinstance(value, dict):
                    raise CardDataError("an item of the card data array is not a JSON object")
                yield value
                continue
        elif ended:
            raise CardDataError("malformed card data in the JSON array: it ends before its `]`")
        if len(buffer) - position > MAX_CARD_CHARS:
            raise CardDataError(f"an item of the card data array is not complete within {MAX_CARD_CHARS:,} "
                                f"characters (no card is that long): refused ({error})")
        buffer, ended = _more(buffer[position:], texts)
        position = 0


def _more(rest: str, texts: Iterator[str]) -> tuple[str, bool]:
    """rest and the texts after it, until the unread part has at least doubled; and
    whether the texts ended."""
    pieces, size = [rest], len(rest)
    while size <= 2 * len(rest):
        more = next(texts, None)
        if more is None:
            return "".join(pieces), True
        pieces.append(more)
        size += len(more)
    return "".join(pieces), False


def _counted(items: Iterator[dict[str, Any]], most: int | None = None) -> Iterator[dict[str, Any]]:
    """The items, refused past `most` (MAX_RECORDS when None)."""
    most = MAX_RECORDS if most is None else most
    for count, item in enumerate(items, 1):
        if count > most:
            raise CardDataError(f"the card data holds over {most:,} objects: refused")
        yield item


def records(chunks: Iterable[bytes], *, limit: int = MAX_BULK_BYTES,
            max_records: int | None = None) -> Iterator[dict[str, Any]]:
    """Card objects from raw bulk-file bytes: gzip or not, JSON Lines or a JSON array.

    At most `limit` bytes, raw or decompressed, are read, and at most `max_records`
    objects (MAX_RECORDS when None); leading blank text is skipped without being kept.
    """
    texts = _text(decompressed(chunks, limit))
    lines = 1
    for text in texts:
        stripped = text.lstrip()
        if stripped:
            break
        lines += text.count("\n")
    else:
        raise CardDataError("the card data file is empty")
    rest = _chain(stripped, texts)
    if stripped[0] == "[":
        return _counted(_json_array(rest), max_records)
    return _counted(_json_lines(rest, lines + text.count("\n", 0, len(text) - len(stripped))), max_records)


def _chain(first: str, texts: Iterator[str]) -> Iterator[str]:
    """first, then the remaining texts."""
    yield first
    yield from texts
