"""The JSON API (/api/v1) and the health endpoints.

No rule logic lives here: a view reads the request through a schema, hands the text to
`pipeline.validate_text` and dumps the Report. Errors become the one JSON envelope in
errors.py.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any, Mapping

from flask import Blueprint, current_app, jsonify, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, NotFound, UnsupportedMediaType

from card_data import CardDataUnavailable
from card_data.store.list_tables import BRACKET_LISTS, FORMAT_LISTS, ListStatus
from card_data.repository import MAX_SUGGESTED_NAMES
from edh_service import card_extension, house_rules, pipeline
from edh_service.house_profiles import Profile, profiles_in
from edh_service.api import json_codec, responses, schemas
from edh_service.serving import observability
from edh_service.card_extension import get_repository
from edh_service.api.errors import unprocessable
from edh_service.api.request_loading import loader_for
from validator.brackets import BracketData, card_flags
from validator.decklist import Decklist, Designation
from validator.formats import FieldNotInFormat, UnknownFormat, format_table
from validator.parse import DecklistError, parse, split_lines
from validator.parse.common import line_count as count_lines
from validator.phrasing import and_list
from validator.card_facts import commander_eligibility, pairing_abilities

# What /readyz says of a failing sync: upstream error text (Scryfall's or a proxy's answer,
# paths, addresses) is for the log, where runtime.BackgroundSync writes it, not for any client.
SYNC_FAILED = "The last card data sync failed; the service's log says why."
BATCH_MIN_SUGGESTIONS = 1  # each deck of a batch still gets a suggestion for its first typo
# A JSON escape of a UTF-16 surrogate, \uD800 to \uDFFF (any case).
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
# The charsets a text/plain body may name (Python's codec names, "-" read as "_"): Unicode's
# and the registered legacy ones. The codec registry holds more that are no charset:
# unicode_escape and raw_unicode_escape decode backslash escapes nobody typed (and made a
# lone surrogate, a 500, out of "\\ud800"), UTF-7 hides markup from filters, and punycode,
# idna, charmap, palmos and undefined are no text encodings anyone sends a list in.
TEXT_CHARSETS = re.compile(
    r"(?:utf_8(?:_sig)?|utf_(?:16|32)(?:_[lb]e)?|ascii|iso8859_\d+|cp\d+|mac_[a-z0-9]+|koi8_[a-z]|"
    r"kz1048|ptcp154|tis_620|hp_roman8|shift_jis(?:_2004|x0213)?|euc_[a-z0-9_]+|gb2312|gbk|gb18030|"
    r"hz|big5(?:hkscs)?|iso2022_[a-z0-9_]+|johab)\Z")
QUERY_LISTS = ("commanders", "include", "signature_spells")  # the query options that are lists: repeat them for more values


# --- the API ---------------------------------------------------------------------------

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.post("/validate")
def validate():
    """Validate one decklist (JSON body or text/plain) and return every violation."""
    data = read_validate_request()
    return jsonify(validate_deck(data))


@bp.post("/validate/batch")
def validate_batch():
    """Validate up to BATCH_LIMIT decks; one result each, in request order."""
    body = read_json()
    data = load(schemas.batch_request_schema(current_app.config["BATCH_LIMIT"]), body)
    check_batch_lines(data["decks"], current_app.config["BATCH_LINE_LIMIT"])
    check_batch_house_rules(data["decks"])
    decklists = parse_batch(data["decks"], current_app.config["BATCH_LINE_LIMIT"])
    # The decks share one suggestion budget: fuzzy "did you mean" costs ~13 ms a name, and
    # 50 decks of garbage names would otherwise take minutes (measured: 20 decks, 38 s).
    share = max(BATCH_MIN_SUGGESTIONS, MAX_SUGGESTED_NAMES // len(data["decks"]))
    results = [validate_deck(deck, suggest_limit=share, decklist=decklist, where=("decks", str(index)))
               for index, (deck, decklist) in enumerate(zip(data["decks"], decklists))]
    return jsonify({"results": results})


@bp.get("/formats")
def formats():
    """The Commander-family formats as the engine judges them, and the dates of their data."""
    repository = get_repository()
    try:
        meta = repository.metadata()
    except CardDataUnavailable:  # the table is the code's: it is served before any card data
        meta = None
    lists = repository.bracket_status() or {}
    pauper = lists.get(FORMAT_LISTS[0])
    return jsonify({"formats": format_table(), "sources": {
        "legalities": {"updated_at": responses.dump_card_data(meta)["updated_at"]} if meta else None,
        "pauper_commanders": list_body(pauper) if pauper is not None and pauper.loaded else None,
    }})


@bp.get("/house-rules")
def house_rules_profiles():
    """The operator's house rules profiles (HOUSE_RULES_DIR): what a request's house_rules may name."""
    return jsonify({"profiles": profiles_in(current_app.extensions).listing()})


def check_batch_house_rules(decks: list[Mapping[str, Any]]) -> None:
    """422 when the distinct house rules a batch sends hold more than MAX_BATCH_NAMES names in
    all: each list is resolved once, but fifty different lists of 500 names would be 25,000
    names to resolve (a profile is resolved once per version, whatever the batch)."""
    sent = {house_rules.HouseList.of(deck["house_rules"]) for deck in decks if isinstance(deck.get("house_rules"), dict)}
    names = sum(len(house.names()) for house in sent)
    if names > house_rules.MAX_BATCH_NAMES:
        message = (f"The batch's house rules name {names:,} cards in all; at most {house_rules.MAX_BATCH_NAMES:,} "
                   "are accepted. Send the same rules with each deck, or keep them as a profile (HOUSE_RULES_DIR).")
        raise unprocessable(message, {"decks": [message]})


def house_rules_of(data: Mapping[str, Any]) -> house_rules.HouseList | Profile | None:
    """The request's house rules: the profile it names (UnknownProfile for none), the rules
    it sends, or None."""
    given = data.get("house_rules")
    if given is None:
        return None
    if isinstance(given, str):
        return profiles_in(current_app.extensions).get(given)
    return house_rules.HouseList.of(given)


def parse_batch(decks: list[Mapping[str, Any]], limit: int) -> list[Decklist]:
    """Every deck of a batch parsed before any is checked: 422 for a deck the parser refuses,
    or when the decks read as more than `limit` card entries and problems in all (a JSON or
    XML list of one line can hold 10,000 entries, so lines alone do not bound a batch:
    nine one-line TappedOut exports of 10,000 names each, 957 KiB, took 6.5 s)."""
    decklists, items = [], 0
    for index, deck in enumerate(decks):
        try:
            decklists.append(decklist := parse(deck["decklist"], deck.get("decklist_format")))
        except DecklistError as error:
            raise unprocessable(str(error), {"decks": {str(index): {"decklist": [str(error)]}}})
        items += len(decklist.entries) + len(decklist.problems)
        if items > limit:  # said at once: the decks after it are not even parsed
            message = (f"The batch's first {index + 1} decks hold {items:,} card entries and problems; at most "
                       f"{limit:,} are accepted in all. Send fewer decks.")
            raise unprocessable(message, {"decks": [message]})
    return decklists


def check_batch_lines(decks: list[Mapping[str, Any]], limit: int) -> None:
    """422 when a batch holds more lines in all than `limit`: the work per request is bounded
    by lines, and 50 decks of 10,000 lines each would be 50 times one deck's worst case."""
    lines = sum(line_count(deck["decklist"]) for deck in decks)
    if lines > limit:
        message = f"The batch has {lines} lines in all; at most {limit} are accepted. Send fewer decks."
        raise unprocessable(message, {"decks": [message]})


