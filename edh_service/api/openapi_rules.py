"""What apispec cannot derive from the marshmallow schemas, written into the OpenAPI 3.1
document (JSON Schema 2020-12) so that it says exactly what the service accepts:

- a game format is a key or alias in any case, surrounding whitespace ignored
  (validator.formats.format_named): a pattern, not an enum of lower-case spellings;
- a field that takes null says so in its enum and oneOf as well as in its type;
- `color_choices` is bounded in properties and key length, not in characters;
- the cross-field rules of a validate request (DESIGN.md "Commander-family formats",
  "Decks by URL"): exactly one of `decklist` and `url`; a declared `bracket` only with a
  format that has brackets (or none given); `signature_spells` only with one that has them.

A request that gives no `format` is judged in the format its list names for itself, else
Commander: the document cannot read the list, so it allows a bracket there and says, in
the field's description and the 422's, that a list naming another format makes it a 422.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable, NamedTuple

from edh_service.api.schemas import BATCH_LIMIT
from edh_service.deck_urls import MAX_BATCH_URLS

from validator.formats import FORMATS, KEYS
from validator.parse import MAX_NAME_LENGTH


@lru_cache(maxsize=1)
def _folds() -> dict[str, str]:
    """Every character whose casefold is one ASCII letter, by that letter (the Kelvin sign
    folds to k, the long s to s), and Python's whitespace as one character class."""
    folds: dict[str, str] = {}
    spaces = []
    for point in range(0x110000):
        char = chr(point)
        if char.isspace():
            spaces.append(char)
        folded = char.casefold()
        if len(folded) == 1 and "a" <= folded <= "z":
            folds[folded] = folds.get(folded, "") + char
    folds[" "] = "".join(spaces)
    return folds


def _char_class(chars: str) -> str:
    return "[" + "".join(c if c.isalnum() and c.isascii() else f"\\u{ord(c):04x}" for c in chars) + "]"


def spelled_any_case(names: Iterable[str]) -> str:
    """A pattern matching exactly what format_named reads as one of `names`: any case,
    surrounding whitespace stripped."""
    folds = _folds()
    space = _char_class(folds[" "]) + "*"
    words = ("".join(_char_class(folds[c]) if c in folds else re.escape(c) for c in name) for name in names)
    return f"^{space}(?:{'|'.join(words)}){space}$"


def format_names(*, brackets: bool = False, signature_spells: bool = False) -> list[str]:
    """The keys and aliases of every format, or of those with brackets or signature spells."""
    return [name for f in FORMATS if (not brackets or f.brackets) and (not signature_spells or f.signature_spells)
            for name in (f.key, *f.aliases)]


def format_schema(description: str, *, nullable: bool = True) -> dict:
    """A `format` (field or query parameter): a key or alias in any case; null in JSON."""
    return {"type": ["string", "null"] if nullable else "string", "pattern": spelled_any_case(format_names()),
            "examples": list(KEYS), "description": description}


def cross_field_rules() -> list[dict]:
    """The allOf of a validate request: a bracket only where brackets apply, signature spells
    only where they exist (null, an empty list or leaving the field out is always fine)."""
    bracket_formats = spelled_any_case(format_names(brackets=True))
    spell_formats = spelled_any_case(format_names(signature_spells=True))
    return [
        {"if": {"required": ["bracket"], "properties": {"bracket": {"type": "integer"}}},
         "then": {"properties": {"format": {"anyOf": [{"type": "null"},
                                                      {"type": "string", "pattern": bracket_formats}]}}}},
        {"if": {"required": ["signature_spells"], "properties": {"signature_spells": {"type": "array", "minItems": 1}}},
         "then": {"required": ["format"],
                  "properties": {"format": {"type": "string", "pattern": spell_formats}}}},
    ]


