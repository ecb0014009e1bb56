"""The OpenAPI document's examples, as real answers: each request is sent to the app over
the fixture store (tests/fixtures/cards.jsonl, imported with a fixed updated_at) with the
contract app's house rules profile, and the answer is kept as it came. The document reads
them from edh_service/api/openapi_examples.json; tests/edh_service/api/test_openapi.py
holds that file to what the app answers now.

    python -m tests.support.openapi_examples    # rewrite the file
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from card_data.sync import import_file
from edh_service.api.openapi_examples import EXAMPLES_FILE
from tests.support.contract_app import FIXTURES, contract_app

DECK = (FIXTURES / "decklists" / "mtggoldfish.txt").read_text(encoding="utf-8")
# (operation key, status, method, path, JSON body or None)
EXCHANGES = (
    ("validate", "200", "POST", "/api/v1/validate", {"decklist": DECK, "format": "commander", "bracket": 3}),
    ("validate", "422", "POST", "/api/v1/validate", {"decklist": DECK, "format": "duel", "bracket": 3}),
    ("batch", "200", "POST", "/api/v1/validate/batch",
     {"decks": [{"decklist": DECK}, {"decklist": DECK, "house_rules": "thursday"}]}),
    ("card", "200", "GET", "/api/v1/cards/Sol%20Ring", None),
    ("card", "404", "GET", "/api/v1/cards/Sol%20Rnig", None),
    ("formats", "200", "GET", "/api/v1/formats", None),
    ("house_rules", "200", "GET", "/api/v1/house-rules", None),
    ("healthz", "200", "GET", "/healthz", None),
    ("readyz", "200", "GET", "/readyz", None),
)


def answers() -> dict:
    """{operation: {status: {"request": body or None, "response": body}}}, from the app now."""
    found: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "cards.sqlite3"
        import_file(db, FIXTURES / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
        with contract_app(db, Path(folder)) as app:
            client = app.test_client()
            for key, status, method, path, body in EXCHANGES:
                response = client.open(path, method=method, json=body)
                assert str(response.status_code) == status, (path, response.status_code, response.get_json())
                answer = response.get_json()
                if key == "readyz":  # the build's engine: the example shows the Docker image's
                    answer["engine"] = "compiled"
                found.setdefault(key, {})[status] = {"request": body, "response": answer}
    return found


def write() -> None:
    """Rewrite the examples file from the app's answers."""
    EXAMPLES_FILE.write_text(json.dumps(answers(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
