"""One client holding many connections must not stop the service (real gunicorn, `make
run`'s config: 2 workers of 1,000 worker_connections, 64 MiB receive budget each).

Connections still sending their request used to count against worker_connections: 2,100
idle sockets with one byte each stopped both workers from accepting until the request
deadline (every /healthz waited 29 s). And one client's large bodies could fill a worker's
receive budget, so that every other request got a 503 for as long as it held them. Now
connections still arriving are a bounded share of the worker's, one address's a bounded
share of those, the head has a deadline of its own, and small requests are never refused
for the budget (edh_service/serving/arrivals.py)."""

from __future__ import annotations

import resource
import shutil
import socket
import time
from contextlib import ExitStack

import pytest
import requests

from tests.support.live_http import NORMAL_CODES, NORMAL_DECK, VALIDATE, gunicorn

FLOOD = 2_100  # more than two workers' 1,000 worker_connections
ANSWER_WITHIN = 2.0  # seconds: a generous bound for /healthz on a loaded machine
BIG_HEAD = (b"POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
            b"Content-Length: 8000000\r\n\r\n")  # 8 MB: within the 8 x MAX_CONTENT_LENGTH a worker buffers


@pytest.fixture
def server(_fixture_db_template, tmp_path):
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    log = tmp_path / "gunicorn.log"
    with gunicorn(log, CARD_DB=str(db), LOG_LEVEL="info") as (base, _):
        yield base, log


@pytest.fixture
def many_files():
    """Room for FLOOD sockets in this process and the gunicorn it starts (the soft limit
    raised, before the server starts: it inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FLOOD + 500
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"this process may open {hard} files; the flood needs {wanted}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def address(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").split(":")
    return host, int(port)


def answered_within(base: str, seconds: float = ANSWER_WITHIN) -> float:
    """How long /healthz took (it must answer 200 within `seconds`)."""
    started = time.monotonic()
    assert requests.get(base + "/healthz", timeout=seconds).status_code == 200
    return time.monotonic() - started


def validated(base: str, source: str = "127.0.0.1", body: bytes = NORMAL_DECK.encode()) -> requests.Response:
    """A validate request from `source` (127.0.0.2: another address on the loopback)."""
    with requests.Session() as session:
        session.mount("http://", SourceAdapter(source))
        return session.post(base + VALIDATE, data=body, headers={"Content-Type": "text/plain"}, timeout=10)


class SourceAdapter(requests.adapters.HTTPAdapter):
    """requests from a chosen local address."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.source, 0)
        return super().init_poolmanager(*args, **kwargs)


def test_thousands_of_idle_half_sent_sockets_never_stop_the_service(many_files, server):
    """2,100 sockets that sent one byte each: /healthz and a deck are answered at once
    throughout, and the ones left get a 408 at the head's deadline."""
    base, log = server
    with ExitStack() as sockets:
        for _ in range(FLOOD):
            sock = sockets.enter_context(socket.create_connection(address(base), timeout=10))
            sock.sendall(b"P")
        waits = [answered_within(base) for _ in range(5)]
        answer = validated(base)
        assert answer.status_code == 200 and {v["code"] for v in answer.json()["violations"]} == NORMAL_CODES
        time.sleep(0.5)
        waits.append(answered_within(base))
    assert max(waits) < ANSWER_WITHIN, waits
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "to make room for new ones" in text and "Traceback" not in text


def test_a_half_sent_head_gets_a_408_at_the_heads_deadline(_fixture_db_template, tmp_path):
    """REQUEST_HEAD_DEADLINE bounds the head alone, however long the whole request may take."""
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    with gunicorn(tmp_path / "gunicorn.log", CARD_DB=str(db), REQUEST_HEAD_DEADLINE="1",
                  REQUEST_DEADLINE="30") as (base, _):
        with socket.create_connection(address(base), timeout=10) as sock:
            started = time.monotonic()
            sock.sendall(b"POST /api/v1/validate HTTP/1.1\r\nHost: x\r\n")
            answer = sock.recv(4096)
            held = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"head did not arrive whole within 1 s" in answer
    assert held < 10, held  # 1 s and a turn of the poller; generous for a loaded machine


def test_one_clients_large_bodies_leave_the_service_to_everyone_else(server):
    """200 connections each holding 1.15 MB of an 8 MB body (the budget is 64 MiB a worker):
    the client gets 503s past its share, and meanwhile /healthz, a deck from the same
    address and a 220 KB body from another address are all answered."""
    base, log = server
    big_body = ("1 Sol Ring\n" * 20_000).encode()  # 220 KB: charged to the budget past 64 KiB
    with ExitStack() as sockets:
        for _ in range(200):
            sock = sockets.enter_context(socket.create_connection(address(base), timeout=10))
            try:
                sock.sendall(BIG_HEAD + b"1" * 1_150_000)
            except OSError:  # refused (503) and closed while it sent
                pass
        time.sleep(0.5)
        waits = [answered_within(base) for _ in range(5)]
        for _ in range(3):
            deck = validated(base)
            assert deck.status_code == 200, deck.text[:300]
            other = validated(base, "127.0.0.2", big_body)
            assert other.status_code == 422, other.text[:300]  # read whole: 20,000 lines is over the limit
            assert "lines" in other.json()["message"]
    assert max(waits) < ANSWER_WITHIN, waits
    assert "503 for one more" in log.read_text(encoding="utf-8", errors="replace")
