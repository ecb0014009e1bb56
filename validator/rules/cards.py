"""The rules about the cards of the deck: every name resolves (unknown_card, ambiguous_card),
exactly the format's size (deck_size), one copy of each card but what its text allows
(singleton), and every card inside the commanders' color identity (color_identity).
Each rule takes a resolved `Deck`, yields zero or more `Violation`s and never raises."""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from validator.card_facts import LAND_TYPES, basic_land_types, copy_limit, is_non_deck
from validator.deck import Entry, UnknownName
from validator.deck_facts import (
    Deck, assumed_colors, card_count, chosen_basic_land_type, commander_identity, deck_format, identity_entries,
    tally, unchosen_commanders,
)
from validator.messages import AnyOf, Name, Term, Text, msg, nmsg
from validator.phrasing import color_text, included_role, is_oathbreaker, line_numbers
from validator.side_decks import GAME_SECTIONS
from validator.violations import Code, Violation


def unknown_card(deck: Deck) -> Iterator[Violation]:
    """A name in the deck that resolves to no card: one violation per distinct name."""
    by_name: dict[str, list[UnknownName]] = {}
    for unknown in deck.unknown:
        if unknown.section in GAME_SECTIONS:  # elsewhere: named by sideboard / not_in_deck
            by_name.setdefault(unknown.name, []).append(unknown)
    for name, entries in by_name.items():
        if entries[0].ambiguous:
            yield _ambiguous(name, entries)
            continue
        suggestions = next((u.suggestions for u in entries if u.suggestions), ())[:3]
        text = msg("No card is named \"{name}\".", name=name)
        if suggestions:
            text = text.then(msg("Did you mean {cards}?", cards=AnyOf(suggestions)))
        yield Violation(
            Code.UNKNOWN_CARD,
            text,
            cards=(name,),
            lines=line_numbers(entries),
            suggestions=suggestions,
        )


def _ambiguous(name: str, entries: list[UnknownName]) -> Violation:
    """A name printed in another language for several cards: which one is meant is not guessed."""
    candidates = entries[0].suggestions
    return Violation(
        Code.AMBIGUOUS_CARD,
        nmsg("\"{name}\" is the printed name of {n} different card: {cards}.",
             "\"{name}\" is the printed name of {n} different cards: {cards}.",
             len(candidates), name=name, cards=AnyOf(candidates))
        .then(msg("Write the card's English name (or another printed name of it).")),
        cards=(name,),
        lines=line_numbers(entries),
        suggestions=candidates,
    )


def deck_size(deck: Deck) -> Iterator[Violation]:
    """903.5a, 903.12d: exactly the format's size (100; 60 in Standard Brawl and
    Oathbreaker), commanders (and signature spells) included, companion excluded."""
    size = card_count(deck)
    fmt = deck_format(deck)
    if size != fmt.deck_size:
        if fmt.signature_spells:
            text = nmsg("The deck has {n} card; an {format} deck has exactly {size}, oathbreakers and signature "
                        "spells included and companion excluded.",
                        "The deck has {n} cards; an {format} deck has exactly {size}, oathbreakers and signature "
                        "spells included and companion excluded.",
                        size, format=Term(fmt.name), size=fmt.deck_size)
        else:
            text = nmsg("The deck has {n} card; a {format} deck has exactly {size}, commanders included and "
                        "companion excluded.",
                        "The deck has {n} cards; a {format} deck has exactly {size}, commanders included and "
                        "companion excluded.",
                        size, format=Term(fmt.name), size=fmt.deck_size)
        yield Violation(
            Code.DECK_SIZE,
            text,
            rule=fmt.size_rule,
        )


def singleton(deck: Deck) -> Iterator[Violation]:
    """903.5b: one copy of each card but basic lands, unless its own text allows more."""
    # 903.11a: the companion may not share a name with a card in the deck either
    counted, companion = tally(deck), deck.companion
    if not counted.multiples and len(counted.names) == counted.entries and (
            companion is None or (companion.quantity == 1 and companion.card.name not in counted.names)):
        return  # no name listed twice, no card but basics in several copies: nothing to count
    zone = [*deck.commanders, *deck.main, companion] if companion else [*deck.commanders, *deck.main]
    names = [e.card.name for e in zone]
    # only names listed twice or with a quantity over one can break the rule: find those first
    multiple = [e.card for e in zone if e.quantity > 1]
    suspects = {c.name for c in multiple if "Basic" not in c.supertypes}
    if len(set(names)) != len(names):  # some name is listed on two lines or in two zones
        suspects.update(name for name, lines in Counter(names).items() if lines > 1)
    suspects = {name for name in suspects if not _non_deck_name(name, zone)}
    if not suspects:
        return
    copies: dict[str, list[Entry]] = {}
    for entry in zone:
        if entry.card.name in suspects:
            copies.setdefault(entry.card.name, []).append(entry)
    in_zone = {id(e) for e in deck.commanders}
    if deck.companion:
        in_zone.add(id(deck.companion))
    for name, entries in copies.items():
        # a commander or companion line's own quantity is invalid_quantity's business: count it once
        count = sum(1 if id(e) in in_zone else e.quantity for e in entries)
        if count < 2:
            continue
        limit = copy_limit(entries[0].card)
        if limit is None or count <= limit:
            continue
        yield Violation(
            Code.SINGLETON,
            _copies(name, count, limit, included_role(name, deck)),
            cards=(name,),
            lines=line_numbers(entries),
            rule="903.5b",
        )


