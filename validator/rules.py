"""Every Commander deck-construction rule: one generator per rule, registered in RULES.

Each rule takes a resolved `Deck`, yields zero or more `Violation`s and never raises.
Card facts that need text parsing (pairing abilities, copy limits, companion and
activated abilities) are read from Oracle text with precompiled patterns and cached
per text, so validating the same cards again costs dictionary look-ups only.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Callable, Iterable, Iterator, NamedTuple

from validator.deck import WUBRG, Card, Deck, Entry, wubrg
from validator.violations import Code, Severity, Violation

Rule = Callable[[Deck], Iterable[Violation]]

# Lutri's companion-only ban: 2026-02-09 Commander B&R (RULES.md 5.2). Scryfall's
# legalities cannot express a role ban, so this one name is hard-coded here.
BANNED_AS_COMPANION = frozenset({"Lutri, the Spellchaser"})

# Scryfall layouts and front-face types that are never one of the 100 (RULES.md 6).
NON_DECK_LAYOUTS = {
    "planar": "a plane or phenomenon",
    "scheme": "a scheme",
    "vanguard": "a vanguard",
    "token": "a token",
    "double_faced_token": "a token",
    "emblem": "an emblem",
    "art_series": "an art card",
    "front_card": "a helper object (front card), not a game card",
}
NON_DECK_TYPES = {
    "Plane": "a plane",
    "Phenomenon": "a phenomenon",
    "Scheme": "a scheme",
    "Vanguard": "a vanguard",
    "Dungeon": "a dungeon",
    "Emblem": "an emblem",
    "Token": "a token",
}
# UnknownName.section values of the game; names listed elsewhere are only named as not played
GAME_SECTIONS = frozenset({"commander", "companion", "main", "planar", "schemes"})
SIDE_SECTIONS = frozenset({"sideboard", "maybeboard"})
DOUBLE_FACED_LAYOUTS = frozenset({"transform", "modal_dfc", "flip", "meld", "reversible_card"})
PERMANENT_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker"})
BASIC_LAND_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})
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
_SYMBOL = re.compile(r"\{([^}]+)\}")
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


def _is_creature_card(card: Card) -> bool:
    """A creature card outside the battlefield, including Grist-style CDAs."""
    return "Creature" in card.types or text_facts(card.front_text).creature_off_battlefield


def card_types(card: Card) -> frozenset[str]:
    """The card types a card has outside the battlefield, where deck rules look at it: the
    front face's, plus creature for a Grist-style characteristic-defining ability (604.3)."""
    if "Creature" not in card.types and text_facts(card.front_text).creature_off_battlefield:
        return card.types | {"Creature"}
    return card.types


def _describe_type(card: Card) -> str:
    """The front face's type line for messages, falling back to the card types."""
    return card.type_line or " ".join(sorted(card.supertypes) + sorted(card.types)) or "card"


# Card objects are frozen, so an answer keyed by identity stays right while the object
# lives; the cache holds the card itself so its id cannot be reused, and is bounded.
_ELIGIBILITY: dict[int, tuple[Card, str | None]] = {}


def commander_eligibility(card: Card) -> str | None:
    """None when the card can be a commander on its own (903.3), else why it can't."""
    hit = _ELIGIBILITY.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    if len(_ELIGIBILITY) >= 4096:
        _ELIGIBILITY.clear()
    reason = _eligibility(card)
    _ELIGIBILITY[id(card)] = (card, reason)
    return reason


