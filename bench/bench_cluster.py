"""Decks/s of one instance against three behind HAProxy, on this machine (loopback).

The same 100-card deck and wrk script as bench_http.py, 8 connections: one gunicorn
instance straight, one instance behind HAProxy (the load balancer's own cost), and three
instances behind HAProxy (tests/support/cluster.py starts them: real gunicorn processes, HAProxy
from a generated config with health checks), and, when Debian's redis-server is there,
three instances sharing a per-client budget in Redis (REDIS_URL, a limit too high to be
reached: the cost of one Redis round trip per request). All three set-ups run at once and the wrk
runs alternate between them, ROUNDS times, so that other work on this shared machine
weighs on each alike; the median round counts. Each instance runs WEB_CONCURRENCY
workers (default 2, one per core here): on a 2-core machine three instances share the
same two cores, so this measures the cost of the cluster's layout, not the gain of more
hardware. Bounded: about 60 s.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
from contextlib import ExitStack
from pathlib import Path

from bench.bench_http import LUA, check_deck, gunicorn, store_and_deck, wrk
from bench.common import Row
from bench.load_tool import find_wrk, skipped

ROUNDS = 3
SECONDS = 5
CONNECTIONS = 8
QUIET = {"CARD_DATA_OFFLINE": "1", "ACCESS_LOG": "", "LOG_LEVEL": "warning",
         "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", "2")}


def run() -> list[Row]:
    """Median decks/s and p99 over ROUNDS alternating runs of each set-up."""
    from tests.support.cluster import Cluster, available
    from tests.support.redis_server import RedisServer
    from tests.support.redis_server import available as redis_available

    if not available():
        return [Row("cluster", "skipped", "Debian's haproxy is not installed")]
    if find_wrk() is None:
        return skipped("cluster")
    store, deck, data = store_and_deck()
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as running:
        scratch = Path(scratch)
        body, script = scratch / "deck.json", scratch / "post.lua"
        body.write_bytes(json.dumps({"decklist": deck}).encode())
        script.write_text(LUA, encoding="utf-8")
        bases = {
            "1 instance, direct": running.enter_context(gunicorn(store)),
            "1 instance, HAProxy": running.enter_context(Cluster(scratch / "one", [store], **QUIET)).url,
            "3 instances, HAProxy": running.enter_context(Cluster(scratch / "three", [store] * 3, **QUIET)).url,
        }
        if redis_available():
            redis = running.enter_context(RedisServer(scratch / "redis"))
            bases["3 instances, HAProxy, limits in Redis"] = running.enter_context(Cluster(
                scratch / "three-redis", [store] * 3, REDIS_URL=redis.url, RATELIMIT_ENABLED="1",
                RATELIMIT="100000000/minute", **QUIET)).url
        results: dict[str, list[dict]] = {label: [] for label in bases}
        for base in bases.values():
            check_deck(base, body.read_bytes())
            wrk(base, script, body, threads=2, connections=CONNECTIONS, seconds=1)  # warm every worker
        for _ in range(ROUNDS):
            for label, base in bases.items():
                results[label].append(wrk(base, script, body, threads=2, connections=CONNECTIONS, seconds=SECONDS))
    name = f"cluster, {CONNECTIONS} connections"
    rates = {label: [r["requests"] / (r["duration_us"] / 1e6) for r in runs] for label, runs in results.items()}
    single = statistics.median(rates["1 instance, direct"])
    rows = []
    for label, runs in results.items():
        rate = statistics.median(rates[label])
        spread = f"{min(rates[label]):.0f}-{max(rates[label]):.0f}"
        rows.append(Row(name, f"{label}: decks/s (median of {ROUNDS}, range)", f"{rate:.0f} ({spread})",
                        f"x{rate / single:.2f} of one direct"))
        rows.append(Row(name, f"{label}: p99 latency (median)",
                        f"{statistics.median(r['p99_us'] for r in runs) / 1000:.1f} ms"))
    rows.append(Row(name, "data", data))
    return rows
