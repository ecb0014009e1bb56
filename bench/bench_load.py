"""Load test: sustained decks/s and latency under 1, 8 and 32 concurrent connections, with a
mix of legal and illegal decks, against gunicorn on loopback.

bench_http.py measures one deck's latency and throughput at four connections; this one
asks how the service holds up as concurrency grows past the worker count (2 workers x 1
thread on 2 cores), and what fraction of requests fail. The load generator is wrk with a
Lua script that rotates through four request bodies: the real precon (legal), the same with
an off-color card, with a typo (an unknown_card with fuzzy suggestions: the costly path),
and one card short. gunicorn starts as bench_http starts it (its helpers are reused).
Bounded: 3 levels x LEVEL_SECONDS plus a 1 s warm-up, about 20 s in all.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from bench.bench_http import gunicorn, store_and_deck, wrk_version
from bench.common import Row
from bench.load_tool import find_wrk, skipped

LEVELS = (1, 8, 32)  # concurrent keep-alive connections
LEVEL_SECONDS = 5

LUA = """
local bodies = {}
for path in string.gmatch(os.getenv("BENCH_BODIES"), "[^;]+") do
  local file = io.open(path, "rb")
  bodies[#bodies + 1] = file:read("*a")
  file:close()
end
local counter = 0
local headers = {["Content-Type"] = "application/json"}

request = function()
  counter = counter % #bodies + 1  -- rotate: every connection sends the whole mix
  return wrk.format("POST", "/api/v1/validate", headers, bodies[counter])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d non2xx=%d socket_errors=%d\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
"""


MAIN_HEADERS = {"[main]", "deck", "main", "mainboard"}


def variants(deck: str) -> dict[str, str]:
    """The request mix: the deck itself and three illegal variations of its main deck
    (edited right after the main header: lines appended at the end would land in a
    sideboard section)."""
    lines = deck.rstrip("\n").split("\n")
    main = next((i + 1 for i, line in enumerate(lines) if line.strip().lower() in MAIN_HEADERS), len(lines))

    def edited(insert: list[str], drop: int = 0) -> str:
        return "\n".join(lines[:main] + insert + lines[main + drop:]) + "\n"

    return {
        "as listed": deck,
        "off-color card": edited(["1 Swords to Plowshares"]),
        "a typo": edited(["1 Lightnig Bolt"]),
        "one card short": edited([], drop=1),
    }


def check_mix(base: str, bodies: dict[str, bytes]) -> dict[str, list[str]]:
    """Validate each body once: all must be 200s; returns each one's violation codes."""
    codes = {}
    for name, body in bodies.items():
        request = urllib.request.Request(base + "/api/v1/validate", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            codes[name] = sorted({v["code"] for v in json.load(response)["violations"]})
    if len({tuple(c) for c in codes.values()}) < 2:
        raise RuntimeError(f"the request mix is not mixed: {codes}")
    return codes


def load(base: str, script: Path, bodies: list[Path], connections: int, seconds: int) -> dict[str, int]:
    """One wrk run; returns its RESULT line as numbers (non-2xx are counted, not fatal)."""
    threads = min(2, connections)  # wrk shares the two cores with gunicorn
    output = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script),
         base + "/api/v1/validate"],
        env={**os.environ, "BENCH_BODIES": ";".join(map(str, bodies))},
        capture_output=True, text=True, timeout=seconds + 30, check=True,
    ).stdout
    match = re.search(r"RESULT (.*)", output)
    if not match:
        raise RuntimeError("wrk printed no RESULT line:\n" + output)
    return {key: int(value) for key, value in (pair.split("=") for pair in match.group(1).split())}


def run() -> list[Row]:
    """Decks/s, p50/p99, requests served and failures at each concurrency level."""
    if find_wrk() is None:
        return skipped("load, 4-deck mix")
    store, deck, data = store_and_deck()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "mix.lua"
        script.write_text(LUA, encoding="utf-8")
        bodies = {name: json.dumps({"decklist": text}).encode() for name, text in variants(deck).items()}
        paths = []
        for index, body in enumerate(bodies.values()):
            paths.append(Path(scratch) / f"body{index}.json")
            paths[-1].write_bytes(body)
        with gunicorn(store) as base:
            mix = check_mix(base, bodies)
            load(base, script, paths, 2, 1)  # warm every worker's caches (suggestion index too)
            results = {level: load(base, script, paths, level, LEVEL_SECONDS) for level in LEVELS}
    name = "load, 4-deck mix"
    for level, result in results.items():
        seconds = result["duration_us"] / 1e6
        failed = result["non2xx"] + result["socket_errors"]
        rows.append(Row(name, f"{level} connections: decks/s", f"{result['requests'] / seconds:.0f}"))
        rows.append(Row(name, f"{level} connections: p50 / p99",
                        f"{result['p50_us'] / 1000:.1f} / {result['p99_us'] / 1000:.1f} ms"))
        rows.append(Row(name, f"{level} connections: served / failed",
                        f"{result['requests']} / {failed}", "0 failed"))
    rows.append(Row(name, "setup", f"{wrk_version()}, {LEVEL_SECONDS} s a level; gunicorn gthread "
                                   f"(edh_service/serving/gunicorn_conf.py), {os.cpu_count()} cores; {data}; mix: "
                    + "; ".join(f"{k} -> {','.join(v) or 'valid'}" for k, v in mix.items())))
    return rows
