"""Violations: the structured problems the engine reports, and their stable codes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, final

from validator.messages import Text


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
    # House rules (DESIGN.md): a table's own list, sent with the request or kept as a profile.
    HOUSE_BANNED = "house_banned"
    HOUSE_BANNED_AS_COMMANDER = "house_banned_as_commander"
    HOUSE_UNBANNED = "house_unbanned"


@final
@dataclass(slots=True, init=False)
class Violation:
    """One problem with a deck: a stable code, what it says (a Text: sentences as data, rendered
    in the answer's language by the service; `message` is its English), and where it is. A
    record as validator.deck_facts.Deck is (Final fields, `__init__` written out)."""

    code: Final[str]
    text: Final[Text]
    severity: Final[Severity]
    cards: Final[tuple[str, ...]]
    lines: Final[tuple[int, ...]]
    rule: Final[str | None]
    suggestions: Final[tuple[str, ...]]

    def __init__(self, code: str, text: Text, severity: Severity = Severity.ERROR, cards: tuple[str, ...] = (),
                 lines: tuple[int, ...] = (), rule: str | None = None, suggestions: tuple[str, ...] = ()) -> None:
        self.code = code
        self.text = text
        self.severity = severity
        self.cards = cards
        self.lines = lines
        self.rule = rule
        self.suggestions = suggestions

    @property
    def message(self) -> str:
        """The violation's sentences in English."""
        return self.text if isinstance(self.text, str) else self.text.english()

    def sort_key(self) -> tuple[bool, str, tuple[int, ...], tuple[str, ...]]:
        """Errors first, then by code, first line and cards (mage's getErrorsListSorted)."""
        return (self.severity != Severity.ERROR, self.code, self.lines[:1] or (0,), self.cards)


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """What a code means, for people reading the documentation (docs/violation-codes.md is
    generated from ABOUT by `python -m scripts.gen_docs`; DESIGN.md's table is the contract)."""

    severities: tuple[Severity, ...]  # the severities a violation with this code may carry
    meaning: str  # when the engine reports it (Markdown, one or two sentences)
    rule: str | None = None  # the Comprehensive Rules numbers its violations cite


ERROR, WARNING = (Severity.ERROR,), (Severity.WARNING,)

# Every code, in Code's order. A code added to Code without an entry here fails
# tests/validator/test_violations.py: a code nobody can look up is no contract.
ABOUT: dict[Code, CodeInfo] = {
    Code.UNPARSED_LINE: CodeInfo(ERROR, "A non-blank line that is no card entry, header or comment in any supported "
                                        "syntax: a quantity with no name, `!!!`, broken markup, a name over 200 "
                                        "characters."),
    Code.UNKNOWN_CARD: CodeInfo(ERROR, "A name that resolves to no card: one violation per distinct name, `cards` "
                                       "holding it as typed and `suggestions` up to 3 canonical names. It still "
                                       "counts toward `card_count`, so a typo does not also cause `deck_size`."),
    Code.COMMANDER_MISSING: CodeInfo(ERROR, "No commander is designated and none can be inferred from the list.",
                                     "903.3"),
    Code.COMMANDER_INELIGIBLE: CodeInfo(ERROR, "A designated commander cannot be one in the format (in Commander: "
                                               "not a legendary creature, Vehicle or Spacecraft with power and "
                                               "toughness, and no \"can be your commander\"; a Background without "
                                               "a Choose a Background partner).", "903.3, 702.124k, 903.12c"),
    Code.TOO_MANY_COMMANDERS: CodeInfo(ERROR, "More than two commanders (reported alone, without pairing or "
                                              "eligibility findings).", "702.124g"),
    Code.PARTNER_PAIRING: CodeInfo(ERROR, "Two commanders that could each command but share no pairing ability "
                                          "(Partner, Partner with, Friends forever, Choose a Background, Doctor's "
                                          "companion...).", "702.124"),
    Code.DECK_SIZE: CodeInfo(ERROR, "The deck is not exactly the format's size (100; 60 in `standardbrawl` and "
                                    "`oathbreaker`), commanders included, companion excluded.", "903.5a, 903.12d"),
    Code.SINGLETON: CodeInfo(ERROR, "More copies of a card than allowed (basic lands, \"any number of cards "
                                    "named\" and \"up to N\" respected; a commander repeated in the deck counts).",
                             "903.5b"),
    Code.COLOR_IDENTITY: CodeInfo(ERROR, "A card (the companion and signature spells included) outside the "
                                         "commanders' combined color identity.", "903.5c, 903.12e"),
    Code.BANNED: CodeInfo(ERROR, "A card banned in the format (Conspiracy cards too). One legality code per card: "
                                 "`non_deck_card`, then `banned`, then `not_legal`."),
    Code.NOT_LEGAL: CodeInfo(ERROR, "A real card that is not legal in the format (silver border, acorn, "
                                    "digital-only, playtest...)."),
    Code.NON_DECK_CARD: CodeInfo(ERROR, "A plane, phenomenon, scheme, vanguard, token, emblem, dungeon, attraction, "
                                        "art card or meld result in the deck; no other code names such a card."),
    Code.SIDEBOARD: CodeInfo(WARNING, "Sideboard or maybeboard cards are listed: Commander has no sideboard, so "
                                      "they are named and ignored.", "903.5e"),
    Code.COMMANDER_INFERRED: CodeInfo(WARNING, "No commander was marked; the engine inferred one from the list's "
                                               "layout and says from where."),
    Code.COMPANION_INELIGIBLE: CodeInfo(ERROR, "The declared companion has no Companion ability, is banned as a "
                                               "companion (Lutri), or is a second companion.", "702.139"),
    Code.COMPANION_CONDITION: CodeInfo(ERROR, "The deck, commanders included, does not meet the companion's "
                                              "condition.", "702.139a"),
    Code.PLANAR_DECK: CodeInfo(ERROR, "A planar deck section breaks Planechase rules (under 10 cards, duplicate "
                                      "names, more than two phenomena, cards that are not planes).", "901"),
    Code.SCHEME_DECK: CodeInfo(ERROR, "A scheme deck section with cards that are not schemes, more than two copies "
                                      "of one scheme, or fewer than twenty cards.", "904.3"),
    Code.INVALID_QUANTITY: CodeInfo(ERROR, "A quantity of 0, below 0 or absurd (over 999), or a commander or "
                                           "companion listed more than once.", "903.3, 702.139a"),
    Code.COLOR_CHOICE: CodeInfo((Severity.WARNING, Severity.ERROR),
                                "A choose-a-color commander (The Prismatic Piper) with no color chosen, or a choice "
                                "for a card that chooses none (warnings); a letter outside WUBRG (error).", "903.4b"),
    Code.NOT_IN_DECK: CodeInfo(WARNING, "Listed cards that do not count toward the deck (display commanders, token "
                                        "zones, Forge's avatar or dungeon piles), each named with its lines."),
    Code.BRACKET_GAME_CHANGERS: CodeInfo(ERROR, "(Declared bracket only.) More Game Changers than the bracket "
                                                "allows: none in brackets 1-2, at most three in bracket 3."),
    Code.BRACKET_MASS_LAND_DENIAL: CodeInfo(ERROR, "(Declared bracket only.) Mass land denial in brackets 1-3."),
    Code.BRACKET_EXTRA_TURNS: CodeInfo(ERROR, "(Declared bracket only.) Extra-turn cards in bracket 1."),
    Code.BRACKET_TWO_CARD_COMBO: CodeInfo(ERROR, "(Declared bracket only.) A two-card combo in brackets 1-2, or a "
                                                 "combo the data flags as fast in bracket 3."),
    Code.BANNED_AS_COMMANDER: CodeInfo(ERROR, "A commander the format bans in that role only (Duel Commander's "
                                              "`restricted`); the card is legal in the deck."),
    Code.SIGNATURE_SPELL: CodeInfo(ERROR, "(`oathbreaker`) An oathbreaker without its signature spell, more "
                                          "signature spells than oathbreakers, a signature spell that is not an "
                                          "instant or sorcery, or two spells that cannot be given one to each "
                                          "oathbreaker inside its own identity."),
    Code.LEGALITY_UNKNOWN: CodeInfo(WARNING, "The card data has no legality in the requested format for these "
                                             "cards (or the Pauper Commander list is not loaded): they are never "
                                             "taken as legal, and the verdict rests on the errors."),
    Code.FORMAT_INFERRED: CodeInfo(WARNING, "The request named no format; the list names its own and was judged "
                                            "in it."),
    Code.QUANTITY_ASSUMED: CodeInfo(WARNING, "CSV rows whose quantity is no number (`NULL`, empty): one copy is "
                                             "counted for each, and one warning names their lines."),
    Code.UNREAD_LINES: CodeInfo(WARNING, "A Markdown document's lines outside its list part (prose, headings): one "
                                         "warning with their number and line numbers."),
    Code.AMBIGUOUS_CARD: CodeInfo(ERROR, "A name printed in another language for more than one card; "
                                         "`suggestions` holds the candidates. Never a guess; it counts toward "
                                         "`card_count` like an unknown card."),
    Code.CARD_LOOKUP_UNAVAILABLE: CodeInfo(WARNING, "Names the store lacks that could not be looked up because "
                                                    "Scryfall did not answer in time (down, slow, 429 lockout); "
                                                    "they are also `unknown_card`."),
    Code.HOUSE_BANNED: CodeInfo(ERROR, "A card the request's house rules ban (`house_rules.banned`), anywhere in the "
                                       "deck: commanders, the companion and signature spells included. One "
                                       "violation a card; the format's own `banned` is reported beside it."),
    Code.HOUSE_BANNED_AS_COMMANDER: CodeInfo(ERROR, "A commander the house rules ban in that role "
                                                    "(`house_rules.banned_as_commander`); the card is legal in the "
                                                    "deck. A card the house rules ban outright is `house_banned` "
                                                    "alone."),
    Code.HOUSE_UNBANNED: CodeInfo(WARNING, "A card the format bans (or bans as commander) that the house rules "
                                           "allow (`house_rules.unbanned`): the format's `banned` or "
                                           "`banned_as_commander` is not reported for it, and every other rule "
                                           "(color identity, singleton, `not_legal`...) still judges it."),
}
