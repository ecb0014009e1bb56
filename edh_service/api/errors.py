"""Error handling: every 4xx/5xx under /api/ (and on the health endpoints) is one JSON
envelope `{"code", "status", "message", "errors"?}` where `code` equals the HTTP status;
the page keeps Flask's HTML. Never a 500 for bad input, never an HTML page on /api/.

The envelope's `message` (and the messages inside `errors`) is in the request's language
(DESIGN.md "Answers in the player's language"): an error raised with its text as data
(`said`, `unprocessable` given a validator.messages.Text) is rendered from it; any other
text is looked up in the catalogs as it is (werkzeug's own descriptions, HTTP_TEXTS, and
the fixed sentences of other layers), else shown in English. `code` and `status` never change.
"""

from __future__ import annotations

import logging
from typing import Any, Mapping

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import (
    BadGateway,
    ClientDisconnected,
    GatewayTimeout,
    HTTPException,
    InternalServerError,
    RequestEntityTooLarge,
    ServiceUnavailable,
    UnprocessableEntity,
)

from card_data import CardDataError, CardDataUnavailable
from card_data.errors import DeckSiteBusy, DeckSiteFailed, DeckSiteTimeout, DeckSourceError
from edh_service import card_extension
from edh_service.i18n.app import renderer
from edh_service.serving import connections
from validator.messages import Renderer, Text, msg
from validator.parse import DecklistError

log = logging.getLogger(__name__)

JSON_PATHS = ("/api/", "/healthz", "/readyz", "/openapi.json")

# werkzeug's own descriptions of the statuses the service answers with its defaults: in the
# catalogs, so the envelope says them in the request's language too.
HTTP_TEXTS = (
    msg("The browser (or proxy) sent a request that this server could not understand."),
    msg("The requested URL was not found on the server. If you entered the URL manually please check your "
        "spelling and try again."),
    msg("The method is not allowed for the requested URL."),
    msg("The data value transmitted exceeds the capacity limit."),
    msg("The server does not support the media type transmitted in the request."),
    msg("The request was well-formed but was unable to be followed due to semantic errors."),
    msg("This user has exceeded an allotted request count. Try again later."),
    msg("The server is temporarily unable to service your request due to maintenance downtime or capacity "
        "problems. Please try again later."),
)
STOPPED = msg("The request body stopped arriving before its end.")


class Said(str):
    """A message as English text that also carries its Text: it passes through whatever takes a
    string (marshmallow's error messages, an exception's arguments) and the envelope renders
    it in the request's language."""

    __slots__ = ("text",)
    text: Text

    def __new__(cls, text: Text) -> Said:
        said = super().__new__(cls, text.english())
        said.text = text
        return said


def said(error: HTTPException, text: Text) -> HTTPException:
    """An HTTP error whose message is `text`: English in its description (logs, the page),
    the request's language in the envelope."""
    error.description = text.english()
    error.text = text  # type: ignore[attr-defined]
    return error


def unprocessable(message: str | Text, errors: Any) -> UnprocessableEntity:
    """A 422 carrying per-field details for the envelope (a Text in them is rendered too)."""
    error = UnprocessableEntity(message if isinstance(message, str) else message.english())
    if isinstance(message, Text):
        error.text = message  # type: ignore[attr-defined]
    error.errors = errors  # type: ignore[attr-defined]
    return error


def deck_source_error(error: DeckSourceError, where: tuple[str, ...] = ()) -> HTTPException:
    """The answer for a deck a link could not give, its message on the `url` field (under
    `where`, a batch item's path): 422 for the link or the deck (another site, private,
    deleted), 502 for the site's answer (an error, not its deck JSON, too large, a redirect
    away), 504 for its silence past the deadline, 503 with Retry-After for this service's
    own budget for the site (or a 429 the site sent)."""
    message = str(error) if error.text is None else Said(error.text)
    if isinstance(error, DeckSiteFailed):
        answer: HTTPException = BadGateway(message)
    elif isinstance(error, DeckSiteTimeout):
        answer = GatewayTimeout(message)
    elif isinstance(error, DeckSiteBusy):
        answer = ServiceUnavailable(message, retry_after=error.retry_after)
    else:
        answer = UnprocessableEntity(message)
    errors: Any = {"url": [message]}
    for key in reversed(where):
        errors = {key: errors}
    answer.errors = errors  # type: ignore[attr-defined]
    return answer


