"""Contract tests of the HTTP API against a real store built from tests/fixtures/cards.jsonl.

Every documented endpoint and status: 200 legal and illegal (codes, cards and lines
asserted), batch order, cards with suggestions, readiness, CORS, the OpenAPI document.
"""

from __future__ import annotations

import json

import pytest

from tests.support.factories import BASICS, COMMANDER, SPELLS, deck_text
from validator.parse import MAX_LINES
from validator import ENGINE

VALIDATE = "/api/v1/validate"
BATCH = "/api/v1/validate/batch"
FIXTURE_UPDATED_AT = "2026-11-01T00:00:00+00:00"  # what conftest's fixture_db was built with

LEGAL = deck_text()
# Line numbers in deck_text(): 1 "Commander", 2 the commander, 3 blank, 4 "Deck", 5.. spells.
FIRST_SPELL_LINE = 5
AFTER_BASICS_LINE = FIRST_SPELL_LINE + len(SPELLS) + len(BASICS)




@pytest.fixture
def app_config() -> dict:
    """The shared fixture-store app, with one allowed CORS origin."""
    return {"CORS_ORIGINS": ("https://decks.example",)}


def codes(body: dict) -> list[str]:
    """The violation codes of a response, in order."""
    return [v["code"] for v in body["violations"]]


def only(body: dict, code: str) -> dict:
    """The one violation with this code."""
    found = [v for v in body["violations"] if v["code"] == code]
    assert len(found) == 1, body["violations"]
    return found[0]


def test_legal_deck_is_200_valid_with_the_design_shape(client):
    response = client.post(VALIDATE, json={"decklist": LEGAL})
    assert response.status_code == 200
    body = response.get_json()
    assert list(body) == ["valid", "format", "decklist_format", "commanders", "companion", "signature_spells",
                          "color_identity", "card_count", "violations", "translated", "bracket", "house_rules", "card_data"]
    assert body["violations"] == []
    assert body["valid"] is True
    assert body["format"] == "commander"
    assert body["commanders"] == [COMMANDER]
    assert body["companion"] is None
    assert body["color_identity"] == ["W", "U", "B", "G"]  # WUBRG order
    assert body["card_count"] == 100
    assert body["card_data"] == {"source": "file:cards.jsonl", "updated_at": FIXTURE_UPDATED_AT}


def test_text_plain_body_gives_the_same_answer_as_json(client):
    from_json = client.post(VALIDATE, json={"decklist": LEGAL}).get_json()
    response = client.post(VALIDATE, data=LEGAL.encode(), content_type="text/plain; charset=utf-8")
    assert response.status_code == 200
    assert response.get_json() == from_json


def test_text_plain_with_a_byte_order_mark_still_reads_line_one(client):
    body = "\ufeff" + LEGAL
    response = client.post(VALIDATE, data=body.encode(), content_type="text/plain")
    assert response.get_json()["commanders"] == [COMMANDER]


@pytest.mark.parametrize(("text", "code", "cards", "lines"), (
    (deck_text(extra=("1 Lightning Bolt",)), "color_identity", ["Lightning Bolt"], [AFTER_BASICS_LINE]),
    (deck_text(extra=("1 Mana Crypt",)), "banned", ["Mana Crypt"], [AFTER_BASICS_LINE]),
    (deck_text(extra=("1 Blacker Lotus",)), "not_legal", ["Blacker Lotus"], [AFTER_BASICS_LINE]),
    (deck_text(extra=("1 Sol Ring",)), "singleton", ["Sol Ring"], [FIRST_SPELL_LINE, AFTER_BASICS_LINE]),
    (deck_text(extra=("1 Academy at Tolaria West",)), "non_deck_card", ["Academy at Tolaria West"],
     [AFTER_BASICS_LINE]),
    (deck_text(commander="Lightning Bolt", basics=(("Forest", 20), ("Island", 20), ("Plains", 20),
                                                   ("Swamp", 19))),
     "commander_ineligible", ["Lightning Bolt"], [2]),
))
def test_illegal_deck_is_200_with_the_violation(client, text, code, cards, lines):
    response = client.post(VALIDATE, json={"decklist": text})
    assert response.status_code == 200
    body = response.get_json()
    assert body["valid"] is False
    violation = only(body, code)
    assert violation["cards"] == cards
    assert violation["lines"] == lines
    assert violation["severity"] == "error"
    assert violation["message"]
    assert "suggestions" not in violation  # only unknown_card carries them


