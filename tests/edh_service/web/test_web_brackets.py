"""The page's Commander Brackets part without JavaScript (the server-rendered form post):
the minimum next to the verdict, the cards behind it linked to Scryfall, "not checked: no
data" for a list not loaded, and the bracket selector declaring a bracket. The same with
JavaScript is in test_web_browser.py."""

from __future__ import annotations

import pytest

from edh_service.api.responses import scryfall_search_url
from tests.support.factories import load_bracket_lists, plain_deck
from tests.support.responses import shown_names, soup_of, violations

KINDS = ("game_changers", "mass_land_denial", "extra_turns", "two_card_combos")
# Game Changers, mass land denial (Vindicate), an extra turn, a combo (combos.txt) and half of another
DECK = plain_deck("Demonic Tutor", "Rhystic Study", "Vindicate", "All in Good Time", "Counterspell",
                  "Fire // Ice", "Dark Ritual")


def lists_of(soup) -> dict[str, list[str] | str]:
    """kind -> the linked card names the page lists, or its text when none is linked."""
    found = {}
    for kind in KINDS:
        value = soup.select_one(f'.bracket-list[data-list="{kind}"] dd')
        found[kind] = shown_names(value) or value.get_text(" ", strip=True)
    return found


def test_the_selector_offers_none_and_the_five_brackets(client):
    soup = soup_of(client.get("/"))
    select = soup.select_one("form#deck-form select#bracket[name=bracket]")
    assert soup.select_one("label[for=bracket]").get_text(strip=True) == "Your table's Commander Bracket"
    options = [(option["value"], option.get_text()) for option in select.select("option")]
    assert [value for value, _ in options] == ["", "1", "2", "3", "4", "5", "none"]  # none: not a deck link's either
    assert [text for _, text in options][1:-1] == ["1: Exhibition", "2: Core", "3: Upgraded", "4: Optimized", "5: cEDH"]
    assert select.select_one("option[selected]")["value"] == ""


def test_the_minimum_and_the_cards_behind_it(client, fixture_db):
    load_bracket_lists(fixture_db)
    response = client.post("/", data={"decklist": DECK})
    assert response.status_code == 200
    soup = soup_of(response)
    minimum = soup.select_one("#result-heading + #bracket-minimum")  # right after the verdict
    assert minimum["data-minimum"] == "4"
    assert minimum.get_text(" ", strip=True) == "Minimum Commander Bracket: 4 (Optimized)"
    assert lists_of(soup) == {"game_changers": ["Demonic Tutor", "Rhystic Study"], "mass_land_denial": ["Vindicate"],
                              "extra_turns": ["All in Good Time"], "two_card_combos": ["Counterspell", "Fire // Ice"]}
    combo = soup.select_one('.bracket-list[data-list="two_card_combos"] li')
    assert [a["href"] for a in combo.select("a.card")] == [scryfall_search_url("Counterspell"),
                                                          scryfall_search_url("Fire // Ice")]
    reasons = [(li["data-bracket"], li.get_text(" ", strip=True)) for li in soup.select(".bracket-reasons li")]
    assert [bracket for bracket, _ in reasons] == ["2", "3", "3", "4"]
    assert "Vindicate" in reasons[-1][1] and "mass land denial" in reasons[-1][1]
    assert soup.select(".not-checked") == []
    assert not any(code.startswith("bracket_") for code in violations(soup))  # nothing declared


def test_a_list_without_data_is_said_plainly(client):
    soup = soup_of(client.post("/", data={"decklist": DECK}))
    listed = lists_of(soup)
    assert listed["mass_land_denial"] == listed["two_card_combos"] == "Not checked: no data (the list is not loaded)."
    assert listed["game_changers"] == ["Demonic Tutor", "Rhystic Study"]
    not_checked = [li.get_text(" ", strip=True) for li in soup.select(".bracket-reasons li.not-checked")]
    assert not_checked == [
        "Not checked: no data. Mass land denial was not checked: no mass land denial list is loaded.",
        "Not checked: no data. Two-card combos were not checked: no combo list is loaded."]
    assert soup.select_one("#bracket-minimum")["data-minimum"] == "3"


@pytest.mark.parametrize(("bracket", "codes"), (
    ("1", {"bracket_game_changers", "bracket_mass_land_denial", "bracket_extra_turns", "bracket_two_card_combo"}),
    ("3", {"bracket_mass_land_denial"}),
    ("4", set()),
))
def test_the_selector_declares_a_bracket(client, fixture_db, bracket, codes):
    load_bracket_lists(fixture_db)
    soup = soup_of(client.post("/", data={"decklist": DECK, "bracket": bracket}))
    shown = violations(soup)
    assert {code for code in shown if code.startswith("bracket_")} == codes
    if "bracket_mass_land_denial" in codes:
        assert shown["bracket_mass_land_denial"][0] == ["Vindicate"]
    assert soup.select_one("#bracket option[selected]")["value"] == bracket  # the choice is kept
    names = {"1": "Exhibition", "3": "Upgraded", "4": "Optimized"}
    assert soup.select_one("#bracket-minimum").get_text(" ", strip=True) == (
        f"Minimum Commander Bracket: 4 (Optimized) ; checked against bracket {bracket} ({names[bracket]})")


# "9" * 5,000: over Python's 4,300-digit int() limit, it was the page's 500 ("Something went wrong")
@pytest.mark.parametrize("bad", ("0", "6", "x", "2.5", "9" * 5_000))
def test_a_forged_bracket_is_a_readable_422(client, bad):
    response = client.post("/", data={"decklist": DECK, "bracket": bad})
    assert response.status_code == 422
    soup = soup_of(response)
    assert soup.select_one("#result .alert").get_text().startswith("Bracket: ")
    assert "Sol Ring" in soup.select_one("#decklist").get_text()  # the list is kept