def line_count(text: str) -> int:
    """Lines as the list's author counts them (CR, LF and CRLF each break a line, as the
    parser numbers them; a final line break ends a line, it does not start another)."""
    return count_lines(split_lines(text))


@bp.get("/cards/<path:name>")
def card(name: str):
    """What the service knows about one card, or 404 with suggestions."""
    name = load(schemas.card_name_schema, {"name": name})["name"]
    resolution = get_repository().resolve([name], lookup=card_extension.lookup_budget())
    found = resolution.cards.get(name)
    if found is None:
        suggestions = list(resolution.suggestions.get(name, ()))
        unavailable = name in resolution.unavailable
        message = (f"No card named {name!r} is in the card data, and Scryfall did not answer in time to be asked; "
                   "try again in a minute." if unavailable else f"No card is named {name!r}.")
        error = NotFound(message)
        error.errors = {"name": name, "suggestions": suggestions, "lookup_unavailable": unavailable}
        raise error
    repository = get_repository()
    return jsonify(card_body(found, repository.describe(name) or {}, repository.bracket_data()))


def validate_deck(data: Mapping[str, Any], suggest_limit: int | None = None, decklist: Decklist | None = None,
                  where: tuple[str, ...] = ()) -> dict:
    """Run one loaded request through the engine and dump the Report (`decklist`: its
    decklist already parsed, as a batch does; `where`: the item's path in a batch, for a 422).

    No `format`: the list's own (format_inferred), else Commander. A field the format has
    no use for (a declared bracket outside Commander, signature spells outside Oathbreaker)
    is a 422 naming it: the format may be the one the list named, known only here. House
    rules naming an unknown profile, or a name that is no card, are a 422 too."""
    repo = get_repository()
    include = data.get("include") or ()
    try:
        house = house_rules_of(data)
        report, source, translated = pipeline.validate_text(
            data["decklist"],
            repo,
            Designation.of(data.get("commanders"), data.get("companion"), data.get("color_choices"),
                           data.get("signature_spells")),
            decklist=decklist,
            suggest_limit=suggest_limit,
            format=data.get("decklist_format"),
            bracket=data.get("bracket"),
            with_overview="overview" in include,
            game_format=data.get("format"),
            with_formats="formats" in include,
            lookup=card_extension.lookup_budget(),
            house_rules=house,
        )
    except (FieldNotInFormat, UnknownFormat, house_rules.HouseRulesError) as error:
        errors: dict = ({"house_rules": error.errors} if isinstance(error, house_rules.HouseRulesError)
                        else {error.field: [str(error)]})
        for key in reversed(where):
            errors = {key: errors}
        raise unprocessable(str(error), errors) from None
    observability.record_verdict(report.valid)
    # The metadata of the store the cards came from, not of whatever file is current now.
    return responses.dump_report(report, source or repo.metadata(), include, translated)


