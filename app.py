"""The HTTP service: create_app() wires config, card data, the JSON API and error handling.

No rule logic lives here: a view reads the request through a schema, hands the text to
`service.validate_text` and dumps the Report. Every 4xx/5xx under /api/ is one JSON
envelope `{"code", "status", "message", "errors"?}` (DESIGN.md).
"""

from __future__ import annotations

import codecs
import json
import logging
import os
from importlib import metadata as package_metadata
from pathlib import Path
from typing import Any, Callable, Mapping

from flask import Blueprint, Flask, current_app, jsonify, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import (
    BadRequest,
    HTTPException,
    InternalServerError,
    NotFound,
    RequestEntityTooLarge,
    ServiceUnavailable,
    UnprocessableEntity,
    UnsupportedMediaType,
)

import observability
import openapi
import schemas
import service
from card_data import CardDataError, CardDataUnavailable, open_repository
from card_data.repository import MAX_SUGGESTED_NAMES
from runtime import REPOSITORY_KEY, SYNC_KEY, BackgroundSync, card_data_wait, retry_after_for
from validator.parse import MAX_LINES, DecklistError
from validator.parse import split_lines
from validator.card_facts import commander_eligibility, pairing_abilities
from web import bp as web_bp

log = logging.getLogger(__name__)

JSON_PATHS = ("/api/", "/healthz", "/readyz", "/openapi.json")
CORS_PATHS = ("/api/", "/openapi.json")
BATCH_MIN_SUGGESTIONS = 3  # each deck of a batch still gets suggestions for a few typos


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the service: defaults, then the environment, then the test mapping."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        SCRYFALL_API_URL="https://api.scryfall.com",
        CARD_DB=os.path.join(app.instance_path, "cards.sqlite3"),
        CARD_DATA_OFFLINE=False,  # True: never ask Scryfall, neither for misses nor to sync
        CARD_DATA_SYNC=True,  # sync in the background when the store is missing, then daily
        CARD_DATA_REFRESH_SECONDS=24 * 3600,  # Scryfall rebuilds its bulk files daily
        CARD_DATA_RETRY_AFTER=30,  # Retry-After when no sync is running in this process
        SYNC_BACKOFF_BASE=5.0,
        SYNC_BACKOFF_CAP=600.0,
        PORT=8000,
        MAX_CONTENT_LENGTH=1024 * 1024,  # 1 MiB: Flask answers 413 beyond it
        CORS_ORIGINS=("*",),  # the API is public and uses no cookies; narrow it per deployment
        BATCH_LIMIT=schemas.BATCH_LIMIT,
        BATCH_LINE_LIMIT=2 * MAX_LINES,  # lines of all a batch's decks together (work bound)
        USER_AGENT=default_user_agent(),
    )
    if test_config is None:
        app.config.update(config_from_environment(os.environ))
    else:
        app.config.update(test_config)
    app.json.sort_keys = False  # keep DESIGN.md's field order: valid, format, commanders...

    init_card_data(app)
    app.register_blueprint(api)
    app.add_url_rule("/healthz", view_func=healthz)
    app.add_url_rule("/readyz", view_func=readyz)
    register_error_handlers(app)
    app.before_request(refuse_cut_streams)
    app.after_request(add_common_headers)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(web_bp)  # the paste-and-validate page at /
    observability.init_app(app)  # request ids, JSON request logs, /metrics, per-client rate limit
    return app


def default_user_agent() -> str:
    """Scryfall asks for an accurate User-Agent naming the application and its version."""
    try:
        version = package_metadata.version("edh-deck-validator")
    except package_metadata.PackageNotFoundError:
        version = "0.1.0"
    return f"edh-deck-validator/{version}"


def flag(value: str) -> bool:
    """An environment flag: 1/true/yes/on are true, anything else false."""
    return value.strip().lower() in {"1", "true", "yes", "on"}


def origins(value: str) -> tuple[str, ...]:
    """CORS_ORIGINS: comma-separated origins, `*` for any, empty for none."""
    return tuple(part.strip() for part in value.split(",") if part.strip())


# Environment variable -> how to read it (DESIGN.md names; the rest are ours).
ENVIRONMENT: dict[str, Callable[[str], Any]] = {
    "SCRYFALL_API_URL": str,
    "CARD_DB": str,
    "CARD_DATA_OFFLINE": flag,
    "CARD_DATA_SYNC": flag,
    "CARD_DATA_REFRESH_SECONDS": int,
    "PORT": int,
    "MAX_CONTENT_LENGTH": int,
    "CORS_ORIGINS": origins,
    "BATCH_LIMIT": int,
    "BATCH_LINE_LIMIT": int,
}


