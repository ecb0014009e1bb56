"""The OpenAPI document, generated from the marshmallow schemas with apispec, and /docs:
a server-rendered page listing every operation (no script, no CDN, strict CSP)."""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from typing import Any, cast

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow.validate import OneOf
from flask import Blueprint, Flask, current_app, jsonify, render_template_string

from edh_service import deck_urls
from edh_service.house_profiles import profiles_in
from edh_service.i18n import LANGUAGES

from edh_service.api import house_schemas, openapi_examples, openapi_rules, schemas

bp = Blueprint("openapi", __name__)

ERROR = {"$ref": "#/components/schemas/Error"}


def error_response(description: str, *, retry_after: str | None = None) -> dict:
    """An error response in the envelope shape (with Retry-After on 503 and 429)."""
    response: dict[str, Any] = {"description": description,
                                "content": {"application/json": {"schema": ERROR}}}
    if retry_after:
        response["headers"] = {"Retry-After": {
            "description": retry_after,
            "schema": {"type": "integer", "minimum": 1}}}
    return response


# Every /api/ operation counts against the per-client budget (RATELIMIT, observability.py).
TOO_MANY = error_response("Over this client's request budget (RATELIMIT).",
                          retry_after="Seconds until the client's budget renews.")
UNAVAILABLE = error_response("Card data is not loaded yet (or, from the served process, too many requests are "
                             "still arriving to take this one).",
                             retry_after="Seconds until card data may be available.")


BAD_INPUT = {
    "400": error_response("Malformed JSON or a body that is not valid in its charset."),
    "413": error_response("The body is over MAX_CONTENT_LENGTH (default 1 MiB)."),
    "415": error_response("Neither application/json nor text/plain."),
    "422": error_response("The request does not have the expected shape; `errors` says where."),
    "429": TOO_MANY,
    "503": UNAVAILABLE,
}
# A deck given by `url` is read from its site (DESIGN.md "Decks by URL"): the site's
# failures have statuses of their own, in the same envelope.
DECK_SITE = {
    "422": error_response("The request does not have the expected shape (`errors` says where), or its `url` names "
                          "no deck this service reads: another site, a private, deleted or unknown deck, Moxfield "
                          "without MOXFIELD_USER_AGENT, or DECK_URLS=0."),
    "502": error_response("The deck's site answered with an error, a redirect to another host, or something that "
                          "is not its deck JSON (or over 8 MiB)."),
    "503": error_response("Card data is not loaded yet, or this service may not ask the deck's site now (its "
                          "request budget, 2 a second per site, or a 429 the site sent), or (from the served process) too many "
                          "requests are still arriving to take this one.",
                          retry_after="Seconds until card data or the site may be asked again."),
    "504": error_response("The deck's site did not answer within 10 s."),
}
# What the served process (gunicorn's BufferingWorker, edh_service/serving/worker.py) answers
# for any path before the app sees the request, in the same envelope.
SERVED = {
    "408": error_response("The request did not arrive whole within REQUEST_DEADLINE (30 s)."),
    "431": error_response("The request's head is over 64 KiB."),
    "503": error_response("Too many requests are still arriving from this address, or in all, to take this one.",
                          retry_after="Seconds to wait before sending it again."),
}


def with_served(responses: dict) -> dict:
    """An operation's responses, the served process's added where the operation has none of its own."""
    merged = {**{status: answer for status, answer in SERVED.items() if status not in responses}, **responses}
    return dict(sorted(merged.items()))


# The batch endpoint reads JSON only: a text/plain body is a 415 there too.
BATCH_INPUT = {**BAD_INPUT, **DECK_SITE, "415": error_response("Not application/json.")}

