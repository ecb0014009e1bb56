"""English for violation messages: lists of names ("A, B and C"), plurals, color
letters, what pairs a card, and the sorted names and line numbers a violation carries.
Pure string building: no rule is decided here."""

from __future__ import annotations

from typing import Iterable, Sequence

from validator.card_facts import is_background, is_doctor, pairing_abilities
from validator.deck import Card, Entry, wubrg
from validator.deck_facts import Deck, deck_format
from validator.violations import Violation


def color_text(colors: Iterable[str]) -> str:
    """WUBRG letters for messages, or "colorless"."""
    return "".join(wubrg(colors)) or "colorless"


def card_names(entries: Iterable[Entry]) -> tuple[str, ...]:
    """Sorted distinct card names."""
    return tuple(sorted({e.card.name for e in entries}))


def line_numbers(entries: Iterable) -> tuple[int, ...]:
    """Sorted line numbers of entries."""
    return tuple(sorted({line for e in entries for line in e.lines}))


def and_list(names: Iterable[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def or_list(names: tuple[str, ...]) -> str:
    """"A", "A or B", "A, B or C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def plural(count: int, noun: str) -> str:
    """"1 card", "2 cards": the count and the noun, with an "s" unless the count is one."""
    return f"{count} {noun}{'s' * (count != 1)}"


def is_are(entries: list) -> str:
    """"is" for one distinct card, "are" for more."""
    return "is" if len(card_names(entries)) == 1 else "are"


def commander_word(deck: Deck) -> str:
    """"commander's" or "commanders'" (an Oathbreaker deck's "oathbreaker's") for messages."""
    role = deck_format(deck).role
    return f"{role}s'" if len(deck.commanders) > 1 else f"{role}'s"


def pairing_summary(card: Card) -> str:
    """"X has Partner" / "X is a Background" / "X has no pairing ability" for messages."""
    abilities = pairing_abilities(card)
    if abilities:
        return f"{card.name} has {and_list(abilities)}"
    if is_background(card):
        return f"{card.name} is a Background"
    if is_doctor(card):
        return f"{card.name} is a Doctor"
    return f"{card.name} has no pairing ability"


def included_role(name: str, deck: Deck) -> str:
    """" (commander included)" when a commander's name repeats in the deck, for messages."""
    if any(e.card.name == name for e in deck.commanders):
        return f" ({deck_format(deck).role} included)"
    if any(e.card.name == name for e in deck.signature_spells):
        return " (signature spell included)"
    if deck.companion and deck.companion.card.name == name:
        return " (companion included)"
    return ""


def a_or_an(word: str) -> str:
    """"a Commander", "an Oathbreaker": the word with its indefinite article."""
    return f"{'an' if word[:1].upper() in 'AEIOU' else 'a'} {word}"


def about(entries: Sequence[Entry], code: str, message: str, rule: str | None) -> Violation:
    """An error naming the entries' cards and lines, sorted."""
    return Violation(code, message, cards=card_names(entries), lines=line_numbers(entries), rule=rule)
