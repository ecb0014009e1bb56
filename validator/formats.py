"""The Commander-family formats (DESIGN.md "Commander-family formats"): one table, FORMATS,
describing each format, and the small strategies that say who can command in it.

The rules (validator/rules.py) read the format a deck is judged in from its `Format`:
deck size, who can command, the legality key, what `restricted` means there, the
companion bans, signature spells, 903.12e. No rule asks which format it is: a new format
is one more row here. Facts and sources per format: ../shared/reference/FORMATS.md.

Data a format's rules need that is no card field (the Pauper Commander commander list)
comes in a `FormatData`, like validator/brackets.py's BracketData: the engine is given
it, it never loads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from validator.card_facts import (
    DOUBLE_FACED_LAYOUTS, commander_eligibility, describe_type, is_background, is_creature_card, non_deck_kind,
)
from validator.deck import Card
from validator.messages import Name, Term, Terms, Text, msg


@dataclass(frozen=True, slots=True)
class FormatData:
    """Lists the engine is given for the formats' rules (canonical card names).

    `pauper_commanders`: Scryfall's `is:paupercommander` list, the cards that can command
    in Pauper Commander. None = not loaded: a PDH commander is then never taken as
    eligible silently (see PauperCommanders).
    """

    pauper_commanders: frozenset[str] | None = None


NO_FORMAT_DATA = FormatData()


@dataclass(frozen=True, slots=True)
class HouseRules:
    """A table's own list ("rule 0": a playgroup's, a store's or a tournament's; DESIGN.md
    "House rules"), resolved to canonical card names by the caller, like FormatData.

    `banned`: not in the deck, commanders and companion included (house_banned);
    `banned_as_commander`: not as a commander, legal in the deck (house_banned_as_commander);
    `unbanned`: the format's own ban on the card (banned, or banned as commander) is lifted
    here (house_unbanned says so), every other rule still judges it; `max_bracket` (1-4):
    the bracket the table declares, unless the request declares its own. `name` is what the
    verdict says it was judged under; `profile` the operator's profile it came from (None:
    given with the request).
    """

    banned: frozenset[str] = frozenset()
    banned_as_commander: frozenset[str] = frozenset()
    unbanned: frozenset[str] = frozenset()
    max_bracket: int | None = None
    name: str | None = None
    profile: str | None = None

    def said(self, named: Text, unnamed: Text) -> Text:
        """The sentence that names the house rules (`{house}`: their name), or the one for house
        rules with no name."""
        return named if self.name else unnamed

    @property
    def rules(self) -> str:
        """"Thursday at the store's rules", or "the house rules" when they have no name."""
        if not self.name:
            return "the house rules"
        return f"{self.name}' rules" if self.name.endswith("s") else f"{self.name}'s rules"

# Lutri's companion-only ban: 2026-02-09 Commander B&R (RULES.md 5.2). Scryfall's
# legalities cannot express a role ban, so this one name is hard-coded here.
BANNED_AS_COMPANION = frozenset({"Lutri, the Spellchaser"})


# --- who can command: one small strategy per kind (mage's CommanderValidator) -------------


# A plain Python class where compiled, with its subclasses: `words` is a class attribute in
# some and an instance's in others (Legends), which native classes cannot be.
@mypyc_attr(native_class=False)
class Commanders:
    """Who can command in a format. `reason` judges a card alone (None: it can command);
    `half` says it can command only as one half of a pair (a Background beside Choose a
    Background, judged by partner_pairing); `unverified` that the format's data to judge
    it is missing (legality_unknown names it then). `by_key`: the commanders' legality is
    read from the format's legality key as well (not in PDH, whose list alone judges them).
    `words` says it for GET /api/v1/formats."""

    __slots__ = ()
    words = ""
    by_key = True

    def reason(self, card: Card, data: FormatData) -> Text | None:
        """None when the card can command on its own, else why it can't."""
        raise NotImplementedError

    def half(self, card: Card, data: FormatData) -> bool:
        """The card can command only beside a commander whose pairing ability admits it."""
        return is_background(card)

    def unverified(self, card: Card, data: FormatData) -> bool:
        """The data this format judges commanders by is missing for the card."""
        return False


