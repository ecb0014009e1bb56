"""The deck overview and the card previews in real headless Chromium, with and without JS.

The store here is the fixture cards with Scryfall CDN images added to a few of them (the
fixture and sample data have none). No test reaches the internet: Chromium's requests to
cards.scryfall.io are answered by Playwright's router with a small local SVG, and
recorded, so a test can tell when the page asked for an image.
"""

from __future__ import annotations

import json

import pytest

from tests.support.browser import AXE, axe_findings, requires_chromium, severe, submit
from tests.edh_service.conftest import FIXTURE_CARDS, serving
from tests.support.factories import ILLEGAL_DECK

pytestmark = requires_chromium

CDN = "https://cards.scryfall.io"
IMAGES = {  # the cards given an image in this module's store
    "Atraxa, Praetors' Voice": f"{CDN}/normal/front/d/0/d0d33d52.jpg?1",
    "Sol Ring": f"{CDN}/normal/front/e/4/e4f1b3d5.jpg?1",
    "Mana Crypt": f"{CDN}/normal/front/4/d/4d960186.jpg?1",
}
OFF_CDN = "Lightning Bolt"  # stored with an image on another host: the CSP would block it, so no preview
DECK = ILLEGAL_DECK + "1 Command Tower\n"  # 99 cards in the deck; Sol Rnig is unknown
# What validator.overview counts for DECK (every copy; the unknown name has no card).
CURVE = {"0": 1, "1": 3, "2": 0, "3": 0, "4": 1, "5": 0, "6": 0, "7+": 0}  # Crypt; Sol Ring x2, Bolt; Atraxa
COLORS = [("White", "1 (20%)", "1 of 93"), ("Blue", "1 (20%)", "1 of 93"), ("Black", "1 (20%)", "1 of 93"),
          ("Red", "1 (20%)", "0 of 93"), ("Green", "1 (20%)", "93 of 93")]  # Command Tower: Atraxa's WUBG
TYPES = [("Creature", "1"), ("Instant", "1"), ("Artifact", "3"), ("Land", "93")]
VIEWPORT = {"width": 1100, "height": 900}
CARD_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="488" height="680">'
            '<rect width="488" height="680" fill="#765"/></svg>')


@pytest.fixture(scope="module")
def preview_url(tmp_path_factory):
    """The app over the fixture cards, a few of them with images on Scryfall's CDN."""
    from card_data.sync import import_file

    folder = tmp_path_factory.mktemp("preview-store")
    records = []
    for line in FIXTURE_CARDS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["name"] in IMAGES:
            record["image_uris"] = {"normal": IMAGES[record["name"]]}
        elif record["name"] == OFF_CDN:
            record["image_uris"] = {"normal": "https://example.org/bolt.jpg"}
        records.append(json.dumps(record))
    (folder / "cards.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    import_file(folder / "cards.sqlite3", folder / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
    with serving(folder / "cards.sqlite3") as url:
        yield url


@pytest.fixture(params=(True, False), ids=("js", "no-js"))
def page(request, browser):
    """A page with JavaScript on or off; the CDN answered locally, its requests recorded."""
    context = browser.new_context(java_script_enabled=request.param, viewport=VIEWPORT)
    page = context.new_page()
    page.js = request.param
    page.cdn_requests = []
    page.errors = []
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))

    def answer(route):
        page.cdn_requests.append(route.request.url)
        route.fulfill(content_type="image/svg+xml", body=CARD_SVG)

    page.route(f"{CDN}/**", answer)
    yield page
    context.close()


def validate(page, url: str, deck: str = DECK) -> None:
    page.goto(url)
    page.fill("#decklist", deck)
    submit(page)
    page.wait_for_selector("#overview")


def table(page, chart: str) -> list[tuple[str, ...]]:
    """The rows of a chart's table fallback, header cell first."""
    return [tuple(cell.strip() for cell in row) for row in page.eval_on_selector_all(
        f'figure[data-chart="{chart}"] tbody tr', "rows => rows.map(r => [...r.cells].map(c => c.textContent))")]


