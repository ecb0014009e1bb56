"""Hostile files for the sync and the list refreshes (issue 19), served by the local
Scryfall-shaped server to the real client: each is refused (or read) in bounded memory and
time, the last good store and lists stay, and the failure is recorded.

The reproductions run in a child process (tests/support/measured.py), whose peak RSS and CPU time
are its own: peak RSS under RSS_BOUND_MB, CPU time under CPU_BOUND_SECONDS where the
unbounded code took 52 s to hours or gigabytes. CPU time, not wall time, is the bound a
loaded 2-core machine cannot fail; the wall time only has to stay under a hang guard.
"""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from card_data import BracketSources
from card_data.lists import refresh as bracket_lists
from card_data.store import list_tables as bracket_tables

from card_data.settings import StoreSettings
from edh_service.cli import cards as cli
from card_data.store.list_tables import MASS_LAND_DENIAL, PAUPER_COMMANDERS, TWO_CARD_COMBOS
from card_data.settings import BracketSources
from card_data.scryfall.client import ScryfallClient
from card_data.errors import CardDataError
from card_data.repository import open_repository
from card_data.store.cards import read_metadata
from card_data.sync import import_file, sync
from edh_service.factory import create_app
from tests.support.live_http import VALIDATE, sha256
from tests.support.hostile_files import HOSTILE_BULK, HOSTILE_EXPORTS, MB, SOL_RING, gzip_of
from tests.support.measured import measure
from tests.support.scryfall_server import (
    BRACKETS, FIXTURES, FORMAT_FIXTURES, ScryfallServer, load_jsonl, with_bracket_lists,
)

RSS_BOUND_MB = 200
CPU_BOUND_SECONDS = 10.0
WALL_GUARD_SECONDS = 60.0
LIST_FIELDS = {MASS_LAND_DENIAL: "mass_land_denial", TWO_CARD_COMBOS: "combos"}  # BracketData's names

def assert_bounded(measured, message: str | None = None) -> None:
    """The child stayed under the memory and CPU bounds (and refused with message, if given)."""
    assert measured.peak_rss_mb < RSS_BOUND_MB, measured
    assert measured.cpu_seconds < CPU_BOUND_SECONDS, measured
    assert measured.wall_seconds < WALL_GUARD_SECONDS, measured
    if message is not None:
        assert message in measured.outcome.get("error", ""), measured.outcome


@pytest.fixture
def server(scryfall_server):
    """The local server with the fixture tag search and Spellbook export (with_bracket_lists)."""
    return with_bracket_lists(scryfall_server)


@pytest.fixture
def hostile(tmp_path):
    """A folder for hostile files, apart from the store's folder."""
    folder = tmp_path / "hostile"
    folder.mkdir()
    return folder


def good_lists(db, server) -> dict:
    """Load both lists from the good sources; return what the store holds."""
    results = bracket_lists.refresh(db, sources(server), client=ScryfallClient(server.base_url, backoff=0))
    assert {kind: r.status for kind, r in results.items()} == {MASS_LAND_DENIAL: "updated", TWO_CARD_COMBOS: "updated",
                                                                PAUPER_COMMANDERS: "updated"}
    return open_repository(StoreSettings(db, offline=True)).bracket_data()


def sources(server, **overrides) -> BracketSources:
    """Both bracket lists from the local server (the Pauper Commander list from its fixture
    file, so the hostile searches below reach the mass land denial search alone)."""
    overrides.setdefault("pauper_commanders_file", str(FORMAT_FIXTURES / "pauper-commanders.txt"))
    return BracketSources(api_url=server.base_url, spellbook_url=f"{server.base_url}/spellbook", **overrides)


def assert_kept(db, before, failed: str, message: str) -> None:
    """The failed list is still the last good one, and its failure is recorded with message."""
    now = open_repository(StoreSettings(db, offline=True)).bracket_data()
    assert getattr(now, LIST_FIELDS[failed]) == getattr(before, LIST_FIELDS[failed])
    status = bracket_tables.status(db)[failed]
    assert status.loaded and status.failed_at and message in status.error, status