class Legends(Commanders):
    """Commander's 903.3 (and Duel's, PreDH's): a legendary creature, Vehicle or Spacecraft
    with P/T, or a card that says it can be your commander; with `planeswalkers`, a
    legendary planeswalker too (Brawl, 903.12c)."""

    __slots__ = ("planeswalkers", "words")

    def __init__(self, words: str, planeswalkers: bool = False) -> None:
        self.words = words
        self.planeswalkers = planeswalkers

    def reason(self, card: Card, data: FormatData) -> Text | None:
        """card_facts.commander_eligibility, with or without planeswalkers."""
        return commander_eligibility(card, planeswalkers=self.planeswalkers)


class Oathbreakers(Commanders):
    """Oathbreaker: a planeswalker on its front face (Rowan, Scholar of Sparks yes; Kytheon,
    a creature that transforms into one, no; a "can be your commander" non-planeswalker no)."""

    __slots__ = ()
    words = Term("a planeswalker, by its front face (not a creature that transforms into one, nor a card that "
                 "only says it can be your commander)")

    def reason(self, card: Card, data: FormatData) -> Text | None:
        """None for a planeswalker front face, else why not."""
        name = Name(card.name)
        kind = non_deck_kind(card)
        if kind:
            return msg("{card} is {kind}, not a card a deck can hold, so it can't be your oathbreaker.", card=name,
                       kind=kind)
        if "Planeswalker" in card.types:
            return None
        if " // " in name and card.layout in DOUBLE_FACED_LAYOUTS:
            return msg("{card}'s front face is a {type}, not a planeswalker, so it can't be your oathbreaker (only "
                       "the front face counts).", card=name, type=describe_type(card))
        return msg("{card} is a {type}, not a planeswalker, so it can't be your oathbreaker.", card=name,
                   type=describe_type(card))

    def half(self, card: Card, data: FormatData) -> bool:
        """No card is an oathbreaker only beside another (a Background is no planeswalker)."""
        return False


# Front-face types a Pauper Commander commander can have at all (pdh-json-updater's rule:
# a creature, Vehicle, Spacecraft or Background front face, not a land).
_PDH_SUBTYPES = frozenset({"Vehicle", "Spacecraft", "Background"})


class PauperCommanders(Commanders):
    """Pauper Commander: a card on Scryfall's `is:paupercommander` list (FormatData). Only the
    list judges them (a legal PDH commander reads `not_legal` in Scryfall's key): `by_key`
    is False. A Background on the list commands beside a "Choose a Background" creature
    that is on it too.

    Without the list (not loaded) a commander is never taken as eligible silently: a card
    whose front face can't be one at all (not a creature, Vehicle, Spacecraft or
    Background, or a land) is commander_ineligible; any other is `unverified`, and the
    legality_unknown warning names it (its rarity could not be checked).
    """

    __slots__ = ()
    words = Term("a card on Scryfall's is:paupercommander list: an uncommon creature, or an uncommon Background "
                 "beside an uncommon creature with Choose a Background")
    by_key = False

    def reason(self, card: Card, data: FormatData) -> Text | None:
        """None for a card on the list (a Background: only beside Choose a Background)."""
        name = Name(card.name)
        kind = non_deck_kind(card)
        if kind:
            return msg("{card} is {kind}, not a card a deck can hold, so it can't be your commander.", card=name,
                       kind=kind)
        listed = data.pauper_commanders
        if listed is None:
            if "Land" in card.types or not (is_creature_card(card) or card.subtypes & _PDH_SUBTYPES):
                return msg("{card} is a {type}; a Pauper Commander commander is an uncommon creature or Background, "
                           "so it can't be your commander.", card=name, type=describe_type(card))
        elif name not in listed:
            return msg("{card} is not on Scryfall's Pauper Commander commander list (is:paupercommander: uncommon "
                       "creatures and Backgrounds), so it can't be your commander.", card=name)
        if is_background(card):
            return msg("{card} is a Background; it can be a commander only beside a commander with Choose a "
                       "Background.", card=name)
        return None

    def half(self, card: Card, data: FormatData) -> bool:
        """A Background that is on the list (or could be, when none is loaded)."""
        listed = data.pauper_commanders
        return is_background(card) and (listed is None or card.name in listed)

    def unverified(self, card: Card, data: FormatData) -> bool:
        """No list loaded: whether the card was printed at uncommon is unknown."""
        return data.pauper_commanders is None


