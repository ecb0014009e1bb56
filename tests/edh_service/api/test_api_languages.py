"""Answers in the player's language through the API (DESIGN.md "Answers in the player's
language"): the language chosen by the body's `lang`, then `?lang=`, then Accept-Language;
Content-Language and Vary; messages and the error envelope rendered in it, card names in
messages as printed in it (the list's own spelling first); every machine field unchanged."""

from __future__ import annotations

import time

import pytest

from edh_service.api.schemas import ReportSchema
from tests.support.apps import offline_app
from tests.support.factories import deck_text, load_card_names
from tests.support.foreign_names import real_names_store
from tests.support.live_http import assert_envelope, raw_request

VALIDATE = "/api/v1/validate"
BATCH = "/api/v1/validate/batch"
# Lightning Bolt (red) is outside Atraxa's identity: a deck with violations to render.
OFF_COLOR = deck_text(extra=("Lightning Bolt",))


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


@pytest.fixture(scope="module")
def real_client(shared_dir, tmp_path_factory):
    """A client over a store of the real Time Spiral and RNA Guild Kit cards with their real
    printed names (tests/support/foreign_names.py; skipped without ../shared)."""
    db, tsp, _ = real_names_store(shared_dir, tmp_path_factory.mktemp("real-names-api"))
    return offline_app(db).test_client(), tsp


def printed(tsp: dict, english: str, language: str) -> str:
    """A Time Spiral card's name as the set file prints it in a language (MTGJSON's word)."""
    card = next(card for card in tsp["data"]["cards"] if card["name"] == english)
    return next(entry["name"] for entry in card["foreignData"] if entry["language"] == language)


# Walk the Aeons grants an extra turn: the bracket reason names it.
REAL_DECK = "Commander\n1 Saffi Eriksdotter\n\nDeck\n1 Walk the Aeons\n1 Ancestral Vision\n"


def extra_turns(body: dict) -> dict:
    found = [r for r in body["bracket"]["reasons"] if r["cards"] == ["Walk the Aeons"]]
    assert len(found) == 1, body["bracket"]["reasons"]
    return found[0]


@pytest.mark.parametrize(("lang", "language"), (("es", "Spanish"), ("de", "German"), ("ja", "Japanese"),
                                                ("ru", "Russian"), ("zh-Hans", "Chinese Simplified")))
def test_card_names_in_messages_are_printed_in_the_answers_language(real_client, lang, language):
    client, tsp = real_client
    english = client.post(VALIDATE, json={"decklist": REAL_DECK}).get_json()
    answer = client.post(VALIDATE, json={"decklist": REAL_DECK}, headers={"Accept-Language": lang}).get_json()
    assert "Walk the Aeons" in extra_turns(english)["message"]
    reason = extra_turns(answer)
    assert printed(tsp, "Walk the Aeons", language) in reason["message"], reason
    assert "Walk the Aeons" not in reason["message"] and reason["cards"] == ["Walk the Aeons"]
    assert machine(answer) == machine(english)


def test_the_lists_own_spelling_wins_over_the_tables(real_client):
    client, tsp = real_client
    spanish = printed(tsp, "Walk the Aeons", "Spanish")
    written = REAL_DECK.replace("Walk the Aeons", spanish.lower())  # read through the folded names
    body = client.post(VALIDATE, json={"decklist": written, "lang": "es"}).get_json()
    assert body["translated"][0]["name"] == spanish.lower()
    assert spanish.lower() in extra_turns(body)["message"]
    german = client.post(VALIDATE, json={"decklist": written, "lang": "de"}).get_json()  # written in Spanish
    assert printed(tsp, "Walk the Aeons", "German") in extra_turns(german)["message"]


def test_a_card_the_table_has_no_name_for_stays_english(real_client):
    client, _ = real_client
    body = client.post(VALIDATE, json={"decklist": REAL_DECK, "lang": "ko"}).get_json()  # no Korean names loaded
    assert "Walk the Aeons" in extra_turns(body)["message"]


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
    # who can command, in words, is said in Spanish; the machine fields are as they were
    assert all(es["commander"] != en["commander"] for es, en in zip(spanish.get_json()["formats"], english["formats"]))
    assert [{k: v for k, v in f.items() if k not in ("name", "commander")} for f in spanish.get_json()["formats"]] == \
        [{k: v for k, v in f.items() if k not in ("name", "commander")} for f in english["formats"]]


def test_health_and_the_page_say_their_language_too(client):
    for path in ("/healthz", "/openapi.json"):
        response = client.get(path, headers={"Accept-Language": "ko"})
        assert response.headers["Content-Language"] == "ko" and "Accept-Language" in response.headers["Vary"]


def test_a_real_gunicorn_answers_in_the_requests_language(live_server):
    answer = raw_request(live_server, "POST", VALIDATE, OFF_COLOR.encode(),
                         {"Content-Type": "text/plain", "Accept-Language": "es-MX,es;q=0.9"})
    assert answer.status == 200 and answer.headers["content-language"] == "es"
    assert "accept-language" in answer.headers["vary"].lower()
    missing = raw_request(live_server, "GET", "/api/v1/nowhere?lang=ja")
    body = assert_envelope(missing, 404)
    assert missing.headers["content-language"] == "ja" and body["status"] == "Not Found"
    assert body["message"].startswith("要求された URL")


def test_the_openapi_document_says_how_the_language_is_chosen_and_said(client):
    document = client.get("/openapi.json").get_json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            named = {(p["in"], p["name"]) for p in operation["parameters"]}
            assert {("query", "lang"), ("header", "Accept-Language")} <= named, (path, method)
            for status, answer in operation["responses"].items():
                assert {"Content-Language", "Vary"} <= set(answer["headers"]), (path, method, status)
    components = document["components"]["schemas"]
    assert "lang" in components["ValidateRequest"]["properties"] and "lang" in components["BatchRequest"]["properties"]


def test_house_rules_refusals_speak_the_requests_language(client):
    body = {"decklist": OFF_COLOR, "house_rules": {"banned": ["Sol Rnig"]}}
    english = client.post(VALIDATE, json=body).get_json()
    spanish = client.post(VALIDATE, json={**body, "lang": "es"}).get_json()
    assert english["message"] == 'The house rules name "Sol Rnig", which is no card (did you mean Sol Ring?).'
    assert spanish["message"].startswith('Las reglas de la casa nombran "Sol Rnig", que no es ninguna carta')
    assert spanish["errors"] == english["errors"]  # where, and the suggestions: data
    both = client.post(VALIDATE, json={"decklist": OFF_COLOR, "lang": "de",
                                       "house_rules": {"banned": ["Sol Ring"], "unbanned": ["Sol Ring"]}}).get_json()
    assert both["message"] == both["errors"]["house_rules"]["unbanned"][0]
    assert both["message"].startswith("Die Hausregeln verbieten und erlauben zugleich Sol")


def test_the_page_names_cards_in_its_messages_as_printed_in_its_language(real_client):
    client, tsp = real_client
    page = client.post("/", data={"decklist": REAL_DECK}, headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert printed(tsp, "Walk the Aeons", "Spanish") in page
    english = client.post("/", data={"decklist": REAL_DECK}).get_data(as_text=True)
    assert printed(tsp, "Walk the Aeons", "Spanish") not in english
