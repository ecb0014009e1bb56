"""The gunicorn worker of `make run` and the Docker image: gthread, with each request read
whole by the worker's poller before a thread serves it.

gthread hands a connection to a thread as soon as its first bytes arrive, and the thread
reads the rest with blocking reads. With one thread a worker (GUNICORN_THREADS), two
clients sending a header line (or a body byte) every few seconds held both workers for as
long as they kept at it: CLIENT_TIMEOUT bounds one read, not the request, and the image
listens on 0.0.0.0 with no proxy in front. Here the main loop reads every request with
non-blocking reads, between its other events, until `Framing` (request_framing.py) says
the head and the body are all there; only then does a thread parse and serve it (from
those bytes: it never waits on the socket). A client that takes longer than
REQUEST_HEAD_DEADLINE seconds from its first byte to send the head, or REQUEST_DEADLINE
for the whole request, gets a 408 and the connection is closed, having held no thread.
This is the buffering a proxy such as HAProxy (`option http-buffer-request`, `timeout
http-request`) gives, in the process itself, so a deployment without one is safe too
(docs/proxy.md says what a proxy in front must set).

Bounds: a head over HEAD_LIMIT is a 431; a body is buffered up to
connections.DRAIN_FACTOR x MAX_CONTENT_LENGTH (the app refuses anything over
MAX_CONTENT_LENGTH with a 413, and a body read to its end keeps the connection usable);
a bigger one goes to the app at once with its body left on the socket, and the connection
closes after the 413. Connections still arriving are at most half of worker_connections,
one address's share of them bounded, so they never stop a worker from accepting; their
bytes past a small request's are held within BUFFER_BUDGET_FACTOR bodies' worth, one
address's within a quarter of that, and past that the one asking for more gets a 503
(arrivals.py). A connection closed after an answer lingers in the poller (RFC 9112
section 9.6), not in the main loop's blocking close that gthread does.

TLS, HTTP/2 (prior knowledge) and other cases the scan does not know are left to
gthread's own reading, bounded per read by CLIENT_TIMEOUT.
"""

from __future__ import annotations

import errno
import json
import os
import selectors
import socket
import time
from dataclasses import dataclass
from functools import partial

from gunicorn.http2 import negotiation
from gunicorn.workers import gthread

from edh_service.serving import connections
from edh_service.serving.arrivals import Arrival, Arrivals, address_of
from edh_service.config import defaults, from_environment
from edh_service.serving.request_framing import HEAD_LIMIT, Framing, Verdict

