"""The response bodies, built by hand in the schemas' shapes (schemas.py declares them for
validation and the OpenAPI document; through marshmallow a validate answer cost several
times more). `dump_report(report, card_meta)` turns an engine `Report` into the
/api/v1/validate body; the CLI uses it for `--format json`, so both speak exactly the same
JSON. Typed with the engine's own types; tests check each body against its schema.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping
from urllib.parse import quote

from card_data import StoreMetadata
from edh_service.api.schemas import OverviewSchema
from edh_service.pipeline import Translated
from validator.brackets import Bracket
from validator.engine import FormatVerdict, Report
from validator.formats import HouseRules
from validator.messages import Renderer, Text
from validator.overview import Overview
from validator.violations import Code, Violation

# What a regular expression in a Scryfall query must escape ("/" ends it).
REGEX_SPECIAL = re.compile(r"([\\^$.|?*+()\[\]{}/])")
_overview_schema = OverviewSchema()
SUGGESTING = (Code.UNKNOWN_CARD, Code.AMBIGUOUS_CARD)  # the codes whose violations carry `suggestions`

IMAGE_HOST = "https://cards.scryfall.io"  # Scryfall's image CDN: the one image host the page's CSP allows


def preview_images(overview: Overview | None) -> dict[str, str]:
    """Canonical name -> preview URL, only for images on Scryfall's CDN (what the CSP allows)."""
    if overview is None:
        return {}
    return {name: url for name, url in overview.images.items() if url.startswith(IMAGE_HOST + "/")}


def scryfall_search_url(name: str) -> str:
    """A Scryfall search for exactly this card name (a link only; nothing is fetched).

    `!"..."` cannot hold a double quote: `Kongming, "Sleeping Dragon"` ended the phrase early
    and searched for something else. Such a name is searched as an anchored regular
    expression on the name (Scryfall's `name:/.../`), its special characters escaped;
    static/app.js builds the same query."""
    if '"' in name:
        return "https://scryfall.com/search?q=" + quote("name:/^" + REGEX_SPECIAL.sub(r"\\\1", name) + "$/", safe="")
    return "https://scryfall.com/search?q=" + quote(f'!"{name}"', safe="")


def dump_card_data(card_meta: StoreMetadata | Mapping[str, Any] | None) -> dict:
    """The response's card_data object from StoreMetadata (or a mapping, or None)."""
    if card_meta is None:
        return {"source": "scryfall", "updated_at": None}
    source: Any
    updated_at: Any
    if type(card_meta) is StoreMetadata:  # the usual case, before the slower abstract-class test
        source, updated_at = card_meta.source, card_meta.updated_at
    elif isinstance(card_meta, Mapping):
        source, updated_at = card_meta.get("source", "scryfall"), card_meta.get("updated_at")
    else:
        source, updated_at = getattr(card_meta, "source", "scryfall"), card_meta.updated_at
    return {"source": str(source or "scryfall"), "updated_at": _iso(updated_at)}  # CardDataSchema's shape


def _iso(value: Any) -> str | None:
    """A timestamp as ISO 8601 text, whether it arrives as a datetime or a string."""
    if value is None or isinstance(value, str):
        return value
    return value.isoformat()


def dump_overview(overview: Overview) -> dict:
    """The response's overview block from validator.overview.Overview (images on the CDN only)."""
    return _overview_schema.dump({
        "cards": overview.cards,
        "lands": overview.lands,
        "curve": dict(overview.curve),
        "cost_symbols": dict(overview.cost_symbols),
        "land_sources": dict(overview.land_sources),
        "types": dict(overview.types),
        "cards_by_type": {kind: [{"name": name, "quantity": copies} for name, copies in entries]
                          for kind, entries in overview.cards_by_type.items()},
        "images": preview_images(overview),
    })


def shown(text: Text | str, language: Renderer | None) -> str:
    """A message in the answer's language (None: English, the validator's own words); a text
    still written as a plain string is shown as it is."""
    if isinstance(text, str):
        return text
    return text.english() if language is None else text.render(language)