def _copies(name: str, count: int, limit: int, role: str | None) -> Text:
    """singleton's sentence: how many copies, which role the card also fills, how many may be."""
    card = Name(name)
    if limit != 1:
        if role is None:
            return nmsg("{card} appears {n} times; the deck may have up to {limit} copies.",
                        "{card} appears {n} times; the deck may have up to {limit} copies.", count, card=card,
                        limit=limit)
        return nmsg("{card} appears {n} times ({role} included); the deck may have up to {limit} copies.",
                    "{card} appears {n} times ({role} included); the deck may have up to {limit} copies.", count,
                    card=card, limit=limit, role=Term(role))
    if role is None:
        return nmsg("{card} appears {n} times; the deck may have one copy.",
                    "{card} appears {n} times; the deck may have one copy.", count, card=card)
    return nmsg("{card} appears {n} times ({role} included); the deck may have one copy.",
                "{card} appears {n} times ({role} included); the deck may have one copy.", count, card=card,
                role=Term(role))


# The roles a repeated card may also fill (singleton says which), as each language names them.
ROLES = (Term("commander"), Term("oathbreaker"), Term("signature spell"), Term("companion"))


def _non_deck_name(name: str, zone: list[Entry]) -> bool:
    """The named card is no deck card (non_deck_card alone judges it)."""
    return any(e.card.name == name and is_non_deck(e.card) for e in zone)


def color_identity(deck: Deck) -> Iterator[Violation]:
    """903.5c-d: every card, companion included, fits the commanders' combined identity
    (903.12e: in Brawl, a colorless commander's basic lands of one basic land type too)."""
    if not deck.commanders:
        return  # no identity to compare against; commander_missing says why
    if deck.unknown and any(u.section == "commander" for u in deck.unknown):
        return  # a commander the card data lacks: its identity is unknown, so nothing is outside it
    base = commander_identity(deck)
    wildcards = len(unchosen_commanders(deck))
    allowed = base | assumed_colors(deck, base, wildcards) if wildcards else base
    companion = deck.companion
    if tally(deck).main_identity <= allowed and (companion is None or companion.card.color_identity <= allowed):
        return  # every card fits (the main deck's identities are united once, in the Tally)
    outside = [e for e in identity_entries(deck) if not e.card.color_identity <= allowed]
    chosen = None
    if outside and not allowed and deck_format(deck).basic_land_type_choice:
        chosen = chosen_basic_land_type(outside)
    for entry in outside:
        if is_non_deck(entry.card):
            continue  # non_deck_card alone (DESIGN.md)
        if chosen is not None and basic_land_types(entry.card):
            if chosen in basic_land_types(entry.card):
                continue  # 903.12e: the chosen type, in any number
            yield Violation(
                Code.COLOR_IDENTITY,
                nmsg("{card} ({colors}) is outside the commander's color identity (colorless): a colorless "
                     "commander allows basic lands of one basic land type, and {type} (the type with the most "
                     "copies) was taken as the chosen one.",
                     "{card} ({colors}) is outside the commanders' color identity (colorless): a colorless "
                     "commander allows basic lands of one basic land type, and {type} (the type with the most "
                     "copies) was taken as the chosen one.",
                     len(deck.commanders), card=Name(entry.card.name), colors=color_text(entry.card.color_identity),
                     type=LAND_TYPES.get(chosen, chosen)),
                cards=(entry.card.name,),
                lines=entry.lines,
                rule="903.12e",
            )
            continue
        yield Violation(
            Code.COLOR_IDENTITY,
            _outside(deck, entry, allowed),
            cards=(entry.card.name,),
            lines=entry.lines,
            rule="903.5c",
        )


def _outside(deck: Deck, entry: Entry, allowed: frozenset[str]) -> Text:
    """color_identity's sentence: the card, its colors, whose identity and its colors."""
    card, colors, identity = Name(entry.card.name), color_text(entry.card.color_identity), color_text(allowed)
    if is_oathbreaker(deck):
        return nmsg("{card} ({colors}) is outside the oathbreaker's color identity ({identity}).",
                    "{card} ({colors}) is outside the oathbreakers' color identity ({identity}).",
                    len(deck.commanders), card=card, colors=colors, identity=identity)
    return nmsg("{card} ({colors}) is outside the commander's color identity ({identity}).",
                "{card} ({colors}) is outside the commanders' color identity ({identity}).",
                len(deck.commanders), card=card, colors=colors, identity=identity)