def config_from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """Config values from the environment; a malformed number fails startup, loudly."""
    config = {}
    for name, read in ENVIRONMENT.items():
        if name in environ:
            try:
                config[name] = read(environ[name])
            except ValueError:
                raise ValueError(f"environment variable {name}={environ[name]!r} is malformed") from None
    return config


# --- card data -------------------------------------------------------------------------


def init_card_data(app: Flask) -> None:
    """Put the live repository in app.extensions and start the background sync."""
    config = app.config
    syncer = None
    if config["CARD_DATA_SYNC"] and not config["CARD_DATA_OFFLINE"]:
        syncer = BackgroundSync(
            Path(config["CARD_DB"]),
            lambda: sync_store(config),
            base=config["SYNC_BACKOFF_BASE"],
            cap=config["SYNC_BACKOFF_CAP"],
            refresh=config["CARD_DATA_REFRESH_SECONDS"],
        )
    app.extensions[SYNC_KEY] = syncer
    # The repository opens the store lazily and reopens it when a sync swaps the file, so
    # it can be created before the store exists (it raises CardDataUnavailable until then).
    app.extensions[REPOSITORY_KEY] = open_repository(
        Path(config["CARD_DB"]),
        api_url=config["SCRYFALL_API_URL"],
        offline=bool(config["CARD_DATA_OFFLINE"]),
        user_agent=config["USER_AGENT"],
    )
    if syncer is not None:
        syncer.start()


def sync_store(config: Mapping[str, Any]) -> None:
    """One bulk sync of the store (the background thread calls this)."""
    from card_data import sync  # imported late: only the syncing process needs it

    Path(config["CARD_DB"]).parent.mkdir(parents=True, exist_ok=True)
    sync.sync(Path(config["CARD_DB"]), config["SCRYFALL_API_URL"], user_agent=config["USER_AGENT"])


def repository():
    """The app's card repository (raises CardDataUnavailable while there is no store)."""
    return current_app.extensions[REPOSITORY_KEY]


# --- the API ---------------------------------------------------------------------------

api = Blueprint("api", __name__, url_prefix="/api/v1")


@api.post("/validate")
def validate():
    """Validate one decklist (JSON body or text/plain) and return every violation."""
    data = read_validate_request()
    return jsonify(validate_deck(data))


