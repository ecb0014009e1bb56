"""The marshmallow schemas of house rules (DESIGN.md "House rules"): the request's
`house_rules` field (a profile's name, or the rules themselves), the `house_rules` block of
a validate answer, GET /api/v1/house-rules' body and /readyz's `house_rules`. schemas.py
uses the first two; request_loading.py compiles the field; openapi.py documents them all."""

from __future__ import annotations

from typing import Any, Mapping

from marshmallow import Schema, ValidationError, fields, validate

from edh_service.api.whole_numbers import WholeNumber
from edh_service.house_rules import HOUSE_BRACKETS, MAX_LIST_NAMES, MAX_TEXT_LENGTH, PROFILE_NAME
from validator.parse import MAX_NAME_LENGTH

PROFILE_NAME_ERROR = "Not a profile name: a-z, 0-9, - and _, up to 64 characters."
PROFILE_PATTERN = "^" + PROFILE_NAME.pattern.replace("\\Z", "$")  # as JSON Schema writes it
SHAPE_ERROR = "Give a profile's name (a string) or the rules themselves (an object)."


def _names(what: str) -> fields.List:
    """One of the three lists: card names, bounded like the request's other names."""
    return fields.List(fields.String(validate=validate.Length(1, MAX_NAME_LENGTH)), allow_none=True,
                       validate=validate.Length(max=MAX_LIST_NAMES),
                       metadata={"description": f"{what} Names as in a list: English, a face, a flavor name or a "
                                                f"name printed in another language; at most {MAX_LIST_NAMES}."})


class HouseRulesRequestSchema(Schema):
    """House rules sent with the request: every key optional."""

    banned = _names("Cards banned in the deck, commanders and companion included (house_banned).")
    banned_as_commander = _names("Cards banned as commander only, legal in the deck (house_banned_as_commander).")
    unbanned = _names("Cards the format bans (or bans as commander) that this table allows (house_unbanned); "
                      "none may be in `banned` too (a 422: a card is one or the other).")
    max_bracket = WholeNumber(allow_none=True, validate=validate.Range(min(HOUSE_BRACKETS), max(HOUSE_BRACKETS)),
                              metadata={"description": "The table's Commander Bracket (1-4), checked as a declared "
                                                       "bracket unless the request declares its own."})
    name = fields.String(allow_none=True, validate=validate.Length(max=MAX_TEXT_LENGTH),
                         metadata={"description": 'What the verdict says it was judged under ("Thursday at the '
                                                  'store").'})


class HouseRulesField(fields.Field):
    """`house_rules`: a profile's name (HOUSE_RULES_DIR) or the rules as an object, loaded
    as the name (str) or the loaded object (dict)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # request_loading.py compiles these two parts; they are the field's whole contract
        self.profile_field = fields.String(validate=[validate.Length(1, 64),
                                                     validate.Regexp(PROFILE_NAME, error=PROFILE_NAME_ERROR)])
        self.schema = HouseRulesRequestSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str | dict:
        if isinstance(value, str):
            return self.profile_field.deserialize(value)
        if isinstance(value, Mapping):
            return self.schema.load(value)
        raise ValidationError(SHAPE_ERROR)


def house_rules_field() -> HouseRulesField:
    """The request's `house_rules` (absent or null: none)."""
    return HouseRulesField(
        load_default=None,
        allow_none=True,
        metadata={
            "oneOf": [{"type": "string", "pattern": PROFILE_PATTERN, "maxLength": 64,
                       "description": "The name of a profile GET /api/v1/house-rules lists."},
                      {"$ref": "#/components/schemas/HouseRulesRequest"}],
            "description": "A table's own list (rule 0): its bans, bans as commander, unbans and bracket. A "
                           "name that resolves to no card is a 422 naming it with suggestions; an unknown "
                           "profile a 422 listing the known ones."},
    )


class HouseRulesBlockSchema(Schema):
    """The house rules a deck was judged under (null when none)."""

    name = fields.String(required=True, allow_none=True,
                         metadata={"description": "The rules' name: the request's, or the profile's title."})
    profile = fields.String(required=True, allow_none=True,
                            metadata={"description": "The profile they came from; null when sent with the "
                                                     "request."})
    banned = fields.Integer(required=True, metadata={"description": "How many cards the rules ban."})
    banned_as_commander = fields.Integer(required=True)
    unbanned = fields.Integer(required=True)
    max_bracket = fields.Integer(required=True, allow_none=True)


class HouseRulesProfileSchema(Schema):
    """One profile of GET /api/v1/house-rules."""

    name = fields.String(required=True, metadata={"description": "What a request's house_rules names."})
    title = fields.String(required=True, allow_none=True)
    description = fields.String(required=True, allow_none=True)
    banned = fields.Integer(required=True, metadata={"description": "Names in its banned list."})
    banned_as_commander = fields.Integer(required=True)
    unbanned = fields.Integer(required=True)
    max_bracket = fields.Integer(required=True, allow_none=True)


class HouseRulesListSchema(Schema):
    """Response of GET /api/v1/house-rules: the operator's profiles, by name."""

    profiles = fields.List(fields.Nested(HouseRulesProfileSchema), required=True)


class BrokenProfileSchema(Schema):
    """A profile file that is not served, and why."""

    file = fields.String(required=True)
    error = fields.String(required=True)


class ReadyHouseRulesSchema(Schema):
    """/readyz's house rules: the profiles served and the broken files (not a readiness condition)."""

    profiles = fields.Integer(required=True)
    broken = fields.List(fields.Nested(BrokenProfileSchema), required=True)

