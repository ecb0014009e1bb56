"""The page in real headless Chromium (Debian's `chromium`, driven by Playwright).

The app runs on werkzeug's server in a thread on 127.0.0.1 over the fixture card store.
With JavaScript the page posts to /api/v1/validate and renders without a reload; without
it the plain form POST renders the same verdict server-side. Both must show the
violation codes and mark the offending lines.
"""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from tests.support.browser import TEXT_COLORS_JS, low_contrast, requires_chromium, submit
from tests.support.factories import ILLEGAL_DECK, ILLEGAL_EXPECTED, deck_text
from validator.parse import FORMATS

OFFENDING_LINES = sorted({n for _, lines in ILLEGAL_EXPECTED.values() for n in lines})

pytestmark = requires_chromium


def shown_violations(page) -> dict[str, list[int]]:
    """code -> line numbers of every violation the page shows."""
    return {
        item.get_attribute("data-code"): [int(a.inner_text()) for a in item.locator("a.line-link").all()]
        for item in page.locator("#result li.violation").all()
    }


def flagged(page) -> list[int]:
    """Line numbers marked as errors in the listing."""
    return sorted(int(li.get_attribute("data-line")) for li in page.locator("ol.listing li.flagged-error").all())


def test_illegal_deck_shows_violations_and_marks_lines(page, live_url):
    """Paste an illegal deck, submit: every code is listed with its lines, the lines are marked."""
    page.goto(live_url)
    page.evaluate("window.notReloaded = true") if page.js else None
    page.fill("#decklist", ILLEGAL_DECK)
    submit(page)
    assert page.inner_text("#result-heading") == "Not legal"
    shown = shown_violations(page)
    for code, (_cards, lines) in ILLEGAL_EXPECTED.items():
        assert shown[code] == lines, code
    assert "deck_size" in shown
    assert flagged(page) == OFFENDING_LINES
    assert "Mana Crypt is banned" in page.inner_text('li.violation[data-code="banned"] .message')
    assert "Sol Ring" in page.inner_text('li.violation[data-code="unknown_card"] .suggestions')
    assert page.inner_text("#status").startswith("Not legal:")
    # "Read as" is the decklist syntax (never the game format), the same with or without JS.
    assert page.inner_text("#result .facts > div:last-child dd") in FORMATS
    if page.js:  # rendered in place from the JSON API: the page never reloaded
        assert page.evaluate("window.notReloaded") is True
    assert page.console_errors == []


BRACKET_DECK = """\
Commander
1 Atraxa, Praetors' Voice
Deck
1 Counterspell
1 Fire // Ice
1 Demonic Tutor
1 Rhystic Study
1 All in Good Time
"""


def test_bracket_is_shown_with_its_cards_and_the_selector_declares_one(page, live_url):
    """The minimum bracket next to the verdict, the cards behind it linked to Scryfall, the
    list without data said plainly, and the selector's bracket checked: with and without JS."""
    from playwright.sync_api import expect

    page.goto(live_url)
    page.fill("#decklist", BRACKET_DECK)
    page.select_option("#bracket", "2")
    submit(page)
    minimum = page.locator("#bracket-minimum")
    assert minimum.get_attribute("data-minimum") == "3"
    assert minimum.inner_text() == "Minimum Commander Bracket: 3 (Upgraded); checked against bracket 2 (Core)"
    linked = {kind: page.eval_on_selector_all(f'.bracket-list[data-list="{kind}"] a.card',
                                              "links => links.map((a) => a.firstChild.textContent)")
              for kind in ("game_changers", "mass_land_denial", "extra_turns", "two_card_combos")}
    assert linked == {"game_changers": ["Demonic Tutor", "Rhystic Study"], "extra_turns": ["All in Good Time"],
                      "mass_land_denial": [], "two_card_combos": ["Counterspell", "Fire // Ice"]}
    assert page.inner_text('.bracket-list[data-list="mass_land_denial"] dd') == (
        "Not checked: no data (the list is not loaded).")
    links = page.locator('.bracket-list[data-list="two_card_combos"] a.card')
    assert [unquote(link.get_attribute("href")) for link in links.all()] == [
        'https://scryfall.com/search?q=!"Counterspell"', 'https://scryfall.com/search?q=!"Fire // Ice"']
    assert [r.get_attribute("data-bracket") for r in page.locator(".bracket-reasons li").all()] == ["2", "3", "3", ""]
    assert "Not checked: no data." in page.inner_text(".bracket-reasons li.not-checked")
    shown = shown_violations(page)
    assert {"bracket_game_changers", "bracket_two_card_combo"} <= set(shown)
    assert "bracket_extra_turns" not in shown  # bracket 2 allows extra turns
    assert page.input_value("#bracket") == "2"  # the choice is kept (the no-JS page is re-rendered)
    assert page.console_errors == []
    # no bracket chosen: the block alone, no bracket_* error
    page.select_option("#bracket", "")
    page.click("#submit")
    # (expect polls without eval: the page's CSP forbids wait_for_function's string eval)
    expect(page.locator("#bracket-minimum")).to_have_text("Minimum Commander Bracket: 3 (Upgraded)")
    assert not any(code.startswith("bracket_") for code in shown_violations(page))


