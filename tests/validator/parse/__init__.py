"""The decklist parser's tests: test_parse (every format's sample, the line-based reader,
input bounds), test_xml, test_json and test_csv (those readers' own cases). The helpers
below are shared by them."""

from __future__ import annotations

from pathlib import Path

from validator.decklist import Section
from validator.parse import parse

SAMPLES = Path(__file__).resolve().parents[2] / "fixtures" / "decklists"
C, M, S, MB = Section.COMMANDER, Section.MAIN, Section.SIDEBOARD, Section.MAYBEBOARD


def sample(name: str) -> str:
    """A hand-written sample, decoded the way the API decodes a body (BOM kept)."""
    return (SAMPLES / name).read_bytes().decode("utf-8")


def rows(decklist) -> list[tuple]:
    """(name, quantity, section, line) of every entry, in order."""
    return [(e.name, e.quantity, e.section, e.line) for e in decklist.entries]


def codes(decklist) -> list[tuple[str, tuple[int, ...]]]:
    """(code, lines) of every problem."""
    return [(p.code, p.lines) for p in decklist.problems]


def one(text: str, format: str | None = None):
    """The single entry of a one-card text."""
    decklist = parse(text, format)
    assert decklist.problems == ()
    (entry,) = decklist.entries
    return entry
