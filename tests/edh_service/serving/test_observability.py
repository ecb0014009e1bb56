"""edh_service/serving/observability.py: X-Request-ID in and out, JSON log lines carrying it,
Prometheus metrics (summed over gunicorn's workers), and a graceful SIGTERM on gunicorn.
The per-client rate limit is test_ratelimit.py's; /metrics against hostile clients is
tests/hardening/test_metrics_bounds.py's."""

from __future__ import annotations

import io
import json
import logging
import re
import signal
import sys
import threading

import pytest

from edh_service.serving.observability import JsonFormatter, card_data_age
from tests.support.apps import offline_app
from tests.support.waiting import wait_for
from tests.support.live_http import NORMAL_DECK, VALIDATE, assert_normal_answer, gunicorn, http_json
from tests.support.responses import sample


@pytest.mark.parametrize(("offered", "echoed"), (
    ("req-42.abc:1", "req-42.abc:1"),
    ("", None),  # none offered: a fresh one
    ("has spaces and\u00e9", None),  # not a plain token: replaced, never echoed into logs
    ("x" * 129, None),
))
def test_request_id_in_and_out(client, offered, echoed):
    response = client.get("/healthz", headers={"X-Request-ID": offered} if offered else {})
    returned = response.headers["X-Request-ID"]
    assert returned == echoed if echoed else re.fullmatch(r"[0-9a-f]{32}", returned)


def test_fresh_request_ids_have_uuid4s_layout_and_do_not_repeat():
    import uuid

    from edh_service.serving.observability import new_request_id

    ids = [new_request_id() for _ in range(1000)]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) and uuid.UUID(i).version == 4
               and uuid.UUID(i).variant == uuid.RFC_4122 for i in ids)


def test_error_envelopes_carry_a_request_id_too(client):
    response = client.post(VALIDATE, data=b"[" * 1000, content_type="application/json")
    assert response.status_code == 400 and response.headers["X-Request-ID"]


def test_request_log_is_one_json_line_with_the_request_id(client):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("edh.request")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        client.post(VALIDATE, json={"decklist": NORMAL_DECK}, headers={"X-Request-ID": "trace-7"})
    finally:
        logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
    entry = json.loads(stream.getvalue().strip().splitlines()[-1])
    assert entry["request_id"] == "trace-7"
    assert (entry["logger"], entry["level"], entry["method"], entry["path"], entry["status"]) == (
        "edh.request", "info", "POST", VALIDATE, 200)
    assert entry["duration_ms"] >= 0 and entry["time"].endswith("+00:00")


def test_json_formatter_keeps_exceptions_and_extras():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.getLogger("x").makeRecord("x", logging.ERROR, "f", 1, "failed %s", ("sync",),
                                                   exc_info=sys.exc_info(), extra={"attempt": 3})
    entry = json.loads(JsonFormatter().format(record))
    assert (entry["message"], entry["attempt"], entry["level"]) == ("failed sync", 3, "error")
    assert "ValueError: boom" in entry["exception"] and "request_id" not in entry


def test_metrics_count_requests_verdicts_and_card_data_age(client):
    client.post(VALIDATE, json={"decklist": NORMAL_DECK})
    client.post(VALIDATE, json={"decklist": NORMAL_DECK})
    client.post(VALIDATE, data=b"{", content_type="application/json")
    client.post("/api/v1/validate/batch", json={"decks": [{"decklist": NORMAL_DECK}] * 3})
    client.get("/api/v1/cards/Sol%20Ring")
    client.get("/nowhere")
    metrics = client.get("/metrics").get_data(as_text=True)
    assert sample(metrics, "edh_http_requests_total", endpoint=VALIDATE, method="POST", status="200") == 2
    assert sample(metrics, "edh_http_requests_total", endpoint=VALIDATE, method="POST", status="400") == 1
    assert sample(metrics, "edh_http_requests_total", endpoint="/api/v1/cards/<path:name>", status="200") == 1
    assert sample(metrics, "edh_http_requests_total", endpoint="unmatched", status="404") == 1
    assert sample(metrics, "edh_http_request_duration_seconds_count", endpoint=VALIDATE, status="200") == 2
    assert sample(metrics, "edh_validations_total", verdict="invalid") == 5  # 2 single + 3 in the batch
    assert sample(metrics, "edh_validations_total", verdict="rejected") == 1
    age = sample(metrics, "edh_card_data_age_seconds")
    assert abs(age - card_data_age("2026-11-01T00:00:00+00:00")) < 60
    assert sample(metrics, "edh_card_data_cards") == 98 and sample(metrics, "edh_card_data_loaded") == 1


def test_metrics_without_card_data(tmp_path):
    metrics = offline_app(tmp_path / "absent").test_client().get("/metrics").get_data(as_text=True)
    assert sample(metrics, "edh_card_data_loaded") == 0
    assert "edh_card_data_age_seconds" not in metrics


# --- gunicorn ----------------------------------------------------------------------------


@pytest.mark.timeout(90)
def test_gunicorn_metrics_logs_and_graceful_sigterm(fixture_db, scryfall_server, tmp_path):
    """Two workers: /metrics sums both; logs are JSON with request ids; SIGTERM lets an
    in-flight request finish (it waits 2 s on a slow Scryfall) and the master exits 0."""
    log = tmp_path / "gunicorn.log"
    with gunicorn(log, CARD_DB=str(fixture_db), CARD_DATA_OFFLINE="0", CARD_DATA_SYNC="0",
                  SCRYFALL_API_URL=scryfall_server.base_url) as (base, process):
        for _ in range(12):  # fresh connections: both workers answer some of them
            assert_normal_answer(http_json(base, "POST", VALIDATE, {"decklist": NORMAL_DECK}))
        metrics = http_json(base, "GET", "/metrics").body.decode()
        assert sample(metrics, "edh_http_requests_total", endpoint=VALIDATE, status="200") == 12
        assert sample(metrics, "edh_validations_total", verdict="invalid") == 12

        scryfall_server.delay = 2.0  # the next miss keeps a request in flight for 2 s
        answers = []
        slow = threading.Thread(target=lambda: answers.append(
            http_json(base, "POST", VALIDATE, {"decklist": NORMAL_DECK + "1 Slowpoke Nonesuch\n"})))
        slow.start()
        assert wait_for(lambda: scryfall_server.paths("POST"))  # the request reached the worker
        process.send_signal(signal.SIGTERM)
        slow.join(20)
        assert process.wait(20) == 0
    assert answers and answers[0].status == 200
    assert "unknown_card" in {v["code"] for v in answers[0].json()["violations"]}
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    requests = [entry for entry in lines if entry["logger"] == "edh.request"]
    assert len(requests) >= 14 and all(re.fullmatch(r"[0-9a-f]{32}", e["request_id"]) for e in requests)
    assert "Handling signal: term" in log.read_text()
