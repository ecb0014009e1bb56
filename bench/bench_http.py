"""A 100-card deck over loopback against gunicorn: median and p99 latency, decks per second.

The load tool is wrk (Debian's /usr/bin/wrk) with a small Lua script that POSTs the deck
as JSON to /api/v1/validate. Two phases: one connection (latency without queueing), then
four connections on two wrk threads (throughput; wrk shares the 2 cores with gunicorn),
three times with new connections each time (the median and range are reported).
gunicorn runs as `make run` runs it (edh_service/serving/gunicorn_conf.py; access log off, the rate
limit on, as deployed, with a budget the benchmark never reaches), on the real
store built from ../shared/carddata when present, else from tests/fixtures/cards.jsonl.
Then the floor: bench/floor_app.py, a Flask app answering the same POST with the service's
own response bytes, under the same gunicorn config, so the share of it is one run's ratio;
and the floor again with two threads a worker, its own best setting. Bounded: about 75 s
in all, the store build excluded when it is cached.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from tests.support import live_server
from bench.common import SHARED, Row
from bench.load_tool import find_wrk, skipped

ROOT = Path(__file__).resolve().parent.parent
REAL_CARDS = SHARED / "carddata" / "oracle-cards.jsonl.gz"
# A real Commander precon (Forge .dck), 100 cards, every name known to the real data.
REAL_DECK = SHARED / "decks" / "forge-precons" / "Paradox Power [WHO] [2023].dck"
FIXTURE_CARDS = ROOT / "tests" / "fixtures" / "cards.jsonl"
LATENCY_SECONDS = 5
THROUGHPUT_SECONDS = 4
THROUGHPUT_RUNS = 3  # the median of three runs is reported, with their range
THROUGHPUT_CONNECTIONS = 4
# live_server starts `make run`'s config with two workers (one per core here)
GUNICORN_SETTINGS = "config edh_service/serving/gunicorn_conf.py, WEB_CONCURRENCY=2, GUNICORN_THREADS=1 (the default)"

LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open(os.getenv("BENCH_BODY"), "rb")
wrk.body = file:read("*a")
file:close()

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d bad=%d\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
"""


def store_and_deck() -> tuple[Path, str, str]:
    """(store file, deck text, what data it is): the real data if present, else fixtures."""
    from card_data.sync import import_file

    source = REAL_CARDS if REAL_CARDS.is_file() and REAL_DECK.is_file() else FIXTURE_CARDS
    stat = source.stat()
    # Building the real store takes seconds; keep it between runs, keyed by the source file.
    store = Path(tempfile.gettempdir()) / f"edh-bench-store-{stat.st_size}-{stat.st_mtime_ns}.sqlite3"
    if not store.is_file():
        import_file(store, source)
    if source is REAL_CARDS:
        return store, REAL_DECK.read_text(encoding="utf-8"), "real store (29,808 cards), Forge precon"
    return store, fixture_deck(source), "tests/fixtures store"


def fixture_deck(cards_file: Path) -> str:
    """A 100-card list from the fixture cards: a legendary creature and 99 others."""
    records = [json.loads(line) for line in cards_file.read_text(encoding="utf-8").splitlines() if line.strip()]
    legends = [r["name"] for r in records if "Legendary Creature" in r.get("type_line", "")]
    others = [r["name"] for r in records if r["name"] not in legends[:1]
              and r.get("legalities", {}).get("commander") == "legal"][:60]
    lines = [f"1 {name}" for name in others]
    lines.append(f"{99 - len(others)} Forest")
    return "Commander\n1 " + legends[0] + "\n\nDeck\n" + "\n".join(lines) + "\n"


@contextmanager
def gunicorn(store: Path) -> Iterator[str]:
    """gunicorn on a free loopback port with `make run`'s config, quiet logs; yields the base URL."""
    with served(store) as (base, _):
        yield base


@contextmanager
def served(store: Path, app: str = live_server.WSGI_APP, **extra: str) -> Iterator[tuple[str, int]]:
    """gunicorn() for any app under the same config; yields the base URL and the master's pid."""
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "gunicorn.log"
        settings = {"CARD_DB": str(store), "CARD_DATA_OFFLINE": "1", "ACCESS_LOG": "", "LOG_LEVEL": "warning",
                    "RATELIMIT_ENABLED": "1", "RATELIMIT": "100000000/minute",
                    **extra}
        with live_server.gunicorn(log, ready_path="/readyz", app=app, **settings) as (base, process):
            yield base, process.pid


