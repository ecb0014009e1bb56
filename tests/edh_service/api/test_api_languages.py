"""Answers in the player's language through the API (DESIGN.md "Answers in the player's
language"): the language chosen by the body's `lang`, then `?lang=`, then Accept-Language;
Content-Language and Vary; messages and the error envelope rendered in it, card names in
messages as printed in it (the list's own spelling first); every machine field unchanged."""

from __future__ import annotations

import time

import pytest

from edh_service.api.schemas import ReportSchema
from tests.support.apps import offline_app
from tests.support.factories import FOREIGN_BASICS, FOREIGN_SPELLS, deck_text, load_card_names

VALIDATE = "/api/v1/validate"
BATCH = "/api/v1/validate/batch"
# Counterspell is printed "Contrahechizo" in Spanish (tests/fixtures/names); Lightning Bolt
# (red) is outside Atraxa's identity, so its message names a card.
OFF_COLOR = deck_text(extra=("Lightning Bolt",))
SPANISH_LIST = deck_text(commander="Atraxa, voz de los pretores", spells=FOREIGN_SPELLS, basics=FOREIGN_BASICS)


@pytest.fixture
def app(fixture_db):
    load_card_names(fixture_db)
    return offline_app(fixture_db)


def messages(body: dict) -> list[str]:
    return [v["message"] for v in body["violations"]] + [r["message"] for r in (body["bracket"] or {}).get("reasons", [])]


def machine(body: dict) -> dict:
    """Everything of a validate answer but its messages."""
    stripped = {**body, "violations": [{k: v for k, v in item.items() if k != "message"} for item in body["violations"]]}
    if body.get("bracket"):
        stripped["bracket"] = {**body["bracket"], "reasons": [{k: v for k, v in r.items() if k != "message"}
                                                             for r in body["bracket"]["reasons"]]}
    return stripped


@pytest.mark.parametrize(("body_lang", "query", "header", "expected"), (
    (None, None, None, "en"),
    (None, None, "es-MX,es;q=0.9,en;q=0.5", "es"),
    (None, None, "en;q=0.3, ja;q=0.8, de;q=0.7", "ja"),
    (None, None, "zh-TW", "zh-Hant"),
    (None, None, "zh-CN", "zh-Hans"),
    (None, None, "pt-BR", "pt"),
    (None, None, "tlh, x-klingon;q=0.9", "en"),
    (None, None, "es;q=0", "en"),
    (None, None, "de;q=abc, fr;q=2, it;q=0.1", "it"),
    (None, "fr", "es", "fr"),
    ("de", "fr", "es", "de"),
    ("xx-YY", "fr", "es", "en"),  # the field decides, and a tag nobody supports is English
    (None, "klingon", "es", "en"),
))
def test_the_language_is_the_field_then_the_query_then_accept_language(client, body_lang, query, header, expected):
    body = {"decklist": OFF_COLOR} if body_lang is None else {"decklist": OFF_COLOR, "lang": body_lang}
    response = client.post(VALIDATE + (f"?lang={query}" if query else ""), json=body,
                           headers={"Accept-Language": header} if header else {})
    assert response.status_code == 200
    assert response.headers["Content-Language"] == expected
    assert "Accept-Language" in response.headers["Vary"]


@pytest.mark.parametrize("header", ("es;" * 20_000, ",".join(["de;q=0.1"] * 5_000) + ",es", "a" * 8000, "é-ñ, 日本"))
def test_absurd_accept_language_headers_are_bounded_and_never_an_error(client, header):
    started = time.perf_counter()
    response = client.post(VALIDATE, json={"decklist": OFF_COLOR}, headers={"Accept-Language": header})
    assert response.status_code == 200 and response.headers["Content-Language"] in {"en", "es", "de"}
    assert time.perf_counter() - started < 1.0


def test_a_spanish_answer_speaks_spanish_and_keeps_every_machine_field(client):
    english = client.post(VALIDATE, json={"decklist": OFF_COLOR}).get_json()
    spanish = client.post(VALIDATE, json={"decklist": OFF_COLOR}, headers={"Accept-Language": "es"}).get_json()
    assert machine(spanish) == machine(english)
    assert ReportSchema().validate(spanish) == {}
    identity = next(v for v in spanish["violations"] if v["code"] == "color_identity")
    assert identity["cards"] == ["Lightning Bolt"] and identity["rule"] == "903.5c"


