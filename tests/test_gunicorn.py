"""gunicorn as a real process, configured as `make run` configures it, over loopback:
a real store file, a deck validated over HTTP, and a store-less start that answers 503."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(**environment: str):
    """gunicorn --config gunicorn.conf.py wsgi:app on a free port; yields (base URL, log file)."""
    port = free_port()
    log = Path(environment.pop("LOG_FILE"))
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "2", **environment}
    with open(log, "wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py", "wsgi:app"],
                                   cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_listening(base, process, log)
        yield base, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_listening(base: str, process: subprocess.Popen, log: Path, timeout: float = 30.0) -> None:
    """Wait until /healthz answers; fail with gunicorn's log if it exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(errors="replace")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    pytest.fail("gunicorn did not answer /healthz:\n" + log.read_text(errors="replace"))


def call(base: str, path: str, body: dict | None = None) -> tuple[int, dict, dict]:
    """(status, headers, JSON body) of a GET, or of a JSON POST when body is given."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.load(error)


def test_gunicorn_validates_a_deck_over_http(fixture_db, tmp_path):
    deck = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n1 Lightning Bolt\n97 Forest\n1 Mana Crypt\n"
    with gunicorn(CARD_DB=str(fixture_db), CARD_DATA_OFFLINE="1", LOG_FILE=str(tmp_path / "log")) as (base, log):
        assert call(base, "/readyz")[0] == 200
        status, headers, body = call(base, "/api/v1/validate", {"decklist": deck})
        assert status == 200
        assert headers["Content-Type"] == "application/json"
        assert body["commanders"] == ["Atraxa, Praetors' Voice"]
        assert body["card_count"] == 101
        codes = {v["code"]: v for v in body["violations"]}
        assert set(codes) == {"banned", "color_identity", "deck_size"}
        assert codes["color_identity"]["cards"] == ["Lightning Bolt"]
        assert codes["banned"]["lines"] == [8]
        status, _, body = call(base, "/api/v1/validate/batch", {"decks": [{"decklist": deck}] * 3})
        assert status == 200 and len(body["results"]) == 3
    output = log.read_text(errors="replace")
    assert "Booting worker" in output
    assert '"POST /api/v1/validate HTTP/1.1" 200' in output  # readable access log


def test_gunicorn_starts_without_card_data_and_says_why(tmp_path):
    store = tmp_path / "absent" / "cards.sqlite3"
    with gunicorn(CARD_DB=str(store), CARD_DATA_OFFLINE="1", LOG_FILE=str(tmp_path / "log")) as (base, log):
        status, headers, body = call(base, "/readyz")
        assert (status, body["code"]) == (503, 503)
        assert int(headers["Retry-After"]) >= 1
        status, headers, body = call(base, "/api/v1/validate", {"decklist": "1 Sol Ring"})
        assert status == 503 and "Retry-After" in headers
        assert call(base, "/healthz")[0] == 200  # alive, just not ready
    assert f"no store at {store}" in log.read_text(errors="replace")
