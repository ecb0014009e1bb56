"""A card store for the Commander-family formats' tests (issue 21): built from
tests/fixtures/formats/cards.jsonl (hand-made records with every legality key of a 2026
bulk file, and one with the commander key alone), optionally with the Pauper Commander
list of tests/fixtures/formats/pauper-commanders.txt loaded as `cards import` loads it."""

from __future__ import annotations

import json
from pathlib import Path

from card_data import BracketSources
from card_data.sync import import_file
from tests.support.scryfall_server import FORMAT_FIXTURES

FORMAT_CARDS = FORMAT_FIXTURES / "cards.jsonl"
PDH_FILE = FORMAT_FIXTURES / "pauper-commanders.txt"
UPDATED_AT = "2026-11-20T00:00:00+00:00"
TEFERI = "Teferi, Master of Time"  # a legendary planeswalker: Brawl's commander, Oathbreaker's oathbreaker


def format_store(db: Path, *, pauper_commanders: bool = True, without: tuple[str, ...] = ()) -> Path:
    """Build the formats' store at db (with the PDH list from its file unless told not to);
    `without` names legality keys left out of every card (card data older than a format)."""
    sources = BracketSources(api_url="http://127.0.0.1:9", pauper_commanders_file=str(PDH_FILE)) \
        if pauper_commanders else None
    cards = FORMAT_CARDS
    if without:
        cards = db.with_name(db.stem + "-cards.jsonl")
        with FORMAT_CARDS.open(encoding="utf-8") as source, cards.open("w", encoding="utf-8") as kept:
            for line in source:
                record = json.loads(line)
                record["legalities"] = {k: v for k, v in record["legalities"].items() if k not in without}
                kept.write(json.dumps(record) + "\n")
    import_file(db, cards, updated_at=UPDATED_AT, brackets=sources)
    return db


def format_deck(commanders, *cards, size: int = 100, basic: str = "Island", section: str = "Commander") -> str:
    """A list of the formats' cards: the commanders in a Commander section, `cards` (a name,
    or (quantity, name)), and `basic` lands up to `size`."""
    lines = [section] + [f"1 {name}" for name in commanders] + ["", "Deck"]
    count = len(commanders)
    for item in cards:
        quantity, name = item if isinstance(item, tuple) else (1, item)
        lines.append(f"{quantity} {name}")
        count += quantity
    lines.append(f"{size - count} {basic}")
    return "\n".join(lines) + "\n"


# A Commander deck of mythics: legal in Commander, not in Pauper Commander; over a store
# without the paupercommander key (format_store(without=...)) nothing says so: unknown.
MYTHICS = format_deck(["Atraxa, Praetors' Voice"], "Karn, Legacy Reforged", TEFERI,
                      "Kytheon, Hero of Akros // Gideon, Battle-Forged", (30, "Plains"), (30, "Swamp"))
