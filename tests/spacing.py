"""Checking that rate-limited requests went out spaced, in a way load on the machine cannot fail.

Comparing the arrival times of two requests at the local server flaked on a loaded
machine: when the earlier request was held up between its slot claim and its arrival
(a thread not scheduled, a busy server thread) and the later one was not, their arrivals
were closer than the interval the client kept. So the client side records when each claim
that let a request go began (`RecordedLimits`, time.monotonic: the server's clock, and one
clock for every process on the machine), and `assert_spaced` compares each arrival with
the claims before it. A request can't arrive before its own claim, and claims are
RATE_LIMITED_INTERVAL apart, so delays only widen those gaps; a budget that is not shared
(two clients claiming at once) or a shorter interval still narrows them below it.
"""

from __future__ import annotations

import time

from card_data.client import RATE_LIMITED_INTERVAL, RateLimits

SCRYFALL_INTERVAL = 0.5  # Scryfall allows 2 requests a second on /cards/collection and /cards/search
# Claims are spaced in wall-clock time (time.time, stored to the microsecond) and measured
# here in monotonic time: the two clocks may drift apart by a fraction of a millisecond.
CLOCK_SLACK = 0.005


class RecordedLimits(RateLimits):
    """RateLimits that note when each successful claim began, in `starts` (shareable: pass
    one list to several clients)."""

    def __init__(self, path=None, starts: list[float] | None = None) -> None:
        super().__init__(path)
        self.starts = [] if starts is None else starts

    def acquire_slot(self) -> float:
        """RateLimits.acquire_slot, noting the start of a call that claimed the slot."""
        began = time.monotonic()
        wait = super().acquire_slot()
        if wait == 0.0:
            self.starts.append(began)
        return wait


def assert_spaced(starts: list[float], arrivals: list[float]) -> None:
    """Request k + n (in arrival order) arrived at least n intervals after claim k began.

    Sorted both ways: the n + 1 earliest arrivals include a request claimed n intervals or
    more after the k-th claim, whichever request that is. With n = 2 and the 0.7 s
    interval this also says Scryfall's rule: never three requests within one second."""
    assert RATE_LIMITED_INTERVAL >= SCRYFALL_INTERVAL, "the client's interval is shorter than Scryfall allows"
    starts, arrivals = sorted(starts), sorted(arrivals)
    assert len(starts) == len(arrivals), (starts, arrivals)
    short = [(k, later, round(arrivals[later] - starts[k], 3)) for k in range(len(starts))
             for later in range(k + 1, len(arrivals))
             if arrivals[later] - starts[k] < (later - k) * RATE_LIMITED_INTERVAL - CLOCK_SLACK]
    assert not short, f"(claim, arrival, seconds) closer than {RATE_LIMITED_INTERVAL} s a step: {short}"
