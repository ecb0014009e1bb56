"""The page's game format selector in real headless Chromium (issue 21), with and without
JavaScript: the result names the format judged in, shows Oathbreaker's signature spell and
every format's verdict, leaves the bracket block out outside Commander, says a list's own
format when the selector is left alone; the two renderings agree; axe finds nothing severe.

The app serves the formats' store (tests/support/format_store.py: every legality key, the
PDH list) on loopback; the page loads nothing from elsewhere.
"""

from __future__ import annotations

import pytest

from tests.edh_service.conftest import serving
from tests.support.browser import axe_findings, requires_chromium, severe, submit
from tests.support.format_store import MYTHICS, TEFERI, format_deck, format_store
from validator.formats import KEYS

pytestmark = requires_chromium

OATHBREAKER_LIST = format_deck([TEFERI], size=59) + "\nSignature Spell\n1 Brainstorm\n"
BRAWL_LIST = "Format: Brawl\n" + format_deck([TEFERI], "Brainstorm")


@pytest.fixture(scope="module")
def formats_url(formats_db):
    """The app over the formats' store."""
    with serving(formats_db) as url:
        yield url


@pytest.fixture(scope="module")
def old_data_url(tmp_path_factory):
    """The app over card data older than Pauper Commander (no key, no list)."""
    db = format_store(tmp_path_factory.mktemp("old-data") / "cards.sqlite3", pauper_commanders=False,
                      without=("paupercommander",))
    with serving(db) as url:
        yield url


SHOWN_TEXT = """el => { const copy = el.cloneNode(true);
    copy.querySelectorAll('.visually-hidden').forEach((node) => node.remove());
    return copy.textContent.replace(/\\s+/g, ' ').trim(); }"""


def validated(page, url: str, text: str, game_format: str = "") -> dict:
    """Paste the list, choose the game format, submit; what the result shows."""
    page.goto(url)
    page.fill("#decklist", text)
    page.select_option("#game-format", game_format)
    submit(page)
    # labels as written (CSS upper-cases them), values without the screen reader's "(opens Scryfall...)"
    facts = {dt.text_content().strip(): dd.evaluate(SHOWN_TEXT)
             for dt, dd in zip(page.locator(".facts dt").all(), page.locator(".facts dd").all())}
    verdicts = {li.get_attribute("data-format"): li.inner_text().strip()
                for li in page.locator(".format-verdicts li").all()}
    return {
        "heading": page.inner_text("#result-heading"),
        "format": page.get_attribute("#judged-format", "data-format"),
        "facts": facts,
        "verdicts": verdicts,
        "bracket": page.locator("#bracket-minimum").count(),
        "codes": [li.get_attribute("data-code") for li in page.locator("li.violation").all()],
        "selected": page.eval_on_selector("#game-format", "el => el.value"),
    }


def test_oathbreaker_shows_the_signature_spell(page, formats_url):
    shown = validated(page, formats_url, OATHBREAKER_LIST, "oathbreaker")
    assert (shown["heading"], shown["format"]) == ("Legal", "oathbreaker")
    assert shown["facts"]["Format"] == "Oathbreaker"
    assert shown["facts"]["Oathbreaker"] == TEFERI
    assert shown["facts"]["Signature spell"] == "Brainstorm"
    assert shown["facts"]["Cards"] == "60 of 60"
    assert shown["bracket"] == 0  # brackets are Commander's
    assert list(shown["verdicts"]) == list(KEYS)
    assert shown["verdicts"]["oathbreaker"] == "Oathbreaker: legal"
    assert shown["verdicts"]["commander"].startswith("Commander: not legal (")
    assert shown["selected"] == "oathbreaker"  # the choice is kept
    assert page.console_errors == []


# Each verdict's mark (its ::before), words, and what sets its style apart.
MARKS = """() => [...document.querySelectorAll('.format-verdicts li')].map((li) => {
  const style = getComputedStyle(li), before = getComputedStyle(li, '::before');
  return [li.dataset.format, li.dataset.status, before.content, before.color, style.fontStyle, li.innerText.trim()];
})"""


def test_a_format_the_data_cannot_judge_is_shown_apart(page, old_data_url):
    shown = validated(page, old_data_url, MYTHICS)
    assert (shown["heading"], shown["format"]) == ("Legal", "commander")
    marks = {key: rest for key, *rest in page.evaluate(MARKS)}
    assert marks["paupercommander"][0] == "unknown" and marks["paupercommander"][1] == '"? "'
    assert marks["paupercommander"][3:] == ["italic", "Pauper Commander: unknown (the card data can't say)"]
    assert marks["commander"][:2] == ["legal", '"✓ "'] and marks["commander"][3:] == ["normal", "Commander: legal"]
    assert marks["predh"][:2] == ["not_legal", '"✗ "'] and marks["predh"][4] == "PreDH: not legal (not_legal)"
    # three marks, three colors: not color alone, and not the same color twice
    assert len({m[1] for m in marks.values()}) == 3 and len({m[2] for m in marks.values()}) == 3
    assert not any("legal" == text.split(": ", 1)[1] for status, _, _, _, text in marks.values() if status == "unknown")
    assert page.console_errors == []


def test_the_list_names_its_own_format(page, formats_url):
    shown = validated(page, formats_url, BRAWL_LIST)
    assert (shown["heading"], shown["format"], shown["facts"]["Format"]) == ("Legal", "brawl", "Brawl")
    assert shown["codes"] == ["format_inferred"]
    assert shown["facts"]["Commander"] == TEFERI and shown["facts"]["Cards"] == "100 of 100"


def test_commander_keeps_its_bracket_block(page, formats_url):
    shown = validated(page, formats_url, BRAWL_LIST, "commander")
    assert (shown["heading"], shown["format"], shown["bracket"]) == ("Not legal", "commander", 1)
    assert "commander_ineligible" in shown["codes"]


def test_a_bracket_outside_commander_is_refused(page, formats_url):
    page.goto(formats_url)
    page.fill("#decklist", OATHBREAKER_LIST)
    page.select_option("#game-format", "oathbreaker")
    page.select_option("#bracket", "2")
    submit(page)
    assert page.inner_text("#result-heading") == "Could not validate"
    assert page.inner_text(".alert").strip() == "The Bracket field applies only in Commander, not in Oathbreaker (oathbreaker)."


@pytest.mark.parametrize("served", ["formats_url", "old_data_url"])
def test_both_renderings_agree(browser, served, request):
    url = request.getfixturevalue(served)
    text = OATHBREAKER_LIST if served == "formats_url" else MYTHICS
    shown = []
    for js in (True, False):
        context = browser.new_context(java_script_enabled=js)
        page = context.new_page()
        shown.append((validated(page, url, text, "oathbreaker" if served == "formats_url" else ""),
                      page.evaluate(MARKS)))
        context.close()
    assert shown[0] == shown[1]


def test_the_result_passes_axe(browser, formats_url, old_data_url):
    context = browser.new_context()
    page = context.new_page()
    validated(page, formats_url, OATHBREAKER_LIST, "oathbreaker")
    assert severe(axe_findings(page)) == []
    validated(page, old_data_url, MYTHICS)  # a format the data cannot judge, shown apart
    assert page.locator(".format-unknown").count() == 1 and severe(axe_findings(page)) == []
    context.close()
