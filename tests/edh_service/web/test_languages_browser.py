"""The page in Spanish and Japanese in real headless Chromium (Debian's `chromium`,
Playwright): chosen by the browser's Accept-Language, by `?lang=` and by the language menu
(kept in its cookie across reloads), with JavaScript (app.js renders the verdict with the
words the page hands it) and without. No English text of the page is left in the rendered
DOM (visible and screen-reader texts, titles, labels), axe finds nothing serious, and
screenshots of a validated Spanish list are saved for whoever reviews the change."""

from __future__ import annotations

import re

import pytest

from edh_service.i18n.app import COOKIE
from tests.support.browser import AXE, axe_findings, requires_chromium, severe, submit
from tests.support.page_catalog import english_left, translations

from tests.edh_service.web.test_names_browser import DECK, names_url  # noqa: F401 - the fixture, reused

pytestmark = requires_chromium
VIEWPORT = {"width": 1100, "height": 900}
SCREENSHOTS = {"es": "/tmp/page-es.png", "ja": "/tmp/page-ja.png"}

# The page's words as the DOM shows them, visible or read aloud: text nodes and the
# attributes people see or hear, minus what is not the page's own text: the list as written,
# card names, codes, the engine's messages, and the format and bracket names the engine keeps.
PAGE_TEXTS_JS = """() => {
  const skip = 'script, style, textarea, pre, code, a.card, .english, .text, q.typed, .message, li.reason, ' +
    '.format-verdict strong, #judged-format, select#game-format, select#bracket, select#format, .preview';
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && !parent.closest(skip) && node.textContent.trim()) texts.push(node.textContent.trim());
  }
  for (const el of document.body.querySelectorAll('[title], [aria-label], [alt], [placeholder]')) {
    if (el.closest(skip)) continue;
    for (const name of ['title', 'aria-label', 'alt', 'placeholder']) if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
  }
  return texts;
}"""


def english_shown(page, code: str) -> list[str]:
    """The page's English texts (whose translation in `code` differs) found in the DOM."""
    texts = page.evaluate(PAGE_TEXTS_JS)
    return sorted({text for text in texts for pattern in english_left(code) if re.search(pattern, text)})


def validated(browser, url: str, code: str, *, js: bool):
    """A page whose browser asks for `code`, with the Spanish list validated."""
    context = browser.new_context(locale=code, java_script_enabled=js, viewport=VIEWPORT)
    page = context.new_page()
    response = page.goto(url)
    assert response.headers["content-language"] == code
    page.fill("#decklist", DECK)
    submit(page)
    return context, page


def word(code: str, text: str, context: str | None = None) -> str:
    """A text of the page in a language (the first form of a plural text)."""
    message = translations(code)[(text, context)]
    return message.string if isinstance(message.string, str) else message.string[0]


@pytest.mark.parametrize("js", (True, False), ids=("js", "no-js"))
@pytest.mark.parametrize("code", ("es", "ja"))
def test_no_english_page_text_after_validating(browser, names_url, code, js):  # noqa: F811
    context, page = validated(browser, names_url, code, js=js)
    assert page.evaluate("document.documentElement.lang") == code
    assert page.locator("#result-heading").inner_text() == word(code, "Not legal")
    assert page.locator("#listing-heading").inner_text() == word(code, "Your list")
    assert page.locator("#overview-heading").inner_text() == word(code, "Deck overview")
    # the names the list wrote in Spanish are said with their language in the page's language
    assert page.locator('li.line[data-line="8"] .lang').inner_text() == {"es": "español", "ja": "スペイン語"}[code]
    assert english_shown(page, code) == []
    if not js and code in SCREENSHOTS:  # the server's page: every message rendered in the language
        page.screenshot(path=SCREENSHOTS[code], full_page=True)
    context.close()


def test_javascript_and_the_server_say_the_same(browser, names_url):  # noqa: F811
    """app.js (with the page's words) renders what the server renders, in Japanese."""
    shown = []
    for js in (True, False):
        context, page = validated(browser, names_url, "ja", js=js)
        shown.append([page.locator(selector).inner_text() for selector in
                      ("#result-heading", "#problems-heading", "dl.facts", "#overview .charts", "ol.listing")])
        context.close()
    assert shown[0] == shown[1]


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: run `make test` (npm ci)")
@pytest.mark.parametrize("code", ("es", "ja"))
def test_axe_finds_nothing_serious_in_the_language(browser, names_url, code):  # noqa: F811
    context, page = validated(browser, names_url, code, js=True)
    findings = axe_findings(page)
    context.close()
    assert severe(findings) == []


@pytest.mark.parametrize("js", (True, False), ids=("js", "no-js"))
def test_the_language_menu_switches_and_is_remembered(browser, names_url, js):  # noqa: F811
    """Chosen in the menu (a plain GET form), the language holds across reloads and a
    validation (its cookie), over the browser's own English."""
    context = browser.new_context(locale="en-US", java_script_enabled=js, viewport=VIEWPORT)
    page = context.new_page()
    page.goto(names_url)
    assert page.evaluate("document.documentElement.lang") == "en"
    page.select_option("#language", "ja")
    with page.expect_navigation():
        page.click("#language-submit")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.locator("h1").inner_text() == word("ja", "Commander deck validator")
    assert {c["name"]: c["value"] for c in context.cookies()}[COOKIE] == "ja"
    response = page.goto(names_url)  # no ?lang= now: the cookie decides
    assert response.headers["content-language"] == "ja"
    page.reload()
    assert page.locator("#submit").inner_text() == word("ja", "Validate deck")
    page.fill("#decklist", DECK)
    submit(page)
    assert page.locator("#result-heading").inner_text() == word("ja", "Not legal")
    assert english_shown(page, "ja") == []
    page.select_option("#language", "es")  # and back to another language
    with page.expect_navigation():
        page.click("#language-submit")
    assert page.locator("h1").inner_text() == word("es", "Commander deck validator")
    context.close()


def test_lang_in_the_query(browser, names_url):  # noqa: F811
    context = browser.new_context(locale="ja", viewport=VIEWPORT)
    page = context.new_page()
    response = page.goto(names_url + "?lang=es")
    assert response.headers["content-language"] == "es"
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.locator("label[for=decklist]").inner_text() == word("es", "Decklist")
    assert english_shown(page, "es") == []
    context.close()
