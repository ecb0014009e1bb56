"""Decklists in other languages through the API (issue 23): the translated block, singleton
across languages, ambiguous_card, foreign names in every request field, batch, /readyz and
the OpenAPI document; over the fixture store with tests/fixtures/names/ loaded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_data.names import sync as names_sync
from edh_service.api.schemas import ReportSchema
from tests.support.apps import offline_app
from tests.support.factories import (
    FOREIGN_BASICS, FOREIGN_SPELLS, PRINTED_NAMES, deck_text, load_card_names,
)

VALIDATE = "/api/v1/validate"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# Line 2 the commander; spells from line 5; the basics after the 20 spells (lines 25-29).
SPANISH_DECK = deck_text(commander="Atraxa, voz de los pretores", spells=FOREIGN_SPELLS, basics=FOREIGN_BASICS)


@pytest.fixture
def app(fixture_db):
    load_card_names(fixture_db)
    return offline_app(fixture_db)


def violation(body: dict, code: str) -> dict:
    found = [v for v in body["violations"] if v["code"] == code]
    assert len(found) == 1, body["violations"]
    return found[0]


def test_a_deck_in_other_languages_is_judged_with_the_english_cards(client):
    body = client.post(VALIDATE, json={"decklist": SPANISH_DECK}).get_json()
    assert body["violations"] == [] and body["valid"] is True
    assert body["commanders"] == ["Atraxa, Praetors' Voice"]
    assert body["card_count"] == 100 and body["color_identity"] == ["W", "U", "B", "G"]
    assert body["translated"] == [
        {"name": "Atraxa, voz de los pretores", "card": "Atraxa, Praetors' Voice", "lang": "es", "lines": [2]},
        {"name": "Contrahechizo", "card": "Counterspell", "lang": "es", "lines": [8]},
        {"name": "Espadas en rejas de arado", "card": "Swords to Plowshares", "lang": "es", "lines": [10]},
        {"name": "Isla", "card": "Island", "lang": "es", "lines": [26]},
        {"name": "Île", "card": "Island", "lang": "fr", "lines": [27]},
    ]  # "Sol-Ring" (line 5) is read as English: the loose match comes first
    assert ReportSchema().validate(body) == {}


def test_an_english_deck_says_translated_is_empty(client):
    body = client.post(VALIDATE, json={"decklist": deck_text()}).get_json()
    assert body["translated"] == [] and body["valid"] is True


def test_one_card_in_two_languages_is_two_copies(client):
    text = SPANISH_DECK.replace("1 Brainstorm\n", "1 Counterspell\n")  # line 9; Contrahechizo is line 8
    body = client.post(VALIDATE, json={"decklist": text}).get_json()
    singleton = violation(body, "singleton")
    assert singleton["cards"] == ["Counterspell"] and singleton["lines"] == [8, 9]
    assert "Contrahechizo" not in singleton["message"]  # violations speak English
    assert {entry["name"] for entry in body["translated"]} >= {"Contrahechizo"}
    assert body["card_count"] == 100


def test_a_name_printed_for_two_cards_is_ambiguous_card_and_still_counts(client, fixture_db, tmp_path):
    extra = tmp_path / "ambiguous.jsonl"
    extra.write_text("".join(json.dumps(o) + "\n" for o in (
        {"object": "card", "name": "Negate", "lang": "it", "printed_name": "Negare"},
        {"object": "card", "name": "Brainstorm", "lang": "it", "printed_name": "Negare"},
    )), encoding="utf-8")
    names_sync.import_names(fixture_db, FIXTURES / PRINTED_NAMES, extra)
    text = SPANISH_DECK.replace("1 Brainstorm\n", "1 Negare\n")
    body = client.post(VALIDATE, json={"decklist": text}).get_json()
    ambiguous = violation(body, "ambiguous_card")
    assert ambiguous["severity"] == "error" and ambiguous["cards"] == ["Negare"] and ambiguous["lines"] == [9]
    assert ambiguous["suggestions"] == ["Brainstorm", "Negate"]
    assert "Brainstorm or Negate" in ambiguous["message"]
    assert body["card_count"] == 100 and body["valid"] is False
    assert [v["code"] for v in body["violations"]] == ["ambiguous_card"]  # no deck_size, no unknown_card
    assert "Negare" not in {entry["name"] for entry in body["translated"]}


def test_foreign_names_in_every_request_field(client):
    text = deck_text(commander="The Prismatic Piper", spells=FOREIGN_SPELLS[:19], basics=FOREIGN_BASICS)
    body = client.post(VALIDATE, json={
        "decklist": text,
        "commanders": ["El flautista prismático", "Tymna la Tejedora"],
        "color_choices": {"El flautista prismático": "W"},
    }).get_json()
    assert body["commanders"] == ["The Prismatic Piper", "Tymna the Weaver"]
    translated = {entry["name"]: entry for entry in body["translated"]}
    assert translated["Tymna la Tejedora"] == {"name": "Tymna la Tejedora", "card": "Tymna the Weaver",
                                               "lang": "es", "lines": []}  # named only in the request
    assert translated["El flautista prismático"]["lines"] == []
    assert "color_choice" not in {v["code"] for v in body["violations"]}
    assert "W" in body["color_identity"]


def test_a_foreign_companion_is_read_too(client):
    body = client.post(VALIDATE, json={"decklist": SPANISH_DECK, "companion": "Contrahechizo"}).get_json()
    assert body["companion"] == "Counterspell"
    assert violation(body, "companion_ineligible")["cards"] == ["Counterspell"]


def test_batch_results_carry_their_own_translations(client):
    body = client.post(VALIDATE + "/batch", json={"decks": [{"decklist": SPANISH_DECK},
                                                            {"decklist": deck_text()}]}).get_json()
    first, second = body["results"]
    assert [entry["name"] for entry in first["translated"]][:2] == ["Atraxa, voz de los pretores", "Contrahechizo"]
    assert second["translated"] == []


def test_a_text_plain_body_in_spanish(client):
    response = client.post(VALIDATE, data=SPANISH_DECK.encode(), content_type="text/plain; charset=utf-8")
    assert response.status_code == 200 and response.get_json()["valid"] is True


def test_readyz_shows_the_names_table(client):
    body = client.get("/readyz").get_json()
    assert body["card_names"] == {"languages": ["de", "es", "fr", "ja", "ru"], "names": 26,
                                  "updated_at": "2026-11-29T00:00:00+00:00"}


def test_readyz_shows_no_names_when_the_languages_are_off(fixture_db):
    load_card_names(fixture_db)
    client = offline_app(fixture_db, CARD_NAME_LANGUAGES=()).test_client()
    assert client.get("/readyz").get_json()["card_names"] == {"languages": [], "names": 0, "updated_at": None}
    body = client.post(VALIDATE, json={"decklist": SPANISH_DECK}).get_json()
    unknown = sorted(name for v in body["violations"] if v["code"] == "unknown_card" for name in v["cards"])
    assert unknown == sorted(["Atraxa, voz de los pretores", "Contrahechizo", "Espadas en rejas de arado", "Isla", "Île"])
    assert body["translated"] == [] and body["card_count"] == 100


def test_openapi_documents_translated_and_ambiguous_card(client):
    spec = client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    assert "translated" in schemas["Report"]["required"]
    translated = schemas["Translated"]
    assert set(translated["required"]) == {"name", "card", "lang", "lines"}
    assert "ambiguous_card" in schemas["Violation"]["properties"]["code"]["enum"]
    assert "card_names" in schemas["Ready"]["required"]


def test_signature_spells_named_in_another_language(app):
    """Oathbreaker's signature_spells designation resolves foreign names like commanders."""
    from edh_service import pipeline
    from edh_service.card_extension import repository_of
    from validator.decklist import Designation

    text = "Oathbreaker\n1 Grist, the Hunger Tide\n\nDeck\n1 Contrahechizo\n58 Forest\n"
    validated = pipeline.validate_text(text, repository_of(app), Designation.of(
        ["Grist, the Hunger Tide"], None, None, ["Contrahechizo"]), game_format="oathbreaker")
    assert validated.report.signature_spells == ("Counterspell",)
    assert validated.translated == (pipeline.Translated("Contrahechizo", "Counterspell", "es", [5]),)


def test_the_card_endpoint_reads_a_name_in_another_language(client):
    body = client.get("/api/v1/cards/Contrahechizo").get_json()
    assert body["name"] == "Counterspell" and body["color_identity"] == ["U"]
    # Suggestions are English names, found among English names: a misspelled Spanish name has none.
    missing = client.get("/api/v1/cards/Contrahechizzo")
    assert missing.status_code == 404 and missing.get_json()["errors"]["suggestions"] == []


def test_a_foreign_signature_spell_in_the_request_field(client):
    """Issue 21's signature_spells field reads names in other languages like commanders."""
    body = client.post(VALIDATE, json={"decklist": SPANISH_DECK, "format": "oathbreaker",
                                       "signature_spells": ["Contrahechizo"]}).get_json()
    assert body["format"] == "oathbreaker"
    assert body["signature_spells"] == ["Counterspell"]
    translated = {entry["name"]: entry for entry in body["translated"]}
    assert translated["Contrahechizo"]["card"] == "Counterspell"
    assert "unknown_card" not in {v["code"] for v in body["violations"]}
