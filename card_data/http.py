"""HTTP for every upstream card_data reads (Scryfall, Commander Spellbook): one Session
shape (honest headers, (connect, read) timeouts, urllib3 retries for 5xx and connection
errors, never for a 429), the one place a requests/urllib3 error or an error status
becomes CardDataError / CardDataUnavailable, and the streamed download both clients hand
out. Nothing above card_data sees a requests exception.

Every exchange is held to a total `Deadline` by a `Cutoff`: the (connect, read) timeouts
bound each wait for a byte, but a server that drips one byte at a time never trips them,
so the cutoff watches the exchange's connections and shuts their sockets when its
deadline passes (DeadlinePassed, a CardDataUnavailable).
"""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator

import requests
import urllib3.exceptions
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.util.retry import Retry

from card_data.errors import BudgetSpent, CardDataError, CardDataNotFound, CardDataUnavailable, DeadlinePassed

DEFAULT_TIMEOUT = (3.05, 30.0)  # (connect, read) seconds; a bulk download streams past 30 s fine
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF = 0.5
DOWNLOAD_CHUNK = 64 * 1024
# What callers should wait after a timeout, connection error, 429 or 5xx that survived
# retries (when the upstream's answer says nothing itself).
UNAVAILABLE_RETRY_AFTER = 30
# Total bounds on one exchange, whatever the server's pace: a JSON answer (a bulk-data
# object, a search page, a collection batch: under 1 MB) and a streamed file (Scryfall's
# all_cards, about 390 MB, takes minutes on a slow line; a sync past this gives up and
# keeps the last good data).
ANSWER_SECONDS = 60.0
DOWNLOAD_SECONDS = 30 * 60.0


class Deadline:
    """A moment (time.monotonic) an upstream's answers must be over by: a request's budget
    for card look-ups, shared by everything the request asks, or one answer's own bound."""

    __slots__ = ("seconds", "at")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def remaining(self) -> float:
        """Seconds left (0.0 once passed)."""
        return max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        """Whether the moment has passed."""
        return time.monotonic() >= self.at

    def within(self, seconds: float) -> Deadline:
        """This deadline, or one `seconds` from now when that comes first."""
        sooner = Deadline(seconds)
        return sooner if sooner.at < self.at else self


_CUTOFF: ContextVar[Cutoff | None] = ContextVar("card_data_cutoff", default=None)


class Cutoff:
    """Holds one exchange with an upstream to a Deadline.

    Use as a context manager around the whole exchange (the request and the reading of its
    answer) and send the request inside `watching()`: every connection the request opens
    or reuses is then known, and a timer shuts their sockets when the deadline passes, so
    a blocked read ends at once. Leaving the block after that raises DeadlinePassed (from
    whatever error the cut caused, or alone: a cut answer may also look like a short one),
    and so does an error raised past the deadline before the timer's thread has run (a
    socket's timeout, set to the time left, can end a read a hair before the cut).
    """

    def __init__(self, deadline: Deadline, upstream: str) -> None:
        self.deadline = deadline
        self.upstream = upstream
        self.fired = False
        self._connections: list[HTTPConnection] = []
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def __enter__(self) -> Cutoff:
        remaining = self.deadline.remaining()
        if remaining <= 0:  # spent before anything was sent
            raise BudgetSpent(f"no time left to ask {self.upstream} (a budget of {self.deadline.seconds:g} s)",
                              UNAVAILABLE_RETRY_AFTER)
        self._timer = threading.Timer(remaining, self._cut)
        self._timer.daemon = True
        self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        self.stop()
        late = self.fired or (isinstance(error, Exception) and self.deadline.remaining() <= 0)
        if late and not isinstance(error, DeadlinePassed):
            raise self.error() from error

    def stop(self) -> None:
        """Stand the timer down (the exchange is over)."""
        if self._timer is not None:
            self._timer.cancel()

    def error(self) -> DeadlinePassed:
        """The error for an exchange past its deadline."""
        return DeadlinePassed(f"{self.upstream} did not answer within {self.deadline.seconds:g} s",
                              UNAVAILABLE_RETRY_AFTER)

    def timeout(self, timeout: tuple[float, float]) -> tuple[float, float]:
        """The (connect, read) timeouts, neither past the deadline."""
        remaining = max(self.deadline.remaining(), 0.001)
        return min(timeout[0], remaining), min(timeout[1], remaining)

    @contextmanager
    def watching(self) -> Iterator[Cutoff]:
        """Connections opened or used inside this block are shut when the deadline passes."""
        token = _CUTOFF.set(self)
        try:
            yield self
        finally:
            _CUTOFF.reset(token)

    def watch(self, connection: HTTPConnection) -> None:
        """Called by a connection as it connects or sends (shut at once when already late)."""
        with self._lock:
            self._connections.append(connection)
            late = self.fired
        if late:
            _shut(connection)

    def _cut(self) -> None:
        with self._lock:
            self.fired = True
            connections = list(self._connections)
        for connection in connections:
            _shut(connection)


def _shut(connection: HTTPConnection) -> None:
    """End a connection's socket for both directions: a blocked recv returns at once."""
    sock = getattr(connection, "sock", None)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already closed


class _Watched:
    """A connection that reports itself to the Cutoff in force (if any) as it connects and
    as it sends, so a reused keep-alive connection is watched too."""

    def connect(self) -> None:
        cutoff = _CUTOFF.get()
        if cutoff is not None:
            cutoff.watch(self)  # type: ignore[arg-type]
        super().connect()  # type: ignore[misc]
        if cutoff is not None and cutoff.fired:  # cut while connecting: the socket is new
            _shut(self)  # type: ignore[arg-type]

    def request(self, *args: Any, **kwargs: Any) -> None:
        if (cutoff := _CUTOFF.get()) is not None:
            cutoff.watch(self)  # type: ignore[arg-type]
        super().request(*args, **kwargs)  # type: ignore[misc]


