"""The table of names printed in other languages: how it is built and kept (DESIGN.md "Card
names in other languages").

- `refresh(settings, sources)`: after the oracle sync (the background job, `cards sync`):
  when the table is older than `sources.refresh_seconds` (weekly), Scryfall's `all_cards`
  bulk file (GET {base}/bulk-data/all-cards) is streamed, when newer than the table, and
  distilled into the store (or CARD_NAMES_FILE is read instead). With several instances
  the syncing one publishes the distilled file in the shared folder (`adopt` installs it
  elsewhere). Any failure (a truncated file, a 404, a 429, a bound of streams.py or
  names_sources.py) keeps the last good table and is recorded for `cards status`.
- `import_names(db_path, path)`: a local file (`cards import-names`, CARD_NAMES_FILE).

Every way in streams the objects (names_sources.name_objects) into a names file
(names_table.NamesFile) and installs it in one transaction: memory stays flat whatever
the file's size.
"""

from __future__ import annotations

import logging
import os
import shutil
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterable, Iterator

from card_data.store import names_table
from card_data.scryfall.building import is_newer, progress, timestamp
from card_data.scryfall.client import ScryfallClient
from card_data.coordination import coordination_for
from card_data.errors import CardDataError
from card_data.names.sources import name_objects
from card_data.store.names_table import NamesFile, NamesStatus
from card_data.names.printed import rows_of
from card_data.settings import NameSources, StoreSettings
from card_data.store.cards import StoreMetadata
from card_data.streams import file_chunks
from card_data.scryfall.building import download_uri, import_updated_at

log = logging.getLogger(__name__)
BULK_TYPE = "all-cards"
PUBLISHED = "names"  # the coordination's key for the published names file
KEEP = 2  # published names files kept in the shared folder


@dataclass(frozen=True, slots=True)
class NamesRefresh:
    """What a refresh did: "updated", "unchanged" (nothing newer), "skipped" (not due),
    "off" (no languages), or "failed" (the last table stays; `error` says why)."""

    status: str
    names: NamesStatus
    error: str | None = None


def distill(db_path: str | os.PathLike, objects: Iterable[dict], *, source: str, updated_at: str,
            languages: frozenset[str] | None = None, keep: Path | None = None) -> NamesStatus:
    """Build the table from card objects and install it in the store; the distilled file is
    moved to `keep` when given (the shared folder's copy), else deleted."""
    db_path = Path(db_path)
    temporary = db_path.with_name(f".{db_path.name}.{os.getpid()}.names")
    names = NamesFile(temporary)
    try:
        for item in objects:
            names.add(rows_of(item, languages))
        names.finish(source, updated_at, languages)
        status = names_table.install(db_path, temporary)
    except MemoryError as error:
        names.abort()
        raise CardDataError("ran out of memory building the card names: the last table stays") from error
    except BaseException:
        names.abort()
        raise
    if keep is not None:
        try:
            keep.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(temporary, keep)
        except OSError as error:
            log.warning("cannot keep the card names in %s for the other instances: %s", keep, error)
    temporary.unlink(missing_ok=True)
    return status


def import_names(db_path: str | os.PathLike, *paths: str | os.PathLike, languages: frozenset[str] | None = None,
                 updated_at: str | None = None) -> NamesStatus:
    """Load local names files, one table from them all (Scryfall objects as JSON Lines, gzip
    or not, a JSON list or a list object; or MTGJSON files with foreignData) into the store.
    `updated_at` defaults to the newest file's (a bulk-data.json beside it, else its mtime)."""
    files = [Path(path) for path in paths]
    for path in files:
        if not path.is_file():
            raise CardDataError(f"no such card names file: {path}")
    if not files:
        raise CardDataError("no card names file given")
    updated_at = updated_at or max((import_updated_at(path) for path in files), key=timestamp)
    timestamp(updated_at)

    def objects() -> Iterator[dict]:
        for path in files:
            bar = progress(path.stat().st_size, "cards import-names")
            yield from name_objects(bar(file_chunks(path)))

    return distill(db_path, objects(), source=",".join(f"file:{path.name}" for path in files),
                   updated_at=updated_at, languages=languages)


def due(status: NamesStatus, sources: NameSources, now: datetime | None = None) -> bool:
    """Whether the table should be looked at again: none yet, other languages than wanted,
    or its last refresh or check older than sources.refresh_seconds (0: never again)."""
    if not status.loaded or not _same_languages(status, sources):
        return True
    if sources.refresh_seconds == 0:
        return False
    last = max(filter(None, (status.refreshed_at, status.checked_at, status.failed_at)))
    now = now or datetime.now(timezone.utc)
    return now - timestamp(last) >= timedelta(seconds=sources.refresh_seconds)


def _same_languages(status: NamesStatus, sources: NameSources) -> bool:
    """The table was built for the wanted languages."""
    return status.built_for == names_table.built_for(sources.wanted())


