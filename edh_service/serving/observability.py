"""Operations around the API: request ids, structured JSON logs and Prometheus metrics at
/metrics (the per-client rate limit is ratelimit.py's; its fallbacks are counted here).
`create_app` calls `init_app(app)` once; nothing here knows about decks beyond the verdict
a validate view records.

Its settings (PROXY_FIX_X_FOR, METRICS_ENABLED, REQUEST_LOG) are in config.SETTINGS like
every other. With REDIS_URL, `redis_status` says whether Redis answers, for /readyz and
the edh_redis_* gauges. Under gunicorn with PROMETHEUS_MULTIPROC_DIR set (gunicorn_conf.py
sets it), /metrics sums every worker's counters; otherwise each worker reports its own.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterator, TextIO

from flask import Flask, Response, current_app, g, has_request_context, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from werkzeug.middleware.proxy_fix import ProxyFix

from edh_service import card_extension
from edh_service.serving.log_text import JSON_ESCAPES
from edh_service.serving.ratelimit import LIMITER_KEY, limit_storage_dead

METRICS_KEY = "metrics"
REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_ENVIRON = "HTTP_X_REQUEST_ID"  # how WSGI names that request header
# A client's id is echoed into logs and headers: accept only a short, plain token.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}\Z")
VALIDATE_ENDPOINTS = frozenset({"api.validate", "api.validate_batch"})  # their views record_verdict
# Every label takes its value from a fixed set: a 405 labelled the metrics with whatever
# method the client sent, and 20,000 made-up methods left /metrics at 37 MB until a restart.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"})
OTHER_METHOD = "other"
# Validation takes milliseconds; a deck of typos or a big batch takes seconds.
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

request_log = logging.getLogger("edh.request")


def init_app(app: Flask) -> None:
    """Install request ids, request logs and metrics on the app."""
    if app.config["PROXY_FIX_X_FOR"]:
        # Behind a reverse proxy every client has the proxy's address: trust its header.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=int(app.config["PROXY_FIX_X_FOR"]))  # type: ignore[method-assign]
    # Registered before the limiter's hook (ratelimit.init_app), so a 429 carries a request id too.
    app.before_request(start_request)
    app.after_request(finish_request)
    app.extensions[METRICS_KEY] = Metrics.create(app)
    if app.config["METRICS_ENABLED"]:
        app.add_url_rule("/metrics", "metrics", metrics_view)


def metrics_of(app: Flask) -> "Metrics":
    """The app's metrics (after init_app)."""
    return app.extensions[METRICS_KEY]


# --- request ids and request logs --------------------------------------------------------


def start_request() -> None:
    """Give the request an id (the client's X-Request-ID when sane) and start its clock."""
    environ = request._get_current_object().environ  # type: ignore[attr-defined]  # one look-up through the context proxy
    offered = environ.get(REQUEST_ID_ENVIRON, "")  # the X-Request-ID header, read straight from WSGI
    context = g._get_current_object()  # one look-up through the context proxy
    context.request_id = offered if offered and REQUEST_ID.match(offered) else new_request_id()  # most send none
    context.request_started = time.perf_counter()


def new_request_id() -> str:
    """A fresh request id in uuid4's layout (32 hex digits, its version and variant bits) from
    random.getrandbits, which gunicorn's workers each reseed at fork: uuid.uuid4() asked the
    kernel for 16 bytes and ran UUID's checks on every request. An id must be unique, not
    unguessable."""
    bits = random.getrandbits(128) & ~(0xF000 << 64) & ~(0xC000 << 48) | (0x4000 << 64) | (0x8000 << 48)
    return f"{bits:032x}"


def current_request_id() -> str | None:
    """The id of the request being served, if any (log lines outside requests have none)."""
    return g.get("request_id") if has_request_context() else None


