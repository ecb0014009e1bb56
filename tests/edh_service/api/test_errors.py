"""The API's error contract: one JSON envelope for every 4xx/5xx, and never a 500 for bad input.

These tests need no card data: input is checked before the store is touched, and a
missing store is itself a case (503 with Retry-After).
"""

from __future__ import annotations

import io
import json
import logging

import pytest

from edh_service.config import from_environment as config_from_environment
from edh_service.factory import create_app
from tests.support.apps import offline_app
from tests.support.responses import assert_envelope

VALIDATE = "/api/v1/validate"
BATCH = "/api/v1/validate/batch"
SMALL_LIMIT = 4096  # bytes; MAX_CONTENT_LENGTH for these tests so 413 is cheap to provoke


@pytest.fixture
def app(tmp_path):
    """An app whose store does not exist and which may not fetch one."""
    return offline_app(tmp_path / "absent.sqlite3", MAX_CONTENT_LENGTH=SMALL_LIMIT,
                       CORS_ORIGINS=("https://decks.example",))






@pytest.mark.parametrize(("data", "content_type"), (
    (b'{"decklist": ', "application/json"),
    (b"not json at all", "application/json"),
    (b'{"decklist": "\xff\xfe Sol Ring"}', "application/json"),  # not UTF-8
    (b"1 Sol Ring\n1 \xff\xfeCommand Tower\n", "text/plain"),  # not UTF-8 either
    (b"1 Sol Ring\n1 \xe9\n", "text/plain; charset=utf-8"),
    (b"1 Sol Ring\n\xff\n", "text/plain; charset=shift_jis"),
))
def test_undecodable_body_is_400(client, data, content_type):
    assert_envelope(client.post(VALIDATE, data=data, content_type=content_type), 400)


@pytest.mark.parametrize(("data", "detail"), (
    (b'{"decklist": "1 Sol Ring",}', "line 1 column"),
    (b'{"decklist": "\xff Sol Ring"}', "UTF-8"),
))
def test_malformed_json_400_says_what_and_where(client, data, detail):
    # It said werkzeug's "The browser (or proxy) sent a request that this server could not
    # understand.": nothing a deckbuilding site's developer could act on.
    message = assert_envelope(client.post(VALIDATE, data=data, content_type="application/json"), 400)["message"]
    assert "JSON" in message and detail in message


@pytest.mark.parametrize("content_type", (
    "application/xml", "application/x-www-form-urlencoded", "text/html", "image/png",
    "text/plain; charset=klingon",
))
def test_unsupported_media_type_is_415(client, content_type):
    assert_envelope(client.post(VALIDATE, data=b"1 Sol Ring", content_type=content_type), 415)


@pytest.mark.parametrize("charset", ("rot13", "base64", "zlib", "hex", "uu", "bz2", "quopri"))
def test_a_charset_that_is_no_text_encoding_is_415_not_500(client, charset):
    # Python's codec registry also holds bytes-to-bytes and str-to-str transforms; decoding a
    # body with one answered 500 (a TypeError or a binascii/zlib error escaped).
    response = client.post(VALIDATE, data=b"1 Sol Ring", content_type=f"text/plain; charset={charset}")
    assert_envelope(response, 415)


def test_missing_content_type_is_415(client):
    assert_envelope(client.post(VALIDATE, data=b"1 Sol Ring"), 415)


def test_batch_takes_only_json(client):
    assert_envelope(client.post(BATCH, data=b"1 Sol Ring", content_type="text/plain"), 415)


@pytest.mark.parametrize("path", (VALIDATE, BATCH))
def test_body_over_the_limit_is_413(client, path):
    body = json.dumps({"decklist": "1 Forest\n" * SMALL_LIMIT})
    assert_envelope(client.post(path, data=body, content_type="application/json"), 413)


def test_text_body_over_the_limit_is_413(client):
    response = client.post(VALIDATE, data=b"1 Forest\n" * SMALL_LIMIT, content_type="text/plain")
    body = assert_envelope(response, 413)
    # The page (app.js) shows this message as is: it says what the limit is.
    assert f"{SMALL_LIMIT} bytes" in body["message"]


