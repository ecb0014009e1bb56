"""service.validate_text on the real store: a 100-card Forge precon parsed, its names
resolved from a warm store and every rule applied (what one API request costs without
HTTP). Also how much memory the per-store-file name memos take when full."""

from __future__ import annotations

import os
import tracemalloc

from bench.common import Row, median_seconds, micros
from bench.bench_http import REAL_CARDS, REAL_DECK, store_and_deck
from card_data import open_repository, store
from card_data.settings import StoreSettings
from edh_service import pipeline as service

NAME = "service"


def memo_megabytes(repository) -> float:
    """Bytes the full per-store-file name memos hold (MAX_MEMO_NAMES distinct typed names:
    name -> key, and name -> card for names the store knows), in MB."""
    snapshot = repository.store.snapshot()
    generation = snapshot.generation
    card = next(iter(repository.resolve(["Sol Ring"]).cards.values()))  # shared: the memo holds references
    generation.keys_by_name.clear()
    generation.cards_by_name.clear()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(store.MAX_MEMO_NAMES):
        name = f"Some Typed Card Name, the {i}th"
        snapshot.key_of(name)
        snapshot.remember({name: card})
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    generation.keys_by_name.clear()
    generation.cards_by_name.clear()
    return used / 1e6


def run() -> list[Row]:
    """Median validate_text time for the real deck on a warm store."""
    if not (REAL_CARDS.is_file() and REAL_DECK.is_file()):
        return [Row(NAME, "skipped", "../shared is absent")]
    db, deck, data = store_and_deck()
    repository = open_repository(StoreSettings(db, offline=True))
    report = service.validate_text(deck, repository).report
    assert report.card_count == 100 and report.valid, report  # a failing deck would mislead
    seconds = median_seconds(lambda: service.validate_text(deck, repository), repeat=1000, warmup=50)
    return [
        Row(NAME, "validate_text, 100-card list, warm store, median", micros(seconds), "≤ 350 µs"),
        Row(NAME, f"name memos when full ({store.MAX_MEMO_NAMES:,} names)", f"{memo_megabytes(repository):.1f} MB",
            "≤ 20 MB"),
        Row(NAME, "setup", f"{data}; load {os.getloadavg()[0]:.1f}"),
    ]
