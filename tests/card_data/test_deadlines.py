"""Every exchange with an upstream ends by its deadline, whatever the server's pace: a
server that drips one byte at a time (each byte well within the read timeout) is cut off
when the total deadline passes (card_data.http.Cutoff), on a fresh connection and on a
reused keep-alive one, for JSON answers and streamed downloads alike; a name look-up
never waits for a rate-limit slot past its budget; and a look-up budget that Scryfall
does not answer within leaves the names unknown and says so (Resolution.unavailable)."""

from __future__ import annotations

import time

import pytest

from card_data import CardDataUnavailable, open_repository
from card_data.scryfall.client import ScryfallClient
from card_data import repository as repository_module
from card_data.errors import BudgetSpent, DeadlinePassed
from card_data.http import Deadline
from card_data.settings import StoreSettings
from card_data.lists.spellbook import SpellbookClient
from card_data.store.cards import read_metadata
from card_data.sync import sync
from tests.support.waiting import timed
from tests.support.live_http import sha256
from tests.support.scryfall_server import BRACKET_EXPORT

SLACK = 1.5  # a loaded machine's lateness, on top of a deadline


@pytest.mark.timeout(30)
def test_a_dripping_collection_answer_is_cut_at_the_deadline(scryfall_server):
    scryfall_server.drip = 0.2  # a byte every 0.2 s: no read timeout of 0.4 s ever trips
    client = ScryfallClient(scryfall_server.base_url, timeout=(0.5, 0.4), retries=0)
    raised, took = timed(lambda: client.fetch_collection(["Sol Ring"], deadline=Deadline(1.0)))
    assert isinstance(raised, DeadlinePassed), raised
    assert "did not answer within 1 s" in str(raised)
    assert took < 1.0 + SLACK


@pytest.mark.timeout(30)
def test_a_reused_keep_alive_connection_is_cut_too(scryfall_server):
    client = ScryfallClient(scryfall_server.base_url, retries=0)
    found, _ = client.fetch_collection(["Sol Ring"], deadline=Deadline(5.0))  # opens the connection
    assert [payload["name"] for _, payload in found] == ["Sol Ring"]
    scryfall_server.drip = 0.2
    raised, took = timed(lambda: client.fetch_collection(["Counterspell"], deadline=Deadline(1.0)))
    assert isinstance(raised, DeadlinePassed), raised
    assert took < 1.0 + SLACK


@pytest.mark.timeout(30)
def test_every_json_answer_has_a_total_bound_of_its_own(scryfall_server):
    scryfall_server.drip = 0.2
    client = ScryfallClient(scryfall_server.base_url, timeout=(0.5, 0.4), retries=0, answer_seconds=1.0)
    raised, took = timed(lambda: client.bulk_data("oracle-cards"))
    assert isinstance(raised, DeadlinePassed), raised
    assert took < 1.0 + SLACK


@pytest.mark.timeout(30)
def test_a_dripping_bulk_download_gives_up_and_keeps_the_last_good_store(fixture_db, scryfall_server):
    before = sha256(fixture_db)
    client = ScryfallClient(scryfall_server.base_url, retries=0, download_seconds=2.0)
    bulk = client.bulk_data("oracle-cards")  # answered at once
    scryfall_server.drip = 0.05  # then the file trickles: 20 bytes a second of a gzip file
    client.bulk_data = lambda bulk_type="oracle-cards": bulk  # the object already asked for
    raised, took = timed(lambda: sync(StoreSettings(fixture_db, api_url=scryfall_server.base_url), client=client))
    assert isinstance(raised, DeadlinePassed), raised
    assert took < 2.0 + SLACK
    assert sha256(fixture_db) == before
    assert read_metadata(fixture_db).updated_at == "2026-11-01T00:00:00+00:00"
    assert sorted(p.name for p in fixture_db.parent.iterdir()) == ["cards.sqlite3"]  # no half-built file left


