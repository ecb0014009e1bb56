"""Decks/s of one instance against three behind HAProxy, on this machine (loopback).

The same 100-card deck and wrk script as bench_http.py, 8 connections for
SECONDS each: one gunicorn instance straight, the same instance behind HAProxy (the load
balancer's own cost), and three instances behind HAProxy (tests/cluster.py starts them:
real gunicorn processes, HAProxy from a generated config with health checks). Each
instance runs WEB_CONCURRENCY workers (default 2, one per core here). On a 2-core
machine three instances share the same two cores, so this measures the cost of the
cluster's layout, not the gain of more hardware. Bounded: about 30 s.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from bench.bench_http import LUA, check_deck, gunicorn, store_and_deck, wrk
from bench.common import Row

SECONDS = 6
CONNECTIONS = 8
QUIET = {"CARD_DATA_OFFLINE": "1", "ACCESS_LOG": "", "LOG_LEVEL": "warning",
         "WEB_CONCURRENCY": os.environ.get("WEB_CONCURRENCY", "2")}


def decks_per_second(base: str, script: Path, body: Path) -> tuple[float, dict]:
    """Check the deck, warm up, then one wrk run; (decks/s, wrk's figures)."""
    check_deck(base, body.read_bytes())
    wrk(base, script, body, threads=2, connections=CONNECTIONS, seconds=1)
    result = wrk(base, script, body, threads=2, connections=CONNECTIONS, seconds=SECONDS)
    return result["requests"] / (result["duration_us"] / 1e6), result


def run() -> list[Row]:
    """Decks/s and p99 for one instance, one behind HAProxy, three behind HAProxy."""
    from tests.cluster import Cluster, available

    if not available():
        return [Row("cluster", "skipped", "Debian's haproxy is not installed")]
    store, deck, data = store_and_deck()
    rows = []
    name = f"cluster, {CONNECTIONS} connections"
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        body, script = scratch / "deck.json", scratch / "post.lua"
        body.write_bytes(json.dumps({"decklist": deck}).encode())
        script.write_text(LUA, encoding="utf-8")
        figures = {}
        with gunicorn(store) as base:
            figures["1 instance, direct"] = decks_per_second(base, script, body)
        for count in (1, 3):
            with Cluster(scratch / f"cluster{count}", [store] * count, **QUIET) as cluster:
                figures[f"{count} instance{'s' if count > 1 else ''}, HAProxy"] = \
                    decks_per_second(cluster.url, script, body)
    single = figures["1 instance, direct"][0]
    for label, (rate, result) in figures.items():
        rows.append(Row(name, f"{label}: decks/s", f"{rate:.0f}", f"x{rate / single:.2f} of one direct"))
        rows.append(Row(name, f"{label}: p99 latency", f"{result['p99_us'] / 1000:.1f} ms"))
    rows.append(Row(name, "data", data))
    return rows
