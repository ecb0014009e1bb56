"""Starting without card data: 503 + Retry-After, a background sync against the local
Scryfall server, capped exponential backoff that honours a 429, one syncer per store."""

from __future__ import annotations


import time

import pytest

from edh_service.factory import create_app
from tests.support.waiting import wait_for
from edh_service.background_sync import BackgroundSync, backoff_delay


@pytest.fixture
def make_app(tmp_path):
    """Apps that sync from a given server into tmp_path; their sync threads stop afterwards."""
    apps = []

    def make(server, db_name: str = "cards.sqlite3", **config):
        app = create_app({
            "TESTING": True,
            "CARD_DB": str(tmp_path / db_name),
            "SCRYFALL_API_URL": server.base_url,
            "CARD_DATA_SYNC": True,
            "SYNC_BACKOFF_BASE": 0.2,
            "SYNC_BACKOFF_CAP": 1.0,
            **config,
        })
        apps.append(app)
        return app

    yield make
    for app in apps:
        if app.extensions["card_data_sync"] is not None:
            app.extensions["card_data_sync"].stop()


@pytest.mark.parametrize(("failures", "delay"), ((1, 5), (2, 10), (3, 20), (4, 40), (7, 320), (8, 600), (50, 600)))
def test_backoff_is_exponential_and_capped(failures, delay):
    assert backoff_delay(failures, base=5, cap=600) == delay


def test_first_start_syncs_in_the_background(scryfall_server, make_app):
    scryfall_server.delay = 0.5  # long enough to see the 503 before the store lands
    client = make_app(scryfall_server).test_client()
    response = client.get("/readyz")
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) >= 1
    assert wait_for(lambda: client.get("/readyz").status_code == 200)
    assert client.get("/readyz").get_json()["card_data"]["updated_at"] == scryfall_server.updated_at
    response = client.post("/api/v1/validate", json={"decklist": "Commander\n1 Atraxa, Praetors' Voice\n"})
    assert response.status_code == 200
    assert "deck_size" in [v["code"] for v in response.get_json()["violations"]]
    # Requests to Scryfall name this project (Scryfall requires a User-Agent).
    bulk = [r for r in scryfall_server.requests if r.path == "/bulk-data/oracle-cards"]
    assert bulk[0].headers["User-Agent"].startswith("edh-deck-validator/")


def test_a_failed_download_is_retried_after_a_backoff(scryfall_server, make_app):
    scryfall_server.truncate = "short"  # the bulk file ends early: that attempt fails
    app = make_app(scryfall_server)
    syncer, client = app.extensions["card_data_sync"], app.test_client()
    assert wait_for(lambda: syncer.last_error is not None)
    assert client.get("/readyz").status_code == 503
    scryfall_server.truncate = None  # Scryfall recovers; the next attempt (0.2 s later) succeeds
    assert wait_for(lambda: client.get("/readyz").status_code == 200)
    assert wait_for(lambda: syncer.last_error is None)  # the attempt ends just after the swap
    assert scryfall_server.paths("GET").count("/bulk-data/oracle-cards") >= 2


def test_an_outage_waits_at_least_what_card_data_asks(scryfall_server, make_app):
    scryfall_server.fail_next = [503] * 4  # the client's own retries, all failing
    app = make_app(scryfall_server)
    syncer = app.extensions["card_data_sync"]
    assert wait_for(lambda: syncer.last_error is not None)
    assert syncer.retry_after() >= 20  # CardDataUnavailable.retry_after beats the 1 s cap


def test_a_429_holds_the_next_attempt_back_30_seconds(scryfall_server, make_app):
    scryfall_server.fail_next = [429]
    app = make_app(scryfall_server)
    syncer = app.extensions["card_data_sync"]
    assert wait_for(lambda: syncer.last_error is not None)
    # Scryfall's 30 s lockout, far above the 1 s backoff cap, less the time since the 429
    # arrived (however long a loaded machine took to get here; rounded to whole seconds).
    answered_429 = scryfall_server.requests[0]  # the first request is the one answered 429
    assert 29.5 - (time.monotonic() - answered_429.at) <= syncer.retry_after() <= 30
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert 29.5 - (time.monotonic() - answered_429.at) <= int(response.headers["Retry-After"]) <= 30
    assert scryfall_server.paths("GET").count("/bulk-data/oracle-cards") == 1


