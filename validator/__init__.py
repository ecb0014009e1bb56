"""The pure Commander rules engine: decklist text in, structured violations out. No I/O."""

from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

from validator.deck import Card, Entry, UnknownName
from validator.deck_facts import Deck
from validator.decklist import NOBODY, Decklist, Designation, ListEntry, Section
from validator.violations import Code, Severity, Violation
from validator.assemble import assemble
from validator import engine as _engine
from validator.engine import FormatStatus, FormatVerdict, Report, check, judge_formats, validate
from validator.formats import FORMATS, FieldNotInFormat, Format, FormatData, UnknownFormat, format_named, format_table
from validator.brackets import Bracket, BracketData, Combo, Reason
from validator.card_facts import commander_eligibility, pairing_abilities
from validator.rules import RULES

# Which engine runs (DESIGN.md "The compiled core"), as /readyz, `cards status` and
# `edh-validate --version` say it: "compiled" when mypyc compiled this package's modules
# (`pip install .` with a C compiler at hand: a compiled module is an extension module; this
# one, which only gathers names, stays Python), else "python".
ENGINE: Final = "compiled" if (_engine.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES)) else "python"

__all__ = [
    "ENGINE", "Bracket", "BracketData", "Card", "Code", "Combo", "Deck", "Decklist", "Designation", "Entry", "ListEntry",
    "NOBODY", "Reason",
    "Section", "Severity", "UnknownName", "Violation",
    "RULES", "Report", "assemble", "check", "commander_eligibility", "pairing_abilities", "validate",
    "FORMATS", "FieldNotInFormat", "Format", "FormatData", "FormatStatus", "FormatVerdict", "UnknownFormat",
    "format_named", "format_table", "judge_formats",
]
