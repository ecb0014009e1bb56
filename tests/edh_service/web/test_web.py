"""The paste-and-validate page without JavaScript: a plain form POST rendered by web.py.

Every test goes through create_app() and the real card store built from
tests/fixtures/cards.jsonl (`fixture_db`), and reads the page as HTML with Beautiful Soup.
"""

from __future__ import annotations

import io
import re
from urllib.parse import urlencode

import pytest

from edh_service.factory import create_app
from tests.support.apps import offline_app
from tests.support.factories import ILLEGAL_DECK, ILLEGAL_EXPECTED
from tests.support.format_store import MYTHICS, format_store
from tests.support.responses import shown_names, soup_of, violations

# A deck that breaks several rules, one problem per line. Line numbers matter: the
# page must mark exactly these lines.
# code -> (cards shown, lines); cards of unknown_card are the name as typed.

LEGAL_DECK = """\
Commander
1 Atraxa, Praetors' Voice
Deck
1 Sol Ring
1 Arcane Signet
1 Command Tower
24 Forest
24 Island
24 Plains
24 Swamp
"""

# What the page must always send: strict security headers, no inline code.
REQUIRED_CSP = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "frame-ancestors 'none'",
)


def flagged_lines(soup) -> dict[int, str]:
    """line number -> severity class of every marked line in the listing."""
    return {
        int(item["data-line"]): next(c for c in item["class"] if c.startswith("flagged-")).removeprefix("flagged-")
        for item in soup.select("ol.listing li.flagged")
    }


def test_empty_form_is_labelled_and_posts_to_itself(client):
    """GET / is a form that works without JS: multipart POST to /, every control labelled."""
    response = client.get("/")
    soup = soup_of(response)
    form = soup.select_one("form#deck-form")
    assert response.status_code == 200
    assert (form["method"], form["action"], form["enctype"]) == ("post", "/", "multipart/form-data")
    for control in form.select("textarea, input:not([type=hidden]), select"):
        assert soup.select_one(f'label[for="{control["id"]}"]'), f"{control['id']} has no label"
    assert soup.select_one("#status")["aria-live"] == "polite"
    assert soup.select_one("#result").has_attr("hidden")  # nothing to show yet


@pytest.mark.parametrize("path", ("/", "/static/app.js", "/static/app.css"))
def test_security_headers(client, path):
    """The page and its assets carry a strict CSP, nosniff and a Referrer-Policy."""
    response = client.get(path)
    response.close()  # static files are streamed; close the file handle
    csp = [part.strip() for part in response.headers["Content-Security-Policy"].split(";")]
    assert response.status_code == 200
    assert set(REQUIRED_CSP) <= set(csp)
    assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_no_inline_script_or_style_and_nothing_external(client):
    """The CSP forbids inline code; the page must not rely on any, nor on another origin."""
    response = client.post("/", data={"decklist": ILLEGAL_DECK})
    soup = soup_of(response)
    assert all(script.has_attr("src") and not script.string for script in soup.find_all("script"))
    assert soup.find("style") is None
    assert soup.select("[style]") == []
    assert [tag for tag in soup.find_all(attrs={"onclick": True})] == []
    external = [el.get("src") or el.get("href") for el in soup.select("script[src], link[href]")]
    assert all(url.startswith("/") for url in external), external


def test_illegal_deck_lists_every_violation_with_cards_and_lines(client):
    """Each problem shows its code, cards and line numbers; the deck is not legal."""
    soup = soup_of(client.post("/", data={"decklist": ILLEGAL_DECK}))
    found = violations(soup)
    assert soup.select_one("#result-heading").get_text() == "Not legal"
    for code, expected in ILLEGAL_EXPECTED.items():
        assert found[code] == expected, code
    # 1 + 1 + 1 + 1 + 2 + 92 = 98 cards, commander included.
    assert "deck_size" in found
    assert "98" in soup.select_one(".count-bad").get_text()


def test_offending_lines_are_marked_in_the_listing(client):
    """The submitted list comes back numbered, with exactly the offending lines marked."""
    soup = soup_of(client.post("/", data={"decklist": ILLEGAL_DECK}))
    listing = soup.select("ol.listing li")
    assert [li.select_one(".text").get_text() for li in listing] == ILLEGAL_DECK.splitlines()
    assert flagged_lines(soup) == {5: "error", 6: "error", 7: "error", 8: "error", 9: "error"}
    assert soup.select_one("#L6 .mark").get_text() == "error: color_identity"


def test_line_links_point_at_listing_lines(client):
    """Without JS a line number is an anchor (#L6) to that line of the listing."""
    soup = soup_of(client.post("/", data={"decklist": ILLEGAL_DECK}))
    for link in soup.select("a.line-link"):
        assert soup.select_one(link["href"]) is not None, link["href"]