def refresh(settings: StoreSettings, sources: NameSources, *, client: ScryfallClient | None = None,
            force: bool = False) -> NamesRefresh:
    """Bring the store's names table up to date when it is due; never raises for a failed
    source (the last table stays, the failure is recorded and returned)."""
    db_path = settings.db_path
    current = names_table.read_status(db_path)
    if sources.off:
        return NamesRefresh("off", current)
    if not force and not due(current, sources):
        return NamesRefresh("skipped", current)
    try:
        if sources.names_file:
            return _from_file(db_path, Path(sources.names_file), sources, current, force)
        return _from_scryfall(settings, sources, current, client, force)
    except CardDataError as error:  # CardDataUnavailable (a 429, an outage) too
        log.warning("card names refresh failed, the last table stays: %s", error)
        names_table.record_failure(db_path, str(error))
        return NamesRefresh("failed", names_table.read_status(db_path), str(error))


def _from_file(db_path: Path, path: Path, sources: NameSources, current: NamesStatus, force: bool) -> NamesRefresh:
    """CARD_NAMES_FILE: imported when newer than the table (or for other languages)."""
    if not path.is_file():
        raise CardDataError(f"CARD_NAMES_FILE {path} is no file")
    updated_at = import_updated_at(path)
    if not force and current.loaded and _same_languages(current, sources) and not _newer(updated_at, current):
        names_table.record_checked(db_path)
        return NamesRefresh("unchanged", names_table.read_status(db_path))
    return NamesRefresh("updated", import_names(db_path, path, languages=sources.wanted(), updated_at=updated_at))


def _newer(updated_at: str, current: NamesStatus) -> bool:
    return current.updated_at is None or is_newer(updated_at, StoreMetadata("", current.updated_at, 0))


def _from_scryfall(settings: StoreSettings, sources: NameSources, current: NamesStatus,
                   client: ScryfallClient | None, force: bool) -> NamesRefresh:
    """Scryfall's all_cards file when newer than the table; a copy another instance published
    for that updated_at is installed instead of downloading it again."""
    db_path = settings.db_path
    coordination = coordination_for(settings)
    client = client or ScryfallClient(settings.api_url, user_agent=settings.user_agent, limits=coordination.limits)
    bulk = client.bulk_data(BULK_TYPE)
    fresh = current.loaded and _same_languages(current, sources)
    if not force and fresh and not _newer(bulk["updated_at"], current):
        names_table.record_checked(db_path)
        return NamesRefresh("unchanged", names_table.read_status(db_path))
    published = _published(settings)
    if published is not None and not force and published[1] == bulk["updated_at"]:
        return NamesRefresh("updated", names_table.install(db_path, published[0]))
    url = download_uri(bulk)
    keep = _shared_path(settings, bulk["updated_at"])
    with client.download(url) as download:
        bar = progress(download.length or bulk.get("size"), "cards names")
        status = distill(db_path, name_objects(bar(download.chunks())), source="scryfall:all_cards",
                         updated_at=bulk["updated_at"], languages=sources.wanted(), keep=keep)
    if keep is not None and keep.is_file():
        coordination.publish_bulk(bulk["updated_at"], keep.name, kind=PUBLISHED)
        for stale in sorted(keep.parent.glob("card-names-*.sqlite3"), key=lambda p: p.stat().st_mtime,
                            reverse=True)[KEEP:]:
            stale.unlink(missing_ok=True)
    return NamesRefresh("updated", status)


def _shared_path(settings: StoreSettings, updated_at: str) -> Path | None:
    """Where the syncing instance leaves the distilled names for the others (Redis and a
    shared folder only: one host's processes share the store file itself)."""
    coordination = coordination_for(settings)
    if coordination.backend != "redis" or coordination.shared_dir is None:
        return None
    digits = timestamp(updated_at).astimezone(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    return coordination.shared_dir / f"card-names-{digits}.sqlite3"


def _published(settings: StoreSettings) -> tuple[Path, str] | None:
    """(path, updated_at) of the names file the syncing instance published, if it is there."""
    coordination = coordination_for(settings)
    published = coordination.published_bulk(PUBLISHED)
    if published is None or coordination.shared_dir is None:
        return None
    path = coordination.shared_dir / Path(published["file"]).name  # a bare name, never a path
    timestamp(published["updated_at"])
    return (path, published["updated_at"]) if path.is_file() else None


def adopt(settings: StoreSettings, sources: NameSources) -> NamesStatus | None:
    """Install the names the syncing instance published when newer than the store's table;
    None when there is nothing newer. Never asks Scryfall."""
    if sources.off:
        return None
    try:
        published = _published(settings)
        current = names_table.read_status(settings.db_path)
        if published is None or (current.loaded and not _newer(published[1], current)):
            return None
        return names_table.install(settings.db_path, published[0])
    except CardDataError as error:
        log.warning("published card names not adopted: %s", error)
        return None
