"""The pure Commander rules engine: decklist text in, structured violations out. No I/O."""

from validator.deck import Card, Deck, Entry, UnknownName
from validator.decklist import Decklist, ListEntry, Section
from validator.violations import Code, Severity, Violation

__all__ = [
    "Card", "Code", "Deck", "Decklist", "Entry", "ListEntry", "Section", "Severity",
    "UnknownName", "Violation",
]
