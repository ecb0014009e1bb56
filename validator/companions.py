"""The companion conditions (702.139a): one function per companion, registered by name in
COMPANION_CONDITIONS. Each takes the starting deck's entries (commanders included) and
returns None when the condition is met, else (offenders, why): `why` a whole sentence saying
what the condition asks (validator.messages.Text), for the message.

Each also takes the Format the deck is judged in (validator/formats.py): Yorion's
condition reads its minimum deck size.

The rules that report on the companion (companion_ineligible, companion_condition) are in
validator/rules.py; the card facts the conditions read are in validator/card_facts.py.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from validator.card_facts import (
    PERMANENT_TYPES,
    card_types,
    every_creature_type,
    has_activated_ability,
    is_creature_card,
)
from validator.deck import MANA_SYMBOL, Card, Entry
from validator.messages import Term, Text, msg

if TYPE_CHECKING:  # validator/formats.py imports this module
    from validator.formats import Format



# What a condition returns: None when met, else (the offending entries, why) for the message.
Failure = tuple[list[Entry], Text] | None
# Card types (Umori's shared type), as each language's cards print them.
CARD_TYPES = {
    "Artifact": Term("Artifact"), "Battle": Term("Battle"), "Creature": Term("Creature"),
    "Enchantment": Term("Enchantment"), "Instant": Term("Instant"), "Kindred": Term("Kindred"),
    "Land": Term("Land"), "Planeswalker": Term("Planeswalker"), "Sorcery": Term("Sorcery"),
    "Tribal": Term("Tribal"),
}


def _front_cost(card: Card) -> str:
    """The mana cost that counts outside the game: both halves of a split card, else the front."""
    cost = card.mana_cost
    if " // " not in cost:
        return cost
    return cost.replace(" // ", "") if card.layout == "split" else cost.split(" // ")[0]


def _failing(entries: list[Entry], bad: Callable[[Card], bool], why: Text) -> Failure:
    """(the entries whose card is bad, why) or None when there are none."""
    offenders = [e for e in entries if bad(e.card)]
    return (offenders, why) if offenders else None


def gyruda(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Gyruda: only cards with even mana value."""
    return _failing(entries, lambda c: int(c.mana_value) % 2 == 1, msg("The condition asks for only cards with even mana value."))


def jegantha(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Jegantha: no card with more than one of the same mana symbol in its cost."""

    # decks repeat costs ({1}{G}, {2}{U}...): judge each distinct cost once
    bad = {cost for cost in {e.card.mana_cost for e in entries} if _repeats_symbol(cost)}
    return _failing(
        entries,
        lambda c: c.mana_cost in bad and _repeats_symbol(_front_cost(c)),
        msg("The condition asks for no card with more than one of the same mana symbol in its cost."),
    )


@lru_cache(maxsize=16384)
def _repeats_symbol(cost: str) -> bool:
    """The cost holds some mana symbol twice ("{U}{U}", "{R/G}{R/G}", "{X}{X}")."""
    symbols = MANA_SYMBOL.findall(cost)
    return len(symbols) != len(set(symbols))


def kaheera(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Kaheera: each creature card is a Cat, Elemental, Nightmare, Dinosaur or Beast."""
    kinds = {"Cat", "Elemental", "Nightmare", "Dinosaur", "Beast"}

    def bad(card: Card) -> bool:
        # Grist is an Insect creature card in the deck (its CDA works outside the battlefield)
        if not is_creature_card(card) or card.subtypes & kinds:
            return False
        return not every_creature_type(card)

    return _failing(entries, bad, msg("The condition asks for each creature card to be a Cat, Elemental, Nightmare, "
                                      "Dinosaur or Beast."))


def keruga(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Keruga: only cards with mana value 3 or greater, and lands."""
    return _failing(
        entries, lambda c: c.mana_value < 3 and "Land" not in card_types(c),
        msg("The condition asks for only lands and cards with mana value 3 or more."),
    )


def lurrus(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Lurrus: each permanent card has mana value 2 or less."""
    return _failing(
        entries,
        lambda c: c.mana_value > 2 and bool(card_types(c) & PERMANENT_TYPES),
        msg("The condition asks for each permanent card to have mana value 2 or less."),
    )


def lutri(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Lutri: each nonland card has a different name."""
    counts: Counter[str] = Counter()
    for entry in entries:
        if "Land" not in card_types(entry.card):
            counts[entry.card.name] += entry.quantity
    return _failing(entries, lambda c: counts[c.name] > 1,
                    msg("The condition asks for each nonland card to have a different name."))


def obosh(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Obosh: only cards with odd mana value, and lands."""
    return _failing(
        entries,
        lambda c: int(c.mana_value) % 2 == 0 and "Land" not in card_types(c),
        msg("The condition asks for only lands and cards with odd mana value."),
    )


def umori(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Umori: each nonland card shares a card type; offenders miss the most common one.
    Types as outside the battlefield (card_types: Grist is a creature card there)."""
    nonland = [e for e in entries if "Land" not in card_types(e.card)]
    types = Counter(t for e in nonland for t in card_types(e.card))
    if not types:
        return None
    shared = max(sorted(types), key=lambda t: types[t])
    why = msg("The condition asks for each nonland card to share a card type; these are not {type} cards.",
              type=CARD_TYPES.get(shared, shared))
    return _failing(nonland, lambda c: shared not in card_types(c), why)


YORION_EXTRA = 20  # cards over the minimum deck size (Commander's 100, 903.5a: 120)


def yorion(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Yorion: 20 cards over the format's minimum deck size (Commander when `fmt` is None).
    A list that long meets it (deck_size alone is then wrong); a legal deck never does."""
    name, size = (fmt.name, fmt.deck_size) if fmt is not None else ("Commander", 100)
    if sum(e.quantity for e in entries) >= size + YORION_EXTRA:
        return None
    return [], msg("The condition asks for a starting deck of at least {least} cards (20 over the minimum), which a "
                   "deck of exactly {size} cards in {format} never meets.", least=size + YORION_EXTRA, size=size,
                   format=Term(name))


def zirda(entries: list[Entry], fmt: Format | None = None) -> Failure:
    """Zirda: each permanent card has an activated ability."""
    return _failing(
        entries,
        lambda c: bool(card_types(c) & PERMANENT_TYPES) and not has_activated_ability(c),
        msg("The condition asks for each permanent card to have an activated ability."),
    )


COMPANION_CONDITIONS: dict[str, Callable[[list[Entry], "Format | None"], Failure]] = {
    "Gyruda, Doom of Depths": gyruda,
    "Jegantha, the Wellspring": jegantha,
    "Kaheera, the Orphanguard": kaheera,
    "Keruga, the Macrosage": keruga,
    "Lurrus of the Dream-Den": lurrus,
    "Lutri, the Spellchaser": lutri,
    "Obosh, the Preypiercer": obosh,
    "Umori, the Collector": umori,
    "Yorion, Sky Nomad": yorion,
    "Zirda, the Dawnwaker": zirda,
}