def test_deck_size_counts_the_commander(client):
    body = client.post(VALIDATE, json={"decklist": deck_text(basics=(("Forest", 10),))}).get_json()
    assert codes(body) == ["deck_size"]
    assert body["card_count"] == 1 + len(SPELLS) + 10
    assert only(body, "deck_size")["rule"] == "903.5a"


def test_unknown_card_has_suggestions_and_still_counts(client):
    text = deck_text(basics=(("Forest", 20), ("Island", 20), ("Plains", 20), ("Swamp", 18)),
                     extra=("1 Sol Rnig",))
    body = client.post(VALIDATE, json={"decklist": text}).get_json()
    assert codes(body) == ["unknown_card"]  # counted: no deck_size as well
    violation = only(body, "unknown_card")
    assert violation["cards"] == ["Sol Rnig"]
    assert violation["lines"] == [AFTER_BASICS_LINE]
    assert "Sol Ring" in violation["suggestions"]
    assert len(violation["suggestions"]) <= 3
    assert body["card_count"] == 100


def test_commanders_override_designates_them(client):
    text = "\n".join(["1 Thrasios, Triton Hero", "1 Tymna the Weaver", *deck_text().splitlines()[4:]])
    body = client.post(VALIDATE, json={
        "decklist": text, "commanders": ["Thrasios, Triton Hero", "Tymna the Weaver"],
    }).get_json()
    assert body["commanders"] == ["Thrasios, Triton Hero", "Tymna the Weaver"]
    assert body["color_identity"] == ["W", "U", "B", "G"]
    assert "commander_missing" not in codes(body)
    assert "partner_pairing" not in codes(body)


def test_text_plain_takes_overrides_as_query_parameters(client):
    text = deck_text().replace(f"Commander\n1 {COMMANDER}\n", "").replace("Deck\n", "")
    response = client.post(VALIDATE + "?commanders=Zilortha,%20Strength%20Incarnate&decklist_format=text",
                           data=text.encode(), content_type="text/plain")
    body = response.get_json()
    assert body["commanders"] == ["Zilortha, Strength Incarnate"]
    assert body["decklist_format"] == "text"
    # Atraxa's colors are gone with her: the WUB cards are now outside R/G.
    outside = {card for v in body["violations"] if v["code"] == "color_identity" for card in v["cards"]}
    assert {"Counterspell", "Swords to Plowshares", "Demonic Tutor"} <= outside
    assert "Cultivate" not in outside


@pytest.mark.parametrize(("query", "repeated"), (
    ("format=commander&format=commander", "format"),
    ("decklist_format=text&decklist_format=arena", "decklist_format"),
    ("companion=Lurrus%20of%20the%20Dream-Den&companion=Jegantha,%20the%20Wellspring", "companion"),
    ("decklist_format=text&bracket=2&companion=Lurrus%20of%20the%20Dream-Den&companion=Yorion,%20Sky%20Nomad",
     "companion"),
))
def test_a_single_valued_query_option_given_twice_is_a_422_naming_it(client, query, repeated):
    """Only the first value was used, silently; commanders and include are lists (repeat them)."""
    response = client.post(f"{VALIDATE}?{query}", data=LEGAL.encode(), content_type="text/plain")
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == 422
    assert list(body["errors"]) == [repeated]
    assert "more than once" in body["errors"][repeated][0] and repeated in body["message"]
    # a JSON body does not make a repeated query option less ambiguous
    assert client.post(f"{VALIDATE}?{query}", json={"decklist": LEGAL}).status_code == 422


