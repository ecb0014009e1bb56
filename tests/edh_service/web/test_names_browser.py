"""The page with a decklist in other languages, in real headless Chromium (Debian's
`chromium`, Playwright), with JavaScript (app.js renders the API's `translated`) and without
(the server-rendered listing): each translated line shows the English card and the
language beside it, an ambiguous name is shown as written with its candidates, and both
ways render the same."""

from __future__ import annotations

import json

import pytest

from card_data.names import sync as names_sync
from card_data.sync import import_file
from tests.support.browser import requires_chromium, submit
from tests.support.factories import FOREIGN_BASICS, FOREIGN_SPELLS, PRINTED_NAMES, deck_text
from tests.support.scryfall_server import FIXTURES

from tests.edh_service.conftest import FIXTURE_CARDS, serving

pytestmark = requires_chromium
# Spanish, French and German lines, one name for two cards (hand-made: "Negare"), and a
# card written twice in two languages.
DECK = deck_text(commander="Atraxa, voz de los pretores", spells=FOREIGN_SPELLS,
                 basics=FOREIGN_BASICS).replace("1 Brainstorm\n", "1 Negare\n").replace("1 Cultivate\n", "1 Counterspell\n")


@pytest.fixture(scope="module")
def names_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("names-store")
    db = folder / "cards.sqlite3"
    import_file(db, FIXTURE_CARDS, updated_at="2026-11-01T00:00:00+00:00")
    extra = folder / "ambiguous.jsonl"
    extra.write_text("".join(json.dumps(o) + "\n" for o in (
        {"object": "card", "name": "Negate", "lang": "it", "printed_name": "Negare"},
        {"object": "card", "name": "Brainstorm", "lang": "it", "printed_name": "Negare"},
    )), encoding="utf-8")
    names_sync.import_names(db, FIXTURES / PRINTED_NAMES, extra, updated_at="2026-11-29T00:00:00+00:00")
    with serving(db) as url:
        yield url


def translated_lines(page) -> dict[int, list[str]]:
    """line number -> the "English card / language" pairs shown beside it."""
    found = {}
    for line in page.locator("ol.listing li.line:has(.translated)").all():
        found[int(line.get_attribute("data-line"))] = [
            f"{item.locator('.english').inner_text()} / {item.locator('.lang').inner_text()}"
            for item in line.locator(".translated").all()]
    return found


def test_each_translated_line_shows_its_english_card_and_language(page, names_url):
    page.goto(names_url)
    page.fill("#decklist", DECK)
    submit(page)
    assert translated_lines(page) == {
        2: ["Atraxa, Praetors' Voice / Spanish"], 8: ["Counterspell / Spanish"],
        10: ["Swords to Plowshares / Spanish"], 26: ["Island / Spanish"], 27: ["Island / French"],
    }
    line = page.locator('li.line[data-line="8"]')
    assert line.locator(".text").inner_text() == "1 Contrahechizo"
    assert line.locator(".english").get_attribute("lang") == "en"
    # Read aloud: "read in Spanish as Counterspell"; the visible language is not read twice.
    assert line.locator(".visually-hidden", has_text="read in").text_content() == "read in Spanish as "
    assert line.locator(".lang").get_attribute("aria-hidden") == "true"
    # Counterspell twice (Contrahechizo line 8, Counterspell line 13) is one card, two copies.
    singleton = page.locator('li.violation[data-code="singleton"]')
    assert singleton.locator("a.line-link").all_inner_texts() == ["8", "13"]
    assert "Counterspell" in singleton.locator(".message").inner_text()
    # The ambiguous name: as written, with its candidates, never a guess.
    ambiguous = page.locator('li.violation[data-code="ambiguous_card"]')
    assert ambiguous.locator(".cards q.typed").inner_text() == "Negare"
    candidates = [text.split("\n")[0] for text in ambiguous.locator(".suggestions a.card").all_inner_texts()]
    assert candidates == ["Brainstorm", "Negate"]
    assert ambiguous.locator("a.line-link").all_inner_texts() == ["9"]
    assert page.console_errors == []


def test_the_listing_reads_the_same_with_and_without_javascript(browser, names_url):
    listings = []
    for enabled in (True, False):
        context = browser.new_context(java_script_enabled=enabled)
        page = context.new_page()
        page.goto(names_url)
        page.fill("#decklist", DECK)
        submit(page)
        listings.append(page.locator("ol.listing").inner_text())
        context.close()
    assert listings[0] == listings[1]
    assert "\n1 Contrahechizo\nread in Spanish as\nCounterspell Spanish\n" in listings[0]
