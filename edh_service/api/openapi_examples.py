"""The OpenAPI document's examples: real answers of the app over the test fixture cards,
kept in openapi_examples.json (tests/support/openapi_examples.py writes it; the suite
holds it to what the app answers)."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

EXAMPLES_FILE = Path(__file__).with_name("openapi_examples.json")
# the document's (path, method) of each example's operation
OPERATIONS = {"validate": ("/api/v1/validate", "post"), "batch": ("/api/v1/validate/batch", "post"),
              "card": ("/api/v1/cards/{name}", "get"), "formats": ("/api/v1/formats", "get"),
              "house_rules": ("/api/v1/house-rules", "get"), "healthz": ("/healthz", "get"),
              "readyz": ("/readyz", "get")}


@lru_cache(maxsize=1)
def examples() -> dict:
    """{operation: {status: {"request", "response"}}} as stored."""
    return json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))


def add_examples(document: dict) -> dict:
    """Each operation's stored exchanges as the examples of its request body and responses."""
    for key, exchanges in examples().items():
        path, method = OPERATIONS[key]
        operation = document["paths"][path][method]
        for status, exchange in exchanges.items():
            request = exchange["request"]
            summary = f"A real {status} answer over the test fixture cards" + (
                f", to {json.dumps(request, ensure_ascii=False)}" if request is not None and status[0] != "2" else "")
            # responses may share their objects between operations (openapi.py's constants): copy before adding
            response = operation["responses"][status] = copy.deepcopy(operation["responses"][status])
            response["content"]["application/json"]["examples"] = {
                "fixture": {"summary": summary, "value": exchange["response"]}}
            if request is not None and status[0] == "2":
                body = operation["requestBody"] = copy.deepcopy(operation["requestBody"])
                body["content"]["application/json"]["examples"] = {
                    "fixture": {"summary": f"The request of the {status} example", "value": request}}
    return document