def test_list_query_options_may_be_repeated(client):
    text = deck_text().replace(f"Commander\n1 {COMMANDER}\n", "").replace("Deck\n", "")
    response = client.post(VALIDATE + "?commanders=Thrasios,%20Triton%20Hero&commanders=Tymna%20the%20Weaver"
                           "&include=overview", data=text.encode(), content_type="text/plain")
    assert response.status_code == 200
    body = response.get_json()
    assert body["commanders"] == ["Thrasios, Triton Hero", "Tymna the Weaver"] and "overview" in body


def test_quantities_written_1_x_name_and_name_x2_are_counted_not_unknown_cards(client):
    """`1 x Sol Ring` was the unknown card "x Sol Ring", `Forest x20` the unknown "Forest x20"."""
    text = LEGAL.replace("1 Sol Ring\n", "1 x Sol Ring\n").replace("20 Forest\n", "Forest x20\n")
    text = text.replace("20 Island\n", "Island x 20\n").replace("1 Command Tower\n", "Command Tower x1\n")
    assert "x20" in text and "x 20" in text and "1 x Sol" in text
    response = client.post(VALIDATE, data=text.encode(), content_type="text/plain")
    assert response.status_code == 200
    body = response.get_json()
    assert (body["valid"], body["card_count"], body["violations"]) == (True, 100, [])
    # a real typo is still one
    body = client.post(VALIDATE, json={"decklist": text.replace("1 x Sol Ring", "1 x Sol Rnig")}).get_json()
    assert only(body, "unknown_card")["cards"] == ["Sol Rnig"]


def test_color_choices_pick_the_piper_color(client):
    text = deck_text(commander="The Prismatic Piper", spells=("Lightning Bolt",),
                     basics=(("Mountain", 98),))
    chosen = client.post(VALIDATE, json={"decklist": text,
                                         "color_choices": {"The Prismatic Piper": "R"}}).get_json()
    assert chosen["color_identity"] == ["R"]
    assert "color_identity" not in codes(chosen)


def test_batch_answers_in_request_order(client):
    decks = [
        {"decklist": deck_text(extra=("1 Mana Crypt",))},
        {"decklist": LEGAL},
        {"decklist": deck_text(basics=(("Forest", 1),))},
        {"decklist": LEGAL, "commanders": ["Lightning Bolt"]},
    ]
    response = client.post(BATCH, json={"decks": decks})
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert [r["valid"] for r in results] == [False, True, False, False]
    assert "banned" in codes(results[0])
    assert codes(results[1]) == []
    assert codes(results[2]) == ["deck_size"]
    assert "commander_ineligible" in codes(results[3])
    single = client.post(VALIDATE, json=decks[0]).get_json()
    assert results[0] == single  # a batch entry is exactly the single answer


def test_batch_refuses_a_deck_the_parser_refuses(client):
    huge = "1 Forest\n" * (MAX_LINES + 1)
    response = client.post(BATCH, json={"decks": [{"decklist": LEGAL}, {"decklist": huge}]})
    assert response.status_code == 422
    assert list(response.get_json()["errors"]["decks"]) == ["1"]


def test_decklist_error_is_422(client):
    response = client.post(VALIDATE, data=("1 Forest\n" * (MAX_LINES + 1)).encode(), content_type="text/plain")
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] == 422 and "decklist" in body["errors"]


@pytest.mark.parametrize(("path", "name", "eligible", "pairing"), (
    ("Thrasios,%20Triton%20Hero", "Thrasios, Triton Hero", True, ["Partner"]),
    ("thrasios, triton hero", "Thrasios, Triton Hero", True, ["Partner"]),  # any case
    ("Fire%20//%20Ice", "Fire // Ice", False, []),  # a slash in the name
    ("Fire%20%2F%2F%20Ice", "Fire // Ice", False, []),  # and an encoded one
    ("Stomp", "Bonecrusher Giant // Stomp", False, []),  # a face name
    ("Sol%20Ring", "Sol Ring", False, []),
))
def test_card_lookup(client, path, name, eligible, pairing):
    response = client.get(f"/api/v1/cards/{path}")
    assert response.status_code == 200
    body = response.get_json()
    assert body["name"] == name
    assert body["commander"]["eligible"] is eligible
    assert (body["commander"]["reason"] is None) is eligible
    assert body["pairing_abilities"] == pairing
    assert body["legality"] == "legal"
    assert body["scryfall_uri"].startswith("https://scryfall.com/")


