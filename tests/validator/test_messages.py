"""Message wording, pinned in one place (jsonschema's message_for): one finished sentence each."""

import pytest

from tests.support.factories import ATRAXA, FOREST, LIGHTNING_BOLT, SOL_RING, card, deck, legend
from validator.deck import UnknownName
from validator.engine import validate
from validator.rules import RULES

THRASIOS = legend("Thrasios, Triton Hero", "GU", text="Partner")
TYMNA = legend("Tymna the Weaver", "WB", text="Partner")
KRENKO = legend("Krenko, Mob Boss", "R")
NISSA = card("Nissa, Who Shakes the World", "Legendary Planeswalker — Nissa", identity="G")
PIPER = legend("The Prismatic Piper", text="If The Prismatic Piper is your commander, choose a color before the game begins.")
LUTRI = legend("Lutri, the Spellchaser", "UR", text="Companion — Each nonland card in your starting deck has a different name.")
BANNED = card("Mana Crypt", "Artifact", legality="banned")
PLANE = card("Tazeem", "Plane — Zendikar", layout="planar", legality="not_legal")


def message_for(d, code):
    """The message of the one violation with this code."""
    (message,) = [v.message for v in validate(d, RULES) if v.code == code]
    return message


@pytest.mark.parametrize(
    ("d", "code", "message"),
    (
        (deck(commanders=(THRASIOS, TYMNA), main={FOREST: 97, LIGHTNING_BOLT: 1}), "color_identity",
         "Lightning Bolt (R) is outside the commanders' color identity (WUBG)."),
        (deck(ATRAXA, main={FOREST: 98}), "deck_size",
         "The deck has 99 cards; a Commander deck has exactly 100, commanders included and companion excluded."),
        (deck(ATRAXA), "deck_size",
         "The deck has 1 card; a Commander deck has exactly 100, commanders included and companion excluded."),
        (deck(ATRAXA, main={SOL_RING: 2}), "singleton",
         "Sol Ring appears 2 times; the deck may have one copy."),
        (deck(ATRAXA, main={ATRAXA: 1}), "singleton",
         "Atraxa, Praetors' Voice appears 2 times (commander included); the deck may have one copy."),
        (deck(NISSA), "commander_ineligible",
         'Nissa, Who Shakes the World is a planeswalker without "can be your commander", so it can\'t be your commander.'),
        (deck(commanders=(ATRAXA, KRENKO)), "partner_pairing",
         "Atraxa, Praetors' Voice and Krenko, Mob Boss can't be commanders together: Atraxa, Praetors' Voice "
         "has no pairing ability and Krenko, Mob Boss has no pairing ability."),
        (deck(commanders=(THRASIOS, TYMNA, KRENKO)), "too_many_commanders",
         "The deck has 3 commanders (Krenko, Mob Boss, Thrasios, Triton Hero and Tymna the Weaver); at most two are allowed."),
        (deck(), "commander_missing",
         "No commander is designated; mark one in the list (a Commander header above it, *CMDR* after it, "
         "or a COMMANDER: line) or name it in the request (commanders; --commander in the CLI)."),
        (deck(ATRAXA, unknown=(UnknownName("Sol Rnig", suggestions=("Sol Ring", "Soul Ring")),)), "unknown_card",
         'No card is named "Sol Rnig". Did you mean Sol Ring or Soul Ring?'),
        (deck(ATRAXA, main={BANNED: 1}), "banned", "Mana Crypt is banned in Commander."),
        (deck(ATRAXA, main={PLANE: 1}), "non_deck_card", "Tazeem is a plane or phenomenon, not a card for the deck."),
        (deck(ATRAXA, companion=LUTRI), "companion_ineligible",
         "Lutri, the Spellchaser is banned as a companion in Commander (it is legal in the deck), so it can't be your companion."),
        (deck(ATRAXA, sideboard={SOL_RING: 1}), "sideboard",
         "The list has 1 sideboard or maybeboard card; Commander has no sideboard, so they were ignored."),
        (deck(PIPER, main={LIGHTNING_BOLT: 1}), "color_choice",
         "The Prismatic Piper chooses a color before the game, but no color was given; one extra color per such "
         "commander is assumed and the deck's R cards were allowed."),
    ),
)
def test_message(d, code, message):
    assert message_for(d, code) == message


def test_every_message_is_one_finished_sentence():
    d = deck(
        commanders=(THRASIOS, NISSA, PIPER),
        main={SOL_RING: 2, LIGHTNING_BOLT: 1, BANNED: 1, PLANE: 1},
        companion=LUTRI,
        sideboard={FOREST: 1},
        unknown=(UnknownName("Nope"),),
    )
    messages = [v.message for v in validate(d)]
    assert len(messages) >= 8
    for message in messages:
        assert message[0].isupper() and message.endswith((".", "?")), message
