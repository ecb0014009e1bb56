"""Every Commander deck-construction rule: one generator per rule, registered in RULES.

Each rule takes a resolved `Deck`, yields zero or more `Violation`s and never raises.
What a card is (eligibility, pairing abilities, copy limits...) comes from
validator/card_facts.py, what the deck adds up to (count, identity) from
validator/deck_facts.py, the companion conditions from validator/companions.py and the
messages' shared sentences from validator/phrasing.py. The rules live by what they judge:
the deck's cards (rules/cards.py), the command zone (rules/command_zone.py), the legality
screen (validator/legality.py) and the side decks (validator/side_decks.py: planar,
scheme, sideboard, piles outside the game).
"""

from __future__ import annotations

from typing import Callable, Iterable

from validator.deck_facts import Deck
from validator.legality import house_rules, legality, legality_codes
from validator.rules.cards import color_identity, deck_size, singleton, unknown_card
from validator.rules.command_zone import (
    color_choice, commander_ineligible, commander_missing, companion_condition, companion_ineligible,
    invalid_quantity, partner_pairing, signature_spell, too_many_commanders,
)
from validator.side_decks import not_in_deck, planar_deck, scheme_deck, sideboard
from validator.violations import Violation

Rule = Callable[[Deck], Iterable[Violation]]

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
    house_rules,
    companion_ineligible,
    companion_condition,
    signature_spell,
    planar_deck,
    scheme_deck,
    sideboard,
    not_in_deck,
)

# The rules whose verdict depends on the format the deck is judged in (they read
# Deck.format); the others read the deck alone. engine.judge_formats runs DECK_RULES once
# per assembled deck and FORMAT_RULES once per format.
FORMAT_RULES: tuple[Rule, ...] = (
    commander_ineligible,
    partner_pairing,
    deck_size,
    color_identity,
    legality,
    house_rules,
    companion_ineligible,
    companion_condition,
    signature_spell,
)
DECK_RULES: tuple[Rule, ...] = tuple(rule for rule in RULES if rule not in FORMAT_RULES)
# A rule's codes-only twin, where building its violations costs more than the codes (the
# all-formats block wants only each format's error codes): same answers, no messages.
CODES_ONLY: dict[Rule, Callable[[Deck], set[str]]] = {legality: legality_codes}