class _CutoffRetry(Retry):
    """urllib3's Retry, its backoff never sleeping past the deadline of the Cutoff in force."""

    def get_backoff_time(self) -> float:
        backoff = super().get_backoff_time()
        cutoff = _CUTOFF.get()
        return backoff if cutoff is None else min(backoff, cutoff.deadline.remaining())


class _WatchedHTTPConnection(_Watched, HTTPConnection):
    pass


class _WatchedHTTPSConnection(_Watched, HTTPSConnection):
    pass


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class _WatchedAdapter(HTTPAdapter):
    """requests' adapter, its pools making connections a Cutoff can watch."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _WatchedHTTPPool, "https": _WatchedHTTPSPool}


RETRY_STATUSES = (500, 502, 503, 504)


def make_session(user_agent: str, retries: int = DEFAULT_RETRIES, backoff: float = DEFAULT_BACKOFF, *,
                 retry_statuses: tuple[int, ...] = RETRY_STATUSES) -> requests.Session:
    """A Session with our headers and retries on `retry_statuses` and connection errors
    (never on 429); `retry_statuses=()` hands every status back as an answer."""
    session = requests.Session()
    session.headers.update({"User-Agent": user_agent, "Accept": "application/json;q=0.9,*/*;q=0.8"})
    retry = _CutoffRetry(
        total=retries,
        connect=retries,
        read=1,  # a read timeout is retried once: a stuck server rarely recovers quickly
        status=retries,
        backoff_factor=backoff,
        status_forcelist=retry_statuses,
        allowed_methods=frozenset({"GET", "POST"}),  # /cards/collection is a read
        respect_retry_after_header=False,  # never sit out a 429 inside a request
    )
    adapter = _WatchedAdapter(max_retries=retry)
    session.mount("https://", adapter)
    session.mount("http://", adapter)  # the local test server
    return session


def send(session: requests.Session, method: str, url: str, *, upstream: str, **kwargs: Any) -> requests.Response:
    """session.request(...), every transport error translated: retries exhausted, a
    timeout or a refused connection is CardDataUnavailable, anything else CardDataError.
    `upstream` names the service in the messages ("Scryfall")."""
    try:
        return session.request(method, url, **kwargs)
    except requests.exceptions.RetryError as error:
        raise CardDataUnavailable(f"{upstream} kept failing ({url}): {error}", UNAVAILABLE_RETRY_AFTER) from error
    except (requests.exceptions.Timeout, requests.exceptions.ConnectionError) as error:
        raise CardDataUnavailable(f"{upstream} unreachable ({url}): {error}", UNAVAILABLE_RETRY_AFTER) from error
    except requests.exceptions.RequestException as error:
        raise CardDataError(f"request to {upstream} failed ({url}): {error}") from error


def status_error(status: int, message: str, retry_after: int = UNAVAILABLE_RETRY_AFTER) -> CardDataError:
    """The error for an answer of status >= 400: a 429 or 5xx is CardDataUnavailable (come
    back after retry_after), a 404 CardDataNotFound, any other CardDataError."""
    if status == 429 or status >= 500:
        return CardDataUnavailable(message, retry_after)
    if status == 404:
        return CardDataNotFound(message)
    return CardDataError(message)


def cut_download(cutoff: Cutoff, url: str, start: Callable[[], requests.Response]) -> Download:
    """A Download of `start()`'s streamed response, held to the cutoff's deadline from the
    request on (start sends inside cutoff.watching()); the cutoff stands down if it fails."""
    cutoff.__enter__()
    try:
        response = start()
    except BaseException as error:
        cutoff.__exit__(type(error), error, error.__traceback__)
        raise
    return Download(response, url, cutoff)


class Download:
    """A streaming bulk-file response: the bytes exactly as sent, and their expected size.

    With a Cutoff (entered by whoever sent the request), the whole download, reading
    included, ends by its deadline: leaving the block then raises DeadlinePassed.
    """

    def __init__(self, response: requests.Response, url: str, cutoff: Cutoff | None = None) -> None:
        self.response = response
        self.url = url
        self.cutoff = cutoff
        length = response.headers.get("Content-Length", "")
        self.length = int(length) if length.isdigit() else None

    def __enter__(self) -> "Download":
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        self.response.close()
        if self.cutoff is not None:
            self.cutoff.__exit__(kind, error, trace)

    def chunks(self) -> Iterator[bytes]:
        """Raw body chunks; gzip is left alone whatever Content-Encoding says (streams.py sniffs it)."""
        encoding = self.response.headers.get("Content-Encoding", "").strip().lower()
        # Let urllib3 undo only encodings we would not recognise by magic bytes (deflate, br).
        decode = encoding not in ("", "identity", "gzip", "x-gzip")
        try:
            yield from self.response.raw.stream(DOWNLOAD_CHUNK, decode_content=decode)
        except (urllib3.exceptions.HTTPError, requests.exceptions.RequestException, OSError) as error:
            if self.cutoff is not None and self.cutoff.fired:
                raise self.cutoff.error() from error
            raise CardDataError(f"the download of {self.url} broke off: {error}") from error
        if self.cutoff is not None and self.cutoff.fired:  # the cut may read as the end of the body
            raise self.cutoff.error()
