"""Hostile bodies at the size limits (issue 19): 1 MiB bodies of every kind, huge arrays in
the option fields, deep nesting at the limit, and batches of the most decks each as large
as the limit allows. Each is a 2xx or a 4xx envelope naming the problem, never a 5xx."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.live_http import BATCH, VALIDATE

LIMIT = 1024 * 1024  # MAX_CONTENT_LENGTH's default
TYPES = ["application/json", "text/plain", "text/plain; charset=utf-16", "text/plain; charset=unicode_escape",
         "text/plain; charset=utf-7", "application/x-www-form-urlencoded", "multipart/form-data; boundary=B", None]


def envelope(response, *statuses: int) -> dict:
    """The JSON error envelope of a 4xx in `statuses`."""
    assert response.status_code in statuses, (response.status_code, response.get_data(as_text=True)[:300])
    body = response.get_json()
    assert body["code"] == response.status_code and body["message"]
    return body


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.binary(min_size=1, max_size=64), size=st.sampled_from([LIMIT - 1, LIMIT, LIMIT + 1]),
       content_type=st.sampled_from(TYPES), path=st.sampled_from([VALIDATE, BATCH, "/"]))
def test_a_body_of_any_kind_at_the_limit_is_never_a_5xx(client, seed, size, content_type, path):
    body = (seed * (size // len(seed) + 1))[:size]
    response = client.post(path, data=body, content_type=content_type)
    assert response.status_code < 500, (path, content_type, size, response.get_data(as_text=True)[:300])
    if size > LIMIT:  # refused for its size, or for a type the path never reads (415 first)
        assert response.status_code in (413, 415)


def test_huge_arrays_in_the_option_fields_are_a_422_naming_them(client):
    """Just under 1 MiB of commanders, include entries, color choices: each names its field."""
    cases = {
        "commanders": ["a"] * 200_000,
        "include": ["overview"] * 80_000,
        "color_choices": {f"c{i}": "R" for i in range(60_000)},
        "companion": ["a"] * 200_000,
    }
    for field, value in cases.items():
        body = json.dumps({"decklist": "1 Sol Ring", field: value})
        assert len(body) < LIMIT, field
        errors = envelope(client.post(VALIDATE, data=body, content_type="application/json"), 422)["errors"]
        assert field in errors, (field, errors)


@pytest.mark.parametrize(("opening", "closing"), [(b"[", b"]"), (b'{"a":', b"}")])
def test_nesting_as_deep_as_1_mib_allows_is_a_400(client, opening, closing):
    depth = (LIMIT - 40) // (len(opening) + len(closing))
    for path, wrap in ((VALIDATE, b'{"decklist": "x", "commanders": %s}'), (BATCH, b'{"decks": [%s]}')):
        body = wrap % (opening * depth + b"1" * (opening == b'{"a":') + closing * depth)
        assert len(body) <= LIMIT
        assert "nested too deeply" in envelope(client.post(path, data=body, content_type="application/json"), 400)["message"]


def test_a_batch_of_the_most_decks_each_as_large_as_allowed(client):
    """50 decks of 20 KB each (the body just under 1 MiB): over the 20,000-line total a 422
    naming the batch; at 400 lines each (20,000 in all, distinct unknown names) a 200 with a
    result per deck, in order."""
    too_many = [{"decklist": "1 Forest\n" * 2_000} for _ in range(50)]
    body = json.dumps({"decks": too_many})
    assert LIMIT - 100_000 < len(body) < LIMIT
    assert "decks" in envelope(client.post(BATCH, data=body, content_type="application/json"), 422)["errors"]
    decks = [{"decklist": "".join(f"1 Unknown card {deck}-{line} of a batch\n" for line in range(400))}
             for deck in range(50)]
    body = json.dumps({"decks": decks})
    assert len(body) < LIMIT
    response = client.post(BATCH, data=body, content_type="application/json")
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert len(results) == 50
    for number, result in enumerate(results):
        unknown = [v for v in result["violations"] if v["code"] == "unknown_card"]
        assert len(unknown) == 400 and unknown[0]["cards"][0].startswith(f"Unknown card {number}-")
