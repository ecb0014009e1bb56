"""Bulk sync: Scryfall's oracle-cards file -> a new store file -> os.replace() over CARD_DB.

The file is streamed: raw bytes -> gzip layers peeled by magic bytes -> UTF-8 text ->
one card object at a time (JSON Lines, or a JSON array decoded incrementally) -> the
store builder. A failed, truncated or malformed download, or one past a bound (the MAX_*
constants below and in streams.py), raises CardDataError and leaves the old store untouched.
"""

from __future__ import annotations

import codecs
import json
import logging
import os
import re
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator
from urllib.parse import urlsplit

from card_data import brackets as bracket_data
from card_data.client import DEFAULT_API_URL, ScryfallClient
from card_data.coordination import coordination_for
from card_data.errors import CardDataError
from card_data.store import StoreBuilder, StoreMetadata, read_metadata
from card_data.streams import decompressed, file_chunks, read_capped

# Bounds on one bulk file (Scryfall's oracle_cards: about 170 MB of JSON Lines and 38,000
# objects in 2026, 138 MB in 2024; default_cards about 117,000 objects). Past one, the file
# is refused and the last good store stays (streams.py says how each is enforced).
MAX_BULK_BYTES = 1 << 30  # decompressed (and raw) bytes: six times oracle_cards
MAX_CARD_CHARS = 1 << 20  # one JSON line or array item: a card object is a few KB, the largest tens of KB
MAX_RECORDS = 500_000  # objects in one file: 13 times oracle_cards, 4 times default_cards
MAX_BULK_OBJECT_BYTES = 64 << 10  # a bulk-data.json beside an imported file: Scryfall's is under 1 KB
_decoder = json.JSONDecoder()
_BLANK = re.compile(r"\s*")
_SEPARATORS = re.compile(r"[\s,]*")  # whitespace and the commas between array items
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SyncResult:
    """What a sync or import did: "updated" or "unchanged", the store's metadata, and what
    happened to each bracket list when they were refreshed too (list name -> Refresh)."""

    status: str
    metadata: StoreMetadata
    brackets: dict[str, "bracket_data.Refresh"] | None = None


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
                skipped = _BLANK.match(text, position).end()
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
        position = _SEPARATORS.match(buffer, position).end()
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