@pytest.mark.timeout(30)
def test_a_dripping_spellbook_export_is_cut_at_its_deadline(scryfall_server):
    scryfall_server.spellbook_export = BRACKET_EXPORT
    scryfall_server.drip = 0.05
    client = SpellbookClient(f"{scryfall_server.base_url}/spellbook/variants.json", download_seconds=1.5)

    def read_all():
        with client.download() as download:
            return b"".join(download.chunks())

    raised, took = timed(read_all)
    assert isinstance(raised, DeadlinePassed), raised
    assert took < 1.5 + SLACK


def test_an_undripped_download_is_read_whole_within_its_deadline(scryfall_server):
    """The control: the cutoff never shortens an answer that arrives in time."""
    scryfall_server.spellbook_export = BRACKET_EXPORT
    client = SpellbookClient(f"{scryfall_server.base_url}/spellbook/variants.json", download_seconds=10.0)
    with client.download() as download:
        assert b"".join(download.chunks()) == BRACKET_EXPORT


@pytest.mark.timeout(30)
def test_no_slot_is_waited_for_past_the_budget(scryfall_server):
    client = ScryfallClient(scryfall_server.base_url, retries=0)
    client.fetch_collection(["Sol Ring"])  # takes this second's slot: the next is 0.5 s away
    raised, took = timed(lambda: client.fetch_collection(["Counterspell"], deadline=Deadline(0.2)))
    assert isinstance(raised, BudgetSpent), raised
    assert took < 0.2 + SLACK
    assert scryfall_server.paths("POST") == ["/cards/collection"]  # the second was never sent


# -- the repository: names Scryfall did not answer for -----------------------------------


@pytest.fixture
def online(fixture_db, scryfall_server):
    return open_repository(StoreSettings(fixture_db, api_url=scryfall_server.base_url))


@pytest.mark.timeout(30)
@pytest.mark.parametrize("fault", ["slow", "drip", "429", "500"])
def test_names_scryfall_does_not_answer_for_are_unknown_and_unavailable(online, scryfall_server, fault, monkeypatch):
    setattr(scryfall_server, *{"slow": ("delay", 10.0), "drip": ("drip", 0.2), "429": ("fail_next", [429]),
                               "500": ("fail_next", [500] * 6)}[fault])
    resolution, took = timed(lambda: online.resolve(["Sol Ring", "Sol Rnig", "Nonesuch"], lookup=Deadline(1.0)))
    assert not isinstance(resolution, Exception), resolution
    assert set(resolution.cards) == {"Sol Ring"}
    assert set(resolution.unavailable) == {"Sol Rnig", "Nonesuch"}
    assert resolution.suggestions["Sol Rnig"] == ("Sol Ring",)  # suggestions come from the store all the same
    assert took < 1.0 + SLACK
    # For a while after the outage, misses are answered at once without asking.
    asked = len(scryfall_server.paths("POST"))
    paused, took = timed(lambda: online.resolve(["Nonesuch 2"], lookup=Deadline(1.0)))
    assert paused.unavailable == ("Nonesuch 2",) and took < 0.5
    assert len(scryfall_server.paths("POST")) == asked
    # Nothing was remembered as a miss: once Scryfall answers, the names are asked again.
    scryfall_server.delay, scryfall_server.drip, scryfall_server.fail_next = 0.0, 0.0, []
    if fault == "429":  # the 30 s lockout over
        monkeypatch.setattr(online.client.limits, "lockout_remaining", lambda: 0.0)
    monkeypatch.setattr(online, "_ask_after", 0.0)  # the pause over
    again = online.resolve(["Sol Rnig"], lookup=Deadline(10.0))
    assert again.unavailable == () and "Sol Rnig" in again.suggestions
    assert scryfall_server.requests[-1].body == {"identifiers": [{"name": "Sol Rnig"}]}


@pytest.mark.timeout(30)
def test_during_a_429_lockout_misses_are_answered_at_once_without_a_request(online, scryfall_server):
    scryfall_server.fail_next = [429]
    first = online.resolve(["Sol Rnig"])
    assert first.unavailable == ("Sol Rnig",)
    for attempt in range(3):
        resolution, took = timed(lambda: online.resolve([f"Nonesuch {attempt}"], lookup=Deadline(2.0)))
        assert resolution.unavailable == (f"Nonesuch {attempt}",)
        assert took < 0.5
    assert len(scryfall_server.paths("POST")) == 1


