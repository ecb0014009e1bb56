"""The per-client request budget (RATELIMIT), counted with the `limits` library.

`limits` is the counting engine flask-limiter wraps; used directly, a limited request costs
about 6 µs instead of flask-limiter's ~60 µs (its per-request limit resolution, exemption
scopes and request context), a tenth of a whole validation.

One budget per client address, shared by every limited request (observability.is_limited
says which). Over it: 429 with Retry-After, the seconds until the client's window resets.
The counts live in RATELIMIT_STORAGE_URI, else REDIS_URL (several instances share one
budget), else this process's memory. When a shared storage cannot be reached the budget is
counted in this process's memory meanwhile (fail open: the same limit, per process); the
storage is asked again after 1, 2, 4 ... 32 s, and used again once it answers.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import Callable

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter

log = logging.getLogger(__name__)

NAMESPACE = "edh-deck-validator"  # prefix of the counters' keys, beside other apps' in one Redis
REDIS_TIMEOUTS = {"socket_timeout": 0.5, "socket_connect_timeout": 0.5}  # a hung Redis must not hang requests
MAX_RECHECK_SECONDS = 32


class ClientBudget:
    """The RATELIMIT budget of each client, in a storage with an in-memory fallback."""

    def __init__(self, spec: str, storage_uri: str, *, on_fallback: Callable[[], None] = lambda: None) -> None:
        self.spec = spec
        self.items: list[RateLimitItem] = parse_many(spec)
        self.shared = not storage_uri.startswith("memory://")
        options = REDIS_TIMEOUTS if storage_uri.startswith(("redis://", "rediss://", "redis+unix://")) else {}
        self.storage: Storage = storage_from_string(storage_uri, **options)
        self.counter = FixedWindowRateLimiter(self.storage)
        self.fallback = FixedWindowRateLimiter(MemoryStorage())
        self.on_fallback = on_fallback  # called for each request counted in the fallback
        self.storage_dead = False  # counting in memory because the shared storage failed
        self._recheck_at = 0.0
        self._failures = 0
        self._lock = threading.Lock()

    def hit(self, client: str) -> int | None:
        """Count one request of `client`; None when it is within budget, else the whole
        seconds (at least 1) until its window resets."""
        counter = self._counter()
        try:
            return self._hit(counter, client)
        except Exception:  # noqa: BLE001 - any storage failure: fail open, never a 500
            if counter is self.fallback or not self.shared:  # memory failing: nothing to fall back to
                log.exception("rate limit: counting failed; letting the request through")
                return None
            self._storage_failed()
            return self._hit(self.fallback, client)

    def _hit(self, counter: FixedWindowRateLimiter, client: str) -> int | None:
        """hit() on one counter: the first exhausted limit gives the wait."""
        if counter is self.fallback and self.shared:
            self.on_fallback()
        for item in self.items:
            if not counter.hit(item, NAMESPACE, client):
                reset = counter.get_window_stats(item, NAMESPACE, client).reset_time
                return max(1, math.ceil(reset - time.time()))
        return None

    def _counter(self) -> FixedWindowRateLimiter:
        """The shared storage's counter, or the fallback while it is down (asked again now
        and then, one thread at a time)."""
        if not self.storage_dead:
            return self.counter
        if time.monotonic() >= self._recheck_at and self._lock.acquire(blocking=False):
            try:
                if self._storage_answers():
                    log.info("rate limit storage recovered: counting in it again")
                    self.storage_dead, self._failures = False, 0
                    return self.counter
                self._failures += 1
                self._recheck_at = time.monotonic() + min(2 ** self._failures, MAX_RECHECK_SECONDS)
            finally:
                self._lock.release()
        return self.fallback

    def _storage_answers(self) -> bool:
        """Whether the shared storage answers now."""
        try:
            return bool(self.storage.check())
        except Exception:  # noqa: BLE001 - still down
            return False

    def _storage_failed(self) -> None:
        """Switch to the in-memory fallback (logged once per outage); ask again in 1 s."""
        with self._lock:
            if not self.storage_dead:
                log.warning("rate limit storage unreachable: counting in this process's memory meanwhile")
                self.storage_dead, self._failures = True, 0
                self._recheck_at = time.monotonic() + 1