def _counted(items: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The items, refused past MAX_RECORDS."""
    for count, item in enumerate(items, 1):
        if count > MAX_RECORDS:
            raise CardDataError(f"the card data holds over {MAX_RECORDS:,} objects: refused")
        yield item


def records(chunks: Iterable[bytes], *, limit: int = MAX_BULK_BYTES) -> Iterator[dict[str, Any]]:
    """Card objects from raw bulk-file bytes: gzip or not, JSON Lines or a JSON array.

    At most `limit` bytes, raw or decompressed, are read; leading blank text is skipped
    without being kept.
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
        return _counted(_json_array(rest))
    return _counted(_json_lines(rest, lines + text.count("\n", 0, len(text) - len(stripped))))


def _chain(first: str, texts: Iterator[str]) -> Iterator[str]:
    """first, then the remaining texts."""
    yield first
    yield from texts


# -- building and swapping -----------------------------------------------------------------


def build_store(db_path: str | os.PathLike, chunks: Iterable[bytes], *, source: str, updated_at: str) -> StoreMetadata:
    """Build a new store from raw bulk bytes next to db_path, then swap it in atomically."""
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    temporary = db_path.with_name(f".{db_path.name}.{os.getpid()}.building")
    builder = StoreBuilder(temporary)
    try:
        for record in records(chunks):
            builder.add(record)
        metadata = builder.finish(source, updated_at)
        bracket_data.carry_over(db_path, temporary)  # the bracket lists outlive a card-data update
        os.replace(temporary, db_path)  # readers see the old file or the new, never half of one
    except MemoryError as error:  # whatever a file holds, a failed build is a failed sync, not a crash
        builder.abort()
        raise CardDataError("ran out of memory building the card store: the last good store stays") from error
    except BaseException:
        builder.abort()
        raise
    return metadata


def _timestamp(value: str) -> datetime:
    """An ISO 8601 updated_at (Scryfall writes "+00:00" offsets and milliseconds)."""
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as error:
        raise CardDataError(f"unreadable updated_at {value!r}") from error


def is_newer(candidate: str, current: StoreMetadata | None) -> bool:
    """Whether a bulk file's updated_at is newer than the store's."""
    return current is None or _timestamp(candidate) > _timestamp(current.updated_at)


def _progress(total: int | None, description: str) -> Callable[[Iterable[bytes]], Iterator[bytes]]:
    """Wrap byte chunks in a tqdm bar when stderr is a terminal; otherwise pass them through."""
    if not sys.stderr.isatty():
        return lambda chunks: iter(chunks)
    from tqdm import tqdm  # imported only for terminals

    def counted(chunks: Iterable[bytes]) -> Iterator[bytes]:
        with tqdm(total=total, unit="B", unit_scale=True, desc=description, file=sys.stderr) as bar:
            for chunk in chunks:
                bar.update(len(chunk))
                yield chunk

    return counted


def sync(
    db_path: str | os.PathLike,
    api_url: str = DEFAULT_API_URL,
    *,
    client: ScryfallClient | None = None,
    user_agent: str | None = None,
    force: bool = False,
    redis_url: str | None = None,
    shared_dir: str | os.PathLike | None = None,
    brackets: "bracket_data.BracketSources | None" = None,
) -> SyncResult:
    """Download Scryfall's oracle-cards bulk file into db_path unless the store is current.

    With redis_url and shared_dir (several instances, docs/several-instances.md): a file
    another instance already published for this updated_at is used instead of downloading
    it again, and a downloaded file is left in shared_dir and published for the others.
    With `brackets`, the mass land denial and combo lists are refreshed afterwards too
    (whether the cards changed or not); a list that fails keeps its last good data.
    """
    coordination = coordination_for(db_path, redis_url, shared_dir=shared_dir)
    client = client or ScryfallClient(api_url, user_agent=user_agent, limits=coordination.limits)
    bulk = client.bulk_data("oracle-cards")
    current = read_metadata(db_path)
    if not force and not is_newer(bulk["updated_at"], current):
        return _with_brackets(SyncResult("unchanged", current), db_path, brackets, client)
    published = None if force else _published_file(coordination)
    if published is not None and not is_newer(bulk["updated_at"], StoreMetadata("", published[1], 0)):
        adopted = _build_from_shared(db_path, *published)
        if adopted is not None:
            return _with_brackets(adopted, db_path, brackets, client)
    # JSON Lines is Scryfall's only format since July 2026; the array is a fallback.
    url = bulk.get("jsonl_download_uri") or bulk.get("download_uri")
    if not url:
        raise CardDataError("Scryfall's bulk-data object offers no download URI")
    if not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https"):
        raise CardDataError("Scryfall's bulk-data object's download URI is no http(s) URL")
    with client.download(url) as download, SharedCopy(coordination, bulk["updated_at"]) as shared:
        bar = _progress(download.length or bulk.get("size"), "cards sync")
        metadata = build_store(db_path, shared.tee(bar(download.chunks())), source="scryfall",
                               updated_at=bulk["updated_at"])
        shared.publish()
    return _with_brackets(SyncResult("updated", metadata), db_path, brackets, client)


def _with_brackets(result: SyncResult, db_path, sources, client: ScryfallClient, *, network: bool = True) -> SyncResult:
    """The result, after refreshing the bracket lists when sources are given."""
    if sources is None:
        return result
    refreshed = bracket_data.refresh(db_path, sources, client=client if network else None, network=network)
    return SyncResult(result.status, result.metadata, refreshed)



def adopt(db_path: str | os.PathLike, *, redis_url: str | None = None,
          shared_dir: str | os.PathLike | None = None) -> SyncResult | None:
    """Build the store from the bulk file the syncing instance published, when it is newer
    than the store; None when there is nothing newer (or no Redis, no shared folder).
    Never asks Scryfall: the instances that do not hold the sync lock call this."""
    published = _published_file(coordination_for(db_path, redis_url, shared_dir=shared_dir))
    if published is None or not is_newer(published[1], read_metadata(db_path)):
        return None
    return _build_from_shared(db_path, *published)


def _published_file(coordination) -> tuple[Path, str] | None:
    """(path, updated_at) of the bulk file published in the shared folder, if it is there."""
    published = coordination.published_bulk()
    if published is None or coordination.shared_dir is None:
        return None
    path = coordination.shared_dir / Path(published["file"]).name  # a bare name, never a path
    _timestamp(published["updated_at"])  # refuse garbage before building anything
    return (path, published["updated_at"]) if path.is_file() else None


def _build_from_shared(db_path: str | os.PathLike, path: Path, updated_at: str) -> SyncResult | None:
    """Build the store from a published file; None when it vanished meanwhile (pruned)."""
    try:
        metadata = build_store(db_path, file_chunks(path), source="scryfall", updated_at=updated_at)
    except FileNotFoundError:
        return None
    return SyncResult("updated", metadata)


class SharedCopy:
    """Keeps the downloaded bytes in the shared folder as they stream past, and publishes
    the file once the store built from them is in place. Sharing is an optimisation: a
    folder that cannot be written only costs the other instances their own download."""

    KEEP = 2  # published files kept: the current one and the one before (still being read)

    def __init__(self, coordination, updated_at: str) -> None:
        self.coordination = coordination
        self.updated_at = updated_at
        folder = coordination.shared_dir if coordination.backend == "redis" else None
        digits = _timestamp(updated_at).astimezone(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
        self.path = folder / f"oracle-cards-{digits}.bulk" if folder else None
        self.partial = folder / f".oracle-cards-{digits}.{os.getpid()}.part" if folder else None
        self._handle = None

    def __enter__(self) -> "SharedCopy":
        if self.partial is not None:
            try:
                self.partial.parent.mkdir(parents=True, exist_ok=True)
                self._handle = self.partial.open("wb")
            except OSError as error:
                log.warning("cannot keep the bulk file in %s for the other instances: %s", self.partial.parent, error)
        return self

    def tee(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """The chunks, unchanged; each is also written to the shared folder."""
        for chunk in chunks:
            if self._handle is not None:
                try:
                    self._handle.write(chunk)
                except OSError as error:  # e.g. the shared volume is full: stop sharing
                    log.warning("stopped copying the bulk file to %s: %s", self.partial, error)
                    self._discard()
            yield chunk

    def publish(self) -> None:
        """Move the complete file in place, tell the other instances, prune old files."""
        if self._handle is None:
            return
        try:
            self._handle.close()
            self._handle = None
            os.replace(self.partial, self.path)
        except OSError as error:
            log.warning("could not publish the bulk file %s: %s", self.path, error)
            self._discard()
            return
        self.coordination.publish_bulk(self.updated_at, self.path.name)
        old = sorted(self.path.parent.glob("oracle-cards-*.bulk"), key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in old[self.KEEP:]:
            stale.unlink(missing_ok=True)

    def _discard(self) -> None:
        """Drop a partial copy."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        if self.partial is not None:
            self.partial.unlink(missing_ok=True)

    def __exit__(self, *exc_info: object) -> None:
        self._discard()  # a failed download or build publishes nothing


def _import_updated_at(path: Path) -> str:
    """updated_at for an imported file: a bulk-data.json beside it, else the file's mtime."""
    beside = path.with_name("bulk-data.json")
    try:
        updated_at = json.loads(read_capped(beside, MAX_BULK_OBJECT_BYTES, "the bulk-data object"))["updated_at"]
        if isinstance(updated_at, str):
            return updated_at
    except FileNotFoundError:
        pass
    except (OSError, CardDataError, ValueError, KeyError, TypeError, RecursionError) as error:
        log.warning("%s not read (%s): the file's mtime is its updated_at", beside, error)
    return datetime.fromtimestamp(path.stat().st_mtime).astimezone().isoformat()


def import_file(
    db_path: str | os.PathLike,
    path: str | os.PathLike,
    *,
    updated_at: str | None = None,
    brackets: "bracket_data.BracketSources | None" = None,
) -> SyncResult:
    """Build the store from a local bulk file (.jsonl.gz, .jsonl, .json, .json.gz): air-gapped CI.

    With `brackets`, the lists that have a file override (MASS_LAND_DENIAL_FILE,
    COMBOS_FILE) are loaded too; an import never goes to the network.
    """
    path = Path(path)
    if not path.is_file():
        raise CardDataError(f"no such card data file: {path}")
    updated_at = updated_at or _import_updated_at(path)
    _timestamp(updated_at)  # refuse an unreadable timestamp before building anything
    bar = _progress(path.stat().st_size, "cards import")
    metadata = build_store(db_path, bar(file_chunks(path)), source=f"file:{path.name}", updated_at=updated_at)
    return _with_brackets(SyncResult("updated", metadata), db_path, brackets, None, network=False)
