"""names_sync.refresh against the local Scryfall-shaped server's all_cards bulk object and
file: built, skipped when not due or not newer, and every failure (a truncated file, a
404, a 429, a bound) keeping the last good table; CARD_NAMES_FILE; the service's job."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from card_data.names import sources as names_sources, sync as names_sync
from card_data.store import names_table
from card_data.scryfall.client import ScryfallClient
from card_data.repository import open_repository
from card_data.settings import NameSources, StoreSettings
from tests.support.factories import PRINTED_NAMES, load_card_names
from tests.support.scryfall_server import FIXTURES, load_jsonl

OBJECTS = load_jsonl(FIXTURES / PRINTED_NAMES)


@pytest.fixture
def scryfall_client(scryfall_server):
    """A client without retry backoff."""
    return ScryfallClient(scryfall_server.base_url, backoff=0, timeout=(1.0, 2.0))


@pytest.fixture
def settings(fixture_db, scryfall_server):
    return StoreSettings(fixture_db, api_url=scryfall_server.base_url)


def english_of(db, name):
    card = open_repository(StoreSettings(db, offline=True)).resolve([name]).cards.get(name)
    return card.name if card else None


def test_the_first_refresh_builds_the_table_from_all_cards(settings, scryfall_server, scryfall_client):
    scryfall_server.all_cards = OBJECTS
    outcome = names_sync.refresh(settings, NameSources(), client=scryfall_client)
    assert outcome.status == "updated" and outcome.error is None
    assert outcome.names.shown() == {"languages": ["de", "es", "fr", "ja", "ru"], "names": 26,
                                     "updated_at": scryfall_server.all_cards_updated_at}
    assert outcome.names.source == "scryfall:all_cards"
    assert scryfall_server.paths("GET")[-2:] == ["/bulk-data/all-cards", "/files/all-cards.jsonl.gz"]
    assert english_of(settings.db_path, "Contrahechizo") == "Counterspell"


def test_a_table_not_due_is_not_asked_about_and_one_not_newer_is_not_downloaded(settings, scryfall_server,
                                                                                 scryfall_client):
    scryfall_server.all_cards = OBJECTS
    names_sync.refresh(settings, NameSources(), client=scryfall_client)
    asked = len(scryfall_server.requests)
    assert names_sync.refresh(settings, NameSources(), client=scryfall_client).status == "skipped"
    assert len(scryfall_server.requests) == asked  # weekly: nothing asked
    outcome = names_sync.refresh(settings, NameSources(refresh_seconds=0), client=scryfall_client)
    assert outcome.status == "skipped"  # 0: built once, never again
    # Due again (the week passed) but the file is not newer: asked, not downloaded.
    stale = names_table.read_status(settings.db_path)
    week_later = datetime.now(timezone.utc) + timedelta(days=8)
    assert names_sync.due(stale, NameSources(), now=week_later)
    assert not names_sync.due(stale, NameSources(), now=datetime.now(timezone.utc) + timedelta(days=6))
    outcome = names_sync.refresh(settings, NameSources(), client=scryfall_client, force=True)
    assert outcome.status == "updated"  # force downloads whatever the date
    scryfall_server.requests.clear()
    assert names_sync._from_scryfall(settings, NameSources(), names_table.read_status(settings.db_path),
                                     scryfall_client, False).status == "unchanged"
    assert scryfall_server.paths("GET") == ["/bulk-data/all-cards"]
    assert names_table.read_status(settings.db_path).checked_at is not None


def test_a_newer_file_replaces_the_table(settings, scryfall_server, scryfall_client):
    scryfall_server.all_cards = OBJECTS
    names_sync.refresh(settings, NameSources(), client=scryfall_client)
    scryfall_server.all_cards = [{"object": "card", "name": "Negate", "lang": "es", "printed_name": "Contrahechizo"}]
    scryfall_server.all_cards_updated_at = "2026-12-07T09:00:00.000+00:00"
    outcome = names_sync.refresh(settings, NameSources(), client=scryfall_client, force=True)
    assert outcome.status == "updated" and outcome.names.names == 1
    assert english_of(settings.db_path, "Contrahechizo") == "Negate"
    assert english_of(settings.db_path, "Isla") is None


@pytest.mark.parametrize("fault", ["truncated", "404", "429", "too many objects"])
def test_every_failure_keeps_the_last_table(settings, scryfall_server, scryfall_client, monkeypatch, fault):
    load_card_names(settings.db_path)  # the last good table
    before = names_table.read_status(settings.db_path)
    scryfall_server.all_cards = OBJECTS
    scryfall_server.all_cards_updated_at = "2026-12-07T09:00:00.000+00:00"
    if fault == "truncated":
        scryfall_server.all_cards_truncate = True
    elif fault == "404":
        scryfall_server.all_cards = None  # no all_cards bulk type
    elif fault == "429":
        scryfall_server.fail_next = [429]
    else:
        monkeypatch.setattr(names_sources, "MAX_NAMES_RECORDS", 10)
    outcome = names_sync.refresh(settings, NameSources(), client=scryfall_client, force=True)
    assert outcome.status == "failed" and outcome.error
    expected = {"truncated": "gzip", "404": "answered 404", "429": "rate limit", "too many objects": "over 10"}[fault]
    assert expected in outcome.error.lower()
    after = names_table.read_status(settings.db_path)
    assert after.names == before.names and after.updated_at == before.updated_at
    assert after.failed_at is not None and after.error == outcome.error
    assert english_of(settings.db_path, "Contrahechizo") == "Counterspell"
    # The next success clears the failure.
    scryfall_server.all_cards, scryfall_server.all_cards_truncate = OBJECTS, False
    monkeypatch.setattr(names_sources, "MAX_NAMES_RECORDS", 3_000_000)
    if fault == "429":
        scryfall_client = ScryfallClient(scryfall_server.base_url, backoff=0)  # its lockout is this client's
        scryfall_client.limits.lock_out(0)
    assert names_sync.refresh(settings, NameSources(), client=scryfall_client, force=True).status == "updated"
    assert names_table.read_status(settings.db_path).error is None


def test_a_failure_before_any_table_leaves_none(settings, scryfall_server, scryfall_client):
    outcome = names_sync.refresh(settings, NameSources(), client=scryfall_client)  # 404: no all_cards
    assert outcome.status == "failed" and not outcome.names.loaded
    assert english_of(settings.db_path, "Sol Ring") == "Sol Ring"  # the cards are untouched


def test_other_languages_make_the_table_due_and_only_those_are_kept(settings, scryfall_server, scryfall_client):
    scryfall_server.all_cards = OBJECTS
    spanish = NameSources(languages=("es",))
    assert names_sync.refresh(settings, spanish, client=scryfall_client).names.languages == ("es",)
    assert names_sync.refresh(settings, spanish, client=scryfall_client).status == "skipped"
    wider = NameSources(languages=("es", "ja"))
    assert names_sync.due(names_table.read_status(settings.db_path), NameSources(languages=("es", "ja")))
    assert names_sync.refresh(settings, wider, client=scryfall_client).names.languages == ("es", "ja")
    assert names_sync.refresh(settings, NameSources(languages=()), client=scryfall_client).status == "off"


def test_card_names_file_is_read_instead_of_all_cards(settings, scryfall_server, scryfall_client):
    sources = NameSources(names_file=str(FIXTURES / PRINTED_NAMES))
    assert names_sync.refresh(settings, sources, client=scryfall_client).status == "updated"
    assert not [path for path in scryfall_server.paths() if "all-cards" in path]
    assert names_sync.refresh(settings, sources, client=scryfall_client, force=True).status == "updated"
    again = names_sync._from_file(settings.db_path, FIXTURES / PRINTED_NAMES, sources,
                                  names_table.read_status(settings.db_path), False)
    assert again.status == "unchanged"
    missing = NameSources(names_file=str(FIXTURES / "no-such-file.jsonl"))
    assert names_sync.refresh(settings, missing, client=scryfall_client, force=True).status == "failed"


def test_the_service_job_syncs_the_cards_then_the_names(tmp_path, scryfall_server):
    from edh_service.card_extension import sync_store

    scryfall_server.all_cards = OBJECTS
    db = tmp_path / "new" / "cards.sqlite3"
    settings = StoreSettings(db, api_url=scryfall_server.base_url)
    result = sync_store(settings, {"CARD_DB": str(db), "SCRYFALL_API_URL": scryfall_server.base_url})
    assert result.status == "updated"
    gets = scryfall_server.paths("GET")
    assert gets.index("/files/oracle-cards.jsonl.gz") < gets.index("/bulk-data/all-cards")
    assert english_of(db, "Espadas en rejas de arado") == "Swords to Plowshares"


def test_a_names_failure_does_not_fail_the_service_job(tmp_path, scryfall_server):
    from edh_service.card_extension import sync_store

    db = tmp_path / "cards.sqlite3"
    settings = StoreSettings(db, api_url=scryfall_server.base_url)
    result = sync_store(settings, {"CARD_DB": str(db), "SCRYFALL_API_URL": scryfall_server.base_url})
    assert result.status == "updated" and result.metadata.cards == 98  # the store is there: ready
    assert names_table.read_status(db).error  # the 404 is recorded for `cards status`


def test_one_names_build_serves_every_instance(redis_server, scryfall_server, tmp_path):
    """With Redis and a shared folder the syncing instance publishes the distilled names;
    another instance installs them without asking Scryfall for all_cards."""
    from card_data import sync

    scryfall_server.all_cards = OBJECTS
    shared = tmp_path / "shared"
    options = {"redis_url": redis_server.url, "shared_dir": shared, "api_url": scryfall_server.base_url}
    first = StoreSettings(tmp_path / "a" / "cards.sqlite3", **options)
    second = StoreSettings(tmp_path / "b" / "cards.sqlite3", **options)
    first.db_path.parent.mkdir()
    second.db_path.parent.mkdir()
    sync.sync(first)
    assert names_sync.refresh(first, NameSources()).status == "updated"
    assert [path.name for path in shared.glob("card-names-*.sqlite3")] == ["card-names-20261130T091244.000000Z.sqlite3"]
    sync.adopt(second)  # the cards, from the published bulk file
    downloads = scryfall_server.paths("GET").count("/files/all-cards.jsonl.gz")
    adopted = names_sync.adopt(second, NameSources())
    assert adopted is not None and adopted.names == 26
    assert english_of(second.db_path, "Contrahechizo") == "Counterspell"
    assert scryfall_server.paths("GET").count("/files/all-cards.jsonl.gz") == downloads == 1
    assert names_sync.adopt(second, NameSources()) is None  # nothing newer now
    # An instance that syncs for the same updated_at installs the published file, no download.
    third = StoreSettings(tmp_path / "c" / "cards.sqlite3", **options)
    third.db_path.parent.mkdir()
    sync.adopt(third)
    assert names_sync.refresh(third, NameSources()).status == "updated"
    assert scryfall_server.paths("GET").count("/files/all-cards.jsonl.gz") == 1
