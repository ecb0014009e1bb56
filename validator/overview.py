"""The deck overview's numbers: mana curve, color balance and card types (pure, no I/O).

`overview(deck)` looks at the game deck, the commanders and the main deck (903.5a: the
100 cards), counting every copy; the companion, sideboard, planar and scheme decks are not
part of it, and unresolved names have no card data to count.

- curve: nonland cards by mana value, buckets 0, 1, ... 6 and 7+ (`CURVE_BUCKETS`).
- cost_symbols: colored mana symbols in those cards' costs per color (WUBRG, and C for
  {C}); a hybrid symbol counts for each of its colors, a Phyrexian one for its color.
- land_sources: lands able to produce each color (WUBRG and C), from Scryfall's
  produced_mana; a land stored without it (a store built before that field was kept)
  is read from its basic land types and its "Add {X}" text instead. What a land really
  makes in this deck: "any color in your commander's color identity" (Command Tower, Path
  of Ancestry) is the commanders' colors (none without a commander), not all five as
  produced_mana says; a land with no mana ability that fetches another (Polluted Delta,
  Evolving Wilds) makes none itself.
- types: cards by card type; a card counts under each of its front face's types
  (an Artifact Creature is an Artifact and a Creature), so the counts can sum past 100.
- cards_by_type: the cards behind `types`, (name, copies) by name, for the page's lists.
- images: canonical name -> preview image URL (Card.image) of every resolved card the
  list names, side piles included (a violation may name a sideboard card), when stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping

from validator.deck import MANA_SYMBOL, WUBRG, Card, Entry
from validator.deck_facts import Deck, commander_identity

CURVE_BUCKETS = ("0", "1", "2", "3", "4", "5", "6", "7+")
COLORS = WUBRG + "C"
COLOR_NAMES = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green", "C": "Colorless"}
# Card types in the order an overview lists them; others (Kindred, Dungeon...) follow.
TYPE_ORDER = ("Creature", "Planeswalker", "Battle", "Instant", "Sorcery", "Artifact", "Enchantment", "Land")
BASIC_LAND_COLORS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
# "Add {G}", "Add {R} or {G}", "Add {C}{C}": the symbols of a mana ability's "Add" clause.
ADD_CLAUSE = re.compile(r"\bAdd ((?:\{[^}]+\}|,| or |\s)+)")
ANY_COLOR = re.compile(r"\bAdd [^.]*\bmana of any (?:one )?(?:color|type)\b", re.I)
# Command Tower, Path of Ancestry, Opal Palace: the commanders' colors only.
COMMANDER_COLORS = re.compile(r"\bAdd [^.]*\bmana of any (?:one )?color in your commander'?s'? color identity\b", re.I)
# A fetch land's one ability: it puts another land onto the battlefield and adds no mana.
FETCHES = re.compile(r"\bSearch your library for\b[^.]*\bcards?\b[^.]*\bonto the battlefield\b", re.I)


@dataclass(frozen=True, slots=True)
class Overview:
    """The numbers behind the overview's charts (mappings in display order, zeros kept)."""

    curve: Mapping[str, int]  # CURVE_BUCKETS -> nonland cards
    cost_symbols: Mapping[str, int]  # COLORS -> mana symbols in costs
    land_sources: Mapping[str, int]  # COLORS -> lands producing that color
    types: Mapping[str, int]  # card type -> cards of that type (types present only)
    cards: int  # cards counted (resolved commanders and main deck, every copy)
    lands: int
    # card type -> (name, copies) of the cards counted under it, by name
    cards_by_type: Mapping[str, tuple[tuple[str, int], ...]] = field(default_factory=lambda: MappingProxyType({}))
    images: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # name -> preview URL


