"""The formats' card data (issue 21): every legality key of the bulk file kept in the store,
and the Pauper Commander commander list, synced like the bracket lists (Scryfall's
is:paupercommander search, every page, the budget and 429 lockout, the last good copy kept,
an emptied answer refused, PAUPER_COMMANDERS_FILE), an old store upgrading by itself."""

from __future__ import annotations

import json
import sqlite3

import pytest

from card_data import BracketSources
from card_data.lists import refresh as bracket_lists
from card_data.store import list_tables as bracket_tables
from card_data.store.list_tables import PAUPER_COMMANDERS
from card_data.scryfall.client import ScryfallClient
from card_data.repository import open_repository
from card_data.settings import StoreSettings
from card_data.sync import import_file, sync
from edh_service.cli import cards as cli
from tests.support.format_store import FORMAT_CARDS, PDH_FILE, UPDATED_AT, format_store
from tests.support.scryfall_server import BRACKETS, PAUPER_COMMANDERS_QUERY, with_format_lists
from tests.support.spacing import RecordedLimits
from validator.formats import FormatData

SEARCHED = {"Eternal Witness", "Gut, True-Soul Zealot", "Criminal Past", "Bronze Horse", "Sailor of Means"}


@pytest.fixture
def server(scryfall_server):
    """The local server answering is:paupercommander (5 cards)."""
    return with_format_lists(scryfall_server)


@pytest.fixture
def format_db(tmp_path):
    """The formats' store (every legality key), no PDH list loaded yet."""
    return format_store(tmp_path / "formats.sqlite3", pauper_commanders=False)


def only_pdh(server, **overrides) -> BracketSources:
    """Sources whose bracket lists are files (no request), the PDH list from the server."""
    return BracketSources(api_url=server.base_url, mass_land_denial_file=str(BRACKETS / "mass-land-denial.txt"),
                          combos_file=str(BRACKETS / "combos.txt"), **overrides)


def refresh(db, server, client=None, **overrides):
    """Refresh every list; only the PDH search reaches the server."""
    client = client or ScryfallClient(server.base_url, backoff=0)
    return bracket_lists.refresh(db, only_pdh(server, **overrides), client=client)


def format_data(db) -> FormatData:
    """What a fresh repository hands the engine."""
    return open_repository(StoreSettings(db, offline=True)).format_data()


# --- every legality key --------------------------------------------------------------------

def test_the_store_keeps_every_legality_key_of_the_bulk_file(format_db):
    records = {json.loads(line)["name"]: json.loads(line) for line in FORMAT_CARDS.read_text().splitlines()}
    repository = open_repository(StoreSettings(format_db, offline=True))
    for name in ("Derevi, Empyrial Tactician", "Sol Ring", "Teferi, Master of Time"):
        card = repository.resolve([name]).cards[name]
        assert dict(card.legalities) == records[name]["legalities"]
        assert len(card.legalities) == 23 and repository.describe(name)["legalities"] == records[name]["legalities"]
    assert repository.resolve(["Derevi, Empyrial Tactician"]).cards["Derevi, Empyrial Tactician"].legalities[
        "duel"] == "restricted"


def test_a_card_stored_without_a_key_has_no_value_for_it(format_db):
    # an old bulk file's card (no oathbreaker, duel... key) is unknown there, never legal
    card = open_repository(StoreSettings(format_db, offline=True)).resolve(["Elder Deep-Fiend"]).cards["Elder Deep-Fiend"]
    assert dict(card.legalities) == {"commander": "legal"} and "duel" not in card.legalities


# --- the Pauper Commander list ---------------------------------------------------------------

def test_refresh_reads_every_page_of_the_search(format_db, server):
    server.search_page_size = 2
    claims: list[float] = []
    results = refresh(format_db, server, ScryfallClient(server.base_url, backoff=0,
                                                        limits=RecordedLimits(starts=claims)))
    assert results[PAUPER_COMMANDERS].status == "updated"
    assert format_data(format_db).pauper_commanders == SEARCHED  # 3 pages of 2
    searches = [r.path for r in server.requests if r.path.startswith("/cards/search")]
    assert len(searches) == 3 and all("q=is%3Apaupercommander" in path for path in searches)
    assert len(claims) == 3  # every page claimed a slot of the 2-a-second budget
    status = results[PAUPER_COMMANDERS].list_status
    assert (status.source, status.entries, status.unresolved) == ("scryfall:is:paupercommander", 5, 2)
    assert status.updated_at  # its own updated_at, apart from the card data's


def test_a_429_locks_out_and_keeps_the_last_list(format_db, server):
    refresh(format_db, server)
    before = bracket_tables.status(format_db)[PAUPER_COMMANDERS]
    server.fail_next = [429]
    limits = RecordedLimits()
    results = refresh(format_db, server, ScryfallClient(server.base_url, backoff=0, limits=limits))
    assert results[PAUPER_COMMANDERS].status == "failed" and "429" in results[PAUPER_COMMANDERS].error
    assert limits.lockout_remaining() > 25  # Scryfall's 30 s lockout, for every search after
    assert format_data(format_db).pauper_commanders == SEARCHED
    after = bracket_tables.status(format_db)[PAUPER_COMMANDERS]
    assert after.refreshed_at == before.refreshed_at and after.failed_at and "429" in after.error


