"""Three real gunicorn instances behind a real HAProxy (tests/support/cluster.py): a crashed
instance and a rolling restart under a short, bounded load over loopback."""

from __future__ import annotations

import shutil
import threading
import time
from dataclasses import dataclass

import pytest
import requests

from tests.support import cluster as cluster_module
from tests.support.cluster import Cluster
from tests.support.waiting import wait_for

pytestmark = pytest.mark.skipif(not cluster_module.available(),
                                reason="Debian's haproxy is not installed (.ci/run installs it)")

DECK = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n1 Lightning Bolt\n97 Forest\n1 Mana Crypt\n"
EXPECTED_CODES = {"banned", "color_identity", "deck_size"}


@dataclass(frozen=True)
class Outcome:
    started: float
    ended: float
    result: str  # "ok", or what went wrong


class Load:
    """`clients` threads POSTing the deck through HAProxy (keep-alive sessions) until stopped."""

    def __init__(self, url: str, clients: int = 4) -> None:
        self.url = url + "/api/v1/validate"
        self.outcomes: list[Outcome] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._client, daemon=True) for _ in range(clients)]

    def _client(self) -> None:
        with requests.Session() as session:
            while not self._stop.is_set():
                started = time.monotonic()
                try:
                    response = session.post(self.url, json={"decklist": DECK}, timeout=10)
                    result = self._judge(response)
                except requests.RequestException as error:
                    result = f"{type(error).__name__}: {error}"
                self.outcomes.append(Outcome(started, time.monotonic(), result))

    @staticmethod
    def _judge(response: requests.Response) -> str:
        """"ok" for the right report; else what came back."""
        if response.status_code != 200:
            return f"HTTP {response.status_code}: {response.text[:200]}"
        codes = {violation["code"] for violation in response.json()["violations"]}
        return "ok" if codes == EXPECTED_CODES else f"wrong codes {sorted(codes)}"

    def __enter__(self) -> "Load":
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=30)

    def failures(self, since: float = 0.0) -> list[Outcome]:
        return [o for o in self.outcomes if o.result != "ok" and o.started >= since]


@pytest.fixture
def three_instances(fixture_db, tmp_path):
    """Three instances, each with its own copy of the fixture store, behind HAProxy."""
    stores = []
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
        stores.append(shutil.copyfile(fixture_db, tmp_path / name / "cards.sqlite3"))
    with Cluster(tmp_path / "cluster", stores, CARD_DATA_OFFLINE="1") as cluster:
        yield cluster


def test_a_crashed_instance_then_a_rolling_restart_lose_nothing(three_instances):
    cluster = three_instances
    with Load(cluster.url) as load:
        time.sleep(1.0)
        killed_at = time.monotonic()
        cluster.kill(0)  # SIGKILL: master and workers at once
        marked_down = cluster.wait_state(0, "DOWN")
        # the two survivors carry the load (however slowly a loaded machine answers)
        assert wait_for(lambda: len([o for o in load.outcomes if o.started >= marked_down]) >= 10, timeout=30)
    crash = load.outcomes
    served_after = [o for o in crash if o.started >= marked_down]
    assert len(served_after) >= 10 and load.failures(since=marked_down) == []
    assert marked_down - killed_at < cluster_module.detection_bound()  # the config's failed checks, plus slack
    # Requests in flight at the crash are retried on another instance by HAProxy.
    assert len(load.failures()) <= 4, load.failures()  # at most one per client, and reported

    cluster.restart(0)
    cluster.wait_state(0, "UP")
    pids = [process.pid for process in cluster.instances]
    with Load(cluster.url) as load:
        time.sleep(0.5)
        cluster.rolling_restart()  # SIGTERM one at a time, each back UP before the next
        time.sleep(0.5)
    assert load.failures() == []
    assert len(load.outcomes) >= 20
    assert all(new != old for new, old in zip((p.pid for p in cluster.instances), pids))
    assert set(cluster.states().values()) == {"UP"}
    crash_failures = sorted({o.result[:80] for o in crash if o.result != "ok"})
    print(f"crash: {len(crash)} requests, {len([o for o in crash if o.result != 'ok'])} failed {crash_failures} "
          f"(0 after HAProxy marked it down, {marked_down - killed_at:.2f} s after the kill); "
          f"rolling restart: {len(load.outcomes)} requests, 0 failed")
