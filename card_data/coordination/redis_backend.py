"""Several hosts' coordination (REDIS_URL set): Scryfall's request budget and lockout,
the one-sync-at-a-time lock and the published bulk file, shared by every instance through
Redis (DESIGN.md "Several instances", docs/deployment.md).

Every Redis operation is one atomic command or Lua script. Redis is a dependency, not a
single point of failure: when it cannot be reached, each call falls back to this host's
files (file_coordination.py; fail open: requests go on at the local budget), the outage
is logged once and counted (`status()`), and the next call after `RETRY_INTERVAL` tries
Redis again, so the instance reconnects on its own.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, TypeVar, cast

from card_data.coordination.files import (
    RATE_LIMITED_INTERVAL, SITE_INTERVAL, FileCoordination, FileDeckCache, FileSyncLock, RateLimits,
)

log = logging.getLogger(__name__)

NAMESPACE = "edh-deck-validator"
RETRY_INTERVAL = 1.0  # seconds between attempts to reach Redis while it is down
SOCKET_TIMEOUT = 0.5  # a Redis call slower than this counts as "Redis is down"
LOCK_TTL = 30.0  # a dead syncer's Redis lock expires after this long

T = TypeVar("T")


# Claim the budget at the moment of sending, on Redis's clock (hosts' clocks differ):
# 0 = claimed, else milliseconds to wait. KEYS[1] = next allowed send (ms), ARGV[1] = interval (ms).
_ACQUIRE_SLOT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local next_at = tonumber(redis.call('GET', KEYS[1]) or '0')
if now >= next_at then
  redis.call('SET', KEYS[1], now + tonumber(ARGV[1]), 'PX', 2 * tonumber(ARGV[1]) + 1000)
  return 0
end
return next_at - now
"""

# Keep a held lock: extend it when it is ours, re-take it when it vanished (Redis restarted
# empty), report 0 when another process has it. KEYS[1] = lock, ARGV = token, ttl (ms).
_RENEW_LOCK = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] or not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

_RELEASE_LOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisCoordination:
    """Budget, lockout, sync lock and the published bulk file, shared through Redis.

    `shared_dir` (optional) is a folder every instance mounts (a shared volume): the
    syncing instance leaves the downloaded bulk file there and publishes its name and
    updated_at in Redis; the others build their store from it instead of downloading.
    """

    backend = "redis"

    def __init__(self, redis_url: str, db_path: str | os.PathLike, *, shared_dir: str | os.PathLike | None = None,
                 namespace: str = NAMESPACE, lock_ttl: float = LOCK_TTL) -> None:
        import redis  # only instances that set REDIS_URL need the package
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._errors = (redis.RedisError, OSError)
        # One retry: the first command on a pooled connection that died with the server
        # fails; the retry reconnects. No backoff: a failing call must fail fast.
        self.redis = redis.Redis.from_url(
            redis_url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT,
            retry=Retry(NoBackoff(), 1), decode_responses=True,
        )
        self.db_path = Path(db_path)
        self.shared_dir = Path(shared_dir) if shared_dir else None
        self.namespace = namespace
        self.lock_ttl = lock_ttl
        self.fallback = FileCoordination(db_path)
        self._acquire_slot = self.redis.register_script(_ACQUIRE_SLOT)
        self._renew_lock = self.redis.register_script(_RENEW_LOCK)
        self._release_lock = self.redis.register_script(_RELEASE_LOCK)
        self._state_lock = threading.Lock()
        self._down_since: float | None = None
        self._next_try = 0.0
        self.outages = 0  # times Redis went away (each logged once)
        self.fallbacks = 0  # calls answered by the local fallback instead of Redis
        self.limits = RedisLimits(self)
        self._site_limits: dict[str, RedisLimits] = {}
        self._deck_cache: RedisDeckCache | None = None

    def key(self, name: str) -> str:
        """A key in this service's namespace."""
        return f"{self.namespace}:{name}"

    def call(self, operation: Callable[[], T], fallback: Callable[[], T]) -> T:
        """operation() against Redis; fallback() when Redis is down (fail open)."""
        with self._state_lock:
            skip = self._down_since is not None and time.monotonic() < self._next_try
        if not skip:
            try:
                result = operation()
            except self._errors as error:
                self._went_down(error)
            else:
                self._came_back()
                return result
        with self._state_lock:
            self.fallbacks += 1
        return fallback()

    def _went_down(self, error: Exception) -> None:
        """Remember the outage; log it once, not once a call."""
        with self._state_lock:
            self._next_try = time.monotonic() + RETRY_INTERVAL
            if self._down_since is not None:
                return
            self._down_since = time.monotonic()
            self.outages += 1
        log.warning("Redis unreachable (%s): limits and the sync lock fall back to this host until it returns",
                    error)

    def _came_back(self) -> None:
        """Log the end of an outage."""
        with self._state_lock:
            if self._down_since is None:
                return
            lasted = time.monotonic() - self._down_since
            self._down_since = None
        log.warning("Redis is back after %.1f s: limits and the sync lock are shared again", lasted)

    @property
    def up(self) -> bool:
        """False while an outage lasts (as of the last call)."""
        return self._down_since is None

    def site_limits(self, site: str) -> "RedisLimits":
        """A deck site's request budget and 429 lockout, shared by every instance."""
        if site not in self._site_limits:
            self._site_limits[site] = RedisLimits(self, f"site:{site}", self.fallback.site_limits(site), SITE_INTERVAL)
        return self._site_limits[site]

    def deck_cache(self) -> "RedisDeckCache":
        """Decks read from sites, kept in Redis for every instance (this host's files while it is down)."""
        if self._deck_cache is None:
            self._deck_cache = RedisDeckCache(self, self.fallback.deck_cache())
        return self._deck_cache

    def sync_lock(self, name: str = "sync-lock") -> "RedisSyncLock":
        """The cluster-wide one-sync-at-a-time lock."""
        return RedisSyncLock(self, self.key(name), self.fallback.sync_lock(), ttl=self.lock_ttl)

    def published_bulk(self, kind: str = "bulk") -> dict[str, str] | None:
        """{"updated_at", "file"} of the bulk file the last sync left in shared_dir, or None
        (`kind` "names": the card names table the last names sync left there)."""
        published: dict[str, str] = self.call(lambda: cast("dict[str, str]", self.redis.hgetall(self.key(kind))), dict)
        return published if published and {"updated_at", "file"} <= set(published) else None

    def publish_bulk(self, updated_at: str, file_name: str, kind: str = "bulk") -> None:
        """Tell the other instances which file in shared_dir holds the newest bulk data (or names)."""
        self.call(lambda: self.redis.hset(self.key(kind), mapping={"updated_at": updated_at, "file": file_name}),
                  lambda: None)

    def status(self) -> dict[str, Any]:
        """What /readyz and /metrics show: whether Redis answers, outages and fallbacks so far."""
        with self._state_lock:
            return {"backend": self.backend, "redis_up": self._down_since is None,
                    "redis_outages": self.outages, "redis_fallbacks": self.fallbacks}

    def close(self) -> None:
        """Close the connection pool."""
        self.redis.close()


