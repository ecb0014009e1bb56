"""ratelimit.ClientBudget on its own: the budget, the wait it answers, several limits, and
the in-memory fallback while a real Redis is down (the cluster tests cover it end to end)."""

from __future__ import annotations

import logging

from edh_service.ratelimit import ClientBudget


def test_a_client_within_its_budget_passes_and_the_next_request_gets_the_wait():
    budget = ClientBudget("3/minute", "memory://")
    assert [budget.hit("10.0.0.1") for _ in range(3)] == [None, None, None]
    wait = budget.hit("10.0.0.1")
    assert wait is not None and 1 <= wait <= 60
    assert budget.hit("10.0.0.2") is None  # another client has a budget of its own


def test_every_limit_of_a_spec_counts():
    budget = ClientBudget("2/second;100/minute", "memory://")
    assert budget.hit("c") is None and budget.hit("c") is None
    assert budget.hit("c") == 1  # the per-second window resets within a second


def test_a_redis_that_cannot_be_reached_is_replaced_by_memory_and_counted(redis_server, caplog):
    fallbacks = []
    budget = ClientBudget("2/minute", redis_server.url, on_fallback=lambda: fallbacks.append(1))
    assert budget.hit("c") is None and not budget.storage_dead  # counted in Redis
    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger="edh_service.ratelimit"):
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
