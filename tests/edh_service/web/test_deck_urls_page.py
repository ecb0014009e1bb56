"""The page with a deck link alone in its decklist box: the deck read from a local
Archidekt/Moxfield-shaped server, "Your list" showing the text judged with a link back to
the deck on the site, the site's declared bracket said to be the site's; a link that gives
no deck is the page's error with the API's status. Through the form post (no JavaScript,
and Flask's test client) and in real headless Chromium with JavaScript (app.js sends `url`
and renders `source` and `decklist`) and without: both ways show the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_data.sync import import_file
from tests.support.apps import offline_app
from tests.support.browser import requires_chromium, submit
from tests.support.site_server import SiteServer

from tests.edh_service.conftest import FIXTURE_CARDS, serving

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"
ARCHIDEKT = json.loads((SITES / "archidekt-4242.json").read_text(encoding="utf-8"))
LINK = "https://archidekt.com/decks/4242/atraxa"


@pytest.fixture(scope="module")
def site():
    with SiteServer(archidekt={"4242": ARCHIDEKT}) as server:
        yield server


@pytest.fixture
def client(fixture_db, site):
    return offline_app(fixture_db, **site.config()).test_client()


def test_a_link_alone_is_read_as_the_deck_it_names(client):
    response = client.post("/", data={"decklist": f"  {LINK}\n"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'href="https://archidekt.com/decks/4242"' in page and "Atraxa Superfriends (hand-made)" in page
    assert "declared for the deck on Archidekt" in page
    assert 'data-code="bracket_game_changers"' in page and "The deck declares bracket 2 on Archidekt." in page
    assert '<span class="text">Sideboard</span>' in page  # "Your list" is the text judged
    assert f"  {LINK}\n</textarea>" in page  # the box keeps what was pasted


@pytest.mark.parametrize(("link", "status", "said"), [
    ("https://tappedout.net/mtg-decks/atraxa/", 422, "paste its text export"),
    ("archidekt.com/decks/999", 422, "private, deleted or was never made"),
])
def test_a_link_that_gives_no_deck_is_the_pages_error(client, link, status, said):
    response = client.post("/", data={"decklist": link})
    assert response.status_code == status and said in response.get_data(as_text=True)


def test_a_failing_site_is_a_502_page(fixture_db, site):
    site.faults["5"] = 500
    response = offline_app(fixture_db, **site.config()).test_client().post("/", data={"decklist": "archidekt.com/decks/5"})
    assert response.status_code == 502 and "answered 500" in response.get_data(as_text=True)


@pytest.fixture(scope="module")
def site_url(tmp_path_factory, site):
    db = tmp_path_factory.mktemp("deck-url-store") / "cards.sqlite3"
    import_file(db, FIXTURE_CARDS, updated_at="2026-11-01T00:00:00+00:00")
    with serving(db, **site.config()) as url:
        yield url


@requires_chromium
def test_the_page_shows_the_deck_as_judged_with_and_without_javascript(page, site_url):
    page.goto(site_url)
    page.fill("#decklist", LINK)
    submit(page)
    source = page.locator("#deck-source a")
    assert source.get_attribute("href") == "https://archidekt.com/decks/4242"
    assert "Atraxa Superfriends (hand-made)" in source.inner_text()
    lines = page.locator("ol.listing li.line .text").all_inner_texts()
    assert lines[:4] == ["Format: Commander", "", "Commander", "1 Atraxa, Praetors' Voice"]
    flagged = {int(item.get_attribute("data-line")) for item in page.locator("ol.listing li.flagged").all()}
    assert {lines.index("1 Rhystic Study") + 1, lines.index("1 Lightning Bolt") + 1} <= flagged
    assert page.console_errors == []


def test_the_bracket_none_checks_not_even_the_sites(client):
    page = client.post("/", data={"decklist": LINK, "bracket": "none"}).get_data(as_text=True)
    assert 'data-code="bracket_game_changers"' not in page and "Atraxa Superfriends (hand-made)" in page
    assert '<option value="none" selected>' in page