def _eligibility(card: Card) -> str | None:
    """commander_eligibility without the cache."""
    name = card.name
    kind = non_deck_kind(card)
    if kind:  # a meld result or a token is legendary and a creature, but no card of a deck
        return f"{name} is {kind}, not a card a deck can hold, so it can't be your commander."
    if text_facts(card.front_text).can_be_commander:
        return None
    legendary = "Legendary" in card.supertypes
    if legendary and (_is_creature_card(card) or "Vehicle" in card.subtypes):
        return None
    if legendary and "Spacecraft" in card.subtypes:
        if card.has_power_toughness:
            return None
        return f"{name} is a Spacecraft without a power/toughness box, so it can't be your commander."
    if legendary and is_background(card):
        return f"{name} is a Background; it can be a commander only beside a commander with Choose a Background."
    if "Planeswalker" in card.types:
        return f"{name} is a planeswalker without \"can be your commander\", so it can't be your commander."
    if " // " in name and card.layout in DOUBLE_FACED_LAYOUTS:
        # a double-faced card outside the game has only its front face (RULES.md 1.1)
        return (
            f"{name}'s front face is a {_describe_type(card)}, not a legendary creature, Vehicle "
            "or Spacecraft, so it can't be your commander."
        )
    if not legendary:
        return f"{name} is not legendary, so it can't be your commander."
    return (
        f"{name} is a {_describe_type(card)}, not a creature, Vehicle or Spacecraft, "
        "so it can't be your commander."
    )


def can_pair(first: Card, second: Card) -> bool:
    """702.124h-m: the two cards may be commanders together (one shared pairing ability)."""
    return _pair_ok(first, second)


def _pair_ok(first: Card, second: Card) -> bool:
    """702.124h-m: the two cards share one pairing ability (different abilities never combine)."""
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


def non_deck_kind(card: Card) -> str | None:
    """What makes the card no deck card ("a plane", "a meld result"...), or None."""
    if card.is_meld_result:
        return "a meld result"
    kind = NON_DECK_LAYOUTS.get(card.layout)
    if kind:
        return kind
    for card_type in card.types | card.supertypes:
        kind = NON_DECK_TYPES.get(card_type)
        if kind:
            return kind
    if "Attraction" in card.subtypes:
        return "an Attraction"
    return None


# --- deck-level helpers ------------------------------------------------------------


def card_count(deck: Deck) -> int:
    """Cards in the deck: commanders, main deck and unknown names there (903.5a)."""
    # list comprehensions: this runs on every deck, and they are the fastest loop Python has
    total = sum([e.quantity for e in deck.commanders]) + sum([e.quantity for e in deck.main])
    if deck.unknown:
        total += sum([u.quantity for u in deck.unknown if u.section in ("main", "commander")])
    return total


def commander_identity(deck: Deck) -> frozenset[str]:
    """Union of every designated commander's identity plus valid chosen colors (702.124c, 903.4b)."""
    colors = set()
    for entry in deck.commanders:
        colors |= entry.card.color_identity
        choice = deck.color_choices.get(entry.card.name)
        if choice in _LETTERS and chooses_color(entry.card):
            colors.add(choice)
    return frozenset(colors)


_LETTERS = frozenset(WUBRG)


def _unchosen(deck: Deck) -> list[Card]:
    """Color-choosing commanders (903.4b) without a valid choice in the request."""
    return [
        e.card
        for e in deck.commanders
        if chooses_color(e.card) and deck.color_choices.get(e.card.name) not in _LETTERS
    ]


def _identity_entries(deck: Deck) -> list[Entry]:
    """Entries whose identity must fit: the main deck and the companion (903.5c, 903.11a)."""
    return [*deck.main, deck.companion] if deck.companion else list(deck.main)


def _assumed_colors(deck: Deck, base: frozenset[str], wildcards: int) -> frozenset[str]:
    """The colors an unchosen color-choosing commander is assumed to be: the most needed ones."""
    needed = Counter()
    for entry in _identity_entries(deck):
        for color in entry.card.color_identity - base:
            needed[color] += entry.quantity
    ranked = sorted(needed, key=lambda c: (-needed[c], WUBRG.index(c)))
    return frozenset(ranked[:wildcards])


def _colors(colors: Iterable[str]) -> str:
    """WUBRG letters for messages, or "colorless"."""
    return "".join(wubrg(colors)) or "colorless"


def _names(entries: Iterable[Entry]) -> tuple[str, ...]:
    """Sorted distinct card names."""
    return tuple(sorted({e.card.name for e in entries}))


def _lines(entries: Iterable) -> tuple[int, ...]:
    """Sorted line numbers of entries."""
    return tuple(sorted({line for e in entries for line in e.lines}))


