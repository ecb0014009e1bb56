"""Bulk sync: Scryfall's oracle-cards file -> a new store file -> os.replace() over CARD_DB.

The file is streamed: raw bytes -> gzip layers peeled by magic bytes -> UTF-8 text ->
one card object at a time (JSON Lines, or a JSON array decoded incrementally) -> the
store builder. A failed, truncated or malformed download raises CardDataError and
leaves the old store untouched.
"""

from __future__ import annotations

import codecs
import json
import logging
import os
import sys
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from card_data.client import DEFAULT_API_URL, ScryfallClient
from card_data.coordination import coordination_for
from card_data.errors import CardDataError
from card_data.store import StoreBuilder, StoreMetadata, read_metadata

GZIP_MAGIC = b"\x1f\x8b"
READ_CHUNK = 64 * 1024
# A JSON array item this large without a closing brace is not a card: stop buffering.
MAX_ITEM_CHARS = 16 * 1024 * 1024
_decoder = json.JSONDecoder()
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SyncResult:
    """What a sync or import did: "updated" or "unchanged", and the store's metadata."""

    status: str
    metadata: StoreMetadata


# -- bytes -> text ------------------------------------------------------------------------


def _peek(chunks: Iterator[bytes], size: int) -> tuple[bytes, Iterator[bytes]]:
    """The first size bytes, and an iterator that still yields them."""
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= size:
            break
    return head[:size], _prepend(head, chunks)


def _prepend(head: bytes, chunks: Iterator[bytes]) -> Iterator[bytes]:
    """head, then the rest."""
    if head:
        yield head
    yield from chunks


