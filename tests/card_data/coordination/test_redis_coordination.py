"""Scryfall's budget and lockout, and the sync lock, shared by instances through a real
redis-server (card_data/coordination/redis_backend.py); Redis going away fails open and comes back.

Each "instance" has its own store folder, so nothing is shared through the file backend:
what the instances share, they share through Redis.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest

from card_data import CardDataUnavailable
from card_data.scryfall.client import ScryfallClient
from card_data.coordination.redis_backend import RETRY_INTERVAL, RedisCoordination
from tests.support.spacing import RecordedLimits, assert_spaced
from tests.support.waiting import run_in_threads, wait_for

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def instance(redis_server):
    """instance(folder, **options): one instance's coordination (its own store folder, the
    shared Redis); every one is closed after the test."""
    made = []

    def make(folder: Path, **options) -> RedisCoordination:
        folder.mkdir(parents=True, exist_ok=True)
        made.append(RedisCoordination(redis_server.url, folder / "cards.sqlite3", **options))
        return made[-1]

    yield make
    for coordination in made:
        coordination.close()


def client_for(server, coordination, starts: list[float] | None = None) -> ScryfallClient:
    """A client on the instance's budget, noting when its claims began in `starts`
    (tests/support/spacing.py); generous timeouts: a late answer on a loaded machine is no fault."""
    return ScryfallClient(server.base_url, backoff=0, timeout=(5.0, 10.0),
                          limits=RecordedLimits(coordination.limits, starts))


def test_two_instances_share_one_budget(instance, scryfall_server, tmp_path):
    starts: list[float] = []
    clients = [client_for(scryfall_server, instance(tmp_path / name), starts) for name in "ab"]
    run_in_threads([lambda c=client: c.fetch_collection(["Sol Ring"]) for client in clients for _ in range(3)])
    times = scryfall_server.collection_times()
    assert len(times) == 6
    assert_spaced(starts, times)  # spaced by the cluster budget: never three within a second


SCRIPT = """
import json, sys
from card_data.scryfall.client import ScryfallClient
from card_data.coordination import coordination_for
from card_data.settings import StoreSettings
from tests.support.spacing import RecordedLimits
api, redis_url, db, rounds = sys.argv[1:5]
limits = RecordedLimits(coordination_for(StoreSettings(db, redis_url=redis_url)).limits)
client = ScryfallClient(api, backoff=0, limits=limits)
try:
    for _ in range(int(rounds)):
        client.fetch_collection(["Sol Ring"])
finally:
    print(json.dumps(limits.starts))  # when its claims began (time.monotonic: one clock machine-wide)
