"""Cost checks that load on a shared 2-core machine cannot fail, each still failing when the
cost it guards goes quadratic (issue 19).

Time is this thread's CPU time (`time.thread_time`), not wall time: other processes on the
machine take turns on the cores but not from this thread's CPU clock, so a busy machine
slows a measurement far less than it delays it. Each figure is the best of a few runs, the
runs of the two sizes interleaved, so one slow moment cannot decide a comparison.

`assert_linear(make, size)` compares the work at `size` and at four times it: linear work
costs about 4 times as much (less, with a fixed part), quadratic work 16 times. The limit,
9, sits between them with room on each side.
"""

from __future__ import annotations

import time
from typing import Callable

GROWTH = 4  # the larger input is this many times the smaller
LINEAR_LIMIT = 9.0  # linear: ~4 (fixed costs make it less); quadratic: ~16


def cpu_seconds(work: Callable[[], object]) -> float:
    """This thread's CPU time for one call of work."""
    start = time.thread_time()
    work()
    return time.thread_time() - start


def best_of(works: list[Callable[[], object]], repeat: int = 3) -> list[float]:
    """The best CPU time of each work, the works run in turn `repeat` times."""
    best = [float("inf")] * len(works)
    for _ in range(repeat):
        for i, work in enumerate(works):
            best[i] = min(best[i], cpu_seconds(work))
    return best


def growth(make: Callable[[int], Callable[[], object]], size: int, repeat: int = 3) -> float:
    """How many times more the work made for GROWTH * size costs than the one for size."""
    small, large = make(size), make(GROWTH * size)
    small_seconds, large_seconds = best_of([small, large], repeat)
    return large_seconds / max(small_seconds, 1e-6)


def assert_linear(make: Callable[[int], Callable[[], object]], size: int, repeat: int = 3) -> None:
    """The work `make(n)` builds grows linearly in n (see the module docstring)."""
    ratio = growth(make, size, repeat)
    assert ratio < LINEAR_LIMIT, (
        f"{GROWTH}x the input cost {ratio:.1f}x the CPU time (linear is about {GROWTH}x): superlinear")