# Who can command, in words (GET /api/v1/formats): Terms, so each language's catalog says them.
LEGENDS = Legends(Term("a legendary creature, a legendary Vehicle or Spacecraft with power/toughness, or a card "
                       "that says it can be your commander (a Background beside a commander with Choose a "
                       "Background)"))
BRAWL_LEGENDS = Legends(Term("a legendary creature or legendary planeswalker, a legendary Vehicle or Spacecraft "
                             "with power/toughness, or a card that says it can be your commander"), planeswalkers=True)
OATHBREAKERS = Oathbreakers()
PAUPER_COMMANDERS = PauperCommanders()


# --- the table ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Format:
    """What the rules read about one format (DESIGN.md's table). Compared by identity: the
    table's rows are the only instances."""

    key: str  # canonical key, as every response says it
    name: str  # display name, in messages ("banned in Duel Commander")
    deck_size: int  # exactly this many cards, commanders (and signature spells) included
    size_rule: str | None  # the CR number deck_size cites (None: not a CR format)
    commanders: Commanders  # who can command
    commander_rule: str | None  # the CR number commander_ineligible cites
    legality_key: str  # the Scryfall legalities key the cards are judged by
    aliases: tuple[str, ...] = ()  # other accepted spellings (case-insensitive)
    brackets: bool = False  # Commander Brackets apply
    role: str = "commander"  # what the format calls a commander, for messages
    # legalities values a deck card may have ("restricted": Commander's old meaning, legal)
    deck_values: frozenset[str] = frozenset({"legal", "restricted"})
    commander_ban: str | None = None  # the value that bans a card as commander only (Duel's "restricted")
    banned_as_companion: frozenset[str] = frozenset()  # role bans Scryfall cannot express
    signature_spells: bool = False  # Oathbreaker: one signature spell per oathbreaker, in the 60
    basic_land_type_choice: bool = False  # 903.12e: a colorless commander's one basic land type
    notes: str = ""  # companion, pairing and special rules, in words



