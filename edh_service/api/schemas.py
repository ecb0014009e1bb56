"""marshmallow schemas of the HTTP API: request shapes and abuse bounds, response shapes.

The schemas check the *shape* of a request and cap its size; whether a deck is legal
is the engine's job and comes back as violations in a 200, never as a 4xx. They are also
the single source of the OpenAPI document (openapi.py).

The response bodies themselves are built by responses.py (by hand, for speed, in these
schemas' shapes; tests compare the two).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from marshmallow import Schema, fields, post_dump, validate

from validator.brackets import BRACKETS
from validator.deck import WUBRG
from edh_service.api.format_schemas import GAME_FORMATS, FormatsBlockSchema, game_format_field
from edh_service.api.house_schemas import HouseRulesBlockSchema, house_rules_field
from edh_service.api.whole_numbers import WholeNumber
from edh_service.api.ready_schemas import HealthSchema, ReadySchema  # noqa: F401 - the OpenAPI document names them
from validator.overview import COLORS, CURVE_BUCKETS
from validator.parse import FORMATS, MAX_NAME_LENGTH
from validator.violations import Code

# Abuse bounds, not rules: the engine reports three commanders as too_many_commanders,
# but nobody needs to send fifty. The decklist itself is capped by MAX_CONTENT_LENGTH.
MAX_DECKLIST_LENGTH = 1024 * 1024
MAX_COMMANDERS = 5
MAX_COLOR_CHOICES = 5
MAX_SIGNATURE_SPELLS = 5  # the engine says signature_spell past one per oathbreaker
MAX_URL_LENGTH = 2048
BATCH_LIMIT = 50  # default; the app's BATCH_LIMIT config may lower or raise it
# Optional response blocks a request may ask for with "include" (the base shape is fixed).
INCLUDES = ("overview", "formats")


# Python converts at most 4,300 digits to an int (ValueError); no field takes a number near
# that long, so a longer one stands in as this, its sign kept: out of every range a field
# checks, and the schema names the field (422) as for any other out-of-range value.
OUT_OF_RANGE = 10 ** 100


def integer(digits: str) -> int:
    """Decimal digits (a JSON integer, a form's number) as an int, or ±OUT_OF_RANGE when
    there are too many to convert."""
    try:
        return int(digits)
    except ValueError:
        return -OUT_OF_RANGE if digits.startswith("-") else OUT_OF_RANGE


def bracket_field(*, strict: bool = True) -> fields.Integer:
    """The declared Commander Bracket, 1 to 5. JSON takes a whole number only (3 or 3.0, not
    "3", 2.5 or true); a query string's "3" is text, so it is read loosely. Left out, the key
    stays out of the loaded request: null (no bracket, not even a deck site's) differs from it."""
    kind = WholeNumber if strict else fields.Integer
    return kind(
        allow_none=True,
        validate=validate.Range(min(BRACKETS), max(BRACKETS)),
        metadata={"description": "Declare the table's Commander Bracket (1 Exhibition ... 5 cEDH): what the list "
                                 "breaks in it is an error violation (bracket_*). Omit it for the advisory "
                                 "`bracket` block alone; with `url`, omitted means the bracket the deck declares "
                                 "on its site, and null checks none. Only in Commander: with another `format` it "
                                 "is a 422, and so it is without `format` when the list names another format for "
                                 "itself (a `Format:` line, a site export's format)."},
    )


def card_name(**kwargs: Any) -> fields.String:
    """A card name field: non-empty and bounded."""
    return fields.String(validate=validate.Length(1, MAX_NAME_LENGTH), **kwargs)


def lang_field() -> fields.String:
    """`lang`: the answer's language, any tag; one no language supports is English, never a 422."""
    return fields.String(load_default=None, allow_none=True, metadata={
        "description": "The language of the answer's messages (DESIGN: en, es, de, fr, it, pt, ja, ko, ru, "
                       "zh-Hans, zh-Hant; a tag such as es-MX or zh-TW falls back along its chain, anything else "
                       "to en). Wins over `?lang=` and Accept-Language. Codes, cards and every other field stay "
                       "as they are."})


class ValidateRequestSchema(Schema):
    """Body of POST /api/v1/validate (and of each deck in a batch): exactly one of
    `decklist` and `url` (the view says so, naming both, when it is not one)."""

    decklist = fields.String(
        validate=validate.Length(max=MAX_DECKLIST_LENGTH),
        metadata={"description": "The decklist in any supported format (text, Arena, Moxfield, "
                                 "Archidekt, MTGO .dek, Cockatrice .cod, Forge/XMage .dck). Give this or `url`."},
    )
    url = fields.String(
        validate=validate.Length(1, MAX_URL_LENGTH),
        metadata={"description": "A link to a deck on Archidekt (archidekt.com/decks/<id>) or Moxfield "
                                 "(moxfield.com/decks/<id>, when the operator set MOXFIELD_USER_AGENT): the service "
                                 "reads the deck from the site's API. Give this or `decklist`. The response then "
                                 "adds `source` and `decklist`."},
    )
    format = game_format_field()
    decklist_format = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(FORMATS),
        metadata={"description": "Force a decklist reader instead of detecting the syntax."},
    )
    commanders = fields.List(
        card_name(),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_COMMANDERS),
        metadata={"description": "Designate the commanders, overriding what the text says."},
    )
    companion = card_name(
        load_default=None, allow_none=True, metadata={"description": "Designate the companion."}
    )
    color_choices = fields.Dict(
        # Keys are card names: none is longer than MAX_NAME_LENGTH (a 1 MiB key was
        # normalized and remembered whole). OpenAPI 3.0 cannot state a key's constraints,
        # so the description says it; an empty key stays a stray choice (a warning).
        keys=fields.String(validate=validate.Length(max=MAX_NAME_LENGTH)),
        values=fields.String(validate=validate.OneOf(tuple(WUBRG))),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_COLOR_CHOICES),
        metadata={"description": 'Color chosen for a commander, e.g. {"The Prismatic Piper": "R"}; each key '
                                 f"is a card name of at most {MAX_NAME_LENGTH} characters."},
    )
    signature_spells = fields.List(
        card_name(),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_SIGNATURE_SPELLS),
        metadata={"description": "Oathbreaker only: designate the signature spells, overriding what the text "
                                 "marks. A non-empty list needs `format` oathbreaker (a 422 in any other format; "
                                 "without `format`, the service also reads them when the list names oathbreaker "
                                 "for itself)."},
    )
    bracket = bracket_field()
    house_rules = house_rules_field()
    lang = lang_field()
    include = fields.List(
        fields.String(validate=validate.OneOf(INCLUDES)),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=len(INCLUDES)),
        metadata={"description": 'Optional blocks to add to the response: ["overview"] adds `overview` '
                                 "(mana curve, color balance, card types, cards by type, preview images); "
                                 '["formats"] adds `formats` (every game format\'s verdict).'},
    )