class RedisLimits:
    """An upstream's budget and lockout in Redis (Scryfall's, or a deck site's: `name`);
    this host's file budget (`local`) while Redis is down."""

    def __init__(self, coordination: RedisCoordination, name: str = "scryfall", local: RateLimits | None = None,
                 interval: float = RATE_LIMITED_INTERVAL) -> None:
        self.coordination = coordination
        self.local = local or coordination.fallback.limits
        self.interval = interval
        self._next = coordination.key(f"{name}:next-request")
        self._lockout = coordination.key(f"{name}:lockout")

    def acquire_slot(self) -> float:
        """Claim the cluster's budget for a request sent now (see file_coordination.RateLimits)."""
        interval = round(self.interval * 1000)
        wait = self.coordination.call(  # Redis down: this host's budget
            lambda: int(self.coordination._acquire_slot([self._next], [interval])) / 1000, self.local.acquire_slot)
        if wait == 0 and self.coordination.up:
            self.local.mark_sent()  # should Redis go away now, the local budget knows
        return wait

    def lockout_remaining(self) -> float:
        """The lockout key's time to live (-2: no key, -1 cannot happen: it is set with PX)."""
        return self.coordination.call(
            lambda: max(0.0, int(self.coordination.redis.pttl(self._lockout)) / 1000), self.local.lockout_remaining)

    def lock_out(self, seconds: float) -> None:
        """Stop every instance for `seconds` (GT: never shorten a running lockout)."""
        self.local.lock_out(seconds)  # this host stays locked out even if Redis goes away now
        milliseconds = max(1, round(seconds * 1000))
        self.coordination.call(lambda: self._set_lockout(milliseconds), lambda: None)

    def _set_lockout(self, milliseconds: int) -> None:
        """SET the lockout unless a longer one runs (two commands, each atomic; the race
        between them can only lengthen or shorten a lockout by the gap between two 429s)."""
        redis = self.coordination.redis
        if redis.pttl(self._lockout) < milliseconds:
            redis.set(self._lockout, "1", px=milliseconds)


