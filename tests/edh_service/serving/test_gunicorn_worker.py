"""gunicorn_worker.Framing: where a request ends, judged from its bytes as they arrive (the
worker itself is tested against a real gunicorn in tests/hardening/test_request_deadline.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edh_service.serving.worker import HEAD_LIMIT, Framing, Verdict, answer

LIMIT = 8 * 1024 * 1024
HEAD = b"POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"


def verdict(data: bytes, limit: int = LIMIT) -> Verdict:
    return Framing(limit).scan(data)


def chunked(body: bytes, size: int, trailer: bytes = b"") -> bytes:
    """body in chunks of `size`, then the last chunk and optional trailer fields."""
    pieces = [body[i:i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n" + trailer + b"\r\n"


@pytest.mark.parametrize(("data", "expected"), [
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", Verdict.COMPLETE),
    (b"\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", Verdict.COMPLETE),  # one empty line first
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n", Verdict.WAIT),
    (HEAD + b"Content-Length: 5\r\n\r\n1 Sol", Verdict.COMPLETE),
    (HEAD + b"Content-Length: 5\r\n\r\n1 So", Verdict.WAIT),
    (HEAD + b"content-length:  5 \r\n\r\n1 Sol", Verdict.COMPLETE),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n5\r\n1 Sol\r\n0\r\n\r\n", Verdict.COMPLETE),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n5\r\n1 Sol\r\n0\r\n", Verdict.WAIT),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n5;ext=1\r\n1 Sol\r\n0\r\nX-T: y\r\n\r\n", Verdict.COMPLETE),
    (HEAD + b"Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n5\r\n1 Sol\r\n0\r\n\r\n", Verdict.COMPLETE),
    # what gunicorn refuses from the head (or the app from Content-Length) goes to it at once
    (HEAD + b"Transfer-Encoding: gzip\r\n\r\n", Verdict.HAND_OVER),
    (HEAD + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\n", Verdict.HAND_OVER),
    (HEAD + b"Content-Length: -5\r\n\r\n", Verdict.HAND_OVER),
    (HEAD + b"Content-Length: " + b"9" * 40 + b"\r\n\r\n", Verdict.HAND_OVER),
    (HEAD + b"Content-Length: %d\r\n\r\n" % (LIMIT + 1), Verdict.HAND_OVER),
    (HEAD + b"No colon here\r\n\r\n", Verdict.HAND_OVER),
    (b"GET / HTTP/1.1\nHost: x\n\n", Verdict.HAND_OVER),  # bare LF
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", Verdict.HAND_OVER),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n+5\r\n", Verdict.HAND_OVER),  # int() would read it
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n5\r\n1 SolXX", Verdict.HAND_OVER),  # no CRLF after the data
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + b"1" * 2000, Verdict.HAND_OVER),  # endless size line
    (b"GET / HTTP/1.1\r\nX-Big: " + b"a" * HEAD_LIMIT, Verdict.HEAD_TOO_LARGE),
    (b"GET / HTTP/1.1\r\nX-Big: " + b"a" * HEAD_LIMIT + b"\r\n\r\n", Verdict.HEAD_TOO_LARGE),
])
def test_verdicts(data, expected):
    assert verdict(data) is expected


def test_a_chunked_body_over_the_limit_goes_to_the_app_unbuffered():
    body = b"1 Forest\n" * 200
    assert verdict(HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(body, 100), limit=1000) is Verdict.HAND_OVER
    assert verdict(HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(body, 100), limit=2000) is Verdict.COMPLETE


def test_expect_100_continue_is_noticed_on_http_1_1_only():
    for version, expected in ((b"HTTP/1.1", True), (b"HTTP/1.0", False)):
        framing = Framing(LIMIT)
        head = b"POST / " + version + b"\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\n"
        assert framing.scan(head) is Verdict.WAIT
        assert framing.expects_continue is expected


def every_split(data: bytes, cuts: list[int]) -> list[Verdict]:
    """The verdicts of one Framing fed `data` up to each cut, in order, then whole."""
    framing = Framing(LIMIT)
    return [framing.scan(data[:cut]) for cut in sorted(set(cuts))] + [framing.scan(data)]


@settings(max_examples=200, deadline=None)
@given(body=st.binary(max_size=3000), size=st.integers(1, 700), trailer=st.booleans(),
       cuts=st.lists(st.integers(1, 4000), max_size=30), as_chunks=st.booleans())
def test_fed_in_any_pieces_a_request_is_complete_exactly_at_its_end(body, size, trailer, cuts, as_chunks):
    if as_chunks:
        data = HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(body, size, b"X-T: 1\r\n" if trailer else b"")
    else:
        data = HEAD + b"Content-Length: %d\r\n\r\n" % len(body) + body
    cuts = [cut for cut in cuts if cut < len(data)]
    verdicts = every_split(data, cuts)
    assert verdicts[-1] is Verdict.COMPLETE
    assert set(verdicts[:-1]) <= {Verdict.WAIT}, verdicts


def test_a_head_dripped_byte_by_byte_is_searched_from_where_the_last_search_stopped():
    """Each scan of a head still arriving starts 3 bytes before the end of the last one, so
    a 55 KB head dripped one byte at a time costs one search in all, not 55,000 of it."""
    data = b"GET / HTTP/1.1\r\n" + b"X-Drip: 1\r\n" * 5000 + b"\r\n"
    framing, received = Framing(LIMIT), bytearray()
    for byte in data[:-1]:
        received.append(byte)
        assert framing.scan(received) is Verdict.WAIT
        assert framing._searched == len(received)  # the next search starts here (less 3)
    received.append(data[-1])
    assert framing.scan(received) is Verdict.COMPLETE


def test_the_pollers_own_answers_are_the_api_envelope():
    raw = answer(408, "Request Timeout", "The request did not arrive whole within 30 s.")
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert b"Connection: close" in head and b"Content-Length: %d" % len(body) in head
    assert body == b'{"code": 408, "status": "Request Timeout", "message": "The request did not arrive whole within 30 s."}'


@pytest.mark.parametrize("raw", ["0", "-1", "soon", "nan"])
def test_a_request_deadline_that_allows_nothing_is_refused_at_startup(raw):
    from edh_service.config import ConfigError, from_environment

    with pytest.raises(ConfigError, match="REQUEST_DEADLINE"):
        from_environment({"REQUEST_DEADLINE": raw})


def test_the_gthread_internals_the_worker_builds_on_are_still_there():
    """BufferingWorker overrides gthread's accept/enqueue_req/handle/handle_request/
    murder_pending and relies on finish_request closing through conn.close(graceful=True);
    an upgrade that renames any of it must fail here, not silently bring back thread reads."""
    import inspect

    from gunicorn.http.message import Request
    from gunicorn.http.unreader import Unreader
    from gunicorn.workers import gthread

    # read, not imported: importing gunicorn_conf sets PROMETHEUS_MULTIPROC_DIR for the process
    conf = (Path(__file__).parents[3] / "edh_service" / "serving" / "gunicorn_conf.py").read_text(encoding="utf-8")
    assert '\nworker_class = "edh_service.serving.worker.BufferingWorker"\n' in conf
    for name in ("accept", "enqueue_req", "handle", "handle_request", "murder_pending", "finish_request"):
        assert callable(getattr(gthread.ThreadWorker, name)), name
    assert list(inspect.signature(gthread.TConn.__init__).parameters) == ["self", "cfg", "sock", "client", "server"]
    finish = inspect.getsource(gthread.ThreadWorker.finish_request)
    assert "conn.close(graceful=True)" in finish and "unreader.buf.getvalue()" in finish
    assert "self.murder_pending()" in inspect.getsource(gthread.ThreadWorker.run)
    assert "_expected_100_continue" in inspect.getsource(Request) or hasattr(Request, "_expected_100_continue")
    assert callable(Unreader.take_buffered) and callable(Unreader.unread)
