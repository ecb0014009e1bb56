"""What the all-formats block (include=formats) costs against one validation.

Measured twice: through service.validate_text on the real store (parse and resolve once,
then every format judged: what one API request with include=formats costs without HTTP;
target under 3x one validation), and through the engine alone on bench_engine's
hand-made deck (check(with_formats=True) against check()). The two calls of a pair run
alternately in one loop, so a loaded machine slows both alike and the ratio holds.
"""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import replace
from typing import Callable

from bench.bench_engine import build_cards, build_decklist
from bench.bench_http import REAL_CARDS, REAL_DECK, store_and_deck
from bench.common import Row, micros
from validator.engine import check
from validator.formats import KEYS

NAME = "formats"
TARGET = "< 3x"


def paired_medians(first: Callable[[], object], second: Callable[[], object], *, repeat: int,
                   warmup: int = 20) -> tuple[float, float]:
    """Median wall time of each of two calls, run alternately (first, second, first...)."""
    for _ in range(warmup):
        first()
        second()
    a, b = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        first()
        middle = time.perf_counter()
        second()
        b.append(time.perf_counter() - middle)
        a.append(middle - start)
    return statistics.median(a), statistics.median(b)


def _service_rows() -> list[Row]:
    """validate_text with and without with_formats, on the real store."""
    if not (REAL_CARDS.is_file() and REAL_DECK.is_file()):
        return [Row(NAME, "service rows skipped", "../shared is absent")]
    from card_data import open_repository
    from card_data.settings import StoreSettings
    from edh_service import pipeline as service

    db, deck, data = store_and_deck()
    repository = open_repository(StoreSettings(db, offline=True))
    report = service.validate_text(deck, repository, with_formats=True).report
    assert report.valid and report.formats["commander"].valid, report  # a failing deck would mislead
    assert tuple(report.formats) == KEYS
    one, every = paired_medians(lambda: service.validate_text(deck, repository),
                                lambda: service.validate_text(deck, repository, with_formats=True), repeat=600)
    legal_in = ", ".join(key for key, verdict in report.formats.items() if verdict.valid)
    return [
        Row(NAME, "validate_text, one format (Commander), median", micros(one)),
        Row(NAME, "validate_text, with_formats (7 formats), median", micros(every)),
        Row(NAME, "include=formats / one validation (service)", f"{every / one:.2f}x", TARGET),
        Row(NAME, "setup", f"{data}; legal in {legal_in}; load {os.getloadavg()[0]:.1f}"),
    ]


def _engine_rows() -> list[Row]:
    """check() with and without with_formats on bench_engine's deck, every key legal."""
    keys = {key: "legal" for key in KEYS}
    cards = {name: replace(card, legalities=keys) for name, card in build_cards().items()}
    decklist = build_decklist()
    report = check(decklist, cards, with_formats=True)
    assert [v.code for v in report.violations] == ["sideboard"], report.violations
    one, every = paired_medians(lambda: check(decklist, cards), lambda: check(decklist, cards, with_formats=True),
                                repeat=1000, warmup=100)
    return [
        Row(NAME, "check(decklist, cards), 100 cards, median", micros(one)),
        Row(NAME, "check(..., with_formats=True), median", micros(every)),
        Row(NAME, "with_formats / one check (engine alone)", f"{every / one:.2f}x"),
    ]


def run() -> list[Row]:
    """The service pair on the real store, then the engine pair."""
    return [*_service_rows(), *_engine_rows()]


if __name__ == "__main__":
    for row in run():
        print(row)