COMMANDER = Format(
    "commander", Term("Commander"), 100, "903.5a", LEGENDS, "903.3", "commander", ("edh",), brackets=True,
    banned_as_companion=BANNED_AS_COMPANION,
    notes="Commander Brackets; Lutri, the Spellchaser is banned as a companion.",
)
DUEL = Format(
    "duel", Term("Duel Commander"), 100, "903.5a", LEGENDS, "903.3", "duel", ("duelcommander", "dc"),
    commander_ban="restricted", banned_as_companion=BANNED_AS_COMPANION,
    notes="legalities.duel `restricted` = banned as commander only (legal in the deck); Lutri is banned as a "
          "companion.",
)
BRAWL = Format(
    "brawl", Term("Brawl"), 100, "903.5a", BRAWL_LEGENDS, "903.12c", "brawl", ("historicbrawl",),
    basic_land_type_choice=True,
    notes="MTG Arena's Brawl; with a colorless commander, any number of basic lands of one basic land type "
          "(903.12e).",
)
STANDARD_BRAWL = Format(
    "standardbrawl", Term("Standard Brawl"), 60, "903.12d", BRAWL_LEGENDS, "903.12c", "standardbrawl",
    basic_land_type_choice=True,
    notes="60 cards; with a colorless commander, any number of basic lands of one basic land type (903.12e).",
)
OATHBREAKER = Format(
    "oathbreaker", Term("Oathbreaker"), 60, None, OATHBREAKERS, None, "oathbreaker", role="oathbreaker",
    signature_spells=True,
    notes="One signature spell (an instant or sorcery) per oathbreaker, counted in the 60; two oathbreakers "
          "share a pairing ability, each with its own spell inside its own identity.",
)
PAUPER_COMMANDER = Format(
    "paupercommander", Term("Pauper Commander"), 100, "903.5a", PAUPER_COMMANDERS, None, "paupercommander",
    ("pdh", "pauperedh"), deck_values=frozenset({"legal"}),
    notes="The 99 read legalities.paupercommander (commons only; an old `restricted` meant commander only); "
          "commanders from the is:paupercommander list alone.",
)
PREDH = Format(
    "predh", Term("PreDH"), 100, "903.5a", LEGENDS, "903.3", "predh",
    notes="Commander's rules with the card pool of legalities.predh (up to New Phyrexia).",
)

FORMATS: tuple[Format, ...] = (COMMANDER, DUEL, BRAWL, STANDARD_BRAWL, OATHBREAKER, PAUPER_COMMANDER, PREDH)
KEYS: tuple[str, ...] = tuple(f.key for f in FORMATS)
_BY_NAME = {name: f for f in FORMATS for name in (f.key, *f.aliases)}
# How site exports and `Format:` lines spell them, letters and digits only (what
# named_in_file compares): DESIGN's keys and aliases, plus the sites' own words.
_FILE_NAMES = {**_BY_NAME, "commanderedh": COMMANDER, "preedh": PREDH}
_NOT_ALPHANUMERIC = re.compile(r"[^0-9a-z]+")


class UnknownFormat(ValueError):
    """A format name that is no key or alias; the message lists the canonical keys."""

    field: ClassVar[str] = "format"

    def __init__(self, text: object) -> None:
        shown = repr(text) if not isinstance(text, str) or len(text) <= 40 else repr(text[:39] + "…")
        self.text = msg("Unknown game format {name}; expected one of {keys}.", name=shown, keys=", ".join(KEYS))
        super().__init__(self.text.english())


class FieldNotInFormat(ValueError):
    """A request field the format has no use for: a declared bracket outside Commander,
    signature spells outside Oathbreaker. `field` names it (the API's 422 says which)."""

    def __init__(self, field: str, fmt: Format, where: tuple[Format, ...]) -> None:
        self.field = field
        self.text = msg("{field} applies only in {formats}, not in {format} ({key}).", field=field,
                        formats=Terms(f.name for f in where), format=Term(fmt.name), key=fmt.key)
        super().__init__(self.text.english())


def format_named(text: object) -> Format:
    """The format a request names: a key or alias, any case. Raises UnknownFormat."""
    found = _BY_NAME.get(text.strip().casefold()) if isinstance(text, str) else None
    if found is None:
        raise UnknownFormat(text)
    return found


def named_in_file(text: str | None) -> Format | None:
    """The format a decklist names for itself ("duelCommander", "Pauper EDH", "Historic
    Brawl"...), compared on letters and digits; None when it names none we support."""
    if not text:
        return None
    return _FILE_NAMES.get(_NOT_ALPHANUMERIC.sub("", text.casefold()))


def format_table() -> list[dict[str, Any]]:
    """The table as data, for GET /api/v1/formats (DESIGN's keys, in table order)."""
    return [
        {"key": f.key, "name": f.name, "deck_size": f.deck_size, "commander": f.commanders.words,
         "legality_key": f.legality_key, "brackets": f.brackets, "aliases": list(f.aliases)}
        for f in FORMATS
    ]