def nullable_everywhere(node: Any) -> None:
    """A schema typed with null keeps null in its enum (apispec adds it to `type` only when the
    enum came from metadata)."""
    if isinstance(node, dict):
        types = node.get("type")
        if isinstance(types, list) and "null" in types and "enum" in node and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]
        for value in node.values():
            nullable_everywhere(value)
    elif isinstance(node, list):
        for value in node:
            nullable_everywhere(value)


class Serving(NamedTuple):
    """What the operator's settings make acceptable: deck links at all, Moxfield's, and the
    house rules profiles a request may name."""

    deck_urls: bool = True
    moxfield: bool = True
    profiles: tuple[str, ...] = ()
    batch_limit: int = BATCH_LIMIT


# What card_data.sites.sources.locate reads as a deck link (https:// optional, the deck's
# page or Archidekt's API path, an optional slug; query and fragment ignored).
ARCHIDEKT_LINK = r"(?:https://)?(?:www\.)?archidekt\.com/(?:api/)?decks/[1-9][0-9]{0,11}(?:/[A-Za-z0-9_-]*)?/?"
MOXFIELD_LINK = r"(?:https://)?(?:www\.)?moxfield\.com/decks/[A-Za-z0-9_-]{1,64}(?:/[A-Za-z0-9_-]*)?/?"


def deck_links(serving: Serving, field: dict) -> dict | None:
    """The `url` field as served: a link to a deck on a site this service reads, or None
    when it reads none (DECK_URLS=0)."""
    if not serving.deck_urls:
        return None
    tail = "(?:[?#]" + _char_class(_folds()[" "]).replace("[", "[^", 1) + "*)?"  # one link: no whitespace at all
    links = [link + tail for link in (ARCHIDEKT_LINK, *([MOXFIELD_LINK] if serving.moxfield else []))]
    return {**field, "pattern": "^(?:" + "|".join(links) + ")$"}


def complete(document: dict, serving: Serving = Serving()) -> dict:
    """The document with the rules above written in (changed in place, and returned)."""
    schemas = document["components"]["schemas"]
    request = schemas["ValidateRequest"]
    fields = request["properties"]
    fields["format"] = format_schema(fields["format"]["description"])
    profile, rules = fields["house_rules"]["oneOf"]
    fields["house_rules"]["oneOf"] = [*([{**profile, "enum": list(serving.profiles)}] if serving.profiles else []),
                                      rules, {"type": "null"}]
    choices = fields["color_choices"]
    choices["maxProperties"] = choices.pop("maxLength")
    choices["propertyNames"] = {"maxLength": MAX_NAME_LENGTH}
    request["allOf"] = cross_field_rules()
    request["description"] = (
        "Exactly one of `decklist` and `url`. `bracket` (not null) only with a format that has brackets "
        "(commander, edh) or without `format`; a non-empty `signature_spells` only with `format` oathbreaker. "
        "Without `format` the list's own format (a `Format:` line, a site's) is the one judged: a bracket there "
        "is a 422 unless it is Commander. The query parameters follow the same rules.")
    schemas["BatchRequest"]["properties"]["decks"]["maxItems"] = serving.batch_limit
    operation = document["paths"]["/api/v1/validate"]["post"]
    operation["parameters"] = [
        {**p, "schema": {**p["schema"], "enum": list(serving.profiles)}} if p["name"] == "house_rules" else p
        for p in operation["parameters"] if p["name"] != "house_rules" or serving.profiles]
    url = deck_links(serving, fields.pop("url"))
    if url is None:
        request["required"] = ["decklist"]
        request["description"] = request["description"].replace("Exactly one of `decklist` and `url`.",
                                                                "`decklist` is required (DECK_URLS=0: no links).")
    else:
        fields["url"] = url
        request["oneOf"] = [{"required": ["decklist"]}, {"required": ["url"]}]
        # at most MAX_BATCH_URLS links a batch (the service counts distinct ones: this is the bound a client can keep)
        schemas["BatchRequest"]["properties"]["decks"].update(
            contains={"type": "object", "required": ["url"]}, minContains=0, maxContains=MAX_BATCH_URLS)
    nullable_everywhere(document)
    return document