def card_body(card, described: Mapping[str, Any], bracket_data: BracketData) -> dict:
    """The /api/v1/cards response: the stored card plus what the rules say about it
    (commander eligibility, pairing, and the Commander Brackets flags)."""
    reason = commander_eligibility(card)
    return schemas.card_schema.dump({
        "scryfall_uri": responses.scryfall_search_url(card.name),  # a stored scryfall_uri wins
        **described,
        **card_flags(card, bracket_data),
        "legality": card.legality,
        "commander": {"eligible": reason is None, "reason": reason},
        "pairing_abilities": list(pairing_abilities(card)),
    })


# --- reading requests ------------------------------------------------------------------


def read_validate_request() -> dict:
    """A validate request from JSON, or from a text/plain body; query parameters give the
    options either way (JSON fields win over them)."""
    served = request._get_current_object()  # one look-up through the context proxy
    if served.is_json:
        body = read_json()
        if isinstance(body, dict) and served.args:
            body = {**query_options(), **body}
        return load(schemas.validate_request_schema, body)
    if served.mimetype == "text/plain":
        return load(schemas.validate_request_schema, {**query_options(), "decklist": read_text()})
    raise UnsupportedMediaType("Send the decklist as application/json or text/plain.")


def query_options() -> dict:
    """The options given as query parameters, checked like the JSON fields (422 if wrong)."""
    if not request.args:
        return {}
    given = {key: values if key in QUERY_LISTS else values[0] for key, values in request.args.lists()}
    # ?bracket=3&bracket=4 was silently 3: a single-valued option given twice is refused
    repeated = [key for key, values in request.args.lists()
                if len(values) > 1 and key not in QUERY_LISTS and key in schemas.validate_query_schema.fields]
    if repeated:
        raise unprocessable(f"The query string gives {and_list(repeated)} more than once; give each option once.",
                            {key: ["Given more than once; give it once."] for key in repeated})
    loaded = load(schemas.validate_query_schema, given)
    return {key: value for key, value in loaded.items() if key in given}  # no defaults yet


def read_json() -> Any:
    """The JSON body; 415 for another media type, 400 when it does not parse."""
    served = request._get_current_object()  # one look-up through the context proxy
    if not served.is_json:
        raise UnsupportedMediaType("Send a JSON body with Content-Type: application/json.")
    data = served.get_data()
    # json.loads rather than request.get_json: parse_int keeps a 5,000-digit number from
    # reading as broken JSON (a 400), and the parser's reason reaches the client (Flask hides it).
    try:
        body = json_codec.loads(data, parse_int=schemas.integer)  # orjson, else json.loads
    except UnicodeDecodeError:
        raise BadRequest("The JSON body is not valid UTF-8.") from None
    except ValueError as error:
        raise BadRequest(f"The body is not valid JSON: {error}") from None
    except RecursionError:
        # json.loads recurses once per nesting level: 100,000 "[" overflowed into a 500.
        raise BadRequest("The JSON body is nested too deeply.") from None
    try:
        # JSON may escape a lone surrogate ("\ud800"): valid JSON, but no text. It reached
        # SQLite's UTF-8 encoder as a 500; refuse it here like any other undecodable body.
        # Only an escape can make one (strict UTF-8 refuses encoded surrogates), so a body
        # without any such escape is not encoded again (that cost ~10 µs a deck).
        if SURROGATE_ESCAPE.search(data):
            json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequest("The JSON body holds an unpaired surrogate escape; it is not valid Unicode.") from None
    return body


