"""What a card is, as deck construction sees it: card types outside the battlefield,
commander eligibility, pairing abilities, copy limits, companion and activated abilities,
and whether it is a card a deck can hold at all.

Facts that need text parsing are read from Oracle text with precompiled patterns and
cached per text, so validating the same cards again costs dictionary look-ups only.
Nothing here builds a violation: the rules (validator/rules.py) turn these answers into
violations, and the companion conditions (validator/companions.py) read them too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from validator.deck import Card
from validator.messages import Name, Term, Text, msg

# Scryfall layouts and front-face types that are never one of the 100 (RULES.md 6).
NON_DECK_LAYOUTS = {
    "planar": Term("a plane or phenomenon"),
    "scheme": Term("a scheme"),
    "vanguard": Term("a vanguard"),
    "token": Term("a token"),
    "double_faced_token": Term("a token"),
    "emblem": Term("an emblem"),
    "art_series": Term("an art card"),
    "front_card": Term("a helper object (front card)"),
}
NON_DECK_TYPES = {
    "Plane": Term("a plane"),
    "Phenomenon": Term("a phenomenon"),
    "Scheme": Term("a scheme"),
    "Vanguard": Term("a vanguard"),
    "Dungeon": Term("a dungeon"),
    "Emblem": Term("an emblem"),
    "Token": Term("a token"),
}
DOUBLE_FACED_LAYOUTS = frozenset({"transform", "modal_dfc", "flip", "meld", "reversible_card"})
PERMANENT_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker"})
BASIC_LAND_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})
# Basic land types and Wastes in messages (903.12e's chosen type, a `Forest: 9` total), as
# each language's cards print them.
LAND_TYPES = {
    "Plains": Term("Plains"), "Island": Term("Island"), "Swamp": Term("Swamp"), "Mountain": Term("Mountain"),
    "Forest": Term("Forest"), "Wastes": Term("Wastes"),
}
NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}

# --- Oracle text reading -----------------------------------------------------------

# 903.4c: reminder text is not rules text (extort's "{W/B}", partner's explanation).
_REMINDER = re.compile(r"\s*\([^()]*\)")
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
# One pairing ability per line, as Oracle prints them (702.124a); the em dash is U+2014.
_PAIRING_LINE = re.compile(
    r"^(?:(?P<plain>partner)"
    r"|partner\s*[—–-]\s*(?P<label>.+)"
    r"|partner with (?P<with>.+)"
    r"|(?P<friends>friends forever)"
    r"|(?P<background>choose a background)"
    r"|(?P<doctor>doctor['’]s companion))$",
    re.IGNORECASE,
)
_CAN_BE_COMMANDER = re.compile(r"\bcan be your commander\b", re.IGNORECASE)
# Grist-style characteristic-defining ability: a creature everywhere but the battlefield.
_CREATURE_OFF_BATTLEFIELD = re.compile(
    r"\bisn['’]t on the battlefield, (?:it['’]s|it is) an? [^.]*\bcreature\b", re.IGNORECASE
)
# 903.4b: "If ~ is your commander, choose a color before the game begins."
_CHOOSES_COLOR = re.compile(r"\bchoose a colou?r before the game begins\b", re.IGNORECASE)
_ANY_NUMBER = re.compile(r"^A deck can have any number of cards named (.+)\.$")
_UP_TO = re.compile(r"^A deck can have up to (\w+) cards named (.+)\.$")
_COMPANION_LINE = re.compile(r"^Companion\s*[—–-]")
# An activated ability is "cost: effect" (ability words like "Channel — {1}{G}, ...: " too);
# a cost never holds a sentence end, so "." before the colon means it is something else.
# Triggered abilities ("Whenever ..., choose one: ...") are not activated abilities.
# An ability word may lead ("Boast — {1}{R}: ...", "Throw ... — {3}, Unattach ...: ...").
_ACTIVATED = re.compile(r"^(?:[\w' .]+? — )?(?!(?:when|whenever|at|as|if)\b)[^.:]+:\s", re.IGNORECASE)
# Keyword abilities that are activated abilities, whose reminder text (the "cost: effect"
# part) was removed; morph, plot and foretell are special actions, not activated abilities.
_ACTIVATED_KEYWORDS = re.compile(
    r"^(?:equip|(?:basic )?\w*cycling|aura swap|crew|fortify|level up|outlast|scavenge|unearth|embalm|eternalize|"
    r"transmute|(?:commander )?ninjutsu|reconfigure|reinforce|bloodrush|forecast|encore|"
    r"station|transfigure|craft|saddle)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=16384)
def rules_lines(text: str) -> tuple[str, ...]:
    """The non-empty lines of Oracle text with reminder text removed (903.4c)."""
    lines = (_REMINDER.sub("", line).strip() for line in text.split("\n"))
    return tuple(line for line in lines if line)


class TextFacts(NamedTuple):
    """What one face's rules text says, read once per distinct text."""

    can_be_commander: bool  # 903.3a
    creature_off_battlefield: bool  # Grist's characteristic-defining ability
    chooses_color: bool  # 903.4b
    companion: bool  # 702.139a
    changeling: bool  # every creature type (Kaheera, Doctor's companion)