def test_while_syncing_validations_say_the_same_retry_after_as_readyz(scryfall_server, make_app):
    # Before the store exists, every endpoint that needs it must send clients back at the
    # sync's next attempt; validations said card_data's fixed 60 s while /readyz said 30.
    scryfall_server.fail_next = [429]
    app = make_app(scryfall_server)
    syncer, client = app.extensions["card_data_sync"], app.test_client()
    assert wait_for(lambda: syncer.last_error is not None)
    asked = time.monotonic()
    ready = int(client.get("/readyz").headers["Retry-After"])
    for response in (client.post("/api/v1/validate", json={"decklist": "1 Sol Ring"}),
                     client.get("/api/v1/cards/Sol%20Ring"),
                     client.post("/", data={"decklist": "1 Sol Ring"})):
        assert response.status_code == 503
        # /readyz's figure less the time since it was asked (each figure rounded to seconds)
        since = time.monotonic() - asked
        assert ready - since - 1 <= int(response.headers["Retry-After"]) <= ready, response.request.path


def test_one_syncer_per_store(scryfall_server, make_app):
    """Two workers (apps) on one store file: only one of them talks to Scryfall."""
    scryfall_server.delay = 0.3
    first, second = make_app(scryfall_server), make_app(scryfall_server)
    assert wait_for(lambda: second.test_client().get("/readyz").status_code == 200)
    assert first.test_client().get("/readyz").status_code == 200
    assert scryfall_server.paths("GET").count("/bulk-data/oracle-cards") == 1


def test_with_redis_one_instance_syncs_and_the_others_adopt_its_file(scryfall_server, make_app, redis_server,
                                                                     tmp_path):
    """Three instances (own stores) sharing Redis and a folder: one downloads the bulk file,
    the others build their stores from the file it published, without asking Scryfall."""
    scryfall_server.delay = 0.2
    shared = tmp_path / "shared"
    shared.mkdir()
    apps = [make_app(scryfall_server, f"store-{index}/cards.sqlite3", REDIS_URL=redis_server.url,
                     CARD_DATA_SHARED_DIR=str(shared), CARD_DATA_LOCK_POLL=0.2) for index in range(3)]
    for app in apps:
        assert wait_for(lambda app=app: app.test_client().get("/readyz").status_code == 200)
    for app in apps:
        body = app.test_client().get("/readyz").get_json()
        assert body["card_data"]["updated_at"] == scryfall_server.updated_at
        assert body["redis"]["backend"] == "redis" and body["redis"]["redis_up"] is True
    # One bulk-data request and one download for the three stores.
    assert scryfall_server.paths("GET").count("/bulk-data/oracle-cards") == 1
    assert len([path for path in scryfall_server.paths("GET") if path.startswith("/files/")]) == 1
    assert [path.name for path in shared.glob("*.bulk")] != []
    syncing = [app for app in apps if app.extensions["card_data_sync"]._lock.held()]
    assert len(syncing) == 1


def test_an_existing_store_is_only_refreshed_later(scryfall_server, make_app, fixture_db, tmp_path):
    (tmp_path / "cards.sqlite3").write_bytes(fixture_db.read_bytes())
    app = make_app(scryfall_server, CARD_DATA_REFRESH_SECONDS=3600)
    assert app.test_client().get("/readyz").status_code == 200
    # The thread has decided: its next attempt is the daily refresh, about an hour away
    # (not a fixed sleep and a hope that it would have asked by then).
    syncer = app.extensions["card_data_sync"]
    assert wait_for(lambda: syncer.retry_after() > 3000)
    # `make run` already synced the cards: at start only the names table (none yet: due) is
    # asked for (this server has no all_cards: a 404, recorded, the cards serve on).
    assert scryfall_server.paths() == ["/bulk-data/all-cards"]


def test_offline_never_syncs(scryfall_server, make_app):
    app = make_app(scryfall_server, CARD_DATA_OFFLINE=True)
    assert app.extensions["card_data_sync"] is None
    assert app.test_client().get("/readyz").status_code == 503
    assert scryfall_server.requests == []


def test_the_background_sync_refreshes_the_bracket_lists(scryfall_server, make_app):
    """The lists' sources are the app's settings (not a second read of the environment):
    the tag search on the local server, the Spellbook export there, the files when set."""
    from tests.support.scryfall_server import FIXTURES

    brackets_dir = FIXTURES / "brackets"
    scryfall_server.spellbook_export = (brackets_dir / "variants.json").read_bytes()
    app = make_app(scryfall_server, SPELLBOOK_URL=f"{scryfall_server.base_url}/spellbook",
                   MASS_LAND_DENIAL_FILE=str(brackets_dir / "mass-land-denial.txt"))
    client = app.test_client()
    assert wait_for(lambda: (client.get("/readyz").get_json() or {}).get("bracket_lists", {}).get("two_card_combos"))
    lists = client.get("/readyz").get_json()["bracket_lists"]
    assert lists["two_card_combos"] == {"entries": 4, "updated_at": "2026-11-30T08:15:00.123456+00:00"}
    assert lists["mass_land_denial"]["entries"] == 4  # the file's four names
    assert any(r.path.startswith("/spellbook/") for r in scryfall_server.requests)
    assert not any(r.path == "/cards/search" for r in scryfall_server.requests)  # the file overrides the search
    deck = "Commander\n1 Atraxa, Praetors' Voice\nDeck\n1 Dark Ritual\n1 Lim-Dûl's Vault\n1 Vindicate\n"
    bracket = client.post("/api/v1/validate", json={"decklist": deck}).get_json()["bracket"]
    assert bracket["two_card_combos"] == [["Dark Ritual", "Lim-Dûl's Vault"]]
    assert bracket["mass_land_denial"] == ["Vindicate"]
    assert bracket["minimum"] == 4


