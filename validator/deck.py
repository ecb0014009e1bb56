"""The pieces of a resolved deck: Card, Entry and UnknownName (frozen, pure data); the
Deck they make up, judged in a format, is deck_facts.Deck."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Iterable, Mapping, Sequence, final

from mypy_extensions import mypyc_attr

WUBRG = "WUBRG"
COLOR_LETTERS = frozenset(WUBRG)
MANA_SYMBOL = re.compile(r"\{([^}]+)\}")  # one mana symbol of a cost: {U}, {R/G}, {X}
# Front-face types that make a card no plain deck card: the non-deck types
# (card_facts.NON_DECK_TYPES) and Conspiracy (banned in Commander).
SUSPECT_TYPES = frozenset({"Plane", "Phenomenon", "Scheme", "Vanguard", "Dungeon", "Emblem", "Token", "Conspiracy"})
# Layouts of ordinary deck cards; anything else (meld, token, planar, unknown new layouts)
# takes the careful path. Token/Emblem supertypes come with token/emblem layouts.
PLAIN_LAYOUTS = frozenset({
    "normal", "split", "flip", "transform", "modal_dfc", "leveler", "class", "case", "saga",
    "adventure", "mutate", "prototype", "battle", "host", "augment", "reversible_card",
})
# A card that grants an extra turn says "take(s) an extra turn" or "extra turn(s) after
# this one" (Time Stretch: "takes two extra turns after this one"). Cards that only stop
# them say "would begin an extra turn ... skips that turn" (Stranglehold); a "can't" or
# "would" right before "take" would be such a card too, so those never count. Read once
# per Card (Card.extra_turn): the bracket check asks it of every card of every deck.
EXTRA_TURN = re.compile(
    r"(?<!can't )(?<!cannot )(?<!would )\btakes? an extra turn\b|\bextra turns? after this one\b",
    re.IGNORECASE,
)
NO_LEGALITIES: Mapping[str, str] = MappingProxyType({})
# One frozenset per distinct color identity (32 combinations), shared by every Card: a set
# of identities (deck_facts.Tally) then meets a repeat as the same object instead of
# comparing two equal frozensets element by element.
_IDENTITIES: dict[frozenset[str], frozenset[str]] = {frozenset(): frozenset()}
# {"commander": value} for a Card given only `legality` (hand-built ones), shared
_COMMANDER_ONLY: dict[str, Mapping[str, str]] = {}


def wubrg(colors: Iterable[str]) -> tuple[str, ...]:
    """Colors in WUBRG order."""
    return tuple(c for c in WUBRG if c in colors)


@dataclass(frozen=True, slots=True)
class Card:
    """What the Commander rules need to know about one Oracle card.

    Types are those of the front face (a double-faced card outside the game has only its
    front face's characteristics); text and mana costs cover every face.
    """

    name: str  # canonical Scryfall (Oracle) name, e.g. "Fire // Ice"
    types: frozenset[str] = frozenset()  # front face card types: {"Creature", "Artifact"}
    supertypes: frozenset[str] = frozenset()  # front face: {"Legendary", "Basic", "Snow"}
    subtypes: frozenset[str] = frozenset()  # front face: {"Time Lord", "Doctor"}
    face_texts: tuple[str, ...] = ()  # Oracle text of every face, front first
    mana_cost: str = ""  # every face's cost, " // "-joined, e.g. "{U}{U}{2} // {3}"
    mana_value: float = 0.0  # Scryfall's cmc
    color_identity: frozenset[str] = frozenset()  # as Scryfall gives it (both faces, indicators)
    layout: str = "normal"  # Scryfall layout: normal, transform, planar, token, meld...
    legality: str = "legal"  # legalities["commander"]: legal, not_legal, banned, restricted
    has_power_toughness: bool = False  # the front face has printed power/toughness
    game_changer: bool = False
    keywords: frozenset[str] = frozenset()  # Scryfall keywords ("Partner", "Companion"...)
    type_line: str = ""  # front face type line, for messages
    is_meld_result: bool = False  # the melded back half (Brisela), never a deck card
    # Scryfall's produced_mana: the colors (WUBRG, "C") this card's mana abilities can make
    produced_mana: frozenset[str] = frozenset()
    # Scryfall's "normal" image of the front face (488x680), for the page's previews; "" if none stored
    image: str = ""
    # Scryfall's legalities, every format key the card data has ("duel": "restricted"...);
    # a key it lacks is unknown, never legal. "commander" always equals `legality`
    # (__post_init__ sees to it), so a Card built with `legality` alone reads the same.
    legalities: Mapping[str, str] = field(default_factory=lambda: NO_LEGALITIES, hash=False)
    # derived, not given: an ordinary deck card by layout and front-face types (no plane,
    # scheme, token, Conspiracy, Attraction, meld result...), so the rules' screens take
    # the careful path only for the others
    plain: bool = field(init=False, default=True, repr=False, compare=False, hash=False)
    # derived: legality's screen in Commander has to look at it (not plain, or not `legal`
    # there); read for every card of every deck, so worked out once per Card
    commander_suspect: bool = field(init=False, default=False, repr=False, compare=False, hash=False)
    # derived: some face's Oracle text grants an extra turn (EXTRA_TURN; brackets.py counts them)
    extra_turn: bool = field(init=False, default=False, repr=False, compare=False, hash=False)
    # derived: a card a screen of the rules or the brackets looks at closely (commander_suspect,
    # a Game Changer, an extra-turn card): deck_facts.Tally keeps the entries of such cards,
    # so the screens read those few instead of walking the deck
    notable: bool = field(init=False, default=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        """Derive `plain`, `commander_suspect`, `extra_turn` and `notable`; keep
        legalities["commander"] equal to `legality`, what it has always meant."""
        plain = (self.layout in PLAIN_LAYOUTS and self.types.isdisjoint(SUSPECT_TYPES)
                 and "Attraction" not in self.subtypes and not self.is_meld_result)
        suspect = not plain or self.legality != "legal"
        extra_turn = any(EXTRA_TURN.search(text) for text in self.face_texts)
        object.__setattr__(self, "plain", plain)
        object.__setattr__(self, "commander_suspect", suspect)
        object.__setattr__(self, "extra_turn", extra_turn)
        object.__setattr__(self, "notable", suspect or extra_turn or self.game_changer)
        identity = _IDENTITIES.get(self.color_identity)
        if identity is None and self.color_identity <= COLOR_LETTERS:
            identity = _IDENTITIES.setdefault(self.color_identity, self.color_identity)
        if identity is not None and identity is not self.color_identity:
            object.__setattr__(self, "color_identity", identity)
        if self.legalities.get("commander") == self.legality:
            return
        legalities: Mapping[str, str]
        if self.legalities:
            legalities = MappingProxyType({**self.legalities, "commander": self.legality})
        else:  # a Card given `legality` alone: one shared mapping per value
            legalities = _COMMANDER_ONLY.get(self.legality) or _COMMANDER_ONLY.setdefault(
                self.legality, MappingProxyType({"commander": self.legality}))
        object.__setattr__(self, "legalities", legalities)

    @property
    def oracle_text(self) -> str:
        """Oracle text of every face, one face per paragraph."""
        return "\n".join(self.face_texts)

    @property
    def front_text(self) -> str:
        """Oracle text of the front face."""
        return self.face_texts[0] if self.face_texts else ""


@final
@dataclass(slots=True, init=False)
class Entry:
    """A card in one section of the deck, how many copies, and the decklist lines naming it.

    A record (validator.deck_facts.Deck says why): assemble() builds one per card of every
    deck checked, and compiled this is one allocation, where a NamedTuple took a call of
    tuple.__new__ and two.
    """

    card: Final[Card]
    quantity: Final[int]
    lines: Final[tuple[int, ...]]

    def __init__(self, card: Card, quantity: int = 1, lines: tuple[int, ...] = ()) -> None:
        self.card = card
        self.quantity = quantity
        self.lines = lines


MAX_CANDIDATES = 10  # cards an ambiguous name lists (one printed name of more is no real case)


@mypyc_attr(native_class=False)  # a tuple subclass: a plain Python class where compiled
class Candidates(tuple[str, ...]):
    """In place of suggestions: the cards a name printed in another language names when it
    names several (Italian "Eliminare": Cancel and Wipe Away). The name is ambiguous_card,
    never a guess; it counts like an unknown card."""

    __slots__ = ()


@final
@dataclass(slots=True, init=False)
class Translation:
    """A name as written read in another language: the English card and a language it was
    printed in (the first in code order when several languages share the spelling).
    card_data's names table makes them; a record (see Entry) because the pipeline reads
    both fields of one a name of every list in another language."""

    card: Final[str]
    lang: Final[str]

    def __init__(self, card: str, lang: str) -> None:
        self.card = card
        self.lang = lang


@dataclass(frozen=True, slots=True)
class UnknownName:
    """A name in the list that resolved to no card, as typed."""

    name: str
    quantity: int = 1
    lines: tuple[int, ...] = ()
    suggestions: tuple[str, ...] = ()
    # the Section value it was listed in ("commander", "main", "companion", "planar",
    # "schemes", or "sideboard", "maybeboard", "ignored" outside the game): only
    # commander and main names count toward the 100
    section: str = "main"
    ambiguous: bool = False  # a name printed for several cards: `suggestions` are the candidates

    @classmethod
    def of(cls, name: str, quantity: int, lines: Iterable[int], suggested: Sequence[str], section: str) -> "UnknownName":
        """An unresolved name with its suggestions (3 at most), or the candidates of an
        ambiguous one (MAX_CANDIDATES at most)."""
        if isinstance(suggested, Candidates):
            return cls(name, quantity, tuple(sorted(lines)), tuple(suggested)[:MAX_CANDIDATES], section, True)
        return cls(name, quantity, tuple(sorted(lines)), tuple(suggested)[:3], section)