@lru_cache(maxsize=16384)
def text_facts(text: str) -> TextFacts:
    """Read a face's Oracle text once; the rules ask these questions of many cards many times."""
    lines = rules_lines(text)
    return TextFacts(
        can_be_commander=any(_CAN_BE_COMMANDER.search(line) for line in lines),
        creature_off_battlefield=any(_CREATURE_OFF_BATTLEFIELD.search(line) for line in lines),
        chooses_color=any(_CHOOSES_COLOR.search(line) for line in lines),
        companion=any(_COMPANION_LINE.match(line) for line in lines),
        changeling=any(line.lower().startswith("changeling") for line in lines),
    )


def face_names(card: Card) -> tuple[str, ...]:
    """The card's full name and each face name ("Fire // Ice" -> Fire, Ice)."""
    parts = card.name.split(" // ")
    return (card.name, *parts) if len(parts) > 1 else (card.name,)


@lru_cache(maxsize=4096)
def _pairing(front_text: str) -> tuple[tuple[str, str], ...]:
    """(kind, argument) for each pairing ability line of a front face's text."""
    found = []
    for line in rules_lines(front_text):
        match = _PAIRING_LINE.match(line)
        if not match:
            continue
        if match["plain"]:
            found.append(("partner", ""))
        elif match["label"]:
            found.append(("partner—", match["label"].strip()))
        elif match["with"]:
            found.append(("partner with", match["with"].strip()))
        elif match["friends"]:
            # the 2022 keyword is Oracle's "Partner—Friends forever" today (RULES.md 2)
            found.append(("partner—", "Friends forever"))
        elif match["background"]:
            found.append(("choose a background", ""))
        else:
            found.append(("doctor's companion", ""))
    return tuple(found)


def pairing_kinds(card: Card) -> tuple[tuple[str, str], ...]:
    """(kind, argument) of each pairing ability: ("partner", ""), ("partner—", "Survivors"),
    ("partner with", "Kraum, Ludevic's Opus"), ("choose a background", ""), ("doctor's companion", "")."""
    return _pairing(card.front_text)


def pairing_abilities(card: Card) -> tuple[str, ...]:
    """The card's pairing abilities as printed: "Partner", "Partner—Survivors", "Choose a Background"..."""
    names = {
        "partner": "Partner",
        "partner—": "Partner—{}",
        "partner with": "Partner with {}",
        "choose a background": "Choose a Background",
        "doctor's companion": "Doctor's companion",
    }
    return tuple(names[kind].format(arg) for kind, arg in _pairing(card.front_text))


def is_background(card: Card) -> bool:
    """A legendary Background enchantment: a commander only beside "Choose a Background" (702.124k)."""
    return (
        "Legendary" in card.supertypes and "Enchantment" in card.types and "Background" in card.subtypes
    )


def is_doctor(card: Card) -> bool:
    """A legendary Time Lord Doctor creature with no other creature types (702.124m)."""
    # card_data may keep "Time Lord" as one subtype or split it into two words
    subtypes = card.subtypes - {"Time Lord", "Time", "Lord"}
    return (
        "Legendary" in card.supertypes
        and "Creature" in card.types
        and subtypes == {"Doctor"}
        and bool(card.subtypes & {"Time Lord", "Time"})
        and not text_facts(card.front_text).changeling
    )


def chooses_color(card: Card) -> bool:
    """903.4b: the commander has its owner choose its color before the game."""
    return text_facts(card.front_text).chooses_color


