"""The house rules tests' card store and profiles: the formats' fixture cards (every
legality key) plus tests/fixtures/house_rules/cards.jsonl (Primeval Titan, Edgar Markov,
Thrasios and Tymna, Cecily with its flavor name, a Game Changer), the printed names of
tests/fixtures/names/, and SYNTHETIC_CARDS made-up artifacts so a profile of 10,000 real
names can be written (`big_profile`)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from card_data.names import sync as names_sync
from card_data.sync import import_file
from tests.support.format_store import FORMAT_CARDS, format_deck

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
HOUSE_CARDS = FIXTURES / "house_rules" / "cards.jsonl"
SYNTHETIC_CARDS = 10_000
LEGAL = {key: "legal" for key in ("commander", "duel", "brawl", "standardbrawl", "oathbreaker", "paupercommander",
                                  "predh")}

__all__ = ["format_deck", "house_store", "synthetic_names", "write_profile", "big_profile"]

# The decks and the profile the API's, the page's and the CLI's house rules tests share.
ATRAXA = "Atraxa, Praetors' Voice"
PARTNERS = format_deck(["Thrasios, Triton Hero", "Tymna the Weaver"], "Sol Ring", "Counterspell")  # lines 2-3, 6-7
TITAN_DECK = format_deck([ATRAXA], "Primeval Titan", "Brainstorm", basic="Forest")  # Primeval Titan on line 5
THURSDAY = """\
title = "Thursday at the store"
description = "Casual Commander, Thursdays from 7 pm."
banned = ["Tymna the Weaver"]
banned_as_commander = ["Edgar Markov"]
unbanned = ["Primeval Titan"]
max_bracket = 2
"""


def synthetic_names(count: int = SYNTHETIC_CARDS) -> list[str]:
    """The made-up cards' names, in order."""
    return [f"Housebound Relic {number:05d}" for number in range(count)]


def house_store(folder: Path) -> Path:
    """Build the store in `folder` (cards.sqlite3) and return its path."""
    cards = folder / "cards.jsonl"
    with cards.open("w", encoding="utf-8") as out:
        out.write(FORMAT_CARDS.read_text(encoding="utf-8"))
        out.write(HOUSE_CARDS.read_text(encoding="utf-8"))
        for name in synthetic_names():
            out.write(json.dumps({"object": "card", "name": name, "layout": "normal", "mana_cost": "{2}", "cmc": 2.0,
                                  "type_line": "Artifact", "oracle_text": "{T}: Add {C}.", "color_identity": [],
                                  "keywords": [], "legalities": LEGAL, "game_changer": False,
                                  "rarity": "common"}) + "\n")
    db = folder / "cards.sqlite3"
    import_file(db, cards, updated_at="2026-11-20T00:00:00+00:00")
    names_sync.import_names(db, FIXTURES / "names" / "printed-names.jsonl", updated_at="2026-11-29T00:00:00+00:00")
    return db


def write_profile(folder: Path, name: str, text: str, *, age: float = 0.0) -> Path:
    """Write `<name>.toml` the way an editor saves (a new file renamed over the old one);
    `age` seconds in the past, so a test can have it settled at once."""
    path = folder / f"{name}.toml"
    scratch = folder / f".{name}.toml.new"
    scratch.write_text(text, encoding="utf-8")
    if age:
        then = time.time() - age
        os.utime(scratch, (then, then))
    os.replace(scratch, path)
    return path


def big_profile(count: int = SYNTHETIC_CARDS, **keys: str) -> str:
    """A profile banning `count` of the made-up cards, plus any other keys (TOML text)."""
    lines = [f"{key} = {value}" for key, value in keys.items()]
    lines.append("banned = [" + ", ".join(json.dumps(name) for name in synthetic_names(count)) + "]")
    return "\n".join(lines) + "\n"
