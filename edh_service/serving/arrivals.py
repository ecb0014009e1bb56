"""The requests a worker's poller is still receiving, and who sends them (gunicorn_worker.py).

A connection still sending its request holds no thread, but it holds a place among the
worker's connections and, with a body, part of its receive budget. Counted as one pool,
2,100 idle sockets that had sent one byte each filled both workers' `worker_connections`
until their deadline (every /healthz waited 29 s), and one client's 112 large bodies
filled the 64 MiB budget (every other request got a 503). So:

- at most `most` connections arrive at once in a worker, and one address at most
  `per_address` of them: a new connection is always taken, and the arrival that makes
  room is the oldest of its own address when that address is over its share, else the
  oldest of the address holding the most;
- a request's first SMALL_REQUEST bytes are never charged to the budget (a head, or a
  100-card list, is never refused for it); beyond them the worker's bytes stay within
  `budget`, and one address's within `address_budget`.

Behind a proxy every connection comes from the proxy's address: the proxy must receive
each request whole before passing it on (docs/proxy.md), so its arrivals are short.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any, Iterator

from edh_service.serving.request_framing import HEAD_LIMIT, Framing

SMALL_REQUEST = HEAD_LIMIT  # bytes of a request never charged to the receive budget


@dataclass(eq=False)
class Arrival:
    """One request being received by the poller."""

    framing: Framing
    waiting_since: float
    address: str = ""
    data: bytearray = field(default_factory=bytearray)
    started: float | None = None  # its first byte
    continued: bool = False  # a 100 Continue was sent
    registered: bool = False
    charged: int = 0  # bytes of it charged to the budget (those past SMALL_REQUEST)


def address_of(client: Any) -> str:
    """Who a connection comes from, as shares are counted: the IPv4 address, or the /64 of an
    IPv6 one (one host gets a whole /64); "" for anything else (a UNIX socket)."""
    host = client[0] if isinstance(client, tuple) and client else None
    if not isinstance(host, str):
        return ""
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Arrivals:
    """The arrivals of one worker, by connection and by address, and the bytes charged."""

    def __init__(self, *, most: int, per_address: int, budget: int, address_budget: int) -> None:
        self.most, self.per_address = most, per_address
        self.budget, self.address_budget = budget, address_budget
        self.by_connection: dict[Any, Arrival] = {}
        self.by_address: dict[str, dict[Any, None]] = {}  # address -> its connections, oldest first
        self.charged_by_address: dict[str, int] = {}
        self.charged = 0

    def __len__(self) -> int:
        return len(self.by_connection)

    def get(self, connection: Any) -> Arrival | None:
        """The arrival of a connection, if it is arriving."""
        return self.by_connection.get(connection)

    def items(self) -> Iterator[tuple[Any, Arrival]]:
        """(connection, arrival) pairs, a copy (the caller may remove as it goes)."""
        return iter(list(self.by_connection.items()))

    def to_make_room(self, address: str) -> Any | None:
        """The connection to give up before one more from `address` is taken, or None."""
        own = self.by_address.get(address)
        if own is not None and len(own) >= self.per_address:
            return next(iter(own))
        if len(self.by_connection) >= self.most and self.by_address:
            heaviest = max(self.by_address.values(), key=len)
            return next(iter(heaviest))
        return None

    def add(self, connection: Any, arrival: Arrival) -> None:
        """Count an arrival (make room first: to_make_room)."""
        self.by_connection[connection] = arrival
        self.by_address.setdefault(arrival.address, {})[connection] = None
        self._charge(arrival)

    def remove(self, connection: Any) -> Arrival | None:
        """Stop counting a connection's arrival (and its bytes); the arrival, if there was one."""
        arrival = self.by_connection.pop(connection, None)
        if arrival is None:
            return None
        own = self.by_address.get(arrival.address)
        if own is not None:
            own.pop(connection, None)
            if not own:
                del self.by_address[arrival.address]
        self._set_charge(arrival, 0)
        return arrival

    def may_receive(self, arrival: Arrival, size: int) -> bool:
        """Whether `size` more bytes of this arrival fit in the budgets."""
        more = max(0, len(arrival.data) + size - SMALL_REQUEST) - arrival.charged
        if more <= 0:
            return True
        held = self.charged_by_address.get(arrival.address, 0)
        return held + more <= self.address_budget and self.charged + more <= self.budget

    def received(self, arrival: Arrival, data: bytes) -> None:
        """Keep bytes that arrived, charged."""
        arrival.data += data
        self._charge(arrival)

    def _charge(self, arrival: Arrival) -> None:
        self._set_charge(arrival, max(0, len(arrival.data) - SMALL_REQUEST))

    def _set_charge(self, arrival: Arrival, charge: int) -> None:
        change = charge - arrival.charged
        if not change:
            return
        arrival.charged = charge
        self.charged += change
        held = self.charged_by_address.get(arrival.address, 0) + change
        if held:
            self.charged_by_address[arrival.address] = held
        else:
            self.charged_by_address.pop(arrival.address, None)
