"""The page as people use it, in real headless Chromium, with and without JavaScript: on a
375 px phone a long line of "Your list" stays beside its number and wraps there; the
Signature spell field designates Oathbreaker's spell; the no-data message says when to
retry once. Each is checked in both renderings (they must agree).
"""

from __future__ import annotations

import pytest

from tests.edh_service.conftest import serving
from tests.support.browser import requires_chromium, submit
from tests.support.format_store import TEFERI, format_deck

pytestmark = requires_chromium

PHONE = {"width": 375, "height": 740}
LONG_NAME = "Extraordinarily Long Card Name That Nobody Ever Printed " * 3  # ~170 characters: wraps on a phone
LIST_WITH_A_LONG_LINE = f"Commander\n1 Atraxa, Praetors' Voice\n1 {LONG_NAME.strip()}\n1 Sol Ring\n"

# The boxes of line 3's number and text, and of the listing, in one frame (no scroll between).
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const line = document.getElementById('L3');
  return {ln: box(line.querySelector('.ln')), text: box(line.querySelector('.text')),
          listing: box(line.closest('.listing')), lineHeight: parseFloat(getComputedStyle(line.querySelector('.text')).lineHeight),
          scrollWidth: document.documentElement.scrollWidth};
}"""


@pytest.fixture(params=(True, False), ids=("js", "no-js"))
def phone(request, browser):
    """A page on a 375 px wide phone, JavaScript on or off."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, java_script_enabled=request.param)
    yield context.new_page()
    context.close()


def test_a_long_line_stays_beside_its_number_on_a_phone(phone, live_url):
    # the text of a long line dropped below its number (it started at the number's left)
    phone.goto(live_url)
    phone.fill("#decklist", LIST_WITH_A_LONG_LINE)
    submit(phone)
    boxes = phone.evaluate(BOXES)
    ln, text, listing = boxes["ln"], boxes["text"], boxes["listing"]
    assert text["left"] >= ln["right"]  # beside the number, not under it
    assert abs(text["top"] - ln["top"]) < 1  # on the same row
    assert text["bottom"] - text["top"] >= 3 * boxes["lineHeight"] - 1  # wrapped over several rows
    assert text["right"] <= listing["right"]  # inside the listing: wrapped, not cut
    assert boxes["scrollWidth"] <= PHONE["width"]  # and the page does not scroll sideways
    assert LONG_NAME.strip() in phone.inner_text("#L3 .text").replace("\n", " ")


@pytest.fixture(scope="module")
def formats_url(formats_db):
    """The app over the formats' store (Teferi, Brainstorm...)."""
    with serving(formats_db) as url:
        yield url


def test_the_signature_spell_field_designates_it(page, formats_url):
    page.goto(formats_url)
    page.fill("#decklist", format_deck([TEFERI], "Counterspell", size=59))
    page.select_option("#game-format", "oathbreaker")
    submit(page)
    codes = [li.get_attribute("data-code") for li in page.locator("li.violation").all()]
    assert "signature_spell" in codes
    message = page.inner_text('li.violation[data-code="signature_spell"] .message')
    assert "the page's Signature spell field" in message and "named in signature_spells" not in message
    if not page.is_visible("#signature-spell-1"):  # the options are folded away until used
        page.click("details.options summary")
    page.fill("#signature-spell-1", "Brainstorm")
    submit(page)
    page.wait_for_selector(".signature-spells")
    assert page.inner_text("#result-heading") == "Legal"
    assert page.inner_text(".signature-spells dd").replace("(opens Scryfall in a new tab)", "").strip() == "Brainstorm"
    page.select_option("#game-format", "commander")
    submit(page)
    page.wait_for_selector(".alert")
    assert page.inner_text(".alert").strip() == ("The Signature spell field applies only in Oathbreaker, not in "
                                                 "Commander (commander).")
    assert [e for e in page.console_errors if "status of 422" not in e] == []  # the refusal is the 422 itself


@pytest.fixture(scope="module")
def no_data_url(tmp_path_factory):
    """The app with no card data loaded at all (every validation is a 503)."""
    with serving(tmp_path_factory.mktemp("no-data") / "none.sqlite3") as url:
        yield url


def test_no_card_data_says_when_to_retry_once(page, no_data_url):
    # "Card data is not available yet; retry in 30 s. Try again in 30 seconds."
    page.goto(no_data_url)
    page.fill("#decklist", "1 Sol Ring")
    submit(page)
    page.wait_for_selector(".alert")
    assert page.inner_text(".alert").strip() == "Card data is not loaded yet. Try again in 30 seconds."
