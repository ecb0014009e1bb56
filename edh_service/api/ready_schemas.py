"""The marshmallow schemas of the health endpoints' bodies (GET /healthz, GET /readyz), for
the OpenAPI document (schemas.py re-exports them; openapi.py names them)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from edh_service.api.house_schemas import ReadyHouseRulesSchema

ENGINES = ("compiled", "python")  # validator.ENGINE


class HealthSchema(Schema):
    """Response of GET /healthz."""

    status = fields.String(required=True)


class ReadyCardDataSchema(Schema):
    """The loaded store: bulk file date and card count."""

    updated_at = fields.String(required=True, allow_none=True)
    cards = fields.Integer(required=True)


class ReadyBracketListSchema(Schema):
    """One loaded bracket list: how many entries and the date of its source."""

    entries = fields.Integer(required=True)
    updated_at = fields.String(required=True, allow_none=True)
    update_refused = fields.Boolean(metadata={
        "description": "Present (true) when the last refresh offered under half the entries: it was refused "
                       "and this list kept (LIST_SHRINK_ALLOWED=1 or `cards brackets --allow-shrink` accepts it)."})


class ReadyBracketListsSchema(Schema):
    """The bracket lists; null for a list not loaded (brackets then say it was not checked)."""

    mass_land_denial = fields.Nested(ReadyBracketListSchema, required=True, allow_none=True)
    two_card_combos = fields.Nested(ReadyBracketListSchema, required=True, allow_none=True)


class CardNamesSchema(Schema):
    """The table of names printed in other languages (GET /readyz, `cards status`)."""

    languages = fields.List(fields.String(), required=True,
                            metadata={"description": "Scryfall language codes the table holds; empty: none."})
    names = fields.Integer(required=True, metadata={"description": "Printed names (name, language, card)."})
    updated_at = fields.String(required=True, allow_none=True,
                               metadata={"description": "The updated_at of the file the table was built from."})


class ReadyFormatListsSchema(Schema):
    """The formats' synced lists; null for a list not loaded."""

    pauper_commanders = fields.Nested(ReadyBracketListSchema, required=True, allow_none=True, metadata={
        "description": "Scryfall's is:paupercommander list (or PAUPER_COMMANDERS_FILE); null: not loaded, a Pauper "
                       "Commander commander is then legality_unknown."})


class ReadySchema(Schema):
    """Response of GET /readyz once card data is loaded."""

    status = fields.String(required=True)
    card_data = fields.Nested(ReadyCardDataSchema, required=True)
    bracket_lists = fields.Nested(ReadyBracketListsSchema, required=True,
                                  metadata={"description": "Not a readiness condition: without a list, "
                                                           "validation says that check was not made."})
    format_lists = fields.Nested(ReadyFormatListsSchema, required=True,
                                 metadata={"description": "Not a readiness condition either."})
    card_names = fields.Nested(CardNamesSchema, required=True,
                               metadata={"description": "Not a readiness condition: without the table, names "
                                                        "in other languages are unknown cards."})
    engine = fields.String(required=True, validate=validate.OneOf(ENGINES), metadata={
        "description": "The engine validating: `compiled` (mypyc compiled it: `pip install .` with a C compiler, "
                       "as the Docker image is built) or `python` (the same source as plain Python)."})
    house_rules = fields.Nested(ReadyHouseRulesSchema, metadata={
        "description": "Present when HOUSE_RULES_DIR is set: the profiles served and each broken file (not served)."})
    degraded = fields.Boolean(metadata={"description": "Present (true) when the last background sync "
                                                      "failed: answers come from the last good store."})
    last_sync_error = fields.String(metadata={"description": "That the last sync failed (with degraded); "
                                                             "why is in the service's log."})
