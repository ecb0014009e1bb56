"""How long the rules take on a resolved 100-card deck: validate() and check().

The deck is a realistic two-commander list (Partner, 98 other cards with oracle text,
basic lands, a companion and a sideboard) built from hand-written cards, so the figure
does not depend on ../shared. Target: at most 100 µs per deck.
"""

from __future__ import annotations

import statistics
import time

from bench.common import Row, median_seconds, micros
from validator import card_facts, companions
from validator.assemble import assemble
from validator.deck import Card
from validator.deck_facts import Deck
from validator.decklist import Decklist, ListEntry, Section
from validator.engine import check, validate

TARGET = "≤ 100 µs"


def _card(name: str, types: set[str], identity: str = "", **fields) -> Card:
    """A benchmark card with a line or two of Oracle text."""
    return Card(
        name=name,
        types=frozenset(types),
        supertypes=fields.pop("supertypes", frozenset()),
        subtypes=fields.pop("subtypes", frozenset()),
        face_texts=(fields.pop("text", f"When {name} enters, draw a card.\n{{2}}, {{T}}: Scry 1."),),
        mana_cost=fields.pop("mana_cost", "{2}{G}"),
        mana_value=fields.pop("mana_value", 3.0),
        color_identity=frozenset(identity),
        **fields,
    )


def build_cards() -> dict[str, Card]:
    """Every card of the benchmark deck, keyed by the name typed in the list."""
    partner = "Partner (You can have two commanders if both have partner.)"
    cards = {
        "Akiri, Line-Slinger": _card("Akiri, Line-Slinger", {"Creature"}, "RW", supertypes=frozenset({"Legendary"}),
                                     subtypes=frozenset({"Kor", "Soldier"}), text=f"First strike\n{partner}",
                                     has_power_toughness=True),
        "Thrasios, Triton Hero": _card("Thrasios, Triton Hero", {"Creature"}, "GU", supertypes=frozenset({"Legendary"}),
                                       subtypes=frozenset({"Merfolk"}), text=f"{{4}}: Scry 1.\n{partner}",
                                       has_power_toughness=True),
        "Jegantha, the Wellspring": _card(
            "Jegantha, the Wellspring", {"Creature"}, "RG", supertypes=frozenset({"Legendary"}),
            text="Companion — No card in your starting deck has more than one of the same mana symbol in its mana cost.",
            mana_cost="{4}{R/G}", mana_value=5.0),
    }
    for basic, color in (("Plains", "W"), ("Island", "U"), ("Mountain", "R"), ("Forest", "G")):
        cards[basic] = _card(basic, {"Land"}, color, supertypes=frozenset({"Basic"}), subtypes=frozenset({basic}),
                             text=f"({{T}}: Add {{{color}}}.)", mana_cost="", mana_value=0.0)
    for i in range(66):
        name = f"Spell Number {i}"
        cards[name] = _card(name, {"Creature"} if i % 2 else {"Instant"}, "WURG"[i % 4])
    cards["Sideboard Card"] = _card("Sideboard Card", {"Artifact"})
    return cards


def build_decklist() -> Decklist:
    """The benchmark list: 2 commanders, 66 spells, 32 basics, a companion and a sideboard card."""
    rows = [("Akiri, Line-Slinger", 1, Section.COMMANDER), ("Thrasios, Triton Hero", 1, Section.COMMANDER)]
    rows += [(f"Spell Number {i}", 1, Section.MAIN) for i in range(66)]
    rows += [(basic, 8, Section.MAIN) for basic in ("Plains", "Island", "Mountain", "Forest")]
    rows += [("Jegantha, the Wellspring", 1, Section.COMPANION), ("Sideboard Card", 1, Section.SIDEBOARD)]
    return Decklist(tuple(ListEntry(name, q, line, section) for line, (name, q, section) in enumerate(rows, 1)))


def run() -> list[Row]:
    """Median time of validate() on the assembled deck and of check() from the parsed list."""
    cards, decklist = build_cards(), build_decklist()
    deck: Deck = assemble(decklist, cards)
    assert sum(e.quantity for e in (*deck.commanders, *deck.main)) == 100
    found = validate(deck)
    # the deck is legal but for the sideboard warning; a benchmark of a broken deck would mislead
    assert [v.code for v in found] == ["sideboard"], found
    return [
        Row("engine", "validate(deck), 100 cards, median", micros(median_seconds(lambda: validate(deck), repeat=2000, warmup=200)), TARGET),
        Row("engine", "validate(deck), cold text caches, median", micros(_cold_median(deck)), ""),
        # check() = assemble (100 frozen Entry objects built) + validate + sort
        Row("engine", "check(decklist, cards), 100 cards, median", micros(median_seconds(lambda: check(decklist, cards), repeat=1000, warmup=100)), "≤ 150 µs"),
    ]


def _clear_caches() -> None:
    """Forget every Oracle text the rules have read, as if the cards were new."""
    for cached in (card_facts.rules_lines, card_facts.text_facts, card_facts._pairing, card_facts._copy_limit,
                   card_facts._activated, companions._repeats_symbol):
        cached.cache_clear()
    card_facts._ELIGIBILITY.clear()


def _cold_median(deck: Deck, repeat: int = 300) -> float:
    """Median time of validate() right after the text caches were cleared."""
    samples = []
    for _ in range(repeat):
        _clear_caches()
        start = time.perf_counter()
        validate(deck)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


if __name__ == "__main__":
    for row in run():
        print(row)