# -- the bulk file -------------------------------------------------------------------------------

@pytest.mark.timeout(180)
@pytest.mark.parametrize("case", HOSTILE_BULK)
def test_a_hostile_bulk_file_is_refused_in_bounded_memory_and_time(case, fixture_db, scryfall_server, hostile):
    build, message = HOSTILE_BULK[case]
    (file := hostile / "oracle-cards.jsonl.gz").write_bytes(build())  # served as is, gzip or not
    scryfall_server.bulk_file = file
    before = sha256(fixture_db)
    measured = measure("sync", fixture_db, scryfall_server.base_url)
    assert_bounded(measured, message)
    assert sha256(fixture_db) == before
    assert sorted(p.name for p in fixture_db.parent.iterdir()) == ["cards.sqlite3", "hostile"]  # nothing half-built


@pytest.mark.timeout(180)
def test_a_giant_single_line_json_array_is_streamed(tmp_path):
    """`cards import` of a .json array on one line (40,000 cards, about 20 MB): read item by
    item, never whole."""
    cards = load_jsonl(FIXTURES / "cards.jsonl")
    many = [{**cards[i % len(cards)], "name": f"Card Number {i}"} for i in range(40_000)]
    (source := tmp_path / "all-cards.json").write_text(json.dumps(many, separators=(",", ":")))
    assert b"\n" not in source.read_bytes() and source.stat().st_size > 15 * MB
    measured = measure("import", tmp_path / "cards.sqlite3", source)
    assert_bounded(measured)
    assert measured.outcome == {"status": "updated", "cards": 40_000}


