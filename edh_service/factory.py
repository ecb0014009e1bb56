"""create_app(): configuration, card data, the API, the page, error handling, observability.

Wiring only: each concern lives in its own module and installs itself with `init_app` or
a blueprint, as in Flask's tutorial (flaskr).
"""

from __future__ import annotations

import os
from importlib import metadata as package_metadata
from typing import Any, Mapping

from flask import Flask, current_app, request
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge

from edh_service import api, cards, config, errors, observability, openapi, web
from edh_service.connections import DRAIN_FACTOR, DrainUnreadBodies

CORS_PATHS = ("/api/", "/openapi.json")


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the service: the settings' defaults, then the environment (or, in tests, the
    test mapping instead of the environment)."""
    app = Flask(__name__)
    app.config.from_mapping(config.defaults())
    if test_config is None:
        app.config.update(config.from_environment(os.environ))
    else:
        # Tests that count requests turn the rate limit on explicitly.
        app.config["RATELIMIT_ENABLED"] = not test_config.get("TESTING", False)
        app.config.update(test_config)
    app.config["USER_AGENT"] = app.config["USER_AGENT"] or default_user_agent()
    app.json.sort_keys = False  # keep the API's documented field order: valid, format, commanders...

    cards.init_app(app)
    app.register_blueprint(api.bp)
    app.add_url_rule("/healthz", view_func=api.healthz)
    app.add_url_rule("/readyz", view_func=api.readyz)
    errors.init_app(app)
    app.before_request(refuse_cut_streams)
    app.after_request(add_common_headers)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(web.bp)  # the paste-and-validate page at /
    observability.init_app(app)  # request ids, JSON request logs, /metrics, per-client rate limit
    app.wsgi_app = DrainUnreadBodies(app.wsgi_app, lambda: DRAIN_FACTOR * int(app.config["MAX_CONTENT_LENGTH"] or 0))
    return app


def default_user_agent() -> str:
    """Scryfall asks for an accurate User-Agent naming the application and its version."""
    try:
        version = package_metadata.version("edh-deck-validator")
    except package_metadata.PackageNotFoundError:
        version = "0.1.0"
    return f"edh-deck-validator/{version}"


def refuse_cut_streams() -> None:
    """413 for a streamed (chunked) body over MAX_CONTENT_LENGTH, as for one with a length.

    werkzeug cuts a body without Content-Length at the limit and hands over the rest
    silently: a list whose cards came after 1 MiB was judged without them (200), cut JSON
    was a 400. Read the body here (cached for the view, form fields parsed) and see
    whether the server has more of it.
    """
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    environ = request.environ
    if not limit or request.content_length is not None or not environ.get("wsgi.input_terminated"):
        return
    try:
        request.get_data(cache=True, parse_form_data=True)
        failed = None
    except ClientDisconnected:  # a read failed (the client stalled or left): no more to look for
        raise
    except HTTPException as error:  # a form cut mid-field may not parse: the size decides
        failed = error
    if environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    if failed is not None:
        raise failed


def add_common_headers(response):
    """nosniff everywhere; CORS on the API for the origins the deployment allows."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if request.path.startswith(CORS_PATHS):
        add_cors_headers(response, current_app.config["CORS_ORIGINS"])
    return response


def add_cors_headers(response, allowed: tuple[str, ...]) -> None:
    """Allow a browser on an allowed origin to call the API (no credentials involved)."""
    add_vary(response, "Origin")  # caches must not serve one origin's answer to another
    origin = request.headers.get("Origin")
    if not origin or not ("*" in allowed or origin in allowed):
        return
    response.headers["Access-Control-Allow-Origin"] = "*" if "*" in allowed else origin
    # X-Request-ID both ways: a client may send its own id (README, Operations) and read ours.
    response.headers["Access-Control-Expose-Headers"] = "Retry-After, X-Request-ID"
    if request.method == "OPTIONS":  # preflight for a JSON POST
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = "Content-Type, X-Request-ID"
        response.headers["Access-Control-Max-Age"] = "600"


def add_vary(response, header: str) -> None:
    """Add a name to the Vary header (werkzeug's response.vary parses and rewrites the whole
    header set on every call, a tenth of this app's own per-request overhead)."""
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = header
    elif header.lower() not in (name.strip().lower() for name in vary.split(",")):
        response.headers["Vary"] = f"{vary}, {header}"
