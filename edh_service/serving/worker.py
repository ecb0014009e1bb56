"""The gunicorn worker of `make run` and the Docker image: gthread, with each request read
whole by the worker's poller before a thread serves it (issue 19).

gthread hands a connection to a thread as soon as its first bytes arrive, and the thread
reads the rest with blocking reads. With one thread a worker (GUNICORN_THREADS), two
clients sending a header line (or a body byte) every few seconds held both workers for as
long as they kept at it: CLIENT_TIMEOUT bounds one read, not the request, and the image
listens on 0.0.0.0 with no proxy in front. Here the main loop reads every request with
non-blocking reads, between its other events, until `Framing` says the head and the
body are all there; only then does a thread parse and serve it (from those bytes: it
never waits on the socket). A client that takes longer than REQUEST_DEADLINE seconds
from its first byte gets a 408 and the connection is closed, having held no thread.
This is the buffering a proxy such as HAProxy (`option http-buffer-request`, `timeout
http-request`) gives, in the process itself, so a deployment without one is safe too.

Bounds: a head over HEAD_LIMIT is a 431; a body is buffered up to
connections.DRAIN_FACTOR x MAX_CONTENT_LENGTH (the app refuses anything over
MAX_CONTENT_LENGTH with a 413, and a body read to its end keeps the connection usable);
a bigger one goes to the app at once with its body left on the socket, and the connection
closes after the 413. All requests still arriving in one worker hold at most
BUFFER_BUDGET_FACTOR bodies' worth of bytes; past that the one asking for more gets a
503. A connection closed after an answer lingers in the poller (RFC 9112 section 9.6),
not in the main loop's blocking close that gthread does.

TLS, HTTP/2 (prior knowledge) and other cases the scan does not know are left to
gthread's own reading, bounded per read by CLIENT_TIMEOUT.
"""

from __future__ import annotations

import errno
import json
import os
import re
import selectors
import socket
import time
from dataclasses import dataclass, field
from enum import Enum
from functools import partial

from gunicorn.http2 import negotiation
from gunicorn.workers import gthread

from edh_service.serving import connections
from edh_service.config import defaults, from_environment

HEAD_LIMIT = 64 * 1024  # request line and header fields together (gunicorn's own line limit is 4094)
CHUNK_LINE_LIMIT = 1024  # a chunk-size line with extensions
RECV_SIZE = 1024 * 1024  # what one non-blocking read may take (fewer reads, fewer GIL hand-offs)
BUFFER_BUDGET_FACTOR = 8  # buffered bodies per worker: 8 x 8 MiB by default
CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}\Z")
LENGTH = re.compile(rb"[0-9]{1,18}\Z")
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


class Verdict(Enum):
    """What the bytes received so far say about one request."""

    WAIT = "wait"  # more is to come
    COMPLETE = "complete"  # head and body are all there
    HAND_OVER = "hand over"  # not for the scan to judge: gunicorn or the app answers from the head
    HEAD_TOO_LARGE = "head too large"


