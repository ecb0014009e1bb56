"""POST /api/v1/validate/batch with 50 decks against 50 single POSTs of the same decks.

The real app (edh_service.factory.create_app) through Flask's test client on the real
store (bench_http's, built from ../shared/carddata), the decks the real precons of
../shared/decks (Forge and taw lists whose every name the store knows, cycled to 50). "One deck's time" is the mean of one
single request over those decks (each deck sent once a round, the median round counts),
so the ratio compares the same work; the batch and the single rounds alternate, so the
machine's load weighs on both alike. Target (issue 24): the batch at most 40x one deck.
Without ../shared: skipped.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

from bench.bench_http import REAL_CARDS, store_and_deck
from bench.common import SHARED, Row, millis

NAME = "batch (50 decks)"
DECKS = 50
ROUNDS = 9


def decklists(client) -> list[str]:
    """DECKS real precon lists, the Forge .dck files and the taw text files, cycled: those
    whose every name the store knows (a fuzzy suggestion costs milliseconds, and a batch
    shares their budget by design, so typos would measure rapidfuzz and differ on purpose)."""
    folder = SHARED / "decks"
    files = sorted((folder / "forge-precons").glob("*.dck")) + sorted((folder / "taw-precons").rglob("*.txt"))
    texts = [path.read_text(encoding="utf-8") for path in files]
    known = [text for text in texts if not any(
        v["code"] == "unknown_card" for v in _post(client, "/api/v1/validate", {"decklist": text})["violations"])]
    return [known[i % len(known)] for i in range(DECKS)]


def _client(db: Path):
    from edh_service.factory import create_app

    app = create_app({"CARD_DB": str(db), "CARD_DATA_OFFLINE": True, "CARD_DATA_SYNC": False})
    return app.test_client()


def _post(client, path: str, body: dict) -> dict:
    response = client.post(path, json=body)
    if response.status_code != 200:
        raise RuntimeError(f"{path} answered {response.status_code}: {response.get_data(as_text=True)[:300]}")
    return response.get_json()


def run() -> list[Row]:
    """Median batch time, median per-deck single time, and their ratio."""
    if not REAL_CARDS.is_file() or not (SHARED / "decks").is_dir():
        return [Row(NAME, "skipped", "../shared is absent")]
    db, _, _ = store_and_deck()
    client = _client(db)
    decks = decklists(client)
    batch_body = {"decks": [{"decklist": text} for text in decks]}
    results = _post(client, "/api/v1/validate/batch", batch_body)["results"]
    singles = [_post(client, "/api/v1/validate", {"decklist": text}) for text in decks]
    if results != singles:  # the batch must answer exactly what one request a deck answers
        raise RuntimeError("the batch's results differ from the single requests'")
    batch_times, single_times = [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        _post(client, "/api/v1/validate/batch", batch_body)
        batch_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for text in decks:
            _post(client, "/api/v1/validate", {"decklist": text})
        single_times.append((time.perf_counter() - start) / len(decks))
    batch, single = statistics.median(batch_times), statistics.median(single_times)
    cards = sum(result["card_count"] for result in results) / len(results)
    return [
        Row(NAME, f"POST /api/v1/validate/batch, {DECKS} real precons, median of {ROUNDS}", millis(batch)),
        Row(NAME, "POST /api/v1/validate, one of those decks (mean of the 50), median round", millis(single)),
        Row(NAME, "batch time / one deck's time", f"{batch / single:.1f}x", "≤ 25x"),
        Row(NAME, "setup", f"Flask test client, real store, {cards:.0f} cards a deck on average; "
                           f"load {os.getloadavg()[0]:.1f}"),
    ]