def finish_request(response: Response) -> Response:
    """Echo the request id, count the request and log it as one JSON line."""
    # each context object looked up once through its proxy (a look-up costs more than the read)
    context, served, app = g._get_current_object(), request._get_current_object(), current_app._get_current_object()  # type: ignore[attr-defined]  # a LocalProxy
    request_id = context.get("request_id") or new_request_id()  # a hook before ours may have failed
    response.headers[REQUEST_ID_HEADER] = request_id
    now = time.perf_counter()
    seconds = now - context.get("request_started", now)
    rule = served.url_rule
    endpoint = rule.rule if rule else "unmatched"  # bounded label set
    metrics: Metrics = app.extensions[METRICS_KEY]
    metrics.observe(endpoint, method_label(served.method), response.status_code, seconds)
    if rule is not None and rule.endpoint in VALIDATE_ENDPOINTS:
        metrics.count_verdicts(verdicts(response, context))
    if app.config["REQUEST_LOG"] and request_log.isEnabledFor(logging.INFO):
        request_log.info(
            "%s %s %s", served.method, served.path, response.status_code,
            extra={"method": served.method, "path": served.path, "status": response.status_code,
                   "duration_ms": round(seconds * 1000, 2), "client": served.remote_addr,
                   "bytes_in": served.content_length or 0, "request_id": request_id},
        )
    return response


def method_label(method: str) -> str:
    """The method as a metrics label: a standard one as it is, anything else "other"."""
    return method if method in METHODS else OTHER_METHOD


def record_verdict(valid: bool) -> None:
    """The view's word on one validated deck, counted when the response goes out (reading it
    back out of the response body cost a JSON decode per request)."""
    g._get_current_object().setdefault("verdicts", []).append("valid" if valid else "invalid")  # one proxy look-up


def verdicts(response: Response, context: Any) -> list[str]:
    """valid/invalid per deck of a 200 (as the view recorded them in `context`, the request's
    flask.g); "unavailable" for a 503; "rejected" for other errors."""
    if response.status_code == 503:
        return ["unavailable"]
    if response.status_code != 200:
        return ["rejected"]
    return context.get("verdicts", [])


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id and any extras;
    no control character unescaped (log_text.py)."""

    # Attributes every LogRecord has; anything else came in through `extra=`.
    STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line."""
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or current_request_id()
        if request_id:
            entry["request_id"] = request_id
        entry.update((k, v) for k, v in vars(record).items() if k not in self.STANDARD and k not in entry)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        # json escapes C0 controls; DEL, C1 and the bidirectional overrides are escaped too
        return json.dumps(entry, default=str, ensure_ascii=False).translate(JSON_ESCAPES)


def configure_logging(level: str | int = "INFO", stream: TextIO | None = None) -> logging.Handler:
    """Send every logger's records to stream (stderr) as JSON lines; returns the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper() if isinstance(level, str) else level)
    return handler


# --- metrics ---------------------------------------------------------------------------


@dataclass
class Metrics:
    """The app's Prometheus metrics, in a registry of its own (tests build many apps)."""

    registry: CollectorRegistry
    requests: Counter
    latency: Histogram
    validations: Counter
    limit_fallbacks: Counter

    @classmethod
    def create(cls, app: Flask) -> "Metrics":
        """Metrics for one app; card data figures are read at scrape time."""
        registry = CollectorRegistry()
        labels = ("endpoint", "method", "status")
        metrics = cls(
            registry=registry,
            requests=Counter("edh_http_requests_total", "HTTP requests by endpoint, method and status.",
                             labels, registry=registry),
            latency=Histogram("edh_http_request_duration_seconds", "Time to answer, by endpoint, method "
                              "and status.", labels, buckets=LATENCY_BUCKETS, registry=registry),
            validations=Counter("edh_validations_total", "Decks validated through the API, by verdict "
                                "(valid, invalid; rejected or unavailable requests).", ("verdict",),
                                registry=registry),
            limit_fallbacks=Counter("edh_rate_limit_fallbacks_total", "Requests whose per-client budget "
                                    "was counted in this process's memory because the shared rate-limit "
                                    "storage (Redis) could not be reached.", registry=registry),
        )
        registry.register(CardDataCollector(app))
        return metrics

    # (endpoint, method, status) -> that label set's (requests, latency) children, and
    # verdict -> its counter: `labels()` checks and locks on every call, and every label
    # comes from a bounded set (see METHODS), so each child is looked up once
    children: dict = field(default_factory=dict, repr=False)

    def observe(self, endpoint: str, method: str, status: int, seconds: float) -> None:
        """Count one answered request and its latency."""
        pair = self.children.get((endpoint, method, status))
        if pair is None:
            labels = (endpoint, method, str(status))
            pair = self.children[endpoint, method, status] = (self.requests.labels(*labels),
                                                              self.latency.labels(*labels))
        pair[0].inc()
        pair[1].observe(seconds)

    def count_verdicts(self, verdicts: list[str]) -> None:
        """Count one validation per verdict."""
        for verdict in verdicts:
            counter = self.children.get(verdict)
            if counter is None:
                counter = self.children[verdict] = self.validations.labels(verdict)
            counter.inc()