def test_overview_is_drawn_labelled_and_right(page, preview_url):
    """Three SVG charts named by their <title>/<desc>, with the numbers of the deck, and tables."""
    validate(page, preview_url)
    charts = page.locator("#overview svg[role=img]")
    assert charts.count() == 3
    for index in range(3):
        svg = charts.nth(index)
        title_id, desc_id = svg.get_attribute("aria-labelledby").split()
        assert svg.locator(f"title#{title_id}").count() == 1 and svg.locator(f"desc#{desc_id}").count() == 1
    assert page.evaluate("[...document.querySelectorAll('#overview svg title')].map(t => t.textContent)") == [
        "Mana curve", "Color balance", "Card types"]
    curve_values = page.eval_on_selector_all('[data-chart="curve"] text.label-value', "ts => ts.map(t => t.textContent)")
    assert curve_values == [str(n) for n in CURVE.values()]
    assert page.text_content("#chart-curve-desc") == (
        "Nonland cards by mana value: 0: 1, 1: 3, 2: 0, 3: 0, 4: 1, 5: 0, 6: 0, 7+: 0.")
    # The tallest column is the 1-drops (3 cards): full height; 0 and 4 (1 card) a third of it.
    heights = page.eval_on_selector_all('[data-chart="curve"] rect', "rs => rs.map(r => +r.getAttribute('height'))")
    assert heights == [37, 110, 0, 0, 37, 0, 0, 0]
    assert table(page, "curve") == [(bucket, str(count)) for bucket, count in CURVE.items()]
    assert table(page, "colors") == COLORS
    assert table(page, "types") == TYPES
    # 99 cards in the deck, but the unknown name (Sol Rnig) has no card data to count.
    assert "99" in page.inner_text("#result .count-bad")
    assert "98 cards counted (commanders and main deck): 93 lands, 5 other." in page.inner_text("#overview")
    # The table fallback opens by keyboard too.
    page.focus('[data-chart="types"] summary')
    page.keyboard.press("Enter")
    assert page.locator('[data-chart="types"] table').is_visible()
    assert page.errors == []


def drawing(page) -> list:
    """Every element of the overview: tag, attributes (sorted) and own text, in order (hrefs
    decoded: encodeURIComponent leaves ! and ' as they are, Python's quote escapes them)."""
    return page.evaluate("""() => [...document.querySelectorAll('#overview, #overview *')].map((el) => [
        el.tagName.toLowerCase(),
        [...el.attributes].map((a) => [a.name, a.name === 'href' ? decodeURIComponent(a.value) : a.value]).sort(),
        [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join('')])""")


def test_javascript_draws_the_same_overview_as_the_server(browser, preview_url):
    """app.js builds the overview from the API block; element for element it is the server's."""
    drawn = {}
    for js in (True, False):
        context = browser.new_context(java_script_enabled=js, viewport=VIEWPORT)
        page = context.new_page()
        page.route(f"{CDN}/**", lambda route: route.fulfill(content_type="image/svg+xml", body=CARD_SVG))
        validate(page, preview_url)
        drawn[js] = drawing(page)
        context.close()
    assert len(drawn[False]) > 100
    assert drawn[True] == drawn[False]