"""


def run_instances(server, redis_url: str, folders: list[Path], rounds: int) -> list[tuple[int, str, list[float]]]:
    """One Python process per folder, all at once, each fetching `rounds` times through
    Redis; their (exit code, stderr, when their claims began)."""
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    processes = [subprocess.Popen([sys.executable, "-c", SCRIPT, server.base_url, redis_url,
                                   str(folder / "cards.sqlite3"), str(rounds)],
                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for folder in folders]
    return [(p.returncode, stderr, json.loads(stdout)) for p in processes
            for stdout, stderr in [p.communicate(timeout=60)]]


def test_separate_processes_stay_within_two_requests_a_second(redis_server, scryfall_server, tmp_path):
    outcomes = run_instances(scryfall_server, redis_server.url, [tmp_path / name for name in "abc"], 3)
    assert [code for code, _, _ in outcomes] == [0, 0, 0], outcomes
    times = scryfall_server.collection_times()
    assert len(times) == 9
    assert_spaced([start for _, _, starts in outcomes for start in starts], times)


def test_a_429_stops_every_instance_for_the_lockout(instance, redis_server, scryfall_server, tmp_path):
    first = client_for(scryfall_server, instance(tmp_path / "a"))
    scryfall_server.fail_next = [429]
    before_429 = time.monotonic()
    with pytest.raises(CardDataUnavailable):
        first.fetch_collection(["Sol Ring"])
    # Another process, another host's folder: it learns of the lockout from Redis alone.
    [(code, stderr, _)] = run_instances(scryfall_server, redis_server.url, [tmp_path / "b"], 1)
    assert code == 1 and "CardDataUnavailable: Scryfall rate limit" in stderr
    assert len(scryfall_server.requests) == 1  # the 429 only: nobody sent anything after it
    remaining = instance(tmp_path / "c").limits.lockout_remaining()
    since_429 = time.monotonic() - before_429
    assert 30 - since_429 - 0.01 <= remaining <= 30  # the 30 s lockout less the time since (Redis counts in ms)


# The sync lock's time to live in the tests below: renewed every LOCK_TTL / 3, so a renewal
# may come up to 2 s late (a loaded machine) before the lock lapses. With 1 s, a renewal
# 0.67 s late let another process in and the exclusivity test failed for the wrong reason.
LOCK_TTL = 3.0

LOCK_SCRIPT = """
import sys, time
from card_data.coordination.redis_backend import RedisCoordination
redis_url, db, ttl = sys.argv[1:4]
lock = RedisCoordination(redis_url, db, lock_ttl=float(ttl)).sync_lock()
print(f"held {lock.token}" if lock.acquire() else "refused", flush=True)
time.sleep(60)
"""


def start_lock_holder(redis_url: str, folder: Path, ttl: float = LOCK_TTL) -> tuple[subprocess.Popen, str]:
    """A process that tries the sync lock once and then lives on; (process, its answer:
    "held <its lock token>" or "refused")."""
    folder.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen([sys.executable, "-c", LOCK_SCRIPT, redis_url, str(folder / "cards.sqlite3"), str(ttl)],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
    answer = process.stdout.readline().strip()
    process.stdout.close()
    return process, answer


def kill(process: subprocess.Popen) -> None:
    """SIGKILL, as a crashed instance dies, and reap it."""
    process.kill()
    process.wait()


def test_the_sync_lock_is_exclusive_across_processes(instance, redis_server, tmp_path):
    holder, answer = start_lock_holder(redis_server.url, tmp_path / "a")
    try:
        assert answer.startswith("held ")
        token = answer.removeprefix("held ")
        owner = instance(tmp_path / "c", lock_ttl=LOCK_TTL)
        key = owner.sync_lock().key
        time.sleep(LOCK_TTL + 0.5)  # past the TTL: only the holder's renewals can have kept it
        assert owner.redis.get(key) == token  # still the holder's own lock, not a re-take by anyone
        other, answer = start_lock_holder(redis_server.url, tmp_path / "b")
        kill(other)
        assert answer == "refused"
        here = owner.sync_lock()
        assert here.acquire() is False
        assert owner.redis.get(key) == token
        kill(holder)  # a dead syncer's lock expires within the TTL (Redis's own expiry, no timing here)
        assert 0 < owner.redis.pttl(key) <= LOCK_TTL * 1000
        assert wait_for(here.acquire, timeout=LOCK_TTL + 10)
        assert here.held() and owner.redis.get(key) == here.token
        here.release()
        assert instance(tmp_path / "d").sync_lock().acquire() is True
    finally:
        kill(holder)


def test_redis_down_fails_open_and_comes_back(instance, redis_server, scryfall_server, tmp_path, caplog):
    coordination = instance(tmp_path / "a", lock_ttl=LOCK_TTL)
    starts: list[float] = []
    client = client_for(scryfall_server, coordination, starts)
    lock = coordination.sync_lock()
    assert lock.acquire()
    client.fetch_collection(["Sol Ring"])

    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger="card_data.coordination.redis_backend"):
        for _ in range(3):  # requests go on at this host's budget
            found, _ = client.fetch_collection(["Sol Ring"])
            assert [name for name, _ in found] == ["Sol Ring"]
        status = coordination.status()
        assert status["redis_up"] is False and status["redis_outages"] == 1 and status["redis_fallbacks"] >= 3
        # Only the lock's renewals call Redis now: one more fallback is a renewal during the
        # outage (or the lock is gone); the holder keeps syncing on its host's flock.
        assert wait_for(lambda: coordination.status()["redis_fallbacks"] > status["redis_fallbacks"]
                        or not lock.held())
        assert lock.held()
        down = [r for r in caplog.records if "Redis unreachable" in r.getMessage()]
        assert len(down) == 1  # logged once per outage, not once per request
    times = scryfall_server.collection_times()
    assert len(times) == 4
    assert_spaced(starts, times)  # the local budget holds (it knew of the request sent through Redis)

    redis_server.start()  # an empty Redis on the same port
    # A renewal tries Redis again RETRY_INTERVAL after the last failure, and the one that
    # reaches it re-takes the lock there (polled: a slow first answer counts as down again).
    assert wait_for(lambda: coordination.status()["redis_up"], timeout=10 * RETRY_INTERVAL)
    assert coordination.redis.get(lock.key) == lock.token  # the renewal re-took the lock in the new Redis
    assert instance(tmp_path / "b").sync_lock().acquire() is False
    assert lock.held()
    client.fetch_collection(["Sol Ring"])
    assert coordination.status()["redis_up"] is True
    # The budget is shared again: another instance's request waits for this one's slot.
    other = client_for(scryfall_server, instance(tmp_path / "c"), starts)
    other.fetch_collection(["Sol Ring"])
    times = scryfall_server.collection_times()
    assert len(times) == len(starts) == 6
    assert_spaced(starts[4:], times[4:])
    lock.release()


def test_while_redis_is_down_the_holder_keeps_its_host_to_itself(instance, redis_server, tmp_path):
    host = tmp_path / "host"  # two processes of one host: the same store folder
    holder = instance(host).sync_lock()
    assert holder.acquire()
    redis_server.stop()
    neighbour = instance(host).sync_lock()
    assert neighbour.acquire() is False  # the host's flock is the holder's
    other_host = instance(tmp_path / "other").sync_lock()
    assert other_host.acquire() is True  # fail open: one syncer per host during the outage
    other_host.release()
    holder.release()
    assert neighbour.acquire() is True
    neighbour.release()
