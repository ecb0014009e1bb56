"""Bracket lists: Scryfall's tag search and Commander Spellbook's export against the local
server, the file overrides, the store tables, and the failures that must keep the last list."""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
import threading

import pytest

from card_data import BracketSources
from card_data.lists import refresh as bracket_lists
from card_data.store import list_tables as bracket_tables

from card_data.settings import StoreSettings
from card_data.store.list_tables import MASS_LAND_DENIAL, PAUPER_COMMANDERS, TWO_CARD_COMBOS
from card_data.scryfall.client import ScryfallClient
from card_data.errors import CardDataError
from card_data.repository import open_repository
from card_data.lists.spellbook import SpellbookClient, export_urls, read_export
from card_data.sync import import_file, sync
from tests.support.scryfall_server import (
    BRACKET_EXPORT, BRACKETS, FIXTURES, FORMAT_FIXTURES, with_bracket_lists, with_format_lists,
)
from tests.support.spacing import RecordedLimits, assert_spaced
from validator.brackets import BracketData, Combo

EXPECTED_COMBOS = {
    ("Birds of Paradise", "Llanowar Elves"): False,
    ("Counterspell", "Fire // Ice"): False,
    ("Dark Ritual", "Lim-Dûl's Vault"): True,
    ("Rhystic Study", "Sol Ring"): False,
}
EXPECTED_DENIAL = frozenset({"Armageddon", "Boom // Bust", "Ravages of War", "Ruination", "Winter Orb"})


@pytest.fixture
def server(scryfall_server):
    """The local server with the fixture tag search and Spellbook export (with_bracket_lists),
    and the is:paupercommander search (with_format_lists), as Scryfall answers all three."""
    return with_format_lists(with_bracket_lists(scryfall_server))


def sources(server, **overrides) -> BracketSources:
    """Both lists from the local server."""
    return BracketSources(api_url=server.base_url, spellbook_url=f"{server.base_url}/spellbook", **overrides)


def refresh(db, server, claims: list[float] | None = None, **overrides):
    """Refresh both lists from the local server; the client has no retry back-off (fast tests)
    and notes when its rate-limit claims began in `claims` (tests/support/spacing.py)."""
    client = ScryfallClient(server.base_url, backoff=0, limits=RecordedLimits(starts=claims))
    spellbook = SpellbookClient(f"{server.base_url}/spellbook")
    return bracket_lists.refresh(db, sources(server, **overrides), client=client, spellbook=spellbook)


def data(db) -> BracketData:
    """What a fresh repository hands the engine."""
    return open_repository(StoreSettings(db, offline=True)).bracket_data()


# --- the export's shape -------------------------------------------------------------------

def test_two_card_variants_only_fast_kept():
    export = read_export([BRACKET_EXPORT])
    assert export.pairs == EXPECTED_COMBOS
    assert export.timestamp == "2026-11-30T08:15:00.123456+00:00"
    assert export.variants == 10


def test_the_export_streams_in_small_chunks():
    chunks = [BRACKET_EXPORT[i:i + 7] for i in range(0, len(BRACKET_EXPORT), 7)]
    assert read_export(chunks).pairs == EXPECTED_COMBOS