def test_unknown_card_shows_suggestions_linked_to_scryfall(client):
    """An unknown name gets up to 3 suggestions, each an exact-name Scryfall search link."""
    soup = soup_of(client.post("/", data={"decklist": ILLEGAL_DECK}))
    unknown = soup.select_one('li.violation[data-code="unknown_card"]')
    suggestions = unknown.select_one("p.suggestions")
    names = shown_names(suggestions)
    assert "Sol Ring" in names and len(names) <= 3
    link = suggestions.select_one("a.card")
    assert link["href"] == 'https://scryfall.com/search?q=%21%22' + names[0].replace(" ", "%20") + "%22"
    assert link["rel"] == ["noopener", "noreferrer"]
    assert unknown.select_one("p.cards a") is None  # a typo has no card page to link to


def test_legal_deck_shows_commander_identity_and_count(client):
    """A legal deck: the verdict, the commander, the color identity as named pips, 100 cards."""
    response = client.post("/", data={"decklist": LEGAL_DECK})
    soup = soup_of(response)
    assert soup.select_one("#result-heading").get_text() == "Legal"
    assert violations(soup) == {}
    assert shown_names(soup.select_one(".facts")) == ["Atraxa, Praetors' Voice"]
    pips = [pip.select_one(".visually-hidden").get_text() for pip in soup.select(".pips .pip")]
    assert pips == ["White", "Blue", "Black", "Green"]
    assert soup.select_one(".count-ok").get_text() == "100"
    assert flagged_lines(soup) == {}


@pytest.mark.parametrize(
    ("line", "raw"),
    (
        ("1 <script>alert(1)</script>", "<script>alert(1)</script>"),
        ('1 "><img src=x onerror=alert(1)>', "<img src=x onerror=alert(1)>"),
        ("1 Sol Rnig<b>", "Sol Rnig<b>"),
    ),
)
def test_echoed_names_and_lines_are_escaped(client, line, raw):
    """Whatever the user typed comes back as text, never as markup."""
    response = client.post("/", data={"decklist": f"Commander\n1 Atraxa, Praetors' Voice\n{line}\n"})
    html = response.get_data(as_text=True)
    soup = soup_of(response)
    assert raw not in html
    assert soup.select_one("#L3 .text").get_text() == line
    assert soup.select("script:not([src])") == [] and soup.select("img") == []


def test_uploaded_file_replaces_the_textarea(client):
    """No-JS file upload: a multipart file (BOM and CRLF included) is what gets validated."""
    data = {
        "decklist": "1 Sol Ring\n",
        "deckfile": (io.BytesIO(b"\xef\xbb\xbf" + ILLEGAL_DECK.replace("\n", "\r\n").encode()), "deck.txt"),
    }
    soup = soup_of(client.post("/", data=data, content_type="multipart/form-data"))
    assert {code: violations(soup)[code] for code in ILLEGAL_EXPECTED} == ILLEGAL_EXPECTED
    assert soup.select_one("#decklist").get_text().lstrip("\n").startswith("Commander")


def test_file_chooser_offers_every_decklist_file_the_service_reads(client):
    """The chooser's filter hid .dec lists and .json site exports (both read by the parser)."""
    from edh_service.cli.paths import DECK_EXTENSIONS

    accept = set(soup_of(client.get("/")).select_one("#deckfile")["accept"].split(","))
    assert DECK_EXTENSIONS | {".json", ".csv", ".tsv", ".md", ".xml"} <= accept


def test_uploaded_windows_1252_file_is_read_as_the_cli_reads_it(client):
    """Windows editors and older exporters save ANSI (Windows-1252): the CLI reads such a file
    right, the page turned "Lim-D\xfbl's Vault" into an unknown "Lim-D\ufffdl's Vault"."""
    data = {"deckfile": (io.BytesIO("1 Lim-Dûl's Vault\r\n1 Sol Ring\r\n".encode("cp1252")), "deck.txt")}
    soup = soup_of(client.post("/", data=data, content_type="multipart/form-data"))
    assert "unknown_card" not in violations(soup)
    assert "1 Lim-Dûl's Vault" in soup.select_one("#decklist").get_text()


def test_uploaded_utf16_file_is_read_by_its_byte_order_mark(client):
    """Notepad's "Unicode" and PowerShell 5's `>` save UTF-16 with a BOM."""
    data = {"deckfile": (io.BytesIO("1 Lim-Dûl's Vault\r\n1 Sol Ring\r\n".encode("utf-16")), "deck.txt")}
    soup = soup_of(client.post("/", data=data, content_type="multipart/form-data"))
    assert "unknown_card" not in violations(soup) and "unparsed_line" not in violations(soup)
    assert soup.select_one("#L1 .text").get_text() == "1 Lim-Dûl's Vault"


