"""schemathesis against /openapi.json, through WSGI: whatever it sends (valid or not), the
service never answers 5xx and every response matches the document (status, content type,
headers, body schema). Bounded examples keep the run well under a minute
(SCHEMATHESIS_EXAMPLES=300 for a deeper run: about three minutes).

Hypothesis drives each operation directly (`as_strategy`): schemathesis' lazy pytest
fixture loader does not run under pytest 9 yet.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import negative_data_rejection, not_a_server_error, positive_data_acceptance

from validator.formats import format_named

from tests.support.apps import offline_app

OPERATIONS = (
    ("/api/v1/validate", "POST"),
    ("/api/v1/validate/batch", "POST"),
    ("/api/v1/cards/{name}", "GET"),
    ("/api/v1/formats", "GET"),
    ("/api/v1/house-rules", "GET"),
    ("/healthz", "GET"),
    ("/readyz", "GET"),
)
MODES = (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE)


@pytest.fixture
def api_schema(fixture_db):
    """The service's own OpenAPI document, loaded from the app over the fixture store."""
    app = offline_app(fixture_db, DECK_URLS=False)  # a `url` never leaves the machine: a 422 saying links are off
    return schemathesis.openapi.from_wsgi("/openapi.json", app)


def test_the_document_lists_exactly_the_tested_operations(api_schema):
    listed = {(op.ok().path, op.ok().method.upper()) for op in api_schema.get_all_operations()}
    assert listed == set(OPERATIONS)


CASES = [(path, method, mode) for path, method in OPERATIONS for mode in MODES
         # Health checks take no input, so there is nothing to make invalid.
         if not (mode is schemathesis.GenerationMode.NEGATIVE and path in ("/healthz", "/readyz", "/api/v1/formats",
                                                                            "/api/v1/house-rules"))]


def type_blind_checks(case) -> list:
    """On the wire a query value and a text/plain body are always strings, so a "wrong type"
    mutation of them (commanders=262989, a body of -5.2e16) is no invalid request: skip the
    must-be-rejected check there, keep it for JSON bodies. Every other check still runs."""
    checks = [negative_data_rejection] if case.query or case.media_type == "text/plain" else []
    if any(field_not_in_format(deck) or "url" in deck or deck.get("house_rules") is not None for deck in decks_of(case)):
        # a link is judged by what it names (a 422 for "0"); house rules by the cards they name
        checks.append(positive_data_acceptance)
    return checks


def decks_of(case) -> list:
    """The validate requests a case sends (one, or a batch's decks; a text/plain body's
    options are its query)."""
    body = case.body if isinstance(case.body, dict) else {}
    decks = body.get("decks") if isinstance(body.get("decks"), list) else [{**(case.query or {}), **body}]
    return [deck for deck in decks if isinstance(deck, dict)]


def field_not_in_format(deck: dict) -> bool:
    """The deck pairs a format with a field it has no use for (a bracket outside commander,
    signature spells outside oathbreaker): OpenAPI 3.0 cannot say that one field's allowed
    values depend on another's, so the documented 422 for it is no rejected valid request.
    The assertion that it is a 422 naming the field is tests/edh_service/test_api_formats.py's.
    House rules are alike (type_blind_checks): whether a name is a card, or a profile is
    configured, is the card data's and the folder's to say, no schema's; their 422s are
    tests/edh_service/api/test_api_house_rules.py's."""
    try:
        fmt = format_named(deck.get("format") or "commander")
    except ValueError:
        return False
    return (deck.get("bracket") is not None and not fmt.brackets) or \
        (bool(deck.get("signature_spells")) and not fmt.signature_spells)


@pytest.mark.parametrize(("path", "method", "mode"), CASES)
def test_operation_conforms_to_the_document(api_schema, path, method, mode):
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25")), deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def conforms(case):
        case.call_and_validate(excluded_checks=type_blind_checks(case))

    conforms()


def test_no_store_answers_conform_too(tmp_path):
    """The 503s of a store-less service are documented, envelope and Retry-After included."""
    app = offline_app(tmp_path / "absent")
    offline = schemathesis.openapi.from_wsgi("/openapi.json", app)
    formats = offline["/api/v1/formats"]["GET"].Case().call_and_validate()  # the table needs no card data
    assert formats.status_code == 200 and formats.json()["sources"] == {"legalities": None, "pauper_commanders": None}
    for path, parameters in (("/readyz", None), ("/api/v1/cards/{name}", {"name": "Sol Ring"})):
        case = offline[path]["GET"].Case(path_parameters=parameters)
        # A 503 is the documented answer here, not a server failure.
        response = case.call_and_validate(excluded_checks=[not_a_server_error])
        assert response.status_code == 503
