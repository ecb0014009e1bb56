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
from schemathesis.checks import negative_data_rejection, not_a_server_error

from tests.support.apps import offline_app

OPERATIONS = (
    ("/api/v1/validate", "POST"),
    ("/api/v1/validate/batch", "POST"),
    ("/api/v1/cards/{name}", "GET"),
    ("/healthz", "GET"),
    ("/readyz", "GET"),
)
MODES = (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE)


@pytest.fixture
def api_schema(fixture_db):
    """The service's own OpenAPI document, loaded from the app over the fixture store."""
    app = offline_app(fixture_db)
    return schemathesis.openapi.from_wsgi("/openapi.json", app)


def test_the_document_lists_exactly_the_tested_operations(api_schema):
    listed = {(op.ok().path, op.ok().method.upper()) for op in api_schema.get_all_operations()}
    assert listed == set(OPERATIONS)


CASES = [(path, method, mode) for path, method in OPERATIONS for mode in MODES
         # Health checks take no input, so there is nothing to make invalid.
         if not (mode is schemathesis.GenerationMode.NEGATIVE and path in ("/healthz", "/readyz"))]


def type_blind_checks(case) -> list:
    """On the wire a query value and a text/plain body are always strings, so a "wrong type"
    mutation of them (commanders=262989, a body of -5.2e16) is no invalid request: skip the
    must-be-rejected check there, keep it for JSON bodies. Every other check still runs."""
    if case.query or case.media_type == "text/plain":
        return [negative_data_rejection]
    return []


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
    for path, parameters in (("/readyz", None), ("/api/v1/cards/{name}", {"name": "Sol Ring"})):
        case = offline[path]["GET"].Case(path_parameters=parameters)
        # A 503 is the documented answer here, not a server failure.
        response = case.call_and_validate(excluded_checks=[not_a_server_error])
        assert response.status_code == 503
