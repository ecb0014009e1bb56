"""The page as people use it, without JavaScript: Oathbreaker's signature spells given in
the form (and a signature_spell message a page user can act on), the no-data message saying
when to retry once, the footer's date as a person reads it, and the color chart counting
what a land really makes in the deck (Command Tower: the commander's colors).

The browser side (phone width, the same with JavaScript) is test_page_use_browser.py.
"""

from __future__ import annotations

import pytest

from tests.support.apps import offline_app
from tests.support.format_store import TEFERI, format_deck
from tests.support.responses import soup_of, violations

OATHBREAKER = format_deck([TEFERI], "Counterspell", size=59)  # 59 cards: the 60th is its spell
SPELL_FIELD = "The page's Signature spell field"


@pytest.fixture
def formats_client(formats_db):
    """The page over the formats' store (Teferi, Brainstorm...)."""
    return offline_app(formats_db).test_client()


def verdict(response) -> dict:
    """What the page says: heading, the signature spells shown, (code, message) of each problem."""
    soup = soup_of(response)
    return {
        "heading": soup.select_one("#result-heading").get_text(strip=True),
        "spells": [a.get_text(strip=True).removesuffix("(opens Scryfall in a new tab)")
                   for a in soup.select(".signature-spells dd a")],
        "problems": [(li["data-code"], li.select_one(".message").get_text(strip=True), li["data-lines"])
                     for li in soup.select("li.violation")],
        "alert": (soup.select_one(".alert").get_text(strip=True) if soup.select_one(".alert") else None),
    }


def test_the_form_has_a_signature_spell_field_with_the_other_options(client):
    form = soup_of(client.get("/")).select_one("#deck-form")
    options = form.select_one("details.options")
    fields = {field["id"]: field for field in options.select("input[name=signature_spells]")}
    assert list(fields) == ["signature-spell-1", "signature-spell-2"]
    assert [form.select_one(f"label[for={key}]").get_text() for key in fields] == [
        "Signature spell", "Second oathbreaker's signature spell"]
    assert "signature spells" in options.select_one("summary").get_text()
    assert all(field["aria-describedby"] == "signature-hint" for field in fields.values())


def test_the_signature_spell_field_designates_it(formats_client):
    # the page had no way to give one: the message sent its users to a field it lacked
    plain = verdict(formats_client.post("/", data={"decklist": OATHBREAKER, "game_format": "oathbreaker"}))
    assert plain["heading"] == "Not legal"
    [(code, message, lines)] = [p for p in plain["problems"] if p[0] == "signature_spell"]
    assert message == (f"{TEFERI} has 0 signature spells; it needs one. List an instant or sorcery under a "
                       "Signature Spell header, or name it in the request (the page's Signature spell field; "
                       "signature_spells in the API; --signature-spell in the CLI).")
    assert lines == "2"  # Teferi's line
    given = formats_client.post("/", data={"decklist": OATHBREAKER, "game_format": "oathbreaker",
                                           "signature_spells": ["Brainstorm", ""]})
    shown = verdict(given)
    assert (shown["heading"], shown["spells"], shown["problems"]) == ("Legal", ["Brainstorm"], [])
    page = soup_of(given)
    assert page.select_one("#signature-spell-1")["value"] == "Brainstorm"  # kept, and the options open
    assert page.select_one("details.options").has_attr("open")


def test_a_signature_spell_outside_oathbreaker_names_the_pages_field(formats_client):
    response = formats_client.post("/", data={"decklist": OATHBREAKER, "game_format": "commander",
                                              "signature_spells": "Brainstorm"})
    assert response.status_code == 422
    assert verdict(response)["alert"] == ("The Signature spell field applies only in Oathbreaker, not in Commander "
                                          "(commander).")


def test_no_card_data_says_when_to_retry_once(tmp_path):
    response = offline_app(tmp_path / "none.sqlite3").test_client().post("/", data={"decklist": "1 Sol Ring"})
    assert (response.status_code, response.headers["Retry-After"]) == (503, "30")
    assert verdict(response)["alert"] == "Card data is not loaded yet. Try again in 30 seconds."


def test_the_footer_shows_a_date_a_person_reads(client):
    # a raw ISO timestamp ("2026-11-01T00:00:00+00:00") was all the footer said
    footer = soup_of(client.get("/")).select_one("footer")
    when = footer.select_one("time#card-data-date")
    assert (when.get_text(), when["datetime"], when["title"]) == (
        "1 Nov 2026, 00:00 UTC", "2026-11-01T00:00:00+00:00", "2026-11-01T00:00:00+00:00")
    assert "bulk file of 1 Nov 2026, 00:00 UTC, " in footer.get_text()


@pytest.mark.parametrize(("stamp", "shown"), [
    ("2026-11-30T10:04:21+00:00", "30 Nov 2026, 10:04 UTC"),
    ("2026-11-30T12:04:21+02:00", "30 Nov 2026, 10:04 UTC"),  # said in UTC
    ("2026-01-05T23:59:59.123456+00:00", "5 Jan 2026, 23:59 UTC"),
    ("not a date", "not a date"),
])
def test_readable_date(stamp, shown):
    from edh_service.web.views import readable_date

    assert readable_date(stamp) == shown


ATRAXA_TOWER = """\
Commander
1 Atraxa, Praetors' Voice
Deck
1 Command Tower
1 Sol Ring
49 Forest
48 Island
"""


def test_the_color_chart_counts_command_tower_as_the_commanders_colors(client):
    # Command Tower was a red source in an Atraxa deck (WUBG): a Red row, "1 of 98"
    page = soup_of(client.post("/", data={"decklist": ATRAXA_TOWER}))
    assert violations(page) == {}
    rows = {row.select_one("th").get_text(strip=True): row.select("td")[-1].get_text(strip=True)
            for row in page.select("figure[data-chart=colors] table tbody tr")}
    assert rows == {"White": "1 of 98", "Blue": "49 of 98", "Black": "1 of 98", "Green": "50 of 98"}
    legend = page.select_one(".legend").get_text()
    assert "Command Tower and the like: your commander's colors" in legend and "fetch land makes none" in legend
