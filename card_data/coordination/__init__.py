"""What the instances of the service share, behind one small interface: Scryfall's
request budget and 429 lockout (`Limits`), the one-sync-at-a-time lock (`SyncLock`),
which bulk file the last sync published, and for decks read from links each site's budget
(`site_limits(site)`) and the deck cache (`deck_cache()`, card_data.sites' DeckCache). DESIGN.md "Several instances",
docs/deployment.md.

Two backends:

- `file_coordination.FileCoordination` (no REDIS_URL, the default): one host. The budget
  and lockout live in a flock-guarded file next to the store (`RateLimits`), the sync
  lock is an flock on `<store>.sync-lock`.
- `redis_coordination.RedisCoordination` (REDIS_URL set): the same, shared by every host
  through Redis, falling back to the file backend while Redis is down.

`coordination_for(settings)` returns this process's one object per store and Redis: the
repository's Scryfall client, the sync and its lock (edh_service's background sync) and
/readyz and /metrics (`status()`) all use it.

May import: card_data's base modules (errors, settings, streams) alone; never scryfall,
lists, names, the facade (sync, repository) or edh_service.
"""

from __future__ import annotations

import os
import threading
from typing import Protocol

from card_data.coordination.files import FileCoordination
from card_data.coordination.redis_backend import RedisCoordination
from card_data.settings import StoreSettings

Coordination = FileCoordination | RedisCoordination


class Limits(Protocol):
    """Scryfall's request budget and 429 lockout (client.ScryfallClient calls these)."""

    def acquire_slot(self) -> float:
        """0.0: the slot is claimed, send now; else seconds to wait before asking again."""

    def lockout_remaining(self) -> float:
        """Seconds left in a 429 lockout (0 when none)."""

    def lock_out(self, seconds: float) -> None:
        """Start (or extend) a lockout of `seconds` from now."""


class SyncLock(Protocol):
    """The one-sync-at-a-time lock: whoever holds it runs the bulk sync."""

    def acquire(self) -> bool:
        """Try to take the lock without blocking; True when this process holds it."""

    def held(self) -> bool:
        """Whether the lock is still this process's (check before each sync)."""

    def release(self) -> None:
        """Give the lock up (also on shutdown)."""


# -- one per process -------------------------------------------------------------------------

_instances: dict[tuple, Coordination] = {}
_instances_lock = threading.Lock()


def coordination_for(settings: StoreSettings) -> Coordination:
    """The coordination for a store: Redis when settings.redis_url is set, else files (the
    default).

    One object per (store, URL, folder) and process, so the repository, the sync and
    /metrics see the same connection pool and the same outage counts.
    """
    db_path, redis_url, shared_dir = settings.db_path, settings.redis_url, settings.shared_dir
    key = (os.fspath(db_path), redis_url, os.fspath(shared_dir) if shared_dir else None)
    with _instances_lock:
        if key not in _instances:
            _instances[key] = (RedisCoordination(redis_url, db_path, shared_dir=shared_dir) if redis_url
                               else FileCoordination(db_path))
        return _instances[key]
