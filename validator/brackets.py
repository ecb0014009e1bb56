"""Commander Brackets: the lowest bracket a card list allows, why, and what a declared bracket forbids.

Pure functions over the assembled Deck (DESIGN.md, "Commander Brackets"). Game Changers
come from each card's Scryfall `game_changer` flag and extra-turn cards from Oracle text;
mass land denial and two-card combos come from lists the caller hands in (`BracketData`),
because neither can be read off a card. A list whose data was not given is None, never
empty, and a reason says the check was not made. The minimum never says 5: cEDH is intent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Iterable, Iterator, Mapping, cast, final

from validator.deck import Card
from validator.deck_facts import Deck, tally
from validator.messages import Names, Pairs, Term, Text, msg, nmsg
from validator.violations import Code, Violation

BRACKETS = range(1, 6)
BRACKET_NAMES = {1: Term("Exhibition"), 2: Term("Core"), 3: Term("Upgraded"), 4: Term("Optimized"), 5: Term("cEDH")}
# Commander Brackets as updated 2026-02-09 (RULES.md 5.4 and 10).
MAX_GAME_CHANGERS_IN_3 = 3

@dataclass(frozen=True, slots=True)
class Combo:
    """Two cards that combo (canonical names); `fast` when the combo data itself flags it."""

    cards: tuple[str, str]
    fast: bool = False


# A card's combo partners in the data: (other card, fast), one per combo
Partners = tuple[tuple[str, bool], ...]


def _index(denial: frozenset[str] | None, combos: Iterable[Combo]) -> dict[str, tuple[bool, Partners]]:
    """card name -> (mass land denial?, ((other card, fast), ...)): one look-up per deck card.

    Each unordered pair counts once, fast if any source says so.
    """
    pairs: dict[frozenset[str], bool] = {}
    for combo in combos:
        first, second = combo.cards
        if first == second:  # one card twice: never both in a singleton deck
            continue
        key = frozenset((first, second))
        pairs[key] = pairs.get(key, False) or combo.fast
    partners: dict[str, list[tuple[str, bool]]] = {}
    for key, fast in pairs.items():
        first, second = sorted(key)
        partners.setdefault(first, []).append((second, fast))
        partners.setdefault(second, []).append((first, fast))
    denial = denial or frozenset()
    # a plain dict, not a MappingProxyType: the proxy doubles the cost of each look-up (the
    # engine benchmark); BracketData keeps it private, so it stays as built
    return {name: (name in denial, tuple(partners.get(name, ())))
            for name in (*denial, *partners)}


@dataclass(frozen=True)
class BracketData:
    """The lists the engine is given: mass land denial names and two-card combos (None: not loaded).

    Names are canonical card names. Build it once per data version and share it: the
    combo index is made here, so each evaluation costs one dictionary look-up per card.
    """

    mass_land_denial: frozenset[str] | None = None
    combos: tuple[Combo, ...] | None = None
    _by_card: Mapping[str, tuple[bool, Partners]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.mass_land_denial is not None:
            object.__setattr__(self, "mass_land_denial", frozenset(self.mass_land_denial))
        if self.combos is not None:
            object.__setattr__(self, "combos", tuple(self.combos))
        object.__setattr__(self, "_by_card", _index(self.mass_land_denial, self.combos or ()))

    def partners(self, name: str) -> tuple[tuple[str, bool], ...]:
        """(other card, fast) for every combo this card is half of."""
        return self._by_card.get(name, (False, ()))[1]


NO_DATA = BracketData()


@final
@dataclass(slots=True, init=False)
class Reason:
    """One step of the minimum: the bracket it sets (None: a check not made), why, and the
    cards. Built for every validation, its `__init__` is written out for the compiler (see
    validator.deck_facts.Deck)."""

    bracket: Final[int | None]
    text: Final[Text]
    cards: Final[tuple[str, ...]]

    def __init__(self, bracket: int | None, text: Text, cards: tuple[str, ...] = ()) -> None:
        self.bracket = bracket
        self.text = text
        self.cards = cards

    @property
    def message(self) -> str:
        """The reason in English."""
        return self.text.english()


@final
@dataclass(slots=True, init=False)
class Bracket:
    """The bracket block of a Report (DESIGN.md): lists are None when their data is not
    loaded. Its `__init__` is written out for the compiler (see Reason)."""

    minimum: Final[int]
    declared: Final[int | None]
    game_changers: Final[tuple[str, ...]]
    mass_land_denial: Final[tuple[str, ...] | None]
    extra_turns: Final[tuple[str, ...]]
    two_card_combos: Final[tuple[tuple[str, str], ...] | None]
    reasons: Final[tuple[Reason, ...]]
    fast_combos: Final[tuple[tuple[str, str], ...]]  # the combos flagged fast, also in two_card_combos

    def __init__(self, minimum: int, declared: int | None, game_changers: tuple[str, ...],
                 mass_land_denial: tuple[str, ...] | None, extra_turns: tuple[str, ...],
                 two_card_combos: tuple[tuple[str, str], ...] | None, reasons: tuple[Reason, ...],
                 fast_combos: tuple[tuple[str, str], ...] = ()) -> None:
        self.minimum = minimum
        self.declared = declared
        self.game_changers = game_changers
        self.mass_land_denial = mass_land_denial
        self.extra_turns = extra_turns
        self.two_card_combos = two_card_combos
        self.reasons = reasons
        self.fast_combos = fast_combos


def grants_extra_turn(card: Card) -> bool:
    """The card grants an extra turn (any face); cards that only stop or skip them do not
    (deck.EXTRA_TURN, read once per Card)."""
    return card.extra_turn


def card_flags(card: Card, data: BracketData = NO_DATA) -> dict[str, bool | None]:
    """What the bracket check sees in one card (None: the list is not loaded)."""
    return {
        "game_changer": card.game_changer,
        "extra_turn": grants_extra_turn(card),
        "mass_land_denial": None if data.mass_land_denial is None else card.name in data.mass_land_denial,
    }


def _scan(deck: Deck, data: BracketData) -> tuple[list[str], list[str], list[str] | None, dict[str, Partners]]:
    """The signals among the game's cards (commanders and main deck): Game Changers,
    extra-turn cards, mass land denial (None: no list), and each card's combo partners
    from the data.

    It runs on every validation, so it walks no deck: Game Changers and extra-turn cards
    are among the deck's notable entries (deck_facts.Tally), and the data's cards are
    looked up by the deck's names in C. A card listed twice (a singleton error elsewhere)
    is folded by the caller's sort.
    """
    counted = tally(deck)
    changers = [e.card.name for e in counted.notable if e.card.game_changer]
    extra_turns = [e.card.name for e in counted.notable if e.card.extra_turn]
    denial: list[str] = []
    partners: dict[str, Partners] = {}
    by_card = data._by_card
    listed = by_card.keys() & counted.names if by_card else ()  # the data's cards in the deck
    for name in listed:
        is_denial, others = by_card[name]
        if is_denial:
            denial.append(name)
        if others:
            partners[name] = others
    return changers, extra_turns, None if data.mass_land_denial is None else denial, partners


def _distinct(names: list[str]) -> list[str]:
    """Sorted, each name once."""
    return sorted(set(names)) if len(names) > 1 else names


def _combos_in(partners: Mapping[str, Partners]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(every combo with both cards in the deck, the fast ones), pairs in name order, sorted."""
    found: list[tuple[str, str]] = []
    fast: list[tuple[str, str]] = []
    for name, others in partners.items():
        for other, is_fast in others:
            if name < other and other in partners:
                found.append((name, other))
                if is_fast:
                    fast.append((name, other))
    found.sort()
    fast.sort()
    return found, fast


