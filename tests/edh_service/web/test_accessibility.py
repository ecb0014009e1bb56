"""Accessibility of the page as tests: axe-core, the keyboard, and the dark color scheme.

axe-core comes from npm (package.json / package-lock.json, installed by `npm ci` in
`make test`) and is evaluated in the page by Playwright over Debian's Chromium, so the
page's strict CSP stays on. A page loaded with JavaScript disabled cannot run axe (its
timers never fire), so that page is rendered with javaScriptEnabled=False, its DOM taken
as it stands, and audited in a second context that serves exactly that document (app.js
answered empty, so nothing changes it).
"""

from __future__ import annotations

import pytest

from tests.support.browser import (AXE, TEXT_COLORS_JS, axe_findings, contrast, low_contrast, requires_chromium, severe,
                           submit)
from tests.support.factories import ILLEGAL_DECK

VIEWPORT = {"width": 1100, "height": 900}

pytestmark = [requires_chromium,
              pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: run `make test` (npm ci)")]


def fill_and_submit(page) -> None:
    """Paste an illegal deck (errors, a warning, an unknown card) and validate it."""
    page.fill("#decklist", ILLEGAL_DECK + "Sideboard\n1 Counterspell\n")
    submit(page)


def no_js_document(browser, url: str, scheme: str, with_result: bool) -> tuple[str, str]:
    """(URL, HTML) of the page as a browser without JavaScript shows it."""
    context = browser.new_context(java_script_enabled=False, color_scheme=scheme, viewport=VIEWPORT)
    page = context.new_page()
    page.goto(url)
    if with_result:
        fill_and_submit(page)
    document = (page.url, page.content())
    context.close()
    return document


@pytest.mark.parametrize("scheme", ("light", "dark"))
@pytest.mark.parametrize("with_result", (False, True), ids=("empty", "result"))
@pytest.mark.parametrize("js", (True, False), ids=("js", "no-js"))
def test_axe_finds_nothing_serious(browser, live_url, js, with_result, scheme):
    """No serious or critical axe finding: empty page and verdict, with and without JS, both schemes."""
    if js:
        context = browser.new_context(color_scheme=scheme, viewport=VIEWPORT)
        page = context.new_page()
        page.goto(live_url)
        if with_result:
            fill_and_submit(page)
    else:
        url, html = no_js_document(browser, live_url, scheme, with_result)
        context = browser.new_context(color_scheme=scheme, viewport=VIEWPORT)
        page = context.new_page()
        page.route("**/static/app.js", lambda route: route.fulfill(content_type="text/javascript", body=""))
        page.route(url, lambda route: route.fulfill(content_type="text/html; charset=utf-8", body=html))
        page.goto(url)
    if with_result:
        assert page.locator("#result li.violation").count() >= 4  # the verdict is what was audited
    findings = axe_findings(page)
    context.close()
    assert severe(findings) == []


def test_axe_reports_what_it_should(browser):
    """The audit can fail: an unlabeled field and an image without alt text are found."""
    page = browser.new_page()
    page.set_content('<!doctype html><html lang="en"><title>t</title><main><h1>t</h1>'
                     '<input type="text"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></html>')
    found = {f["id"] for f in severe(axe_findings(page))}
    page.close()
    assert {"label", "image-alt"} <= found


# --- keyboard -------------------------------------------------------------------------


@pytest.fixture(params=(True, False), ids=("js", "no-js"))
def page(request, browser):
    """A fresh page with JavaScript on or off."""
    context = browser.new_context(java_script_enabled=request.param, viewport=VIEWPORT)
    page = context.new_page()
    page.js = request.param
    yield page
    context.close()


def tab_order(page, limit: int = 40) -> list[str]:
    """What Tab reaches from the top of the page, in order, once round."""
    reached = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        here = page.evaluate("""() => { const el = document.activeElement;
            return el === document.body ? '' : (el.id || el.className || el.tagName.toLowerCase()); }""")
        if here == "" or here in reached:
            break
        reached.append(here)
    return reached


def test_tab_reaches_every_control_in_order(page, live_url):
    page.goto(live_url)
    page.evaluate("document.querySelector('details.options').open = true")  # its fields join the order
    order = tab_order(page)
    expected = ["skip-link", "decklist", "deckfile", "summary", "commander-1", "commander-2", "companion",
                "format", "submit"]
    assert [name for name in order if name in expected] == expected, order


def test_skip_link_moves_focus_to_the_decklist(page, live_url):
    page.goto(live_url)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "decklist"


@pytest.mark.parametrize("key", ("Enter", "Space"))
def test_submit_by_keyboard(page, live_url, key):
    """Enter or Space on the focused button validates; the result's line links take the focus next."""
    page.goto(live_url)
    page.fill("#decklist", ILLEGAL_DECK)
    page.focus("#submit")
    page.keyboard.press(key)
    page.wait_for_selector("#result-heading", state="visible")
    assert page.locator('li.violation[data-code="banned"]').count() == 1
    # The first line link of the verdict is reachable and follows by Enter.
    link = page.locator("#result a.line-link").first
    link.focus()
    target = link.get_attribute("href")
    page.keyboard.press("Enter")
    assert page.locator(f"{target}").is_visible()


def test_file_chooser_opens_from_the_keyboard(page, live_url):
    """Space on the focused file input opens the chooser; the chosen list is validated."""
    # A listener before the page loads turns Chromium's file chooser interception on up
    # front; enabled lazily by expect_file_chooser, it can miss a chooser opened at once.
    page.on("filechooser", lambda _chooser: None)
    page.goto(live_url)
    page.focus("#deckfile")
    assert page.evaluate("document.activeElement.id") == "deckfile"
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Space")
    chooser.value.set_files(files=[{"name": "deck.txt", "mimeType": "text/plain", "buffer": ILLEGAL_DECK.encode()}])
    if page.js:
        page.wait_for_function("document.querySelector('#decklist').value.startsWith('Commander')")
    page.focus("#submit")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result-heading", state="visible")
    assert page.locator('li.violation[data-code="singleton"]').count() == 1


def test_options_open_from_the_keyboard(page, live_url):
    page.goto(live_url)
    page.focus("details.options summary")
    page.keyboard.press("Enter")
    assert page.evaluate("document.querySelector('details.options').open") is True
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "commander-1"


# --- color scheme ---------------------------------------------------------------------


def colors(page, selector: str) -> tuple[str, str]:
    """(color, background-color) computed for the element."""
    return tuple(page.eval_on_selector(selector, "(el) => { const s = getComputedStyle(el); "
                                                 "return [s.color, s.backgroundColor]; }"))


def test_dark_color_scheme_is_respected_with_aa_contrast(browser, live_url):
    """prefers-color-scheme: dark turns the page dark, and every text keeps AA contrast."""
    seen = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme, viewport=VIEWPORT)
        page = context.new_page()
        page.goto(live_url)
        fill_and_submit(page)
        seen[scheme] = {sel: colors(page, sel) for sel in ("body", "#decklist", "#submit", ".violation",
                                                           ".badge-error")}
        samples = page.evaluate(TEXT_COLORS_JS)
        assert len(samples) > 50, scheme
        assert low_contrast(samples) == [], scheme
        context.close()
    for selector in seen["light"]:
        assert seen["light"][selector] != seen["dark"][selector], selector
    light_text, light_bg = seen["light"]["body"]
    dark_text, dark_bg = seen["dark"]["body"]
    assert contrast(dark_bg, "rgb(0, 0, 0)") < contrast(light_bg, "rgb(0, 0, 0)")  # the background is dark
    assert contrast(dark_text, dark_bg) >= 7  # body text: AAA, as in the light scheme
