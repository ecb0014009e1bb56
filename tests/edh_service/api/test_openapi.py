"""schemathesis against /openapi.json, through WSGI, with every check, positive and negative,
for every operation: whatever it sends, the service never answers 5xx, accepts what the
document calls valid, refuses what it calls invalid, and every response matches the
document (status, content type, headers, body schema). The app is the contract app
(tests/support/contract_app.py): every feature on, deck links read from a local site.

Bounded examples keep the default run short; SCHEMATHESIS_EXAMPLES=500 is the deep run.
Hypothesis drives each operation directly (`as_strategy`): schemathesis' lazy pytest
fixture loader does not run under pytest 9 yet.
"""

from __future__ import annotations

import os

import jsonschema
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings, strategies as st
from schemathesis.checks import negative_data_rejection, not_a_server_error

from validator.formats import UnknownFormat, format_named

from edh_service.api.openapi_examples import examples
from edh_service.api.reading import QUERY_LISTS
from tests.support.apps import offline_app
from tests.support.contract_app import card_names, contract_app
from tests.support.openapi_examples import answers

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
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))
NAMES = card_names()
THIRDS = (NAMES[0::3], NAMES[1::3], NAMES[2::3])
RULED = ("format", "bracket", "signature_spells")  # the fields one cross-field rule ties together


@pytest.fixture
def app(fixture_db, tmp_path):
    with contract_app(fixture_db, tmp_path) as app:
        yield app


@pytest.fixture
def api_schema(app):
    """The service's own OpenAPI document, loaded from the app."""
    return schemathesis.openapi.from_wsgi("/openapi.json", app)


def test_the_document_lists_exactly_the_tested_operations(api_schema):
    listed = {(op.ok().path, op.ok().method.upper()) for op in api_schema.get_all_operations()}
    assert listed == set(OPERATIONS)


CASES = [(path, method, mode) for path, method in OPERATIONS for mode in MODES
         # These take no input, so there is nothing to make invalid.
         if not (mode is schemathesis.GenerationMode.NEGATIVE and path in ("/healthz", "/readyz", "/api/v1/formats",
                                                                            "/api/v1/house-rules"))]


def decks_of(case) -> list[dict]:
    """The validate requests a case sends (one, or a batch's decks), each as its JSON body."""
    body = case.body if isinstance(case.body, dict) else {}
    decks = body.get("decks") if isinstance(body.get("decks"), list) else [body]
    return [deck for deck in decks if isinstance(deck, dict)]


def with_real_names(case):
    """The case with every house-rules card name one of the store's cards, and a card path
    naming one. Which strings are card names is the card data's to say: schemathesis'
    generator reads only the document, so the test gives it the names (its advice for
    "Missing test data"); a name that is no card stays tested in the API's own tests."""
    for deck in decks_of(case):
        rules = deck.get("house_rules")
        if isinstance(rules, dict):
            # each list its own third of the cards: a card both banned and unbanned is a 422 the
            # fields' descriptions state (JSON Schema compares no two arrays' cards)
            for third, key in enumerate(("banned", "banned_as_commander", "unbanned")):
                if isinstance(rules.get(key), list):
                    rules[key] = [THIRDS[third][len(name) % len(THIRDS[third])] for name in rules[key]]
    if case.path_parameters and "name" in case.path_parameters:
        case.path_parameters["name"] = NAMES[len(case.path_parameters["name"]) % len(NAMES)]
    return case


def across_parameters(case) -> bool:
    """A query parameter of a cross-field rule (`?signature_spells=X` needs an oathbreaker
    `format`, in the query or the body; `?format=duel` refuses a `bracket`, in either).
    OpenAPI 3.1 describes each parameter, and the body, on its own: no keyword relates one
    to another, so schemathesis cannot know such a request's fate from the document; the
    parameters' descriptions say it, and tests/edh_service/api/test_api_formats.py asserts it."""
    return any(key in (case.query or {}) for key in RULED)


def breaks_a_rule(request: dict) -> bool:
    """A bracket outside the formats with brackets, or signature spells outside oathbreaker."""
    try:
        fmt = format_named(request.get("format") or "commander")
    except UnknownFormat:
        return False
    return (request.get("bracket") is not None and not fmt.brackets) or \
        (bool(request.get("signature_spells")) and not fmt.signature_spells)


def excluded(case) -> list:
    """The checks that cannot judge this case (each with its reason); none for most."""
    if across_parameters(case) and not any(breaks_a_rule({**(case.query or {}), **deck}) for deck in decks_of(case)):
        return [negative_data_rejection]  # refused only in part by the document, accepted whole (above)
    if (case.media_type == "text/plain" and not isinstance(case.body, str)) or retyped_query(case):
        # schemathesis' negative mode makes a text/plain body or a query value another JSON
        # type (a body of -5.2e16, commanders=262989, an object for a list), then sends it as
        # text: on the wire that is a valid decklist, a valid name, repeated names.
        return [negative_data_rejection]
    return []


def retyped_query(case) -> bool:
    """A query value of another kind than its parameter's (a list's turned scalar or object,
    a text turned number or list)."""
    for name, value in (case.query or {}).items():
        kind = list if name in QUERY_LISTS else int if name == "bracket" else str
        if not isinstance(value, kind) or isinstance(value, bool):
            return True
        if kind is list and not all(isinstance(item, str) for item in value):
            return True
    return False


