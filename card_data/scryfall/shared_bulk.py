"""Several instances sharing one download (docs/deployment.md): the syncing instance
keeps the bulk file in CARD_DATA_SHARED_DIR as it streams past (`SharedCopy`) and
publishes its name and updated_at through the coordination (Redis); the others build
their store from it (`published_file`, `build_from_shared`) instead of asking Scryfall.
"""

from __future__ import annotations

import logging
import os
from datetime import timezone
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from card_data.scryfall.building import SyncResult, build_store, timestamp
from card_data.coordination import Coordination
from card_data.streams import file_chunks

log = logging.getLogger(__name__)


def published_file(coordination: Coordination) -> tuple[Path, str] | None:
    """(path, updated_at) of the bulk file published in the shared folder, if it is there."""
    published = coordination.published_bulk()
    if published is None or coordination.shared_dir is None:
        return None
    path = coordination.shared_dir / Path(published["file"]).name  # a bare name, never a path
    timestamp(published["updated_at"])  # refuse garbage before building anything
    return (path, published["updated_at"]) if path.is_file() else None


def build_from_shared(db_path: str | os.PathLike, path: Path, updated_at: str) -> SyncResult | None:
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

    def __init__(self, coordination: Coordination, updated_at: str) -> None:
        self.coordination = coordination
        self.updated_at = updated_at
        folder = coordination.shared_dir if coordination.backend == "redis" else None
        digits = timestamp(updated_at).astimezone(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
        self.path = folder / f"oracle-cards-{digits}.bulk" if folder else None
        self.partial = folder / f".oracle-cards-{digits}.{os.getpid()}.part" if folder else None
        self._handle: BinaryIO | None = None

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
        if self._handle is None or self.partial is None or self.path is None:
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