def _and(names: Iterable[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _commander_word(deck: Deck) -> str:
    """"commander's" or "commanders'" for messages."""
    return "commanders'" if len(deck.commanders) > 1 else "commander's"


def _designated(deck: Deck) -> int:
    """Commanders designated, resolved or not."""
    return len(deck.commanders) + sum(1 for u in deck.unknown if u.section == "commander")


# --- the rules ---------------------------------------------------------------------


def unknown_card(deck: Deck) -> Iterator[Violation]:
    """A name in the deck that resolves to no card: one violation per distinct name."""
    by_name: dict[str, list] = {}
    for unknown in deck.unknown:
        if unknown.section in GAME_SECTIONS:  # elsewhere: named by sideboard / not_in_deck
            by_name.setdefault(unknown.name, []).append(unknown)
    for name, entries in by_name.items():
        suggestions = next((u.suggestions for u in entries if u.suggestions), ())[:3]
        hint = f" Did you mean {_or(suggestions)}?" if suggestions else ""
        yield Violation(
            Code.UNKNOWN_CARD,
            f"No card is named \"{name}\".{hint}",
            cards=(name,),
            lines=_lines(entries),
            suggestions=suggestions,
        )


def _or(names: tuple[str, ...]) -> str:
    """"A", "A or B", "A, B or C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def commander_missing(deck: Deck) -> Iterator[Violation]:
    """903.3: a Commander deck needs a designated commander."""
    if not _designated(deck):
        yield Violation(
            Code.COMMANDER_MISSING,
            "No commander is designated; mark one in the list (a Commander header above it, *CMDR* "
            "after it, or a COMMANDER: line) or name it in the request (commanders; --commander in the CLI).",
            rule="903.3",
        )


def invalid_quantity(deck: Deck) -> Iterator[Violation]:
    """A commander or companion line asks for more than one copy of the card."""
    zone = [(e, "commander") for e in deck.commanders]
    if deck.companion:
        zone.append((deck.companion, "companion"))
    for entry, role in zone:
        if entry.quantity > 1:
            yield Violation(
                Code.INVALID_QUANTITY,
                f"{entry.card.name} is listed {entry.quantity} times as {role}; a {role} is one card.",
                cards=(entry.card.name,),
                lines=entry.lines,
                rule="903.3" if role == "commander" else "702.139a",
            )


def too_many_commanders(deck: Deck) -> Iterator[Violation]:
    """702.124g: never more than two commanders."""
    count = _designated(deck)
    if count > 2:
        yield Violation(
            Code.TOO_MANY_COMMANDERS,
            f"The deck has {count} commanders ({_and(_names(deck.commanders) or ('unknown',))}); "
            "at most two are allowed.",
            cards=_names(deck.commanders),
            lines=_lines(deck.commanders),
            rule="702.124g",
        )


def commander_ineligible(deck: Deck) -> Iterator[Violation]:
    """903.3, 702.124k: each commander can be one (a Background only beside Choose a Background)."""
    if _designated(deck) > 2:
        return  # too_many_commanders alone (DESIGN.md)
    paired = _designated(deck) == 2
    for entry in deck.commanders:
        reason = commander_eligibility(entry.card)
        if reason is None or (paired and is_background(entry.card)):
            continue  # a Background beside another commander is judged by partner_pairing
        if is_non_deck(entry.card):
            continue  # non_deck_card alone (DESIGN.md: it is judged by nothing else)
        yield Violation(
            Code.COMMANDER_INELIGIBLE,
            reason,
            cards=(entry.card.name,),
            lines=entry.lines,
            rule="702.124k" if is_background(entry.card) else "903.3",
        )


def partner_pairing(deck: Deck) -> Iterator[Violation]:
    """702.124: two commanders must share one pairing ability."""
    if len(deck.commanders) != 2 or _designated(deck) != 2:
        return
    first, second = (e.card for e in deck.commanders)
    for card in (first, second):
        if commander_eligibility(card) is not None and not is_background(card):
            return  # commander_ineligible already says why
    if first.name == second.name:
        message = f"{first.name} is designated twice; the two commanders must be different cards."
    elif _pair_ok(first, second):
        return
    else:
        message = (
            f"{first.name} and {second.name} can't be commanders together: "
            f"{_pairing_summary(first)} and {_pairing_summary(second)}."
        )
    yield Violation(
        Code.PARTNER_PAIRING,
        message,
        cards=tuple(sorted({first.name, second.name})),
        lines=_lines(deck.commanders),
        rule="702.124",
    )


def _pairing_summary(card: Card) -> str:
    """"X has Partner" / "X is a Background" / "X has no pairing ability" for messages."""
    abilities = pairing_abilities(card)
    if abilities:
        return f"{card.name} has {_and(abilities)}"
    if is_background(card):
        return f"{card.name} is a Background"
    if is_doctor(card):
        return f"{card.name} is a Doctor"
    return f"{card.name} has no pairing ability"


def deck_size(deck: Deck) -> Iterator[Violation]:
    """903.5a: exactly 100 cards, commanders included, companion excluded."""
    size = card_count(deck)
    if size != 100:
        yield Violation(
            Code.DECK_SIZE,
            f"The deck has {size} card{'s' * (size != 1)}; a Commander deck has exactly 100, commanders included "
            "and companion excluded.",
            rule="903.5a",
        )


def singleton(deck: Deck) -> Iterator[Violation]:
    """903.5b: one copy of each card but basic lands, unless its own text allows more."""
    # 903.11a: the companion may not share a name with a card in the deck either
    zone = [*deck.commanders, *deck.main, deck.companion] if deck.companion else [*deck.commanders, *deck.main]
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
        allowed = "one copy" if limit == 1 else f"up to {limit} copies"
        yield Violation(
            Code.SINGLETON,
            f"{name} appears {count} times{_where(name, deck)}; the deck may have {allowed}.",
            cards=(name,),
            lines=_lines(entries),
            rule="903.5b",
        )


def _non_deck_name(name: str, zone: list[Entry]) -> bool:
    """The named card is no deck card (non_deck_card alone judges it)."""
    return any(e.card.name == name and is_non_deck(e.card) for e in zone)


def _where(name: str, deck: Deck) -> str:
    """" (commander included)" when a commander's name repeats in the deck, for messages."""
    if any(e.card.name == name for e in deck.commanders):
        return " (commander included)"
    if deck.companion and deck.companion.card.name == name:
        return " (companion included)"
    return ""


def color_identity(deck: Deck) -> Iterator[Violation]:
    """903.5c-d: every card, companion included, fits the commanders' combined identity."""
    if not deck.commanders:
        return  # no identity to compare against; commander_missing says why
    base = commander_identity(deck)
    wildcards = len(_unchosen(deck))
    allowed = base | _assumed_colors(deck, base, wildcards) if wildcards else base
    outside = [e for e in _identity_entries(deck) if not e.card.color_identity <= allowed]
    for entry in outside:
        if is_non_deck(entry.card):
            continue  # non_deck_card alone (DESIGN.md)
        yield Violation(
            Code.COLOR_IDENTITY,
            f"{entry.card.name} ({_colors(entry.card.color_identity)}) is outside the "
            f"{_commander_word(deck)} color identity ({_colors(allowed)}).",
            cards=(entry.card.name,),
            lines=entry.lines,
            rule="903.5c",
        )


def color_choice(deck: Deck) -> Iterator[Violation]:
    """903.4b: color choices name a color-choosing commander and one WUBRG letter; warn if missing."""
    commanders = {e.card.name: e for e in deck.commanders}
    for name, letter in deck.color_choices.items():
        entry = commanders.get(name)
        if entry is None or not chooses_color(entry.card):
            # a stray choice changes nothing about the deck: tell the client, don't fail the deck
            what = "is not a commander" if entry is None else "does not choose a color"
            yield Violation(
                Code.COLOR_CHOICE,
                f"A color was chosen for {name}, but {name} {what}; the choice was ignored.",
                Severity.WARNING,
                cards=(name,),
                rule="903.4b",
            )
        elif letter not in _LETTERS:
            yield Violation(
                Code.COLOR_CHOICE,
                f"The color chosen for {name} ({letter!r}) is not one of W, U, B, R or G.",
                cards=(name,),
                lines=entry.lines,
                rule="903.4b",
            )
    unchosen = _unchosen(deck)
    if unchosen:
        base = commander_identity(deck)
        assumed = _assumed_colors(deck, base, len(unchosen))
        extra = f"the deck's {_colors(assumed)} cards were allowed" if assumed else "no extra color was needed"
        yield Violation(
            Code.COLOR_CHOICE,
            f"{_and(c.name for c in unchosen)} chooses a color before the game, but no color was "
            f"given; one extra color per such commander is assumed and {extra}.",
            Severity.WARNING,
            cards=tuple(sorted(c.name for c in unchosen)),
            lines=_lines(e for e in deck.commanders if e.card in unchosen),
            rule="903.4b",
        )


def legality(deck: Deck) -> Iterator[Violation]:
    """One legality code per card, first match: non_deck_card, banned, not_legal."""
    zone = [*deck.commanders, *deck.main, deck.companion] if deck.companion else [*deck.commanders, *deck.main]
    # a cheap screen first: almost every card is a legal, plain, traditional card
    suspects = [
        e
        for e in zone
        if (card := e.card).legality != "legal"
        or card.layout not in _PLAIN_LAYOUTS
        or not card.types.isdisjoint(_SUSPECT_TYPES)
        or "Attraction" in card.subtypes
    ]
    for entry in suspects:
        violation = _legality_of(entry)
        if violation:
            yield violation


_SUSPECT_TYPES = frozenset(NON_DECK_TYPES) | {"Conspiracy"}
# Layouts of ordinary deck cards; anything else (meld, token, planar, unknown new layouts)
# takes the careful path. Token/Emblem supertypes come with token/emblem layouts.
_PLAIN_LAYOUTS = frozenset({
    "normal", "split", "flip", "transform", "modal_dfc", "leveler", "class", "case", "saga",
    "adventure", "mutate", "prototype", "battle", "host", "augment", "reversible_card",
})


def is_non_deck(card: Card) -> bool:
    """non_deck_kind(card) is not None, after legality's cheap screen (most cards pass it)."""
    if card.layout in _PLAIN_LAYOUTS and card.types.isdisjoint(_SUSPECT_TYPES) and "Attraction" not in card.subtypes:
        return False
    return non_deck_kind(card) is not None


def _legality_of(entry: Entry) -> Violation | None:
    """The first legality problem of one entry, or None."""
    card = entry.card
    kind = non_deck_kind(card)
    if kind:
        return Violation(
            Code.NON_DECK_CARD,
            f"{card.name} is {kind}, not a card for the deck.",
            cards=(card.name,),
            lines=entry.lines,
        )
    if card.legality == "banned" or "Conspiracy" in card.types:
        return Violation(
            Code.BANNED, f"{card.name} is banned in Commander.", cards=(card.name,), lines=entry.lines
        )
    if card.legality not in ("legal", "restricted"):
        return Violation(
            Code.NOT_LEGAL,
            f"{card.name} is not legal in Commander.",
            cards=(card.name,),
            lines=entry.lines,
        )
    return None


def companion_ineligible(deck: Deck) -> Iterator[Violation]:
    """702.139: the companion has Companion and is not banned as a companion (Lutri); and
    only one card is the companion (702.139a: you reveal one)."""
    if deck.extra_companions:
        first = deck.companion.card.name if deck.companion else "another card"
        extra = _names(deck.extra_companions)
        yield Violation(
            Code.COMPANION_INELIGIBLE,
            f"{_and(extra)} {'is' if len(extra) == 1 else 'are'} also declared as companion, but only one card "
            f"can be your companion; {first} was taken.",
            cards=extra,
            lines=_lines(deck.extra_companions),
            rule="702.139a",
        )
    if deck.companion is None or is_non_deck(deck.companion.card):
        return  # a non-deck companion is non_deck_card alone (DESIGN.md)
    card = deck.companion.card
    if not has_companion(card):
        reason = "has no Companion ability"
    elif card.name in BANNED_AS_COMPANION:
        reason = "is banned as a companion in Commander (it is legal in the deck)"
    else:
        return
    yield Violation(
        Code.COMPANION_INELIGIBLE,
        f"{card.name} {reason}, so it can't be your companion.",
        cards=(card.name,),
        lines=deck.companion.lines,
        rule="702.139",
    )


def every_creature_type(card: Card) -> bool:
    """Changeling, or its own text says it is every creature type (Mistform Ultimus)."""
    if text_facts(card.front_text).changeling:
        return True
    own = f"{card.name.split(' // ')[0]} is every creature type".casefold()
    return any(line.casefold().startswith(own) for line in rules_lines(card.front_text))


def has_companion(card: Card) -> bool:
    """The card has a Companion ability line (702.139a)."""
    return text_facts(card.front_text).companion


def companion_condition(deck: Deck) -> Iterator[Violation]:
    """702.139a-b: the starting deck, commanders included, meets the companion's condition."""
    if deck.companion is None or not has_companion(deck.companion.card):
        return
    card = deck.companion.card
    condition = COMPANION_CONDITIONS.get(card.name)
    if condition is None or is_non_deck(card):
        return  # a companion we can't read yet: say nothing rather than guess
    starting = [*deck.commanders, *deck.main]
    failed = condition(starting)
    if failed is None:
        return
    # a non-deck card is non_deck_card alone: judge the deck again without any (rare, so
    # only on this path; leaving cards out never breaks a condition that held)
    playable = [e for e in starting if not is_non_deck(e.card)]
    if len(playable) != len(starting):
        failed = condition(playable)
        if failed is None:
            return
    offenders, why = failed
    listed = f": {_and(_names(offenders))}" if offenders and len(offenders) <= 10 else ""
    count = f" ({len(_names(offenders))} cards)" if len(offenders) > 10 else ""
    yield Violation(
        Code.COMPANION_CONDITION,
        f"The deck does not meet {card.name}'s companion condition, {why}{count}{listed}.",
        cards=_names(offenders),
        lines=_lines(offenders),
        rule="702.139a",
    )


# --- the ten companion conditions (702.139a; RULES.md 4) ---------------------------
# Each takes the starting deck's entries and returns None when met, else (offenders, why).

Failure = tuple[list[Entry], str] | None


def _front_cost(card: Card) -> str:
    """The mana cost that counts outside the game: both halves of a split card, else the front."""
    cost = card.mana_cost
    if " // " not in cost:
        return cost
    return cost.replace(" // ", "") if card.layout == "split" else cost.split(" // ")[0]


def _failing(entries: list[Entry], bad: Callable[[Card], bool], why: str) -> Failure:
    """(the entries whose card is bad, why) or None when there are none."""
    offenders = [e for e in entries if bad(e.card)]
    return (offenders, why) if offenders else None


def gyruda(entries: list[Entry]) -> Failure:
    """Gyruda: only cards with even mana value."""
    return _failing(entries, lambda c: int(c.mana_value) % 2, "only cards with even mana value")


def jegantha(entries: list[Entry]) -> Failure:
    """Jegantha: no card with more than one of the same mana symbol in its cost."""

    # decks repeat costs ({1}{G}, {2}{U}...): judge each distinct cost once
    bad = {cost for cost in {e.card.mana_cost for e in entries} if _repeats_symbol(cost)}
    return _failing(
        entries,
        lambda c: c.mana_cost in bad and _repeats_symbol(_front_cost(c)),
        "no card with more than one of the same mana symbol in its cost",
    )


@lru_cache(maxsize=16384)
def _repeats_symbol(cost: str) -> bool:
    """The cost holds some mana symbol twice ("{U}{U}", "{R/G}{R/G}", "{X}{X}")."""
    symbols = _SYMBOL.findall(cost)
    return len(symbols) != len(set(symbols))


def kaheera(entries: list[Entry]) -> Failure:
    """Kaheera: each creature card is a Cat, Elemental, Nightmare, Dinosaur or Beast."""
    kinds = {"Cat", "Elemental", "Nightmare", "Dinosaur", "Beast"}

    def bad(card: Card) -> bool:
        # Grist is an Insect creature card in the deck (its CDA works outside the battlefield)
        if not _is_creature_card(card) or card.subtypes & kinds:
            return False
        return not every_creature_type(card)

    return _failing(entries, bad, "each creature card a Cat, Elemental, Nightmare, Dinosaur or Beast")


def keruga(entries: list[Entry]) -> Failure:
    """Keruga: only cards with mana value 3 or greater, and lands."""
    return _failing(
        entries, lambda c: c.mana_value < 3 and "Land" not in card_types(c), "only lands and mana value 3 or more"
    )


def lurrus(entries: list[Entry]) -> Failure:
    """Lurrus: each permanent card has mana value 2 or less."""
    return _failing(
        entries,
        lambda c: c.mana_value > 2 and bool(card_types(c) & PERMANENT_TYPES),
        "each permanent card of mana value 2 or less",
    )


def lutri(entries: list[Entry]) -> Failure:
    """Lutri: each nonland card has a different name."""
    counts = Counter()
    for entry in entries:
        if "Land" not in card_types(entry.card):
            counts[entry.card.name] += entry.quantity
    return _failing(entries, lambda c: counts[c.name] > 1, "each nonland card with a different name")


def obosh(entries: list[Entry]) -> Failure:
    """Obosh: only cards with odd mana value, and lands."""
    return _failing(
        entries,
        lambda c: int(c.mana_value) % 2 == 0 and "Land" not in card_types(c),
        "only lands and odd mana value",
    )


def umori(entries: list[Entry]) -> Failure:
    """Umori: each nonland card shares a card type; offenders miss the most common one.
    Types as outside the battlefield (card_types: Grist is a creature card there)."""
    nonland = [e for e in entries if "Land" not in card_types(e.card)]
    types = Counter(t for e in nonland for t in card_types(e.card))
    if not types:
        return None
    shared = max(sorted(types), key=lambda t: types[t])
    why = f"each nonland card sharing a card type (these are not {shared} cards)"
    return _failing(nonland, lambda c: shared not in card_types(c), why)


YORION_SIZE = 120  # 20 over the minimum deck size, which is Commander's 100 (903.5a)


def yorion(entries: list[Entry]) -> Failure:
    """Yorion: 20 cards over the minimum deck size. A list that long meets it (deck_size
    alone is then wrong); a legal 100-card Commander deck never does."""
    if sum(e.quantity for e in entries) >= YORION_SIZE:
        return None
    return [], (f"a starting deck of at least {YORION_SIZE} cards (20 over the minimum), "
                "which a Commander deck of exactly 100 cards never meets")


def zirda(entries: list[Entry]) -> Failure:
    """Zirda: each permanent card has an activated ability."""
    return _failing(
        entries,
        lambda c: bool(card_types(c) & PERMANENT_TYPES) and not has_activated_ability(c),
        "each permanent card with an activated ability",
    )


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


COMPANION_CONDITIONS: dict[str, Callable[[list[Entry]], Failure]] = {
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


def planar_deck(deck: Deck) -> Iterator[Violation]:
    """901: a planar deck has at least 10 cards, only planes and phenomena, no duplicate names, at most two phenomena."""
    # unknown names listed there still count, so one typo is unknown_card alone (as for the 100)
    unknown = sum(u.quantity for u in deck.unknown if u.section == "planar")
    if not deck.planar and not unknown:
        return
    problems = []
    total = sum(e.quantity for e in deck.planar) + unknown
    if total < 10:
        problems.append(([], f"it has {total} cards; a planar deck needs at least 10"))
    others = [e for e in deck.planar if not e.card.types & {"Plane", "Phenomenon"}]
    if others:
        problems.append((others, f"{_and(_names(others))} {_is_are(others)} not a plane or phenomenon"))
    duplicates = [e for e in deck.planar if e.quantity > 1]
    if duplicates:
        problems.append((duplicates, f"{_and(_names(duplicates))} appear{'s' * (len(duplicates) == 1)} more than once"))
    phenomena = [e for e in deck.planar if "Phenomenon" in e.card.types]
    if sum(e.quantity for e in phenomena) > 2:
        problems.append((phenomena, "it has more than two phenomena"))
    for entries, why in problems:
        yield Violation(
            Code.PLANAR_DECK,
            f"The planar deck breaks Planechase rules: {why}.",
            cards=_names(entries),
            lines=_lines(entries),
            rule="901",
        )


SCHEME_DECK_MINIMUM = 20  # 904.3


def scheme_deck(deck: Deck) -> Iterator[Violation]:
    """904.3: a scheme deck holds at least twenty schemes, at most two copies of each."""
    size = sum(e.quantity for e in deck.schemes)
    if 0 < size < SCHEME_DECK_MINIMUM:
        yield Violation(
            Code.SCHEME_DECK,
            f"The scheme deck has {size} card{'s' * (size != 1)}; Archenemy needs at least {SCHEME_DECK_MINIMUM}.",
            lines=_lines(deck.schemes),
            rule="904.3",
        )
    others = [e for e in deck.schemes if "Scheme" not in e.card.types]
    if others:
        yield Violation(
            Code.SCHEME_DECK,
            f"The scheme deck holds {_and(_names(others))}, which {_is_are(others)} not a scheme.",
            cards=_names(others),
            lines=_lines(others),
            rule="904",
        )
    for entry in deck.schemes:
        if entry.quantity > 2 and "Scheme" in entry.card.types:
            yield Violation(
                Code.SCHEME_DECK,
                f"The scheme deck has {entry.quantity} copies of {entry.card.name}; at most two are allowed.",
                cards=(entry.card.name,),
                lines=entry.lines,
                rule="904",
            )


def _is_are(entries: list) -> str:
    """"is" for one distinct card, "are" for more."""
    return "is" if len(_names(entries)) == 1 else "are"


def sideboard(deck: Deck) -> Iterator[Violation]:
    """903.5e: Commander has no sideboard; sideboard and maybeboard cards, unknown names
    included, are named and ignored."""
    unknown = [u for u in deck.unknown if u.section in SIDE_SECTIONS] if deck.unknown else None
    if deck.sideboard or unknown:
        count = sum(e.quantity for e in deck.sideboard)
        cards, lines = _names(deck.sideboard), _lines(deck.sideboard)
        if unknown:
            count += sum(u.quantity for u in unknown)
            cards += tuple(sorted({u.name for u in unknown}))
            lines = _lines([*deck.sideboard, *unknown])
        yield Violation(
            Code.SIDEBOARD,
            f"The list has {count} sideboard or maybeboard card{'s' * (count != 1)}; Commander has "
            "no sideboard, so they were ignored.",
            Severity.WARNING,
            cards=cards,
            lines=lines,
            rule="903.5e",
        )


def not_in_deck(deck: Deck) -> Iterator[Violation]:
    """Cards listed in a pile that is no part of the game (display commanders, tokens,
    Forge's avatar or dungeon piles...): named, so nothing is dropped silently."""
    unknown = [u for u in deck.unknown if u.section not in GAME_SECTIONS and u.section not in SIDE_SECTIONS]
    if deck.outside or unknown:
        names = _names(deck.outside) + tuple(sorted({u.name for u in unknown}))
        count = sum(e.quantity for e in deck.outside) + sum(u.quantity for u in unknown)
        listed = f": {_and(names)}" if len(names) <= 10 else ""
        yield Violation(
            Code.NOT_IN_DECK,
            f"The list has {count} card{'s' * (count != 1)} in piles that are not part of the deck (a "
            f"display commander, tokens...), so {'it was' if count == 1 else 'they were'} ignored{listed}.",
            Severity.WARNING,
            cards=names,
            lines=_lines([*deck.outside, *unknown]),
        )


RULES: tuple[Rule, ...] = (
    unknown_card,
    commander_missing,
    invalid_quantity,
    too_many_commanders,
    commander_ineligible,
    partner_pairing,
    deck_size,
    singleton,
    color_identity,
    color_choice,
    legality,
    companion_ineligible,
    companion_condition,
    planar_deck,
    scheme_deck,
    sideboard,
    not_in_deck,
)
