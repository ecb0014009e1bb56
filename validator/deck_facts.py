"""The resolved `Deck` and what it adds up to, as the rules and the report read it: the
format it is judged in, how many cards it has, how many commanders are designated, and
the commanders' color identity with the colors chosen (903.4b) or, when a choice is
missing, assumed.

Nothing here builds a violation: the rules (validator/rules.py) and the report
(validator/engine.py) read these answers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Final, Iterable, Mapping, final

from validator.card_facts import basic_land_types, chooses_color
from validator.deck import COLOR_LETTERS, WUBRG, Card, Entry, UnknownName
from validator.formats import COMMANDER, NO_FORMAT_DATA, Format, FormatData, HouseRules

COUNTED_SECTIONS = ("main", "commander", "signature")  # UnknownName.section values that count
NO_CHOICES: Mapping[str, str] = MappingProxyType({})  # no commander chooses a color


@final
@dataclass(slots=True, init=False)
class Deck:
    """A resolved Commander deck: command zone, the main deck and the sections beside it.

    Like every record built per validation, its fields are Final (read-only: mypy checks it,
    and the compiled engine refuses a write) and its `__init__` is written out, which mypyc
    compiles, where a frozen dataclass's generated one runs interpreted, 20 times slower
    (docs/architecture.md, "Records").
    """

    commanders: Final[tuple[Entry, ...]]
    main: Final[tuple[Entry, ...]]
    companion: Final[Entry | None]
    sideboard: Final[tuple[Entry, ...]]  # sideboard and maybeboard: never part of the game
    planar: Final[tuple[Entry, ...]]  # planar deck (rule 901)
    schemes: Final[tuple[Entry, ...]]  # scheme deck (rule 904)
    unknown: Final[tuple[UnknownName, ...]]  # unresolved names, by section (see UnknownName.section)
    outside: Final[tuple[Entry, ...]]  # listed in no game pile: tokens, Forge's avatar... (never played)
    displayed: Final[tuple[Entry, ...]]  # display copies (a precon's Display Commander): never played
    extra_companions: Final[tuple[Entry, ...]]  # companions declared beyond the first (only one is allowed)
    # canonical commander name -> chosen color letter (903.4b)
    color_choices: Final[Mapping[str, str]]
    # Oathbreaker's signature spells: the very Entry objects of `main` that are one (they
    # count as deck cards everywhere; the signature_spell rule reads which they are). Empty
    # in a format without signature spells.
    signature_spells: Final[tuple[Entry, ...]]
    # the game format it is judged in (validator/formats.py; None: Commander) and the data
    # that format's rules are given (the Pauper Commander commander list; None: none)
    format: Final[Format | None]
    format_data: Final[FormatData | None]
    # the table's own list it is judged under (validator/legality.py reads it; None: none)
    house_rules: Final[HouseRules | None]
    # what one walk over the game's cards finds (see Tally and tally()): worked out on
    # first use and kept, since the rules, the brackets and the report all read it
    _tally: Tally | None = field(init=False, repr=False, compare=False)

    def __init__(
        self,
        commanders: tuple[Entry, ...] = (),
        main: tuple[Entry, ...] = (),
        companion: Entry | None = None,
        sideboard: tuple[Entry, ...] = (),
        planar: tuple[Entry, ...] = (),
        schemes: tuple[Entry, ...] = (),
        unknown: tuple[UnknownName, ...] = (),
        outside: tuple[Entry, ...] = (),
        displayed: tuple[Entry, ...] = (),
        extra_companions: tuple[Entry, ...] = (),
        color_choices: Mapping[str, str] = NO_CHOICES,
        signature_spells: tuple[Entry, ...] = (),
        format: Format | None = None,
        format_data: FormatData | None = None,
        house_rules: HouseRules | None = None,
    ) -> None:
        self.commanders = commanders
        self.main = main
        self.companion = companion
        self.sideboard = sideboard
        self.planar = planar
        self.schemes = schemes
        self.unknown = unknown
        self.outside = outside
        self.displayed = displayed
        self.extra_companions = extra_companions
        self.color_choices = color_choices
        self.signature_spells = signature_spells
        self.format = format
        self.format_data = format_data
        self.house_rules = house_rules
        self._tally = None


@final
@dataclass(slots=True, init=False)
class Tally:
    """One walk over the commanders and the main deck, shared by everything that reads
    them all: the deck size, the singleton and color identity screens, the Commander
    legality screen and the brackets (each used to walk the deck on its own). Its
    `__init__` is written out for the compiler (see Deck)."""

    size: Final[int]  # copies of the commanders and the main deck (card_count adds unknown names)
    entries: Final[int]  # how many entries that is
    names: Final[frozenset[str]]  # their canonical names (fewer than `entries`: a name listed twice)
    # entries of more than one copy of a card that is no basic land (singleton's suspects)
    multiples: Final[tuple[Entry, ...]]
    main_identity: Final[frozenset[str]]  # the union of the main deck cards' color identities
    notable: Final[tuple[Entry, ...]]  # the entries whose card is Card.notable, commanders first

    def __init__(self, size: int, entries: int, names: frozenset[str], multiples: tuple[Entry, ...],
                 main_identity: frozenset[str], notable: tuple[Entry, ...]) -> None:
        self.size = size
        self.entries = entries
        self.names = names
        self.multiples = multiples
        self.main_identity = main_identity
        self.notable = notable


def tally(deck: Deck) -> Tally:
    """The deck's Tally (one walk, on first use; kept on the Deck)."""
    found = deck._tally
    if found is None:
        found = _walk(deck)
        deck._tally = found
    return found