def post_chunked(client, path, data: bytes, content_type: str):
    """A body sent with Transfer-Encoding: chunked (no Content-Length), as a server that
    de-chunks (gunicorn, werkzeug) hands it to the app."""
    return client.post(path, input_stream=io.BytesIO(data), content_type=content_type,
                       headers={"Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})


@pytest.mark.parametrize(("path", "data", "content_type"), (
    # A list whose cards come after 1 MiB of comments: it was cut at the limit and judged
    # without them (200, card_count 0) instead of refused.
    (VALIDATE, (b"// " + b"x" * 100 + b"\n") * 60 + b"1 Forest\n" * 5, "text/plain"),
    # JSON cut at the limit was a 400 "Unterminated string", not a 413.
    (VALIDATE, json.dumps({"decklist": "1 Forest\n" * SMALL_LIMIT}).encode(), "application/json"),
    (BATCH, json.dumps({"decks": [{"decklist": "1 Forest\n" * SMALL_LIMIT}]}).encode(), "application/json"),
))
def test_chunked_body_over_the_limit_is_413_not_cut(client, path, data, content_type):
    assert_envelope(post_chunked(client, path, data, content_type), 413)


def test_chunked_body_under_the_limit_is_read_whole(client):
    # The store is absent here: a body read in full reaches it (503), it is not refused.
    assert_envelope(post_chunked(client, VALIDATE, b"1 Sol Ring\n" * 100, "text/plain"), 503)


@pytest.mark.parametrize(("body", "field"), (
    ({}, "decklist"),
    ({"decklist": 42}, "decklist"),
    ({"decklist": None}, "decklist"),
    ({"decklist": "1 Sol Ring", "format": "modern"}, "format"),
    ({"decklist": "1 Sol Ring", "decklist_format": "lackey"}, "decklist_format"),
    ({"decklist": "1 Sol Ring", "commanders": "Atraxa"}, "commanders"),
    ({"decklist": "1 Sol Ring", "commanders": ["x"] * 6}, "commanders"),
    ({"decklist": "1 Sol Ring", "commanders": [""]}, "commanders"),
    ({"decklist": "1 Sol Ring", "commanders": ["x" * 201]}, "commanders"),
    ({"decklist": "1 Sol Ring", "companion": ["Lurrus"]}, "companion"),
    ({"decklist": "1 Sol Ring", "color_choices": {"The Prismatic Piper": "red"}}, "color_choices"),
    ({"decklist": "1 Sol Ring", "color_choices": ["R"]}, "color_choices"),
    ({"decklist": "1 Sol Ring", "deck": "typo"}, "deck"),
))
def test_malformed_request_is_422_naming_the_field(client, body, field):
    body = assert_envelope(client.post(VALIDATE, json=body), 422)
    assert field in body["errors"]


@pytest.mark.parametrize("body", ([], "1 Sol Ring", 3, None))
def test_json_that_is_not_an_object_is_422(client, body):
    response = client.post(VALIDATE, data=json.dumps(body), content_type="application/json")
    assert_envelope(response, 422)


@pytest.mark.parametrize(("query", "field"), (
    ("?format=modern", "format"),
    ("?decklist_format=lackey", "decklist_format"),
    ("?colour=R", "colour"),
    ("?commanders=a&commanders=b&commanders=c&commanders=d&commanders=e&commanders=f", "commanders"),
))
def test_text_plain_query_parameters_are_checked(client, query, field):
    response = client.post(VALIDATE + query, data=b"1 Sol Ring", content_type="text/plain")
    assert field in assert_envelope(response, 422)["errors"]


@pytest.mark.parametrize(("body", "where"), (
    ({}, ["decks"]),
    ({"decks": []}, ["decks"]),
    ({"decks": "1 Sol Ring"}, ["decks"]),
    ({"decks": [{"decklist": "1 Sol Ring"}] * 51}, ["decks"]),
    ({"decks": [{"decklist": "1 Sol Ring"}, {"decklist": 7}]}, ["decks", "1", "decklist"]),
))
def test_malformed_batch_is_422(client, body, where):
    errors = assert_envelope(client.post(BATCH, json=body), 422)["errors"]
    for key in where:
        errors = errors[key]


def test_batch_limit_is_configurable(tmp_path):
    client = offline_app(tmp_path / "x", BATCH_LIMIT=2).test_client()
    response = client.post(BATCH, json={"decks": [{"decklist": "1 Sol Ring"}] * 3})
    assert "decks" in assert_envelope(response, 422)["errors"]


def test_card_name_over_the_bound_is_422(client):
    assert "name" in assert_envelope(client.get("/api/v1/cards/" + "x" * 201), 422)["errors"]


@pytest.mark.parametrize(("method", "path", "kwargs"), (
    ("post", VALIDATE, {"json": {"decklist": "1 Sol Ring"}}),
    ("post", VALIDATE, {"data": b"1 Sol Ring", "content_type": "text/plain"}),
    ("post", BATCH, {"json": {"decks": [{"decklist": "1 Sol Ring"}]}}),
    ("get", "/api/v1/cards/Sol%20Ring", {}),
    ("get", "/readyz", {}),
))
def test_no_store_and_offline_is_503_with_retry_after(client, method, path, kwargs):
    response = getattr(client, method)(path, **kwargs)
    assert_envelope(response, 503)
    # One figure for every endpoint: the validations said 60 s while /readyz said 30.
    assert response.headers["Retry-After"] == client.get("/readyz").headers["Retry-After"]


def test_healthz_answers_without_card_data(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


@pytest.mark.parametrize(("method", "path", "status", "allow"), (
    ("get", "/api/v1/nothing-here", 404, None),
    ("get", "/api/v2/validate", 404, None),
    ("get", "/api", 404, None),  # no trailing slash: still the API's envelope, not an HTML page
    ("get", VALIDATE, 405, "POST"),
    ("delete", BATCH, 405, "POST"),
    ("post", "/api/v1/cards/Sol%20Ring", 405, "GET"),
))
def test_routing_errors_under_api_are_envelopes(client, method, path, status, allow):
    response = getattr(client, method)(path)
    assert_envelope(response, status)
    if allow:  # a 405 still says what is allowed
        assert allow in response.headers["Allow"]


def test_unexpected_error_is_a_logged_500_envelope(client, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr("edh_service.pipeline.validate_text", broken)
    # The store is absent, so give the view a repository that exists: reach the engine.
    monkeypatch.setattr("edh_service.api.views.get_repository", lambda: FakeMetadataOnly())
    with caplog.at_level(logging.ERROR, logger="edh_service.api.errors"):
        response = client.post(VALIDATE, json={"decklist": "1 Sol Ring"})
    body = assert_envelope(response, 500)
    assert "engine bug" not in body["message"]  # no internals leak to the client
    assert any("engine bug" in str(record.exc_info[1]) for record in caplog.records if record.exc_info)


class FakeMetadataOnly:
    """Just enough repository for a view to reach the (broken) engine."""

    def metadata(self):
        return None


@pytest.mark.parametrize(("origin", "allowed"), (
    ("https://decks.example", True),
    ("https://evil.example", False),
))
def test_cors_allows_only_configured_origins(client, origin, allowed):
    response = client.get("/api/v1/nothing", headers={"Origin": origin})
    assert response.headers.get("Access-Control-Allow-Origin") == (origin if allowed else None)
    assert "Origin" in response.headers["Vary"]


@pytest.mark.parametrize("before, after", [
    (None, "Origin"),
    ("Accept-Encoding", "Accept-Encoding, Origin"),
    ("Accept-Encoding, origin", "Accept-Encoding, origin"),  # named once, whatever its case
    ("Cookie,Origin", "Cookie,Origin"),
])
def test_vary_names_origin_once_beside_what_was_there(before, after):
    from flask import Response

    from edh_service.i18n.app import add_vary

    response = Response()
    if before is not None:
        response.headers["Vary"] = before
    add_vary(response, "Origin")
    assert response.headers.getlist("Vary") == [after]


def preflight(client, request_headers: str):
    """A browser's CORS preflight for a POST to the validate endpoint."""
    return client.options(VALIDATE, headers={
        "Origin": "https://decks.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": request_headers,
    })


def test_cors_preflight_for_a_json_post(client):
    response = preflight(client, "content-type")
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "https://decks.example"
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in response.headers["Access-Control-Allow-Headers"]


def test_cors_preflight_allows_and_exposes_the_request_id(client):
    # docs/operations.md: a client may send its own X-Request-ID. A browser asks first; a preflight that
    # does not allow the header makes the browser drop the request before it is sent.
    response = preflight(client, "content-type,x-request-id")
    allowed = {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "x-request-id"} <= allowed
    exposed = {h.strip().lower() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"retry-after", "x-request-id"} <= exposed


def test_cors_preflight_is_not_rate_limited(tmp_path):
    # A preflight costs nothing; counting it halves a browser client's budget, and a 429
    # preflight reaches the page as an opaque network error instead of the 429 envelope.
    app = offline_app(tmp_path / "x", RATELIMIT_ENABLED=True, RATELIMIT="2/minute")
    client = app.test_client()
    preflight = {"Origin": "https://a.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type"}
    for _ in range(3):
        assert client.options(VALIDATE, headers=preflight).status_code == 200
    assert client.post(VALIDATE, json={}).status_code == 422  # the budget is still whole
    assert client.post(VALIDATE, json={}).status_code == 422
    assert_envelope(client.post(VALIDATE, json={}), 429)


@pytest.mark.parametrize(("decks", "over"), (
    (["1 Sol Ring\n1 Forest\n", "1 Island\r\n1 Swamp\r\n"], False),  # 4 lines, each newline-ended
    (["1 Sol Ring\n1 Forest", "1 Island\n1 Swamp"], False),
    (["1 Sol Ring\n1 Forest\n1 Plains\n", "1 Island\n1 Swamp\n"], True),  # 5 lines
))
def test_batch_line_limit_counts_the_lines_people_wrote(tmp_path, decks, over):
    # A list that ends with a newline (as editors save it) has no extra empty line: counting
    # one per deck refused batches that were within BATCH_LINE_LIMIT.
    client = offline_app(tmp_path / "absent", BATCH_LINE_LIMIT=4).test_client()
    response = client.post(BATCH, json={"decks": [{"decklist": text} for text in decks]})
    # Under the limit the batch reaches the (absent) store: 503, not the 422 of the bound.
    assert_envelope(response, 422 if over else 503)


def test_cors_wildcard(tmp_path):
    client = offline_app(tmp_path / "x", CORS_ORIGINS=("*",)).test_client()
    response = client.get("/healthz")  # not an API path: no CORS headers needed there
    assert "Access-Control-Allow-Origin" not in response.headers
    response = client.post(VALIDATE, json={}, headers={"Origin": "https://anyone.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Retry-After" in response.headers["Access-Control-Expose-Headers"]


@pytest.mark.parametrize(("environ", "expected"), (
    ({}, {}),
    ({"CARD_DATA_OFFLINE": "1"}, {"CARD_DATA_OFFLINE": True}),
    ({"CARD_DATA_OFFLINE": "no"}, {"CARD_DATA_OFFLINE": False}),
    ({"PORT": "9000", "MAX_CONTENT_LENGTH": "2048"}, {"PORT": 9000, "MAX_CONTENT_LENGTH": 2048}),
    ({"CORS_ORIGINS": "https://a.example, https://b.example"},
     {"CORS_ORIGINS": ("https://a.example", "https://b.example")}),
    ({"CORS_ORIGINS": ""}, {"CORS_ORIGINS": ()}),
    ({"CARD_DB": "/data/cards.sqlite3", "SCRYFALL_API_URL": "http://127.0.0.1:9"},
     {"CARD_DB": "/data/cards.sqlite3", "SCRYFALL_API_URL": "http://127.0.0.1:9"}),
    ({"UNRELATED": "x", "BATCH_LIMIT": "10"}, {"BATCH_LIMIT": 10}),
))
def test_config_from_environment(environ, expected):
    assert config_from_environment(environ) == expected


def test_malformed_environment_number_fails_loudly():
    with pytest.raises(ValueError, match="PORT"):
        config_from_environment({"PORT": "eighty"})


def test_environment_is_read_when_there_is_no_test_mapping(monkeypatch, tmp_path):
    monkeypatch.setenv("CARD_DB", str(tmp_path / "env.sqlite3"))
    monkeypatch.setenv("CARD_DATA_OFFLINE", "1")
    monkeypatch.setenv("MAX_CONTENT_LENGTH", "12345")
    app = create_app()
    assert app.config["CARD_DB"] == str(tmp_path / "env.sqlite3")
    assert app.config["CARD_DATA_OFFLINE"] is True
    assert app.config["MAX_CONTENT_LENGTH"] == 12345
    assert app.extensions["card_data_sync"] is None  # offline: nothing to sync from
