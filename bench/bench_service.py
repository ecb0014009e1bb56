"""pipeline.validate_text on the real store: a 100-card Forge precon parsed, its names
resolved from a warm store and every rule applied (what one API request costs without
HTTP), and the same deck as a plain 100-line list (`Commander`, `1 Name` lines, `Deck`).
Also how much memory the per-store-file name memos take when full."""

from __future__ import annotations

import os
import tracemalloc

from bench.common import Row, median_seconds, micros
from bench.bench_http import REAL_CARDS, REAL_DECK, store_and_deck
from card_data import open_repository
from card_data.store import cards as store
from card_data.settings import StoreSettings
from edh_service import pipeline as service
from validator.parse.text import _CARD_LINES as card_lines

NAME = "service"


def memo_megabytes(repository) -> float:
    """Bytes the full per-store-file name memos hold (MAX_MEMO_NAMES distinct typed names, or
    as many as MAX_MEMO_CHARACTERS hold: name -> key and name -> card, kept for names the
    store knows), in MB."""
    snapshot = repository.store.snapshot()
    generation = snapshot.generation
    card = next(iter(repository.resolve(["Sol Ring"]).cards.values()))  # shared: the memo holds references
    generation.keys_by_name.clear()
    generation.cards_by_name.clear()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(store.MAX_MEMO_NAMES):
        name = f"Some Typed Card Name, the {i}th"
        snapshot.remember({name: card}, {name: snapshot.key_of(name)})
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    generation.keys_by_name.clear()
    generation.cards_by_name.clear()
    return used / 1e6


def plain_list(forge_deck: str) -> str:
    """The Forge deck as a typed list: a `Commander` block, then `Deck` and `N Name` lines."""
    sections: dict[str, list[str]] = {}
    section = ""
    for line in forge_deck.splitlines():
        if line.startswith("["):
            section = line.strip("[]").lower()
        elif line.strip() and section in ("commander", "main"):
            sections.setdefault(section, []).append(line.split("|")[0])
    return "Commander\n" + "\n".join(sections["commander"]) + "\n\nDeck\n" + "\n".join(sections["main"]) + "\n"


def run() -> list[Row]:
    """Median validate_text time for the real deck, as Forge wrote it and as a plain list,
    on a warm store."""
    if not (REAL_CARDS.is_file() and REAL_DECK.is_file()):
        return [Row(NAME, "skipped", "../shared is absent")]
    db, deck, data = store_and_deck()
    repository = open_repository(StoreSettings(db, offline=True))
    rows = []
    for label, text in (("Forge precon", deck), ("plain 100-line list", plain_list(deck))):
        report = service.validate_text(text, repository).report
        assert report.card_count == 100 and report.valid, report  # a failing deck would mislead
        seconds = median_seconds(lambda: service.validate_text(text, repository), repeat=1000, warmup=50)
        rows.append(Row(NAME, f"validate_text, 100-card {label}, warm store, median", micros(seconds), "≤ 150 µs"))
    # The same with no line read before (the line reader's memo emptied before each call):
    # what a list of cards no earlier list had costs
    cold = median_seconds(lambda: (card_lines.clear(), service.validate_text(deck, repository)), repeat=1000,
                          warmup=50)
    rows.append(Row(NAME, "validate_text, Forge precon, no line seen before (line memo emptied), median",
                    micros(cold)))
    return rows + [
        Row(NAME, f"name memos when full ({store.MAX_MEMO_NAMES:,} names)", f"{memo_megabytes(repository):.1f} MB",
            "≤ 20 MB"),
        Row(NAME, "setup", f"{data}; load {os.getloadavg()[0]:.1f}"),
    ]
