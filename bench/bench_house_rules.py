"""House rules' cost (DESIGN.md "House rules"), on the real store and a real Forge precon:

- a validation judged under a profile of 10,000 real card names (none in the deck, as a
  store's long list would be) against the same validation with no house rules, through the
  whole API (`POST /api/v1/validate` on Flask's test client: the body read, the profile's
  stat, the engine, the JSON) and through pipeline.validate_text with the profile looked up
  (target: within 10%). The two are timed in alternation, so a busy machine slows both alike;
- the one-time cost of that profile: reading the file, and resolving its 10,000 names on the
  first request after it changes (each version resolves once per store build);
- inline rules of 20 names, the same with every request (kept resolved per store build), for
  comparison.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from bench.bench_http import REAL_CARDS, REAL_DECK, store_and_deck
from bench.common import Row, micros, millis

NAME = "house_rules"
PROFILE_NAMES = 10_000
ROUNDS = 2000


def alternating_medians(first: Callable[[], object], second: Callable[[], object], rounds: int = ROUNDS,
                        warmup: int = 100) -> tuple[float, float]:
    """Median seconds of each, timed in alternation (ABBA), after a warm-up of both."""
    for _ in range(warmup):
        first()
        second()
    samples: tuple[list[float], list[float]] = ([], [])
    for index in range(rounds):
        order = ((first, 0), (second, 1)) if index % 2 == 0 else ((second, 1), (first, 0))
        for fn, slot in order:
            start = time.perf_counter()
            fn()
            samples[slot].append(time.perf_counter() - start)
    return statistics.median(samples[0]), statistics.median(samples[1])


def profile_names(db: Path, deck: str, count: int = PROFILE_NAMES) -> list[str]:
    """`count` real card names from the store, none of them named in the deck."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        names = sorted(name for (name,) in conn.execute("SELECT name FROM cards"))
    return [name for name in names if name not in deck][:count]


def write_profile(folder: Path, names: list[str]) -> Path:
    """The profile file, settled (written a minute ago as far as its mtime says)."""
    quoted = ",\n  ".join('"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"' for name in names)
    path = folder / "long-list.toml"
    path.write_text(f'title = "The long list"\nbanned = [\n  {quoted},\n]\n', encoding="utf-8")
    then = time.time() - 60
    os.utime(path, (then, then))
    return path


def run() -> list[Row]:
    """The rows: API and pipeline ratios, the one-time costs, inline rules."""
    if not (REAL_CARDS.is_file() and REAL_DECK.is_file()):
        return [Row(NAME, "skipped", "../shared is absent")]
    from edh_service import pipeline
    from edh_service.api import responses
    from edh_service.card_extension import repository_of
    from edh_service.factory import create_app
    from edh_service.house_profiles import Profiles, read_profile, profiles_in

    db, deck, data = store_and_deck()
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        names = profile_names(db, deck)
        path = write_profile(folder, names)
        start = time.perf_counter()
        read_profile(path)
        read_seconds = time.perf_counter() - start

        app = create_app({"TESTING": True, "CARD_DB": str(db), "CARD_DATA_OFFLINE": True,
                          "HOUSE_RULES_DIR": str(folder)})
        client = app.test_client()
        plain = {"decklist": deck}
        judged = {"decklist": deck, "house_rules": "long-list"}
        client.post("/api/v1/validate", json=plain)  # the store warm
        start = time.perf_counter()
        first = client.post("/api/v1/validate", json=judged).get_json()
        first_seconds = time.perf_counter() - start
        assert first["house_rules"]["banned"] == PROFILE_NAMES and first["valid"], first["violations"]

        def post(body: dict) -> Callable[[], object]:
            return lambda: client.post("/api/v1/validate", json=body)

        without, under = alternating_medians(post(plain), post(judged))
        rows.append(Row(NAME, f"POST /api/v1/validate (test client), Forge precon: no house rules / a "
                              f"{PROFILE_NAMES:,}-name profile, medians",
                        f"{micros(without)} / {micros(under)} = {under / without:.3f}x", "≤ 1.10x"))

        repository = repository_of(app)
        profiles = profiles_in(app.extensions)

        def bare() -> dict:
            report, meta, translated = pipeline.validate_text(deck, repository)
            return responses.dump_report(report, meta, translated=translated)

        def profiled() -> dict:
            report, meta, translated = pipeline.validate_text(deck, repository, house_rules=profiles.get("long-list"))
            return responses.dump_report(report, meta, translated=translated)

        without, under = alternating_medians(bare, profiled)
        rows.append(Row(NAME, f"validate_text + dump_report, Forge precon: no house rules / the {PROFILE_NAMES:,}-name "
                              "profile (looked up, its file stat'ed), medians",
                        f"{micros(without)} / {micros(under)} = {under / without:.3f}x", "≤ 1.10x"))

        inline = {"decklist": deck, "house_rules": {"name": "Kitchen table", "banned": names[:20]}}
        without, under = alternating_medians(post(plain), post(inline), rounds=ROUNDS // 2)
        rows.append(Row(NAME, "POST /api/v1/validate, Forge precon: no house rules / 20 names sent inline "
                              "(the same list each time: kept resolved per store build), medians",
                        f"{micros(without)} / {micros(under)} = {under / without:.3f}x"))

        rows.append(Row(NAME, f"the {PROFILE_NAMES:,}-name profile once: read ({path.stat().st_size / 1024:.0f} KiB "
                              "of TOML) / its first request (names resolved)",
                        f"{millis(read_seconds)} / {millis(first_seconds)}"))
        rows.append(Row(NAME, "profiles read at start (Profiles(folder) with that one file)",
                        millis(_timed(lambda: Profiles(folder)))))
    rows.append(Row(NAME, "setup", f"{data}; load {os.getloadavg()[0]:.1f}"))
    return rows


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    for row in run():
        print(row)
