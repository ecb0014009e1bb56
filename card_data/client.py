"""ScryfallClient: the one place that speaks HTTP to Scryfall.

One requests.Session with honest headers, (connect, read) timeouts and urllib3 retries
for 5xx and connection errors. Scryfall's rate limits are enforced here, across threads
and (through a small flock-guarded file next to the store) across processes, and a 429
locks every client of that store out for 30 s instead of retrying. Every
requests/urllib3 error is translated into CardDataError / CardDataUnavailable here.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import threading
import time
from importlib import metadata
from typing import TYPE_CHECKING, Any, Iterable, Iterator
from urllib.parse import urlsplit

import requests
import urllib3.exceptions
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from card_data.errors import CardDataError, CardDataNotFound, CardDataUnavailable
from card_data.streams import cut, size_text

if TYPE_CHECKING:
    from card_data.coordination import Limits

DEFAULT_API_URL = "https://api.scryfall.com"

# Scryfall rate limits (as of 2026-11): /cards/search, /cards/named, /cards/random and
# /cards/collection allow 2 requests a second; a 429 locks the client out for 30 s.
# Spaced 700 ms, not 500: requests sent exactly 500 ms apart were seen three to a second at
# the server, and at 550 ms one request in a run of 16 still arrived inside the window on
# a busy 2-core machine. A slot is claimed at the moment of sending (not reserved ahead), so
# only the claim-to-arrival delay can shorten a gap: `python -m bench jitter` measured it
# at 4-9 ms typically and 28-47 ms at worst with both cores busy (sleep overshoot: up to
# 83 ms); 700 ms keeps two requests >= 500 ms apart up to 200 ms of delay, and any three
# more than 1 s apart up to 400 ms (docs/several-instances.md).
RATE_LIMITED_INTERVAL = 0.70
LOCKOUT_SECONDS = 30
COLLECTION_BATCH = 75  # identifiers per POST /cards/collection
# The one search we make (otag:mass-land-denial, about 106 cards) is one page of 175; an
# endless has_more chain stops here, and so many cards at most are kept from a search.
MAX_SEARCH_PAGES = 20
SEARCH_PAGE_SIZE = 175
MAX_SEARCH_CARDS = MAX_SEARCH_PAGES * SEARCH_PAGE_SIZE
# A JSON answer is read into memory whole (decompressed), so it is capped: a 175-card search
# page is about 1 MB, a 75-card collection answer half that, a bulk-data object 1 KB.
MAX_ANSWER_BYTES = 4 << 20
MAX_DETAILS_CHARS = 200  # of an error object's details, quoted in our own error messages
# What callers should wait after a timeout, connection error or 5xx that survived retries.
UNAVAILABLE_RETRY_AFTER = 30

DEFAULT_TIMEOUT = (3.05, 30.0)  # (connect, read) seconds; a bulk download streams past 30 s fine
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF = 0.5
DOWNLOAD_CHUNK = 64 * 1024


def project_version() -> str:
    """This project's installed version (for the User-Agent)."""
    try:
        return metadata.version("edh-deck-validator")
    except metadata.PackageNotFoundError:
        return "0.1.0"


def default_user_agent() -> str:
    """The User-Agent Scryfall asks for: this project's name and version."""
    return f"edh-deck-validator/{project_version()}"


def make_session(user_agent: str, retries: int = DEFAULT_RETRIES, backoff: float = DEFAULT_BACKOFF) -> requests.Session:
    """A Session with our headers and retries on 5xx and connection errors (never on 429)."""
    session = requests.Session()
    session.headers.update({"User-Agent": user_agent, "Accept": "application/json;q=0.9,*/*;q=0.8"})
    retry = Retry(
        total=retries,
        connect=retries,
        read=1,  # a read timeout is retried once: a stuck server rarely recovers quickly
        status=retries,
        backoff_factor=backoff,
        status_forcelist=(500, 502, 503, 504),
        allowed_methods=frozenset({"GET", "POST"}),  # /cards/collection is a read
        respect_retry_after_header=False,  # never sit out a 429 inside a request
    )
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("https://", adapter)
    session.mount("http://", adapter)  # the local test server
    return session