@dataclass
class Framing:
    """Where one HTTP/1.x request ends (RFC 9112 section 6), scanned as its bytes arrive:
    each call looks only at what it has not looked at yet."""

    body_limit: int
    head_end: int | None = None  # offset just past the empty line ending the head
    length: int = 0  # Content-Length (0: no body)
    chunked: bool = False
    expects_continue: bool = False
    _searched: int = 0
    _chunk_at: int = 0  # offset of the next chunk-size line
    _body: int = 0  # chunk bytes seen so far

    def scan(self, data: bytes | bytearray) -> Verdict:
        """The verdict on `data`, the request's bytes from its first one."""
        if self.head_end is None:
            end = data.find(b"\r\n\r\n", max(0, self._searched - 3))
            if end < 0:
                if data.find(b"\n\n", max(0, self._searched - 1)) >= 0:  # bare LF line ends:
                    return Verdict.HAND_OVER  # gunicorn's parser refuses them
                self._searched = len(data)
                return Verdict.HEAD_TOO_LARGE if len(data) > HEAD_LIMIT else Verdict.WAIT
            if end > HEAD_LIMIT:
                return Verdict.HEAD_TOO_LARGE
            self.head_end = end + 4
            verdict = self._read_head(bytes(data[:end]))
            if verdict is not None:
                return verdict
            self._chunk_at = self.head_end
        if self.chunked:
            return self._scan_chunks(data)
        return Verdict.COMPLETE if len(data) >= self.head_end + self.length else Verdict.WAIT

    def _read_head(self, head: bytes) -> Verdict | None:
        """Read the framing fields; a verdict when the head alone decides."""
        lines = head.split(b"\r\n")
        if lines[0] == b"":  # RFC 9112 section 2.2: one empty line may come first
            lines = lines[1:]
        if not lines:
            return Verdict.HAND_OVER
        http11 = lines[0].endswith(b"HTTP/1.1")
        lengths, codings = set(), []
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon:
                return Verdict.HAND_OVER  # a malformed field: gunicorn's 400
            name, value = name.strip().lower(), value.strip()
            if name == b"content-length":
                lengths.add(value)
            elif name == b"transfer-encoding":
                codings += [coding.strip().lower() for coding in value.split(b",")]
            elif name == b"expect":
                self.expects_continue = http11 and value.lower() == b"100-continue"
        if codings:
            if codings[-1] != b"chunked":
                return Verdict.HAND_OVER  # gunicorn answers 400/501 from the head
            self.chunked = True
            return None
        if len(lengths) > 1 or (lengths and not LENGTH.match(next(iter(lengths)))):
            return Verdict.HAND_OVER
        self.length = int(lengths.pop()) if lengths else 0
        return Verdict.HAND_OVER if self.length > self.body_limit else None

    def _scan_chunks(self, data: bytes | bytearray) -> Verdict:
        """Follow the chunk sizes from the last whole chunk to the last-chunk and trailers."""
        while True:
            at = self._chunk_at
            line_end = data.find(b"\r\n", at, at + CHUNK_LINE_LIMIT + 2)
            if line_end < 0:
                return Verdict.HAND_OVER if len(data) - at > CHUNK_LINE_LIMIT else Verdict.WAIT
            digits = bytes(data[at:line_end]).split(b";", 1)[0].strip()
            if not CHUNK_SIZE.match(digits):
                return Verdict.HAND_OVER  # gunicorn answers the malformed chunk
            size = int(digits, 16)
            if size == 0:  # the last chunk, then trailer fields up to an empty line
                end = data.find(b"\r\n\r\n", line_end)
                if end >= 0:
                    return Verdict.COMPLETE
                return Verdict.HAND_OVER if len(data) - line_end > HEAD_LIMIT else Verdict.WAIT
            if self._body + size > self.body_limit:
                return Verdict.HAND_OVER
            following = line_end + 2 + size + 2
            if len(data) < following:
                return Verdict.WAIT
            if data[following - 2:following] != b"\r\n":
                return Verdict.HAND_OVER
            self._body += size
            self._chunk_at = following


@dataclass
class Arrival:
    """One request being received by the poller."""

    framing: Framing
    waiting_since: float
    data: bytearray = field(default_factory=bytearray)
    started: float | None = None  # its first byte
    continued: bool = False  # a 100 Continue was sent
    registered: bool = False


@dataclass(frozen=True)
class Handover:
    """What a thread gets with a connection: the bytes, and whether they are the whole request."""

    data: bytes
    whole: bool
    continued: bool


class BufferedConn(gthread.TConn):
    """gthread's connection; a graceful close lingers in the worker's poller."""

    def __init__(self, worker: "BufferingWorker", *args) -> None:
        super().__init__(*args)
        self.worker = worker
        self.handover: Handover | None = None
        self.serving: Handover | None = None

    def close(self, graceful: bool = False) -> None:
        """gthread closes gracefully from its main loop, lingering up to 2 s in a blocking
        read there; here the poller lingers, between its other events."""
        if graceful:
            self.worker.linger(self)
        else:
            super().close()