def test_a_legal_deck_renders_without_stray_text(page, live_url):
    """No violations: the verdict, the bracket and "No problems found", and no stray "null"
    (replaceChildren writes a null argument as that text)."""
    page.goto(live_url)
    page.fill("#decklist", deck_text())
    submit(page)
    assert page.inner_text("#result-heading") == "Legal"
    assert page.inner_text("#problems-heading") == "No problems found"
    assert page.get_attribute("#bracket-minimum", "data-minimum") == "3"
    assert "null" not in page.inner_text("#result")


def test_clicking_a_violation_line_highlights_it(page, live_url):
    """A violation's line link takes the reader to that line (JS: highlighted and focused)."""
    page.goto(live_url)
    page.fill("#decklist", ILLEGAL_DECK)
    submit(page)
    page.click('li.violation[data-code="singleton"] a.line-link >> nth=1')
    if page.js:
        assert page.eval_on_selector_all("ol.listing li.highlight", "els => els.map(e => e.id)") == ["L8", "L9"]
        assert page.evaluate("document.activeElement.id") == "L9"
    else:
        assert page.url.endswith("#L9")
        assert page.evaluate("document.querySelector(':target').id") == "L9"
    assert page.locator("#L9").is_visible()


def test_keyboard_only_submission(page, live_url):
    """Tab reaches the controls and Enter on the button validates the deck."""
    page.goto(live_url)
    page.keyboard.press("Tab")  # the skip link comes first
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.fill("#decklist", ILLEGAL_DECK)
    submit(page, via_keyboard=True)
    assert "banned" in shown_violations(page)


def test_chosen_file_is_validated(page, live_url):
    """A chosen file is read into the textarea (JS) or posted as multipart (no JS)."""
    page.goto(live_url)
    page.set_input_files("#deckfile", files=[{"name": "deck.txt", "mimeType": "text/plain",
                                              "buffer": ILLEGAL_DECK.encode()}])
    if page.js:
        page.wait_for_function("document.querySelector('#decklist').value.startsWith('Commander')")
        assert page.input_value("#decklist") == ILLEGAL_DECK
    submit(page)
    assert set(ILLEGAL_EXPECTED) <= set(shown_violations(page))
    assert flagged(page) == OFFENDING_LINES


@pytest.mark.parametrize("codec", ("cp1252", "utf-16"))
def test_chosen_windows_1252_file_is_read_as_the_cli_reads_it(page, live_url, codec):
    """An ANSI (Windows-1252) file: FileReader's UTF-8 turned û into U+FFFD, an unknown card;
    a UTF-16 file (Notepad's "Unicode", with a BOM) is read by its byte-order mark."""
    page.goto(live_url)
    page.set_input_files("#deckfile", files=[{"name": "deck.txt", "mimeType": "text/plain",
                                              "buffer": "1 Lim-Dûl's Vault\r\n1 Sol Ring\r\n".encode(codec)}])
    if page.js:
        page.wait_for_function("document.querySelector('#decklist').value.length > 0")
        assert page.input_value("#decklist").startswith("1 Lim-Dûl's Vault")
    submit(page)
    assert "unknown_card" not in shown_violations(page)
    assert page.locator("#L1 .text").inner_text() == "1 Lim-Dûl's Vault"