def dump_report(report: Report, card_meta: StoreMetadata | Mapping[str, Any] | None,
                include: Iterable[str] | None = (), translated: Iterable[Translated] = (),
                language: Renderer | None = None) -> dict:
    """The JSON body for one validated deck (the API's documented shape: valid, format,
    commanders, ...), shared by the API and the CLI.

    The API's `format` is the game format the deck was judged in (Report.game_format, the
    canonical key: the request's, or the one the list named for itself); the engine's
    Report.format is the decklist syntax it read, which goes out as `decklist_format`.
    `include` adds the optional blocks the Report holds (`overview`, `formats`).
    `translated` is pipeline.Validated.translated (pipeline.Translated values): the
    names read in another language, always present (an empty list when none).
    `language` renders the `message`s (edh_service.i18n.catalogs.language, its card names
    as printed in it); None: English. Nothing else changes with it.
    """
    body = {
        "valid": report.valid,
        "format": report.game_format,
        "decklist_format": report.format,
        "commanders": list(report.commanders),
        "companion": report.companion,
        "signature_spells": list(report.signature_spells),
        "color_identity": list(report.color_identity),
        "card_count": report.card_count,
        "violations": [dump_violation(violation, language) for violation in report.violations],
    }
    body["translated"] = [{"name": read.name, "card": read.card, "lang": read.lang, "lines": list(read.lines)}
                          for read in translated]
    body["bracket"] = dump_bracket(report.bracket, language)
    body["house_rules"] = dump_house_rules(report.house_rules)
    body["card_data"] = dump_card_data(card_meta)
    include = include or ()
    if "overview" in include and report.overview is not None:
        body["overview"] = dump_overview(report.overview)
    if "formats" in include and report.formats is not None:
        body["formats"] = dump_formats(report.formats)
    return body


def dump_house_rules(rules: HouseRules | None) -> dict | None:
    """The `house_rules` block (HouseRulesBlockSchema's shape): what the deck was judged under
    and how many cards each list holds; None (null) when none."""
    if rules is None:
        return None
    return {"name": rules.name, "profile": rules.profile, "banned": len(rules.banned),
            "banned_as_commander": len(rules.banned_as_commander), "unbanned": len(rules.unbanned),
            "max_bracket": rules.max_bracket}


def dump_formats(formats: Mapping[str, FormatVerdict]) -> dict:
    """The `formats` block: every game format's {valid, status, codes}, in the table's order."""
    return {key: {"valid": verdict.valid, "status": str(verdict.status), "codes": list(verdict.codes)}
            for key, verdict in formats.items()}


def dump_violation(violation: Violation, language: Renderer | None = None) -> dict:
    """One violation in ViolationSchema's shape; only unknown_card (suggestions) and
    ambiguous_card (the candidates) carry suggestions."""
    body = {
        "code": str(violation.code),
        "severity": str(violation.severity),
        "message": shown(violation.text, language),
        "cards": list(violation.cards),
        "lines": list(violation.lines),
        "rule": violation.rule,
    }
    if violation.code in SUGGESTING:
        body["suggestions"] = list(violation.suggestions)
    return body


def dump_bracket(bracket: Bracket | None, language: Renderer | None = None) -> dict | None:
    """The `bracket` block from the engine's Bracket, in BracketSchema's shape (DESIGN's keys
    only: `fast_combos` stays inside; a fast combo is said in its reason).

    Built by hand: through marshmallow it cost ~28 µs of a ~300 µs validation, more than
    the bracket evaluation itself; test_api_brackets checks it against the schema.
    """
    if bracket is None:
        return None
    return {
        "minimum": bracket.minimum,
        "declared": bracket.declared,
        "game_changers": list(bracket.game_changers),
        "mass_land_denial": None if bracket.mass_land_denial is None else list(bracket.mass_land_denial),
        "extra_turns": list(bracket.extra_turns),
        "two_card_combos": None if bracket.two_card_combos is None else [list(pair) for pair in bracket.two_card_combos],
        "reasons": [{"bracket": reason.bracket, "message": shown(reason.text, language), "cards": list(reason.cards)}
                    for reason in bracket.reasons],
    }