def test_a_syncer_that_loses_the_redis_lock_stops_syncing_and_waits(scryfall_server, redis_server, tmp_path):
    """Another instance took the lock (this one's expired while it was stalled): the next
    renewal notices, this syncer stops syncing and goes back to waiting for the lock."""
    from card_data import StoreSettings, sync
    from card_data.coordination.redis_backend import RedisCoordination

    db = tmp_path / "cards.sqlite3"
    coordination = RedisCoordination(redis_server.url, db, lock_ttl=0.6)  # renewed every 0.2 s
    lock = coordination.sync_lock()
    syncer = BackgroundSync(db, lambda: sync.sync(StoreSettings(db, api_url=scryfall_server.base_url)),
                            base=0.1, cap=0.2, refresh=0.2, lock_poll=0.1, lock=lock).start()
    try:
        assert wait_for(lambda: scryfall_server.paths("GET").count("/bulk-data/oracle-cards") >= 2)
        coordination.redis.set(lock.key, "another-instance", px=60_000)  # taken over
        assert wait_for(lambda: not lock.held())
        # The syncer finishes a sync already under way, however slowly, and goes back to
        # waiting for the lock: clients hear the unelected Retry-After.
        assert wait_for(lambda: syncer.retry_after() >= 20)
        asked = scryfall_server.paths("GET").count("/bulk-data/oracle-cards")
        time.sleep(1.0)  # five refresh periods: a syncer would have asked again
        assert scryfall_server.paths("GET").count("/bulk-data/oracle-cards") == asked
        assert syncer.retry_after() >= 20  # still waiting
        coordination.redis.delete(lock.key)  # the other instance is gone: this one syncs again
        assert wait_for(lambda: scryfall_server.paths("GET").count("/bulk-data/oracle-cards") > asked)
        assert lock.held()
    finally:
        syncer.stop()
        coordination.close()


def test_the_names_refresh_never_delays_readiness(scryfall_server, make_app, monkeypatch):
    """The background job syncs the cards, then the names: /readyz is 200 while the names are
    still being built, and validations read them once they are in."""
    import threading

    from card_data.names import sync as names_sync
    from tests.support.factories import PRINTED_NAMES
    from tests.support.scryfall_server import FIXTURES, load_jsonl

    scryfall_server.all_cards = load_jsonl(FIXTURES / PRINTED_NAMES)
    building, release = threading.Event(), threading.Event()
    real_refresh = names_sync.refresh

    def slow_refresh(*args, **kwargs):
        building.set()
        release.wait(10)
        return real_refresh(*args, **kwargs)

    monkeypatch.setattr(names_sync, "refresh", slow_refresh)
    client = make_app(scryfall_server).test_client()
    assert building.wait(10)  # the cards are in, the names are being built
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["card_names"]["names"] == 0
    body = client.post("/api/v1/validate", json={"decklist": "1 Contrahechizo"}).get_json()
    assert body["translated"] == [] and "unknown_card" in [v["code"] for v in body["violations"]]
    release.set()
    assert wait_for(lambda: client.get("/readyz").get_json()["card_names"]["names"] == 26)
    body = client.post("/api/v1/validate", json={"decklist": "1 Contrahechizo"}).get_json()
    assert body["translated"] == [{"name": "Contrahechizo", "card": "Counterspell", "lang": "es", "lines": [1]}]


def test_an_existing_store_gets_its_names_at_start(scryfall_server, make_app, fixture_db, tmp_path):
    """`make run` synced the cards (`cards sync --no-names`): the service builds the names."""
    from tests.support.factories import PRINTED_NAMES
    from tests.support.scryfall_server import FIXTURES, load_jsonl

    scryfall_server.all_cards = load_jsonl(FIXTURES / PRINTED_NAMES)
    (tmp_path / "cards.sqlite3").write_bytes(fixture_db.read_bytes())
    client = make_app(scryfall_server, CARD_DATA_REFRESH_SECONDS=3600).test_client()
    assert client.get("/readyz").status_code == 200
    assert wait_for(lambda: client.get("/readyz").get_json()["card_names"]["names"] == 26)
    assert "/files/oracle-cards.jsonl.gz" not in scryfall_server.paths()  # the cards were not synced again
