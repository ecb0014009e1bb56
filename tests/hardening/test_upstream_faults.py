"""Scryfall misbehaving (429, 500s, timeouts, truncated gzip, malformed lines), served by
the local Scryfall-shaped server: a sync never corrupts or replaces the last good store,
validation keeps working from it, /readyz says honestly that it is degraded, and no request
loop exceeds Scryfall's limits (counted at the fake server)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from edh_service.card_extension import repository_of
from edh_service.factory import create_app
from card_data import CardDataError
from card_data.settings import StoreSettings
from card_data.scryfall.client import ScryfallClient
from card_data.store.cards import read_metadata
from card_data.sync import sync
from tests.support.live_http import NORMAL_DECK, VALIDATE, sha256
from tests.support.spacing import RecordedLimits, assert_spaced
from tests.support.waiting import wait_for

FAULTS = {
    "429": {"fail_next": [429]},
    "500 on every try": {"fail_next": [500] * 6},
    "timeout": {"delay": 1.0},
    "short body": {"truncate": "short"},
    "truncated gzip": {"truncate": "gzip"},
    "malformed line": {"malformed_line": True},
}


def fast_client(server) -> ScryfallClient:
    """The real client with short timeouts and one retry, so faults fail within a second."""
    return ScryfallClient(server.base_url, timeout=(0.5, 0.4), retries=1, backoff=0.01)


def online_app(db, server, **config):
    """An app that asks the fake Scryfall for names missing from the store (no background sync)."""
    return create_app({"TESTING": True, "CARD_DB": str(db), "SCRYFALL_API_URL": server.base_url,
                       "CARD_DATA_OFFLINE": False, "CARD_DATA_SYNC": False, **config})


def codes(response) -> set[str]:
    """Violation codes of a 200 validate response."""
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return {violation["code"] for violation in response.get_json()["violations"]}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("fault", FAULTS)
def test_a_failed_sync_leaves_the_last_good_store_untouched(fault, fixture_db, scryfall_server):
    before, inode = sha256(fixture_db), fixture_db.stat().st_ino
    for name, value in FAULTS[fault].items():
        setattr(scryfall_server, name, value)
    with pytest.raises(CardDataError):
        sync(StoreSettings(fixture_db, api_url=scryfall_server.base_url), client=fast_client(scryfall_server))
    assert (sha256(fixture_db), fixture_db.stat().st_ino) == (before, inode)
    assert sorted(p.name for p in fixture_db.parent.iterdir()) == ["cards.sqlite3"]  # no half-built file left
    # Validation keeps working from the store while Scryfall is still faulty.
    client = online_app(fixture_db, scryfall_server).test_client()
    assert codes(client.post(VALIDATE, json={"decklist": NORMAL_DECK})) == {"banned", "color_identity", "deck_size"}
    assert client.get("/readyz").get_json()["card_data"]["updated_at"] == "2026-11-01T00:00:00+00:00"


def test_a_good_sync_after_the_faults_does_replace_the_store(fixture_db, scryfall_server):
    """The control: the same server without faults swaps a new store in (the client's
    timeouts generous: the local server answering late on a loaded machine is no fault)."""
    before = sha256(fixture_db)
    patient = ScryfallClient(scryfall_server.base_url, timeout=(5.0, 10.0), retries=1, backoff=0.01)
    result = sync(StoreSettings(fixture_db, api_url=scryfall_server.base_url), client=patient)
    assert result.status == "updated"
    assert sha256(fixture_db) != before
    assert read_metadata(fixture_db).updated_at == scryfall_server.updated_at


@pytest.mark.timeout(30)
def test_readyz_says_degraded_while_serving_the_last_good_store(fixture_db, scryfall_server):
    scryfall_server.truncate = "gzip"  # every sync attempt fails
    app = create_app({"TESTING": True, "CARD_DB": str(fixture_db), "SCRYFALL_API_URL": scryfall_server.base_url,
                      "CARD_DATA_SYNC": True, "CARD_DATA_REFRESH_SECONDS": 0.1,
                      "SYNC_BACKOFF_BASE": 0.2, "SYNC_BACKOFF_CAP": 0.5})
    syncer = app.extensions["card_data_sync"]
    try:
        assert wait_for(lambda: syncer.last_error is not None)
        client = app.test_client()
        response = client.get("/readyz")
        assert response.status_code == 200
        body = response.get_json()
        assert (body["status"], body["degraded"]) == ("ready", True)
        # a fixed sentence: the upstream error's own text is for the log only
        assert body["last_sync_error"] == "The last card data sync failed; the service's log says why."
        assert body["card_data"]["updated_at"] == "2026-11-01T00:00:00+00:00"
        assert codes(client.post(VALIDATE, json={"decklist": NORMAL_DECK})) == {"banned", "color_identity", "deck_size"}
        scryfall_server.truncate = None  # Scryfall recovers: the next attempt clears the flag
        assert wait_for(lambda: "degraded" not in client.get("/readyz").get_json())
        assert client.get("/readyz").get_json()["card_data"]["updated_at"] == scryfall_server.updated_at
    finally:
        syncer.stop()


def test_readyz_is_503_when_there_is_no_store_and_sync_fails(tmp_path, scryfall_server):
    scryfall_server.truncate = "gzip"
    app = create_app({"TESTING": True, "CARD_DB": str(tmp_path / "cards.sqlite3"),
                      "SCRYFALL_API_URL": scryfall_server.base_url, "CARD_DATA_SYNC": True,
                      "SYNC_BACKOFF_BASE": 0.2, "SYNC_BACKOFF_CAP": 0.5})
    syncer = app.extensions["card_data_sync"]
    try:
        assert wait_for(lambda: syncer.last_error is not None)
        response = app.test_client().get("/readyz")
        assert response.status_code == 503 and int(response.headers["Retry-After"]) >= 1
        assert not (tmp_path / "cards.sqlite3").exists()
    finally:
        syncer.stop()


def unknown_deck(prefix: str, count: int) -> str:
    """A list of `count` distinct names the store lacks (Scryfall is asked about each)."""
    return "\n".join(f"1 {prefix} Nonesuch {index}" for index in range(count))


@pytest.mark.timeout(60)
def test_concurrent_misses_never_exceed_two_collection_requests_a_second(fixture_db, scryfall_server):
    # A look-up budget long enough for all eight requests at two a second (the default 2 s
    # would answer the later misses card_lookup_unavailable instead of waiting).
    app = online_app(fixture_db, scryfall_server, CARD_LOOKUP_SECONDS=30.0)
    scryfall = repository_of(app).client
    scryfall.limits = RecordedLimits(scryfall.limits)  # the store's budget, noting its claims (tests/support/spacing.py)
    client = app.test_client()

    def validate(worker: int):
        # 80 distinct misses: two /cards/collection requests (75 + 5) per validation.
        return client.post(VALIDATE, json={"decklist": unknown_deck(f"W{worker}", 80)})

    with ThreadPoolExecutor(4) as pool:
        responses = list(pool.map(validate, range(4)))
    assert all("unknown_card" in codes(response) for response in responses)
    arrivals = [r.at for r in scryfall_server.requests if r.path == "/cards/collection"]
    assert len(arrivals) == 8
    assert_spaced(scryfall.limits.starts, arrivals)  # never three within one second
    assert all(len(r.body["identifiers"]) <= 75 for r in scryfall_server.requests if r.body)


@pytest.mark.timeout(30)
def test_no_request_reaches_scryfall_during_a_429_lockout(fixture_db, scryfall_server):
    scryfall_server.fail_next = [429]
    client = online_app(fixture_db, scryfall_server).test_client()
    response = client.post(VALIDATE, json={"decklist": unknown_deck("A", 3)})
    # A loaded store is never a 503 for a typo: unknown_card, and a warning that Scryfall was not asked.
    assert codes(response) >= {"unknown_card", "card_lookup_unavailable"}
    for attempt in range(5):  # more misses during the lockout: answered at once, without asking Scryfall
        started = time.monotonic()
        response = client.post(VALIDATE, json={"decklist": unknown_deck(f"B{attempt}", 3)})
        assert time.monotonic() - started < 1.0
        assert codes(response) >= {"unknown_card", "card_lookup_unavailable"}
        warning = next(v for v in response.get_json()["violations"] if v["code"] == "card_lookup_unavailable")
        assert warning["cards"] == [f"B{attempt} Nonesuch {index}" for index in range(3)]
        assert warning["lines"] == [1, 2, 3] and warning["severity"] == "warning"
        time.sleep(0.2)
    assert scryfall_server.paths("POST") == ["/cards/collection"]
    # Names the store knows keep resolving during the lockout.
    assert codes(client.post(VALIDATE, json={"decklist": NORMAL_DECK})) == {"banned", "color_identity", "deck_size"}


@pytest.mark.timeout(30)
def test_a_decklist_that_is_a_url_is_never_fetched(fixture_db, scryfall_server):
    """No endpoint fetches a user-supplied URL: a URL is text (unknown or unparsed), and the
    fake server, though it listens at that URL, sees no request for it."""
    client = online_app(fixture_db, scryfall_server).test_client()
    url = f"{scryfall_server.base_url}/decks/my-deck.txt"
    for body in ({"decklist": url}, {"decklist": f"1 {url}"}, {"decklist": "1 Sol Ring", "commanders": [url[:200]]},
                 {"decklist": f'<?xml version="1.0"?>\n<!DOCTYPE Deck SYSTEM "{url}">\n<Deck>\n</Deck>'}):
        found = codes(client.post(VALIDATE, json=body))
        assert found & {"unknown_card", "unparsed_line", "commander_missing"}
    assert client.get(f"/api/v1/cards/{url}").status_code in (404, 422)
    fetched = [r.path for r in scryfall_server.requests if r.path != "/cards/collection"]
    assert fetched == []
    # Names are only ever looked up as names, in a /cards/collection body.
    assert all(set(identifier) == {"name"} for r in scryfall_server.requests for identifier in r.body["identifiers"])