def answer(status: int, reason: str, message: str, extra: str = "") -> bytes:
    """A whole HTTP/1.1 answer with the API's error envelope, closing the connection."""
    body = json.dumps({"code": status, "status": reason, "message": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n{extra}\r\n").encode("latin-1") + body


class BufferingWorker(gthread.ThreadWorker):
    """gthread whose threads only ever see whole requests (module docstring)."""

    def init_process(self) -> None:
        settings = {**defaults("app"), **defaults("gunicorn"), **from_environment(os.environ)}
        self.request_deadline = float(settings["REQUEST_DEADLINE"])
        self.body_limit = connections.DRAIN_FACTOR * int(settings["MAX_CONTENT_LENGTH"])
        self.buffer_budget = BUFFER_BUDGET_FACTOR * self.body_limit
        self.buffered = 0  # bytes held by self.arriving
        self.arriving: dict[BufferedConn, Arrival] = {}
        self.lingering: dict[BufferedConn, float] = {}  # connection -> when to give up
        super().init_process()  # runs the worker's loop

    # --- connections in, requests to threads ---------------------------------------------

    def accept(self, listener) -> None:
        """gthread's accept, with a BufferedConn waiting in the poller for its request."""
        try:
            client_sock, client_addr = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        self.enqueue_req(BufferedConn(self, self.cfg, client_sock, client_addr, listener.getsockname()))

    def buffers(self, conn) -> bool:
        """Whether the poller reads this connection's requests (plain HTTP/1.x)."""
        return (isinstance(conn, BufferedConn) and not self.cfg.is_ssl and not conn.is_http2
                and not negotiation.prior_knowledge_allowed(self.cfg, conn.client))

    def enqueue_req(self, conn) -> None:
        """Read the connection's next request in the poller (gthread: hand it to a thread now)."""
        if not self.buffers(conn):
            super().enqueue_req(conn)
            return
        now = time.monotonic()
        arrival = Arrival(Framing(self.body_limit), waiting_since=now)
        if conn.parser is not None:  # what a request on this connection read ahead (pipelining)
            arrival.data += conn.parser.unreader.take_buffered()
        if arrival.data:
            arrival.started = now
            self.buffered += len(arrival.data)
        self.arriving[conn] = arrival
        self.advance(conn, arrival)

    def advance(self, conn: BufferedConn, arrival: Arrival) -> None:
        """Act on what the request's bytes say: serve it, refuse it, or wait for more."""
        verdict = arrival.framing.scan(arrival.data) if arrival.data else Verdict.WAIT
        if verdict is Verdict.COMPLETE or verdict is Verdict.HAND_OVER:
            self.hand_over(conn, arrival, whole=verdict is Verdict.COMPLETE)
        elif verdict is Verdict.HEAD_TOO_LARGE:
            self.refuse(conn, answer(431, "Request Header Fields Too Large",
                                     f"The request line and headers are over {HEAD_LIMIT} bytes."))
        else:
            framing = arrival.framing
            if framing.head_end is not None and framing.expects_continue and not arrival.continued:
                send_quietly(conn.sock, CONTINUE)  # the client waits for it before its body
                arrival.continued = True
            if not arrival.registered:
                conn.sock.setblocking(False)
                self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_request_bytes, conn))
                arrival.registered = True

    def on_request_bytes(self, conn: BufferedConn, _sock) -> None:
        """The poller's read of a request's next bytes."""
        arrival = self.arriving.get(conn)
        if arrival is None:
            return
        try:
            data = conn.sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client left before its request was whole
            self.forget(conn, arrival)
            self.nr_conns -= 1
            conn.close()
            return
        if self.buffered + len(data) > self.buffer_budget:
            self.log.warning("requests arriving hold %d bytes in this worker: 503 for one more", self.buffered)
            self.refuse(conn, answer(503, "Service Unavailable",
                                     "The server is receiving too many large requests; retry shortly.",
                                     "Retry-After: 5\r\n"))
            return
        if arrival.started is None:
            arrival.started = time.monotonic()
        arrival.data += data
        self.buffered += len(data)
        self.advance(conn, arrival)

    def forget(self, conn: BufferedConn, arrival: Arrival) -> None:
        """Stop receiving this request in the poller."""
        self.arriving.pop(conn, None)
        self.buffered -= len(arrival.data)
        if arrival.registered:
            unregister(self.poller, conn.sock)
            arrival.registered = False

    def hand_over(self, conn: BufferedConn, arrival: Arrival, *, whole: bool) -> None:
        """Give the request's bytes, with its connection, to a thread."""
        self.forget(conn, arrival)
        conn.handover = Handover(bytes(arrival.data), whole, arrival.continued)
        conn.data_ready = True  # gthread must not wait for data the poller already read
        super().enqueue_req(conn)

    def refuse(self, conn: BufferedConn, response: bytes) -> None:
        """Answer from the poller (no thread involved) and close."""
        arrival = self.arriving.get(conn)
        if arrival is not None:
            self.forget(conn, arrival)
        send_quietly(conn.sock, response)
        self.nr_conns -= 1
        self.linger(conn)

    # --- in a thread ---------------------------------------------------------------------

    def handle(self, conn):
        """gthread's handle, reading the request from the bytes the poller received."""
        handover, conn.handover = getattr(conn, "handover", None), None
        conn.serving = handover
        if handover is not None:
            conn.init()
            conn.parser.unreader.unread(handover.data)
        return super().handle(conn)

    def handle_request(self, req, conn):
        """Tell the app whether the body is all in memory, and send no second 100 Continue."""
        serving = getattr(conn, "serving", None)
        if serving is not None:
            conn.serving = None
            if not serving.whole:
                # The app must not drain it in this thread: the connection closes after the
                # answer and the poller lingers for what the client still sends.
                setattr(req, connections.BODY_LEFT_ON_SOCKET, True)
            if serving.continued:
                req._expected_100_continue = False  # the poller sent it already
        return super().handle_request(req, conn)

    # --- deadlines and lingering closes --------------------------------------------------

    def murder_pending(self) -> None:
        """gthread's pending connections, then requests past their deadline and lingering
        closes past theirs (called from the main loop every turn, at least once a second)."""
        super().murder_pending()
        now = time.monotonic()
        for conn, arrival in list(self.arriving.items()):
            if arrival.started is None:
                if now - arrival.waiting_since > self.cfg.keepalive:  # silent: closed quietly
                    self.forget(conn, arrival)
                    self.nr_conns -= 1
                    conn.close()
            elif now - arrival.started > self.request_deadline:
                self.log.info("a client took over %s s to send its request (%d bytes so far): 408, closed",
                              format_seconds(self.request_deadline), len(arrival.data))
                self.refuse(conn, answer(408, "Request Timeout",
                                         f"The request did not arrive whole within "
                                         f"{format_seconds(self.request_deadline)} s."))
        for conn, until in list(self.lingering.items()):
            if now > until:
                self.end_linger(conn)

    def linger(self, conn: BufferedConn) -> None:
        """Half-close, then read and discard what the client still sends (bounded by
        connections.LINGER_SECONDS), so the answer is read before the close."""
        try:
            conn.sock.shutdown(socket.SHUT_WR)
            conn.sock.setblocking(False)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_linger_bytes, conn))
        except (OSError, ValueError, KeyError):
            gthread.TConn.close(conn)
            return
        self.lingering[conn] = time.monotonic() + connections.LINGER_SECONDS

    def on_linger_bytes(self, conn: BufferedConn, _sock) -> None:
        """Discard what a closing connection still receives; close at its end."""
        try:
            if conn.sock.recv(RECV_SIZE):
                return
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            pass
        self.end_linger(conn)

    def end_linger(self, conn: BufferedConn) -> None:
        """Close a lingering connection for good."""
        self.lingering.pop(conn, None)
        unregister(self.poller, conn.sock)
        gthread.TConn.close(conn)


def unregister(poller: selectors.BaseSelector, sock: socket.socket) -> None:
    """Remove a socket from the poller if it is there."""
    try:
        poller.unregister(sock)
    except (KeyError, ValueError, OSError):
        pass


def send_quietly(sock: socket.socket, data: bytes) -> None:
    """Send without blocking; a client that does not read (or left) loses the answer."""
    try:
        sock.setblocking(False)
        sock.send(data)
    except OSError:
        pass


def format_seconds(seconds: float) -> str:
    """30.0 -> "30", 2.5 -> "2.5"."""
    return f"{seconds:g}"