def _gunzip(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """Decompress a gzip stream (several members allowed); raise if it ends early."""
    decompressor = zlib.decompressobj(zlib.MAX_WBITS | 16)
    try:
        for chunk in chunks:
            while chunk:
                yield decompressor.decompress(chunk)
                # A finished member followed by more data is a multi-member gzip file.
                chunk = decompressor.unused_data if decompressor.eof else b""
                if chunk:
                    decompressor = zlib.decompressobj(zlib.MAX_WBITS | 16)
    except zlib.error as error:
        raise CardDataError(f"the card data is not valid gzip: {error}") from error
    if not decompressor.eof:
        raise CardDataError("the card data download is truncated (the gzip stream ends early)")


def decompressed(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """Peel every gzip layer, found by magic bytes, whatever headers or file names say."""
    head, stream = _peek(iter(chunks), len(GZIP_MAGIC))
    if head == GZIP_MAGIC:
        # A .gz file sent with Content-Encoding: gzip on top would be gzip twice over.
        return decompressed(_gunzip(stream))
    return stream


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


def _json_lines(first: str, texts: Iterator[str]) -> Iterator[dict[str, Any]]:
    """One JSON object per line (blank lines are skipped)."""
    buffer, number = "", 0
    for text in _chain(first, texts):
        *lines, buffer = (buffer + text).split("\n")
        for line in lines:
            number += 1
            if line.strip():
                yield _parse_line(line, number)
    if buffer.strip():
        yield _parse_line(buffer, number + 1)


def _chain(first: str, texts: Iterator[str]) -> Iterator[str]:
    """first, then the remaining texts."""
    yield first
    yield from texts


def _parse_line(line: str, number: int) -> dict[str, Any]:
    """One JSON Lines record; a malformed line fails the whole download."""
    try:
        value = json.loads(line)
    except ValueError as error:
        raise CardDataError(f"malformed card data on line {number}: {error}") from error
    if not isinstance(value, dict):
        raise CardDataError(f"card data line {number} is not a JSON object")
    return value


def _json_array(first: str, texts: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The items of one JSON array, decoded incrementally with raw_decode (never whole)."""
    buffer, position = first, first.index("[") + 1
    ended = False
    while True:
        position = _skip_separators(buffer, position)
        if position < len(buffer) and buffer[position] == "]":
            return
        try:
            value, end = _decoder.raw_decode(buffer, position)
        except ValueError as error:
            if ended or len(buffer) - position > MAX_ITEM_CHARS:
                raise CardDataError(f"malformed card data in the JSON array: {error}") from error
            more = next(texts, None)
            ended = more is None
            buffer = buffer[position:] + (more or "")  # drop what is consumed
            position = 0
            continue
        if not isinstance(value, dict):
            raise CardDataError("an item of the card data array is not a JSON object")
        yield value
        position = end


def _skip_separators(buffer: str, position: int) -> int:
    """Skip whitespace and the commas between array items."""
    while position < len(buffer) and buffer[position] in " \t\r\n,":
        position += 1
    return position


def records(chunks: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """Card objects from raw bulk-file bytes: gzip or not, JSON Lines or a JSON array."""
    texts = _text(decompressed(chunks))
    first = ""
    for text in texts:
        first += text
        if first.strip():
            break
    stripped = first.lstrip()
    if not stripped:
        raise CardDataError("the card data file is empty")
    if stripped[0] == "[":
        return _json_array(first, texts)
    return _json_lines(first, texts)


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
        os.replace(temporary, db_path)  # readers see the old file or the new, never half of one
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
) -> SyncResult:
    """Download Scryfall's oracle-cards bulk file into db_path unless the store is current.

    With redis_url and shared_dir (several instances, docs/several-instances.md): a file
    another instance already published for this updated_at is used instead of downloading
    it again, and a downloaded file is left in shared_dir and published for the others.
    """
    coordination = coordination_for(db_path, redis_url, shared_dir=shared_dir)
    client = client or ScryfallClient(api_url, user_agent=user_agent, limits=coordination.limits)
    bulk = client.bulk_data("oracle-cards")
    current = read_metadata(db_path)
    if not force and not is_newer(bulk["updated_at"], current):
        return SyncResult("unchanged", current)
    published = None if force else _published_file(coordination)
    if published is not None and not is_newer(bulk["updated_at"], StoreMetadata("", published[1], 0)):
        adopted = _build_from_shared(db_path, *published)
        if adopted is not None:
            return adopted
    # JSON Lines is Scryfall's only format since July 2026; the array is a fallback.
    url = bulk.get("jsonl_download_uri") or bulk.get("download_uri")
    if not url:
        raise CardDataError("Scryfall's bulk-data object offers no download URI")
    with client.download(url) as download, SharedCopy(coordination, bulk["updated_at"]) as shared:
        bar = _progress(download.length or bulk.get("size"), "cards sync")
        metadata = build_store(db_path, shared.tee(bar(download.chunks())), source="scryfall",
                               updated_at=bulk["updated_at"])
        shared.publish()
    return SyncResult("updated", metadata)


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
        metadata = build_store(db_path, _file_chunks(path), source="scryfall", updated_at=updated_at)
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


def _file_chunks(path: Path) -> Iterator[bytes]:
    """A local file's bytes in chunks."""
    with path.open("rb") as handle:
        while chunk := handle.read(READ_CHUNK):
            yield chunk


def _import_updated_at(path: Path) -> str:
    """updated_at for an imported file: a bulk-data.json beside it, else the file's mtime."""
    beside = path.with_name("bulk-data.json")
    try:
        return json.loads(beside.read_text(encoding="utf-8"))["updated_at"]
    except (OSError, ValueError, KeyError, TypeError):
        return datetime.fromtimestamp(path.stat().st_mtime).astimezone().isoformat()


def import_file(db_path: str | os.PathLike, path: str | os.PathLike, *, updated_at: str | None = None) -> SyncResult:
    """Build the store from a local bulk file (.jsonl.gz, .jsonl, .json, .json.gz): air-gapped CI."""
    path = Path(path)
    if not path.is_file():
        raise CardDataError(f"no such card data file: {path}")
    updated_at = updated_at or _import_updated_at(path)
    _timestamp(updated_at)  # refuse an unreadable timestamp before building anything
    bar = _progress(path.stat().st_size, "cards import")
    metadata = build_store(db_path, bar(_file_chunks(path)), source=f"file:{path.name}", updated_at=updated_at)
    return SyncResult("updated", metadata)