class ValidateQuerySchema(ValidateRequestSchema):
    """The text/plain options in the query string: `?bracket=3` is text there."""

    bracket = bracket_field(strict=False)


class BatchRequestSchema(Schema):
    """Body of POST /api/v1/validate/batch."""

    decks = fields.List(
        fields.Nested(ValidateRequestSchema),
        required=True,
        validate=validate.Length(1, BATCH_LIMIT),
    )
    lang = lang_field()  # each deck's own `lang` wins for its result


@lru_cache(maxsize=8)
def batch_request_schema(limit: int) -> Schema:
    """A batch schema capped at `limit` decks (the app's BATCH_LIMIT), built once per limit."""
    if limit == BATCH_LIMIT:
        return BatchRequestSchema()
    return Schema.from_dict(
        {"decks": fields.List(fields.Nested(ValidateRequestSchema), required=True,
                              validate=validate.Length(1, limit)), "lang": lang_field()},
        name="BatchRequestSchema",
    )()


class ViolationSchema(Schema):
    """One problem with the deck: a stable code, a sentence, and where it is."""

    code = fields.String(required=True, metadata={"enum": [c.value for c in Code]})
    severity = fields.String(required=True, validate=validate.OneOf(("error", "warning")))
    message = fields.String(required=True)
    cards = fields.List(fields.String(), required=True)
    lines = fields.List(fields.Integer(), required=True)
    rule = fields.String(required=True, allow_none=True)
    suggestions = fields.List(
        fields.String(), metadata={"description": "unknown_card: up to 3 canonical names; ambiguous_card: "
                                                  "the cards the name was printed for (English names)."}
    )

    @post_dump
    def suggestions_only_for_unknown_cards(self, data: dict, **kwargs: Any) -> dict:
        """Only unknown_card and ambiguous_card carry suggestions (the API contract); elsewhere
        the key is noise."""
        if data.get("code") not in (Code.UNKNOWN_CARD, Code.AMBIGUOUS_CARD):
            data.pop("suggestions", None)
        return data


class TranslatedSchema(Schema):
    """A name as written that was read in another language (not a violation)."""

    name = fields.String(required=True, metadata={"description": "The name as written."})
    card = fields.String(required=True, metadata={"description": "The English (Oracle) card name it was read as."})
    lang = fields.String(required=True, metadata={"description": "A language it was printed in (Scryfall's code: "
                                                                 "es, de, fr, it, pt, ja, ko, ru, zhs, zht...)."})
    lines = fields.List(fields.Integer(), required=True,
                        metadata={"description": "The lines that wrote it; empty for a name given only in a "
                                                 "request field (commanders, companion, color_choices)."})


