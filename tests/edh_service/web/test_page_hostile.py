"""The page and the API against hostile text (issue 19): right-to-left overrides in typed
names, names with double quotes in Scryfall links, charsets that are no text charsets, and
what /readyz says of a failing sync. Rendering is checked in Chromium, with and without
JavaScript (the server's page and static/app.js)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from bs4 import BeautifulSoup

from edh_service.api.responses import scryfall_search_url
from edh_service.web.views import isolate_names
from tests.support.apps import offline_app

VALIDATE = "/api/v1/validate"
FIXTURE_CARDS = Path(__file__).parents[2] / "fixtures" / "cards.jsonl"
RLO, PDF, FSI, PDI = "\u202e", "\u202c", "\u2068", "\u2069"
QUOTED = 'Kongming, "Sleeping Dragon"'
# An override in a typed name: line 6 is an unknown_card whose message quotes it.
RTL_DECK = f"Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n1 Sol {RLO}Ringg\n1 Lightning Bolt\n97 Forest\n"


def query_of(url: str) -> str:
    """The Scryfall query a search link asks for."""
    return parse_qs(urlsplit(url).query)["q"][0]


# --- Scryfall links ---------------------------------------------------------------------


@pytest.mark.parametrize(("name", "query"), [
    ("Sol Ring", '!"Sol Ring"'),
    ("Fire // Ice", '!"Fire // Ice"'),
    (QUOTED, 'name:/^Kongming, "Sleeping Dragon"$/'),  # `!"..."` would end at the first quote
    ('"Ach! Hans, Run!"', 'name:/^"Ach! Hans, Run!"$/'),
    ('A "b" (c) 1.5 $x/y [z]', r'name:/^A "b" \(c\) 1\.5 \$x\/y \[z\]$/'),
])
def test_an_exact_name_search_survives_double_quotes(name, query):
    assert query_of(scryfall_search_url(name)) == query


@pytest.fixture(scope="module")
def quoted_store(tmp_path_factory):
    """The fixture cards plus a legendary creature whose name holds double quotes."""
    from card_data.sync import import_file

    folder = tmp_path_factory.mktemp("quoted-store")
    lines = FIXTURE_CARDS.read_text(encoding="utf-8").splitlines()
    atraxa = json.loads(next(line for line in lines if '"name":"Atraxa' in line))
    cards = folder / "cards.jsonl"
    cards.write_text("\n".join(lines + [json.dumps({**atraxa, "name": QUOTED})]) + "\n", encoding="utf-8")
    db = folder / "cards.sqlite3"
    import_file(db, cards, updated_at="2026-11-01T00:00:00+00:00")
    return db


def test_the_page_links_a_quoted_name_to_its_exact_search(quoted_store, browser):
    """Server-rendered and app.js-rendered links to a commander named with double quotes
    both ask Scryfall for exactly that name."""
    from tests.edh_service.conftest import serving

    with serving(quoted_store) as url:
        for javascript in (False, True):
            context = browser.new_context(java_script_enabled=javascript)
            try:
                page = context.new_page()
                page.goto(url)
                page.fill("#decklist", f"Commander\n1 {QUOTED}\n\nDeck\n99 Forest\n")
                page.click("#submit")
                link = page.locator(".facts a.card").first
                link.wait_for()
                assert link.inner_text().startswith(QUOTED)
                assert query_of(link.get_attribute("href")) == 'name:/^Kongming, "Sleeping Dragon"$/', javascript
            finally:
                context.close()


# --- right-to-left overrides ------------------------------------------------------------


def test_isolate_names_closes_what_a_name_opens():
    name = f"Sol {RLO}Ringg"
    message = f'No card is named "{name}". Did you mean Sol Ring?'
    assert isolate_names(message, [name]) == f'No card is named "{FSI}{name}{PDF}{PDI}". Did you mean Sol Ring?'
    nested = "a\u2067b\u202dc"  # an isolate and an override left open
    assert isolate_names(nested, [nested]) == f"{FSI}{nested}{PDF}{PDI}{PDI}"
    assert isolate_names("Sol Ring is banned.", ["Sol Ring"]) == "Sol Ring is banned."  # plain names untouched


POSITIONS = """(root) => {
  // x of the first and last character of `text` inside `root`'s text, as laid out
  const x = (needle) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.indexOf(needle);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at); range.setEnd(node, at + 1);
      const first = range.getBoundingClientRect().left;
      range.setStart(node, at + needle.length - 1); range.setEnd(node, at + needle.length);
      return [first, range.getBoundingClientRect().left];
    }
    return null;
  };
  return x;
}"""


def measure(page, selector: str, needles: list[str]) -> dict[str, list[float]]:
    """The laid-out x of the first and last character of each needle inside `selector`."""
    return page.eval_on_selector(selector, f"(root) => {{ const x = ({POSITIONS})(root); "
                                           f"return Object.fromEntries({json.dumps(needles)}.map((n) => [n, x(n)])); }}")


@pytest.mark.parametrize("javascript", [False, True], ids=["server page", "app.js"])
def test_an_override_in_a_typed_name_reorders_nothing_around_it(live_url, browser, javascript):
    """`Sol <U+202E>Ringg` reversed the rest of its message ("Did you mean Sol Ring?" read
    backwards) and moved the closing quote of the name; the line's marks stay to the right
    of its text, in reading order."""
    context = browser.new_context(java_script_enabled=javascript, viewport={"width": 1100, "height": 1200})
    try:
        page = context.new_page()
        page.goto(live_url)
        page.fill("#decklist", RTL_DECK)
        page.click("#submit")
        page.wait_for_selector("#L6 .mark")
        selector = '.violation[data-code="unknown_card"]'
        words = measure(page, selector + " .message", ["No card is named", "Did you mean"])
        for needle, (first, last) in words.items():
            assert first < last, (needle, first, last)  # read left to right
        assert words["No card is named"][1] < words["Did you mean"][0]  # and in that order
        boxes = page.eval_on_selector(selector + " q.typed", """(q) => {
            const bdi = q.querySelector("bdi").getBoundingClientRect(), box = q.getBoundingClientRect();
            return [bdi.left - box.left, box.right - bdi.right]; }""")
        assert min(boxes) > 2, boxes  # an opening quote before the name and a closing one after it
        mark = measure(page, "#L6 .mark", ["unknown_card"])["unknown_card"]
        text = page.eval_on_selector("#L6 .text", "(node) => node.getBoundingClientRect().right")
        assert text <= mark[0] < mark[1], (text, mark)
    finally:
        context.close()


# --- charsets ---------------------------------------------------------------------------


@pytest.fixture
def page_client(fixture_db):
    return offline_app(fixture_db).test_client()


@pytest.mark.parametrize("charset", ["unicode_escape", "raw_unicode_escape", "utf-7", "UTF-7", "punycode",
                                     "idna", "charmap", "palmos", "undefined", "rot13", "klingon"])
def test_a_charset_that_is_no_text_charset_is_a_415(page_client, charset):
    """unicode_escape turned `\\ud800` into a lone surrogate (a 500) and decoded escapes nobody
    typed; utf-7 and the rest are no charset a list is sent in."""
    for body in (b"1 Sol Ring\n1 Forest\n", b"1 Sol Ring\\ud800\n"):
        response = page_client.post(VALIDATE, data=body, content_type=f"text/plain; charset={charset}")
        assert response.status_code == 415, (charset, response.status_code)
        envelope = response.get_json()
        assert envelope["code"] == 415 and charset in envelope["message"] and "UTF-8" in envelope["message"]


@pytest.mark.parametrize(("charset", "text"), [
    ("utf-8", "1 Lim-Dûl's Vault\n1 Sol Ring\n"),
    ("UTF8", "1 Lim-Dûl's Vault\n1 Sol Ring\n"),
    ("utf-16", "1 Lim-Dûl's Vault\n1 Sol Ring\n"),
    ("utf-16-le", "1 Lim-Dûl's Vault\n1 Sol Ring\n"),
    ("latin-1", "1 Lim-Dûl's Vault\n1 Sol Ring\n"),
    ("windows-1252", "1 Lim-Dûl's Vault\n1 Sol Ring\n"),
    ("iso-8859-15", "1 Lim-Dûl's Vault\n1 Sol Ring\n"),
    ("shift_jis", "1 Sol Ring\n"),
    ("koi8-r", "1 Sol Ring\n"),
])
def test_real_text_charsets_are_decoded_as_named(page_client, charset, text):
    response = page_client.post(VALIDATE, data=text.encode(charset), content_type=f"text/plain; charset={charset}")
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert not [v for v in response.get_json()["violations"] if v["code"] == "unknown_card"]


@pytest.mark.parametrize("charset", ["unicode_escape", "utf-7"])
def test_the_page_never_decodes_with_a_charset_the_client_names(page_client, charset):
    """The form post and the upload are read as UTF-8 (the upload: by BOM, UTF-8, else
    Windows-1252) whatever charset the request or the file part names: `\\u0041` stays
    six characters, never an escape decoded into an "A"."""
    typed = "1 Sol Ring\n1 Sol Rin\\u0067\n"
    posts = [
        page_client.post("/", data=("decklist=" + typed.replace("\n", "%0A").replace("\\", "%5C")).encode(),
                         content_type=f"application/x-www-form-urlencoded; charset={charset}"),
        page_client.post("/", data={"deckfile": (io.BytesIO(typed.encode()), "deck.txt", f"text/plain; charset={charset}")},
                         content_type="multipart/form-data"),
    ]
    for response in posts:
        assert response.status_code == 200
        soup = BeautifulSoup(response.get_data(as_text=True), "html.parser")
        assert soup.select_one("#L2 .text").get_text() == "1 Sol Rin\\u0067"
        assert soup.select_one('.violation[data-code="unknown_card"] q.typed').get_text() == "Sol Rin\\u0067"