def test_an_emptied_answer_is_refused(format_db, server):
    refresh(format_db, server)
    server.search_results[PAUPER_COMMANDERS_QUERY] = []  # Scryfall: 404, matched nothing
    results = refresh(format_db, server)
    assert results[PAUPER_COMMANDERS].status == "failed"
    assert "is:paupercommander matched no cards" in results[PAUPER_COMMANDERS].error
    assert format_data(format_db).pauper_commanders == SEARCHED


@pytest.mark.parametrize("text", ["", "# nothing any more\n\n"])
def test_an_emptied_file_is_refused(format_db, server, tmp_path, text):
    refresh(format_db, server)
    empty = tmp_path / "pdh.txt"
    empty.write_text(text)
    results = refresh(format_db, server, pauper_commanders_file=str(empty))
    assert "gave no Pauper Commander commanders" in results[PAUPER_COMMANDERS].error
    assert format_data(format_db).pauper_commanders == SEARCHED


def test_the_file_overrides_the_search(format_db, server):
    results = refresh(format_db, server, pauper_commanders_file=str(PDH_FILE))
    assert server.requests == []
    assert results[PAUPER_COMMANDERS].list_status.source == "file:pauper-commanders.txt"
    assert format_data(format_db).pauper_commanders == {"Eternal Witness", "Gut, True-Soul Zealot", "Criminal Past"}


def test_names_resolve_to_canonical_names(format_db, server, tmp_path):
    listed = tmp_path / "pdh.txt"
    listed.write_text("eternal witness\nGut, True-Soul Zealot\n# a comment\nNot A Real Card\n")
    results = refresh(format_db, server, pauper_commanders_file=str(listed))
    assert format_data(format_db).pauper_commanders == {"Eternal Witness", "Gut, True-Soul Zealot", "Not A Real Card"}
    assert results[PAUPER_COMMANDERS].list_status.unresolved == 1


def test_import_loads_the_file_and_never_the_network(tmp_path):
    db = tmp_path / "cards.sqlite3"
    result = import_file(db, FORMAT_CARDS, updated_at=UPDATED_AT,
                         brackets=BracketSources(api_url="http://127.0.0.1:9", pauper_commanders_file=str(PDH_FILE)))
    assert set(result.brackets) == {PAUPER_COMMANDERS}  # the lists without a file are left alone
    assert format_data(db).pauper_commanders == {"Eternal Witness", "Gut, True-Soul Zealot", "Criminal Past"}


def test_a_new_store_keeps_the_list_when_the_search_fails(tmp_path, server):
    db = tmp_path / "cards.sqlite3"
    client = ScryfallClient(server.base_url, backoff=0)
    sync(StoreSettings(db, api_url=server.base_url), client=client, brackets=only_pdh(server))
    server.updated_at = "2026-12-01T10:00:00.000+00:00"
    server.search_results = {}
    second = sync(StoreSettings(db, api_url=server.base_url), client=client, brackets=only_pdh(server))
    assert second.status == "updated" and second.brackets[PAUPER_COMMANDERS].status == "failed"
    assert format_data(db).pauper_commanders == SEARCHED  # carried over into the new file


def test_no_list_loaded_is_none(format_db):
    assert format_data(format_db) == FormatData()


def test_an_old_store_reads_as_not_loaded_and_upgrades_at_the_next_refresh(format_db, server):
    # a store of before issue 21: bracket tables, but no pauper_commanders table
    bracket_lists.refresh(format_db, only_pdh(server, pauper_commanders_file=str(PDH_FILE)))
    with sqlite3.connect(format_db) as conn:
        conn.execute("DROP TABLE pauper_commanders")
        conn.execute("DELETE FROM bracket_lists WHERE list = ?", (PAUPER_COMMANDERS,))
    assert format_data(format_db) == FormatData()
    assert bracket_tables.status(format_db)[PAUPER_COMMANDERS].loaded is False
    assert refresh(format_db, server)[PAUPER_COMMANDERS].status == "updated"  # no manual step
    assert format_data(format_db).pauper_commanders == SEARCHED


def test_a_repository_sees_a_refresh(format_db, server):
    repository = open_repository(StoreSettings(format_db, offline=True))
    assert repository.format_data().pauper_commanders is None
    refresh(format_db, server, pauper_commanders_file=str(PDH_FILE))
    # the same store file, rewritten by the refresh: its stamp or the lists' versions changed
    assert repository.format_data().pauper_commanders == {"Eternal Witness", "Gut, True-Soul Zealot", "Criminal Past"}


# --- cards status ------------------------------------------------------------------------------

def test_cards_status_shows_the_list(format_db, server, capsys):
    assert cli.main(["status", "--db", str(format_db)]) == 0
    assert "Pauper Commander commanders: not loaded (Pauper Commander commanders are legality_unknown)" in \
        capsys.readouterr().out
    refresh(format_db, server)
    assert cli.main(["status", "--db", str(format_db)]) == 0
    assert "Pauper Commander commanders: 5 entries (2 names unknown to the card data) from " \
           "scryfall:is:paupercommander" in capsys.readouterr().out
    assert cli.main(["status", "--json", "--db", str(format_db)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert set(shown["brackets"]) == {"mass_land_denial", "two_card_combos"}
    assert shown["format_lists"][PAUPER_COMMANDERS]["entries"] == 5


def test_cards_import_reads_pauper_commanders_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAUPER_COMMANDERS_FILE", str(PDH_FILE))
    db = tmp_path / "cards.sqlite3"
    assert cli.main(["import", str(FORMAT_CARDS), "--db", str(db), "--updated-at", UPDATED_AT]) == 0
    assert "Pauper Commander commanders: 3 entries from file:pauper-commanders.txt" in capsys.readouterr().out
