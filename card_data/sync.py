"""The ways a store file gets built, each raising only CardDataError / CardDataUnavailable
and leaving the old store untouched on failure:

- `sync(settings)`: Scryfall's oracle-cards bulk file, when newer than the store (or a
  copy another instance published: shared_bulk.py);
- `adopt(settings)`: the bulk file the syncing instance published, never asking Scryfall;
- `import_file(db_path, path)`: a local bulk file, for air-gapped CI.

Each builds through building.build_store (build-and-swap) and, given BracketSources,
refreshes the bracket lists afterwards (bracket_lists.refresh).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from card_data.lists import refresh as bracket_lists
from card_data.scryfall.building import (
    SyncResult, build_store, download_uri, import_updated_at, is_newer, progress, timestamp,
)
from card_data.scryfall.client import ScryfallClient
from card_data.coordination import coordination_for
from card_data.errors import CardDataError
from card_data.settings import BracketSources, StoreSettings
from card_data.scryfall.shared_bulk import SharedCopy, build_from_shared, published_file
from card_data.store.cards import StoreMetadata, read_metadata
from card_data.streams import file_chunks

log = logging.getLogger(__name__)


def sync(
    settings: StoreSettings,
    *,
    client: ScryfallClient | None = None,
    force: bool = False,
    brackets: BracketSources | None = None,
) -> SyncResult:
    """Download Scryfall's oracle-cards bulk file into the store unless it is current.

    `client` defaults to one for settings.api_url and user_agent, on the store's budget.
    With redis_url and shared_dir (several instances, docs/deployment.md): a file
    another instance already published for this updated_at is used instead of downloading
    it again, and a downloaded file is left in shared_dir and published for the others.
    With `brackets`, the mass land denial and combo lists are refreshed afterwards too
    (whether the cards changed or not); a list that fails keeps its last good data.
    """
    db_path = settings.db_path
    coordination = coordination_for(settings)
    client = client or ScryfallClient(settings.api_url, user_agent=settings.user_agent, limits=coordination.limits)
    bulk = client.bulk_data("oracle-cards")
    current = read_metadata(db_path)
    if not force and current is not None and not is_newer(bulk["updated_at"], current):
        return _with_brackets(SyncResult("unchanged", current), db_path, brackets, client)
    published = None if force else published_file(coordination)
    if published is not None and not is_newer(bulk["updated_at"], StoreMetadata("", published[1], 0)):
        adopted = build_from_shared(db_path, *published)
        if adopted is not None:
            return _with_brackets(adopted, db_path, brackets, client)
    url = download_uri(bulk)
    with client.download(url) as download, SharedCopy(coordination, bulk["updated_at"]) as shared:
        bar = progress(download.length or bulk.get("size"), "cards sync")
        metadata = build_store(db_path, shared.tee(bar(download.chunks())), source="scryfall",
                               updated_at=bulk["updated_at"])
        shared.publish()
    return _with_brackets(SyncResult("updated", metadata), db_path, brackets, client)


def _with_brackets(result: SyncResult, db_path: Path, sources: BracketSources | None, client: ScryfallClient | None,
                   *, network: bool = True) -> SyncResult:
    """The result, after refreshing the bracket lists when sources are given."""
    if sources is None:
        return result
    refreshed = bracket_lists.refresh(db_path, sources, client=client if network else None, network=network)
    return SyncResult(result.status, result.metadata, refreshed)


def adopt(settings: StoreSettings) -> SyncResult | None:
    """Build the store from the bulk file the syncing instance published, when it is newer
    than the store; None when there is nothing newer (or no Redis, no shared folder).
    Never asks Scryfall: the instances that do not hold the sync lock call this."""
    published = published_file(coordination_for(settings))
    if published is None or not is_newer(published[1], read_metadata(settings.db_path)):
        return None
    return build_from_shared(settings.db_path, *published)


def import_file(
    db_path: str | os.PathLike,
    path: str | os.PathLike,
    *,
    updated_at: str | None = None,
    brackets: BracketSources | None = None,
) -> SyncResult:
    """Build the store from a local bulk file (.jsonl.gz, .jsonl, .json, .json.gz): air-gapped CI.

    With `brackets`, the lists that have a file override (MASS_LAND_DENIAL_FILE,
    COMBOS_FILE) are loaded too; an import never goes to the network.
    """
    path, db_path = Path(path), Path(db_path)
    if not path.is_file():
        raise CardDataError(f"no such card data file: {path}")
    updated_at = updated_at or import_updated_at(path)
    timestamp(updated_at)  # refuse an unreadable timestamp before building anything
    bar = progress(path.stat().st_size, "cards import")
    metadata = build_store(db_path, bar(file_chunks(path)), source=f"file:{path.name}", updated_at=updated_at)
    return _with_brackets(SyncResult("updated", metadata), db_path, brackets, None, network=False)
