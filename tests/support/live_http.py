"""Talking to a live server over loopback: a real gunicorn over the fixture store
(`gunicorn`, offline unless told otherwise; tests/conftest.py's `live_server` is one per
module), a raw HTTP request that survives servers hanging up mid-upload, a JSON request
through http.client, and what the answers must be (the normal deck's, the error envelope)."""

from __future__ import annotations

import hashlib
import http.client
import json
import select
import socket
from dataclasses import dataclass
from pathlib import Path

from tests.support.live_server import gunicorn as start_gunicorn

VALIDATE = "/api/v1/validate"
BATCH = "/api/v1/validate/batch"
# A deck over the fixture store with a known answer: the "normal request afterwards".
NORMAL_DECK = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n1 Lightning Bolt\n97 Forest\n1 Mana Crypt\n"
NORMAL_CODES = {"banned", "color_identity", "deck_size"}


@dataclass
class Answer:
    """One HTTP answer: status, headers (lower-case names) and body bytes."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self):
        """The body as JSON."""
        return json.loads(self.body)


def sha256(path: Path) -> str:
    """The file's SHA-256: proof that a store file was not touched."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def raw_request(base: str, method: str, path: str, body: bytes = b"", headers: dict | None = None,
                timeout: float = 30.0) -> Answer:
    """Send one request over a raw socket and read the answer, even when the server answers
    (413) and hangs up before the body is all sent."""
    host, port = base.removeprefix("http://").split(":")
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close",
            f"Content-Length: {len(body)}"] + [f"{k}: {v}" for k, v in (headers or {}).items()]
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
        sent = 0
        while sent < len(body):
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:  # the server answered early: stop uploading
                break
            try:
                sent += sock.send(body[sent:sent + 65536])
            except (BrokenPipeError, ConnectionResetError):
                break
        return read_answer(sock)


def read_answer(sock: socket.socket) -> Answer:
    """Parse an HTTP/1.1 answer from a socket the server closes afterwards."""
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass  # the answer arrived before the reset
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    headers = {k.lower(): v for k, v in headers.items()}
    if headers.get("transfer-encoding") == "chunked":
        body = dechunk(body)
    return Answer(int(lines[0].split()[1]), headers, body)


def dechunk(body: bytes) -> bytes:
    """Undo chunked transfer encoding."""
    out = b""
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, body = out + body[:size], body[size + 2:]
    return out


def http_json(base: str, method: str, path: str, payload=None, timeout: float = 30.0) -> Answer:
    """A keep-alive-free JSON request through http.client."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        body = None if payload is None else json.dumps(payload).encode()
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        response = conn.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        conn.close()


def gunicorn(log: Path, **environment: str):
    """A real gunicorn (2 workers, offline unless told otherwise); yields (base URL, process)."""
    return start_gunicorn(log, **{"CARD_DATA_OFFLINE": "1", **environment})


def assert_normal_answer(answer: Answer) -> None:
    """The known deck still gets its known answer."""
    assert answer.status == 200, answer.body[:500]
    codes = {v["code"] for v in answer.json()["violations"]}
    assert codes == NORMAL_CODES


def assert_envelope(answer: Answer, status: int | set[int]) -> dict:
    """A 4xx JSON envelope with the expected status; returns the body."""
    allowed = {status} if isinstance(status, int) else status
    assert answer.status in allowed, (answer.status, answer.body[:300])
    assert answer.headers.get("content-type", "").startswith("application/json")
    body = answer.json()
    assert body["code"] == answer.status and body["message"]
    assert set(body) <= {"code", "status", "message", "errors"}
    return body
