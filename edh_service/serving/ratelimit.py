"""The per-client request budget (RATELIMIT), counted with the `limits` library, and its
wiring into the app (`init_app`: which requests count, the 429).

`limits` is the counting engine flask-limiter wraps; used directly, a limited request costs
about 6 µs instead of flask-limiter's ~60 µs (its per-request limit resolution, exemption
scopes and request context), a tenth of a whole validation.

One budget per client address, shared by every limited request (`is_limited` says
which). Over it: 429 with Retry-After, the seconds until the client's window resets.
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
from typing import Any, Callable, cast

from flask import Flask, Request, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from validator.messages import msg

log = logging.getLogger(__name__)

LIMITER_KEY = "limiter"  # app.extensions key of the ClientBudget (None: no limit)
NAMESPACE = "edh-deck-validator"  # prefix of the counters' keys, beside other apps' in one Redis
REDIS_TIMEOUTS = {"socket_timeout": 0.5, "socket_connect_timeout": 0.5}  # a hung Redis must not hang requests
MAX_RECHECK_SECONDS = 32


class SweptMemoryStorage(MemoryStorage):
    """limits' memory storage with its expired counters swept in a request's own thread, at
    most once every SWEEP_SECONDS: limits starts a 10 ms threading.Timer whenever none is
    running, which under steady traffic meant a new thread every few requests (issue 24:
    seen in the per-request profile). A client's own counter still expires when it is read
    (MemoryStorage.get), so the sweep only bounds the memory other clients' counters hold."""

    SWEEP_SECONDS = 1.0
    _next_sweep = 0.0

    def _MemoryStorage__schedule_expiry(self) -> None:  # the hook MemoryStorage.incr calls
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + self.SWEEP_SECONDS
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]  # MemoryStorage's own, name-mangled


class ClientBudget:
    """The RATELIMIT budget of each client, in a storage with an in-memory fallback."""

    def __init__(self, spec: str, storage_uri: str, *, on_fallback: Callable[[], None] = lambda: None) -> None:
        self.spec = spec
        self.items: list[RateLimitItem] = parse_many(spec)
        self.shared = not storage_uri.startswith("memory://")
        options = REDIS_TIMEOUTS if storage_uri.startswith(("redis://", "rediss://", "redis+unix://")) else {}
        self.storage: Storage = SweptMemoryStorage() if storage_uri == "memory://" else \
            cast(Storage, storage_from_string(storage_uri, **options))  # a synchronous scheme
        self.counter = FixedWindowRateLimiter(self.storage)
        self.fallback = FixedWindowRateLimiter(SweptMemoryStorage())
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


def is_limited(served: Request) -> bool:
    """The API and the page's form post validate decks: those are what a client may overuse."""
    # A CORS preflight (OPTIONS) validates nothing; limiting it would halve a browser
    # client's budget and turn a 429 into an opaque CORS failure in the page that sent it.
    method = served.method
    if method == "OPTIONS":
        return False
    path = served.path
    return path.startswith("/api/") or (method == "POST" and path == "/")


def init_app(app: Flask, *, on_fallback: Callable[[], None] = lambda: None) -> None:
    """Install the per-client budget (app.extensions[LIMITER_KEY]; None when
    RATELIMIT_ENABLED is off). `on_fallback` counts each request counted in memory because
    the shared storage is down (observability's edh_rate_limit_fallbacks_total)."""
    app.extensions[LIMITER_KEY] = build_limiter(app, on_fallback)


def build_limiter(app: Flask, on_fallback: Callable[[], None] = lambda: None) -> ClientBudget | None:
    """One per-client budget (by address) shared by every limited request; 429 with
    Retry-After beyond it. None when RATELIMIT_ENABLED is off."""
    if not app.config["RATELIMIT_ENABLED"]:
        return None
    budget = ClientBudget(app.config["RATELIMIT"], limit_storage_uri(app.config), on_fallback=on_fallback)
    app.before_request(lambda: check_rate_limit(budget))
    return budget


def check_rate_limit(budget: ClientBudget) -> None:
    """Count this request against its client's budget; 429 with Retry-After when over it."""
    served = request._get_current_object()  # type: ignore[attr-defined]  # one look-up through the context proxy
    if not is_limited(served):
        return
    seconds = budget.hit(served.remote_addr or "unknown")
    if seconds is not None:
        text = msg("Too many requests: at most {limit} per client.", limit=str(budget.spec))
        error = TooManyRequests(text.english(), retry_after=seconds)
        error.text = text  # type: ignore[attr-defined]  # the error envelope says it in the request's language (api/errors.py)
        raise error


def limit_storage_uri(config: Any) -> str:
    """RATELIMIT_STORAGE_URI when set; else REDIS_URL (several instances share one budget
    per client; `limits` spells redis-py's unix:// as redis+unix://); else memory:// (one
    budget per process)."""
    redis = config["REDIS_URL"]
    if redis and redis.startswith("unix://"):
        redis = "redis+" + redis
    return config["RATELIMIT_STORAGE_URI"] or redis or "memory://"


def limit_storage_dead(budget: ClientBudget | None) -> bool:
    """Whether the budget is being counted in memory because its shared storage is down."""
    return budget is not None and budget.storage_dead