class RateLimits:
    """When the next rate-limited request may go, and when a 429 lockout ends (one host).

    With a path, the two times live in a small file guarded by flock, so every process
    using the same store (gunicorn workers, the CLI, a sync) shares one budget and one
    lockout: Scryfall counts requests per client, not per worker. Without a path they
    live in this object (one process). Times are wall-clock seconds, since processes
    share no monotonic clock. card_data.coordination.RedisLimits is the same interface
    shared by every host through Redis (and falls back to this one when Redis is down).
    """

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        self.path = os.fspath(path) if path is not None else None
        self._lock = threading.Lock()
        self._state = (0.0, 0.0)  # (next allowed request, end of lockout), for path=None

    def _update(self, change) -> tuple[float, float]:
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
                return now + RATE_LIMITED_INTERVAL, locked
            wait[0] = next_at - now
            return next_at, locked

        self._update(claim)
        return wait[0]

    def mark_sent(self) -> None:
        """Count a request whose slot was claimed elsewhere (Redis), so that this budget
        goes on spacing requests if it has to take over (Redis gone)."""
        self._update(lambda now, next_at, locked: (max(next_at, now + RATE_LIMITED_INTERVAL), locked))

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


class ScryfallClient:
    """Scryfall's API: bulk-data objects, bulk downloads and batched /cards/collection lookups."""

    def __init__(
        self,
        api_url: str = DEFAULT_API_URL,
        *,
        user_agent: str | None = None,
        session: requests.Session | None = None,
        timeout: tuple[float, float] = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        backoff: float = DEFAULT_BACKOFF,
        limits: "Limits | None" = None,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self.session = session or make_session(user_agent or default_user_agent(), retries, backoff)
        self.timeout = timeout
        self.limits = limits or RateLimits()

    # -- rate limiting ------------------------------------------------------------------

    def _check_lockout(self) -> None:
        """Refuse to send anything while a 429 lockout lasts."""
        remaining = self.limits.lockout_remaining()
        if remaining > 0:
            raise CardDataUnavailable(
                f"Scryfall rate limit: card data unavailable, retry after {math.ceil(remaining)} s",
                math.ceil(remaining),
            )

    def _wait_for_slot(self) -> None:
        """Space rate-limited requests RATE_LIMITED_INTERVAL apart across threads and processes
        (and hosts, with Redis): wait until a slot can be claimed, then send at once."""
        while (delay := self.limits.acquire_slot()) > 0:
            time.sleep(delay)  # outside any lock; then ask again (another waiter may win)

    def _lock_out(self) -> CardDataUnavailable:
        """Remember a 429 and build the error to raise."""
        self.limits.lock_out(LOCKOUT_SECONDS)
        return CardDataUnavailable(
            f"Scryfall rate limit (429): card data unavailable, retry after {LOCKOUT_SECONDS} s",
            LOCKOUT_SECONDS,
        )

    # -- requests -----------------------------------------------------------------------

    def _request(self, method: str, url: str, *, limited: bool = False, **kwargs: Any) -> requests.Response:
        """Send one request; translate every transport error; 429 and error objects raise."""
        self._check_lockout()
        if limited:
            self._wait_for_slot()
            self._check_lockout()  # another thread may have hit a 429 while we waited
        try:
            response = self.session.request(method, url, timeout=self.timeout, **kwargs)
        except requests.exceptions.RetryError as error:
            raise CardDataUnavailable(f"Scryfall kept failing ({url}): {error}", UNAVAILABLE_RETRY_AFTER) from error
        except (requests.exceptions.Timeout, requests.exceptions.ConnectionError) as error:
            raise CardDataUnavailable(f"Scryfall unreachable ({url}): {error}", UNAVAILABLE_RETRY_AFTER) from error
        except requests.exceptions.RequestException as error:
            raise CardDataError(f"request to Scryfall failed ({url}): {error}") from error
        if response.status_code == 429:
            response.close()
            raise self._lock_out()
        if response.status_code >= 400:
            raise self._error_for(response, url)
        return response

    @staticmethod
    def _error_for(response: requests.Response, url: str) -> CardDataError:
        """A CardDataError carrying Scryfall's error object details (cut short) when there is one."""
        try:
            details = _decoded(_answer_bytes(response, url), url).get("details") or response.reason
        except (CardDataError, AttributeError):
            details = response.reason
        finally:
            response.close()
        message = f"Scryfall answered {response.status_code} for {url}: {cut(str(details), MAX_DETAILS_CHARS)}"
        if response.status_code >= 500:
            return CardDataUnavailable(message, UNAVAILABLE_RETRY_AFTER)
        if response.status_code == 404:
            return CardDataNotFound(message)
        return CardDataError(message)

    def _json(self, method: str, url: str, **kwargs: Any) -> dict[str, Any]:
        """A request whose answer must be a JSON object (of at most MAX_ANSWER_BYTES)."""
        response = self._request(method, url, stream=True, **kwargs)
        try:
            body = _decoded(_answer_bytes(response, url), url)
        except BaseException:
            response.close()  # an answer refused half-read must not go back to the pool
            raise
        if not isinstance(body, dict):
            raise CardDataError(f"Scryfall sent an unexpected JSON value ({url})")
        return body

    def bulk_data(self, bulk_type: str = "oracle-cards") -> dict[str, Any]:
        """The bulk-data object for one type (GET /bulk-data/{type})."""
        body = self._json("GET", f"{self.api_url}/bulk-data/{bulk_type}")
        updated_at = body.get("updated_at")
        if body.get("object") != "bulk_data" or not isinstance(updated_at, str) or not updated_at:
            raise CardDataError(f"Scryfall's bulk-data answer for {bulk_type} is not a bulk_data object")
        return body

    def download(self, url: str) -> "Download":
        """Start streaming a bulk file; use as a context manager and iterate over raw chunks."""
        return Download(self._request("GET", url, stream=True), url)

    def fetch_collection(self, names: Iterable[str]) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
        """Look names up with POST /cards/collection, 75 a request, 2 requests a second.

        Returns ((name asked, card object) pairs, names Scryfall did not find).
        """
        names = list(dict.fromkeys(names))
        found: list[tuple[str, dict[str, Any]]] = []
        not_found: list[str] = []
        for start in range(0, len(names), COLLECTION_BATCH):
            batch = names[start:start + COLLECTION_BATCH]
            body = self._json(
                "POST", f"{self.api_url}/cards/collection", limited=True,
                json={"identifiers": [{"name": name} for name in batch]},
            )
            batch_found, batch_missing = _match_collection(batch, body)
            found += batch_found
            not_found += batch_missing
        return found, not_found

    def search(self, query: str) -> Iterator[dict[str, Any]]:
        """Every card a search matches (GET /cards/search, following next_page, 2 requests a second).

        Scryfall answers 404 when no card matches: that raises CardDataNotFound. A chain of
        pages is followed only on this API's own search endpoint, never to a page it already
        gave, for MAX_SEARCH_PAGES pages and MAX_SEARCH_CARDS cards at most.
        """
        url, params = f"{self.api_url}/cards/search", {"q": query}
        followed: set[str] = set()
        cards = 0
        for _ in range(MAX_SEARCH_PAGES):
            body = self._json("GET", url, limited=True, params=params)
            if body.get("object") != "list" or not isinstance(body.get("data"), list):
                raise CardDataError(f"Scryfall's answer to the search {query!r} is not a list")
            page = [card for card in body["data"] if isinstance(card, dict)]
            cards += len(page)
            if cards > MAX_SEARCH_CARDS:
                raise CardDataError(f"Scryfall's search {query!r} returned over {MAX_SEARCH_CARDS:,} cards: refused")
            yield from page
            if not body.get("has_more"):
                return
            url, params = self._next_page(body.get("next_page"), query, followed), None  # next_page carries the query
        raise CardDataError(f"Scryfall's search {query!r} has more than {MAX_SEARCH_PAGES} pages")

    def _next_page(self, url: Any, query: str, followed: set[str]) -> str:
        """A search page's next_page, when it is a new page of this API's search endpoint."""
        if not isinstance(url, str) or not url:
            raise CardDataError(f"Scryfall's search {query!r} says has_more but gives no next_page")
        page, base = urlsplit(url), urlsplit(self.api_url)
        if (page.scheme, page.netloc.lower(), page.path) != (base.scheme, base.netloc.lower(),
                                                              f"{base.path.rstrip('/')}/cards/search"):
            raise CardDataError(f"Scryfall's search {query!r} gave a next_page away from {self.api_url}/cards/search: "
                                "not followed")
        if url in followed:
            raise CardDataError(f"Scryfall's search {query!r} gave a next_page it had given before (a loop): "
                                "not followed")
        followed.add(url)
        return url


def _answer_bytes(response: requests.Response, url: str) -> bytes:
    """The body of a JSON answer, decompressed, refused past MAX_ANSWER_BYTES (urllib3
    inflates a compressed answer a bounded piece at a time)."""
    length = response.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > MAX_ANSWER_BYTES:
        raise CardDataError(f"Scryfall's answer ({url}) is over {size_text(MAX_ANSWER_BYTES)}: refused")
    pieces, size = [], 0
    try:
        for piece in response.iter_content(DOWNLOAD_CHUNK):
            size += len(piece)
            if size > MAX_ANSWER_BYTES:
                raise CardDataError(f"Scryfall's answer ({url}) is over {size_text(MAX_ANSWER_BYTES)}: refused")
            pieces.append(piece)
    except (requests.exceptions.Timeout, requests.exceptions.ConnectionError) as error:
        raise CardDataUnavailable(f"Scryfall's answer broke off ({url}): {error}", UNAVAILABLE_RETRY_AFTER) from error
    except (requests.exceptions.RequestException, urllib3.exceptions.HTTPError, OSError) as error:
        raise CardDataError(f"Scryfall's answer could not be read ({url}): {error}") from error
    return b"".join(pieces)


def _decoded(body: bytes, url: str) -> Any:
    """A JSON answer's value; too deep a nesting is refused like any malformed answer."""
    try:
        return json.loads(body)
    except RecursionError as error:
        raise CardDataError(f"Scryfall's answer ({url}) is nested too deeply: refused") from error
    except MemoryError as error:
        raise CardDataError(f"ran out of memory reading Scryfall's answer ({url})") from error
    except ValueError as error:  # UnicodeDecodeError too
        raise CardDataError(f"Scryfall sent something that is not JSON ({url})") from error


def _match_collection(batch: list[str], body: dict[str, Any]) -> tuple[list[tuple[str, dict]], list[str]]:
    """Pair asked names with returned cards: `data` is in request order minus `not_found`."""
    missing = {(item or {}).get("name") for item in body.get("not_found") or ()}
    cards = iter(card for card in body.get("data") or () if isinstance(card, dict))
    found, not_found = [], []
    for name in batch:
        card = None if name in missing else next(cards, None)
        if card is None:
            not_found.append(name)
        else:
            found.append((name, card))
    return found, not_found


class Download:
    """A streaming bulk-file response: the bytes exactly as sent, and their expected size."""

    def __init__(self, response: requests.Response, url: str) -> None:
        self.response = response
        self.url = url
        length = response.headers.get("Content-Length", "")
        self.length = int(length) if length.isdigit() else None

    def __enter__(self) -> "Download":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.response.close()

    def chunks(self) -> Iterator[bytes]:
        """Raw body chunks; gzip is left alone whatever Content-Encoding says (sync sniffs it)."""
        encoding = self.response.headers.get("Content-Encoding", "").strip().lower()
        # Let urllib3 undo only encodings we would not recognise by magic bytes (deflate, br).
        decode = encoding not in ("", "identity", "gzip", "x-gzip")
        try:
            yield from self.response.raw.stream(DOWNLOAD_CHUNK, decode_content=decode)
        except (urllib3.exceptions.HTTPError, requests.exceptions.RequestException, OSError) as error:
            raise CardDataError(f"the download of {self.url} broke off: {error}") from error