TEXT_PARAMETERS = [
    {"in": "query", "name": "format",
     "schema": openapi_rules.format_schema("A key or alias, any case.", nullable=False),
     "description": "The game format, a key or alias in any case (a JSON field of the same name wins); "
                    "omitted: the one the list names, else commander. `bracket` and `signature_spells` follow the "
                    "same rules as in the JSON body, whichever part of the request gives them (OpenAPI relates "
                    "no parameter to another, so only this sentence says it)."},
    {"in": "query", "name": "decklist_format",
     "schema": {"type": "string", "enum": list(cast(OneOf, schemas.ValidateRequestSchema().fields["decklist_format"]
                                                           .validate).choices)},
     "description": "Force a decklist reader (a JSON field of the same name wins)."},
    {"in": "query", "name": "commanders", "style": "form", "explode": True,
     "schema": {"type": "array", "maxItems": schemas.MAX_COMMANDERS,
                "items": {"type": "string", "minLength": 1, "maxLength": schemas.MAX_NAME_LENGTH}},
     "description": "Designate a commander; repeat for partners (JSON `commanders` wins)."},
    {"in": "query", "name": "companion",
     "schema": {"type": "string", "minLength": 1, "maxLength": schemas.MAX_NAME_LENGTH},
     "description": "Designate the companion (JSON `companion` wins)."},
    {"in": "query", "name": "signature_spells", "style": "form", "explode": True,
     "schema": {"type": "array", "maxItems": schemas.MAX_SIGNATURE_SPELLS,
                "items": {"type": "string", "minLength": 1, "maxLength": schemas.MAX_NAME_LENGTH}},
     "description": "Oathbreaker: designate a signature spell; repeat for two (JSON `signature_spells` wins)."},
    {"in": "query", "name": "bracket", "schema": {"type": "integer", "minimum": 1, "maximum": 5},
     "description": "Declare the Commander Bracket, 1 to 5: what the list breaks in it is an error "
                    "(bracket_*). A JSON `bracket` wins."},
    {"in": "query", "name": "house_rules",
     "schema": {"type": "string", "pattern": house_schemas.PROFILE_PATTERN, "maxLength": 64},
     "description": "A house rules profile's name (GET /api/v1/house-rules); a JSON `house_rules` wins."},
    {"in": "query", "name": "include", "style": "form", "explode": True,
     "schema": {"type": "array", "maxItems": len(schemas.INCLUDES), "items": {"type": "string", "enum": list(schemas.INCLUDES)}},
     "description": "Optional response blocks: `overview`, `formats` (JSON `include` wins)."},
]


# Every answer's language (DESIGN.md "Answers in the player's language"): chosen by a body's
# `lang` (validate, batch), else `?lang=`, else Accept-Language; said by Content-Language.
LANGUAGE_PARAMETERS = [
    {"in": "query", "name": "lang", "schema": {"type": "string"},
     "description": "The language of the answer's human-readable texts (`message`s, the error envelope's "
                    "`message`, the formats' names): " + ", ".join(LANGUAGES) + ". A tag such as es-MX or zh-TW "
                    "falls back along its chain; anything else is English, never an error. A body's `lang` wins; "
                    "this wins over Accept-Language. Codes, cards and JSON keys never change."},
    {"in": "header", "name": "Accept-Language", "schema": {"type": "string"},
     "description": "Chooses the answer's language when neither `lang` nor `?lang=` does (quality values honoured)."},
]
LANGUAGE_HEADERS = {
    "Content-Language": {"description": "The language the answer's texts are in (en when nothing chose another).",
                         "schema": {"type": "string", "enum": list(LANGUAGES)}},
    "Vary": {"description": "Names Accept-Language: the same URL answers in the language asked for.",
             "schema": {"type": "string"}},
}


def in_languages(operation: dict) -> dict:
    """An operation with the language parameters and every response's language headers."""
    responses = {status: {**answer, "headers": {**LANGUAGE_HEADERS, **answer.get("headers", {})}}
                 for status, answer in with_served(operation["responses"]).items()}
    return {**operation, "parameters": [*operation.get("parameters", ()), *LANGUAGE_PARAMETERS], "responses": responses}


