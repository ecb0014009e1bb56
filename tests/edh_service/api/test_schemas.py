"""The response is built by hand for speed (responses.dump_report); ReportSchema is the
documented shape (OpenAPI). They must agree, key for key, on every kind of report."""

from __future__ import annotations

import json

import pytest

from edh_service import pipeline as service
from edh_service.api import responses, schemas
from edh_service.card_extension import repository_of
from tests.support.factories import ILLEGAL_DECK, deck_text

DECKS = {
    "legal": deck_text(),
    "illegal (banned, off-color, singleton, count)": ILLEGAL_DECK,
    "unknown card with suggestions": deck_text(extra=("Sol Rnig",)),
    "unparsed line and a sideboard": deck_text() + "\nthis is not a card line ::\n\nSideboard\n1 Sol Ring\n",
    "empty": "",
}


def schema_dump(report, meta, include=(), translated=()) -> dict:
    """What ReportSchema (marshmallow) makes of the same report."""
    return schemas.ReportSchema().dump({
        "valid": report.valid,
        "format": "commander",
        "decklist_format": report.format,
        "commanders": report.commanders,
        "companion": report.companion,
        "signature_spells": report.signature_spells,
        "color_identity": report.color_identity,
        "card_count": report.card_count,
        "violations": report.violations,
        "translated": [dict(zip(("name", "card", "lang", "lines"), entry)) for entry in translated],
        "bracket": report.bracket,
        "house_rules": responses.dump_house_rules(report.house_rules),
        "card_data": {"source": meta.source or "scryfall", "updated_at": meta.updated_at},
        **({"overview": responses.dump_overview(report.overview)} if "overview" in include else {}),
    })


@pytest.mark.parametrize("name", DECKS)
def test_the_hand_built_report_is_what_report_schema_dumps(app, name):
    repository = repository_of(app)
    report, source, translated = service.validate_text(DECKS[name], repository, with_overview=True)
    meta = source or repository.metadata()
    built = responses.dump_report(report, meta, ("overview",), translated)
    assert built == schema_dump(report, meta, ("overview",), translated)
    assert list(built) == list(schema_dump(report, meta, ("overview",), translated))  # the documented key order too
    json.dumps(built)  # plain JSON types only: no enum or tuple leaks out


def test_the_comparison_sees_the_cases_that_matter(app):
    """Not a vacuous comparison: the decks above give suggestions, warnings and errors."""
    repository = repository_of(app)
    codes = set()
    for text in DECKS.values():
        body = responses.dump_report(service.validate_text(text, repository).report, repository.metadata())
        codes |= {(v["code"], v["severity"], "suggestions" in v) for v in body["violations"]}
    assert ("unknown_card", "error", True) in codes
    assert any(severity == "warning" for _, severity, _ in codes)
    assert all(has is (code == "unknown_card") for code, _, has in codes)
