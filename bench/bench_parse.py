"""How long parse() takes on a 100-card list in the formats people paste most.

The lists are generated here (realistic names with commas, apostrophes and split cards),
so the figures do not depend on ../shared. Target: a 100-line list in at most 150 µs (issue 13).
"""

from __future__ import annotations

import os

from bench.common import Row, median_seconds, micros
from validator.parse import parse

TARGET = "≤ 150 µs"
NAMES = [
    "Sol Ring", "Arcane Signet", "Command Tower", "Atraxa, Praetors' Voice", "Fire // Ice",
    "Swords to Plowshares", "Lim-Dûl's Vault", "Cultivate", "Kodama's Reach", "Rhystic Study",
]


def _cards() -> list[tuple[int, str, str, str]]:
    """99 main-deck cards as (quantity, name, set, collector number), basics last."""
    cards = [(1, f"{NAMES[i % len(NAMES)]} {i}", "C21", str(100 + i)) for i in range(90)]
    return cards + [(9, "Forest", "ZNR", "280")]


def plain_list() -> str:
    """A typed list: `1 Name`, a commander header, 100 lines."""
    lines = ["Commander", "1 Thrasios, Triton Hero", "", "Deck"]
    lines += [f"{q} {name}" for q, name, _, _ in _cards()]
    return "\n".join(lines + ["1 Tymna the Weaver"] * 5)


def arena_list() -> str:
    """An Arena/Moxfield export: every line carries `(SET) number`, 100 lines."""
    lines = ["Commander", "1 Thrasios, Triton Hero (C16) 46", "", "Deck"]
    lines += [f"{q} {name} ({s}) {n}" for q, name, s, n in _cards()]
    return "\n".join(lines + ["1 Tymna the Weaver (C16) 48 *F*"] * 5)


def dek_list() -> str:
    """An MTGO .dek with 91 card elements and a commander in the sideboard."""
    cards = "".join(f'  <Cards CatID="{n}" Quantity="{q}" Sideboard="false" Name="{name}" Annotation="0" />\n'
                    for q, name, _, n in _cards())
    return ('<?xml version="1.0" encoding="utf-8"?>\n<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n'
            '  <NetDeckID>0</NetDeckID>\n' + cards.replace("'", "&apos;") +
            '  <Cards CatID="1" Quantity="1" Sideboard="true" Name="Thrasios, Triton Hero" Annotation="0" />\n</Deck>\n')


def dck_list() -> str:
    """A Forge .dck: [metadata], [Commander], [Main] with `N Name|SET|art` lines."""
    lines = ["[metadata]", "Name=Bench", "[Commander]", "1 Thrasios, Triton Hero|C16|1", "[Main]"]
    lines += [f"{q} {name}|{s}|1" for q, name, s, _ in _cards()]
    return "\n".join(lines + ["[Sideboard]"])


def run() -> list[Row]:
    """Median parse time of each sample."""
    rows = []
    for label, text, target in (
        ("100-line plain list", plain_list(), TARGET),
        ("100-line Arena/Moxfield export", arena_list(), "≤ 200 µs"),
        ("MTGO .dek, 92 cards", dek_list(), ""),
        ("Forge .dck, 92 cards", dck_list(), ""),
    ):
        decklist = parse(text)
        assert not decklist.problems, decklist.problems  # a benchmark of a failing parse is meaningless
        rows.append(Row("parse", f"{label} ({decklist.format}), median", micros(median_seconds(lambda: parse(text))), target))
    # Timings scale with contention (2 cores shared with test runs): show it beside them.
    rows.append(Row("parse", "load average (1 min) during the run", f"{os.getloadavg()[0]:.1f}", "< 2 for a fair figure"))
    return rows