class RedisDeckCache:
    """Decks read from sites (card_data.sites' DeckCache) in Redis, each key expiring on its
    own; the right to fetch a deck is a SET NX PX key holding this process's token. While
    Redis is down, this host's folder (FileDeckCache) stands in."""

    def __init__(self, coordination: RedisCoordination, fallback: FileDeckCache) -> None:
        self.coordination = coordination
        self.fallback = fallback
        self._tokens: dict[str, str] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        """The entry, or None."""
        value = self.coordination.call(lambda: cast(str, self.coordination.redis.get(self._key(key)) or ""),
                                       lambda: (self.fallback.get(key) or b"").decode("utf-8"))
        return value.encode("utf-8") if value else None

    def put(self, key: str, value: bytes, seconds: float) -> None:
        """Keep an entry for `seconds` (UTF-8 JSON: the client decodes answers as text)."""
        milliseconds = max(1, round(seconds * 1000))
        self.coordination.call(lambda: self.coordination.redis.set(self._key(key), value.decode("utf-8"),
                                                                   px=milliseconds),
                               lambda: self.fallback.put(key, value, seconds))

    def claim(self, key: str, seconds: float) -> bool:
        """SET NX PX the key's fetch lock; False when another process holds it."""
        token = uuid.uuid4().hex
        milliseconds = max(1, round(seconds * 1000))
        taken = self.coordination.call(
            lambda: bool(self.coordination.redis.set(self._key(key, "fetching"), token, nx=True, px=milliseconds)),
            lambda: self.fallback.claim(key, seconds) and "local")
        if taken:
            with self._lock:
                self._tokens[key] = token if taken is True else "local"
        return bool(taken)

    def release(self, key: str) -> None:
        """Delete the fetch lock if it is still this process's."""
        with self._lock:
            token = self._tokens.pop(key, None)
        if token == "local":
            self.fallback.release(key)
        elif token is not None:
            self.coordination.call(lambda: self.coordination._release_lock([self._key(key, "fetching")], [token]),
                                   lambda: None)

    def _key(self, key: str, kind: str = "deck") -> str:
        return self.coordination.key(f"{kind}:{key}")


class RedisSyncLock:
    """SET NX PX with a random token, renewed by a daemon thread every ttl/3.

    The holder also keeps its host's flock, and while Redis is down the lock falls back to
    that flock: at most one syncer per host until Redis returns; then the first renewal re-takes the Redis lock if it is free
    and gives both up if another process took it meanwhile (held() turns False).
    """

    def __init__(self, coordination: RedisCoordination, key: str, fallback: FileSyncLock, *, ttl: float) -> None:
        self.coordination, self.key, self.fallback, self.ttl = coordination, key, fallback, ttl
        self.token = uuid.uuid4().hex
        self._held = False
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    def acquire(self) -> bool:
        """Take the Redis lock (or, Redis down, this host's flock) without blocking."""
        if self._held:
            return True
        taken = self.coordination.call(self._acquire_in_redis, self.fallback.acquire)
        if taken:
            self._held = True
            self._stop.clear()
            self._renewer = threading.Thread(target=self._renew_loop, name="sync-lock-renewal", daemon=True)
            self._renewer.start()
        return taken

    def _acquire_in_redis(self) -> bool:
        """SET NX; the winner also takes its host's flock (best effort), so that should
        Redis go away, no other process on this host starts syncing beside it."""
        taken = bool(self.coordination.redis.set(self.key, self.token, nx=True, px=self._ttl_ms()))
        if taken:
            self.fallback.acquire()
        return taken

    def held(self) -> bool:
        """Whether this process still holds the lock."""
        return self._held

    def release(self) -> None:
        """Stop renewing and delete the lock if it is still ours."""
        self._stop.set()
        if self._renewer is not None and self._renewer is not threading.current_thread():
            self._renewer.join(timeout=2 * SOCKET_TIMEOUT + 1)
        if self._held:
            self.coordination.call(lambda: self.coordination._release_lock([self.key], [self.token]), lambda: None)
        self.fallback.release()
        self._held = False

    def renew(self) -> bool:
        """Extend the lock (re-take it if Redis lost it); False once another process has it."""
        if not self._held:
            return False
        kept = self.coordination.call(
            lambda: bool(self.coordination._renew_lock([self.key], [self.token, self._ttl_ms()])),
            lambda: True,  # Redis down: keep syncing on the host's flock meanwhile
        )
        if not kept:
            log.warning("the sync lock %s was taken by another instance; this one stops syncing", self.key)
            self._stop.set()
            self.fallback.release()
            self._held = False
        return kept

    def _renew_loop(self) -> None:
        """Renew every ttl/3 until released or lost."""
        while not self._stop.wait(self.ttl / 3):
            if not self.renew():
                return

    def _ttl_ms(self) -> int:
        return max(1, round(self.ttl * 1000))