def test_previews_markup_lazy_sized_on_the_cdn(page, preview_url):
    """Cards with a stored CDN image get a lazy, sized preview with alt text; others none."""
    validate(page, preview_url)
    page.click("#overview details.deck-cards summary")
    images = page.eval_on_selector_all("#result .card-ref img", """imgs => imgs.map(i => ({
        src: i.getAttribute('src'), alt: i.alt, loading: i.getAttribute('loading'),
        width: i.getAttribute('width'), height: i.getAttribute('height')}))""")
    assert {image["alt"] for image in images} == set(IMAGES)
    for image in images:
        assert image["src"] == IMAGES[image["alt"]]
        assert (image["loading"], image["width"], image["height"]) == ("lazy", "244", "340")
    # Forest (no image) and Lightning Bolt (an image off the CDN) are plain links.
    for name in ("Forest", OFF_CDN):
        links = page.locator("#result a.card", has_text=name)
        assert links.count() >= 1
        assert page.locator("#result .card-ref", has_text=name).count() == 0
    assert page.locator("#result img:not(.card-ref img)").count() == 0  # no other, broken, <img>
    # The banned card's violation names Mana Crypt with its preview.
    assert page.locator('li.violation[data-code="banned"] .card-ref img[alt="Mana Crypt"]').count() == 1


def test_preview_shows_on_hover_and_on_keyboard_focus(page, preview_url):
    """Hidden (and not fetched) until the name is hovered or focused; Escape hides it (JS)."""
    validate(page, preview_url)
    page.mouse.move(0, 0)  # the pointer off every card name (it was left on the submit button)
    ref = page.locator('li.violation[data-code="banned"] .card-ref')
    preview = ref.locator(".preview")
    assert not preview.is_visible()
    if page.js:  # lazy: nothing asked of the CDN before a preview shows
        assert page.cdn_requests == []
    # (The HTML standard turns lazy loading off where script is off, against tracking by
    # scroll position, so without JS Chromium fetches the images with the page.)
    ref.locator("a.card").hover()
    preview.locator("img").wait_for(state="visible")
    loaded = "(() => { const i = document.querySelector('li.violation[data-code=banned] .preview img'); " \
             "return i.complete && i.naturalWidth > 0; })()"
    for _ in range(100):  # polled here: wait_for_function evaluates through eval, which the CSP refuses
        if page.evaluate(loaded):
            break
        page.wait_for_timeout(50)
    if page.js:
        assert page.cdn_requests == [IMAGES["Mana Crypt"]]
    assert IMAGES["Mana Crypt"] in page.cdn_requests
    assert page.evaluate(loaded)  # the image arrived and was allowed by the CSP
    page.mouse.move(0, 0)
    preview.wait_for(state="hidden")
    ref.locator("a.card").focus()  # keyboard focus alone shows it
    preview.wait_for(state="visible")
    if page.js:
        page.keyboard.press("Escape")
        preview.wait_for(state="hidden")
    assert page.errors == []  # no CSP report: the CDN host is allowed


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: run `make test` (npm ci)")
@pytest.mark.parametrize("scheme", ("light", "dark"))
@pytest.mark.parametrize("js", (True, False), ids=("js", "no-js"))
def test_axe_finds_nothing_serious_with_the_overview(browser, preview_url, js, scheme):
    """The overview open (tables and card lists too) and a preview showing: nothing serious."""
    context = browser.new_context(java_script_enabled=js, color_scheme=scheme, viewport=VIEWPORT)
    page = context.new_page()
    page.route(f"{CDN}/**", lambda route: route.fulfill(content_type="image/svg+xml", body=CARD_SVG))
    validate(page, preview_url)
    if not js:  # axe needs script: audit the no-JS DOM as it stands in a JS context, app.js empty
        url, html = page.url, page.content()
        context.close()
        context = browser.new_context(color_scheme=scheme, viewport=VIEWPORT)
        page = context.new_page()
        page.route(f"{CDN}/**", lambda route: route.fulfill(content_type="image/svg+xml", body=CARD_SVG))
        page.route("**/static/app.js", lambda route: route.fulfill(content_type="text/javascript", body=""))
        page.route(url, lambda route: route.fulfill(content_type="text/html; charset=utf-8", body=html))
        page.goto(url)
    page.evaluate("document.querySelectorAll('#overview details').forEach((d) => { d.open = true; })")
    page.focus('li.violation[data-code="banned"] .card-ref a')
    assert page.locator("#overview svg[role=img]").count() == 3
    findings = axe_findings(page)
    context.close()
    assert severe(findings) == []