class CardDataCollector:
    """Card data figures, read from the store when Prometheus scrapes (never stale)."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """Age and size of the store, and whether the last background sync failed."""
        repository = card_extension.repository_of(self.app)
        meta = repository.metadata() if repository is not None else None
        loaded = GaugeMetricFamily("edh_card_data_loaded", "1 when a card store is loaded.")
        loaded.add_metric([], 1.0 if meta else 0.0)
        yield loaded
        if meta:
            yield gauge("edh_card_data_age_seconds", "Seconds since the bulk file's updated_at.",
                        card_data_age(meta.updated_at))
            yield gauge("edh_card_data_cards", "Cards in the store.", meta.cards)
        syncer = card_extension.syncer_of(self.app)
        if syncer is not None:
            yield gauge("edh_card_data_sync_failing", "1 when this process's last sync failed.",
                        1.0 if syncer.last_error else 0.0)
        yield from redis_gauges(self.app)

    def describe(self) -> list:
        """Nothing to describe up front: reading the store at registration is not wanted."""
        return []


def gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    """A gauge sample without labels."""
    family = GaugeMetricFamily(name, documentation)
    family.add_metric([], float(value))
    return family


def redis_status(app: Flask) -> dict[str, Any] | None:
    """With REDIS_URL: whether Redis answers now (asked, not remembered) and the shared
    limits' fallbacks so far, from card_data's coordination and ratelimit.py; else None."""
    if not app.config["REDIS_URL"]:
        return None
    status = card_extension.probe_redis(app)
    limiter = app.extensions.get(LIMITER_KEY)
    status["rate_limit_storage"] = "memory (fallback)" if limit_storage_dead(limiter) else "shared"
    return status


def redis_gauges(app: Flask) -> Iterator[GaugeMetricFamily]:
    """edh_redis_up and the card-data coordination's outage and fallback counts."""
    status = redis_status(app)
    if status is None:
        return
    yield gauge("edh_redis_up", "1 when Redis answers (REDIS_URL set).", 1.0 if status["redis_up"] else 0.0)
    yield gauge("edh_redis_outages", "Times this process lost Redis (card data coordination).",
                status["redis_outages"])
    yield gauge("edh_scryfall_budget_fallbacks", "Scryfall budget, lockout and sync-lock calls answered "
                "by this host's files because Redis could not be reached.", status["redis_fallbacks"])


def card_data_age(updated_at: str) -> float:
    """Seconds since an ISO 8601 updated_at (NaN when unreadable)."""
    try:
        then = datetime.fromisoformat(updated_at.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return float("nan")
    if then.tzinfo is None:
        then = then.replace(tzinfo=timezone.utc)
    return (datetime.now(timezone.utc) - then).total_seconds()


def metrics_view() -> Response:
    """Prometheus text exposition: this worker's registry, or every worker's in multiprocess mode."""
    registry = current_app.extensions[METRICS_KEY].registry
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess  # only meaningful with the directory set

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        registry.register(CardDataCollector(current_app._get_current_object()))  # type: ignore[attr-defined]  # a LocalProxy
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
