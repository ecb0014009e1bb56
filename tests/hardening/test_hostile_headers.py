"""Hostile heads at the size limits, and headers only the deployment may set, against a
real gunicorn (issue 19). Each is followed by a normal request that must get its answer."""

from __future__ import annotations

import re

from tests.support.live_http import (
    NORMAL_DECK,
    VALIDATE,
    assert_envelope,
    assert_normal_answer,
    http_json,
    raw_request,
)

PAGE_URLS = re.compile(rb'(?:href|src|action)="(/[^"]*)"')


def page_urls(body: bytes) -> set[bytes]:
    """The page's own URLs (links, scripts, styles, the form's action)."""
    return set(PAGE_URLS.findall(body))


def test_a_client_script_name_header_changes_no_url(live_server):
    """gunicorn took SCRIPT_NAME (and PATH_INFO) from a header sent from loopback, its default
    forwarded_allow_ips: every URL the page links to moved under the client's prefix, and a
    path outside that prefix was a 500. Only the deployment's SCRIPT_NAME counts."""
    plain = raw_request(live_server, "GET", "/")
    assert plain.status == 200 and b"/static/app.js" in plain.body
    for headers in ({"SCRIPT_NAME": "/evil"}, {"SCRIPT_NAME": "/x", "PATH_INFO": "/y"}, {"Script-Name": "/evil"}):
        page = raw_request(live_server, "GET", "/", headers=headers)
        assert page.status == 200, (headers, page.status)
        assert page_urls(page.body) == page_urls(plain.body), headers
        assert b"/evil" not in page.body and b"/x/" not in page.body
        ready = raw_request(live_server, "GET", "/readyz", headers=headers)
        assert ready.status == 200, (headers, ready.status)  # /readyz does not start with /x: was a 500
    assert_normal_answer(http_json(live_server, "POST", VALIDATE, {"decklist": NORMAL_DECK}))


def test_giant_heads_are_refused_before_any_thread(live_server):
    """A head over 64 KiB is the poller's 431; 101 small header fields gunicorn's own 431
    (limit_request_fields); a request line over 4094 bytes gunicorn's 414. None is a 5xx."""
    cases = [
        ({f"X-Big-{i}": "a" * 8000 for i in range(10)}, 431),
        ({f"X-Many-{i}": "1" for i in range(101)}, 431),
    ]
    for headers, status in cases:
        answer = raw_request(live_server, "GET", "/healthz", headers=headers)
        assert answer.status == status, (status, answer.status, answer.body[:200])
    long_query = raw_request(live_server, "POST", VALIDATE + "?commanders=" + "a" * 5000, b"1 Sol Ring",
                             {"Content-Type": "text/plain"})
    assert long_query.status == 414
    assert_normal_answer(http_json(live_server, "POST", VALIDATE, {"decklist": NORMAL_DECK}))


def test_many_query_options_within_the_line_limit_are_one_envelope(live_server):
    """300 repeated list options and 300 unknown ones in a 4 KB request line: a 422 naming
    the field, never a 5xx."""
    many = "&".join(f"commanders=C{i}" for i in range(300))
    answer = raw_request(live_server, "POST", f"{VALIDATE}?{many}"[:4000], b"1 Sol Ring", {"Content-Type": "text/plain"})
    assert "commanders" in assert_envelope(answer, 422)["errors"]
    unknown = "&".join(f"o{i}=1" for i in range(300))
    assert_envelope(raw_request(live_server, "POST", f"{VALIDATE}?{unknown}", b"1 Sol Ring",
                                {"Content-Type": "text/plain"}), 422)
    assert_normal_answer(http_json(live_server, "POST", VALIDATE, {"decklist": NORMAL_DECK}))


def test_a_form_of_too_many_parts_says_so(live_server):
    """2,000 tiny multipart fields (111 KB) pass werkzeug's MAX_FORM_PARTS: a 413 that said
    "too large (the limit is 1024 KiB)" of a body a tenth of that; it names the parts now."""
    parts = b"".join(b'--B\r\nContent-Disposition: form-data; name="f%d"\r\n\r\nx\r\n' % i for i in range(2000))
    body = parts + b'--B\r\nContent-Disposition: form-data; name="decklist"\r\n\r\n1 Sol Ring\r\n--B--\r\n'
    answer = raw_request(live_server, "POST", "/", body, {"Content-Type": "multipart/form-data; boundary=B"})
    assert answer.status == 413
    assert b"The form has too many fields (at most 1,000)." in answer.body
    assert_normal_answer(http_json(live_server, "POST", VALIDATE, {"decklist": NORMAL_DECK}))


def raw_exchange(base: str, data: bytes) -> bytes:
    """Send bytes as they are and read the answer until the server closes."""
    import socket

    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=15) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_a_malformed_chunked_body_is_a_400_envelope_not_a_500(live_server):
    """A chunk size gunicorn refuses (`0x5`) or a chunk without its CRLF was raised by
    gunicorn's body reader inside the app's read: a 500. It is the app's 400 now."""
    head = (b"POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nConnection: close\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    for body in (b"0x5\r\n1 Sol\r\n0\r\n\r\n", b"5\r\n1 SolXX0\r\n\r\n", b"5;\x01=1\r\n1 Sol\r\n0\r\n\r\n"):
        answer = raw_exchange(live_server, head + body)
        status, _, rest = answer.partition(b"\r\n")
        assert status.startswith(b"HTTP/1.1 400"), (body, answer[:300])
        if b"application/json" in rest.split(b"\r\n\r\n")[0]:
            assert b'"code":400' in answer.replace(b" ", b"")
    assert_normal_answer(http_json(live_server, "POST", VALIDATE, {"decklist": NORMAL_DECK}))