def _walk(deck: Deck) -> Tally:
    """Count, name and screen every entry of the commanders and the main deck, once."""
    size = 0
    names = []
    multiples = []
    identities = set()  # the distinct identities: a few per deck, united once at the end
    notable = []
    for entries, main in ((deck.commanders, False), (deck.main, True)):
        for entry in entries:
            card = entry.card
            quantity = entry.quantity
            size += quantity
            names.append(card.name)
            if quantity > 1 and "Basic" not in card.supertypes:
                multiples.append(entry)
            if main:
                identities.add(card.color_identity)
            if card.notable:
                notable.append(entry)
    return Tally(size, len(names), frozenset(names), tuple(multiples), frozenset().union(*identities),
                 tuple(notable))


def judged_in(deck: Deck, fmt: Format) -> Deck:
    """The deck judged in another format: the same cards, so the same Tally."""
    judged = replace(deck, format=fmt)
    judged._tally = deck._tally
    return judged


def deck_format(deck: Deck) -> Format:
    """The format a deck is judged in (Commander when it names none)."""
    return deck.format or COMMANDER


def deck_format_data(deck: Deck) -> FormatData:
    """The data the deck's format rules are given (none loaded when it carries none)."""
    return deck.format_data or NO_FORMAT_DATA


def card_count(deck: Deck) -> int:
    """Cards in the deck: commanders, main deck (signature spells included) and unknown names
    there (903.5a)."""
    total = tally(deck).size
    if deck.unknown:
        total += sum([u.quantity for u in deck.unknown if u.section in COUNTED_SECTIONS])
    return total


def designated_commanders(deck: Deck) -> int:
    """Commanders designated, resolved or not."""
    return len(deck.commanders) + sum(1 for u in deck.unknown if u.section == "commander")


def commander_identity(deck: Deck) -> frozenset[str]:
    """Union of every designated commander's identity plus valid chosen colors (702.124c, 903.4b)."""
    colors: set[str] = set()
    for entry in deck.commanders:
        colors |= entry.card.color_identity
        choice = deck.color_choices.get(entry.card.name)
        if choice in COLOR_LETTERS and chooses_color(entry.card):
            colors.add(choice)
    return frozenset(colors)


def unchosen_commanders(deck: Deck) -> list[Card]:
    """Color-choosing commanders (903.4b) without a valid choice in the request."""
    return [
        e.card
        for e in deck.commanders
        if chooses_color(e.card) and deck.color_choices.get(e.card.name) not in COLOR_LETTERS
    ]


def identity_entries(deck: Deck) -> list[Entry]:
    """Entries whose identity must fit: the main deck and the companion (903.5c, 903.11a)."""
    return [*deck.main, deck.companion] if deck.companion else list(deck.main)


def assumed_colors(deck: Deck, base: frozenset[str], wildcards: int) -> frozenset[str]:
    """The colors an unchosen color-choosing commander is assumed to be: the most needed ones."""
    needed: Counter[str] = Counter()
    for entry in identity_entries(deck):
        for color in entry.card.color_identity - base:
            needed[color] += entry.quantity
    ranked = sorted(needed, key=lambda c: (-needed[c], WUBRG.index(c)))
    return frozenset(ranked[:wildcards])


def chosen_basic_land_type(entries: Iterable[Entry]) -> str | None:
    """903.12e: the basic land type taken as chosen, the one with the most copies among the
    entries' basic lands (a tie: the first in WUBRG order); None when there are none."""
    copies: dict[str, int] = {}
    for entry in entries:
        for land_type in basic_land_types(entry.card):
            copies[land_type] = copies.get(land_type, 0) + entry.quantity
    if not copies:
        return None
    return max(_BASIC_ORDER, key=lambda t: (copies.get(t, 0), -_BASIC_ORDER.index(t)))


_BASIC_ORDER = ("Plains", "Island", "Swamp", "Mountain", "Forest")  # WUBRG