def operations() -> dict[str, dict]:
    """Every documented path and its operations."""
    return {
        "/api/v1/validate": {"post": {
            "summary": "Validate one decklist, or the deck a link names",
            "description": "200 for any well-formed request, legal or not: `valid` and every violation. With `url`, "
                           "the deck is read from Archidekt or Moxfield and the answer adds `source` and `decklist`.",
            "parameters": TEXT_PARAMETERS,
            "requestBody": {"required": True, "content": {
                "application/json": {"schema": "ValidateRequestSchema"},
                "text/plain": {"schema": {"type": "string", "maxLength": schemas.MAX_DECKLIST_LENGTH}},
            }},
            "responses": {"200": {"description": "The verdict.",
                                  "content": {"application/json": {"schema": "ReportSchema"}}},
                          **BAD_INPUT, **DECK_SITE},
        }},
        "/api/v1/validate/batch": {"post": {
            "summary": "Validate up to BATCH_LIMIT decklists (the document's maxItems)",
            "requestBody": {"required": True,
                            "content": {"application/json": {"schema": "BatchRequestSchema"}}},
            "responses": {"200": {"description": "One result per deck, in request order.",
                                  "content": {"application/json": {"schema": "BatchResponseSchema"}}},
                          **BATCH_INPUT},
        }},
        "/api/v1/formats": {"get": {
            "summary": "The Commander-family formats",
            "description": "Each format's deck size, who can command, legality key, brackets and aliases, and "
                           "the updated_at of the data behind them (null: not loaded).",
            "responses": {"200": {"description": "The formats table.",
                                  "content": {"application/json": {"schema": "FormatsResponseSchema"}}},
                          "429": TOO_MANY},
        }},
        "/api/v1/house-rules": {"get": {
            "summary": "The house rules profiles",
            "description": "The operator's profiles (HOUSE_RULES_DIR) a validate request's `house_rules` may name, "
                           "with how many cards each list holds. A broken profile file is not listed (see /readyz).",
            "responses": {"200": {"description": "The profiles, by name.",
                                  "content": {"application/json": {"schema": "HouseRulesListSchema"}}},
                          "429": TOO_MANY},
        }},
        "/api/v1/cards/{name}": {"get": {
            "summary": "What the service knows about one card",
            "parameters": [{"in": "path", "name": "name", "required": True,
                            "schema": {"type": "string", "minLength": 1,
                                       "maxLength": schemas.MAX_NAME_LENGTH}}],
            "responses": {
                "200": {"description": "The card.", "content": {"application/json": {"schema": "CardSchema"}}},
                "404": error_response("No such card; `errors.suggestions` lists close names."),
                "422": BAD_INPUT["422"],
                "429": TOO_MANY,
                "503": UNAVAILABLE,
            },
        }},
        "/healthz": {"get": {
            "summary": "Liveness",
            "responses": {"200": {"description": "The process answers.",
                                  "content": {"application/json": {"schema": "HealthSchema"}}}},
        }},
        "/readyz": {"get": {
            "summary": "Readiness: card data loaded",
            "responses": {"200": {"description": "Ready.", "content": {"application/json": {"schema": "ReadySchema"}}},
                          "503": UNAVAILABLE},
        }},
    }


def serving(app: Flask) -> openapi_rules.Serving:
    """What this app's settings make acceptable (the document states it)."""
    sites = deck_urls.of_app(app)
    return openapi_rules.Serving(deck_urls=sites.settings.enabled, moxfield=bool(sites.settings.moxfield_user_agent),
                                 profiles=tuple(profiles_in(app.extensions).names()),
                                 batch_limit=app.config.get("BATCH_LIMIT", schemas.BATCH_LIMIT))


@lru_cache(maxsize=8)
def spec_dict(served: openapi_rules.Serving = openapi_rules.Serving()) -> dict:
    """The OpenAPI 3.1 document for a service serving `served` (built once each)."""
    spec = APISpec(
        title="EDH deck validator",
        version="1.0.0",
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"description": "Is this Commander decklist legal, and if not, exactly what is wrong, "
                             "where, and why? Violation codes are stable; messages may change."},
    )
    spec.components.schema("Error", schema=schemas.ErrorSchema)
    # house_rules is a profile's name or this object (house_schemas.house_rules_field's oneOf)
    spec.components.schema("HouseRulesRequest", schema=house_schemas.HouseRulesRequestSchema)
    for path, ops in operations().items():
        spec.path(path=path, operations={method: in_languages(op) for method, op in ops.items()})
    return openapi_examples.add_examples(openapi_rules.complete(spec.to_dict(), served))


