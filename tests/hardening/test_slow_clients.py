"""Clients that start a request and stall must not freeze the service (real gunicorn,
`make run`'s config: 2 workers, one thread each). gthread reads a request with blocking
reads; two stalled sockets held both workers and every other client waited. Now each
worker's poller receives requests whole before a thread sees them (gunicorn_worker.py);
slow-drip clients have their own file, test_request_deadline.py."""

from __future__ import annotations

import shutil
import socket
import time
from contextlib import ExitStack

import requests

from tests.support.live_server import gunicorn

STALLED = 4  # at least one on each worker whichever way they are shared out
PARTIAL = b"POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes the socket (EOF or reset) within `within` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_stalled_clients_are_cut_off_and_others_are_served(_fixture_db_template, tmp_path):
    """Half a request, then nothing: the worker's poller holds it (no thread), answers 408
    after REQUEST_DEADLINE and closes; every other client is served meanwhile."""
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    log = tmp_path / "gunicorn.log"
    with gunicorn(log, CARD_DB=str(db), REQUEST_DEADLINE="1", GUNICORN_THREADS="1", LOG_LEVEL="info") as (base, _), \
            ExitStack() as sockets:
        host, port = base.removeprefix("http://").split(":")
        stalled = []
        for _ in range(STALLED):
            sock = sockets.enter_context(socket.create_connection((host, int(port)), timeout=5))
            sock.sendall(PARTIAL)  # half a request, then nothing
            stalled.append(sock)
        time.sleep(0.3)  # every stalled socket is with a worker by now
        started = time.monotonic()
        answers = [requests.get(base + "/healthz", timeout=5).status_code for _ in range(6)]
        waited = time.monotonic() - started
        assert answers == [200] * 6
        assert waited < 2, waited  # nobody waited for the stalled ones (each took 1 s before)
        for sock in stalled:
            sock.settimeout(4)
            answer = sock.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
            assert b"did not arrive whole within 1 s" in answer
            assert closed_by_server(sock, within=3)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "a client took over 1 s to send its request" in text
    assert "Socket error processing request" not in text and "Traceback" not in text


def test_a_slow_but_steady_client_is_served(_fixture_db_template, tmp_path):
    """The timeout is per read, not per request: a client sending its body in pieces, each
    within CLIENT_TIMEOUT, gets its answer."""
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    with gunicorn(tmp_path / "gunicorn.log", CARD_DB=str(db), CLIENT_TIMEOUT="1") as (base, _):
        host, port = base.removeprefix("http://").split(":")
        body = b"1 Sol Ring\n" * 20
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(b"POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                         b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
            for start in range(0, len(body), 55):  # four pieces, 0.6 s apart: 1.8 s in all
                time.sleep(0.6)
                sock.sendall(body[start:start + 55])
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert b'"card_count"' in answer


def answer_to(base: str, head: bytes, body_start: bytes) -> tuple[bytes, float]:
    """Send a request's head and the start of its body, stall, and read whatever comes back
    until the server closes; with the seconds that took."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head + body_start)
        started = time.monotonic()
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer, time.monotonic() - started


def test_a_body_that_stalls_is_not_called_too_large(_fixture_db_template, tmp_path):
    """A chunked body that stops arriving was answered 413 "over the limit of 1048576 bytes"
    (after the failed read, the app looked for more of the body and took the leftover for
    more than the limit). Now the poller never hands it to the app: it is a 408 once
    REQUEST_DEADLINE is over, with a length or chunked, on the API and the page alike."""
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    with gunicorn(tmp_path / "gunicorn.log", CARD_DB=str(db), REQUEST_DEADLINE="2") as (base, _):
        for path, kind in (("/api/v1/validate", b"text/plain"), ("/", b"application/x-www-form-urlencoded")):
            head = b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Type: " + kind + b"\r\n"
            chunked = answer_to(base, head + b"Transfer-Encoding: chunked\r\n\r\n", b"5\r\n1 Sol\r\n")
            with_length = answer_to(base, head + b"Content-Length: 100\r\n\r\n", b"1 Sol")
            for answer, seconds in (chunked, with_length):
                assert answer.startswith(b"HTTP/1.1 408"), (path, answer[:300])
                assert b"The request did not arrive whole within 2 s." in answer, (path, answer[-300:])
                assert b"Connection: close" in answer
                assert 2 <= seconds < 2 + 3, (path, seconds)  # the deadline, checked once a second


def test_connections_that_send_nothing_do_not_hold_the_workers(_fixture_db_template, tmp_path):
    """A connection opened and left silent (a browser's speculative preconnect) is parked in
    the poller after gunicorn_conf's FIRST_BYTES_WAIT; gthread's own 5 s wait in the
    worker's only thread made every request behind it wait too."""
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    with gunicorn(tmp_path / "gunicorn.log", CARD_DB=str(db), GUNICORN_THREADS="1") as (base, _), \
            ExitStack() as sockets:
        host, port = base.removeprefix("http://").split(":")
        with requests.Session() as session:
            for _ in range(3):
                for _ in range(STALLED):  # silent connections opened before each round of requests
                    sockets.enter_context(socket.create_connection((host, int(port)), timeout=5))
                started = time.monotonic()
                answers = [session.get(base + "/healthz", timeout=3).status_code for _ in range(4)]
                # each silent connection costs a worker at most FIRST_BYTES_WAIT (0.25 s), not 5 s
                assert answers == [200] * 4 and time.monotonic() - started < 3
        # the silent connections were parked, not dropped: one that speaks now is answered
        late = socket.create_connection((host, int(port)), timeout=5)
        sockets.enter_context(late)
        time.sleep(0.5)
        late.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert late.recv(64).startswith(b"HTTP/1.1 200")


def test_gunicorn_still_has_the_first_bytes_wait_we_shorten(monkeypatch):
    """gunicorn_conf sets gthread.DEFAULT_WORKER_DATA_TIMEOUT; an upgrade that renames it
    must fail here rather than silently bring back the 5 s wait."""
    from gunicorn.workers import gthread

    # Importing the config sets PROMETHEUS_MULTIPROC_DIR for the process when it is unset
    # (gunicorn's master): given here, so the later in-process apps keep their own registry.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    import edh_service.serving.gunicorn_conf as conf

    assert "DEFAULT_WORKER_DATA_TIMEOUT" in gthread.ThreadWorker.handle.__code__.co_names
    assert gthread.DEFAULT_WORKER_DATA_TIMEOUT == conf.FIRST_BYTES_WAIT == 0.25
