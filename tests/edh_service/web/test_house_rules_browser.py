"""House rules on the page in real headless Chromium, with and without JavaScript (the
`page` fixture runs each test both ways, so both renderings give the same answers): the
profile menu and the "your table's rules" box, the verdict line that names the rules, every
rule case, and the errors said beside the form. Over tests/support/house_store.py's store
and a profiles folder; the page loads nothing from elsewhere."""

from __future__ import annotations

import pytest

from tests.edh_service.conftest import serving
from tests.support.browser import axe_findings, requires_chromium, severe, submit
from tests.support.house_store import ATRAXA, PARTNERS, THURSDAY, TITAN_DECK, format_deck, house_store, write_profile

pytestmark = requires_chromium


@pytest.fixture(scope="module")
def house_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("house-page")
    profiles = folder / "profiles"
    profiles.mkdir()
    write_profile(profiles, "thursday", THURSDAY, age=5)
    write_profile(profiles, "cube-night", 'name = "Cube night"\n', age=5)
    write_profile(profiles, "polyglot", 'banned = ["Contrahechizo", "Eleven, the Mage", "Gideon, Battle-Forged"]\n',
                  age=5)
    write_profile(profiles, "broken", "banned = [\n", age=5)  # not offered
    with serving(house_store(folder), HOUSE_RULES_DIR=str(profiles)) as url:
        yield url


def judged(page, url: str, text: str, *, profile: str = "", rules: str = "", game_format: str = "",
           bracket: str = "") -> dict:
    """Paste the list, choose a profile or write the rules, submit; what the result shows."""
    page.goto(url)
    page.fill("#decklist", text)
    if page.eval_on_selector("#house-rules-options", "el => !el.open"):
        page.click("#house-rules-options summary")
    page.select_option("#house-profile", profile)
    page.fill("#house-rules", rules)
    page.select_option("#game-format", game_format)
    page.select_option("#bracket", bracket)
    submit(page)
    violations = [(li.get_attribute("data-code"), li.locator(".message").inner_text())
                  for li in page.locator("li.violation").all()]
    return {
        "heading": page.inner_text("#result-heading"),
        "status": page.inner_text("#status"),
        "title": page.title(),
        "house": page.inner_text("#house-rules-judged") if page.locator("#house-rules-judged").count() else None,
        "violations": violations,
        "alert": page.inner_text(".alert") if page.locator(".alert").count() else None,
    }


def test_the_profile_menu_lists_the_profiles(page, house_url):
    page.goto(house_url)
    options = page.eval_on_selector_all("#house-profile option", "els => els.map((o) => [o.value, o.textContent])")
    assert options == [["", "None"], ["cube-night", "Cube night"], ["polyglot", "polyglot"],
                       ["thursday", "Thursday at the store"]]


def test_a_profiles_ban_of_a_commanders_partner(page, house_url):
    shown = judged(page, house_url, PARTNERS, profile="thursday")
    assert shown["heading"] == "Not legal under Thursday at the store's rules"
    assert shown["status"] == "Not legal under Thursday at the store's rules: 1 error, 0 warnings."
    assert shown["title"].startswith("Not legal under Thursday at the store's rules ·")
    assert shown["violations"] == [("house_banned", "Tymna the Weaver is banned under the house rules (Thursday at the store).")]
    assert shown["house"] == ("Thursday at the store (profile thursday): 1 banned, 1 banned as commander, 1 unbanned, "
                              "max bracket 2")
    assert page.console_errors == []


def test_the_rules_box_with_a_name_a_ban_and_an_unban(page, house_url):
    rules = "name: Kitchen table\nbanned: Brainstorm\n# a comment\nunbanned: Primeval Titan"
    shown = judged(page, house_url, TITAN_DECK, rules=rules)
    assert shown["heading"] == "Not legal under Kitchen table's rules"
    assert shown["violations"] == [
        ("house_banned", "Brainstorm is banned under the house rules (Kitchen table)."),
        ("house_unbanned", "Primeval Titan is banned in Commander, but the house rules (Kitchen table) allow it.")]
    assert shown["house"] == "Kitchen table: 1 banned, 0 banned as commander, 1 unbanned"