def test_textarea_is_refilled_with_line_numbers_intact(client):
    """A list starting with a blank line keeps that line (the parser eats one newline)."""
    text = "\nCommander\n1 Atraxa, Praetors' Voice\n1 Mana Crypt\n"
    soup = soup_of(client.post("/", data={"decklist": text}))
    # html.parser does not drop the newline after <textarea>; a browser does, exactly one.
    assert soup.select_one("#decklist").get_text() == "\n" + text
    assert violations(soup)["banned"] == (["Mana Crypt"], [4])


def test_form_options_designate_commanders_and_list_format(client):
    """Commander fields override the list; a forced list format reaches the parser."""
    data = {
        "decklist": "1 Thrasios, Triton Hero\n1 Tymna the Weaver\n1 Lightning Bolt\n",
        "commanders": ["Thrasios, Triton Hero", "Tymna the Weaver"],
        "format": "text",
    }
    soup = soup_of(client.post("/", data=data))
    assert shown_names(soup.select_one(".facts")) == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    assert violations(soup)["color_identity"] == (["Lightning Bolt"], [3])
    assert soup.select_one('#format option[value="text"]').has_attr("selected")
    assert soup.select_one("details.options").has_attr("open")


@pytest.mark.parametrize(
    ("data", "status", "message"),
    (
        ({"decklist": "   \n"}, 422, "Paste a decklist"),
        ({"decklist": "1 Sol Ring\n" * 10_001}, 422, "at most 10,000"),
    ),
)
def test_unusable_submissions_explain_themselves(client, data, status, message):
    """An empty or oversized list is an error message on the page, with the list kept."""
    response = client.post("/", data=data)
    soup = soup_of(response)
    assert response.status_code == status
    assert message in soup.select_one("#result .alert").get_text()
    assert soup.select_one("#decklist").get_text().strip() == data["decklist"].strip()


@pytest.mark.parametrize(
    ("fields", "message"),
    (
        ({"commanders": ["x" * 201]}, "Commander: "),
        ({"companion": "y" * 201}, "Companion: "),
    ),
)
def test_form_fields_get_the_api_bounds(client, fields, message):
    """The form is loaded by the API's request schema: same bounds, a readable 422."""
    response = client.post("/", data={"decklist": LEGAL_DECK, **fields})
    alert = soup_of(response).select_one("#result .alert").get_text()
    assert response.status_code == 422
    assert alert.startswith(message) and "200" in alert


def test_the_game_format_field_is_the_apis_format(client):
    """The selector's game_format is the API's `format` (the form's `format` stays the syntax):
    a name the API refuses is a readable 422; a bracket outside Commander too."""
    response = client.post("/", data={"decklist": LEGAL_DECK, "game_format": "modern"})
    alert = soup_of(response).select_one("#result .alert").get_text()
    assert response.status_code == 422 and alert.startswith("Game format: Unknown game format 'modern'")
    response = client.post("/", data={"decklist": LEGAL_DECK, "game_format": "duel", "bracket": "2"})
    assert response.status_code == 422
    assert "The Bracket field applies only in Commander" in soup_of(response).select_one("#result .alert").get_text()
    page = soup_of(client.post("/", data={"decklist": LEGAL_DECK, "game_format": "predh", "format": "text"}))
    assert page.select_one("#judged-format")["data-format"] == "predh"
    assert len(page.select(".format-verdicts li")) == 7 and page.select_one("#bracket-minimum") is None


def test_every_format_tells_unknown_apart_from_legal(tmp_path, formats_db):
    """Over card data without Pauper Commander's key and list, a deck of mythics has no error
    there: "In every format" says unknown, in words and a class of its own, never legal."""
    def shown(db):
        page = soup_of(offline_app(db).test_client().post("/", data={"decklist": MYTHICS}))
        return {li["data-format"]: (li["data-status"], li["class"][1], li.get_text(strip=True))
                for li in page.select(".format-verdicts li")}

    old = shown(format_store(tmp_path / "old.sqlite3", pauper_commanders=False, without=("paupercommander",)))
    assert old["paupercommander"] == (
        "unknown", "format-unknown", "Pauper Commander: unknown (the card data can't say)")
    assert old["commander"] == ("legal", "format-legal", "Commander: legal")
    assert old["predh"] == ("not_legal", "format-illegal", "PreDH: not legal (not_legal)")
    assert [key for key, (status, _, _) in old.items() if status == "unknown"] == ["paupercommander"]
    # with the data the same deck is judged there
    assert shown(formats_db)["paupercommander"] == (
        "not_legal", "format-illegal", "Pauper Commander: not legal (commander_ineligible, not_legal)")


