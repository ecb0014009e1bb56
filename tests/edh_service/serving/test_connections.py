"""Refused bodies do not break connections (edh_service/serving/connections.py), against real
gunicorn with keep-alive clients: every 413 arrives, never a reset, and the request that
follows on the same connection is answered."""

from __future__ import annotations

import threading

import pytest
import requests

from tests.support.live_http import NORMAL_CODES, NORMAL_DECK, VALIDATE

LIMIT = 1024 * 1024  # MAX_CONTENT_LENGTH's default, which live_server runs with
TEXT_1_3_MB = ("1 Forest\n" * (1_300_000 // 9)).encode()
PAIRS_PER_THREAD = 6
THREADS = 4


def oversize_bodies():
    """(name, keyword arguments for session.post) of bodies the server refuses with a 413."""
    return [
        ("1.3 MB text/plain", {"data": TEXT_1_3_MB, "headers": {"Content-Type": "text/plain"}}),
        ("1.3 MB JSON", {"data": b'{"decklist": "' + TEXT_1_3_MB.replace(b"\n", b"\\n") + b'"}',
                         "headers": {"Content-Type": "application/json"}}),
        # requests sends a generator chunked: no Content-Length, the server finds out late.
        ("1.3 MB chunked", {"data": (TEXT_1_3_MB[i:i + 65536] for i in range(0, len(TEXT_1_3_MB), 65536)),
                            "headers": {"Content-Type": "text/plain"}}),
        # Past the drain bound (8 MiB): answered, then the connection is half-closed.
        ("10 MB text/plain", {"data": b"1 Forest\n" * (10_000_000 // 9), "headers": {"Content-Type": "text/plain"}}),
    ]


def assert_normal(response: requests.Response) -> None:
    assert response.status_code == 200, response.text[:300]
    assert {v["code"] for v in response.json()["violations"]} == NORMAL_CODES


@pytest.mark.timeout(120)
def test_oversize_then_normal_on_one_keep_alive_session(live_server):
    """Each refused body gets its 413 (the envelope naming the limit), and the next request
    on the same Session is answered; repeated, since the failure was one in three."""
    url = live_server + VALIDATE
    with requests.Session() as session:
        for _ in range(3):
            for name, request in oversize_bodies():
                refused = session.post(url, timeout=30, **request)
                assert refused.status_code == 413, (name, refused.status_code)
                assert refused.json()["code"] == 413 and str(LIMIT) in refused.json()["message"], name
                # Drained to its end: the connection stays; past the bound: closed, and said so.
                expected = "close" if name.startswith("10 MB") else "keep-alive"
                assert refused.headers["Connection"].lower() == expected, name
                assert_normal(session.post(url, json={"decklist": NORMAL_DECK}, timeout=30))


@pytest.mark.timeout(180)
def test_oversize_then_normal_pairs_under_concurrency(live_server):
    """Several threads, each with its own keep-alive Session, send oversize-then-normal
    pairs at once: every 413 is received (never a reset) and every next request succeeds."""
    url = live_server + VALIDATE
    problems: list[str] = []
    counts = {"413": 0, "200": 0}
    lock = threading.Lock()

    def client(index: int) -> None:
        with requests.Session() as session:
            for turn in range(PAIRS_PER_THREAD):
                bodies = oversize_bodies()  # fresh: a chunked body is a generator, read once
                name, request = bodies[(index + turn) % len(bodies)]
                try:
                    refused = session.post(url, timeout=30, **request)
                    normal = session.post(url, json={"decklist": NORMAL_DECK}, timeout=30)
                except requests.RequestException as error:
                    with lock:
                        problems.append(f"{name}: {type(error).__name__}: {error}")
                    continue
                with lock:
                    if refused.status_code != 413:
                        problems.append(f"{name}: answered {refused.status_code}")
                    else:
                        counts["413"] += 1
                    if normal.status_code != 200:
                        problems.append(f"after {name}: answered {normal.status_code}")
                    else:
                        counts["200"] += 1

    threads = [threading.Thread(target=client, args=(index,)) for index in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=150)
    assert not any(thread.is_alive() for thread in threads)
    assert problems == [], problems
    assert counts == {"413": THREADS * PAIRS_PER_THREAD, "200": THREADS * PAIRS_PER_THREAD}


class FakeBody:
    """gunicorn's Body as CheckedBody sees it: read(size) gives at most `size` bytes, b"" at the end."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.reads = 0

    def read(self, size: int | None = None) -> bytes:
        self.reads += 1
        size = len(self.data) if size is None or size < 0 else size
        taken, self.data = self.data[:size], self.data[size:]
        return taken


@pytest.mark.parametrize(("reads", "ended"), [
    ((None,), True),  # the whole body
    ((-1,), True),
    ((3,), False),  # part of it
    ((0,), False),  # nothing asked, nothing learned
    ((5, 5), True),  # all of it, then the empty read that says so
    ((5,), False),  # all of it, but not known yet
])
def test_a_checked_body_knows_when_it_was_read_to_its_end(reads, ended):
    from edh_service.serving.connections import CheckedBody

    body = CheckedBody(FakeBody(b"hello"))
    for size in reads:
        body.read(size)
    assert body.ended is ended


@pytest.mark.parametrize("read_all", [True, False])
def test_a_body_read_to_its_end_is_not_drained_again(read_all):
    from edh_service.serving.connections import DrainUnreadBodies

    stream = FakeBody(b"x" * 100)

    def app(environ, start_response):
        if read_all:
            environ["wsgi.input"].read()
        start_response("200 OK", [])
        return [b"ok"]

    limits = []
    middleware = DrainUnreadBodies(app, lambda: limits.append(1) or 1000)
    environ = {"gunicorn.socket": object(), "wsgi.input": stream}
    assert list(middleware(environ, lambda *args: None)) == [b"ok"]
    # read by the app: one read, and no drain; left unread: drained (two reads: the rest, the end)
    assert (stream.reads, limits) == ((1, []) if read_all else (2, [1]))