def wants_json() -> bool:
    """Errors under /api/ and on the health endpoints are JSON; the page keeps HTML."""
    return request.path.startswith(JSON_PATHS) or request.path == "/api"


def envelope(code: int, status: str, message: str | Text, errors: Any = None, headers=()) -> Any:
    """The one error shape: {"code", "status", "message", "errors"?}, its texts in the
    request's language."""
    language = renderer()
    body = {"code": code, "status": status, "message": translated(message, language)}
    if errors:
        body["errors"] = string_keys(errors, language)
    response = jsonify(body)
    response.status_code = code
    response.headers.extend(headers)
    return response


def translated(text: str | Text, language: Renderer) -> str:
    """A message in a language: a Text rendered, a string as the catalogs have it (itself
    when they have no such message id)."""
    if isinstance(text, Said):
        text = text.text
    return text.render(language) if isinstance(text, Text) else language.gettext(text)


def string_keys(value: Any, language: Renderer | None = None) -> Any:
    """marshmallow keys list errors by int index; JSON objects need string keys. With a
    language, the messages in them are translated too."""
    if isinstance(value, Mapping):
        return {str(key): string_keys(item, language) for key, item in value.items()}
    if isinstance(value, (list, tuple)) and not isinstance(value, Text):
        return [string_keys(item, language) for item in value]
    if isinstance(value, (str, Text)) and language is not None:
        return translated(value, language)
    if isinstance(value, Text):
        return value.english()
    return value


def close_stopped_body() -> str:
    """For werkzeug's ClientDisconnected (400): a read of the body failed, e.g. gunicorn's
    CLIENT_TIMEOUT cut off a client that stopped sending. The connection closes after the
    answer (connections.body_stopped); the message, for the envelope or the page, says what
    happened (werkzeug's own text blames the request)."""
    connections.body_stopped(request.environ)
    return STOPPED.english()


def handle_http_exception(error: HTTPException):
    """Every HTTP error under /api/ as the envelope; elsewhere Flask's own page."""
    if isinstance(error, ClientDisconnected):
        error.description = close_stopped_body()
    if not wants_json():
        return error
    # Keep headers such as Allow (405) but not the HTML content type.
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    message: str | Text = getattr(error, "text", None) or error.description or ""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if isinstance(error, RequestEntityTooLarge) and limit:
        # werkzeug's own text names no figure; the page shows this message as is.
        message = msg("The request body is over the limit of {limit} bytes. Send a shorter list.", limit=str(limit))
    return envelope(error.code or 500, error.name, message, getattr(error, "errors", None), headers)


def handle_decklist_error(error: DecklistError):
    """Text the parser refuses outright (too many lines): a 422 on the decklist field."""
    message = Said(error.text)
    return handle_http_exception(unprocessable(message, {"decklist": [message]}))


def handle_unavailable(error: CardDataUnavailable):
    """No card data yet (or Scryfall is down for a miss): 503 and when to come back."""
    seconds = card_extension.retry_after(error)
    text = msg("Card data is not available yet; retry in {seconds} s.", seconds=str(seconds))
    return handle_http_exception(said(ServiceUnavailable(retry_after=seconds), text))


def handle_card_data_error(error: CardDataError):
    """The store is broken in some other way: log it, 503, and try again later."""
    log.exception("card data error")
    return handle_unavailable(CardDataUnavailable(str(error), card_extension.wait_seconds()))


def handle_deck_source_error(error: DeckSourceError):
    """A deck link that gave no deck, wherever it was read: the envelope with its status."""
    return handle_http_exception(deck_source_error(error))


def handle_unexpected(error: Exception):
    """A bug: log it with its traceback and answer a plain 500 (no details leak)."""
    log.exception("unhandled error on %s %s", request.method, request.path)
    if not wants_json():
        return InternalServerError()
    return envelope(500, "Internal Server Error", msg("The server failed; the error was logged."))


def init_app(app: Flask) -> None:
    """Install the envelope handlers (most specific class wins)."""
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(DecklistError, handle_decklist_error)
    app.register_error_handler(CardDataUnavailable, handle_unavailable)
    app.register_error_handler(CardDataError, handle_card_data_error)
    app.register_error_handler(DeckSourceError, handle_deck_source_error)
    app.register_error_handler(Exception, handle_unexpected)