@api.post("/validate/batch")
def validate_batch():
    """Validate up to BATCH_LIMIT decks; one result each, in request order."""
    body = read_json()
    data = load(schemas.batch_request_schema(current_app.config["BATCH_LIMIT"]), body)
    check_batch_lines(data["decks"], current_app.config["BATCH_LINE_LIMIT"])
    results = []
    # The decks share one suggestion budget: fuzzy "did you mean" costs ~13 ms a name, and
    # 50 decks of garbage names would otherwise take minutes (measured: 20 decks, 38 s).
    share = max(BATCH_MIN_SUGGESTIONS, MAX_SUGGESTED_NAMES // len(data["decks"]))
    for index, deck in enumerate(data["decks"]):
        try:
            results.append(validate_deck(deck, suggest_limit=share))
        except DecklistError as error:
            raise unprocessable(str(error), {"decks": {str(index): {"decklist": [str(error)]}}})
    return jsonify({"results": results})


def check_batch_lines(decks: list[Mapping[str, Any]], limit: int) -> None:
    """422 when a batch holds more lines in all than `limit`: the work per request is bounded
    by lines, and 50 decks of 10,000 lines each would be 50 times one deck's worst case."""
    lines = sum(line_count(deck["decklist"]) for deck in decks)
    if lines > limit:
        message = f"The batch has {lines} lines in all; at most {limit} are accepted. Send fewer decks."
        raise unprocessable(message, {"decks": [message]})


def line_count(text: str) -> int:
    """Lines as the list's author counts them: a final line break ends a line, it does not
    start another (CR, LF and CRLF each break a line, as the parser numbers them)."""
    lines = split_lines(text)
    return len(lines) - 1 if len(lines) > 1 and lines[-1] == "" else len(lines)


@api.get("/cards/<path:name>")
def card(name: str):
    """What the service knows about one card, or 404 with suggestions."""
    name = load(schemas.card_name_schema, {"name": name})["name"]
    resolution = repository().resolve([name])
    found = resolution.cards.get(name)
    if found is None:
        suggestions = list(resolution.suggestions.get(name, ()))
        error = NotFound(f"No card is named {name!r}.")
        error.errors = {"name": name, "suggestions": suggestions}
        raise error
    return jsonify(card_body(found, repository().describe(name) or {}))


def validate_deck(data: Mapping[str, Any], suggest_limit: int | None = None) -> dict:
    """Run one loaded request through the engine and dump the Report."""
    repo = repository()
    report, source = service.validate_text(
        data["decklist"],
        repo,
        suggest_limit=suggest_limit,
        format=data.get("decklist_format"),
        commanders=data.get("commanders"),
        companion=data.get("companion"),
        color_choices=data.get("color_choices"),
    )
    # The metadata of the store the cards came from, not of whatever file is current now.
    return schemas.dump_report(report, source or repo.metadata(), data["format"])


def card_body(card, described: Mapping[str, Any]) -> dict:
    """The /api/v1/cards response: the stored card plus what the rules say about it."""
    reason = commander_eligibility(card)
    return schemas.card_schema.dump({
        "scryfall_uri": schemas.scryfall_search_url(card.name),  # a stored scryfall_uri wins
        **described,
        "legality": card.legality,
        "commander": {"eligible": reason is None, "reason": reason},
        "pairing_abilities": list(pairing_abilities(card)),
    })


# --- reading requests ------------------------------------------------------------------


def read_validate_request() -> dict:
    """A validate request from JSON, or from a text/plain body; query parameters give the
    options either way (JSON fields win over them)."""
    if request.is_json:
        body = read_json()
        if isinstance(body, dict):
            body = {**query_options(), **body}
        return load(schemas.validate_request_schema, body)
    if request.mimetype == "text/plain":
        return load(schemas.validate_request_schema, {**query_options(), "decklist": read_text()})
    raise UnsupportedMediaType("Send the decklist as application/json or text/plain.")


def query_options() -> dict:
    """The options given as query parameters, checked like the JSON fields (422 if wrong)."""
    if not request.args:
        return {}
    given = {key: values if key == "commanders" else values[0] for key, values in request.args.lists()}
    loaded = load(schemas.validate_query_schema, given)
    return {key: value for key, value in loaded.items() if key in given}  # no defaults yet


def read_json() -> Any:
    """The JSON body; 415 for another media type, 400 when it does not parse."""
    if not request.is_json:
        raise UnsupportedMediaType("Send a JSON body with Content-Type: application/json.")
    # get_json raises BadRequest for malformed JSON and for bytes that are not UTF-8.
    try:
        body = request.get_json()
    except BadRequest as error:
        # Flask hides the parser's reason outside debug mode; a client needs it to fix the body.
        cause = error.__cause__ if isinstance(error.__cause__, BadRequest) else error
        reason = str(cause.description).removeprefix("Failed to decode JSON object: ")
        if isinstance(cause.__cause__, UnicodeDecodeError) or "codec can't decode" in reason:
            raise BadRequest("The JSON body is not valid UTF-8.") from None
        raise BadRequest(f"The body is not valid JSON: {reason}") from None
    except RecursionError:
        # json.loads recurses once per nesting level: 100,000 "[" overflowed into a 500.
        raise BadRequest("The JSON body is nested too deeply.") from None
    try:
        # JSON may escape a lone surrogate ("\ud800"): valid JSON, but no text. It reached
        # SQLite's UTF-8 encoder as a 500; refuse it here like any other undecodable body.
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequest("The JSON body holds an unpaired surrogate escape; it is not valid Unicode.") from None
    return body


def read_text() -> str:
    """A text/plain body decoded with its charset (UTF-8 by default)."""
    charset = request.mimetype_params.get("charset", "utf-8")
    try:
        info = codecs.lookup(charset)
        # The codec registry also holds transforms (rot13, base64, zlib...) that bytes.decode
        # refuses: they are no charset either (decoding with one was a 500).
        if not getattr(info, "_is_text_encoding", True):
            raise LookupError(charset)
        codec = info.name
    except LookupError:
        raise UnsupportedMediaType(f"Unknown charset {charset!r}; send UTF-8.") from None
    # utf-8-sig drops the byte-order mark Windows editors write, so line 1 still parses.
    codec = "utf-8-sig" if codec == "utf-8" else codec
    try:
        return request.get_data(cache=False).decode(codec)
    except UnicodeDecodeError as error:
        raise BadRequest(f"The body is not valid {charset}: byte {error.start} cannot be decoded.") from None
    except UnicodeError:  # some codecs (punycode, undefined) raise the bare base class
        raise BadRequest(f"The body is not valid {charset}.") from None


def load(schema: Schema, data: Any) -> dict:
    """Load through a schema; shape problems become a 422 listing every field."""
    try:
        return schema.load(data)
    except ValidationError as error:
        raise unprocessable("The request does not have the expected shape.", error.messages) from None


def unprocessable(message: str, errors: Any) -> UnprocessableEntity:
    """A 422 carrying per-field details for the envelope."""
    error = UnprocessableEntity(message)
    error.errors = errors
    return error


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
    except HTTPException as error:  # a form cut mid-field may not parse: the size decides
        failed = error
    if environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    if failed is not None:
        raise failed


# --- health ----------------------------------------------------------------------------


def healthz():
    """Liveness: the process answers. Card data is /readyz's business."""
    return jsonify({"status": "ok"})


def readyz():
    """Readiness: 200 once card data is loaded, 503 with Retry-After before."""
    meta = repository().metadata()
    if meta is None or not meta.cards:
        raise CardDataUnavailable("card data is not loaded yet", card_data_wait())
    updated = schemas.dump_card_data(meta)["updated_at"]
    body = {"status": "ready", "card_data": {"updated_at": updated, "cards": meta.cards}}
    syncer = current_app.extensions.get(SYNC_KEY)
    if syncer is not None and syncer.last_error:
        # Still serving from the last good store, but it is not being refreshed: say so.
        body.update(degraded=True, last_sync_error=syncer.last_error)
    return jsonify(body)


# --- errors and headers ----------------------------------------------------------------


def wants_json() -> bool:
    """Errors under /api/ and on the health endpoints are JSON; the page keeps HTML."""
    return request.path.startswith(JSON_PATHS) or request.path == "/api"


def envelope(code: int, status: str, message: str, errors: Any = None, headers=()) -> Any:
    """The one error shape: {"code", "status", "message", "errors"?}."""
    body = {"code": code, "status": status, "message": message}
    if errors:
        body["errors"] = string_keys(errors)
    response = jsonify(body)
    response.status_code = code
    response.headers.extend(headers)
    return response


def string_keys(value: Any) -> Any:
    """marshmallow keys list errors by int index; JSON objects need string keys."""
    if isinstance(value, Mapping):
        return {str(key): string_keys(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [string_keys(item) for item in value]
    return value


def handle_http_exception(error: HTTPException):
    """Every HTTP error under /api/ as the envelope; elsewhere Flask's own page."""
    if not wants_json():
        return error
    # Keep headers such as Allow (405) but not the HTML content type.
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    message = error.description
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if isinstance(error, RequestEntityTooLarge) and limit:
        # werkzeug's own text names no figure; the page shows this message as is.
        message = f"The request body is over the limit of {limit} bytes. Send a shorter list."
    return envelope(error.code, error.name, message, getattr(error, "errors", None), headers)


def handle_decklist_error(error: DecklistError):
    """Text the parser refuses outright (too many lines): a 422 on the decklist field."""
    return handle_http_exception(unprocessable(str(error), {"decklist": [str(error)]}))


def handle_unavailable(error: CardDataUnavailable):
    """No card data yet (or Scryfall is down for a miss): 503 and when to come back."""
    seconds = retry_after_for(error, repository(), card_data_wait())
    message = f"Card data is not available yet; retry in {seconds} s."
    return handle_http_exception(ServiceUnavailable(message, retry_after=seconds))


def handle_card_data_error(error: CardDataError):
    """The store is broken in some other way: log it, 503, and try again later."""
    log.exception("card data error")
    return handle_unavailable(CardDataUnavailable(str(error), card_data_wait()))


def handle_unexpected(error: Exception):
    """A bug: log it with its traceback and answer a plain 500 (no details leak)."""
    log.exception("unhandled error on %s %s", request.method, request.path)
    if not wants_json():
        return InternalServerError()
    return envelope(500, "Internal Server Error", "The server failed; the error was logged.")


def register_error_handlers(app: Flask) -> None:
    """Install the envelope handlers (most specific class wins)."""
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(DecklistError, handle_decklist_error)
    app.register_error_handler(CardDataUnavailable, handle_unavailable)
    app.register_error_handler(CardDataError, handle_card_data_error)
    app.register_error_handler(Exception, handle_unexpected)


def add_common_headers(response):
    """nosniff everywhere; CORS on the API for the origins the deployment allows."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if request.path.startswith(CORS_PATHS):
        add_cors_headers(response, current_app.config["CORS_ORIGINS"])
    return response


def add_cors_headers(response, allowed: tuple[str, ...]) -> None:
    """Allow a browser on an allowed origin to call the API (no credentials involved)."""
    response.vary.add("Origin")  # caches must not serve one origin's answer to another
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
