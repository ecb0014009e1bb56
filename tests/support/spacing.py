"""Checking that rate-limited requests went out spaced, in a way load on the machine cannot fail.

Comparing the arrival times of two requests at the local server flaked on a loaded
machine: when the earlier request was held up between its slot claim and its arrival
(a thread not scheduled, a busy server thread) and the later one was not, their arrivals
were closer than the interval the client kept. So the client side records when each claim
that let a request go began (`RecordedLimits`, time.monotonic: the server's clock, and one
clock for every process on the machine), or Redis is watched for the claims every
instance makes through it (`RedisClaims`), and `assert_spaced` compares each arrival with
the claims before it. A request can't arrive before its own claim, and claims are
RATE_LIMITED_INTERVAL apart, so delays only widen those gaps; a budget that is not shared
(two clients claiming at once) or a shorter interval still narrows them below it.
"""

from __future__ import annotations

import re
import socket
import threading
import time
import uuid
from typing import TYPE_CHECKING

from card_data.coordination.files import RATE_LIMITED_INTERVAL, RateLimits

if TYPE_CHECKING:
    from card_data.coordination import Limits

SCRYFALL_INTERVAL = 0.5  # Scryfall allows 2 requests a second on /cards/collection and /cards/search
# Claims are spaced in wall-clock time (time.time, stored to the microsecond; Redis: to the
# millisecond) and measured here in monotonic time: the two clocks may drift apart by a
# fraction of a millisecond.
CLOCK_SLACK = 0.005
# A claim in MONITOR's stream: `+<unix time> [<db> lua] "SET" "<namespace>:scryfall:next-request" ...`
CLAIM_SEEN = re.compile(rb'\+?(\d+\.\d+) \[\d+ lua\] "set" "[^"]*:scryfall:next-request"', re.IGNORECASE)


class RecordedLimits:
    """A budget (by default a RateLimits of this process; any card_data.coordination.Limits,
    e.g. a file's or Redis's) that notes when each successful claim began, in `starts`
    (shareable: pass one list to several clients)."""

    def __init__(self, limits: "Limits | None" = None, starts: list[float] | None = None) -> None:
        self.limits = RateLimits() if limits is None else limits
        self.starts = [] if starts is None else starts

    def acquire_slot(self) -> float:
        """The budget's acquire_slot, noting the start of a call that claimed the slot."""
        began = time.monotonic()
        wait = self.limits.acquire_slot()
        if wait == 0.0:
            self.starts.append(began)
        return wait

    def lockout_remaining(self) -> float:
        return self.limits.lockout_remaining()

    def lock_out(self, seconds: float) -> None:
        self.limits.lock_out(seconds)


class RedisClaims:
    """The claims that every instance using a Redis made, seen from outside them: while in
    use, a MONITOR connection reads the SET of the next allowed send that the claim script
    (card_data.coordination.redis_backend._ACQUIRE_SLOT) makes when it claims, stamped with Redis's time.
    `starts()`: when each claim was made, in time.monotonic (Redis runs on this machine: its
    clock is time.time's)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._lines: list[bytes] = []
        self._sentinel = f"end-of-claims-{uuid.uuid4().hex}".encode()

    def __enter__(self) -> "RedisClaims":
        self._monitor = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        self._monitor.sendall(b"MONITOR\r\n")
        self._stream = self._monitor.makefile("rb")
        assert self._stream.readline() == b"+OK\r\n"
        self._monitor.settimeout(None)  # quiet spells are normal; __exit__ ends the reading
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        return self

    def _read(self) -> None:
        for line in self._stream:
            if self._sentinel in line:
                return
            self._lines.append(line)

    def __exit__(self, *exc_info: object) -> None:
        """Send the sentinel, so that every command before it has been read once it is seen."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as connection:
            connection.sendall(b"ECHO " + self._sentinel + b"\r\n")
            connection.recv(256)
        self._reader.join(timeout=10)
        self._stream.close()
        self._monitor.close()

    def starts(self) -> list[float]:
        """When each claim was made (time.monotonic), in order."""
        offset = time.time() - time.monotonic()
        return [float(match.group(1)) - offset for line in self._lines
                if (match := CLAIM_SEEN.match(line))]


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
