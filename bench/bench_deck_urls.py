"""A validation by URL (POST /api/v1/validate {"url": ...}, through the app in process)
against a local Archidekt-shaped server serving the real 3 Amigos document (280 KB, 93
entries), on the real store: not cached (every request asks the site: spaced past the
site's 2-a-second budget so no request waits for a slot), cached (the deck kept for
DECK_URL_CACHE_SECONDS), and the same deck sent as its text, for what the link adds."""

from __future__ import annotations

import json
import shutil
import tempfile
import statistics
import time
from pathlib import Path

from bench.common import SHARED, Row, median_seconds, millis
from bench.bench_http import REAL_CARDS, store_and_deck
from card_data.coordination.files import SITE_INTERVAL
from tests.support.apps import offline_app
from tests.support.site_server import ARCHIDEKT_REAL, SiteServer

NAME = "deck by URL"
LINK = "https://archidekt.com/decks/1365846/3_amigos"
UNCACHED_RUNS = 10


def run() -> list[Row]:
    """Median request times by URL, cached and not, and by text."""
    document = SHARED / "decks" / "site-api" / ARCHIDEKT_REAL
    if not (REAL_CARDS.is_file() and document.is_file()):
        return [Row(NAME, "skipped", "../shared is absent")]
    db, _, _ = store_and_deck()
    # Each app on a copy of its own: the deck cache lives in files beside the store, so a
    # shared store would answer from the other app's (or an earlier run's) entries.
    with tempfile.TemporaryDirectory() as scratch, SiteServer(archidekt={"1365846": document.read_bytes()}) as site:
        copies = [Path(scratch) / name / db.name for name in ("cached", "fresh")]
        for copy in copies:
            copy.parent.mkdir()
            shutil.copyfile(db, copy)
        cached = offline_app(copies[0], **site.config()).test_client()
        fresh = offline_app(copies[1], **site.config(DECK_URL_CACHE_SECONDS=0)).test_client()
        body = {"url": LINK, "bracket": None}
        first = cached.post("/api/v1/validate", json=body)
        assert first.status_code == 200, first.get_data(as_text=True)
        text = first.get_json()["decklist"]

        def uncached_once() -> float:
            time.sleep(SITE_INTERVAL + 0.05)  # past the budget: the request itself, no wait for a slot
            started = time.perf_counter()
            answer = fresh.post("/api/v1/validate", json=body)
            assert answer.status_code == 200
            return time.perf_counter() - started

        uncached = statistics.median(uncached_once() for _ in range(UNCACHED_RUNS))
        asked = len(site.requests)
        assert asked == 1 + UNCACHED_RUNS, (asked, [r.path for r in site.requests][:3])
        by_link = median_seconds(lambda: cached.post("/api/v1/validate", json=body), repeat=200, warmup=10)
        by_text = median_seconds(lambda: cached.post("/api/v1/validate", json={"decklist": text, "bracket": None}),
                                 repeat=200, warmup=10)
        assert len(site.requests) == asked  # the cached runs asked the site nothing
    return [
        Row(NAME, f"validate by URL, not cached: the site asked each time (median of {UNCACHED_RUNS})", millis(uncached),
            "< 10 s (the fetch deadline)"),
        Row(NAME, "validate by URL, cached (DECK_URL_CACHE_SECONDS)", millis(by_link)),
        Row(NAME, "the same deck sent as decklist text", millis(by_text)),
    ]


if __name__ == "__main__":
    print(json.dumps([row.__dict__ for row in run()], indent=1))
