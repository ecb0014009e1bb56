"""Shared helpers for benchmarks: timing and the result row."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


@dataclass(frozen=True)
class Row:
    """One measured figure: what, how much, and the target it is judged against."""

    benchmark: str
    metric: str
    value: str
    target: str = ""


def median_seconds(fn: Callable[[], object], *, repeat: int = 200, warmup: int = 20) -> float:
    """Median wall time of one call of fn, in seconds, after a warm-up."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def micros(seconds: float) -> str:
    """Format seconds as microseconds."""
    return f"{seconds * 1e6:.1f} µs"


def millis(seconds: float) -> str:
    """Format seconds as milliseconds."""
    return f"{seconds * 1e3:.2f} ms"