def strategy(operation, mode):
    """The operation's cases in `mode`; positive ones with real card names, half the time for
    a card's path, and none that only OpenAPI's silence about parameters makes valid."""
    cases = operation.as_strategy(generation_mode=mode)
    if mode is not schemathesis.GenerationMode.POSITIVE:
        return cases
    named = cases.map(with_real_names)
    if operation.path == "/api/v1/cards/{name}":
        return st.one_of(cases, named)
    return named.filter(lambda case: not (across_parameters(case) and any(
        breaks_a_rule({**(case.query or {}), **deck}) for deck in decks_of(case))))


@pytest.mark.parametrize(("path", "method", "mode"), CASES)
def test_operation_conforms_to_the_document(api_schema, path, method, mode):
    operation = api_schema[path][method]

    @given(case=strategy(operation, mode))
    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def conforms(case):
        case.call_and_validate(excluded_checks=excluded(case))

    conforms()


def test_no_store_answers_conform_too(tmp_path):
    """The 503s of a store-less service are documented, envelope and Retry-After included."""
    app = offline_app(tmp_path / "absent")
    offline = schemathesis.openapi.from_wsgi("/openapi.json", app)
    formats = offline["/api/v1/formats"]["GET"].Case().call_and_validate()  # the table needs no card data
    assert formats.status_code == 200 and formats.json()["sources"] == {"legalities": None, "pauper_commanders": None}
    for path, parameters in (("/readyz", None), ("/api/v1/cards/{name}", {"name": "Sol Ring"})):
        case = offline[path]["GET"].Case(path_parameters=parameters)
        # A 503 is the documented answer here, and the one this state must give: not_a_server_error
        # counts every 5xx as a failure whatever the document says.
        response = case.call_and_validate(excluded_checks=[not_a_server_error])
        assert response.status_code == 503


def test_the_examples_are_the_apps_real_answers():
    """The document's examples are what the app answers over the fixture cards now
    (`python -m tests.support.openapi_examples` rewrites them after a change)."""
    assert answers() == examples()


def test_every_example_matches_its_schema(api_schema, app):
    """Each example in the document validates against the schema it illustrates."""
    document = app.test_client().get("/openapi.json").get_json()
    validator = jsonschema.Draft202012Validator({**document, "$ref": "#/components/schemas/Error"})
    counted = 0
    for ops in document["paths"].values():
        for operation in ops.values():
            media = [body["content"]["application/json"] for body in (
                operation.get("requestBody"), *operation["responses"].values()) if body and "content" in body]
            for content in media:
                for example in content.get("examples", {}).values():
                    validator.evolve(schema={**document, **content["schema"]}).validate(example["value"])
                    counted += 1
    assert counted == sum(len(exchanges) for exchanges in examples().values()) + 2  # and two request bodies


def test_query_parameters_keep_the_cross_field_rules(app):
    """What the document can only say in words (OpenAPI relates no parameter to another)."""
    client = app.test_client()
    answer = client.post("/api/v1/validate?format=duel&bracket=3", data=b"1 Sol Ring\n", content_type="text/plain")
    assert answer.status_code == 422 and "bracket" in answer.get_json()["errors"]
    answer = client.post("/api/v1/validate?format=oathbreaker", json={"decklist": "1 Sol Ring", "signature_spells": ["Sol Ring"]})
    assert answer.status_code == 200


@pytest.mark.parametrize(("config", "links"), (
    ({"DECK_URLS": False}, None),
    ({"MOXFIELD_USER_AGENT": None}, ("archidekt",)),
    ({"MOXFIELD_USER_AGENT": "tests/1.0 (granted)"}, ("archidekt", "moxfield")),
))
def test_the_document_says_what_the_settings_allow(fixture_db, config, links):
    """A `url` only where links are read (Moxfield's only with its User-Agent); house rules
    profile names only when there are profiles; the batch bound is the app's."""
    app = offline_app(fixture_db, BATCH_LIMIT=7, **config)
    document = app.test_client().get("/openapi.json").get_json()
    request = document["components"]["schemas"]["ValidateRequest"]
    url = request["properties"].get("url")
    assert (url is None) == (links is None)
    if links:
        assert [site for site in ("archidekt", "moxfield") if site in url["pattern"]] == list(links)
    else:
        assert request["required"] == ["decklist"] and "oneOf" not in request
    house_rules = request["properties"]["house_rules"]["oneOf"]
    assert [option.get("type") for option in house_rules] == [None, "null"]  # the rules object, or null
    parameters = [p["name"] for p in document["paths"]["/api/v1/validate"]["post"]["parameters"]]
    assert "house_rules" not in parameters
    assert document["components"]["schemas"]["BatchRequest"]["properties"]["decks"]["maxItems"] == 7


def test_docs_renders_the_same_document(app):
    """/docs shows the document this app serves: its version, every path, the request's rules."""
    client = app.test_client()
    document = client.get("/openapi.json").get_json()
    page = client.get("/docs").get_data(as_text=True)
    assert f"OpenAPI {document['openapi']}" in page and document["openapi"] == "3.1.0"
    assert all(f"<code>{path}</code>" in page for path in document["paths"])
    assert "Exactly one of `decklist` and `url`." in page