def test_card_lookup_reports_identity_and_legality(client):
    body = client.get("/api/v1/cards/Mana%20Crypt").get_json()
    assert (body["legality"], body["color_identity"]) == ("banned", [])
    body = client.get("/api/v1/cards/Atraxa,%20Praetors'%20Voice").get_json()
    assert body["color_identity"] == ["W", "U", "B", "G"]


def test_unknown_card_is_404_with_suggestions(client):
    response = client.get("/api/v1/cards/Sol%20Rnig")
    assert response.status_code == 404
    body = response.get_json()
    assert body["code"] == 404 and body["status"] == "Not Found"
    assert body["errors"]["name"] == "Sol Rnig"
    assert "Sol Ring" in body["errors"]["suggestions"]


def test_readyz_reports_the_store(client, fixture_db):
    import sqlite3

    with sqlite3.connect(fixture_db) as conn:
        cards = conn.execute("SELECT count(*) FROM cards").fetchone()[0]
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ready",
                                   "card_data": {"updated_at": FIXTURE_UPDATED_AT, "cards": cards},
                                   "bracket_lists": {"mass_land_denial": None, "two_card_combos": None},
                                   "format_lists": {"pauper_commanders": None},
                                   "card_names": {"languages": [], "names": 0, "updated_at": None},
                                   "engine": ENGINE}


def test_cors_on_a_successful_validation(client):
    response = client.post(VALIDATE, json={"decklist": LEGAL}, headers={"Origin": "https://decks.example"})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "https://decks.example"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_openapi_document_lists_every_endpoint(client):
    spec = client.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) == {"/api/v1/validate", "/api/v1/validate/batch", "/api/v1/cards/{name}",
                                  "/api/v1/formats", "/api/v1/house-rules", "/healthz", "/readyz"}
    report = spec["components"]["schemas"]["Report"]
    assert set(report["required"]) >= {"valid", "format", "commanders", "companion", "color_identity",
                                       "card_count", "violations", "card_data"}
    request_schema = spec["components"]["schemas"]["ValidateRequest"]
    assert "required" not in request_schema  # exactly one of the two:
    assert request_schema["oneOf"] == [{"required": ["decklist"]}, {"required": ["url"]}]
    assert request_schema["additionalProperties"] is False  # unknown fields are a 422


def test_openapi_documents_the_rate_limit_and_what_batch_accepts(client):
    """Every /api/ operation can answer 429 (RATELIMIT) with Retry-After; batch takes JSON only."""
    spec = client.get("/openapi.json").get_json()
    for path, operations in spec["paths"].items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            too_many = operation["responses"].get("429")
            assert too_many, f"{method.upper()} {path} does not document 429"
            assert "Retry-After" in too_many["headers"]
    batch_415 = spec["paths"]["/api/v1/validate/batch"]["post"]["responses"]["415"]["description"]
    assert "text/plain" not in batch_415  # text/plain is a 415 there
    assert client.post(BATCH, data="1 Sol Ring", content_type="text/plain").status_code == 415


def test_docs_page_is_plain_html_under_a_strict_policy(client):
    response = client.get("/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "/api/v1/validate/batch" in html and "<script" not in html
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "unsafe-inline" not in policy


def test_dump_report_is_json_ready(client):
    """The CLI's --format json uses dump_report directly; it must serialise as is."""
    from edh_service.api.responses import dump_report
    from edh_service.pipeline import validate_text

    repository = client.application.extensions["card_repository"]
    report = validate_text(deck_text(extra=("1 Sol Rnig",)), repository).report
    body = dump_report(report, {"source": "scryfall", "updated_at": "2026-11-30T10:04:21+00:00"})
    assert json.loads(json.dumps(body)) == body
    assert body["card_data"]["updated_at"] == "2026-11-30T10:04:21+00:00"
    assert only(body, "unknown_card")["suggestions"]