@pytest.mark.parametrize(("game_format", "heading", "codes"), [
    ("", "Legal under the house rules", ["house_unbanned"]),  # banned in Commander: lifted
    ("duel", "Legal under the house rules", []),  # legal in Duel: nothing to lift
])
def test_an_unban_of_a_card_banned_in_commander_but_not_in_duel(page, house_url, game_format, heading, codes):
    shown = judged(page, house_url, TITAN_DECK, rules="unbanned: Primeval Titan", game_format=game_format)
    assert shown["heading"] == heading
    assert [code for code, _ in shown["violations"]] == codes
    assert shown["house"] == "Your table's rules: 0 banned, 0 banned as commander, 1 unbanned"


@pytest.mark.parametrize(("deck", "codes"), [
    (format_deck(["Tymna the Weaver"], basic="Plains"), ["house_banned_as_commander"]),
    (format_deck([ATRAXA], "Tymna the Weaver", basic="Plains"), []),
])
def test_banned_as_commander_in_the_99_and_as_commander(page, house_url, deck, codes):
    shown = judged(page, house_url, deck, rules="banned as commander: Tymna the Weaver")
    assert [code for code, _ in shown["violations"]] == codes
    assert shown["heading"] == ("Not legal" if codes else "Legal") + " under the house rules"


@pytest.mark.parametrize(("bracket", "codes"), [("", ["bracket_game_changers"]), ("4", [])])
def test_a_house_max_bracket_and_the_pages_own_bracket(page, house_url, bracket, codes):
    shown = judged(page, house_url, format_deck([ATRAXA], "Smothering Tithe"), rules="max bracket: 2", bracket=bracket)
    assert [code for code, _ in shown["violations"]] == codes
    minimum = page.inner_text("#bracket-minimum")
    assert minimum.endswith(f"checked against bracket {bracket or 2} ({'Optimized' if bracket else 'Core'})")


def test_foreign_flavor_and_face_names_in_a_profile(page, house_url):
    shown = judged(page, house_url, format_deck(["Cecily, Haunted Mage"], "Counterspell"), profile="polyglot")
    assert [(code, message.split(" is ")[0]) for code, message in shown["violations"]] == [
        ("house_banned", "Cecily, Haunted Mage"), ("house_banned", "Counterspell")]
    assert shown["heading"] == "Not legal under polyglot's rules"


def test_foreign_and_flavor_names_in_the_box(page, house_url):
    shown = judged(page, house_url, format_deck(["Cecily, Haunted Mage"], "Counterspell"),
                   rules="banned: Contrahechizo; Eleven, the Mage")
    assert [(code, message.split(" is ")[0]) for code, message in shown["violations"]] == [
        ("house_banned", "Cecily, Haunted Mage"), ("house_banned", "Counterspell")]


@pytest.mark.parametrize(("profile", "rules", "alert"), [
    ("", "banned: Sol Rnig", 'The house rules name "Sol Rnig", which is no card (did you mean Sol Ring?).'),
    ("", "banned: Sol Ring\nbanished: Counterspell",
     "Line 2 of your table's rules is not one of name:, banned:, banned as commander:, unbanned: or max bracket: "
     "followed by its value."),
    ("", "max bracket: 5", "House rules, max bracket: Must be greater than or equal to 1 and less than or equal to 4."),
    ("thursday", "banned: Sol Ring", "Choose a house rules profile or write your table's rules, not both."),
])
def test_house_rules_the_service_cannot_use_are_said(page, house_url, profile, rules, alert):
    shown = judged(page, house_url, PARTNERS, profile=profile, rules=rules)
    assert shown["heading"] == "Could not validate"
    assert shown["alert"].endswith(alert)
    if not page.js:  # the form comes back as it was sent
        assert page.input_value("#house-rules") == rules
        assert page.eval_on_selector("#house-profile", "el => el.value") == profile


def test_the_page_with_house_rules_passes_axe(browser, house_url):
    context = browser.new_context()
    page = context.new_page()
    judged(page, house_url, PARTNERS, profile="thursday")  # the rules' box open, the verdict naming them
    assert page.eval_on_selector("#house-rules-options", "el => el.open")
    assert severe(axe_findings(page)) == []
    context.close()