def overview(deck: Deck) -> Overview:
    """The overview of a resolved deck's commanders and main deck."""
    entries = (*deck.commanders, *deck.main)
    curve = dict.fromkeys(CURVE_BUCKETS, 0)
    cost_symbols = dict.fromkeys(COLORS, 0)
    land_sources = dict.fromkeys(COLORS, 0)
    identity = commander_identity(deck)
    types: dict[str, int] = {}
    by_type: dict[str, dict[str, int]] = {}
    lands = 0
    for entry in entries:
        card, copies = entry.card, entry.quantity
        for card_type in card.types:
            types[card_type] = types.get(card_type, 0) + copies
            named = by_type.setdefault(card_type, {})
            named[card.name] = named.get(card.name, 0) + copies
        if "Land" in card.types:
            lands += copies
            for color in land_colors(card, identity):
                land_sources[color] += copies
            continue
        curve[curve_bucket(card.mana_value)] += copies
        for color, count in cost_colors(card.mana_cost).items():
            cost_symbols[color] += count * copies
    return Overview(
        curve=MappingProxyType(curve),
        cost_symbols=MappingProxyType(cost_symbols),
        land_sources=MappingProxyType(land_sources),
        types=MappingProxyType(dict(sorted(types.items(), key=_type_rank))),
        cards=_copies(entries),
        lands=lands,
        cards_by_type=MappingProxyType({kind: tuple(sorted(by_type[kind].items())) for kind, _ in
                                        sorted(types.items(), key=_type_rank)}),
        images=MappingProxyType(images(deck)),
    )


def images(deck: Deck) -> dict[str, str]:
    """Canonical name -> preview image of every resolved card in any pile that has one."""
    piles = (deck.commanders, deck.main, (deck.companion,) if deck.companion else (), deck.sideboard,
             deck.planar, deck.schemes, deck.outside, deck.displayed, deck.extra_companions)
    return {entry.card.name: entry.card.image for pile in piles for entry in pile if entry.card.image}


def curve_bucket(mana_value: float) -> str:
    """The curve bucket of a mana value: "0" to "6", or "7+" (half mana rounds down)."""
    return CURVE_BUCKETS[min(int(mana_value), len(CURVE_BUCKETS) - 1)]


def cost_colors(mana_cost: str) -> dict[str, int]:
    """Colored symbols in a mana cost (every face): {"{2}{U}{U}"} -> {"U": 2}.

    Hybrid {W/U} counts for W and U, {2/W} and Phyrexian {W/P} for W, {C} for C;
    generic, {X} and {S} count for none.
    """
    counts: dict[str, int] = {}
    for symbol in MANA_SYMBOL.findall(mana_cost):
        for color in {part for part in symbol.upper().split("/") if part in COLORS}:
            counts[color] = counts.get(color, 0) + 1
    return counts


def land_colors(card: Card, commander_colors: frozenset[str]) -> frozenset[str]:
    """The colors (WUBRG, C) a land can produce in a deck whose commanders' identity is
    `commander_colors`: produced_mana, else its types and text; "any color in your
    commander's color identity" is those colors, and a fetch land (no "Add", it searches
    for a land) makes none."""
    text = card.face_texts[0] if card.face_texts else ""
    if "Add " not in text and FETCHES.search(text):
        return frozenset()
    named = {c for clause in ADD_CLAUSE.findall(text) for symbol in MANA_SYMBOL.findall(clause)
             for c in symbol.split("/") if c in COLORS}  # the symbols its "Add" clauses name
    if card.produced_mana:
        colors = {c for c in card.produced_mana if c in COLORS}
    else:
        colors = {BASIC_LAND_COLORS[s] for s in card.subtypes if s in BASIC_LAND_COLORS} | named
        if ANY_COLOR.search(text):
            colors.update(WUBRG)
    if COMMANDER_COLORS.search(text) and not ANY_COLOR.search(COMMANDER_COLORS.sub("", text)):
        colors = {c for c in colors if c not in WUBRG} | named | set(commander_colors)
    return frozenset(colors)


def _copies(entries: Iterable[Entry]) -> int:
    return sum(entry.quantity for entry in entries)


def _type_rank(item: tuple[str, int]) -> tuple[int, str]:
    name = item[0]
    return (TYPE_ORDER.index(name), "") if name in TYPE_ORDER else (len(TYPE_ORDER), name)