def _flat(pairs: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """The distinct cards of some pairs, sorted."""
    return tuple(sorted({name for pair in pairs for name in pair}))


def _reasons(
    game_changers: list[str], extra_turns: list[str], mass_land_denial: list[str] | None,
    combos: list[tuple[str, str]] | None, fast: list[tuple[str, str]],
) -> Iterator[Reason]:
    """One reason per signal that sets a floor, then one per check that could not be made."""
    if extra_turns:
        yield Reason(2, nmsg("{n} extra-turn card ({cards}): bracket 1 allows none.",
                             "{n} extra-turn cards ({cards}): bracket 1 allows none.",
                             len(extra_turns), cards=Names(extra_turns)), tuple(extra_turns))
    if game_changers:
        if len(game_changers) > MAX_GAME_CHANGERS_IN_3:
            yield Reason(4, nmsg("{n} Game Changer ({cards}): bracket 3 allows at most {most}.",
                                 "{n} Game Changers ({cards}): bracket 3 allows at most {most}.",
                                 len(game_changers), cards=Names(game_changers), most=MAX_GAME_CHANGERS_IN_3),
                         tuple(game_changers))
        else:
            yield Reason(3, nmsg("{n} Game Changer ({cards}): brackets 1 and 2 allow none.",
                                 "{n} Game Changers ({cards}): brackets 1 and 2 allow none.",
                                 len(game_changers), cards=Names(game_changers)), tuple(game_changers))
    slow = [pair for pair in combos or () if pair not in fast]
    if slow:
        yield Reason(3, nmsg("{n} two-card combo ({combos}): brackets 1 and 2 allow none.",
                             "{n} two-card combos ({combos}): brackets 1 and 2 allow none.",
                             len(slow), combos=Pairs(slow)), _flat(slow))
    if fast:
        yield Reason(4, nmsg("{n} two-card combo that Commander Spellbook flags as fast (bracket tag R) ({combos}): "
                             "bracket 3 allows no early-game two-card combo.",
                             "{n} two-card combos that Commander Spellbook flags as fast (bracket tag R) ({combos}): "
                             "bracket 3 allows no early-game two-card combo.",
                             len(fast), combos=Pairs(fast)), _flat(fast))
    if mass_land_denial:
        yield Reason(4, nmsg("{n} mass land denial card ({cards}): brackets 1 to 3 allow none.",
                             "{n} mass land denial cards ({cards}): brackets 1 to 3 allow none.",
                             len(mass_land_denial), cards=Names(mass_land_denial)), tuple(mass_land_denial))
    if mass_land_denial is None:
        yield MASS_LAND_DENIAL_NOT_CHECKED
    if combos is None:
        yield COMBOS_NOT_CHECKED


MASS_LAND_DENIAL_NOT_CHECKED = Reason(None, msg("Mass land denial was not checked: no mass land denial list is "
                                                 "loaded."))
COMBOS_NOT_CHECKED = Reason(None, msg("Two-card combos were not checked: no combo list is loaded."))
# The bracket-1 reason, by (mass land denial checked, combos checked): whole sentences.
NOTHING_FOUND = {
    (False, False): Reason(1, msg("No Game Changers or extra-turn cards in the deck.")),
    (True, False): Reason(1, msg("No Game Changers, extra-turn cards or mass land denial in the deck.")),
    (False, True): Reason(1, msg("No Game Changers, extra-turn cards or two-card combos in the deck.")),
    (True, True): Reason(1, msg("No Game Changers, extra-turn cards, mass land denial or two-card combos in the "
                                "deck.")),
}


def evaluate(deck: Deck, data: BracketData = NO_DATA, declared: object = None) -> Bracket:
    """The bracket block for a deck: every signal, the minimum bracket and one reason per step.
    A declared bracket that is not 1-5 (of any type: callers pass what they were given) is a ValueError."""
    if declared is not None and declared not in BRACKETS:
        raise ValueError(f"a declared bracket is 1 to 5, not {declared!r}")
    game_changers, extra_turns, mass_land_denial, partners = _scan(deck, data)
    game_changers, extra_turns = _distinct(game_changers), _distinct(extra_turns)
    if mass_land_denial is not None:
        mass_land_denial = _distinct(mass_land_denial)
    combos, fast = _combos_in(partners) if data.combos is not None else (None, [])
    reasons = tuple(_reasons(game_changers, extra_turns, mass_land_denial, combos, fast))
    minimum = max((reason.bracket for reason in reasons if reason.bracket is not None), default=1)
    if minimum == 1:
        reasons = (NOTHING_FOUND[mass_land_denial is not None, combos is not None], *reasons)
    return Bracket(
        minimum,
        cast("int | None", declared),  # one of BRACKETS or None
        tuple(game_changers),
        None if mass_land_denial is None else tuple(mass_land_denial),
        tuple(extra_turns),
        None if combos is None else tuple(combos),
        reasons,
        tuple(fast),
    )


def violations(bracket: Bracket) -> Iterator[Violation]:
    """The bracket_* errors: what the list breaks in the declared bracket (none when undeclared)."""
    declared = bracket.declared
    if declared is None:
        return
    name = BRACKET_NAMES[declared]
    changers = bracket.game_changers
    if changers and (declared <= 2 or (declared == 3 and len(changers) > MAX_GAME_CHANGERS_IN_3)):
        if declared <= 2:
            text = nmsg("Bracket {bracket} ({name}) allows no Game Changers; the deck has {n}: {cards}.",
                        "Bracket {bracket} ({name}) allows no Game Changers; the deck has {n}: {cards}.",
                        len(changers), bracket=declared, name=name, cards=Names(changers))
        else:
            text = nmsg("Bracket {bracket} ({name}) allows at most {most} Game Changers; the deck has {n}: {cards}.",
                        "Bracket {bracket} ({name}) allows at most {most} Game Changers; the deck has {n}: {cards}.",
                        len(changers), bracket=declared, name=name, most=MAX_GAME_CHANGERS_IN_3, cards=Names(changers))
        yield Violation(Code.BRACKET_GAME_CHANGERS, text, cards=changers)
    if bracket.mass_land_denial and declared <= 3:
        yield Violation(Code.BRACKET_MASS_LAND_DENIAL,
                        msg("Bracket {bracket} ({name}) allows no mass land denial; the deck has {cards}.",
                            bracket=declared, name=name, cards=Names(bracket.mass_land_denial)),
                        cards=bracket.mass_land_denial)
    if bracket.extra_turns and declared == 1:
        yield Violation(Code.BRACKET_EXTRA_TURNS,
                        msg("Bracket {bracket} ({name}) allows no extra-turn cards; the deck has {cards}.",
                            bracket=declared, name=name, cards=Names(bracket.extra_turns)),
                        cards=bracket.extra_turns)
    combos = bracket.two_card_combos or ()
    # Bracket 3 allows slow two-card combos but not the ones the combo data flags as fast
    # (they raise the minimum to 4): the same list cannot be legal there.
    breaking = list(combos) if declared <= 2 else list(bracket.fast_combos) if declared == 3 else []
    if breaking:
        if declared <= 2:
            text = msg("Bracket {bracket} ({name}) allows no two-card combos; the deck has {combos}.",
                       bracket=declared, name=name, combos=Pairs(breaking))
        else:
            text = msg("Bracket {bracket} ({name}) allows no early-game (fast) two-card combos; the deck has {combos}.",
                       bracket=declared, name=name, combos=Pairs(breaking))
        yield Violation(Code.BRACKET_TWO_CARD_COMBO, text, cards=_flat(breaking))