RECV_SIZE = 1024 * 1024  # what one non-blocking read may take (fewer reads, fewer GIL hand-offs)
BUFFER_BUDGET_FACTOR = 8  # buffered bodies per worker: 8 x 8 MiB by default
ADDRESS_BUDGET_SHARE = 4  # one address may hold a quarter of it
ARRIVING_SHARE = 2  # connections still arriving: at most half of worker_connections...
ADDRESS_ARRIVING_SHARE = 8  # ...and one address an eighth of those (at least MIN_ADDRESS_ARRIVING)
MIN_ADDRESS_ARRIVING = 16
EVICTION_LOG_SECONDS = 10.0  # at most one log line this often about connections closed to make room
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


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
        self.head_deadline = min(float(settings["REQUEST_HEAD_DEADLINE"]), self.request_deadline)
        self.body_limit = connections.DRAIN_FACTOR * int(settings["MAX_CONTENT_LENGTH"])
        budget = BUFFER_BUDGET_FACTOR * self.body_limit
        most = max(1, self.cfg.worker_connections // ARRIVING_SHARE)
        self.arriving = Arrivals(most=most, per_address=max(MIN_ADDRESS_ARRIVING, most // ADDRESS_ARRIVING_SHARE),
                                 budget=budget, address_budget=budget // ADDRESS_BUDGET_SHARE)
        self.made_room = 0  # arrivals closed to make room since the last log line about it
        self.next_room_log = 0.0
        self.lingering: dict[BufferedConn, float] = {}  # connection -> when to give up
        super().init_process()  # runs the worker's loop

    # --- connections in, requests to threads ---------------------------------------------

    def accept(self, listener) -> None:
        """gthread's accept, with a BufferedConn waiting in the poller for its request."""
        try:
            client_sock, client_addr = listener.accept()
        except OSError as error:
            if error.errno in (errno.EMFILE, errno.ENFILE):
                # Out of file descriptors (a flood under a low `ulimit -n`): close the arrival
                # the shares would close next, rather than let the error end the worker.
                crowded = self.arriving.to_make_room("")
                if crowded is None and len(self.arriving):
                    crowded = next(conn for conn, _ in self.arriving.items())
                if crowded is not None:
                    self.make_room(crowded)
                return
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
        arrival = Arrival(Framing(self.body_limit), waiting_since=now, address=address_of(conn.client))
        if conn.parser is not None:  # what a request on this connection read ahead (pipelining)
            arrival.data += conn.parser.unreader.take_buffered()
        if arrival.data:
            arrival.started = now
        while (crowded := self.arriving.to_make_room(arrival.address)) is not None:
            self.make_room(crowded)
        self.arriving.add(conn, arrival)
        self.advance(conn, arrival)

    def make_room(self, conn: BufferedConn) -> None:
        """Close the connection of an arrival that must make room for a new one (arrivals.py):
        a client that keeps many connections half-sent loses its oldest, nobody else's."""
        self.forget(conn, self.arriving.get(conn))
        send_quietly(conn.sock, answer(503, "Service Unavailable", "Too many requests from your address are "
                                       "still arriving at once; this one was closed.", "Retry-After: 5\r\n"))
        self.nr_conns -= 1
        conn.close()
        self.made_room += 1

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
        if not self.arriving.may_receive(arrival, len(data)):
            self.log.warning("requests arriving hold %d bytes in this worker (%d from this address): 503 for one more",
                             self.arriving.charged, self.arriving.charged_by_address.get(arrival.address, 0))
            self.refuse(conn, answer(503, "Service Unavailable",
                                     "The server is receiving too many large requests; retry shortly.",
                                     "Retry-After: 5\r\n"))
            return
        if arrival.started is None:
            arrival.started = time.monotonic()
        self.arriving.received(arrival, data)
        self.advance(conn, arrival)

    def forget(self, conn: BufferedConn, arrival: Arrival | None) -> None:
        """Stop receiving this request in the poller."""
        self.arriving.remove(conn)
        if arrival is not None and arrival.registered:
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
        for conn, arrival in self.arriving.items():
            if arrival.started is None:
                if now - arrival.waiting_since > self.cfg.keepalive:  # silent: closed quietly
                    self.forget(conn, arrival)
                    self.nr_conns -= 1
                    conn.close()
            elif arrival.framing.head_end is None and now - arrival.started > self.head_deadline:
                self.log.info("a client took over %s s to send its request's head (%d bytes so far): 408, closed",
                              format_seconds(self.head_deadline), len(arrival.data))
                self.refuse(conn, answer(408, "Request Timeout",
                                         f"The request's head did not arrive whole within "
                                         f"{format_seconds(self.head_deadline)} s."))
            elif now - arrival.started > self.request_deadline:
                self.log.info("a client took over %s s to send its request (%d bytes so far): 408, closed",
                              format_seconds(self.request_deadline), len(arrival.data))
                self.refuse(conn, answer(408, "Request Timeout",
                                         f"The request did not arrive whole within "
                                         f"{format_seconds(self.request_deadline)} s."))
        for conn, until in list(self.lingering.items()):
            if now > until:
                self.end_linger(conn)
        if self.made_room and now >= self.next_room_log:
            self.log.warning("closed %d connections still sending their requests to make room for new ones "
                             "(at most %d arrive at once in a worker, %d from one address)",
                             self.made_room, self.arriving.most, self.arriving.per_address)
            self.made_room, self.next_room_log = 0, now + EVICTION_LOG_SECONDS

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
