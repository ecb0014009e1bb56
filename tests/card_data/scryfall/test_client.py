"""ScryfallClient against the local Scryfall-shaped server: headers, batching, limits, errors."""

from __future__ import annotations

import socket

import pytest

from card_data import CardDataError, CardDataUnavailable
from card_data.scryfall import client as client_module
from card_data.scryfall.client import ScryfallClient
from card_data.settings import default_user_agent
from tests.support.spacing import RecordedLimits, assert_spaced
from tests.support.waiting import run_in_threads


@pytest.fixture
def scryfall_client(scryfall_server):
    """A client with no backoff, so fault tests stay quick, and generous timeouts: the local
    server answering late on a loaded machine is no fault. Its rate-limit claims are noted
    in scryfall_client.limits.starts (tests/support/spacing.py)."""
    return ScryfallClient(scryfall_server.base_url, backoff=0, timeout=(5.0, 10.0), limits=RecordedLimits())


def test_every_request_names_the_project_and_accepts_json(scryfall_client, scryfall_server):
    scryfall_client.bulk_data()
    scryfall_client.fetch_collection(["Sol Ring"])
    for request in scryfall_server.requests:
        assert request.headers["User-Agent"] == default_user_agent()
        assert default_user_agent().startswith("edh-deck-validator/")
        assert "json" in request.headers["Accept"]


def test_bulk_data_object(scryfall_client, scryfall_server):
    bulk = scryfall_client.bulk_data()
    assert bulk["updated_at"] == scryfall_server.updated_at
    assert bulk["jsonl_download_uri"].endswith("/files/oracle-cards.jsonl.gz")


def test_collection_pairs_names_with_cards_and_reports_not_found(scryfall_client):
    found, not_found = scryfall_client.fetch_collection(["Sol Ring", "Nope", "stomp", "Cyclonic Rift"])
    assert [(asked, card["name"]) for asked, card in found] == [
        ("Sol Ring", "Sol Ring"), ("stomp", "Bonecrusher Giant // Stomp"), ("Cyclonic Rift", "Cyclonic Rift"),
    ]
    assert not_found == ["Nope"]


def test_collection_batches_75_identifiers_spaced_half_a_second(scryfall_client, scryfall_server):
    names = [f"Card {i}" for i in range(76)]
    found, not_found = scryfall_client.fetch_collection(names)
    posts = [r for r in scryfall_server.requests if r.method == "POST"]
    assert [len(r.body["identifiers"]) for r in posts] == [75, 1]
    assert_spaced(scryfall_client.limits.starts, [r.at for r in posts])  # Scryfall's 2 requests/second
    assert (found, not_found) == ([], names)


def test_rate_limit_spacing_holds_across_threads(scryfall_client, scryfall_server):
    run_in_threads([lambda: scryfall_client.fetch_collection(["Sol Ring"])] * 3)
    times = scryfall_server.collection_times()
    assert len(times) == 3
    assert_spaced(scryfall_client.limits.starts, times)


def test_429_locks_the_client_out_without_further_requests(scryfall_client, scryfall_server, monkeypatch):
    scryfall_server.fail_next = [429]
    with pytest.raises(CardDataUnavailable) as raised:
        scryfall_client.fetch_collection(["Sol Ring"])
    assert raised.value.retry_after == 30
    assert "retry after 30 s" in str(raised.value)
    with pytest.raises(CardDataUnavailable) as again:
        scryfall_client.bulk_data()
    assert 0 < again.value.retry_after <= 30
    assert len(scryfall_server.requests) == 1  # no request during the lockout, no retry of the 429
    # 30 s later the client talks again
    later = client_module.time.time() + 31
    monkeypatch.setattr(client_module.time, "time", lambda: later)
    assert scryfall_client.fetch_collection(["Sol Ring"])[0][0][1]["name"] == "Sol Ring"


def test_5xx_is_retried_then_succeeds(scryfall_client, scryfall_server):
    scryfall_server.fail_next = [500, 503]
    assert scryfall_client.bulk_data()["object"] == "bulk_data"
    assert scryfall_server.paths() == ["/bulk-data/oracle-cards"] * 3


def test_persistent_5xx_is_unavailable(scryfall_client, scryfall_server):
    scryfall_server.fail_next = [500] * 10
    with pytest.raises(CardDataUnavailable):
        scryfall_client.fetch_collection(["Sol Ring"])
    assert len(scryfall_server.requests) == 4  # the first try and three retries


def test_timeout_is_unavailable(scryfall_server):
    scryfall_client = ScryfallClient(scryfall_server.base_url, backoff=0, timeout=(1.0, 0.5))
    scryfall_server.delay = 1.0  # read timeout is 0.5 s
    with pytest.raises(CardDataUnavailable) as raised:
        scryfall_client.bulk_data()
    assert raised.value.retry_after > 0


def test_connection_refused_is_unavailable():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    scryfall_client = ScryfallClient(f"http://127.0.0.1:{port}", backoff=0, retries=1, timeout=(0.5, 0.5))
    with pytest.raises(CardDataUnavailable):
        scryfall_client.bulk_data()


def test_error_object_details_are_surfaced(scryfall_client):
    with pytest.raises(CardDataError, match="No endpoint at /bulk-data/unknown-type") as raised:
        scryfall_client.bulk_data("unknown-type")
    assert not isinstance(raised.value, CardDataUnavailable)


def test_no_requests_exception_escapes(scryfall_client, scryfall_server):
    """The API layer only knows CardDataError: check the base class of every failure above."""
    scryfall_server.fail_next = [429]
    with pytest.raises(CardDataError):
        scryfall_client.bulk_data()
