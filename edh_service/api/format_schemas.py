"""The marshmallow schemas of the Commander-family formats (issue 21, DESIGN.md): the
request's `format` field, the `formats` block of a validate answer, and GET
/api/v1/formats' body. schemas.py uses the first two; openapi.py documents them all."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from edh_service.api.errors import Said
from validator.engine import FormatStatus
from validator.formats import FORMATS as GAME_FORMAT_TABLE, KEYS, UnknownFormat, format_named
from validator.violations import Code

GAME_FORMATS = KEYS  # the canonical keys (validator.formats); aliases are accepted on the way in
# Every spelling a request may use, for the OpenAPI document (the field itself ignores case).
GAME_FORMAT_NAMES = tuple(name for f in GAME_FORMAT_TABLE for name in (f.key, *f.aliases))


class GameFormat(fields.String):
    """The game format: a key or alias in any case (validator.formats.format_named), loaded
    as its canonical key; anything else is refused with a message listing the seven keys."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return format_named(text).key
        except UnknownFormat as error:
            raise ValidationError(Said(error.text)) from None


def game_format_field() -> GameFormat:
    """The request's `format` (absent or null: the list's own, else commander)."""
    return GameFormat(
        load_default=None,
        allow_none=True,
        metadata={"enum": list(GAME_FORMAT_NAMES),
                  "description": "The game format to check against: " + ", ".join(KEYS) + " (aliases edh, "
                                 "duelcommander, dc, historicbrawl, pdh, pauperedh; any case). Omitted: the format "
                                 "the list names for itself (format_inferred), else commander. The response "
                                 "says the canonical key."},
    )


class FormatVerdictSchema(Schema):
    """One game format's verdict in the `formats` block."""

    valid = fields.Boolean(required=True, metadata={"description": "No error in that format."})
    status = fields.String(required=True, validate=validate.OneOf([s.value for s in FormatStatus]), metadata={
        "enum": [s.value for s in FormatStatus],
        "description": "legal: no error, and every card's legality there is known; not_legal: an error; "
                       "unknown: no error, but the card data has no legality there for some card "
                       "(legality_unknown): never read it as legal."})
    codes = fields.List(fields.String(metadata={"enum": [c.value for c in Code]}), required=True,
                        metadata={"description": "The distinct error codes in that format, sorted."})


FormatsBlockSchema = Schema.from_dict(
    {key: fields.Nested(FormatVerdictSchema, required=True) for key in KEYS}, name="FormatsBlockSchema")


class FormatSchema(Schema):
    """One row of GET /api/v1/formats: a Commander-family format as the engine judges it."""

    key = fields.String(required=True, validate=validate.OneOf(GAME_FORMATS))
    name = fields.String(required=True)
    deck_size = fields.Integer(required=True, metadata={"description": "Exactly this many cards, commanders "
                                                                       "(and signature spells) included."})
    commander = fields.String(required=True, metadata={"description": "Who can command, in words."})
    legality_key = fields.String(required=True, metadata={"description": "The Scryfall legalities key the "
                                                                         "cards are judged by."})
    brackets = fields.Boolean(required=True, metadata={"description": "Commander Brackets apply."})
    aliases = fields.List(fields.String(), required=True)


class SourceSchema(Schema):
    """When one source of the formats' data was last updated (its own updated_at)."""

    updated_at = fields.String(required=True, allow_none=True)
    entries = fields.Integer(metadata={"description": "How many names a synced list holds."})


class FormatSourcesSchema(Schema):
    """Where the formats' data comes from; null for what is not loaded."""

    legalities = fields.Nested(SourceSchema, required=True, allow_none=True, metadata={
        "description": "Every card's legalities: the Scryfall bulk file the store was built from."})
    pauper_commanders = fields.Nested(SourceSchema, required=True, allow_none=True, metadata={
        "description": "Scryfall's is:paupercommander list (or PAUPER_COMMANDERS_FILE)."})


class FormatsResponseSchema(Schema):
    """Response of GET /api/v1/formats: the formats table and its data's dates."""

    formats = fields.List(fields.Nested(FormatSchema), required=True)
    sources = fields.Nested(FormatSourcesSchema, required=True)
