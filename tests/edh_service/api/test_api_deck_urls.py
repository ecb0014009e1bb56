"""POST /api/v1/validate (and batch) with `url`: the deck read from a local
Archidekt/Moxfield-shaped server (ARCHIDEKT_API_URL, MOXFIELD_API_URL), its boards as the
site means them, its declared bracket and format, `source` and `decklist` in the answer,
and every failure of the link or the site as the one error envelope with its status."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.support.apps import offline_app
from tests.support.site_server import SiteServer, entries_deck

VALIDATE, BATCH = "/api/v1/validate", "/api/v1/validate/batch"
SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"
ARCHIDEKT = json.loads((SITES / "archidekt-4242.json").read_text(encoding="utf-8"))
MOXFIELD = json.loads((SITES / "moxfield-Hand-Made_1.json").read_text(encoding="utf-8"))
LINK = "https://archidekt.com/decks/4242/atraxa-superfriends"


@pytest.fixture
def site():
    with SiteServer(archidekt={"4242": ARCHIDEKT}, moxfield={"Hand-Made_1": MOXFIELD}) as server:
        yield server


@pytest.fixture
def client(fixture_db, site):
    return offline_app(fixture_db, **site.config()).test_client()


def by_code(body: dict) -> dict[str, dict]:
    return {v["code"]: v for v in body["violations"]}


def lines_naming(text: str, names) -> list[int]:
    """The lines of `text` that list one of the names."""
    return [number for number, line in enumerate(text.splitlines(), 1)
            if any(line.endswith(" " + name) for name in names)]


def test_an_archidekt_link_is_judged_as_the_site_means_its_boards(client, site):
    response = client.post(VALIDATE, json={"url": LINK})
    assert response.status_code == 200
    body = response.get_json()
    assert body["card_count"] == 100 and body["commanders"] == ["Atraxa, Praetors' Voice"]
    assert body["source"] == {"site": "archidekt", "id": "4242", "url": "https://archidekt.com/decks/4242",
                              "name": "Atraxa Superfriends (hand-made)", "fetched_at": body["source"]["fetched_at"],
                              "declared_bracket": 2}
    assert body["decklist_format"] == "text"
    codes = by_code(body)
    left_out = ["Counterspell", "Lightning Bolt", "Ponder"]  # Sideboard, Maybeboard, an excluded category
    assert codes["sideboard"]["cards"] == left_out
    assert codes["sideboard"]["lines"] == lines_naming(body["decklist"], left_out)
    assert "Mana Crypt" not in body["decklist"]  # removed on the site (deletedAt)
    # the bracket declared on the site is checked, and said to be the site's
    assert body["bracket"]["declared"] == 2
    changers = codes["bracket_game_changers"]
    assert changers["cards"] == ["Rhystic Study"] and changers["lines"] == lines_naming(body["decklist"], ["Rhystic Study"])
    assert changers["message"].endswith("The deck declares bracket 2 on Archidekt.")
    assert body["valid"] is False
    assert len(site.requests) == 1


def test_the_request_bracket_wins_and_null_switches_the_check_off(client):
    four = client.post(VALIDATE, json={"url": LINK, "bracket": 4}).get_json()
    assert four["bracket"]["declared"] == 4 and "bracket_game_changers" not in by_code(four)
    off = client.post(VALIDATE, json={"url": LINK, "bracket": None}).get_json()
    assert off["bracket"]["declared"] is None and off["valid"] is True
    assert off["source"]["declared_bracket"] == 2  # still said back


def test_a_moxfield_link_with_its_tokens_and_sideboard(client, site):
    body = client.post(VALIDATE, json={"url": "moxfield.com/decks/Hand-Made_1"}).get_json()
    codes = by_code(body)
    assert body["card_count"] == 100
    assert codes["sideboard"]["cards"] == ["Counterspell", "Lightning Bolt"]
    assert codes["not_in_deck"]["cards"] == ["Soldier"]
    assert body["bracket"]["declared"] == 3 and body["valid"] is True  # one Game Changer is fine in 3
    assert body["color_identity"] == ["W", "U", "B", "G"]  # colorIdentityOverride ignored
    assert site.requests[0].headers["User-Agent"] == "edh-deck-validator-tests/1.0 (granted)"


def test_the_sites_format_is_the_lists_own_and_its_bracket_then_does_not_apply(client, site):
    site.moxfield["duel"] = {**MOXFIELD, "format": "duelCommander", "userBracket": 2}
    body = client.post(VALIDATE, json={"url": "https://moxfield.com/decks/duel"}).get_json()
    assert body["format"] == "duel" and by_code(body)["format_inferred"]["lines"] == [1]
    assert body["decklist"].startswith("Format: duelCommander\n")
    assert body["bracket"] is None and body["source"]["declared_bracket"] == 2  # no 422: it just does not apply
    judged = client.post(VALIDATE, json={"url": "https://moxfield.com/decks/duel", "format": "commander"}).get_json()
    assert judged["format"] == "commander" and judged["bracket"]["declared"] == 2  # the request's format wins


@pytest.mark.parametrize("body", [{}, {"url": LINK, "decklist": "1 Sol Ring"}, {"commanders": ["Sol Ring"]}])
def test_exactly_one_of_decklist_and_url(client, body):
    response = client.post(VALIDATE, json=body)
    assert response.status_code == 422
    assert set(response.get_json()["errors"]) == {"decklist", "url"}


@pytest.mark.parametrize(("link", "said"), [
    ("https://tappedout.net/mtg-decks/atraxa/", "paste its text export"),
    ("https://archidekt.com/decks/999", "private, deleted or was never made"),
    ("https://archidekt.com/folders/3", "names no deck"),
])
def test_a_link_that_gives_no_deck_is_a_422_saying_why(client, link, said):
    response = client.post(VALIDATE, json={"url": link})
    assert response.status_code == 422
    body = response.get_json()
    assert said in body["message"] and body["errors"] == {"url": [body["message"]]}


def test_moxfield_without_a_granted_user_agent_says_what_to_paste(fixture_db, site):
    client = offline_app(fixture_db, **site.config(MOXFIELD_USER_AGENT=None)).test_client()
    response = client.post(VALIDATE, json={"url": "https://moxfield.com/decks/Hand-Made_1"})
    assert response.status_code == 422 and "Export, then Copy for MTGO" in response.get_json()["message"]
    assert site.requests == []


def test_deck_urls_off(fixture_db, site):
    client = offline_app(fixture_db, **site.config(DECK_URLS=False)).test_client()
    response = client.post(VALIDATE, json={"url": LINK})
    assert response.status_code == 422 and "does not read decks from links" in response.get_json()["message"]
    assert site.requests == []


@pytest.mark.parametrize(("fault", "status"), [(500, 502), ("redirect", 502), ("other_json", 502),
                                               ("huge", 502), ("retry_after", 503), (404, 422)])
def test_the_sites_failures_in_the_envelope(client, site, fault, status):
    site.fault = fault
    response = client.post(VALIDATE, json={"url": LINK})
    assert response.status_code == status
    body = response.get_json()
    assert body["code"] == status and body["errors"] == {"url": [body["message"]]}
    if status == 503:
        assert response.headers["Retry-After"] == "7"


@pytest.mark.timeout(40)
def test_no_answer_in_time_is_a_504_after_ten_seconds(client, site):
    site.fault = "drip"
    started = time.monotonic()
    response = client.post(VALIDATE, json={"url": LINK})
    took = time.monotonic() - started
    assert response.status_code == 504 and "within 10 s" in response.get_json()["message"]
    assert 9.5 <= took < 11.5


def test_a_deck_of_10000_entries_is_a_422_on_url(client, site):
    site.archidekt["77"] = entries_deck(10_000)
    started = time.monotonic()
    response = client.post(VALIDATE, json={"url": "https://archidekt.com/decks/77"})
    assert response.status_code == 422 and "at most 10,000 are accepted" in response.get_json()["message"]
    assert response.get_json()["errors"]["url"]
    assert time.monotonic() - started < 5


def test_a_batch_mixes_links_and_lists(client, site):
    decks = [{"url": LINK}, {"decklist": "Commander\n1 Atraxa, Praetors' Voice\n99 Forest\n"},
             {"url": "https://moxfield.com/decks/Hand-Made_1"}, {"url": LINK, "bracket": None}]
    response = client.post(BATCH, json={"decks": decks})
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert [r.get("source", {}).get("site") for r in results] == ["archidekt", None, "moxfield", "archidekt"]
    assert "decklist" not in results[1]
    assert [r["bracket"]["declared"] for r in results] == [2, None, 3, None]
    assert len(site.requests) == 2  # one per distinct deck


def test_a_batch_names_at_most_ten_distinct_links(client, site):
    decks = [{"url": f"https://archidekt.com/decks/{number}"} for number in range(1, 12)]
    response = client.post(BATCH, json={"decks": decks})
    assert response.status_code == 422 and "at most 10" in response.get_json()["message"]
    assert site.requests == []
    again = client.post(BATCH, json={"decks": [{"url": LINK}] * 12})  # one link twelve times is one
    assert again.status_code == 200 and len(site.requests) == 1


def test_a_batch_item_whose_link_fails_answers_for_the_batch(client, site):
    site.faults["13"] = 500
    decks = [{"url": LINK}, {"url": "https://archidekt.com/decks/999"}, {"url": "https://archidekt.com/decks/13"}]
    response = client.post(BATCH, json={"decks": decks})
    assert response.status_code == 422  # the first failing item's status
    errors = response.get_json()["errors"]["decks"]
    assert set(errors) == {"1", "2"} and "answered 500" in errors["2"]["url"][0]
    exactly_one = client.post(BATCH, json={"decks": [{"url": LINK}, {}]})
    assert exactly_one.status_code == 422 and set(exactly_one.get_json()["errors"]["decks"]["1"]) == {"decklist", "url"}


def test_the_openapi_document_says_url_source_decklist_and_the_sites_statuses(client):
    spec = client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    assert "url" in schemas["ValidateRequest"]["properties"]
    assert {"source", "decklist"} <= set(schemas["Report"]["properties"])
    assert set(schemas["DeckSource"]["required"]) == {"site", "id", "url", "name", "fetched_at", "declared_bracket"}
    for path in ("/api/v1/validate", "/api/v1/validate/batch"):
        responses = spec["paths"][path]["post"]["responses"]
        assert {"422", "502", "503", "504"} <= set(responses)
        assert "Retry-After" in responses["503"]["headers"]
