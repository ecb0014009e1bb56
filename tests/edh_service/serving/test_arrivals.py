"""edh_service.serving.arrivals: who holds the connections still arriving in a worker, and the bytes
charged to its receive budget (the worker itself: tests/hardening/test_connection_floods.py)."""

from __future__ import annotations

import pytest

from edh_service.serving.arrivals import SMALL_REQUEST, Arrival, Arrivals, address_of
from edh_service.serving.request_framing import Framing


def arrival(address: str, size: int = 0) -> Arrival:
    made = Arrival(Framing(body_limit=10**9), waiting_since=0.0, address=address)
    made.data += b"x" * size
    return made


@pytest.mark.parametrize(("client", "address"), [
    (("203.0.113.7", 50000), "203.0.113.7"),
    (("2001:db8::1", 50000, 0, 0), "2001:db8::/64"),
    (("2001:db8::ffff:1", 1, 0, 0), "2001:db8::/64"),  # one host gets a whole /64
    (("::ffff:203.0.113.7", 1, 0, 0), "203.0.113.7"),
    (("fe80::1%eth0", 1, 0, 2), "fe80::/64"),
    ("", ""),  # a UNIX socket
    (("not an address", 1), "not an address"),
])
def test_connections_are_counted_by_address_and_ipv6_by_its_64(client, address):
    assert address_of(client) == address


def test_an_address_over_its_share_gives_up_its_own_oldest_arrival():
    arrivals = Arrivals(most=10, per_address=3, budget=10**9, address_budget=10**9)
    for n in range(3):
        arrivals.add(f"a{n}", arrival("A"))
    arrivals.add("b0", arrival("B"))
    assert arrivals.to_make_room("B") is None
    assert arrivals.to_make_room("A") == "a0"
    arrivals.remove("a0")
    arrivals.add("a3", arrival("A"))
    assert arrivals.to_make_room("A") == "a1" and len(arrivals) == 4


def test_a_full_worker_takes_room_from_the_address_holding_the_most():
    arrivals = Arrivals(most=5, per_address=4, budget=10**9, address_budget=10**9)
    for name, address in (("b0", "B"), ("a0", "A"), ("a1", "A"), ("a2", "A"), ("c0", "C")):
        arrivals.add(name, arrival(address))
    assert arrivals.to_make_room("D") == "a0"  # not B's, though it is older
    for name in ("a0", "a1", "a2"):
        arrivals.remove(name)
    assert arrivals.to_make_room("D") is None and set(arrivals.by_address) == {"B", "C"}


def test_bytes_past_a_small_request_are_charged_to_the_worker_and_the_address():
    arrivals = Arrivals(most=10, per_address=10, budget=300_000, address_budget=100_000)
    first = arrival("A", SMALL_REQUEST)
    arrivals.add("a0", first)
    assert arrivals.charged == 0  # a small request is never charged
    assert arrivals.may_receive(first, 100_000) and not arrivals.may_receive(first, 100_001)
    arrivals.received(first, b"x" * 90_000)
    assert (arrivals.charged, arrivals.charged_by_address) == (90_000, {"A": 90_000})
    second = arrival("A")
    arrivals.add("a1", second)
    assert arrivals.may_receive(second, SMALL_REQUEST)  # small: whatever the address holds
    assert not arrivals.may_receive(second, SMALL_REQUEST + 10_001)
    other = arrival("B")
    arrivals.add("b0", other)
    assert arrivals.may_receive(other, SMALL_REQUEST + 100_000)  # B has a share of its own
    assert arrivals.remove("a0") is first and arrivals.remove("a0") is None
    assert (arrivals.charged, arrivals.charged_by_address) == (0, {})


def test_a_worker_out_of_file_descriptors_closes_an_arrival_instead_of_dying():
    """accept() failing with EMFILE (a flood under a low `ulimit -n`) ended the worker; now
    the arrival the shares would close next is closed, and the worker goes on."""
    import errno

    from edh_service.serving.worker import BufferingWorker

    worker = BufferingWorker.__new__(BufferingWorker)  # no process: only accept() is exercised
    worker.arriving = Arrivals(most=10, per_address=10, budget=10**9, address_budget=10**9)
    worker.arriving.add("oldest", arrival("A"))
    worker.arriving.add("newer", arrival("A"))
    closed = []
    worker.make_room = closed.append

    class Listener:
        def accept(self):
            raise OSError(errno.EMFILE, "Too many open files")

    worker.accept(Listener())
    assert closed == ["oldest"]