def read_text() -> str:
    """A text/plain body decoded with its charset (UTF-8 by default); 415 for a charset that
    is no text charset (TEXT_CHARSETS), even where Python has a codec by that name."""
    charset = request.mimetype_params.get("charset", "utf-8")
    try:
        codec = codecs.lookup(charset).name
    except LookupError:
        codec = ""
    if not TEXT_CHARSETS.match(codec.replace("-", "_")):
        raise UnsupportedMediaType(f"Unsupported charset {charset!r}: send UTF-8 (or another text charset "
                                   "such as UTF-16 or Windows-1252).")
    # utf-8-sig drops the byte-order mark Windows editors write, so line 1 still parses.
    codec = "utf-8-sig" if codec == "utf-8" else codec
    try:
        return request.get_data(cache=False).decode(codec)
    except UnicodeDecodeError as error:
        raise BadRequest(f"The body is not valid {charset}: byte {error.start} cannot be decoded.") from None
    except UnicodeError:  # some codecs raise the bare base class
        raise BadRequest(f"The body is not valid {charset}.") from None


def load(schema: Schema, data: Any) -> dict:
    """Load through a schema (its compiled checks for the clear case, request_loading);
    shape problems become a 422 listing every field."""
    try:
        return loader_for(schema).load(data)
    except ValidationError as error:
        message = "The request does not have the expected shape."
        unknown = format_message(error.messages)
        if unknown:  # DESIGN: the message itself lists the seven keys
            message = f"{message} {unknown}"
        raise unprocessable(message, error.messages) from None


def format_message(messages: Any) -> str | None:
    """The first `format` field's message in a schema's (nested) error messages, if any."""
    if not isinstance(messages, Mapping):
        return None
    for key, value in messages.items():
        if key == "format" and isinstance(value, list) and value and isinstance(value[0], str):
            return value[0]
        found = format_message(value)
        if found:
            return found
    return None


# --- health ----------------------------------------------------------------------------


def healthz():
    """Liveness: the process answers. Card data is /readyz's business."""
    return jsonify({"status": "ok"})


def readyz():
    """Readiness: 200 once card data is loaded, 503 with Retry-After before."""
    meta = get_repository().metadata()
    if meta is None or not meta.cards:
        raise CardDataUnavailable("card data is not loaded yet", card_extension.wait_seconds())
    updated = responses.dump_card_data(meta)["updated_at"]
    lists = get_repository().bracket_status() or {}
    body = {"status": "ready", "card_data": {"updated_at": updated, "cards": meta.cards},
            "bracket_lists": lists_body(lists, BRACKET_LISTS), "format_lists": lists_body(lists, FORMAT_LISTS),
            "card_names": get_repository().names_status().shown()}
    syncer = card_extension.get_syncer()
    if syncer is not None and syncer.last_error:
        # Still serving from the last good store, but it is not being refreshed: say so.
        body.update(degraded=True, last_sync_error=SYNC_FAILED)
    profiles = profiles_in(current_app.extensions)
    if profiles.folder is not None:  # the profiles served and the broken ones: not a readiness condition
        body["house_rules"] = profiles.status()
    redis = observability.redis_status(current_app)
    if redis is not None:
        # Validation goes on without Redis (limits fail open): ready, and saying so.
        body["redis"] = redis
    return jsonify(body)


def lists_body(lists: Mapping[str, ListStatus], kinds: tuple[str, ...]) -> dict[str, dict | None]:
    """Each synced list's size and date as /readyz shows it (None: not loaded, so brackets
    say the check was not made, and a Pauper Commander commander is legality_unknown). Not
    a readiness condition: validation works without them."""
    return {kind: list_body(lists[kind]) if kind in lists and lists[kind].loaded else None for kind in kinds}


def list_body(status: ListStatus) -> dict:
    """One loaded list: its entries and its source's updated_at."""
    return {"entries": status.entries, "updated_at": status.updated_at}


