"""Run the rules: validate() a resolved Deck, or check() a parsed Decklist into a Report."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from validator import brackets
from validator.assemble import assemble, infer_commanders
from validator.brackets import Bracket, BracketData
from validator.deck import Card, Deck, Entry, wubrg
from validator.decklist import NOBODY, Decklist, Designation
from validator.deck_facts import card_count, commander_identity
from validator.overview import Overview, overview
from validator.rules import RULES, Rule
from validator.violations import Code, Severity, Violation


@dataclass(frozen=True, slots=True)
class Report:
    """The answer for one decklist: legal or not, the deck's key facts, and every violation."""

    valid: bool
    format: str
    commanders: tuple[str, ...]  # canonical names of the resolved commanders
    companion: str | None
    color_identity: tuple[str, ...]  # WUBRG order, chosen colors (903.4b) included
    card_count: int  # commanders + main deck + unknown names there; companion excluded
    violations: tuple[Violation, ...]
    bracket: Bracket | None = None  # the Commander Brackets block (check() always fills it)
    overview: Overview | None = None  # curve, colors, types, cards by type, images (check(with_overview=True))


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
) -> Report:
    """Assemble the deck, validate it, and add the decklist's own problems into one Report.

    `designation` is who commands as the request says it (overriding the list's marks).
    Without designated commanders, a list that marks none gets one inferred from its layout where
    the cards allow it (assemble.infer_commanders). `bracket_data` holds the mass land
    denial and combo lists (None: neither is loaded); `bracket` is the declared bracket
    (1-5), whose bracket_* errors join the violations. `with_overview` fills
    Report.overview (the page always wants it, the API when asked: not every check pays).
    """
    if not designation.commanders:
        decklist = infer_commanders(decklist, cards)
    deck = assemble(decklist, cards, suggestions, designation)
    problems = decklist.problems
    if designation.commanders:  # the request designates them: the parser's guess is no longer news
        problems = tuple(p for p in problems if p.code != Code.COMMANDER_INFERRED)
    elif deck.companion is not None:
        problems = tuple(_companion_among_inferred(p, deck.companion) for p in problems)
    evaluated = brackets.evaluate(deck, bracket_data or brackets.NO_DATA, bracket)
    declared = [_with_lines(v, deck) for v in brackets.violations(evaluated)] if bracket is not None else ()
    violations = sorted([*problems, *validate(deck), *declared], key=Violation.sort_key)
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
    return replace(problem, message=f"{problem.message} {companion.card.name} has Companion, so it is the companion.")
