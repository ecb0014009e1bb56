"""What the page costs: rendering a 100-card verdict server-side, and its weight on the wire.

In-process through Flask's test client over a store built from tests/fixtures/cards.jsonl,
so the figures do not depend on ../shared or on a network. The JSON API on the same deck
is the baseline: the difference is what the template (listing + violations) adds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench.common import Row, median_seconds, millis

ROOT = Path(__file__).resolve().parent.parent

# 100 cards with a few problems, so the page renders violations and marked lines.
DECK = "\n".join([
    "Commander", "1 Atraxa, Praetors' Voice", "", "Deck",
    "1 Sol Ring", "1 Arcane Signet", "1 Command Tower", "1 Mana Crypt", "1 Lightning Bolt",
    "1 Sol Rnig", "1 Demonic Tutor", "1 Rhystic Study", "1 Swords to Plowshares", "1 Counterspell",
    *[f"1 {basic}" for basic in ("Forest", "Island", "Plains", "Swamp") for _ in range(22)],
    "1 Birds of Paradise", "1 Cultivate",
]) + "\n"


def _app(db: Path):
    """The real app over the fixture store, offline."""
    from edh_service.factory import create_app
    from card_data.sync import import_file

    import_file(db, ROOT / "tests" / "fixtures" / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
    return create_app({"CARD_DB": str(db), "CARD_DATA_OFFLINE": True, "CARD_DATA_SYNC": False})


def _weight(client) -> int:
    """Bytes of the page's HTML, CSS, JS and icon: everything a first visit downloads."""
    total = len(client.get("/").data)
    for asset in ("app.css", "app.js", "favicon.svg"):
        response = client.get(f"/static/{asset}")
        total += len(response.data)
        response.close()
    return total


def run() -> list[Row]:
    """Median server time of the form POST vs the JSON API on the same deck, and page weight."""
    with tempfile.TemporaryDirectory() as scratch:
        client = _app(Path(scratch) / "cards.sqlite3").test_client()
        page = median_seconds(lambda: client.post("/", data={"decklist": DECK}), repeat=200)
        api = median_seconds(lambda: client.post("/api/v1/validate", json={"decklist": DECK}), repeat=200)
        weight = _weight(client)
    return [
        Row("page", "POST / (100 cards, rendered), median", millis(page)),
        Row("page", "POST /api/v1/validate (same deck), median", millis(api)),
        Row("page", "first-visit weight (HTML+CSS+JS+icon)", f"{weight / 1024:.1f} KiB", "no external requests"),
    ]