def test_verdict_pages_are_not_cached(client):
    """The page echoes the user's list: never stored by a shared cache."""
    assert client.post("/", data={"decklist": LEGAL_DECK}).headers["Cache-Control"] == "no-store"
    assert client.get("/").headers["Cache-Control"] == "no-store"


def test_body_over_the_limit_is_413_on_the_page(fixture_db):
    """A body over MAX_CONTENT_LENGTH is a 413 HTML page that says the limit."""
    app = offline_app(fixture_db, MAX_CONTENT_LENGTH=4096)
    response = app.test_client().post("/", data={"decklist": "1 Sol Ring\n" * 1000})
    assert response.status_code == 413
    assert "4 KiB" in soup_of(response).select_one(".alert").get_text()
    assert response.headers["Content-Security-Policy"]


def test_chunked_form_over_the_limit_is_413_on_the_page(fixture_db):
    """Sent chunked (no Content-Length) the form was cut at the limit and judged anyway."""
    app = offline_app(fixture_db, MAX_CONTENT_LENGTH=4096)
    body = urlencode({"decklist": "1 Sol Ring\n" * 1000}).encode()
    response = app.test_client().post("/", input_stream=io.BytesIO(body),
                                      content_type="application/x-www-form-urlencoded",
                                      headers={"Transfer-Encoding": "chunked"},
                                      environ_overrides={"wsgi.input_terminated": True})
    assert response.status_code == 413
    assert "4 KiB" in soup_of(response).select_one(".alert").get_text()


def test_no_card_data_is_503_with_retry_after(tmp_path):
    """Before the store exists the page says so, with the API's Retry-After, and keeps the list."""
    app = create_app({"TESTING": True, "CARD_DB": str(tmp_path / "missing.sqlite3"),
                      "CARD_DATA_OFFLINE": True, "CARD_DATA_SYNC": False})
    client = app.test_client()
    response = client.post("/", data={"decklist": LEGAL_DECK})
    api = client.post("/api/v1/validate", json={"decklist": LEGAL_DECK})
    soup = soup_of(response)
    assert (response.status_code, api.status_code) == (503, 503)
    seconds = response.headers["Retry-After"]
    assert seconds == api.headers["Retry-After"] and int(seconds) > 0
    assert f"Try again in {int(seconds)} second{'s' * (int(seconds) != 1)}." in soup.select_one(".alert").get_text()
    assert "Atraxa" in soup.select_one("#decklist").get_text()


def test_over_the_rate_limit_is_429_on_the_page_and_keeps_the_list(fixture_db):
    """Like 413 and 503: the page, saying when to come back, not werkzeug's bare 429 page."""
    app = offline_app(fixture_db, RATELIMIT_ENABLED=True, RATELIMIT="1/minute")
    client = app.test_client()
    assert client.post("/", data={"decklist": LEGAL_DECK}).status_code == 200
    response = client.post("/", data={"decklist": LEGAL_DECK})
    soup = soup_of(response)
    assert response.status_code == 429
    seconds = response.headers["Retry-After"]
    assert f"Try again in {int(seconds)} second{'s' * (int(seconds) != 1)}." in soup.select_one("#result .alert").get_text()
    assert soup.select_one("#decklist").get_text().strip() == LEGAL_DECK.strip()
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


def test_one_second_to_wait_is_said_in_the_singular(fixture_db):
    """A per-second budget renews within the second: "Try again in 1 second.", not "1 seconds"."""
    client = offline_app(fixture_db, RATELIMIT_ENABLED=True, RATELIMIT="1/second").test_client()
    response = client.post("/", data={"decklist": LEGAL_DECK})
    for _ in range(5):  # a window may end between two posts: then the next one is over
        if response.status_code == 429:
            break
        response = client.post("/", data={"decklist": LEGAL_DECK})
    assert (response.status_code, response.headers["Retry-After"]) == (429, "1")
    alert = soup_of(response).select_one("#result .alert").get_text()
    assert alert.strip() == "Too many validations from your address just now. Try again in 1 second."


def test_footer_names_the_card_data(client):
    """The footer says which Scryfall bulk file the verdict was made with."""
    footer = soup_of(client.get("/")).select_one("footer").get_text()
    assert re.search(r"bulk file of 1 Nov 2026, 00:00 UTC, \d+ cards", footer)


def test_a_bug_is_a_500_page_that_keeps_the_list(client, monkeypatch):
    """An unexpected exception is logged and answered with the page, not a bare error."""
    def broken(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr("edh_service.pipeline.validate_text", broken)
    response = client.post("/", data={"decklist": LEGAL_DECK})
    soup = soup_of(response)
    assert response.status_code == 500
    assert "went wrong on our side" in soup.select_one(".alert").get_text()
    assert "engine bug" not in response.get_data(as_text=True)  # no internals leak
    assert soup.select_one("#decklist").get_text().strip() == LEGAL_DECK.strip()
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