def is_creature_card(card: Card) -> bool:
    """A creature card outside the battlefield, including Grist-style CDAs."""
    return "Creature" in card.types or text_facts(card.front_text).creature_off_battlefield


def card_types(card: Card) -> frozenset[str]:
    """The card types a card has outside the battlefield, where deck rules look at it: the
    front face's, plus creature for a Grist-style characteristic-defining ability (604.3)."""
    if "Creature" not in card.types and text_facts(card.front_text).creature_off_battlefield:
        return card.types | {"Creature"}
    return card.types


def describe_type(card: Card) -> str:
    """The front face's type line for messages (as the Oracle text writes it), falling back to
    the card types, else the word "card"."""
    return card.type_line or " ".join(sorted(card.supertypes) + sorted(card.types)) or Term("card")


# Card objects are frozen, so an answer keyed by identity stays right while the object
# lives; the cache holds the card itself so its id cannot be reused, and is bounded.
# One cache per reading: Commander's, and Brawl's, where legendary planeswalkers command.
_ELIGIBILITY: dict[int, tuple[Card, Text | None]] = {}
_BRAWL_ELIGIBILITY: dict[int, tuple[Card, Text | None]] = {}


def commander_eligibility(card: Card, *, planeswalkers: bool = False) -> Text | None:
    """None when the card can be a commander on its own (903.3), else why it can't.

    `planeswalkers`: a legendary planeswalker can be one too (Brawl, 903.12c).
    """
    cache = _BRAWL_ELIGIBILITY if planeswalkers else _ELIGIBILITY
    hit = cache.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    if len(cache) >= 4096:
        cache.clear()
    reason = _eligibility(card, planeswalkers)
    cache[id(card)] = (card, reason)
    return reason


def _eligibility(card: Card, planeswalkers: bool = False) -> Text | None:
    """commander_eligibility without the cache."""
    name = Name(card.name)
    kind = non_deck_kind(card)
    if kind:  # a meld result or a token is legendary and a creature, but no card of a deck
        return msg("{card} is {kind}, not a card a deck can hold, so it can't be your commander.", card=name, kind=kind)
    if text_facts(card.front_text).can_be_commander:
        return None
    legendary = "Legendary" in card.supertypes
    if legendary and (is_creature_card(card) or "Vehicle" in card.subtypes):
        return None
    if legendary and planeswalkers and "Planeswalker" in card.types:
        return None
    if legendary and "Spacecraft" in card.subtypes:
        if card.has_power_toughness:
            return None
        return msg("{card} is a Spacecraft without a power/toughness box, so it can't be your commander.", card=name)
    if legendary and is_background(card):
        return msg("{card} is a Background; it can be a commander only beside a commander with Choose a Background.",
                   card=name)
    if "Planeswalker" in card.types and not planeswalkers:
        return msg("{card} is a planeswalker without \"can be your commander\", so it can't be your commander.",
                   card=name)
    if " // " in name and card.layout in DOUBLE_FACED_LAYOUTS:
        # a double-faced card outside the game has only its front face (RULES.md 1.1)
        if planeswalkers:
            return msg("{card}'s front face is a {type}, not a legendary creature, planeswalker, Vehicle or "
                       "Spacecraft, so it can't be your commander.", card=name, type=describe_type(card))
        return msg("{card}'s front face is a {type}, not a legendary creature, Vehicle or Spacecraft, so it can't be "
                   "your commander.", card=name, type=describe_type(card))
    if not legendary:
        return msg("{card} is not legendary, so it can't be your commander.", card=name)
    if planeswalkers:
        return msg("{card} is a {type}, not a creature, planeswalker, Vehicle or Spacecraft, so it can't be your "
                   "commander.", card=name, type=describe_type(card))
    return msg("{card} is a {type}, not a creature, Vehicle or Spacecraft, so it can't be your commander.", card=name,
               type=describe_type(card))


def can_pair(first: Card, second: Card) -> bool:
    """702.124h-m: the two cards may be commanders together: they share one pairing ability
    (different abilities never combine)."""
    return _one_way_pair(first, second) or _one_way_pair(second, first)


def _names_card(name: str, card: Card) -> bool:
    """The name is the card's Oracle name or one of its face names, ignoring case."""
    folded = name.casefold()
    return any(folded == n.casefold() for n in face_names(card))