def fetch(base: str, body: bytes) -> bytes:
    """The service's response body for the deck, byte for byte (the floor serves it)."""
    request = urllib.request.Request(base + "/api/v1/validate", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


def check_deck(base: str, body: bytes) -> dict:
    """One request first: the benchmark is only meaningful if the deck validates as expected."""
    request = urllib.request.Request(base + "/api/v1/validate", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        report = json.load(response)
    if report["card_count"] != 100:
        raise RuntimeError(f"benchmark deck has {report['card_count']} cards, not 100")
    return report


def wrk(base: str, script: Path, body: Path, *, threads: int, connections: int, seconds: int) -> dict:
    """Run wrk and return its RESULT line as numbers; any error or non-2xx fails the run."""
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", str(script),
         base + "/api/v1/validate"],
        env={**os.environ, "BENCH_BODY": str(body)}, capture_output=True, text=True, timeout=seconds + 30,
        check=True,
    ).stdout
    match = re.search(r"RESULT (.*)", output)
    if not match:
        raise RuntimeError("wrk printed no RESULT line:\n" + output)
    result = {key: int(value) for key, value in (pair.split("=") for pair in match.group(1).split())}
    if result["bad"]:
        raise RuntimeError(f"wrk saw {result['bad']} errors or non-2xx responses:\n{output}")
    return result


def wrk_version() -> str:
    """wrk's version line, to name the load tool precisely."""
    completed = subprocess.run(["wrk", "-v"], capture_output=True, text=True)
    return (completed.stdout or completed.stderr).split("[")[0].strip() or "wrk"


def measure(base: str, script: Path, body: Path, master: int) -> tuple[dict, list[dict], float]:
    """(one connection, THROUGHPUT_RUNS runs at THROUGHPUT_CONNECTIONS connections, slowest
    first) wrk results, after a warm-up, and the workers' CPU time per request over those
    runs in µs (what a request costs the server, whatever wrk and the machine's load take).
    Each run opens its connections anew: keep-alive connections stay with the worker that
    accepted them, and an uneven share (3 + 1 on two workers) leaves one core half idle for
    the whole run, so one run alone is a lottery."""
    wrk(base, script, body, threads=1, connections=1, seconds=1)  # warm every worker's caches
    single = wrk(base, script, body, threads=1, connections=1, seconds=LATENCY_SECONDS)
    cpu_before = workers_cpu_seconds(master)
    loaded = [wrk(base, script, body, threads=2, connections=THROUGHPUT_CONNECTIONS, seconds=THROUGHPUT_SECONDS)
              for _ in range(THROUGHPUT_RUNS)]
    cpu_us = (workers_cpu_seconds(master) - cpu_before) / sum(run["requests"] for run in loaded) * 1e6
    return single, sorted(loaded, key=rate), cpu_us


def workers(master: int) -> Iterator[tuple[Path, list[str]]]:
    """(/proc/PID, the stat fields after the command name) of each gunicorn worker (the
    master's children)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # a process that ended while we looked
        if int(fields[1]) == master:  # field 4 of stat, the parent pid
            yield stat.parent, fields


def worker_rss_mb(master: int) -> list[float]:
    """Resident memory of each gunicorn worker, from /proc, in MB."""
    sizes = []
    for folder, _ in workers(master):
        try:
            status = (folder / "status").read_text()
            sizes.append(int(re.search(r"VmRSS:\s+(\d+)", status)[1]) / 1024)
        except (OSError, TypeError):
            continue
    return sorted(sizes)


def workers_cpu_seconds(master: int) -> float:
    """User + system CPU time of the gunicorn workers so far (stat fields 14 and 15)."""
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(fields[11]) + int(fields[12]) for _, fields in workers(master)) / ticks


def rate(result: dict) -> float:
    """Requests per second of one wrk run."""
    return result["requests"] / (result["duration_us"] / 1e6)


def spread(runs: list[dict]) -> str:
    """The median run's rate and the range, from runs sorted by rate."""
    rates = [rate(run) for run in runs]
    return f"{rates[len(rates) // 2]:.0f} ({rates[0]:.0f}-{rates[-1]:.0f})"


