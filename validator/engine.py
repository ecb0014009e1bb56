"""Run the rules: validate() a resolved Deck, or check() a parsed Decklist into a Report."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Collection, Final, Iterable, Mapping, Sequence, final

import validator.brackets as brackets  # the module itself: the package's __init__ imports this one
from validator.assemble import assemble, infer_commanders, named_designation
from validator.brackets import Bracket, BracketData
from validator.deck import Card, Entry, wubrg
from validator.card_facts import is_instant_or_sorcery
from validator.decklist import NOBODY, Decklist, Designation, Section
from validator.deck_facts import Deck, card_count, commander_identity, judged_in
from validator.formats import (
    COMMANDER, FORMATS, FieldNotInFormat, Format, FormatData, HouseRules, format_named, named_in_file,
)
from validator.overview import Overview, overview
from validator.messages import Name, Names, Term, msg, nmsg
from validator.rules import CODES_ONLY, DECK_RULES, FORMAT_RULES, RULES, Rule
from validator.violations import Code, Severity, Violation


class FormatStatus(StrEnum):
    """What the all-formats block says of one format: legal only when the data can judge it."""

    LEGAL = "legal"  # no error, and every card's legality in the format is known
    NOT_LEGAL = "not_legal"  # an error
    UNKNOWN = "unknown"  # no error, but legality_unknown: the card data cannot say


@final
@dataclass(slots=True, init=False)
class FormatVerdict:
    """One format's answer in the all-formats block: legal, not legal or unknown, and why
    (error codes). A record, built per format (see validator.deck_facts.Deck)."""

    valid: Final[bool]
    codes: Final[tuple[str, ...]]  # the distinct error codes, sorted
    status: Final[FormatStatus]

    def __init__(self, valid: bool, codes: tuple[str, ...], status: FormatStatus) -> None:
        self.valid = valid
        self.codes = codes
        self.status = status


@final
@dataclass(slots=True, init=False)
class Report:
    """The answer for one decklist: legal or not, the deck's key facts, and every violation.
    Its `__init__` is written out for the compiler (see Deck)."""

    valid: Final[bool]
    format: Final[str]  # the decklist syntax it was read as (the API's decklist_format)
    commanders: Final[tuple[str, ...]]  # canonical names of the resolved commanders
    companion: Final[str | None]
    color_identity: Final[tuple[str, ...]]  # WUBRG order, chosen colors (903.4b) included
    card_count: Final[int]  # commanders + main deck + unknown names there; companion excluded
    violations: Final[tuple[Violation, ...]]
    bracket: Final[Bracket | None]  # the Commander Brackets block (check() fills it in Commander)
    overview: Final[Overview | None]  # curve, colors, types, cards by type, images (check(with_overview=True))
    game_format: Final[str]  # the canonical key of the game format it was judged in
    # the game format's signature spells (Oathbreaker), canonical names
    signature_spells: Final[tuple[str, ...]]
    # every format's verdict, by key in FORMATS order (check(with_formats=True); else None)
    formats: Final[Mapping[str, FormatVerdict] | None]
    house_rules: Final[HouseRules | None]  # the table's own list it was judged under (None: none)

    def __init__(
        self,
        valid: bool,
        format: str,
        commanders: tuple[str, ...],
        companion: str | None,
        color_identity: tuple[str, ...],
        card_count: int,
        violations: tuple[Violation, ...],
        bracket: Bracket | None = None,
        overview: Overview | None = None,
        game_format: str = "commander",
        signature_spells: tuple[str, ...] = (),
        formats: Mapping[str, FormatVerdict] | None = None,
        house_rules: HouseRules | None = None,
    ) -> None:
        self.valid = valid
        self.format = format
        self.commanders = commanders
        self.companion = companion
        self.color_identity = color_identity
        self.card_count = card_count
        self.violations = violations
        self.bracket = bracket
        self.overview = overview
        self.game_format = game_format
        self.signature_spells = signature_spells
        self.formats = formats
        self.house_rules = house_rules


def validate(deck: Deck, rules: Iterable[Rule] = RULES) -> list[Violation]:
    """Run every rule and return every violation, sorted; never stop at the first problem."""
    found = [violation for rule in rules for violation in rule(deck)]
    found.sort(key=Violation.sort_key)
    return found


def check(
    decklist: Decklist,
    cards: Mapping[str, Card],
    suggestions: Mapping[str, Sequence[str]] | None = None,
    designation: Designation = NOBODY,
    *,
    bracket_data: BracketData | None = None,
    bracket: int | None = None,
    with_overview: bool = False,
    game_format: str | Format | None = None,
    format_data: FormatData | None = None,
    with_formats: bool = False,
    unavailable: Collection[str] = (),
    house_rules: HouseRules | None = None,
) -> Report:
    """Assemble the deck, validate it, and add the decklist's own problems into one Report.

    `designation` is who commands as the request says it (overriding the list's marks).
    Without designated commanders, a list that marks none gets one inferred from its layout where
    the cards allow it (assemble.infer_commanders). `bracket_data` holds the mass land
    denial and combo lists (None: neither is loaded); `bracket` is the declared bracket
    (1-5), whose bracket_* errors join the violations. `with_overview` fills
    Report.overview (the page always wants it, the API when asked: not every check pays).

    `game_format` is the game format to judge in: a Format, or a key or alias
    (formats.format_named; UnknownFormat for anything else). None: the format the list
    names for itself (Decklist.named_format), with a format_inferred warning, else
    Commander. `format_data` is what the formats' rules are given (the Pauper Commander
    commander list). A declared bracket outside Commander, or signature spells designated
    outside Oathbreaker, raise FieldNotInFormat (a ValueError naming the field).
    `with_formats` fills Report.formats: every format's verdict (judge_formats), sharing
    this check's work. `unavailable` are names (as typed, unresolved) the card data could
    not be asked about in time: a card_lookup_unavailable warning names them.
    `house_rules` is the table's own list (formats.HouseRules, names resolved): its bans
    and unbans join the rules in every format judged, and its max_bracket is the declared
    bracket where brackets apply, unless `bracket` declares one.
    """
    fmt, inferred = _judged_format(decklist, game_format)
    designation = named_designation(decklist, cards, designation)
    if bracket is not None and not fmt.brackets:
        raise FieldNotInFormat("bracket", fmt, tuple(f for f in FORMATS if f.brackets))
    if designation.signature_spells and not fmt.signature_spells:
        raise FieldNotInFormat("signature_spells", fmt, tuple(f for f in FORMATS if f.signature_spells))
    judging = _Judging(decklist, cards, suggestions, designation, format_data, house_rules)
    deck, problems, found = judging.judged(fmt)
    if inferred is not None:
        problems = (*problems, inferred)
    if unavailable:
        problems = (*problems, _lookup_unavailable(decklist, cards, unavailable))
    if designation.commanders:  # the request designates them: the parser's guess is no longer news
        problems = tuple(p for p in problems if p.code != Code.COMMANDER_INFERRED)
    elif deck.companion is not None:
        problems = tuple(_companion_among_inferred(p, deck.companion) for p in problems)
    by_house = house_rules if bracket is None and house_rules is not None and fmt.brackets else None
    if by_house is not None and by_house.max_bracket is not None:
        bracket = by_house.max_bracket
    else:
        by_house = None
    evaluated = brackets.evaluate(deck, bracket_data or brackets.NO_DATA, bracket) if fmt.brackets else None
    declared: list[Violation] = []
    if bracket is not None and evaluated is not None:
        declared = [_with_lines(v, deck) for v in brackets.violations(evaluated)]
    if by_house is not None and bracket is not None:  # say whose bracket it is
        whose = by_house.said(msg("The house rules ({house}) allow bracket {bracket} at most.",
                                  house=by_house.name or "", bracket=bracket),
                              msg("The house rules allow bracket {bracket} at most.", bracket=bracket))
        declared = [replace(v, text=v.text.then(whose)) for v in declared]
    violations = sorted([*problems, *found, *declared], key=Violation.sort_key)
    return Report(
        valid=not any(v.severity == Severity.ERROR for v in violations),
        format=decklist.format,
        commanders=tuple(e.card.name for e in deck.commanders),
        companion=deck.companion.card.name if deck.companion else None,
        color_identity=wubrg(commander_identity(deck)),
        card_count=card_count(deck),
        violations=tuple(violations),
        bracket=evaluated,
        overview=overview(deck) if with_overview else None,
        game_format=fmt.key,
        signature_spells=tuple(e.card.name for e in deck.signature_spells),
        formats=judging.verdicts() if with_formats else None,
        house_rules=house_rules,
    )


def _lookup_unavailable(decklist: Decklist, cards: Mapping[str, Card], names: Collection[str]) -> Violation:
    """The warning that some unknown names were never checked against the full card data."""
    unresolved = [name for name in dict.fromkeys(names) if name not in cards]
    wanted = set(unresolved)
    lines = sorted({entry.line for entry in decklist.entries if entry.name in wanted})
    count = len(unresolved)
    quoted = Names('"' + name + '"' for name in unresolved)
    return Violation(
        Code.CARD_LOOKUP_UNAVAILABLE,
        nmsg("The card database did not answer in time, so {n} name the local card data lacks ({names}) could not "
             "be looked up: it is reported as unknown for now.",
             "The card database did not answer in time, so {n} names the local card data lacks ({names}) could not "
             "be looked up: they are reported as unknown for now.", count, names=quoted)
        .then(msg("Check the spelling, or try again in a minute.")),
        Severity.WARNING,
        cards=tuple(unresolved),
        lines=tuple(lines),
    )


def judge_formats(
    decklist: Decklist, cards: Mapping[str, Card],
    designation: Designation = NOBODY, format_data: FormatData | None = None,
    house_rules: HouseRules | None = None,
) -> dict[str, FormatVerdict]:
    """Every format's verdict for one parsed and resolved list, by key in FORMATS order
    (DESIGN's include=formats block): valid, the distinct error codes, and the status
    (legal, not_legal, or unknown when no error but the data cannot say: legality_unknown).

    Each format is judged as check() would judge it when asked for that format (its own
    inference, sizes, keys), without brackets (no bracket is declared per format) and
    with the designation's signature spells only where the format has them. The work
    that does not depend on the format is done once: inference once per kind of
    commander and deck size, assembly once per distinct result, and the rules that read
    the deck alone (rules.DECK_RULES) once per assembled deck. (Suggestions change only
    messages, never a verdict, so none are asked for.)
    """
    designation = named_designation(decklist, cards, designation)
    return _Judging(decklist, cards, None, designation, format_data, house_rules).verdicts()


@final
class _Assembly:
    """One assembly of the list (a Deck as assembled for some format) and what the rules that
    read the deck alone (DECK_RULES) found in it, shared by the formats it suits."""

    __slots__ = ("deck", "found")

    def __init__(self, deck: Deck, found: list[Violation]) -> None:
        self.deck = deck
        self.found = found


class _Judging:
    """One list's resolved inputs and what the formats can share of judging them."""

    __slots__ = ("decklist", "cards", "suggestions", "designation", "format_data", "house_rules", "_inferred",
                 "_decks", "_judged")

    def __init__(self, decklist: Decklist, cards: Mapping[str, Card], suggestions: Mapping[str, Sequence[str]] | None,
                 designation: Designation,
                 format_data: FormatData | None, house_rules: HouseRules | None = None) -> None:
        self.decklist, self.cards, self.suggestions = decklist, cards, suggestions
        self.designation, self.format_data, self.house_rules = designation, format_data, house_rules
        self._inferred: dict[tuple[object, ...], Decklist] = {}  # (who commands, size, ...) -> the list as inferred
        # (id of that list, whether signature spells change its assembly) -> its assembly
        self._decks: dict[tuple[int, bool], _Assembly] = {}
        self._judged: dict[Format, tuple[Deck, tuple[Violation, ...], list[Violation]]] = {}  # each format's answer

    def judged(self, fmt: Format) -> tuple[Deck, tuple[Violation, ...], list[Violation]]:
        """The Deck judged in the format, the list's own problems (its inference included),
        and every rule's violations (the deck-only rules' found once per assembly)."""
        done = self._judged.get(fmt)
        if done is None:
            deck, problems, assembly = self._deck_of(fmt)
            done = self._judged[fmt] = (deck, problems, [*assembly.found, *validate(deck, FORMAT_RULES)])
        return done

    def verdict(self, fmt: Format) -> FormatVerdict:
        """The format's verdict: its distinct error codes, and whether the data could judge
        every card (no legality_unknown). From judged()'s violations, or from the rules'
        codes-only twins (rules.CODES_ONLY) when the format was not judged in full."""
        done = self._judged.get(fmt)
        if done is not None:
            found = (*done[1], *done[2])
            codes = {str(v.code) for v in found if v.severity == Severity.ERROR}
            unknown = any(v.code == Code.LEGALITY_UNKNOWN for v in found)
        else:
            deck, problems, assembly = self._deck_of(fmt)
            codes = {str(v.code) for v in (*problems, *assembly.found) if v.severity == Severity.ERROR}
            unknown = False
            for rule in FORMAT_RULES:
                twin = CODES_ONLY.get(rule)
                if twin is not None:  # a twin's codes are its errors', and legality_unknown when it warns
                    said = twin(deck)
                    unknown = unknown or Code.LEGALITY_UNKNOWN in said
                    codes.update(said - {Code.LEGALITY_UNKNOWN})
                else:
                    codes.update(str(v.code) for v in rule(deck) if v.severity == Severity.ERROR)
        if codes:
            status = FormatStatus.NOT_LEGAL
        else:
            status = FormatStatus.UNKNOWN if unknown else FormatStatus.LEGAL
        return FormatVerdict(not codes, tuple(sorted(codes)), status)

    def _deck_of(self, fmt: Format) -> tuple[Deck, tuple[Violation, ...], _Assembly]:
        """The Deck in the format, the list's problems, and its assembly (shared)."""
        listed = self.decklist
        if not self.designation.commanders:
            kind = (fmt.commanders, fmt.deck_size, fmt.signature_spells, fmt.role)
            inferred = self._inferred.get(kind)
            if inferred is None:
                inferred = self._inferred[kind] = infer_commanders(self.decklist, self.cards, fmt, self.format_data)
            listed = inferred
        key = (id(listed), fmt.signature_spells and self._marks_signature_spells(listed))
        assembly = self._decks.get(key)
        if assembly is None:
            deck = assemble(listed, self.cards, self.suggestions, self.designation,
                            game_format=fmt, format_data=self.format_data, house_rules=self.house_rules)
            assembly = self._decks[key] = _Assembly(deck, validate(deck, DECK_RULES))
        deck = assembly.deck if assembly.deck.format is fmt else judged_in(assembly.deck, fmt)
        return deck, listed.problems, assembly

    def _marks_signature_spells(self, listed: Decklist) -> bool:
        """Whether a format with signature spells assembles this list otherwise than one
        without (a Signature Spell section, designated spells, or an instant or sorcery in
        the command zone, which may be one): else both share one assembly."""
        if self.designation.signature_spells:
            return True
        cards = self.cards
        for entry in listed.entries:
            if entry.section is Section.SIGNATURE:
                return True
            if entry.section is Section.COMMANDER and (card := cards.get(entry.name)) and is_instant_or_sorcery(card):
                return True
        return False

    def verdicts(self) -> dict[str, FormatVerdict]:
        """Every format's verdict."""
        return {fmt.key: self.verdict(fmt) for fmt in FORMATS}


def _judged_format(decklist: Decklist, game_format: str | Format | None) -> tuple[Format, Violation | None]:
    """The format to judge in, and the format_inferred warning when the list chose it."""
    if isinstance(game_format, Format):
        return game_format, None
    if game_format is not None:
        return format_named(game_format), None
    named = decklist.named_format
    fmt = named_in_file(named.text) if named is not None else None
    if named is None or fmt is None or fmt is COMMANDER:
        return COMMANDER, None  # the default: naming it changes nothing, and is no news
    return fmt, Violation(
        Code.FORMAT_INFERRED,
        msg("No format was given; the list names its own ({named}), so it was judged as {format} ({key}).",
            named=repr(named.text), format=Term(fmt.name), key=fmt.key),
        Severity.WARNING,
        lines=(named.line,) if named.line else (),
    )


def _with_lines(violation: Violation, deck: Deck) -> Violation:
    """A bracket_* error names deck cards: give it the lines that list them."""
    named = set(violation.cards)
    lines = {line for entry in (*deck.commanders, *deck.main) if entry.card.name in named for line in entry.lines}
    return replace(violation, lines=tuple(sorted(lines)))


def _companion_among_inferred(problem: Violation, companion: Entry) -> Violation:
    """A commander_inferred warning naming a card assemble() made the companion says so."""
    if problem.code != Code.COMMANDER_INFERRED or not set(problem.lines) & set(companion.lines):
        return problem
    return replace(problem, text=problem.text.then(msg("{card} has Companion, so it is the companion.",
                                                        card=Name(companion.card.name))))