@pytest.mark.parametrize(("body", "message"), [
    (BRACKET_EXPORT[: len(BRACKET_EXPORT) // 2], "not valid JSON"),  # truncated
    (BRACKET_EXPORT.replace(b'"uses"', b'"uses" "', 1), "not valid JSON"),  # malformed
    (b'{"timestamp": "x", "variants": []}', "no variants"),
    (b'{"timestamp": "x", "combos": [{"uses": []}]}', "no variants"),  # another shape
    (b'[1, 2, 3]', "no variants"),
    (b'{"variants": [{"id": 1, "cards": ["A", "B"]}]}', "no `uses` list"),
    (b'{"variants": [{"id": 1, "uses": [{"card": {}}, {"card": {"name": "B"}}]}]}', "has no name"),
    (b"", "not valid JSON"),
])
def test_a_bad_export_raises(body, message):
    with pytest.raises(CardDataError, match=message):
        read_export([body])


@pytest.mark.parametrize(("given", "urls"), [
    ("https://json.commanderspellbook.com", ("https://json.commanderspellbook.com/variants.json.gz",
                                             "https://json.commanderspellbook.com/variants.json")),
    ("http://127.0.0.1:8/x/", ("http://127.0.0.1:8/x/variants.json.gz", "http://127.0.0.1:8/x/variants.json")),
    ("http://127.0.0.1:8/x/variants.json.gz", ("http://127.0.0.1:8/x/variants.json.gz",)),
    ("http://127.0.0.1:8/x/mine.json", ("http://127.0.0.1:8/x/mine.json",)),
])
def test_export_urls(given, urls):
    assert export_urls(given) == urls


# --- refresh against the local server ------------------------------------------------------

def test_refresh_from_the_sources(fixture_db, server):
    server.search_page_size = 2
    claims: list[float] = []
    results = refresh(fixture_db, server, claims)
    assert {kind: r.status for kind, r in results.items()} == {MASS_LAND_DENIAL: "updated", TWO_CARD_COMBOS: "updated",
                                                                PAUPER_COMMANDERS: "updated"}
    loaded = data(fixture_db)
    assert loaded.mass_land_denial == EXPECTED_DENIAL  # every page (2 cards a page: 3 pages)
    assert {combo.cards: combo.fast for combo in loaded.combos} == EXPECTED_COMBOS
    assert [p for p in server.paths("GET") if p.startswith("/spellbook")] == ["/spellbook/variants.json.gz"]
    searches = [r for r in server.requests if r.path.startswith("/cards/search")]
    pages = [(r.path.split("q=")[1].split("&")[0], r.path.rsplit("&page=", 1)[-1] if "&page=" in r.path else "1")
             for r in searches]
    assert pages == [("otag%3Amass-land-denial", page) for page in "123"] + [
        ("is%3Apaupercommander", page) for page in "123"]  # 5 commanders, 2 a page
    # the search endpoint's rate limit (2 a second): each page claims its slot an interval
    # after the one before, so it arrives at least that long after the previous claim began,
    # however late the machine's load makes an arrival (and three never within one second);
    # both searches share the one budget
    assert_spaced(claims, [r.at for r in searches])
    for request in [*searches, server.requests[-1]]:
        assert request.headers["User-Agent"].startswith("edh-deck-validator/")
        assert "application/json" in request.headers["Accept"]
    status = results[TWO_CARD_COMBOS].list_status
    assert status.source.startswith("spellbook:") and status.updated_at == "2026-11-30T08:15:00.123456+00:00"
    assert (status.entries, status.unresolved) == (4, 0)
    assert results[MASS_LAND_DENIAL].list_status.unresolved == 5  # not in the fixture card data


@pytest.mark.parametrize("gzipped", [False, True])
def test_without_a_gz_file_the_plain_export_is_read(fixture_db, server, gzipped):
    server.spellbook_offer_gz = False
    server.spellbook_gzip = gzipped  # gzip read by its magic bytes, whatever the name says,
    server.content_encoding = gzipped  # and with Content-Encoding: gzip on top
    results = refresh(fixture_db, server)
    assert results[TWO_CARD_COMBOS].status == "updated"
    assert results[TWO_CARD_COMBOS].list_status.source.endswith("/spellbook/variants.json")
    assert [p for p in server.paths("GET") if p.startswith("/spellbook")] == [
        "/spellbook/variants.json.gz", "/spellbook/variants.json"]
    assert len(data(fixture_db).combos) == 4


def test_no_data_loaded_means_null_lists(fixture_db):
    assert data(fixture_db) == BracketData()
    assert data(fixture_db).mass_land_denial is None and data(fixture_db).combos is None
    assert all(not status.loaded for status in bracket_tables.status(fixture_db).values())


@pytest.mark.parametrize(("fault", "failed", "message"), [
    ({"search_results": {}}, MASS_LAND_DENIAL, "matched no cards"),  # a 404: the tag is gone
    ({"truncate": "short"}, TWO_CARD_COMBOS, "broke off|not valid JSON"),
    ({"spellbook_export": BRACKET_EXPORT[:-40]}, TWO_CARD_COMBOS, "not valid JSON"),
    ({"spellbook_export": None}, TWO_CARD_COMBOS, "answered 404"),
    ({"fail_next": [503, 503, 503, 503]}, MASS_LAND_DENIAL, "kept failing|answered 503"),
])
def test_a_failure_keeps_the_last_good_list(fixture_db, server, fault, failed, message):
    refresh(fixture_db, server)
    before = data(fixture_db)
    for name, value in fault.items():
        setattr(server, name, value)
    results = refresh(fixture_db, server)
    assert results[failed].status == "failed"
    assert results[failed].error and re.search(message, results[failed].error)
    assert data(fixture_db) == before  # the last good lists, both
    status = bracket_tables.status(fixture_db)[failed]
    assert status.loaded and status.error == results[failed].error and status.failed_at


def test_a_failure_without_earlier_data_leaves_the_list_null(fixture_db, server):
    server.spellbook_export = b'{"variants": '
    results = refresh(fixture_db, server)
    assert results[TWO_CARD_COMBOS].status == "failed"
    loaded = data(fixture_db)
    assert loaded.combos is None and loaded.mass_land_denial == EXPECTED_DENIAL


def test_a_429_on_the_search_locks_out_and_keeps_the_list(fixture_db, server):
    refresh(fixture_db, server)
    server.fail_next = [429]
    client = ScryfallClient(server.base_url, backoff=0)
    results = bracket_lists.refresh(fixture_db, sources(server), client=client,
                               spellbook=SpellbookClient(f"{server.base_url}/spellbook"))
    assert results[MASS_LAND_DENIAL].status == "failed" and "429" in results[MASS_LAND_DENIAL].error
    asked = len(server.requests)
    # the lockout holds: a second refresh sends no search at all
    again = bracket_lists.refresh(fixture_db, sources(server), client=client,
                             spellbook=SpellbookClient(f"{server.base_url}/spellbook"))
    assert "retry after" in again[MASS_LAND_DENIAL].error
    assert not any(r.path.startswith("/cards/search") for r in server.requests[asked:])
    assert data(fixture_db).mass_land_denial == EXPECTED_DENIAL


def test_a_success_clears_the_last_failure(fixture_db, server):
    server.spellbook_export = b"{"
    refresh(fixture_db, server)
    assert bracket_tables.status(fixture_db)[TWO_CARD_COMBOS].error
    server.spellbook_export = BRACKET_EXPORT
    refresh(fixture_db, server)
    assert bracket_tables.status(fixture_db)[TWO_CARD_COMBOS].error is None


def test_readers_see_the_old_list_or_the_new_never_half(fixture_db, server):
    refresh(fixture_db, server)
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    seen, stop = set(), threading.Event()

    def read():
        while not stop.is_set():
            seen.add(len(repository.bracket_data().combos))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for export in (b'{"variants": [' + b",".join([_variant("A", "B")] * 1) + b"]}", BRACKET_EXPORT) * 3:
            server.spellbook_export = export
            refresh(fixture_db, server)
    finally:
        stop.set()
        reader.join()
    assert seen <= {1, 4}  # a combo list is whole or not there


def _variant(first: str, second: str) -> bytes:
    return json.dumps({"id": "x", "status": "OK", "uses": [{"card": {"name": first}}, {"card": {"name": second}}],
                       "requires": [], "bracketTag": "P"}).encode()


def test_the_repository_cache_follows_the_store(fixture_db, server):
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    assert repository.bracket_data().combos is None
    refresh(fixture_db, server)
    first = repository.bracket_data()
    assert len(first.combos) == 4
    assert repository.bracket_data() is first  # cached: nothing changed
    server.spellbook_export = b'{"variants": [' + _variant("Sol Ring", "Mana Crypt") + b"]}"
    refresh(fixture_db, server)
    assert repository.bracket_data().combos == (Combo(("Mana Crypt", "Sol Ring")),)


# --- file overrides --------------------------------------------------------------------------

def test_files_override_the_sources_and_resolve_names(fixture_db, server):
    results = refresh(fixture_db, server, mass_land_denial_file=str(BRACKETS / "mass-land-denial.txt"),
                      combos_file=str(BRACKETS / "combos.txt"),
                      pauper_commanders_file=str(FORMAT_FIXTURES / "pauper-commanders.txt"))
    assert server.requests == []  # no network when every list has its file
    loaded = data(fixture_db)
    # "vindicate" resolves to the card's name; unknown names are kept as written
    assert loaded.mass_land_denial == {"Armageddon", "Vindicate", "Ravages of War", "Not A Real Card"}
    # accents folded, "Fire/Ice" -> "Fire // Ice", repeats merged, a card with itself dropped
    assert {combo.cards for combo in loaded.combos} == {
        ("Dark Ritual", "Lim-Dûl's Vault"), ("Counterspell", "Fire // Ice"), ("Rhystic Study", "Unknown Combo Piece")}
    assert not any(combo.fast for combo in loaded.combos)  # a plain pair list has no speed
    assert results[MASS_LAND_DENIAL].list_status.source == "file:mass-land-denial.txt"
    assert results[TWO_CARD_COMBOS].list_status.unresolved == 1


@pytest.mark.parametrize(("text", "message"), [
    ("Sol Ring Rhystic Study\n", "line 1 is not `Card A@Card B`"),
    ("# ok\nA@\n", "line 2"),
    ("A@B@C\n", "line 1"),
])
def test_a_bad_combos_file_keeps_the_last_list(fixture_db, server, tmp_path, text, message):
    refresh(fixture_db, server)
    bad = tmp_path / "combos.txt"
    bad.write_text(text)
    results = refresh(fixture_db, server, combos_file=str(bad))
    assert results[TWO_CARD_COMBOS].status == "failed" and message in results[TWO_CARD_COMBOS].error
    assert len(data(fixture_db).combos) == 4


def test_a_missing_file_is_a_failure_not_a_crash(fixture_db, server, tmp_path):
    results = refresh(fixture_db, server, mass_land_denial_file=str(tmp_path / "nope.txt"))
    assert results[MASS_LAND_DENIAL].status == "failed" and "cannot read" in results[MASS_LAND_DENIAL].error


# --- sync, import and the store file ------------------------------------------------------------

def test_sync_refreshes_both_and_a_new_store_keeps_them(tmp_path, server):
    db = tmp_path / "cards.sqlite3"
    client = ScryfallClient(server.base_url, backoff=0)
    first = sync(StoreSettings(db, api_url=server.base_url), client=client, brackets=sources(server))
    assert {kind: r.status for kind, r in first.brackets.items()} == {MASS_LAND_DENIAL: "updated",
                                                                       TWO_CARD_COMBOS: "updated",
                                                                       PAUPER_COMMANDERS: "updated"}
    # newer card data: a whole new store file is built; the lists come along even when
    # their sources fail this time
    server.updated_at = "2026-12-01T10:00:00.000+00:00"
    server.search_results, server.spellbook_export = {}, b"{"
    second = sync(StoreSettings(db, api_url=server.base_url), client=client, brackets=sources(server))
    assert second.status == "updated"
    assert {r.status for r in second.brackets.values()} == {"failed"}
    loaded = data(db)
    assert loaded.mass_land_denial == EXPECTED_DENIAL and len(loaded.combos) == 4


def test_sync_without_sources_leaves_the_lists_alone(tmp_path, server):
    db = tmp_path / "cards.sqlite3"
    result = sync(StoreSettings(db, api_url=server.base_url), client=ScryfallClient(server.base_url))
    assert result.brackets is None
    assert not any(r.path.startswith(("/cards/search", "/spellbook")) for r in server.requests)


def test_import_loads_only_the_files(tmp_path):
    db = tmp_path / "cards.sqlite3"
    result = import_file(db, FIXTURES / "cards.jsonl", brackets=BracketSources(
        api_url="http://127.0.0.1:9", combos_file=str(BRACKETS / "combos.txt")))
    assert list(result.brackets) == [TWO_CARD_COMBOS]  # no file for the other: no network either
    loaded = data(db)
    assert loaded.mass_land_denial is None and len(loaded.combos) == 3


def test_a_store_built_before_bracket_data_still_loads_and_gains_the_tables(fixture_db, server):
    with sqlite3.connect(fixture_db) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "bracket_lists" not in tables  # what every store from before this change looks like
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    assert repository.bracket_data() == BracketData()
    assert repository.resolve(["Sol Ring"]).cards["Sol Ring"].name == "Sol Ring"
    refresh(fixture_db, server)  # written in place: no rebuild needed
    assert len(repository.bracket_data().combos) == 4


def test_refresh_without_a_store_is_a_clear_error(tmp_path, server):
    with pytest.raises(CardDataError, match="no card store"):
        refresh(tmp_path / "none.sqlite3", server)


def test_gzipped_export_file(tmp_path):
    path = tmp_path / "variants.json.gz"
    path.write_bytes(gzip.compress(BRACKET_EXPORT))
    assert read_export([path.read_bytes()]).pairs == EXPECTED_COMBOS  # read_export gunzips it


def test_the_lists_are_asked_again_only_when_the_store_file_may_have_changed(fixture_db, monkeypatch):
    """bracket_data() skips the versions query while the store file is untouched (same
    mtime and size, last written over QUIET_SECONDS before); a write in place is seen."""
    import os

    calls = []
    versions = bracket_tables.versions
    monkeypatch.setattr(bracket_tables, "versions", lambda conn: calls.append(1) or versions(conn))
    old = os.stat(fixture_db).st_mtime - 60
    os.utime(fixture_db, (old, old))
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    first = repository.bracket_data()
    assert repository.bracket_data() is first and len(calls) == 1  # quiet file: asked once
    bracket_lists.refresh(fixture_db, BracketSources(combos_file=str(BRACKETS / "combos.txt")), network=False)
    assert ("Counterspell", "Fire // Ice") in {combo.cards for combo in repository.bracket_data().combos}
    repository.bracket_data()
    assert len(calls) == 3  # just written: asked every time until the file is quiet


def test_a_resolutions_stamp_spares_bracket_data_its_own_stat(fixture_db, monkeypatch):
    """validate_text passes the stamp resolve() took: one stat of the store per validation."""
    import os

    from card_data import repository as repository_module

    old = os.stat(fixture_db).st_mtime - 60
    os.utime(fixture_db, (old, old))
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    first = repository.bracket_data()
    resolution = repository.resolve(["Sol Ring"])
    stats = []
    monkeypatch.setattr(repository_module.os, "stat", lambda path: stats.append(path) or os.lstat(path))
    assert repository.bracket_data(resolution.stamp) is first and stats == []
    assert repository.bracket_data() is first and len(stats) == 1