def _one_way_pair(card: Card, other: Card) -> bool:
    """`card`'s pairing abilities admit `other` as the second commander."""
    mine = _pairing(card.front_text)
    theirs = _pairing(other.front_text)
    for kind, arg in mine:
        if kind == "partner" and ("partner", "") in theirs:
            return True
        if kind == "partner—" and any(k == kind and a.casefold() == arg.casefold() for k, a in theirs):
            return True
        if kind == "partner with" and _names_card(arg, other):
            # 702.124j: each names the other
            if any(k == kind and _names_card(a, card) for k, a in theirs):
                return True
        if kind == "choose a background" and is_background(other):
            return True
        if kind == "doctor's companion" and is_doctor(other):
            return True
    return False


@lru_cache(maxsize=16384)
def _copy_limit(name: str, text: str) -> int | None:
    """A copy limit the card's own text sets ("any number" -> None, "up to seven" -> 7), else 1."""
    folded = name.casefold()
    for line in rules_lines(text):
        match = _ANY_NUMBER.match(line)
        if match and match[1].casefold() == folded:
            return None
        match = _UP_TO.match(line)
        if match and match[2].casefold() == folded:
            word = match[1].lower()
            return int(word) if word.isdigit() else NUMBER_WORDS.get(word, 1)
    return 1


def copy_limit(card: Card) -> int | None:
    """How many copies 903.5b allows: None for unlimited (basic lands, "any number")."""
    if "Basic" in card.supertypes:
        return None
    return _copy_limit(card.name, card.oracle_text)


def non_deck_kind(card: Card) -> Term | None:
    """What makes the card no deck card ("a plane", "a meld result"...), or None."""
    if card.is_meld_result:
        return Term("a meld result")
    kind = NON_DECK_LAYOUTS.get(card.layout)
    if kind:
        return kind
    for card_type in card.types | card.supertypes:
        kind = NON_DECK_TYPES.get(card_type)
        if kind:
            return kind
    if "Attraction" in card.subtypes:
        return Term("an Attraction")
    return None


# deck.PLAIN_LAYOUTS and deck.SUSPECT_TYPES (the non-deck types and Conspiracy) decide
# Card.plain, legality's cheap screen (tests check SUSPECT_TYPES against NON_DECK_TYPES).


def is_non_deck(card: Card) -> bool:
    """non_deck_kind(card) is not None, after legality's cheap screen (most cards pass it)."""
    if card.plain:
        return False
    return non_deck_kind(card) is not None


def every_creature_type(card: Card) -> bool:
    """Changeling, or its own text says it is every creature type (Mistform Ultimus)."""
    if text_facts(card.front_text).changeling:
        return True
    own = f"{card.name.split(' // ')[0]} is every creature type".casefold()
    return any(line.casefold().startswith(own) for line in rules_lines(card.front_text))


def has_companion(card: Card) -> bool:
    """The card has a Companion ability line (702.139a)."""
    return text_facts(card.front_text).companion


def has_activated_ability(card: Card) -> bool:
    """The card has an activated ability (basic land types grant mana abilities, 305.6)."""
    return bool(card.subtypes & BASIC_LAND_TYPES) or _activated(_outside_text(card))


def _outside_text(card: Card) -> str:
    """The text a card has outside the game: both halves of a split card, else the front face."""
    return card.oracle_text if card.layout == "split" else card.front_text


@lru_cache(maxsize=16384)
def _activated(text: str) -> bool:
    """Some line of the text is "cost: effect" or an activated keyword (equip, cycling...)."""
    for line in rules_lines(_QUOTED.sub("", text)):
        if _ACTIVATED.match(line):
            return True
        if any(_ACTIVATED_KEYWORDS.match(part) for part in line.split(", ")):
            return True
    return False


def basic_land_types(card: Card) -> frozenset[str]:
    """The basic land types of a basic land card (Snow-Covered Island: Island; Wastes:
    none); empty for any other card. 903.12e counts basics by these types."""
    if "Basic" not in card.supertypes or "Land" not in card.types:
        return frozenset()
    return card.subtypes & BASIC_LAND_TYPES


def is_instant_or_sorcery(card: Card) -> bool:
    """An instant or sorcery card outside the game (a split card by either half)."""
    return not card.types.isdisjoint(("Instant", "Sorcery"))