@pytest.mark.timeout(30)
def test_a_closed_scryfall_fails_fast_then_pauses_the_questions(fixture_db):
    """Connection refused is known at once (one immediate retry, no backoff): not the whole
    budget; then the questions pause for OUTAGE_PAUSE_SECONDS."""
    online = open_repository(StoreSettings(fixture_db, api_url="http://127.0.0.1:9"))
    resolution, took = timed(lambda: online.resolve(["Sol Rnig"], lookup=Deadline(2.0)))
    assert resolution.unavailable == ("Sol Rnig",) and took < 1.0
    assert online._ask_after - time.monotonic() > repository_module.OUTAGE_PAUSE_SECONDS - 5


@pytest.mark.timeout(30)
def test_a_busy_budget_is_no_outage(online, scryfall_server):
    """No slot within the budget (many misses at once) leaves the names unknown this time, but
    the next request asks again: only a failure of Scryfall pauses the questions."""
    online.client.fetch_collection(["Sol Ring"])  # this second's slot taken
    assert online.resolve(["Sol Rnig"], lookup=Deadline(0.2)).unavailable == ("Sol Rnig",)
    time.sleep(0.6)
    assert online.resolve(["Sol Rnig"], lookup=Deadline(5.0)).unavailable == ()
    assert [r.body for r in scryfall_server.requests][-1] == {"identifiers": [{"name": "Sol Rnig"}]}


@pytest.mark.timeout(30)
def test_a_spent_budget_asks_nothing(online, scryfall_server):
    budget = Deadline(0.0)
    resolution = online.resolve(["Sol Rnig"], lookup=budget)
    assert resolution.unavailable == ("Sol Rnig",)
    assert scryfall_server.requests == []


@pytest.mark.timeout(30)
def test_what_the_first_batch_found_is_kept_when_a_later_one_is_not_answered(online, scryfall_server):
    names = ["Cyclonic Rift"] + [f"Nonesuch {index}" for index in range(80)]  # two requests: 75 + 6
    original = scryfall_server.next_fault
    calls = []

    def second_fails():
        calls.append(1)
        return 429 if len(calls) == 2 else original()

    scryfall_server.next_fault = second_fails
    resolution = online.resolve(names, lookup=Deadline(5.0))
    assert resolution.cards["Cyclonic Rift"].name == "Cyclonic Rift"
    assert set(resolution.unavailable) == {f"Nonesuch {index}" for index in range(74, 80)}


def test_a_missing_store_is_still_unavailable(tmp_path, scryfall_server):
    """No card data at all stays a CardDataUnavailable (the API's 503), look-up budget or not."""
    repository = open_repository(StoreSettings(tmp_path / "absent.sqlite3", api_url=scryfall_server.base_url))
    with pytest.raises(CardDataUnavailable):
        repository.resolve(["Sol Ring"], lookup=Deadline(1.0))


def test_an_error_raised_past_the_deadline_before_the_cut_is_the_deadline():
    """A socket's timeout, set to the time left, can end a read a hair before the Cutoff's
    timer has run: the error it raises past the deadline is still the deadline's."""
    from card_data.http import Cutoff

    cutoff = Cutoff(Deadline(0.05), "Upstream")
    with pytest.raises(DeadlinePassed, match="Upstream did not answer within 0.05 s") as raised:
        with cutoff:
            cutoff.stop()  # the timer has not fired (and now will not)
            time.sleep(0.1)
            raise ConnectionError("read timed out, wrapped by a retry")
    assert not cutoff.fired and isinstance(raised.value.__cause__, ConnectionError)


def test_an_error_within_the_deadline_is_left_as_it_is():
    from card_data.http import Cutoff

    with pytest.raises(ConnectionError):
        with Cutoff(Deadline(30), "Upstream"):
            raise ConnectionError("refused")