def test_card_names_in_messages_are_printed_in_the_answers_language(client):
    text = deck_text(spells=tuple(s for s in FOREIGN_SPELLS if s != "Contrahechizo") + ("Counterspell", "Counterspell"))
    english = client.post(VALIDATE, json={"decklist": text}).get_json()
    german = client.post(VALIDATE, json={"decklist": text, "lang": "de"}).get_json()
    japanese = client.post(VALIDATE + "?lang=ja", json={"decklist": text}).get_json()
    singleton = [v for v in english["violations"] if v["code"] == "singleton"]
    assert singleton and "Counterspell" in singleton[0]["message"]
    assert any("Gegenzauber" in m for m in messages(german)), messages(german)
    assert any("対抗呪文" in m for m in messages(japanese)), messages(japanese)
    for body in (german, japanese):
        assert [v["cards"] for v in body["violations"]] == [v["cards"] for v in english["violations"]]


def test_the_lists_own_spelling_wins_over_the_tables(client, fixture_db):
    # "Contresort" is how the table prints Counterspell in French; the list wrote it so too,
    # and "Isla" (Island in Spanish) shows as written in a Spanish answer.
    text = SPANISH_LIST.replace("1 Brainstorm\n", "1 Counterspell\n")  # Contrahechizo and Counterspell: singleton
    body = client.post(VALIDATE, json={"decklist": text, "lang": "es"}).get_json()
    singleton = next(v for v in body["violations"] if v["code"] == "singleton")
    assert "Contrahechizo" in singleton["message"] and singleton["cards"] == ["Counterspell"]


def test_english_answers_are_the_validators_own_words(client):
    plain = client.post(VALIDATE, json={"decklist": OFF_COLOR}).get_json()
    asked = client.post(VALIDATE, json={"decklist": OFF_COLOR, "lang": "en"}).get_json()
    assert plain == asked


def test_a_batch_speaks_its_language_and_each_deck_may_choose_its_own(client):
    body = {"lang": "es", "decks": [{"decklist": OFF_COLOR}, {"decklist": OFF_COLOR, "lang": "en"}]}
    response = client.post(BATCH, json=body)
    assert response.status_code == 200 and response.headers["Content-Language"] == "es"
    first, second = response.get_json()["results"]
    english = client.post(VALIDATE, json={"decklist": OFF_COLOR}).get_json()
    assert messages(second) == messages(english)
    assert machine(first) == machine(second)


@pytest.mark.parametrize(("lang", "word"), (("es", "forma esperada"), ("ja", "形")))
def test_the_error_envelope_speaks_the_requests_language(client, lang, word):
    response = client.post(VALIDATE, json={"decklist": "1 Sol Ring", "bracket": "three", "lang": lang})
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == 422 and body["status"] == "Unprocessable Entity"
    assert word in body["message"] and "bracket" in body["errors"]
    assert response.headers["Content-Language"] == lang


@pytest.mark.parametrize("lang", ("es", "ja"))
def test_every_error_the_service_writes_is_translated(client, lang):
    english = client.post(VALIDATE, data=b"{", content_type="application/json").get_json()
    answer = client.post(VALIDATE + f"?lang={lang}", data=b"{", content_type="application/json").get_json()
    assert answer["code"] == english["code"] == 400 and answer["message"] != english["message"]
    for path, method in (("/api/v1/nowhere", "get"), (VALIDATE, "get")):
        english = getattr(client, method)(path).get_json()
        answer = getattr(client, method)(path, headers={"Accept-Language": lang}).get_json()
        assert answer["code"] == english["code"] and answer["status"] == english["status"]
        assert answer["message"] != english["message"]
    both = client.post(VALIDATE, json={"decklist": "1 Sol Ring", "url": "https://archidekt.com/decks/1", "lang": lang})
    english = client.post(VALIDATE, json={"decklist": "1 Sol Ring", "url": "https://archidekt.com/decks/1"})
    assert both.get_json()["message"] != english.get_json()["message"]
    assert set(both.get_json()["errors"]) == {"decklist", "url"}
    card = client.get("/api/v1/cards/Sol%20Rnig", headers={"Accept-Language": lang}).get_json()
    assert card["code"] == 404 and "Sol Rnig" in card["message"] and not card["message"].startswith("No card")
    unknown = client.post(VALIDATE, json={"decklist": "1 Sol Ring", "format": "vintage", "lang": lang}).get_json()
    assert "'vintage'" in unknown["message"] and "commander" in unknown["message"]
    assert not unknown["message"].startswith("The request")


def test_formats_speak_the_requests_language_and_keep_their_keys(client):
    english = client.get("/api/v1/formats").get_json()
    spanish = client.get("/api/v1/formats?lang=es")
    assert spanish.headers["Content-Language"] == "es"
    assert [f["key"] for f in spanish.get_json()["formats"]] == [f["key"] for f in english["formats"]]
    assert [f["aliases"] for f in spanish.get_json()["formats"]] == [f["aliases"] for f in english["formats"]]


def test_health_and_the_page_say_their_language_too(client):
    for path in ("/healthz", "/openapi.json"):
        response = client.get(path, headers={"Accept-Language": "ko"})
        assert response.headers["Content-Language"] == "ko" and "Accept-Language" in response.headers["Vary"]