def run() -> list[Row]:
    """Latency at one connection and throughput at four, for one 100-card deck; then the
    same for the floor (bench/floor_app.py: a fixed body of the same size, same settings)."""
    if find_wrk() is None:
        return skipped("http validate (100 cards)")
    store, deck, data = store_and_deck()
    with tempfile.TemporaryDirectory() as scratch:
        body, script = Path(scratch) / "deck.json", Path(scratch) / "post.lua"
        body.write_bytes(json.dumps({"decklist": deck}).encode())
        script.write_text(LUA, encoding="utf-8")
        with served(store) as (base, master):
            report = check_deck(base, body.read_bytes())
            answer = Path(scratch) / "answer.json"
            answer.write_bytes(fetch(base, body.read_bytes()))
            size = answer.stat().st_size
            single, loaded, cpu_us = measure(base, script, body, master)
            # the same deck with every format's verdict (include=formats, issue 21), same server
            every = Path(scratch) / "deck-formats.json"
            every.write_bytes(json.dumps({"decklist": deck, "include": ["formats"]}).encode())
            assert len(check_deck(base, every.read_bytes())["formats"]) == 7
            formats_single, formats_loaded, formats_cpu_us = measure(base, script, every, master)
            rss = worker_rss_mb(master)
        with served(store, app="bench.floor_app:app", BENCH_FLOOR_BODY=str(answer)) as (base, master):
            floor_single, floors, floor_cpu_us = measure(base, script, body, master)
        # The floor also under two threads a worker (the old default, its best setting here):
        # the service gains from one thread, a bare view from two; both shares are shown.
        with served(store, app="bench.floor_app:app", BENCH_FLOOR_BODY=str(answer), GUNICORN_THREADS="2") as (base, master):
            _, floors_two_threads, _ = measure(base, script, body, master)
    name = "http validate (100 cards)"
    decks, floor, floor_two = (rate(runs[len(runs) // 2]) for runs in (loaded, floors, floors_two_threads))
    conns = f"{THROUGHPUT_CONNECTIONS} connections"
    return [
        Row(name, "p50 latency, 1 connection", f"{single['p50_us'] / 1000:.2f} ms", "<= 1.5 ms"),
        Row(name, "p99 latency, 1 connection", f"{single['p99_us'] / 1000:.2f} ms"),
        Row(name, f"decks/s, {conns} (median of {THROUGHPUT_RUNS} runs, range)", spread(loaded), ">= 1500"),
        Row(name, f"p50 / p99, {conns} (median run)",
            f"{loaded[len(loaded) // 2]['p50_us'] / 1000:.2f} / {loaded[len(loaded) // 2]['p99_us'] / 1000:.2f} ms"),
        Row(name, f"floor: fixed {size}-byte body, req/s, {conns}", spread(floors)),
        Row(name, "floor: p50 latency, 1 connection", f"{floor_single['p50_us'] / 1000:.2f} ms"),
        Row(name, "decks/s as a share of the floor (same run, same settings)", f"{decks / floor:.0%}", ">= 65%"),
        Row(name, f"floor with GUNICORN_THREADS=2, req/s, {conns}", spread(floors_two_threads)),
        Row(name, "decks/s as a share of that floor", f"{decks / floor_two:.0%}"),
        Row(name, f"gunicorn workers' CPU per request, {conns}: service / floor",
            f"{cpu_us:.0f} / {floor_cpu_us:.0f} µs"),
        Row(name, "include=formats: p50 latency, 1 connection", f"{formats_single['p50_us'] / 1000:.2f} ms"),
        Row(name, f"include=formats: decks/s, {conns}", spread(formats_loaded)),
        Row(name, "include=formats / one validation: workers' CPU per request",
            f"{formats_cpu_us:.0f} / {cpu_us:.0f} µs = {formats_cpu_us / cpu_us:.2f}x", "< 3x"),
        Row(name, "RSS per worker after the runs (real store)", " / ".join(f"{mb:.0f} MB" for mb in rss)),
        Row(name, "setup", f"{wrk_version()} + Lua POST; gunicorn {GUNICORN_SETTINGS}, "
                           f"{os.cpu_count()} cores; {data}; {len(report['violations'])} violations; "
                           f"load {os.getloadavg()[0]:.1f}"),
    ]
