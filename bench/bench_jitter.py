"""Scheduling jitter on this machine under load, and what it does to Scryfall's 2/s budget.

Why card_data.scryfall.client.RATE_LIMITED_INTERVAL is what it is. Two measurements, each with
the two cores busy (two CPU-burning processes) and, in the clients, a thread holding the
GIL in pure-Python loops (what a worker validating decks does):

1. sleep accuracy: how much later than asked time.sleep(0.05) returns (200 samples);
2. claim-to-arrival: two client processes share the budget (through Redis when
   redis-server is installed, else the flock file) and send 8 /cards/collection requests
   each to the local Scryfall-shaped server; how long after a client claimed its slot the
   server saw the request, the smallest gap between arrivals, and the most requests
   inside any 1 s window (Scryfall allows 2).

CLOCK_MONOTONIC is one clock for every process of the machine, so the clients' claim
times and the server's arrival times compare directly. Bounded: about 20 s.
"""

from __future__ import annotations

import json
import multiprocessing
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Row, millis

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = 2
REQUESTS = 8

CLIENT = """
import json, sys, threading, time
from card_data.scryfall.client import ScryfallClient
from card_data.coordination import coordination_for
from card_data.settings import StoreSettings

api, db, redis_url, count = sys.argv[1], sys.argv[2], sys.argv[3] or None, int(sys.argv[4])
stop = False

def hog():  # a worker busy validating: pure Python holding the GIL
    while not stop:
        sum(i * i for i in range(20000))

threading.Thread(target=hog, daemon=True).start()
limits = coordination_for(StoreSettings(db, redis_url=redis_url)).limits
claims = []
acquire = limits.acquire_slot

def recorded():
    wait = acquire()
    if wait == 0:
        claims.append(time.monotonic())
    return wait

limits.acquire_slot = recorded
client = ScryfallClient(api, backoff=0, limits=limits)
for _ in range(count):
    client.fetch_collection(["Sol Ring"])
stop = True
print(json.dumps(claims))
"""


def _burn(stop) -> None:
    """Keep one core busy until stop is set."""
    while not stop.is_set():
        sum(i * i for i in range(20000))


def sleep_overshoot(samples: int = 200) -> list[float]:
    """Seconds each time.sleep(0.05) overslept."""
    overshoot = []
    for _ in range(samples):
        start = time.perf_counter()
        time.sleep(0.05)
        overshoot.append(time.perf_counter() - start - 0.05)
    return sorted(overshoot)


def claims_and_arrivals(scratch: Path) -> tuple[list[float], list[float], str]:
    """Run the clients; (claim times, arrival times, backend)."""
    sys.path.insert(0, str(ROOT))
    from tests.support.redis_server import RedisServer, available
    from tests.support.scryfall_server import fixture_server

    redis = RedisServer(scratch / "redis").start() if available() else None
    try:
        with fixture_server() as server:
            clients = [subprocess.Popen(
                [sys.executable, "-c", CLIENT, server.base_url, str(scratch / "cards.sqlite3"),
                 redis.url if redis else "", str(REQUESTS)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
                for _ in range(CLIENTS)]
            claims = sorted(t for c in clients for t in json.loads(c.communicate(timeout=120)[0]))
            arrivals = sorted(r.at for r in server.requests if r.method == "POST")
    finally:
        if redis:
            redis.stop()
    return claims, arrivals, "redis" if redis else "file"


def most_in_one_second(times: list[float]) -> int:
    """The largest number of times inside any 1 s window."""
    return max(sum(1 for t in times if start <= t < start + 1.0) for start in times)


def run() -> list[Row]:
    """Sleep overshoot and claim-to-arrival delay under load; arrival gaps and window counts."""
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=_burn, args=(stop,), daemon=True) for _ in range(2)]
    for burner in burners:
        burner.start()
    try:
        overshoot = sleep_overshoot()
        with tempfile.TemporaryDirectory() as scratch:
            claims, arrivals, backend = claims_and_arrivals(Path(scratch))
    finally:
        stop.set()
        for burner in burners:
            burner.join()
    # Each arrival follows its own claim: pair them in order (claims are serialised by the budget).
    delays = sorted(arrival - claim for claim, arrival in zip(claims, arrivals))
    gaps = [later - earlier for earlier, later in zip(arrivals, arrivals[1:])]
    name = "jitter, 2 cores busy"
    return [
        Row(name, "sleep(50 ms) overshoot p50 / p99 / max",
            f"{millis(statistics.median(overshoot))} / {millis(overshoot[int(len(overshoot) * 0.99) - 1])}"
            f" / {millis(overshoot[-1])}"),
        Row(name, f"claim -> arrival p50 / max ({len(delays)} requests, {backend})",
            f"{millis(statistics.median(delays))} / {millis(delays[-1])}", "margin: interval - 500 ms"),
        Row(name, "smallest gap between arrivals", millis(min(gaps)), ">= 500 ms"),
        Row(name, "most requests in any 1 s", str(most_in_one_second(arrivals)), "<= 2"),
    ]
