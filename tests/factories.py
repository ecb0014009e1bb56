"""Builders for hand-written cards and decks (mage's DeckTester in Python), plus named cards.

`card()` reads a Scryfall-style type line so a test writes what the card says:
`card("Sol Ring", "Artifact", cost="{1}")`. `deck()` builds a resolved Deck from
{card: quantity} mappings and gives every entry a distinct line number.
"""

from __future__ import annotations

import itertools
from types import MappingProxyType
from typing import Iterable, Mapping

from validator.deck import Card, Deck, Entry, UnknownName

SUPERTYPES = frozenset({"Legendary", "Basic", "Snow", "World", "Token", "Ongoing"})
# Scryfall writes "Time Lord" as one two-word subtype
TWO_WORD_SUBTYPES = ("Time Lord",)


def parse_type_line(type_line: str) -> tuple[frozenset, frozenset, frozenset]:
    """(supertypes, types, subtypes) of a front-face type line such as "Legendary Creature — Elf"."""
    left, _, right = type_line.partition(" — ")
    words = left.split()
    supertypes = frozenset(w for w in words if w in SUPERTYPES)
    types = frozenset(w for w in words if w not in SUPERTYPES)
    subtypes = []
    for two in TWO_WORD_SUBTYPES:
        if two in right:
            subtypes.append(two)
            right = right.replace(two, "")
    subtypes += right.split()
    return supertypes, types, frozenset(subtypes)


def card(
    name: str,
    type_line: str = "Artifact",
    *,
    text: str | Iterable[str] = "",
    identity: str = "",
    cost: str = "",
    mana_value: float | None = None,
    pt: bool | None = None,
    **fields,
) -> Card:
    """A hand-written Card: type line, Oracle text (one string or one per face), identity letters."""
    supertypes, types, subtypes = parse_type_line(type_line.split(" // ")[0])
    faces = (text,) if isinstance(text, str) else tuple(text)
    if mana_value is None:
        mana_value = _mana_value(cost.split(" // ")[0])
    return Card(
        name=name,
        types=types,
        supertypes=supertypes,
        subtypes=subtypes,
        face_texts=faces,
        mana_cost=cost,
        mana_value=float(mana_value),
        color_identity=frozenset(identity),
        has_power_toughness="Creature" in types if pt is None else pt,
        type_line=type_line.split(" // ")[0],
        **fields,
    )


def _mana_value(cost: str) -> int:
    """Mana value of a simple cost string ("{2}{W}{W}" -> 4, X counts 0)."""
    total = 0
    for symbol in cost.replace("}", "").split("{")[1:]:
        if symbol.isdigit():
            total += int(symbol)
        elif symbol != "X":
            total += 1
    return total


def legend(name: str, identity: str = "", *, text: str = "", subtypes: str = "Human", **fields) -> Card:
    """A legendary creature: the everyday commander."""
    return card(name, f"Legendary Creature — {subtypes}", text=text, identity=identity, **fields)


_lines = itertools.count(1)


def entry(c: Card, quantity: int = 1, lines: tuple[int, ...] | None = None) -> Entry:
    """An Entry with a fresh line number unless given."""
    return Entry(c, quantity, (next(_lines),) if lines is None else lines)


def _entries(cards: Mapping[Card, int] | Iterable[Card] | None) -> tuple[Entry, ...]:
    """Entries from {card: quantity} or an iterable of cards (one copy each)."""
    if cards is None:
        return ()
    if isinstance(cards, Mapping):
        return tuple(entry(c, q) for c, q in cards.items())
    return tuple(entry(c) for c in cards)


def filler(count: int, *, identity: str = "", prefix: str = "Filler") -> dict[Card, int]:
    """`count` distinct, legal, colorless-or-`identity` artifacts: padding for a 100-card deck."""
    return {card(f"{prefix} {i}", "Artifact", identity=identity, cost="{2}"): 1 for i in range(count)}


def deck(
    commander: Card | None = None,
    *,
    commanders: Iterable[Card] = (),
    main: Mapping[Card, int] | Iterable[Card] | None = None,
    companion: Card | None = None,
    sideboard: Mapping[Card, int] | Iterable[Card] | None = None,
    planar: Mapping[Card, int] | Iterable[Card] | None = None,
    schemes: Mapping[Card, int] | Iterable[Card] | None = None,
    unknown: Iterable[UnknownName] = (),
    color_choices: Mapping[str, str] | None = None,
) -> Deck:
    """A resolved Deck: deck(commander=ATRAXA, main={FOREST: 99})."""
    zone = ([commander] if commander else []) + list(commanders)
    return Deck(
        commanders=tuple(entry(c) for c in zone),
        main=_entries(main),
        companion=entry(companion) if companion else None,
        sideboard=_entries(sideboard),
        planar=_entries(planar),
        schemes=_entries(schemes),
        unknown=tuple(unknown),
        color_choices=MappingProxyType(dict(color_choices or {})),
    )


def full_deck(*commanders: Card, main: Mapping[Card, int] | None = None, **kwargs) -> Deck:
    """A 100-card deck: the commanders, `main`, and Wastes to fill the rest."""
    main = dict(main or {})
    missing = 100 - len(commanders) - sum(main.values())
    if missing > 0:
        main[WASTES] = main.get(WASTES, 0) + missing
    return deck(commanders=commanders, main=main, **kwargs)


# --- named cards ---------------------------------------------------------------------

FOREST = card("Forest", "Basic Land — Forest", text="({T}: Add {G}.)", identity="G")
WASTES = card("Wastes", "Basic Land", text="{T}: Add {C}.")
SNOW_FOREST = card("Snow-Covered Forest", "Basic Snow Land — Forest", text="({T}: Add {G}.)", identity="G")
SOL_RING = card("Sol Ring", "Artifact", text="{T}: Add {C}{C}.", cost="{1}")
COMMAND_TOWER = card("Command Tower", "Land", text="{T}: Add one mana of any color in your commander's color identity.")
LIGHTNING_BOLT = card("Lightning Bolt", "Instant", text="Lightning Bolt deals 3 damage to any target.", identity="R", cost="{R}")
ATRAXA = legend(
    "Atraxa, Praetors' Voice", "WUBG", subtypes="Phyrexian Angel Horror",
    text="Flying, vigilance, deathtouch, lifelink\nAt the beginning of your end step, proliferate.",
    cost="{G}{W}{U}{B}",
)
