"""Three real gunicorn instances behind a real HAProxy sharing one real Redis (REDIS_URL):
the per-client budget holds for the cluster, Scryfall's collection budget and 429 lockout
hold across instances, and Redis going away stops nothing (limits fail open and come back).
"""

from __future__ import annotations

import shutil
import threading
import time

import pytest
import requests

from tests.support import cluster as cluster_module
from tests.support.cluster import Cluster
from tests.support.spacing import RedisClaims, assert_spaced

pytestmark = pytest.mark.skipif(not cluster_module.available(),
                                reason="Debian's haproxy is not installed (.ci/run installs it)")

DECK = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n1 Lightning Bolt\n97 Forest\n1 Mana Crypt\n"
EXPECTED_CODES = {"banned", "color_identity", "deck_size"}
VALIDATE = "/api/v1/validate"


def stores(fixture_db, folder):
    """Three copies of the fixture store, one per instance (each keeps its own)."""
    copies = []
    for name in ("a", "b", "c"):
        (folder / name).mkdir()
        copies.append(shutil.copyfile(fixture_db, folder / name / "cards.sqlite3"))
    return copies


def validate(url: str, deck: str = DECK, session: requests.Session | None = None) -> requests.Response:
    return (session or requests).post(url + VALIDATE, json={"decklist": deck}, timeout=15)


