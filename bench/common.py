"""Shared helpers for benchmarks: timing and the result row."""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


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


def instructions_per_call(script: str, args: list[str], calls: int) -> float:
    """Instructions one call of what `script` repeats executes, counted by valgrind's
    cachegrind (load-independent): the difference between a run of 0 and of `calls` calls.
    The script reads `args`, then the number of calls as its last argument."""
    counts = []
    for count in (0, calls):
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                               sys.executable, "-c", script, *args, str(count)],
                              cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"})
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if done.returncode != 0 or found is None:
            raise RuntimeError(f"cachegrind run failed: {done.stderr[-500:]}")
        counts.append(int(found.group(1).replace(",", "")))
    return (counts[1] - counts[0]) / calls
