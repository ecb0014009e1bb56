"""Refused bodies must not break connections (issue 15).

A request whose body the app did not read (a 413 over MAX_CONTENT_LENGTH, answered before
the body arrives) leaves those bytes on the connection. gunicorn drains at most 64 KiB
of them after the answer, then closes the socket it had just announced as keep-alive:
the next request a keep-alive client (requests.Session, a site's connection pool) sends
on it failed about one time in three, and a client still sending a 1.3 MB body read a
connection reset (the kernel's answer to closing a socket with unread data) instead of
the 413.

`DrainUnreadBodies` wraps the WSGI app: before the answer goes out, it reads and
discards whatever the app left of the body, up to `drain_limit` bytes and `DRAIN_SECONDS`
(Content-Length or chunked alike: gunicorn's wsgi.input decodes both). A body drained to
its end leaves a clean keep-alive connection. A bigger one gets its answer, then the
socket is half-closed (FIN after the answer) and lingers reading what the client still
sends for a bounded while, so the answer arrives before the close; and the answer says
`Connection: close`, so the client's pool does not send another request on it.

gunicorn decides `Connection:` itself (it drops the app's); its `pre_request` hook
(gunicorn_conf.py) hands the request to `remember_request`, and `close_after_answer`
marks it to close, which gunicorn reads when it sends the headers.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Callable, Iterable, Iterator

from gunicorn.http.errors import ParseException
from werkzeug.exceptions import BadRequest

# A refused body up to this many times MAX_CONTENT_LENGTH is read to its end before the 413
# goes out, so the connection stays usable; beyond, half-close.
DRAIN_FACTOR = 8
DRAIN_SECONDS = 5.0  # the longest the app reads a refused body before answering
LINGER_SECONDS = 2.0  # after a half-close: how long to read what the client still sends
CHUNK = 65536

_serving = threading.local()  # gunicorn's request being served by this thread
BODY_STOPPED_KEY = "edh.body_stopped"  # environ key: see body_stopped()
# Set on gunicorn's request by gunicorn_worker.BufferingWorker when the body was too big to
# buffer: it is still on the socket, and the poller lingers for it after the answer.
BODY_LEFT_ON_SOCKET = "edh_body_left_on_socket"


def remember_request(request: Any) -> None:
    """gunicorn's pre_request hook: the request this thread is about to serve."""
    _serving.request = request


def body_stopped(environ: dict) -> None:
    """A read of this request's body failed (gunicorn's CLIENT_TIMEOUT cut off a client that
    stopped sending, or it left): close after the answer, without draining or lingering.
    Another read would wait a whole CLIENT_TIMEOUT again, and the rest of the body, should
    it come, must not be read as the next request."""
    environ[BODY_STOPPED_KEY] = True


def body_left_on_socket() -> bool:
    """Whether the request being served left its body unread on the socket (see
    BODY_LEFT_ON_SOCKET): reading it here would hold this thread as long as the client likes."""
    return bool(getattr(getattr(_serving, "request", None), BODY_LEFT_ON_SOCKET, False))


def close_after_answer() -> None:
    """Make gunicorn answer `Connection: close` and close after this answer (no-op
    outside gunicorn)."""
    request = getattr(_serving, "request", None)
    if request is not None:
        request.must_close = True


class DrainUnreadBodies:
    """WSGI middleware: discard the unread rest of each request body, up to a bound."""

    def __init__(self, app: Callable, drain_limit: Callable[[], int]) -> None:
        self.app = app
        self.drain_limit = drain_limit  # bytes; read at each request (the app's config)

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        sock = environ.get("gunicorn.socket")
        if sock is not None and environ.get("wsgi.input") is not None:
            environ["wsgi.input"] = CheckedBody(environ["wsgi.input"])
        result = self.app(environ, start_response)
        # Only gunicorn's wsgi.input ends where the body ends (Content-Length or chunked);
        # another server's (werkzeug's development server) may be the bare socket.
        if sock is None:
            return result
        if environ.get(BODY_STOPPED_KEY) or body_left_on_socket():  # read no more of it here
            close_after_answer()
            return result
        stream = environ.get("wsgi.input")
        if getattr(stream, "ended", False) or drain(stream, self.drain_limit()):  # read to its end: nothing left
            return result
        close_after_answer()
        return HalfCloseAfter(result, sock)


def drain(stream: Any, limit: int) -> bool:
    """Read and discard `stream` to its end; False when it goes on past `limit` bytes or
    `DRAIN_SECONDS` (the caller must then not reuse the connection)."""
    if stream is None:
        return True
    deadline = time.monotonic() + DRAIN_SECONDS
    drained = 0
    try:
        while True:
            data = stream.read(CHUNK)
            if not data:
                return True
            drained += len(data)
            if drained > limit or time.monotonic() > deadline:
                return False
    except (OSError, ValueError, BadRequest):  # the client went away, or a malformed chunk
        return False


class CheckedBody:
    """gunicorn's wsgi.input, whose parse errors (a malformed chunk size, a chunk without its
    CRLF: gunicorn's ParseException, no OSError) are a 400 for the app's error handlers;
    reaching the app's body read, they were a 500. Once broken, every later read says so
    again: what gunicorn's reader returns after its error is no part of the body."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.broken: str | None = None
        self.ended = False  # a read gave the rest of the body: nothing is left to drain

    def _read(self, method: str, *args: Any) -> Any:
        if self.broken is None:
            try:
                return getattr(self.stream, method)(*args)
            except ParseException as error:
                self.broken = f"The request body's framing is malformed ({error})."
        raise BadRequest(self.broken)

    def read(self, size: int | None = None) -> bytes:
        """Like gunicorn's Body.read."""
        data = self._read("read", size)
        if size is None or size < 0 or (size and not data):  # all of it, or nothing more
            self.ended = True
        return data

    def readline(self, size: int | None = None) -> bytes:
        """Like gunicorn's Body.readline."""
        return self._read("readline", size)

    def readlines(self, size: int | None = None) -> list[bytes]:
        """Like gunicorn's Body.readlines."""
        return self._read("readlines", size)

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.readline, b"")


class HalfCloseAfter:
    """The app's answer, then FIN and a bounded linger (RFC 9112 section 9.6) on close()."""

    def __init__(self, result: Iterable[bytes], sock: socket.socket) -> None:
        self.result = result
        self.sock = sock

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.result)

    def close(self) -> None:
        """gunicorn calls this once the answer is written."""
        try:
            if hasattr(self.result, "close"):
                self.result.close()
        finally:
            linger(self.sock)


def linger(sock: socket.socket) -> None:
    """Half-close, then read until the client closes or LINGER_SECONDS pass; gunicorn closes
    the socket afterwards (the next read sees the end of the stream)."""
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        return
    deadline = time.monotonic() + LINGER_SECONDS
    previous = sock.gettimeout()
    try:
        while (remaining := deadline - time.monotonic()) > 0:
            sock.settimeout(remaining)
            if not sock.recv(CHUNK):
                break
    except OSError:  # timeout or reset: stop lingering
        pass
    finally:
        try:
            sock.settimeout(previous)
        except OSError:
            pass
