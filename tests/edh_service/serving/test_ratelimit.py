"""edh_service/serving/ratelimit.py: ClientBudget on its own (the budget, the wait it answers,
several limits, the in-memory fallback while a real Redis is down; the cluster tests cover
it end to end), and in the app: the 429 envelope with Retry-After, one budget for the API
per client, off in tests unless asked, a 503's own Retry-After, REDIS_URL sharing it."""

from __future__ import annotations

import logging
import threading
import time

from edh_service.serving.ratelimit import ClientBudget, SweptMemoryStorage
from tests.support.apps import offline_app
from tests.support.live_http import NORMAL_DECK, VALIDATE
from tests.support.responses import assert_envelope, sample


def test_a_client_within_its_budget_passes_and_the_next_request_gets_the_wait():
    budget = ClientBudget("3/minute", "memory://")
    assert [budget.hit("10.0.0.1") for _ in range(3)] == [None, None, None]
    wait = budget.hit("10.0.0.1")
    assert wait is not None and 1 <= wait <= 60
    assert budget.hit("10.0.0.2") is None  # another client has a budget of its own


def test_counting_in_memory_starts_no_thread_per_request(monkeypatch):
    """limits' memory storage started a 10 ms Timer thread whenever none ran (a thread every
    few requests); the budget's own sweeps expired counters in the caller's thread."""
    budget = ClientBudget("1000/minute", "memory://")
    assert isinstance(budget.storage, SweptMemoryStorage)
    started = []
    monkeypatch.setattr(threading.Thread, "start", lambda thread: started.append(thread))
    for i in range(300):
        assert budget.hit(f"client-{i % 7}") is None
    assert started == []
    assert budget.hit("client-0") is None and budget.counter.get_window_stats(budget.items[0], "edh-deck-validator",
                                                                              "client-0").remaining == 1000 - 44


def test_expired_counters_of_other_clients_are_swept():
    budget = ClientBudget("5/second", "memory://")
    budget.storage.SWEEP_SECONDS = 0.0
    budget.hit("gone")
    assert any("gone" in key for key in budget.storage.storage)
    time.sleep(1.1)  # the one-second window ends
    budget.hit("other")  # any client's request sweeps
    assert not any("gone" in key for key in budget.storage.storage)


def test_every_limit_of_a_spec_counts():
    budget = ClientBudget("2/second;100/minute", "memory://")
    assert budget.hit("c") is None and budget.hit("c") is None
    assert budget.hit("c") == 1  # the per-second window resets within a second


def test_a_redis_that_cannot_be_reached_is_replaced_by_memory_and_counted(redis_server, caplog):
    fallbacks = []
    budget = ClientBudget("2/minute", redis_server.url, on_fallback=lambda: fallbacks.append(1))
    assert budget.hit("c") is None and not budget.storage_dead  # counted in Redis
    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger="edh_service.serving.ratelimit"):
        answers = [budget.hit("c") for _ in range(3)]
    # Fail open: memory starts from zero, so two more pass and the third is over the limit.
    assert answers[:2] == [None, None] and answers[2] is not None
    assert budget.storage_dead and len(fallbacks) == 3
    assert sum("unreachable" in r.getMessage() for r in caplog.records) == 1  # logged once per outage

    redis_server.start()
    budget._recheck_at = 0  # the 1 s backoff has passed
    assert budget.hit("other") is None
    assert not budget.storage_dead and len(fallbacks) == 3  # counted in Redis again


def test_a_storage_still_down_is_asked_again_only_after_a_growing_wait(redis_server):
    budget = ClientBudget("100/minute", redis_server.url)
    redis_server.stop()
    budget.hit("c")
    assert budget.storage_dead
    budget._recheck_at = 0
    budget.hit("c")  # asked, still down: the next ask is 2 s away
    assert budget.storage_dead and budget._failures == 1
    first_wait = budget._recheck_at
    budget.hit("c")  # not asked again yet
    assert budget._recheck_at == first_wait


# --- in the app ----------------------------------------------------------------------------


def test_rate_limit_is_a_429_envelope_with_retry_after(fixture_db):
    client = offline_app(fixture_db, RATELIMIT_ENABLED=True, RATELIMIT="3/minute").test_client()
    for _ in range(3):
        assert client.post(VALIDATE, json={"decklist": NORMAL_DECK}).status_code == 200
    response = client.post(VALIDATE, json={"decklist": NORMAL_DECK})
    body = assert_envelope(response, 429)
    assert "3/minute" in body["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 61
    # One budget for the whole API, per client: another endpoint is limited too...
    assert client.get("/api/v1/cards/Sol%20Ring").status_code == 429
    # ...the page's form post as well, but not health checks, metrics or the page itself.
    assert client.post("/", data={"decklist": "1 Sol Ring"}).status_code == 429
    assert [client.get(path).status_code for path in ("/healthz", "/readyz", "/metrics", "/")] == [200] * 4
    # Another client (address) has its own budget.
    other = client.post(VALIDATE, json={"decklist": NORMAL_DECK}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200


def test_rate_limit_is_off_in_tests_unless_asked(client):
    assert all(client.post(VALIDATE, json={"decklist": "1 Sol Ring"}).status_code == 200 for _ in range(30))


def test_a_503_keeps_its_own_retry_after_under_the_limiter(tmp_path):
    client = offline_app(tmp_path / "absent", RATELIMIT_ENABLED=True, CARD_DATA_RETRY_AFTER=7).test_client()
    response = client.post(VALIDATE, json={"decklist": "1 Sol Ring"})
    # CARD_DATA_RETRY_AFTER, as /readyz says, not stretched to the limiter's window.
    assert response.status_code == 503 and response.headers["Retry-After"] == "7"


def test_redis_url_shares_the_budget_and_an_explicit_storage_wins(fixture_db, redis_server):
    """Two apps (two instances) with REDIS_URL count one budget; RATELIMIT_STORAGE_URI set
    explicitly (memory://) keeps a budget per app; without REDIS_URL /readyz says nothing
    about Redis."""
    shared = dict(RATELIMIT_ENABLED=True, RATELIMIT="3/minute", REDIS_URL=redis_server.url)
    first, second = (offline_app(fixture_db, **shared).test_client() for _ in range(2))
    statuses = [client.post(VALIDATE, json={"decklist": NORMAL_DECK}).status_code
                for client in (first, second, first, second)]
    assert statuses == [200, 200, 200, 429]
    ready = first.get("/readyz").get_json()["redis"]
    assert ready == {"backend": "redis", "redis_up": True, "redis_outages": 0, "redis_fallbacks": 0,
                     "rate_limit_storage": "shared"}
    assert sample(first.get("/metrics").get_data(as_text=True), "edh_redis_up") == 1

    own = dict(shared, RATELIMIT_STORAGE_URI="memory://")
    third, fourth = (offline_app(fixture_db, **own).test_client() for _ in range(2))
    statuses = [client.post(VALIDATE, json={"decklist": NORMAL_DECK}).status_code
                for client in (third, fourth, third, fourth)]
    assert statuses == [200, 200, 200, 200]

    assert "redis" not in offline_app(fixture_db).test_client().get("/readyz").get_json()
