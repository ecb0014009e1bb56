"""One host's coordination, the default (no REDIS_URL): Scryfall's request budget and 429
lockout in a small flock-guarded file next to the store (`RateLimits`), the one-sync-at-
a-time lock an flock on `<store>.sync-lock` (`FileSyncLock`), and nothing to publish:
every process reads the same store file (`FileCoordination`). The Redis twins
(redis_coordination.py) fall back to these while Redis is down.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import threading
import time
from pathlib import Path
from typing import Any, BinaryIO, Callable

# Scryfall rate limits (as of 2026-11): /cards/search, /cards/named, /cards/random and
# /cards/collection allow 2 requests a second; a 429 locks the client out for 30 s.
# Spaced 700 ms, not 500: requests sent exactly 500 ms apart were seen three to a second at
# the server, and at 550 ms one request in a run of 16 still arrived inside the window on
# a busy 2-core machine. A slot is claimed at the moment of sending (not reserved ahead), so
# only the claim-to-arrival delay can shorten a gap: `python -m bench jitter` measured it
# at 4-9 ms typically and 28-47 ms at worst with both cores busy (sleep overshoot: up to
# 83 ms); 700 ms keeps two requests >= 500 ms apart up to 200 ms of delay, and any three
# more than 1 s apart up to 400 ms (docs/deployment.md).
RATE_LIMITED_INTERVAL = 0.70
# Deck sites (Archidekt, Moxfield) are asked at most 2 requests a second each: spaced like
# Scryfall's rate-limited endpoints, for the same reason.
SITE_INTERVAL = RATE_LIMITED_INTERVAL


class RateLimits:
    """When the next rate-limited request may go, and when a 429 lockout ends (one host).

    With a path, the two times live in a small file guarded by flock, so every process
    using the same store (gunicorn workers, the CLI, a sync) shares one budget and one
    lockout: Scryfall counts requests per client, not per worker. Without a path they
    live in this object (one process). Times are wall-clock seconds, since processes
    share no monotonic clock. redis_coordination.RedisLimits is the same interface
    shared by every host through Redis (and falls back to this one when Redis is down).
    """

    def __init__(self, path: str | os.PathLike | None = None, interval: float = RATE_LIMITED_INTERVAL) -> None:
        self.path = os.fspath(path) if path is not None else None
        self.interval = interval  # between two requests, in seconds
        self._lock = threading.Lock()
        self._state = (0.0, 0.0)  # (next allowed request, end of lockout), for path=None

    def _update(self, change: Callable[[float, float, float], tuple[float, float]]) -> tuple[float, tuple[float, float]]:
        """Apply change(now, next_at, locked_until) -> new state atomically; return (now, result)."""
        with self._lock:
            fd = self._open()
            if fd is None:
                now = time.time()
                self._state = change(now, *self._state)
                return now, self._state
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                now = time.time()
                state = change(now, *_read_state(fd))
                os.lseek(fd, 0, os.SEEK_SET)
                os.ftruncate(fd, 0)
                os.write(fd, f"{state[0]:.6f} {state[1]:.6f}\n".encode())
                return now, state
            finally:
                os.close(fd)  # closing releases the flock

    @classmethod
    def for_store(cls, db_path: str | os.PathLike) -> "RateLimits":
        """The limits shared by every process using the store at db_path."""
        return cls(f"{os.fspath(db_path)}.scryfall-limits")

    def _open(self) -> int | None:
        """The shared limits file, or None to keep the state in this process."""
        if self.path is None:
            return None
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:  # e.g. the store's folder does not exist yet: fall back, never fail
            return None

    def acquire_slot(self) -> float:
        """Claim the budget for a request sent right now: 0.0 when claimed (send at once),
        else the seconds to wait before asking again (someone sent less than an interval ago).

        Claimed at the moment of sending, not reserved ahead: a sender delayed after its
        claim pushes the next one later instead of letting two requests bunch up.
        """
        wait = [0.0]

        def claim(now: float, next_at: float, locked: float) -> tuple[float, float]:
            if now >= next_at:
                return now + self.interval, locked
            wait[0] = next_at - now
            return next_at, locked

        self._update(claim)
        return wait[0]

    def mark_sent(self) -> None:
        """Count a request whose slot was claimed elsewhere (Redis), so that this budget
        goes on spacing requests if it has to take over (Redis gone)."""
        self._update(lambda now, next_at, locked: (max(next_at, now + self.interval), locked))

    def lockout_remaining(self) -> float:
        """Seconds left in a 429 lockout (0 when none)."""
        now, (_, locked_until) = self._update(lambda now, next_at, locked: (next_at, locked))
        return max(0.0, locked_until - now)

    def lock_out(self, seconds: float) -> None:
        """Start (or extend) a lockout of `seconds` from now."""
        self._update(lambda now, next_at, locked: (next_at, max(locked, now + seconds)))


def _read_state(fd: int) -> tuple[float, float]:
    """The (next allowed, lockout end) pair stored in a limits file; zeros if unreadable."""
    os.lseek(fd, 0, os.SEEK_SET)
    try:
        next_at, locked_until = (float(part) for part in os.read(fd, 64).split())
        return next_at, locked_until
    except ValueError:  # empty (new) or damaged file: no reservation, no lockout
        return 0.0, 0.0


class FileSyncLock:
    """An flock on `<store>.sync-lock`, held until release() or the process ends."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._handle: BinaryIO | None = None

    def acquire(self) -> bool:
        """Take the flock without blocking."""
        if self._handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+b")  # noqa: SIM115 - held until release()
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._handle = handle
        return True

    def held(self) -> bool:
        """An flock cannot be taken away while the descriptor is open."""
        return self._handle is not None

    def release(self) -> None:
        """Closing the descriptor releases the flock."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None


class FileDeckCache:
    """Decks read from sites (card_data.sites' DeckCache), one file an entry in a folder:
    an entry's expiry is its file's modification time, so a look needs one stat; the right
    to fetch a deck is an flock on its own file (a claimant that dies lets go with its
    process). Expired entries are swept at most once every PRUNE_SECONDS. Best effort: a
    folder that cannot be written is a cache that keeps nothing."""

    PRUNE_SECONDS = 60.0

    def __init__(self, folder: str | os.PathLike) -> None:
        self.folder = Path(folder)
        self._claims: dict[str, int] = {}
        self._lock = threading.Lock()
        self._pruned = 0.0

    def _path(self, key: str, suffix: str = ".json") -> Path:
        return self.folder / (hashlib.sha256(key.encode("utf-8")).hexdigest()[:40] + suffix)

    def get(self, key: str) -> bytes | None:
        """The entry, or None (none, expired, unreadable)."""
        path = self._path(key)
        try:
            if path.stat().st_mtime <= time.time():
                return None
            return path.read_bytes()
        except OSError:
            return None

    def put(self, key: str, value: bytes, seconds: float) -> None:
        """Keep an entry for `seconds` (written whole, then moved into place)."""
        path = self._path(key)
        spare = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            spare.write_bytes(value)
            expires = time.time() + seconds
            os.utime(spare, (expires, expires))
            os.replace(spare, path)
        except OSError:
            with contextlib.suppress(OSError):
                spare.unlink()
            return
        self._prune()

    def claim(self, key: str, seconds: float) -> bool:
        """Take the flock of the key's fetch without waiting; False when another holds it."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self._path(key, ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return True  # no folder to share: fetch, uncoordinated (the request budget still holds)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        with self._lock:
            self._claims[key] = fd
        return True

    def release(self, key: str) -> None:
        """Let go of the key's flock."""
        with self._lock:
            fd = self._claims.pop(key, None)
        if fd is not None:
            os.close(fd)

    def _prune(self) -> None:
        """Remove expired entries (and the lock files of decks no longer kept)."""
        now = time.time()
        if now - self._pruned < self.PRUNE_SECONDS:
            return
        self._pruned = now
        try:
            paths = list(self.folder.iterdir())
        except OSError:
            return
        kept = {path.stem for path in paths if path.suffix == ".json" and _mtime(path) > now}
        for path in paths:
            if path.stem not in kept and path.suffix in (".json", ".lock") and _mtime(path) < now - self.PRUNE_SECONDS:
                with contextlib.suppress(OSError):
                    path.unlink()


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


class FileCoordination:
    """The default: everything shared through files next to the store (one host)."""

    backend = "file"

    def __init__(self, db_path: str | os.PathLike) -> None:
        self.db_path = Path(db_path)
        self.limits = RateLimits.for_store(self.db_path)
        self.shared_dir: Path | None = None  # one host shares the store file itself
        self._site_limits: dict[str, RateLimits] = {}
        self._deck_cache: FileDeckCache | None = None

    def site_limits(self, site: str) -> RateLimits:
        """A deck site's request budget and 429 lockout, shared by every process of the store."""
        if site not in self._site_limits:
            self._site_limits[site] = RateLimits(f"{os.fspath(self.db_path)}.{site}-limits", interval=SITE_INTERVAL)
        return self._site_limits[site]

    def deck_cache(self) -> FileDeckCache:
        """Decks read from sites, kept in a folder next to the store."""
        if self._deck_cache is None:
            self._deck_cache = FileDeckCache(self.db_path.with_name(self.db_path.name + ".deck-cache"))
        return self._deck_cache

    def sync_lock(self) -> FileSyncLock:
        """The flock that elects one syncing process per store file."""
        return FileSyncLock(self.db_path.with_name(self.db_path.name + ".sync-lock"))

    def published_bulk(self, kind: str = "bulk") -> dict[str, str] | None:
        """Nothing to publish on one host: every process reads the same store file."""
        return None

    def publish_bulk(self, updated_at: str, file_name: str, kind: str = "bulk") -> None:
        """Nothing to publish on one host."""

    def status(self) -> dict[str, Any]:
        """What /readyz and /metrics show."""
        return {"backend": self.backend}

    def close(self) -> None:
        """Nothing to close."""
