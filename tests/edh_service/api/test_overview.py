"""The deck overview and the card previews over HTTP: the API's opt-in `overview` block (its
contract and OpenAPI entry) and the server-rendered page without JavaScript (Beautiful Soup).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from edh_service.api import responses
from tests.support.apps import offline_app
from tests.support.factories import ILLEGAL_DECK

VALIDATE = "/api/v1/validate"
BATCH = "/api/v1/validate/batch"
FIXTURE_CARDS = Path(__file__).parents[2] / "fixtures" / "cards.jsonl"
SOL_RING_IMAGE = "https://cards.scryfall.io/normal/front/e/4/e4f1b3d5.jpg?1"
DECK = ILLEGAL_DECK + "1 Command Tower\n\nSideboard\n1 Counterspell\n"
OVERVIEW = {  # DECK's overview: the unknown Sol Rnig and the sideboard are not counted
    "cards": 98,
    "lands": 93,
    "curve": {"0": 1, "1": 3, "2": 0, "3": 0, "4": 1, "5": 0, "6": 0, "7+": 0},
    "cost_symbols": {"W": 1, "U": 1, "B": 1, "R": 1, "G": 1, "C": 0},
    "land_sources": {"W": 1, "U": 1, "B": 1, "R": 0, "G": 93, "C": 0},  # Command Tower: Atraxa's colors
    "types": {"Creature": 1, "Instant": 1, "Artifact": 3, "Land": 93},
    "cards_by_type": {
        "Creature": [{"name": "Atraxa, Praetors' Voice", "quantity": 1}],
        "Instant": [{"name": "Lightning Bolt", "quantity": 1}],
        "Artifact": [{"name": "Mana Crypt", "quantity": 1}, {"name": "Sol Ring", "quantity": 2}],
        "Land": [{"name": "Command Tower", "quantity": 1}, {"name": "Forest", "quantity": 92}],
    },
}


@pytest.fixture
def image_client(tmp_path):
    """An app whose store has a CDN image for Sol Ring and Counterspell, and one off the CDN."""
    from card_data.sync import import_file

    images = {"Sol Ring": SOL_RING_IMAGE, "Counterspell": SOL_RING_IMAGE.replace("e4f1", "c0c0"),
              "Lightning Bolt": "https://example.org/bolt.jpg"}
    lines = []
    for line in FIXTURE_CARDS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["name"] in images:
            record["image_uris"] = {"small": "https://cards.scryfall.io/small/x.jpg", "normal": images[record["name"]]}
        lines.append(json.dumps(record))
    (tmp_path / "cards.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_file(tmp_path / "cards.sqlite3", tmp_path / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
    return offline_app(tmp_path / "cards.sqlite3").test_client()


# --- the API block ------------------------------------------------------------------------


def test_overview_is_absent_unless_asked(client):
    """The response shape DESIGN fixes stays as it was: no `overview` key by default."""
    body = client.post(VALIDATE, json={"decklist": DECK}).get_json()
    assert "overview" not in body
    assert set(body) == {"valid", "format", "decklist_format", "commanders", "companion", "signature_spells",
                         "color_identity", "card_count", "violations", "translated", "bracket", "house_rules",
                         "card_data"}


def test_overview_block_has_the_decks_numbers(client):
    body = client.post(VALIDATE, json={"decklist": DECK, "include": ["overview"]}).get_json()
    overview = body["overview"]
    assert {key: overview[key] for key in OVERVIEW} == OVERVIEW
    assert overview["images"] == {}  # the fixture cards have no images
    assert body["card_count"] == 99 and "unknown_card" in [v["code"] for v in body["violations"]]


def test_overview_by_query_parameter_for_a_text_body(client):
    response = client.post(f"{VALIDATE}?include=overview", data=DECK, content_type="text/plain")
    assert response.status_code == 200
    assert response.get_json()["overview"]["curve"] == OVERVIEW["curve"]


def test_batch_items_ask_for_it_each(client):
    body = client.post(BATCH, json={"decks": [{"decklist": DECK, "include": ["overview"]},
                                              {"decklist": DECK}]}).get_json()
    first, second = body["results"]
    assert first["overview"]["types"] == OVERVIEW["types"]
    assert "overview" not in second


@pytest.mark.parametrize("include", (["images"], "overview", [1], ["overview"] * 3))
def test_unknown_include_is_422(client, include):
    response = client.post(VALIDATE, json={"decklist": DECK, "include": include})
    assert response.status_code == 422
    assert "include" in response.get_json()["errors"]


def test_unknown_include_query_parameter_is_422(client):
    response = client.post(f"{VALIDATE}?include=charts", data=DECK, content_type="text/plain")
    assert response.status_code == 422
    assert "include" in response.get_json()["errors"]


def test_images_are_the_stored_cdn_ones_of_listed_cards(image_client):
    """Every listed card with a CDN image (the sideboard's too); an off-CDN URL is left out."""
    overview = image_client.post(VALIDATE, json={"decklist": DECK, "include": ["overview"]}).get_json()["overview"]
    assert overview["images"] == {"Sol Ring": SOL_RING_IMAGE, "Counterspell": SOL_RING_IMAGE.replace("e4f1", "c0c0")}


def test_openapi_documents_the_block_and_the_include(client):
    spec = client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    report = schemas["Report"]
    assert "overview" in report["properties"] and "overview" not in report.get("required", [])
    overview = schemas["Overview"]
    assert set(overview["required"]) == {"cards", "lands", "curve", "cost_symbols", "land_sources", "types",
                                         "cards_by_type", "images"}
    assert set(schemas["Curve"]["properties"]) == set(OVERVIEW["curve"])
    include = schemas["ValidateRequest"]["properties"]["include"]
    assert include["items"]["enum"] == ["overview", "formats"]
    parameters = spec["paths"][VALIDATE]["post"]["parameters"]
    assert any(p["name"] == "include" and p["in"] == "query" for p in parameters)


# --- the page without JavaScript -------------------------------------------------------------


def soup_of(response) -> BeautifulSoup:
    assert response.status_code == 200
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def test_page_draws_the_overview_as_labelled_svg(client):
    soup = soup_of(client.post("/", data={"decklist": DECK}))
    section = soup.select_one("section#overview")
    assert section["aria-labelledby"] == "overview-heading"
    svgs = section.select("svg[role=img]")
    assert [svg.select_one("title").get_text() for svg in svgs] == ["Mana curve", "Color balance", "Card types"]
    for svg in svgs:
        title, desc = svg["aria-labelledby"].split()
        assert svg.select_one(f"title#{title}") and svg.select_one(f"desc#{desc}").get_text()
        assert svg.select("rect") and not svg.select("[style]")  # presentation attributes, no inline style
    curve = section.select_one('[data-chart="curve"]')
    assert [t.get_text() for t in curve.select("text.label-value")] == [str(n) for n in OVERVIEW["curve"].values()]
    assert [[c.get_text() for c in row.select("th, td")] for row in curve.select("tbody tr")] == [
        [bucket, str(n)] for bucket, n in OVERVIEW["curve"].items()]
    types = section.select_one('[data-chart="types"]')
    assert [[c.get_text() for c in row.select("th, td")] for row in types.select("tbody tr")] == [
        [kind, str(n)] for kind, n in OVERVIEW["types"].items()]
    colors = section.select_one('[data-chart="colors"] desc').get_text()
    assert "Green: 1 symbol (20%), 93 of 93 lands" in colors
    # The table fallback is a <details> a keyboard opens; its table has headers.
    assert section.select_one('[data-chart="curve"] details summary').get_text() == "Mana curve as a table"
    assert section.select('[data-chart="colors"] thead th')[2].get_text() == "Lands producing it"


def test_page_lists_the_cards_by_type(client):
    soup = soup_of(client.post("/", data={"decklist": DECK}))
    groups = {group["data-type"]: [(li.select_one(".copies").get_text(), li.select_one("a.card").contents[0])
                                   for li in group.select("li")]
              for group in soup.select("#overview .type-group")}
    assert groups == {kind: [(str(c["quantity"]), c["name"]) for c in cards]
                      for kind, cards in OVERVIEW["cards_by_type"].items()}


def test_page_without_images_has_no_preview_and_no_img(client):
    soup = soup_of(client.post("/", data={"decklist": DECK}))
    assert soup.select(".card-ref, .preview, img") == []


def test_page_previews_only_cdn_images(image_client):
    soup = soup_of(image_client.post("/", data={"decklist": DECK}))
    previews = soup.select(".card-ref")
    assert previews  # the artifact list and the sideboard warning name Sol Ring / Counterspell
    for ref in previews:
        name = ref.select_one("a.card").contents[0]
        img = ref.select_one(".preview img")
        assert ref.select_one(".preview")["aria-hidden"] == "true"
        assert img["alt"] == name and img["src"].startswith(responses.IMAGE_HOST + "/")
        assert (img["loading"], img["width"], img["height"]) == ("lazy", "244", "340")
    assert {ref.select_one("a.card").contents[0] for ref in previews} == {"Sol Ring", "Counterspell"}
    assert len(soup.select("img")) == len(previews)  # Lightning Bolt's off-CDN image: no <img> at all


def test_csp_allows_images_from_the_cdn_only(client):
    policy = dict(part.strip().split(" ", 1) for part in client.get("/").headers["Content-Security-Policy"].split(";"))
    assert policy["img-src"] == f"'self' {responses.IMAGE_HOST}"


def test_empty_page_has_no_overview(client):
    soup = soup_of(client.get("/"))
    assert soup.select_one("#overview") is None
