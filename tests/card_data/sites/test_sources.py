"""card_data.sites against a local Archidekt/Moxfield-shaped server: which links are read,
what each misbehaving upstream becomes (and how long it takes), the request budget, the
cache, and what is sent (the User-Agents). Never the real sites."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from card_data.coordination.files import RateLimits
from card_data.errors import DeckLinkRefused, DeckNotFound, DeckSiteBusy, DeckSiteFailed, DeckSiteTimeout
from card_data.http import Deadline
from card_data.settings import DeckSiteSettings, default_user_agent
from card_data.sites import DeckSites, locate
from card_data.sites.fetch import MAX_BODY_BYTES
from tests.support.waiting import run_in_threads, timed
from tests.support.site_server import SiteServer, entries_deck

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"
ARCHIDEKT = json.loads((SITES / "archidekt-4242.json").read_text(encoding="utf-8"))
MOXFIELD = json.loads((SITES / "moxfield-Hand-Made_1.json").read_text(encoding="utf-8"))
GRANTED = "edh-deck-validator-tests/1.0 (granted)"
SLACK = 1.5  # a loaded machine's lateness on top of a deadline


@pytest.fixture
def server():
    with SiteServer(archidekt={"4242": ARCHIDEKT}, moxfield={"Hand-Made_1": MOXFIELD}) as started:
        yield started


def sites_for(server: SiteServer, seconds: float = 2.0, **settings) -> DeckSites:
    """DeckSites asking the local server, each site with a budget of its own in this process."""
    limits = {}
    chosen = {"archidekt_api_url": server.archidekt_url, "moxfield_api_url": server.moxfield_url,
              "moxfield_user_agent": GRANTED, **settings}
    return DeckSites(DeckSiteSettings(**chosen), lambda site: limits.setdefault(site, RateLimits()), seconds=seconds)


@pytest.mark.parametrize(("link", "site", "deck"), [
    ("https://archidekt.com/decks/4242/atraxa_superfriends", "archidekt", "4242"),
    ("https://www.archidekt.com/decks/4242", "archidekt", "4242"),
    ("archidekt.com/decks/4242/", "archidekt", "4242"),
    ("https://archidekt.com/api/decks/4242/", "archidekt", "4242"),
    ("http://ARCHIDEKT.com/decks/04242?tab=stats#x", "archidekt", "4242"),
    ("  https://moxfield.com/decks/V06ztO0Imk-p5I8N81Ue8g  ", "moxfield", "V06ztO0Imk-p5I8N81Ue8g"),
    ("https://www.moxfield.com/decks/Hand-Made_1/primer", "moxfield", "Hand-Made_1"),
])
def test_links_read(link, site, deck):
    found = locate(link)
    assert (found.site.NAME, found.id) == (site, deck)


@pytest.mark.parametrize("link", [
    "https://tappedout.net/mtg-decks/atraxa/", "https://archidekt.com/folders/12", "https://archidekt.com/decks/x",
    "https://archidekt.com.evil.example/decks/1", "https://user@archidekt.com/decks/1",
    "https://archidekt.com:8443/decks/1", "ftp://archidekt.com/decks/1", "https://moxfield.com/users/me",
    "https://archidekt.com/decks/1 https://archidekt.com/decks/2", "https://[::1/decks/1", "",
    "https://moxfield.com/decks/../../v3/decks/all/x",
])
def test_other_links_are_refused_saying_what_is_read(link):
    with pytest.raises(DeckLinkRefused) as refused:
        locate(link)
    assert "Archidekt" in str(refused.value) and "Moxfield" in str(refused.value)


def test_a_deck_is_read_with_an_honest_user_agent(server):
    deck = sites_for(server).deck("https://archidekt.com/decks/4242/whatever")
    assert (deck.site, deck.id, deck.url, deck.name) == ("archidekt", "4242", "https://archidekt.com/decks/4242",
                                                         "Atraxa Superfriends (hand-made)")
    assert (deck.format, deck.declared_bracket) == ("Commander", 2)
    assert deck.decklist.splitlines()[:5] == ["Format: Commander", "", "Commander", "1 Atraxa, Praetors' Voice", ""]
    (request,) = server.requests
    assert request.path == "/api/decks/4242/"  # built from the id, never from the link's text
    assert request.headers["User-Agent"] == default_user_agent()


def test_moxfield_is_asked_with_the_granted_user_agent_only(server):
    deck = sites_for(server).deck("https://moxfield.com/decks/Hand-Made_1")
    assert (deck.declared_bracket, deck.format) == (3, "commander")  # no userBracket: `bracket`
    assert server.requests[0].path == "/v3/decks/all/Hand-Made_1"
    assert server.requests[0].headers["User-Agent"] == GRANTED
    with pytest.raises(DeckLinkRefused, match="Export, then Copy for MTGO"):
        sites_for(server, moxfield_user_agent=None).deck("https://moxfield.com/decks/Hand-Made_1")
    assert len(server.requests) == 1  # nothing was asked without the grant


@pytest.mark.parametrize(("fields", "declared"), [
    ({"userBracket": 4, "bracket": 2}, 4), ({"userBracket": None, "bracket": 2}, 2),
    ({"userBracket": 4, "ignoreBrackets": True}, None), ({"bracket": 9}, None), ({"bracket": True}, None),
])
def test_moxfield_declared_bracket(server, fields, declared):
    server.moxfield["b"] = {**MOXFIELD, "userBracket": None, "bracket": None, **fields}
    assert sites_for(server).deck("moxfield.com/decks/b").declared_bracket == declared


def test_links_off(server):
    with pytest.raises(DeckLinkRefused, match="does not read decks from links"):
        sites_for(server, enabled=False).deck("https://archidekt.com/decks/4242")
    assert server.requests == []


@pytest.mark.parametrize(("fault", "kind", "said"), [
    (404, DeckNotFound, "private, deleted or was never made"),
    (403, DeckNotFound, "answered 403"),
    (500, DeckSiteFailed, "answered 500"),
    (503, DeckSiteFailed, "answered 503"),
    ("redirect", DeckSiteFailed, "redirect to another site"),
    ("not_json", DeckSiteFailed, "not its deck JSON"),
    ("other_json", DeckSiteFailed, "not one of its decks"),
    ("huge", DeckSiteFailed, "over 8 MiB"),
    ("endless", DeckSiteFailed, "over 8 MiB"),
    ("drip", DeckSiteTimeout, "did not answer within 2 s"),
    ("silent", DeckSiteTimeout, "did not answer within 2 s"),
    ("retry_after", DeckSiteBusy, "try again in 7 s"),
])
@pytest.mark.timeout(30)
def test_each_misbehaving_upstream_within_the_deadline(server, fault, kind, said):
    server.fault = fault
    raised, took = timed(lambda: sites_for(server, seconds=2.0).deck("https://archidekt.com/decks/4242"))
    assert isinstance(raised, kind), raised
    assert said in str(raised)
    assert took < 2.0 + SLACK
    assert len(server.requests) == 1  # no retry behind the user's back


def test_a_redirect_on_the_same_host_is_followed(server):
    server.fault = "same_host_redirect"
    assert sites_for(server).deck("https://archidekt.com/decks/4242").id == "4242"
    assert [r.path for r in server.requests] == ["/api/decks/4242/", "/api/decks/4242/?moved=1"]


def test_a_429_stops_every_client_of_the_budget(server):
    server.fault = "retry_after"
    sites = sites_for(server)
    with pytest.raises(DeckSiteBusy) as first:
        sites.deck("https://archidekt.com/decks/4242")
    assert first.value.retry_after == 7
    server.fault = None
    with pytest.raises(DeckSiteBusy):
        sites.deck("https://archidekt.com/decks/1")  # another deck, the same site: not asked
    assert len(server.requests) == 1
    assert sites.deck("https://moxfield.com/decks/Hand-Made_1").site == "moxfield"  # another site is


def test_an_http_api_off_the_loopback_is_never_asked(server):
    sites = sites_for(server, archidekt_api_url="http://archidekt.example/api")
    with pytest.raises(DeckSiteFailed, match="not https"):
        sites.deck("https://archidekt.com/decks/4242")


def test_a_deck_of_too_many_entries_is_read_then_refused_by_the_parser(server):
    """10,000 entries make a text of more than 10,000 lines: the parser's bound (a 422 in the
    service), reached in well under the deadline."""
    server.archidekt["77"] = entries_deck(10_000)
    deck, took = timed(lambda: sites_for(server).deck("https://archidekt.com/decks/77"))
    assert len(deck.decklist.splitlines()) > 10_000 and took < 2.0


def test_the_body_cap_is_8_mib():
    assert MAX_BODY_BYTES == 8 * 1024 * 1024


def test_requests_to_one_site_are_spaced(server):
    sites = sites_for(server, seconds=5.0, cache_seconds=0)
    for _ in range(4):
        sites.deck("https://archidekt.com/decks/4242")
    gaps = [b - a for a, b in zip(server.times(), server.times()[1:])]
    assert min(gaps) >= RateLimits().interval - 0.05  # at most 2 a second


def test_a_popular_link_costs_the_site_one_request(server):
    server.delay = 0.3  # the first fetch is slow: the others wait for it, not fetch too
    sites = sites_for(server, seconds=5.0)
    decks = []
    run_in_threads([lambda: decks.append(sites.deck("https://archidekt.com/decks/4242"))] * 20)
    assert len(decks) == 20
    assert len(server.requests) == 1
    assert len({deck.fetched_at for deck in decks}) == 1


def test_a_missing_deck_is_remembered_for_a_while_too(server):
    sites = sites_for(server)
    for _ in range(3):
        with pytest.raises(DeckNotFound):
            sites.deck("https://archidekt.com/decks/999")
    assert len(server.requests) == 1


def test_a_waiter_gives_up_at_its_own_deadline(server):
    server.fault = "silent"
    sites = sites_for(server, seconds=3.0)
    first = threading.Thread(target=lambda: pytest.raises(DeckSiteTimeout, sites.deck, "archidekt.com/decks/4242"))
    first.start()
    time.sleep(0.2)
    raised, took = timed(lambda: sites.deck("archidekt.com/decks/4242", Deadline(1.0)))
    first.join()
    assert isinstance(raised, DeckSiteTimeout) and took < 1.0 + SLACK
    assert len(server.requests) == 1


def test_a_remembered_failure_keeps_its_message_as_data(server):
    """The cache keeps "no such deck" a while; a second asker (another language, another
    instance through Redis) gets the same message, still translatable."""
    server.fault = 404
    sites = sites_for(server)
    first, _ = timed(lambda: sites.deck("https://archidekt.com/decks/4242"))
    again, _ = timed(lambda: sites.deck("https://archidekt.com/decks/4242"))
    assert len(server.requests) == 1 and isinstance(again, DeckNotFound)
    assert str(again) == str(first) and again.text == first.text and first.text is not None
