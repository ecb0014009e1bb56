"""What every request and answer gets, whatever the view: a streamed body over
MAX_CONTENT_LENGTH is refused like one with a length (413), every answer says nosniff, and
the API's answers carry CORS headers for the origins the deployment allows (CORS_ORIGINS).
"""

from __future__ import annotations

from flask import Flask, Request, Response, current_app, request
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge
from werkzeug.wsgi import get_content_length

from edh_service.i18n.app import add_vary, first_header

CORS_PATHS = ("/api/", "/openapi.json")


def init_app(app: Flask) -> None:
    """Install both hooks."""
    app.before_request(refuse_cut_streams)
    app.after_request(add_common_headers)


def refuse_cut_streams() -> None:
    """413 for a streamed (chunked) body over MAX_CONTENT_LENGTH, as for one with a length.

    werkzeug cuts a body without Content-Length at the limit and hands over the rest
    silently: a list whose cards came after 1 MiB was judged without them (200), cut JSON
    was a 400. Read the body here (cached for the view, form fields parsed) and see
    whether the server has more of it.
    """
    served = request._get_current_object()  # type: ignore[attr-defined]  # one look-up through the context proxy
    environ = served.environ
    # served.content_length, read from the environ: the request's header view raises and
    # catches a KeyError for the Transfer-Encoding a request without one lacks
    if not environ.get("wsgi.input_terminated") or get_content_length(environ) is not None:
        return  # a body with a length: werkzeug holds it to MAX_CONTENT_LENGTH
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if not limit:
        return
    try:
        served.get_data(cache=True, parse_form_data=True)
        failed = None
    except ClientDisconnected:  # a read failed (the client stalled or left): no more to look for
        raise
    except HTTPException as error:  # a form cut mid-field may not parse: the size decides
        failed = error
    if environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    if failed is not None:
        raise failed


def add_common_headers(response: Response) -> Response:
    """nosniff everywhere; CORS on the API for the origins the deployment allows."""
    if first_header(response.headers, "x-content-type-options") is None:  # the page's own may be there
        response.headers.add("X-Content-Type-Options", "nosniff")  # none there: appended, with no second scan
    served = request._get_current_object()  # type: ignore[attr-defined]  # one look-up through the context proxy, not one a read
    if served.path.startswith(CORS_PATHS):
        allowed = current_app._get_current_object().config["CORS_ORIGINS"]  # type: ignore[attr-defined]  # the proxy once, not its attribute path
        add_cors_headers(response, allowed, served)
    return response


def add_cors_headers(response: Response, allowed: tuple[str, ...], served: Request) -> None:
    """Allow a browser on an allowed origin to call the API (no credentials involved):
    the answer to the request `served`."""
    add_vary(response, "Origin")  # caches must not serve one origin's answer to another
    origin = served.environ.get("HTTP_ORIGIN")  # served.headers["Origin"], without the header view's work
    if not origin or not ("*" in allowed or origin in allowed):
        return
    response.headers["Access-Control-Allow-Origin"] = "*" if "*" in allowed else origin
    # X-Request-ID both ways: a client may send its own id (docs/operations.md, "Request ids") and read ours.
    response.headers["Access-Control-Expose-Headers"] = "Retry-After, X-Request-ID"
    if served.method == "OPTIONS":  # preflight for a JSON POST
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = "Content-Type, X-Request-ID"
        response.headers["Access-Control-Max-Age"] = "600"