def _counts(keys: Iterable[str], what: str) -> type[Schema]:
    """An object with one required integer per key (curve buckets, colors)."""
    return Schema.from_dict({key: fields.Integer(required=True) for key in keys}, name=what)


CurveSchema = _counts(CURVE_BUCKETS, "CurveSchema")
ColorCountsSchema = _counts(COLORS, "ColorCountsSchema")


class TypeEntrySchema(Schema):
    """A card counted under a type, and its copies."""

    name = fields.String(required=True)
    quantity = fields.Integer(required=True)


class OverviewSchema(Schema):
    """The deck overview (request `"include": ["overview"]`): the numbers behind the page's
    charts, over the commanders and main deck, every copy counted."""

    cards = fields.Integer(required=True, metadata={"description": "Cards counted (resolved commanders and main deck)."})
    lands = fields.Integer(required=True)
    curve = fields.Nested(CurveSchema, required=True,
                          metadata={"description": 'Nonland cards by mana value, "0" to "6" and "7+".'})
    cost_symbols = fields.Nested(ColorCountsSchema, required=True, metadata={
        "description": "Mana symbols of each color (WUBRG, C) in the nonland cards' costs; hybrid counts for each."})
    land_sources = fields.Nested(ColorCountsSchema, required=True,
                                 metadata={"description": "Lands able to produce each color."})
    types = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "Cards per card type (a card counts under each of its types), creatures first."})
    cards_by_type = fields.Dict(keys=fields.String(), values=fields.List(fields.Nested(TypeEntrySchema)),
                                required=True, metadata={"description": "The cards behind `types`, by name."})
    images = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "Canonical name -> Scryfall CDN image (normal size, front face) of every listed card "
                       "that has one in the store; cards without are left out."})


class CardDataSchema(Schema):
    """Where the card data came from and how fresh it is."""

    source = fields.String(required=True)
    updated_at = fields.String(
        required=True, allow_none=True,
        metadata={"description": "updated_at of the Scryfall bulk file the store was built from."},
    )


class BracketReasonSchema(Schema):
    """One step of the minimum bracket, or a check that was not made (bracket null)."""

    bracket = fields.Integer(required=True, allow_none=True,
                             metadata={"description": "The bracket this reason sets at least; null for a "
                                                      "check not made (its list is not loaded)."})
    message = fields.String(required=True)
    cards = fields.List(fields.String(), required=True)


class BracketSchema(Schema):
    """The Commander Brackets block (DESIGN.md): the lowest bracket the card list allows, and why.

    Advisory: `valid` ignores it unless the request declares a bracket. A list is null (with
    a reason) when its data is not loaded, never empty then.
    """

    minimum = fields.Integer(required=True, metadata={"description": "1 to 4 (never 5: cEDH is intent)."})
    declared = fields.Integer(required=True, allow_none=True,
                              metadata={"description": "The bracket the request declared, or null."})
    game_changers = fields.List(fields.String(), required=True)
    mass_land_denial = fields.List(fields.String(), required=True, allow_none=True,
                                   metadata={"description": "null: no mass land denial list is loaded."})
    extra_turns = fields.List(fields.String(), required=True)
    two_card_combos = fields.List(fields.List(fields.String()), required=True, allow_none=True,
                                  metadata={"description": "Pairs with both cards in the deck; null: no "
                                                           "combo list is loaded."})
    reasons = fields.List(fields.Nested(BracketReasonSchema), required=True)


class DeckSourceSchema(Schema):
    """Where a deck given by `url` came from, and what the site declares of it."""

    site = fields.String(required=True, validate=validate.OneOf(("archidekt", "moxfield")))
    id = fields.String(required=True, metadata={"description": "The deck's id on the site."})
    url = fields.String(required=True, metadata={"description": "The deck's page on the site (canonical)."})
    name = fields.String(required=True, allow_none=True, metadata={"description": "The deck's title on the site."})
    fetched_at = fields.String(required=True, metadata={
        "description": "When the site was asked (ISO 8601, UTC); a deck is kept DECK_URL_CACHE_SECONDS."})
    declared_bracket = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The Commander Bracket declared on the site (Archidekt edhBracket, Moxfield userBracket, else "
                       "bracket), or null. Checked like the request's `bracket` (which wins) when the deck is judged "
                       "in Commander."})