def readyz(cluster: Cluster, index: int) -> dict:
    """One instance's /readyz body, asked directly (not through HAProxy)."""
    response = requests.get(f"http://127.0.0.1:{cluster.ports[index]}/readyz", timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def served_by(cluster: Cluster) -> dict[str, int]:
    """Requests each instance answered, from HAProxy's stats (column stot)."""
    return {row["svname"]: int(row["stot"]) for row in cluster.stats()}


@pytest.fixture
def limited_cluster(fixture_db, redis_server, tmp_path):
    """Three instances with RATELIMIT=30/minute counted in the shared Redis."""
    with Cluster(tmp_path / "cluster", stores(fixture_db, tmp_path), CARD_DATA_OFFLINE="1",
                 REDIS_URL=redis_server.url, RATELIMIT="30/minute", RATELIMIT_ENABLED="1") as cluster:
        yield cluster


@pytest.mark.timeout(120)
def test_the_per_client_budget_holds_across_three_instances(limited_cluster):
    cluster = limited_cluster
    before = served_by(cluster)
    answers = [validate(cluster.url) for _ in range(45)]
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(200) == 30 and statuses.count(429) == 15, statuses
    assert statuses[:30] == [200] * 30  # the first 30 pass, the rest are refused
    for answer in answers:
        if answer.status_code == 429:
            assert 1 <= int(answer.headers["Retry-After"]) <= 61  # a minute, rounded up
            assert answer.json()["code"] == 429
        else:
            assert {v["code"] for v in answer.json()["violations"]} == EXPECTED_CODES
    # Round robin: every instance answered a third of them (health checks are not counted in stot).
    spread = {name: count - before.get(name, 0) for name, count in served_by(cluster).items()}
    assert sorted(spread.values()) == [15, 15, 15], spread
    assert all(readyz(cluster, index)["redis"]["rate_limit_storage"] == "shared" for index in range(3))


@pytest.mark.timeout(180)
def test_redis_going_away_stops_no_validation_and_limits_come_back(limited_cluster, redis_server):
    cluster = limited_cluster
    statuses = [validate(cluster.url).status_code for _ in range(32)]
    assert statuses.count(429) == 2  # the shared budget (30) is spent

    redis_server.stop()
    outage = []

    def client() -> None:  # under load: four keep-alive clients at once, 40 requests
        with requests.Session() as session:
            # Round robin gives each instance ~14: within the budget each now counts alone.
            for _ in range(10):
                try:
                    outage.append(validate(cluster.url, session=session).status_code)
                except requests.RequestException as error:
                    outage.append(repr(error))

    threads = [threading.Thread(target=client) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    # Fail open: each instance counts in its own memory, from zero, and validates meanwhile.
    assert len(outage) == 40 and set(outage) == {200}, sorted(set(map(str, outage)))
    down = [readyz(cluster, index) for index in range(3)]  # ready (200), and saying why
    assert all(body["status"] == "ready" and body["redis"]["redis_up"] is False
               and body["redis"]["rate_limit_storage"] == "memory (fallback)" for body in down), down
    metrics = requests.get(cluster.url + "/metrics", timeout=5).text
    assert "edh_redis_up 0.0" in metrics
    fallbacks = [line for line in metrics.splitlines() if line.startswith("edh_rate_limit_fallbacks_total ")]
    assert fallbacks and float(fallbacks[0].split()[1]) >= 1

    redis_server.start()  # same port, empty (no persistence)
    # ratelimit.py retries its storage with a backoff (1, 2, 4... s), card_data's
    # coordination every second: within 40 s every instance is back on Redis.
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        validate(cluster.url)
        back = [readyz(cluster, index)["redis"] for index in range(3)]
        if all(body["rate_limit_storage"] == "shared" and body["redis_up"] for body in back):
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"the instances never went back to Redis: {back}")
    # One budget again: however many were counted since Redis returned, 45 more requests
    # get at most 30 answers and the 429s are back.
    after = [validate(cluster.url).status_code for _ in range(45)]
    assert after.count(200) <= 30 and after.count(429) >= 15 and set(after) <= {200, 429}, after


@pytest.fixture
def online_cluster(fixture_db, redis_server, scryfall_server, tmp_path):
    """Three instances that look up missing cards on the local Scryfall server, sharing its
    budget and lockout through Redis; no per-client limit. A look-up budget long enough for
    twelve requests at two a second (the default 2 s would answer the later misses
    card_lookup_unavailable instead of queueing them)."""
    with Cluster(tmp_path / "cluster", stores(fixture_db, tmp_path), CARD_DATA_OFFLINE="0", CARD_DATA_SYNC="0",
                 SCRYFALL_API_URL=scryfall_server.base_url, REDIS_URL=redis_server.url,
                 CARD_LOOKUP_SECONDS="30") as cluster:
        yield cluster


def missing_deck(tag: str) -> str:
    """A deck naming a card no store holds (a new name each time: misses are remembered)."""
    return DECK + f"1 Nonexistent Card {tag}\n"


@pytest.mark.timeout(120)
def test_scryfall_budget_and_lockout_hold_across_instances(online_cluster, redis_server, scryfall_server):
    cluster = online_cluster
    answers: list[int] = []
    lock = threading.Lock()

    def client(index: int) -> None:
        # Two clients per instance, asked directly so that all three send at once.
        url = f"http://127.0.0.1:{cluster.ports[index % 3]}"
        for turn in range(2):
            status = validate(url, missing_deck(f"{index}-{turn}")).status_code
            with lock:
                answers.append(status)

    threads = [threading.Thread(target=client, args=(index,)) for index in range(6)]
    with RedisClaims(redis_server.port) as claims:  # when each instance claimed the shared budget
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert answers == [200] * 12, answers
    times = scryfall_server.collection_times()
    assert len(times) == 12
    # Spaced across the three instances: never three within one second.
    assert_spaced(claims.starts(), times)
    print(f"collection requests: {len(times)} in {times[-1] - times[0]:.2f} s, "
          f"smallest gap {min(b - a for a, b in zip(times, times[1:])):.3f} s")

    # A 429 seen by one instance stops the others: the miss is unknown_card plus
    # card_lookup_unavailable at once, without asking Scryfall (never a 503 with a store).
    scryfall_server.fail_next = [429]
    first = validate(f"http://127.0.0.1:{cluster.ports[0]}", missing_deck("lockout-0"))
    assert first.status_code == 200 and "card_lookup_unavailable" in {v["code"] for v in first.json()["violations"]}
    asked = len(scryfall_server.collection_times())
    for index in (1, 2):
        started = time.monotonic()
        refused = validate(f"http://127.0.0.1:{cluster.ports[index]}", missing_deck(f"lockout-{index}"))
        assert refused.status_code == 200, refused.text
        assert time.monotonic() - started < 2.0
        unavailable = [v for v in refused.json()["violations"] if v["code"] == "card_lookup_unavailable"]
        assert unavailable[0]["cards"] == [f"Nonexistent Card lockout-{index}"]
    assert len(scryfall_server.collection_times()) == asked  # nobody asked during the lockout
    # A deck of stored cards is still validated on every instance meanwhile.
    for index in range(3):
        answer = validate(f"http://127.0.0.1:{cluster.ports[index]}")
        assert {v["code"] for v in answer.json()["violations"]} == EXPECTED_CODES