def test_dropped_file_is_read_into_the_textarea(browser, live_url):
    """Dropping a file on the decklist box reads it client-side (FileReader), then validates."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(live_url)
    page.evaluate("""(text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'deck.txt', {type: 'text/plain'}));
        document.querySelector('#drop-zone').dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true}));
    }""", ILLEGAL_DECK)
    page.wait_for_function("document.querySelector('#decklist').value.length > 0")
    assert page.input_value("#decklist") == ILLEGAL_DECK
    assert "Loaded deck.txt" in page.inner_text("#status")
    submit(page)
    assert flagged(page) == OFFENDING_LINES
    context.close()


@pytest.mark.parametrize(("retry_after", "said"), (("42", "Try again in 42 seconds."), ("1", "Try again in 1 second.")))
def test_rate_limited_validation_says_when_to_come_back(browser, live_url, retry_after, said):
    """A 429 from the API (RATELIMIT) says when to retry, as a 503 does (a per-second
    budget's Retry-After is 1: "1 second", not "1 seconds")."""
    context = browser.new_context()
    page = context.new_page()
    page.route("**/api/v1/validate", lambda route: route.fulfill(
        status=429, headers={"Retry-After": retry_after, "Content-Type": "application/json"},
        body='{"code": 429, "status": "Too Many Requests", "message": "Too many requests."}'))
    page.goto(live_url)
    page.fill("#decklist", "1 Sol Ring")
    submit(page)
    assert page.inner_text("#result .alert").strip().endswith(said)
    context.close()


def test_refused_list_shows_the_reason(page, live_url):
    """A list the parser refuses (too many lines) is explained, by the API (JS) or the form."""
    page.goto(live_url)
    # Set like a paste would: typing 110 kB through fill() takes Chromium minutes.
    page.eval_on_selector("#decklist", "(el, text) => { el.value = text; }", "1 Sol Ring\n" * 10_001)
    submit(page)
    assert page.inner_text("#result-heading") == "Could not validate"
    assert "at most 10,000" in page.inner_text("#result .alert")
    assert page.input_value("#decklist").count("\n") == 10_001  # the list is kept


def test_options_designate_partner_commanders(page, live_url):
    """The commander fields override the list, with and without JS (identity WUBG, Bolt off)."""
    page.goto(live_url)
    page.fill("#decklist", "1 Thrasios, Triton Hero\n1 Tymna the Weaver\n1 Lightning Bolt\n")
    page.click("details.options summary")
    page.fill("#commander-1", "Thrasios, Triton Hero")
    page.fill("#commander-2", "Tymna the Weaver")
    submit(page)
    pips = page.locator(".pips .pip .visually-hidden").all_inner_texts()
    assert pips == ["White", "Blue", "Black", "Green"]
    assert shown_violations(page)["color_identity"] == [3]
    assert "partner_pairing" not in shown_violations(page)


def test_field_errors_read_the_same_with_and_without_js(page, live_url):
    """A name over the API's bound (maxlength bypassed) gets the same message on both paths."""
    page.goto(live_url)
    page.fill("#decklist", ILLEGAL_DECK)
    page.eval_on_selector("#commander-1", "(el) => { el.removeAttribute('maxlength'); el.value = 'x'.repeat(201); }")
    submit(page)
    assert page.inner_text("#result-heading") == "Could not validate"
    assert "Commander: Length must be between 1 and 200." in page.inner_text("#result .alert")


def test_hostile_names_render_as_text(page, live_url):
    """Markup in a pasted line is shown as text and never runs (textContent / autoescape)."""
    page.goto(live_url)
    page.evaluate("window.pwned = false") if page.js else None
    hostile = "1 <img src=x onerror=\"window.pwned=true\">"
    page.fill("#decklist", f"Commander\n1 Atraxa, Praetors' Voice\n{hostile}\n1 Sol Rnig<b>bold</b>\n")
    submit(page)
    assert page.inner_text("#L3 .text") == hostile
    assert page.locator("#result img, #result b").count() == 0
    if page.js:
        assert page.evaluate("window.pwned") is False


def test_phone_width_has_no_horizontal_scroll(browser, live_url):
    """On a 360 px wide phone the page fits its width, results included."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto(live_url)
    page.fill("#decklist", ILLEGAL_DECK)
    submit(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_text_contrast_meets_wcag_aa(browser, live_url):
    """Every visible piece of text on the verdict page has AA contrast (4.5:1, large 3:1)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(live_url)
    page.fill("#decklist", ILLEGAL_DECK + "Sideboard\n1 Counterspell\n")
    submit(page)
    samples = page.evaluate(TEXT_COLORS_JS)
    context.close()
    assert len(samples) > 50  # the verdict, violations and listing were measured
    assert low_contrast(samples) == []