class ReportSchema(Schema):
    """Response of POST /api/v1/validate: the verdict and every violation."""

    valid = fields.Boolean(required=True)
    format = fields.String(required=True, validate=validate.OneOf(GAME_FORMATS),
                           metadata={"description": "The game format checked (its canonical key)."})
    decklist_format = fields.String(
        required=True, metadata={"description": "The decklist syntax it was read as (text, arena...)."}
    )
    commanders = fields.List(fields.String(), required=True)
    companion = fields.String(required=True, allow_none=True)
    signature_spells = fields.List(fields.String(), required=True, metadata={
        "description": "Oathbreaker: the signature spells (canonical names); empty in the other formats."})
    color_identity = fields.List(fields.String(validate=validate.OneOf(tuple(WUBRG))), required=True)
    card_count = fields.Integer(required=True)
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    translated = fields.List(fields.Nested(TranslatedSchema), required=True,
                             metadata={"description": "One entry per distinct name (as written) read in another "
                                                      "language; empty when none."})
    bracket = fields.Nested(BracketSchema, required=True, allow_none=True,
                            metadata={"description": "null outside commander (brackets are Commander's)."})
    house_rules = fields.Nested(HouseRulesBlockSchema, required=True, allow_none=True,
                                metadata={"description": "The house rules it was judged under; null when none."})
    card_data = fields.Nested(CardDataSchema, required=True)
    overview = fields.Nested(OverviewSchema, metadata={"description": 'Only when the request asks: "include": '
                                                                    '["overview"] (or ?include=overview).'})
    formats = fields.Nested(FormatsBlockSchema, metadata={
        "description": 'Only when the request asks: "include": ["formats"] (or ?include=formats): for every '
                       "game format, whether the list is legal there, its status (legal, not_legal, or "
                       "unknown when the card data cannot say) and its error codes."})
    source = fields.Nested(DeckSourceSchema, metadata={"description": "Only for a request with `url`: the deck's site, "
                                                                  "id, page, title and declared bracket."})
    decklist = fields.String(metadata={
        "description": "Only for a request with `url`: the deck as the plain text the service judged (the format the "
                       "site names on a `Format:` line, then each section under its header, one entry a line); "
                       "every `lines` number points into this text."})


class BatchResponseSchema(Schema):
    """Response of POST /api/v1/validate/batch: one report per deck, in request order."""

    results = fields.List(fields.Nested(ReportSchema), required=True)


class CommanderSchema(Schema):
    """Whether a card can be a commander, and if not, why."""

    eligible = fields.Boolean(required=True)
    reason = fields.String(required=True, allow_none=True)


class FaceSchema(Schema):
    """One face of a multi-faced card."""

    name = fields.String(required=True)
    mana_cost = fields.String(required=True)
    type_line = fields.String(required=True)
    oracle_text = fields.String(required=True)


class CardSchema(Schema):
    """Response of GET /api/v1/cards/{name}: what the service knows about one card."""

    name = fields.String(required=True, metadata={"description": "The canonical Scryfall name."})
    mana_cost = fields.String(required=True)
    mana_value = fields.Float(required=True)
    type_line = fields.String(required=True)
    oracle_text = fields.String(required=True)
    color_identity = fields.List(fields.String(validate=validate.OneOf(tuple(WUBRG))), required=True)
    keywords = fields.List(fields.String(), required=True)
    layout = fields.String(required=True)
    legality = fields.String(required=True, metadata={"description": "Commander legality: legal, "
                                                                     "not_legal, banned or restricted."})
    legalities = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    game_changer = fields.Boolean(required=True, metadata={"description": "On the Commander Brackets' "
                                                                         "Game Changers list."})
    extra_turn = fields.Boolean(required=True, metadata={"description": "Grants an extra turn (Oracle text)."})
    mass_land_denial = fields.Boolean(required=True, allow_none=True,
                                      metadata={"description": "On the mass land denial list; null when "
                                                               "that list is not loaded."})
    commander = fields.Nested(CommanderSchema, required=True)
    pairing_abilities = fields.List(
        fields.String(), required=True,
        metadata={"description": 'As printed: "Partner", "Partner with X", "Choose a Background"...'},
    )
    faces = fields.List(fields.Nested(FaceSchema))
    flavor_name = fields.String()
    printed_name = fields.String()
    scryfall_uri = fields.String(required=True)


class CardNameSchema(Schema):
    """The path parameter of GET /api/v1/cards/{name}."""

    name = card_name(required=True)


class ErrorSchema(Schema):
    """The one error envelope of every 4xx/5xx under /api/ (flask-smorest's shape)."""

    code = fields.Integer(required=True, metadata={"description": "Equals the HTTP status."})
    status = fields.String(required=True)
    message = fields.String(required=True)
    errors = fields.Dict(metadata={"description": "Per-field details, when there are any."})


# Building a Schema costs about half a millisecond; loading and dumping with a shared
# instance is thread-safe (marshmallow 4 keeps no per-call state on it).
validate_request_schema = ValidateRequestSchema()
validate_query_schema = ValidateQuerySchema(exclude=("decklist", "url"))  # the text/plain options
card_name_schema = CardNameSchema()
card_schema = CardSchema()