@pytest.mark.parametrize(("body", "message"), [
    (gzip_of((b" ", 64 * MB)), "is over 4 MiB"),  # a gzip bomb sent as Content-Encoding: gzip
    (b" " * (5 * MB), "is over 4 MiB"),  # refused by its Content-Length
    (b'{"object": "bulk_data", "x": ' + b"[" * 100_000, "nested too deeply"),
    (b'{"object": "bulk_data", "updated_at": {"date": "2026-12-01"}}', "not a bulk_data object"),
    (b'{"object": "bulk_data", "updated_at": "2099-01-01T00:00:00+00:00", "jsonl_download_uri": "file:///etc/passwd"}',
     "no http(s) URL"),
    (b'{"object": "bulk_data", "updated_at": "2099-01-01T00:00:00+00:00", "jsonl_download_uri": {"a": 1}}',
     "no http(s) URL"),
])
def test_a_hostile_bulk_data_object_is_refused(fixture_db, scryfall_server, body, message):
    scryfall_server.bulk_object_body = body
    before = sha256(fixture_db)
    with pytest.raises(CardDataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        sync(StoreSettings(fixture_db), client=ScryfallClient(scryfall_server.base_url, backoff=0, retries=0))
    assert sha256(fixture_db) == before
    assert scryfall_server.paths() == ["/bulk-data/oracle-cards"]  # nothing else was fetched


@pytest.mark.timeout(120)
def test_a_gzip_bomb_bulk_data_object_stays_in_bounded_memory(fixture_db, scryfall_server):
    scryfall_server.bulk_object_body = gzip_of((b'{"object": "bulk_data", "pad": "', 1), (b"x", 512 * MB))
    assert_bounded(measure("sync", fixture_db, scryfall_server.base_url), "is over 4 MiB")


# -- the Spellbook export ------------------------------------------------------------------------

@pytest.mark.timeout(180)
@pytest.mark.parametrize("case", HOSTILE_EXPORTS)
def test_a_hostile_spellbook_export_fails_the_refresh_in_bounded_memory(case, fixture_db, server):
    before = good_lists(fixture_db, server)
    build, message = HOSTILE_EXPORTS[case]
    server.spellbook_export = build()
    server.spellbook_offer_gz = False  # served as variants.json, whatever it holds (gzip is sniffed)
    measured = measure("refresh", fixture_db, server.base_url, f"{server.base_url}/spellbook")
    assert_bounded(measured)
    assert measured.outcome[TWO_CARD_COMBOS]["status"] == "failed"
    assert message in measured.outcome[TWO_CARD_COMBOS]["error"], measured.outcome
    assert measured.outcome[MASS_LAND_DENIAL]["status"] == "updated"  # the other list is not held up
    assert_kept(fixture_db, before, TWO_CARD_COMBOS, message)


def three_card_variant(number: int) -> dict:
    """A variant of three cards: a combo, but no two-card one."""
    return {"id": f"{number}", "status": "OK", "requires": [], "bracketTag": "R",
            "uses": [{"card": {"name": name}, "quantity": 1} for name in ("Sol Ring", "Forest", f"Card {number}")]}


@pytest.mark.parametrize(("export", "message"), [
    # the reproduction: 1,698 combos replaced by none, "updated"
    ({"variants": [three_card_variant(i) for i in range(50)]}, "gave no two-card combos"),
    ({"variants": [{"uses": [{"card": {"name": "Sol Ring"}}, {"card": {"name": "x" * 300}}]}]},
     "has no name of 1-200 characters"),
    ({"variants": [{"uses": [{"card": {"name": "Sol Ring"}}, {"card": {"name": ["Forest"]}}]}]},
     "has no name of 1-200 characters"),
])
def test_an_export_without_two_card_combos_keeps_the_last_list(fixture_db, server, export, message):
    before = good_lists(fixture_db, server)
    assert len(before.combos) == 4
    server.spellbook_export = json.dumps(export).encode()
    results = bracket_lists.refresh(fixture_db, sources(server), client=ScryfallClient(server.base_url, backoff=0))
    assert results[TWO_CARD_COMBOS].status == "failed" and message in results[TWO_CARD_COMBOS].error
    assert results[TWO_CARD_COMBOS].list_status.entries == 4
    assert_kept(fixture_db, before, TWO_CARD_COMBOS, message)


def test_cards_status_shows_the_refused_list(fixture_db, server, monkeypatch, capsys):
    good_lists(fixture_db, server)
    server.spellbook_export = json.dumps({"variants": [three_card_variant(1)]}).encode()
    monkeypatch.setenv("SCRYFALL_API_URL", server.base_url)
    monkeypatch.setenv("SPELLBOOK_URL", f"{server.base_url}/spellbook")
    assert cli.main(["brackets", "--db", str(fixture_db)]) == 0  # a list failing is a warning
    assert "two-card combos not refreshed (keeping the last list)" in capsys.readouterr().err
    assert cli.main(["status", "--db", str(fixture_db)]) == 0
    shown = capsys.readouterr().out
    assert "two-card combos: 4 entries" in shown and "gave no two-card combos" in shown


def test_an_override_file_over_its_bound_keeps_the_last_list(fixture_db, server, tmp_path):
    before = good_lists(fixture_db, server)
    big = tmp_path / "mass-land-denial.txt"
    with big.open("wb") as handle:
        handle.write(b"Armageddon\n" * (17 * MB // 11))
    results = bracket_lists.refresh(fixture_db, sources(server, mass_land_denial_file=str(big)),
                               client=ScryfallClient(server.base_url, backoff=0))
    assert results[MASS_LAND_DENIAL].status == "failed" and "is over 16 MiB" in results[MASS_LAND_DENIAL].error
    assert_kept(fixture_db, before, MASS_LAND_DENIAL, "is over 16 MiB")


@pytest.mark.parametrize("text", ["", "# nothing here any more\n\n"])
def test_an_emptied_override_file_keeps_the_last_list(fixture_db, server, tmp_path, text):
    before = good_lists(fixture_db, server)
    (empty := tmp_path / "combos.txt").write_text(text)
    results = bracket_lists.refresh(fixture_db, sources(server, combos_file=str(empty)),
                               client=ScryfallClient(server.base_url, backoff=0))
    assert results[TWO_CARD_COMBOS].status == "failed"
    assert_kept(fixture_db, before, TWO_CARD_COMBOS, "file:combos.txt gave no two-card combos")


def test_running_out_of_memory_is_a_failed_refresh(fixture_db, server, monkeypatch):
    before = good_lists(fixture_db, server)

    def exhausted(chunks):
        raise MemoryError

    monkeypatch.setattr(bracket_lists, "read_export", exhausted)
    results = bracket_lists.refresh(fixture_db, sources(server), client=ScryfallClient(server.base_url, backoff=0))
    assert results[TWO_CARD_COMBOS].status == "failed" and results[MASS_LAND_DENIAL].status == "updated"
    assert_kept(fixture_db, before, TWO_CARD_COMBOS, "ran out of memory")


def test_running_out_of_memory_is_a_failed_sync(fixture_db, scryfall_server, monkeypatch):
    from card_data.store import cards as store

    before = sha256(fixture_db)

    def exhausted(self, payload):
        raise MemoryError

    monkeypatch.setattr(store.StoreBuilder, "add", exhausted)
    with pytest.raises(CardDataError, match="ran out of memory"):
        sync(StoreSettings(fixture_db), client=ScryfallClient(scryfall_server.base_url, backoff=0), force=True)
    assert sha256(fixture_db) == before and sorted(p.name for p in fixture_db.parent.iterdir()) == ["cards.sqlite3"]


# -- the mass land denial search -------------------------------------------------------------------


@pytest.fixture
def quick_pages(monkeypatch):
    """Search pages spaced 10 ms apart instead of 700 (what is tested is the chain, not the spacing)."""
    monkeypatch.setattr("card_data.coordination.files.RATE_LIMITED_INTERVAL", 0.01)


def search_requests(server) -> list[str]:
    """The /cards/search requests the server received."""
    return [path for path in server.paths("GET") if path.startswith("/cards/search")]


def test_an_endless_has_more_chain_stops_at_the_page_bound(fixture_db, server, quick_pages):
    before = good_lists(fixture_db, server)
    asked = len(search_requests(server))
    server.search_next = "endless"
    results = bracket_lists.refresh(fixture_db, sources(server), client=ScryfallClient(server.base_url, backoff=0))
    assert results[MASS_LAND_DENIAL].status == "failed"
    assert len(search_requests(server)) - asked == 20
    assert_kept(fixture_db, before, MASS_LAND_DENIAL, "has more than 20 pages")


def test_a_next_page_at_itself_is_not_followed_again(fixture_db, server, quick_pages):
    before = good_lists(fixture_db, server)
    asked = len(search_requests(server))
    server.search_next = "self"
    bracket_lists.refresh(fixture_db, sources(server), client=ScryfallClient(server.base_url, backoff=0))
    assert len(search_requests(server)) - asked == 2  # the first page, and the same page once as its next_page
    assert_kept(fixture_db, before, MASS_LAND_DENIAL, "a next_page it had given before (a loop)")


@pytest.mark.parametrize("where", ["/cards/named?exact=Sol+Ring", "elsewhere"])
def test_a_next_page_away_from_the_search_endpoint_is_not_followed(fixture_db, server, quick_pages, where):
    before = good_lists(fixture_db, server)
    with ScryfallServer() as elsewhere:
        server.search_next = f"{server.base_url}{where}" if where.startswith("/") else f"{elsewhere.base_url}/cards/search?q=x&page=2"
        asked = len(server.requests)
        bracket_lists.refresh(fixture_db, sources(server), client=ScryfallClient(server.base_url, backoff=0))
        assert elsewhere.requests == []
    assert [r.path for r in server.requests[asked:] if not r.path.startswith("/spellbook")] == [
        "/cards/search?q=otag%3Amass-land-denial"]
    assert_kept(fixture_db, before, MASS_LAND_DENIAL, "gave a next_page away from")


@pytest.mark.parametrize(("page", "message"), [
    ({"object": "list", "has_more": False, "data": [{"object": "card", "name": f"Card {i}"} for i in range(3501)]},
     "returned over 3,500 cards"),
    ({"object": "list", "has_more": False, "data": []}, "gave no mass land denial cards"),
    ({"object": "list", "has_more": False, "data": [{"name": {"en": "Armageddon"}}]}, "which is no card name"),
    ({"object": "list", "has_more": False, "data": [{"name": "Armageddon " * 40}]}, "which is no card name"),
])
def test_a_hostile_search_page_keeps_the_last_list(fixture_db, server, page, message):
    before = good_lists(fixture_db, server)
    server.search_body = json.dumps(page).encode()
    results = bracket_lists.refresh(fixture_db, sources(server), client=ScryfallClient(server.base_url, backoff=0))
    assert results[MASS_LAND_DENIAL].status == "failed"
    assert_kept(fixture_db, before, MASS_LAND_DENIAL, message)


@pytest.mark.timeout(120)
def test_a_huge_search_page_fails_the_refresh_in_bounded_memory(fixture_db, server):
    before = good_lists(fixture_db, server)
    server.search_body = gzip_of((b'{"object": "list", "has_more": false, "data": [', 1), (b"{},", 100 * MB // 3),
                                 (b"{}]}", 1))
    measured = measure("refresh", fixture_db, server.base_url, f"{server.base_url}/spellbook",
                       BRACKETS / "combos.txt")
    assert_bounded(measured)
    assert measured.outcome[MASS_LAND_DENIAL]["status"] == "failed"
    assert_kept(fixture_db, before, MASS_LAND_DENIAL, "is over 4 MiB")


# -- /cards/collection ------------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_a_huge_collection_answer_is_refused_in_bounded_memory(scryfall_server):
    scryfall_server.collection_body = gzip_of((b'{"object": "list", "not_found": [], "data": [', 1),
                                              (b"{},", 100 * MB // 3), (b"{}]}", 1))
    assert_bounded(measure("collection", scryfall_server.base_url, "Sol Ring", "Forest"), "is over 4 MiB")


@pytest.mark.parametrize(("body", "message"), [
    (b'{"object": "list", "data": ' + b"[" * 100_000, "nested too deeply"),
    (b'{"object": "list", "data": [' + b"1" * 5000 + b"]}", "not JSON"),  # over Python's 4,300-digit int limit
    (gzip_of((b" ", 64 * MB)), "is over 4 MiB"),
])
def test_a_hostile_collection_answer_fails_the_lookup_cleanly(fixture_db, scryfall_server, body, message):
    """The client refuses the answer; a validation asking for the name still answers (the
    name stays unknown, as for any failed lookup), never a 500."""
    scryfall_server.collection_body = body
    with pytest.raises(CardDataError, match=message):
        ScryfallClient(scryfall_server.base_url, retries=0).fetch_collection(["Unheard Of Card"])
    app = create_app({"TESTING": True, "CARD_DB": str(fixture_db), "SCRYFALL_API_URL": scryfall_server.base_url,
                      "CARD_DATA_OFFLINE": False, "CARD_DATA_SYNC": False})
    response = app.test_client().post(VALIDATE, json={"decklist": "1 Unheard Of Card\n1 Sol Ring\n"})
    assert response.status_code == 200
    unknown = [v for v in response.get_json()["violations"] if v["code"] == "unknown_card"]
    assert [(v["cards"], v["lines"]) for v in unknown] == [(["Unheard Of Card"], [1])]


# -- importing local files --------------------------------------------------------------------------


@pytest.mark.parametrize("beside", [
    b'{"updated_at": ' + b"[" * 100_000,
    b'{"updated_at": {"when": "2026-12-01"}}',
    b" " * (1 * MB),
])
def test_a_hostile_bulk_data_json_beside_an_import_falls_back_to_the_mtime(tmp_path, beside):
    source = tmp_path / "oracle-cards.jsonl"
    source.write_bytes(SOL_RING + b"\n")
    (tmp_path / "bulk-data.json").write_bytes(beside)
    result = import_file(tmp_path / "cards.sqlite3", source)
    mtime = datetime.fromtimestamp(source.stat().st_mtime).astimezone().isoformat()
    assert (result.metadata.cards, read_metadata(tmp_path / "cards.sqlite3").updated_at) == (1, mtime)
