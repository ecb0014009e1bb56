"""Build-and-swap: a new store file built from bulk bytes next to CARD_DB, then os.replace()
over it, so readers see the old file or the new, never half of one. A failed, truncated
or malformed file (records.py refuses it) leaves the old store untouched.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable, Iterator
from urllib.parse import urlsplit

from card_data.store import list_tables as bracket_tables, names_table
from card_data.errors import CardDataError
from card_data.scryfall.records import records
from card_data.store.cards import StoreBuilder, StoreMetadata
from card_data.streams import read_capped

MAX_BULK_OBJECT_BYTES = 64 << 10  # a bulk-data.json beside an imported file: Scryfall's is under 1 KB
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SyncResult:
    """What a sync or import did: "updated" or "unchanged", the store's metadata, and what
    happened to each bracket list when they were refreshed too (list name -> Refresh)."""

    status: str
    metadata: StoreMetadata
    brackets: dict | None = None  # list name -> bracket_lists.Refresh


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
        bracket_tables.carry_over(db_path, temporary)  # the bracket lists outlive a card-data update
        names_table.carry_over(db_path, temporary)  # so do the names printed in other languages
        os.replace(temporary, db_path)  # readers see the old file or the new, never half of one
    except MemoryError as error:  # whatever a file holds, a failed build is a failed sync, not a crash
        builder.abort()
        raise CardDataError("ran out of memory building the card store: the last good store stays") from error
    except BaseException:
        builder.abort()
        raise
    return metadata


def timestamp(value: str) -> datetime:
    """An ISO 8601 updated_at (Scryfall writes "+00:00" offsets and milliseconds)."""
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as error:
        raise CardDataError(f"unreadable updated_at {value!r}") from error


def is_newer(candidate: str, current: StoreMetadata | None) -> bool:
    """Whether a bulk file's updated_at is newer than the store's."""
    return current is None or timestamp(candidate) > timestamp(current.updated_at)


def progress(total: int | None, description: str) -> Callable[[Iterable[bytes]], Iterator[bytes]]:
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


def download_uri(bulk: dict) -> str:
    """The file a bulk-data object offers: JSON Lines (Scryfall's only format since July
    2026), else the JSON array; CardDataError when it offers no http(s) URL."""
    url = bulk.get("jsonl_download_uri") or bulk.get("download_uri")
    if not url:
        raise CardDataError("Scryfall's bulk-data object offers no download URI")
    if not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https"):
        raise CardDataError("Scryfall's bulk-data object's download URI is no http(s) URL")
    return url


def import_updated_at(path: Path) -> str:
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
