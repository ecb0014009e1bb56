"""Violations: the structured problems the engine reports, and their stable codes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How bad a violation is: errors make a deck illegal, warnings do not."""

    ERROR = "error"
    WARNING = "warning"


class Code(StrEnum):
    """Every violation code (DESIGN.md). Codes are an API contract: add, never rename."""

    UNPARSED_LINE = "unparsed_line"
    UNKNOWN_CARD = "unknown_card"
    COMMANDER_MISSING = "commander_missing"
    COMMANDER_INELIGIBLE = "commander_ineligible"
    TOO_MANY_COMMANDERS = "too_many_commanders"
    PARTNER_PAIRING = "partner_pairing"
    DECK_SIZE = "deck_size"
    SINGLETON = "singleton"
    COLOR_IDENTITY = "color_identity"
    BANNED = "banned"
    NOT_LEGAL = "not_legal"
    NON_DECK_CARD = "non_deck_card"
    SIDEBOARD = "sideboard"
    COMMANDER_INFERRED = "commander_inferred"
    COMPANION_INELIGIBLE = "companion_ineligible"
    COMPANION_CONDITION = "companion_condition"
    PLANAR_DECK = "planar_deck"
    SCHEME_DECK = "scheme_deck"
    # Added codes (DESIGN.md: "Add codes when a new rule needs one").
    INVALID_QUANTITY = "invalid_quantity"
    COLOR_CHOICE = "color_choice"
    NOT_IN_DECK = "not_in_deck"
    # Commander Brackets (DESIGN.md): only when the request declares a bracket.
    BRACKET_GAME_CHANGERS = "bracket_game_changers"
    BRACKET_MASS_LAND_DENIAL = "bracket_mass_land_denial"
    BRACKET_EXTRA_TURNS = "bracket_extra_turns"
    BRACKET_TWO_CARD_COMBO = "bracket_two_card_combo"
    # Commander-family formats (DESIGN.md; validator/formats.py).
    BANNED_AS_COMMANDER = "banned_as_commander"
    SIGNATURE_SPELL = "signature_spell"
    LEGALITY_UNKNOWN = "legality_unknown"
    FORMAT_INFERRED = "format_inferred"
    # Real decklists, second round (issue 22): warnings about what a reader assumed or skipped.
    QUANTITY_ASSUMED = "quantity_assumed"  # a card row whose quantity is no number: one copy counted
    UNREAD_LINES = "unread_lines"  # a Markdown document's lines outside its list: prose, not cards
    # Card names in other languages (issue 23): a printed name of several cards, never a guess.
    AMBIGUOUS_CARD = "ambiguous_card"
    # Names the card data lacks that could not be looked up in time (also unknown_card).
    CARD_LOOKUP_UNAVAILABLE = "card_lookup_unavailable"


@dataclass(frozen=True, slots=True)
class Violation:
    """One problem with a deck: a stable code, one finished sentence, and where it is."""

    code: str
    message: str
    severity: Severity = Severity.ERROR
    cards: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()
    rule: str | None = None
    suggestions: tuple[str, ...] = ()

    def sort_key(self) -> tuple:
        """Errors first, then by code, first line and cards (mage's getErrorsListSorted)."""
        return (self.severity != Severity.ERROR, self.code, self.lines[:1] or (0,), self.cards)
