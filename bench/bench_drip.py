"""Slow-drip clients (issue 19): 4 connections (2 per worker) each sending one header line a
second, against gunicorn as `make run` starts it (2 workers x 1 thread, the fixture store),
while one client validates a normal deck every 0.2 s. Reported: the normal requests'
latency during the drip, and how long a drip client is held before its 408 (the default
REQUEST_DEADLINE, 30 s). Then the same drip against gunicorn's stock gthread worker, for
the figure before: how long the first normal request waited (given up at 10 s). About 45 s.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

from bench.common import Row
from card_data.sync import import_file
from tests.support.live_server import GUNICORN_CONFIG, ROOT, WSGI_APP, free_port, stop, wait_ready

DRIPPERS = 4
DRIP_EVERY = 1.0
STOCK_PATIENCE = 10.0  # seconds the "before" request may wait
DECK = {"decklist": "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n1 Lightning Bolt\n97 Forest\n"}
HEAD = b"POST /api/v1/validate HTTP/1.1\r\nHost: bench\r\nContent-Type: text/plain\r\n"


def start(db: Path, log: Path, port: int, *extra: str) -> subprocess.Popen:
    """gunicorn with the service's config (plus `extra` command-line options) on `port`."""
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "1",
           "RATELIMIT_ENABLED": "0", "CARD_DB": str(db), "CARD_DATA_OFFLINE": "1", "ACCESS_LOG": ""}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with open(log, "ab") as sink:
        return subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", GUNICORN_CONFIG, *extra, WSGI_APP],
                                cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)


def drip(port: int, stopping: threading.Event, held: list[float]) -> None:
    """One drip client: a request head one line a second, until the server closes (its time
    is recorded) or the benchmark stops it."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(HEAD)
        started = time.monotonic()
        sock.settimeout(DRIP_EVERY)
        while not stopping.is_set():
            try:
                if not sock.recv(4096):
                    break
            except TimeoutError:
                try:
                    sock.sendall(b"X-Drip: 1\r\n")
                except OSError:
                    break
            except OSError:
                break
        else:
            return
        held.append(time.monotonic() - started)


def during_drip(port: int, seconds: float, patience: float) -> tuple[list[float], list[float]]:
    """Normal validations' latencies while DRIPPERS drip for `seconds`, and the drip clients'
    held times (those the server let go of)."""
    stopping, held = threading.Event(), []
    clients = [threading.Thread(target=drip, args=(port, stopping, held), daemon=True) for _ in range(DRIPPERS)]
    for client in clients:
        client.start()
    time.sleep(0.5)
    latencies, ends = [], time.monotonic() + seconds
    while time.monotonic() < ends:
        started = time.monotonic()
        try:
            requests.post(f"http://127.0.0.1:{port}/api/v1/validate", json=DECK, timeout=patience).raise_for_status()
        except requests.RequestException:
            latencies.append(float("inf"))
            break
        latencies.append(time.monotonic() - started)
        time.sleep(0.2)
    stopping.set()
    for client in clients:
        client.join(5)
    return latencies, held


def run() -> list[Row]:
    """Normal latency under drip clients and the time a drip client is held, with this
    service's worker and with stock gthread."""
    name = "slow-drip clients"
    with tempfile.TemporaryDirectory() as scratch:
        db, log = Path(scratch) / "cards.sqlite3", Path(scratch) / "gunicorn.log"
        import_file(db, ROOT / "tests" / "fixtures" / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
        rows = []
        for label, extra, seconds in (("BufferingWorker", (), 33.0), ("stock gthread", ("--worker-class", "gthread"), 1.0)):
            port = free_port()
            process = start(db, log, port, *extra)
            try:
                wait_ready(f"http://127.0.0.1:{port}/healthz", process, log)
                latencies, held = during_drip(port, seconds, STOCK_PATIENCE)
            finally:
                stop(process)
            answered = [s for s in latencies if s != float("inf")]
            if len(answered) < len(latencies):
                value = f"{len(answered)} of {len(latencies)} answered; one waited over {STOCK_PATIENCE:g} s"
            else:
                value = (f"{len(answered)} answered, p50 {statistics.median(answered) * 1000:.0f} ms, "
                         f"max {max(answered) * 1000:.0f} ms")
            rows.append(Row(name, f"{label}: normal validations while {DRIPPERS} clients drip", value,
                            "all answered, max < 1 s" if not extra else ""))
            if not extra:
                rows.append(Row(name, f"{label}: a drip client held until its 408",
                                f"{min(held):.1f}-{max(held):.1f} s ({len(held)} of {DRIPPERS})" if held else "not let go",
                                "REQUEST_DEADLINE (30 s) + at most 1 s"))
    return rows
