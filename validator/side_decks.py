"""The rules for what is listed beside the deck: a planar deck (901), a scheme deck
(904.3), a sideboard or maybeboard (903.5e: named and ignored) and piles that are no part
of the game (display commanders, tokens...: named, so nothing is dropped silently).
"""

from __future__ import annotations

from typing import Iterator

from validator.deck import Entry
from validator.deck_facts import Deck, deck_format
from validator.messages import Name, Names, Term, Text, msg, nmsg
from validator.phrasing import about, card_names, line_numbers, names_of
from validator.violations import Code, Severity, Violation

# UnknownName.section values of the game; names listed elsewhere are only named as not played
GAME_SECTIONS = frozenset({"commander", "companion", "main", "signature", "planar", "schemes"})
SIDE_SECTIONS = frozenset({"sideboard", "maybeboard"})


def planar_deck(deck: Deck) -> Iterator[Violation]:
    """901: a planar deck has at least 10 cards, only planes and phenomena, no duplicate names, at most two phenomena."""
    # unknown names listed there still count, so one typo is unknown_card alone (as for the 100)
    unknown = sum(u.quantity for u in deck.unknown if u.section == "planar")
    if not deck.planar and not unknown:
        return
    problems: list[tuple[list[Entry], Text]] = []  # (the cards at fault, what they break)
    total = sum(e.quantity for e in deck.planar) + unknown
    if total < 10:
        problems.append(([], nmsg("The planar deck breaks Planechase rules: it has {n} card; a planar deck needs at "
                                  "least 10.",
                                  "The planar deck breaks Planechase rules: it has {n} cards; a planar deck needs at "
                                  "least 10.", total)))
    others = [e for e in deck.planar if not e.card.types & {"Plane", "Phenomenon"}]
    if others:
        problems.append((others, nmsg("The planar deck breaks Planechase rules: {cards} is not a plane or phenomenon.",
                                      "The planar deck breaks Planechase rules: {cards} are not a plane or "
                                      "phenomenon.", len(card_names(others)), cards=names_of(others))))
    duplicates = [e for e in deck.planar if e.quantity > 1]
    if duplicates:
        problems.append((duplicates, nmsg("The planar deck breaks Planechase rules: {cards} appears more than once.",
                                          "The planar deck breaks Planechase rules: {cards} appear more than once.",
                                          len(duplicates), cards=names_of(duplicates))))
    phenomena = [e for e in deck.planar if "Phenomenon" in e.card.types]
    if sum(e.quantity for e in phenomena) > 2:
        problems.append((phenomena, msg("The planar deck breaks Planechase rules: it has more than two phenomena.")))
    for entries, text in problems:
        yield about(entries, Code.PLANAR_DECK, text, "901")


SCHEME_DECK_MINIMUM = 20  # 904.3


def scheme_deck(deck: Deck) -> Iterator[Violation]:
    """904.3: a scheme deck holds at least twenty schemes, at most two copies of each."""
    size = sum(e.quantity for e in deck.schemes)
    if 0 < size < SCHEME_DECK_MINIMUM:
        yield Violation(
            Code.SCHEME_DECK,
            nmsg("The scheme deck has {n} card; Archenemy needs at least {least}.",
                 "The scheme deck has {n} cards; Archenemy needs at least {least}.", size, least=SCHEME_DECK_MINIMUM),
            lines=line_numbers(deck.schemes),
            rule="904.3",
        )
    others = [e for e in deck.schemes if "Scheme" not in e.card.types]
    if others:
        text = nmsg("The scheme deck holds {cards}, which is not a scheme.",
                    "The scheme deck holds {cards}, which are not a scheme.", len(card_names(others)),
                    cards=names_of(others))
        yield about(others, Code.SCHEME_DECK, text, "904")
    for entry in deck.schemes:
        if entry.quantity > 2 and "Scheme" in entry.card.types:
            yield Violation(
                Code.SCHEME_DECK,
                nmsg("The scheme deck has {n} copy of {card}; at most two are allowed.",
                     "The scheme deck has {n} copies of {card}; at most two are allowed.", entry.quantity,
                     card=Name(entry.card.name)),
                cards=(entry.card.name,),
                lines=entry.lines,
                rule="904",
            )


def sideboard(deck: Deck) -> Iterator[Violation]:
    """903.5e: Commander has no sideboard; sideboard and maybeboard cards, unknown names
    included, are named and ignored."""
    unknown = [u for u in deck.unknown if u.section in SIDE_SECTIONS] if deck.unknown else None
    if deck.sideboard or unknown:
        count = sum(e.quantity for e in deck.sideboard)
        cards, lines = card_names(deck.sideboard), line_numbers(deck.sideboard)
        if unknown:
            count += sum(u.quantity for u in unknown)
            cards += tuple(sorted({u.name for u in unknown}))
            lines = line_numbers([*deck.sideboard, *unknown])
        yield Violation(
            Code.SIDEBOARD,
            nmsg("The list has {n} sideboard or maybeboard card; {format} has no sideboard, so it was ignored.",
                 "The list has {n} sideboard or maybeboard cards; {format} has no sideboard, so they were ignored.",
                 count, format=Term(deck_format(deck).name)),
            Severity.WARNING,
            cards=cards,
            lines=lines,
            rule="903.5e",
        )


def not_in_deck(deck: Deck) -> Iterator[Violation]:
    """Cards listed in a pile that is no part of the game (display commanders, tokens,
    Forge's avatar or dungeon piles...): named, so nothing is dropped silently. A display
    copy of the deck's own commander is that commander (a precon shows the card it is led
    by): no news."""
    unknown = [u for u in deck.unknown if u.section not in GAME_SECTIONS and u.section not in SIDE_SECTIONS]
    outside = deck.outside
    if deck.displayed:
        commanders = {e.card.name for e in deck.commanders}
        outside = (*outside, *(e for e in deck.displayed if e.card.name not in commanders))
    if outside or unknown:
        names = card_names(outside) + tuple(sorted({u.name for u in unknown}))
        count = sum(e.quantity for e in outside) + sum(u.quantity for u in unknown)
        if len(names) <= 10:
            text = nmsg("The list has {n} card in piles that are not part of the deck (a display commander, "
                        "tokens...), so it was ignored: {cards}.",
                        "The list has {n} cards in piles that are not part of the deck (a display commander, "
                        "tokens...), so they were ignored: {cards}.", count, cards=Names(names))
        else:
            text = nmsg("The list has {n} card in piles that are not part of the deck (a display commander, "
                        "tokens...), so it was ignored.",
                        "The list has {n} cards in piles that are not part of the deck (a display commander, "
                        "tokens...), so they were ignored.", count)
        yield Violation(
            Code.NOT_IN_DECK,
            text,
            Severity.WARNING,
            cards=names,
            lines=line_numbers([*outside, *unknown]),
        )