@bp.get("/openapi.json")
def openapi_json():
    """The OpenAPI document."""
    return jsonify(spec_dict(serving(current_app)))


DOCS_STYLE = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#111}"
    "code,pre{font-family:ui-monospace,monospace;background:#f3f3f3;padding:.1rem .3rem}"
    "pre{padding:.6rem;overflow-x:auto}section{border-top:1px solid #ccc;padding:.5rem 0}"
    ".method{font-weight:700;text-transform:uppercase;margin-right:.5rem}"
)
# The one inline style is allowed by its hash, so the policy needs no 'unsafe-inline'.
DOCS_CSP = ("default-src 'none'; style-src 'sha256-"
            + base64.b64encode(hashlib.sha256(DOCS_STYLE.encode()).digest()).decode()
            + "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ spec.info.title }}: API</title><style>{{ style }}</style></head>
<body><main>
<h1>{{ spec.info.title }} API {{ spec.info.version }}</h1>
<p>{{ spec.info.description }}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI {{ spec.openapi }}).</p>
{% for path, ops in spec.paths.items() %}{% for method, op in ops.items() %}
<section>
<h2><span class="method">{{ method }}</span><code>{{ path }}</code></h2>
<p>{{ op.summary }}{% if op.description %}. {{ op.description }}{% endif %}</p>
{% if op.parameters %}<h3>Parameters</h3><ul>{% for p in op.parameters %}
<li><code>{{ p.name }}</code> ({{ p.in }}): {{ p.description or "" }}</li>{% endfor %}</ul>{% endif %}
{% if op.requestBody %}<h3>Request body</h3><ul>{% for type, media in op.requestBody.content.items() %}
<li><code>{{ type }}</code>: {{ schema_name(media.schema) }}</li>{% endfor %}</ul>{% endif %}
<h3>Responses</h3><ul>{% for status, response in op.responses.items() %}
<li><strong>{{ status }}</strong> {{ response.description }}{% if response.content %}:
{{ schema_name(response.content["application/json"].schema) }}{% endif %}</li>{% endfor %}</ul>
</section>{% endfor %}{% endfor %}
<h2>Schemas</h2>
{% for name, schema in spec.components.schemas.items() %}
<section id="{{ name }}"><h3>{{ name }}</h3>{% if schema.description %}<p>{{ schema.description }}</p>{% endif %}<ul>{% for field, prop in schema.properties.items() %}
<li><code>{{ field }}</code>{% if field in schema.required %} (required){% endif %}:
{{ schema_name(prop) }}{% if prop.description %}. {{ prop.description }}{% endif %}</li>{% endfor %}</ul></section>
{% endfor %}
</main></body></html>"""


def schema_name(schema: dict) -> str:
    """A short human description of a JSON schema: its $ref name or its type."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "oneOf" in schema:
        return " or ".join(schema_name(option) for option in schema["oneOf"])
    types = schema.get("type", "object")
    if isinstance(types, list):  # OpenAPI 3.1: ["string", "null"]
        nullable = " or null" if "null" in types else ""
        return schema_name({**schema, "type": next(t for t in types if t != "null")}) + nullable
    if types == "array":
        return f"array of {schema_name(schema.get('items', {}))}"
    if "enum" in schema:
        return "one of " + ", ".join(str(value) for value in schema["enum"] if value is not None)
    if "examples" in schema:
        return f"{types}, such as " + ", ".join(str(value) for value in schema["examples"])
    return str(types)


@bp.get("/docs")
def docs():
    """The API reference as plain HTML, rendered from the same document."""
    document = spec_dict(serving(current_app))
    html = render_template_string(DOCS_PAGE, spec=document, style=DOCS_STYLE, schema_name=schema_name)
    return html, 200, {"Content-Security-Policy": DOCS_CSP, "Cache-Control": "public, max-age=300"}
