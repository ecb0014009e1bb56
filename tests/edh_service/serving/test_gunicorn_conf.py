"""gunicorn as a real process, configured as `make run` configures it, over loopback:
a real store file, a deck validated over HTTP, and a store-less start that answers 503."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from tests.support.live_server import gunicorn


def call(base: str, path: str, body: dict | None = None) -> tuple[int, dict, dict]:
    """(status, headers, JSON body) of a GET, or of a JSON POST when body is given."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.load(error)


def test_gunicorn_validates_a_deck_over_http(fixture_db, tmp_path):
    deck = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n1 Lightning Bolt\n97 Forest\n1 Mana Crypt\n"
    log = tmp_path / "log"
    with gunicorn(log, CARD_DB=str(fixture_db), CARD_DATA_OFFLINE="1") as (base, _):
        assert call(base, "/readyz")[0] == 200
        status, headers, body = call(base, "/api/v1/validate", {"decklist": deck})
        assert status == 200
        assert headers["Content-Type"] == "application/json"
        assert body["commanders"] == ["Atraxa, Praetors' Voice"]
        assert body["card_count"] == 101
        codes = {v["code"]: v for v in body["violations"]}
        assert set(codes) == {"banned", "color_identity", "deck_size"}
        assert codes["color_identity"]["cards"] == ["Lightning Bolt"]
        assert codes["banned"]["lines"] == [8]
        status, _, body = call(base, "/api/v1/validate/batch", {"decks": [{"decklist": deck}] * 3})
        assert status == 200 and len(body["results"]) == 3
    output = log.read_text(errors="replace")
    assert "Booting worker" in output
    assert '"POST /api/v1/validate HTTP/1.1" 200' in output  # readable access log


def test_gunicorn_starts_without_card_data_and_says_why(tmp_path):
    store = tmp_path / "absent" / "cards.sqlite3"
    log = tmp_path / "log"
    with gunicorn(log, CARD_DB=str(store), CARD_DATA_OFFLINE="1") as (base, _):
        status, headers, body = call(base, "/readyz")
        assert (status, body["code"]) == (503, 503)
        assert int(headers["Retry-After"]) >= 1
        status, headers, body = call(base, "/api/v1/validate", {"decklist": "1 Sol Ring"})
        assert status == 503 and "Retry-After" in headers
        assert call(base, "/healthz")[0] == 200  # alive, just not ready
    said = log.read_text(errors="replace")
    assert f"No card data in {store}: CARD_DATA_OFFLINE is set" in said
    assert "import /path/to/oracle-cards.jsonl.gz" in said  # and what to do about it
