"""What the parser reads from decklist text, before any card is resolved."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final, Iterable, Mapping, NamedTuple, final

from validator.messages import Value
from validator.violations import Violation


class Section(StrEnum):
    """Where a decklist puts a card."""

    COMMANDER = "commander"
    COMPANION = "companion"
    MAIN = "main"
    # Oathbreaker's signature spells (a Signature Spell section or category): deck cards,
    # and in Oathbreaker the oathbreakers' spells (validator/formats.py)
    SIGNATURE = "signature"
    SIDEBOARD = "sideboard"
    MAYBEBOARD = "maybeboard"
    PLANAR = "planar"  # Planechase planar deck (rule 901)
    SCHEMES = "schemes"  # Archenemy scheme deck (rule 904)
    IGNORED = "ignored"  # not part of the deck at all: tokens zones, Forge's avatar pile...
    # an oversized display copy (a precon's Display Commander): not part of the deck; a copy
    # of the deck's own commander is that commander, anything else is named (not_in_deck)
    DISPLAY = "display"


@final
@dataclass(slots=True, init=False)
class ListEntry:
    """One card line: the name as typed (markup stripped), how many, where, and printing hints.

    A record like the Deck (validator.deck_facts.Deck says why): a parse builds one per line.
    """

    name: Final[str]
    quantity: Final[int]
    line: Final[int]  # 1-based line number in the submitted text
    section: Final[Section]
    set_code: Final[str | None]
    collector_number: Final[str | None]
    foil: Final[bool]  # printing hints only (Moxfield *F*, taw [foil]); no rule reads them
    etched: Final[bool]

    def __init__(self, name: str, quantity: int, line: int, section: Section = Section.MAIN,
                 set_code: str | None = None, collector_number: str | None = None, foil: bool = False,
                 etched: bool = False) -> None:
        self.name = name
        self.quantity = quantity
        self.line = line
        self.section = section
        self.set_code = set_code
        self.collector_number = collector_number
        self.foil = foil
        self.etched = etched

    def moved_to(self, section: Section) -> ListEntry:
        """The same line, in another section (a commander the layout marks, say)."""
        return ListEntry(self.name, self.quantity, self.line, section, self.set_code, self.collector_number,
                         self.foil, self.etched)


class NamedFormat(NamedTuple):
    """The game format a list names for itself, as written (a site export's format field,
    a `Format: Brawl` line); validator.formats.named_in_file reads it."""

    text: str
    line: int | None = None  # the line naming it, when one does


class Candidate(NamedTuple):
    """Cards a file's layout puts where its writer keeps the commander(s), in a list that
    marks none (the first or final block, the last side-zone lines, a banner card).

    The parser knows no cards, so it only proposes; `assemble.infer_commanders` takes a
    candidate when its cards can command together and the deck then has 100 cards.
    """

    entries: tuple[int, ...]  # indices into Decklist.entries, in list order
    source: Value  # where they were found, for the commander_inferred warning
    # a block the layout sets apart (the first block, the final one after the sideboard):
    # clear enough to infer even when a card of it, or of the deck, is not in the card data
    layout: bool = False


class NamedCommanders(NamedTuple):
    """Commanders a list names in words rather than marks on its lines: a leading
    `# Commander: NAME` comment, Markdown front matter's `commander:`. They designate as
    the request's `commanders` do (a listed card is that card; one not listed is added).

    The parser knows no cards, so where the words could be read two ways (`A and B` is one
    card, "Adrix and Nev, Twincasters", or two) it gives every reading, most likely first;
    `assemble.named_designation` takes the first whose names all resolve.
    """

    readings: tuple[tuple[str, ...], ...]
    line: int  # the line that names them


@final
@dataclass(slots=True, init=False)
class Decklist:
    """A parsed decklist: every card line, the format it was read as, and line-level problems.

    `problems` holds what the text itself gets wrong (unparsed_line, invalid_quantity,
    commander_inferred); the rules add the rest once the cards are resolved. Its `__init__`
    is written out for the compiler (see validator.deck_facts.Deck).
    """

    entries: Final[tuple[ListEntry, ...]]
    format: Final[str]
    problems: Final[tuple[Violation, ...]]
    # 1-based lines read as headers, comments or metadata (no entry, no problem), so every
    # non-blank line is provably an entry, one of these, or a problem's line
    accounted: Final[tuple[int, ...]]
    # commander candidates from the layout, most telling first (see Candidate)
    candidates: Final[tuple[Candidate, ...]]
    # the game format the list names for itself, if it names one (see NamedFormat)
    named_format: Final[NamedFormat | None]
    # the commanders the list names in words, if it does (see NamedCommanders)
    named_commanders: Final[NamedCommanders | None]

    def __init__(
        self,
        entries: tuple[ListEntry, ...] = (),
        format: str = "text",
        problems: tuple[Violation, ...] = (),
        accounted: tuple[int, ...] = (),
        candidates: tuple[Candidate, ...] = (),
        named_format: NamedFormat | None = None,
        named_commanders: NamedCommanders | None = None,
    ) -> None:
        self.entries = entries
        self.format = format
        self.problems = problems
        self.accounted = accounted
        self.candidates = candidates
        self.named_format = named_format
        self.named_commanders = named_commanders

    def named_names(self) -> tuple[str, ...]:
        """Every name a reading of `named_commanders` holds, each once (to resolve with the entries')."""
        if self.named_commanders is None:
            return ()
        return tuple(dict.fromkeys(name for reading in self.named_commanders.readings for name in reading))


@dataclass(frozen=True, slots=True)
class Designation:
    """Who commands, as the request says it (it overrides what the list marks): commander
    names, the companion's name, a color chosen per choose-a-color commander (903.4b), and
    Oathbreaker's signature spells (like commanders: a named card in the list is that
    card, one not in it is added; spells the list marks but this does not name are deck cards).

    Names are as typed: any spelling that resolves to the card. The empty value (`NOBODY`)
    designates nothing, so the list's own marks and its layout decide.
    """

    commanders: tuple[str, ...] = ()
    companion: str | None = None
    color_choices: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    signature_spells: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        commanders: Iterable[str] | None = None,
        companion: str | None = None,
        color_choices: Mapping[str, str] | None = None,
        signature_spells: Iterable[str] | None = None,
    ) -> "Designation":
        """From the request's optional fields (None or empty: not designated)."""
        return cls(tuple(commanders or ()), companion or None, MappingProxyType(dict(color_choices or {})),
                   tuple(signature_spells or ()))

    def names(self) -> tuple[str, ...]:
        """Every name it asks to resolve, each once: commanders, companion, color choices,
        signature spells."""
        return tuple(dict.fromkeys((*self.commanders, *((self.companion,) if self.companion else ()),
                                    *self.color_choices, *self.signature_spells)))


NOBODY = Designation()
