"""702.139: the companion's own eligibility and the ten conditions, commanders included."""

from dataclasses import replace

import pytest

from tests.support.factories import (
    ATRAXA, FOREST, GYRUDA, JEGANTHA, LUTRI, SOL_RING, UMORI, WASTES, YORION, ZIRDA, card, companion, deck, entry,
    legend,
)
from validator.engine import validate
from validator.card_facts import has_activated_ability
from validator.rules import companion_condition, companion_ineligible


KAHEERA = companion("Kaheera, the Orphanguard", "GW", "Each creature card in your starting deck is a Cat, Elemental, Nightmare, Dinosaur, or Beast card.")
KERUGA = companion("Keruga, the Macrosage", "UG", "Your starting deck contains only cards with mana value 3 or greater and land cards.")
LURRUS = companion("Lurrus of the Dream-Den", "WB", "Each permanent card in your starting deck has mana value 2 or less.")
OBOSH = companion("Obosh, the Preypiercer", "BR", "Your starting deck contains only cards with odd mana value and land cards.")

FIVE = legend("Five Color Legend", "WUBRG", cost="{W}{U}{B}{R}{G}")  # mana value 5, odd
FOUR = legend("Four Drop Legend", "WUBRG", cost="{2}{W}{U}", subtypes="Cat")  # mana value 4, even, a Cat
TWO_DROP = card("Two Drop", "Creature — Cat", cost="{1}{G}", identity="G")
ONE_DROP = card("One Drop", "Creature — Human", cost="{W}", identity="W")
THREE_SPELL = card("Three Spell", "Sorcery", cost="{2}{B}", identity="B")
DOUBLE_PIP = card("Double Pip", "Instant", cost="{U}{U}", identity="U")
HYBRID_PAIR = card("Hybrid Pair", "Instant", cost="{R/G}{R/G}", identity="RG")
SPLIT_GENERIC = card("Fire // Ice", "Instant // Instant", cost="{1}{R} // {1}{U}", identity="UR", layout="split")
CHANGELING = card("Changeling Outcast", "Creature — Shapeshifter", cost="{B}", identity="B",
                  text="Changeling (This card is every creature type.)\nChangeling Outcast can't block.")
ARTIFACT_CREATURE = card("Ornithopter", "Artifact Creature — Thopter", cost="{0}", text="Flying")
TAPPER = card("Tapper", "Creature — Human", cost="{1}{W}", identity="W", text="{T}: Tap target creature.")
EQUIPMENT = card("Bonesplitter", "Artifact — Equipment", cost="{1}", text="Equipped creature gets +2/+0.\nEquip {1}")
GRANTER = card("Cryptolith Rite", "Enchantment", cost="{1}{G}", identity="G",
               text='Creatures you control have "{T}: Add one mana of any color."')
VANILLA = card("Grizzly Bears", "Creature — Bear", cost="{1}{G}", identity="G")
# Mistform Ultimus: every creature type by its own text, no changeling keyword
EVERY_TYPE = card("Mistform Ultimus", "Legendary Creature — Illusion", cost="{3}{U}", identity="U",
                  text="Mistform Ultimus is every creature type (even if this card isn't on the battlefield).")
# an Equipment granting every creature type makes no creature card in the deck a Cat
AXE = card("Amorphous Axe", "Artifact — Equipment", cost="{3}",
           text="Equipped creature gets +3/+0 and is every creature type.\nEquip {3}")
# Grist: a planeswalker card that is an Insect creature card outside the battlefield
GRIST = card("Grist, the Hunger Tide", "Legendary Planeswalker — Grist", cost="{1}{B}{G}", identity="BG",
             text="As long as Grist isn't on the battlefield, it's a 1/1 Insect creature in addition to its other types.\n"
                  "+1: Create a 1/1 black and green Insect creature token, then mill a card.")
PLANESWALKER = card("Chandra", "Legendary Planeswalker — Chandra", cost="{2}{R}{R}", identity="R",
                    text="+1: Chandra deals 2 damage to any target.")


@pytest.mark.parametrize(
    ("companion_card", "commander", "main", "offenders"),
    (
        (GYRUDA, FOUR, {FOREST: 1, TWO_DROP: 1}, None),
        (GYRUDA, FOUR, {ONE_DROP: 1}, ("One Drop",)),
        (GYRUDA, FIVE, {TWO_DROP: 1}, ("Five Color Legend",)),  # the commander counts (702.139b)
        (JEGANTHA, FOUR, {TWO_DROP: 1}, None),
        (JEGANTHA, FOUR, {DOUBLE_PIP: 1, HYBRID_PAIR: 1}, ("Double Pip", "Hybrid Pair")),
        (JEGANTHA, FOUR, {SPLIT_GENERIC: 1}, ("Fire // Ice",)),  # split cards combine both costs
        (KAHEERA, FOUR, {TWO_DROP: 1, CHANGELING: 1, SOL_RING: 1}, None),
        (KAHEERA, FIVE, {ONE_DROP: 1}, ("Five Color Legend", "One Drop")),
        (KAHEERA, FOUR, {EVERY_TYPE: 1, AXE: 1}, None),  # "is every creature type" is a Cat too
        (KAHEERA, FOUR, {GRIST: 1}, ("Grist, the Hunger Tide",)),  # an Insect creature card in the deck
        (KERUGA, FOUR, {FOREST: 1, THREE_SPELL: 1}, None),
        (KERUGA, FOUR, {TWO_DROP: 1, ARTIFACT_CREATURE: 1}, ("Ornithopter", "Two Drop")),
        (LURRUS, FOUR, {}, ("Four Drop Legend",)),
        (LURRUS, legend("Cheap Legend", "WB", cost="{W}{B}"), {TWO_DROP: 1, THREE_SPELL: 1}, None),
        (LURRUS, legend("Cheap Legend", "WB", cost="{W}{B}"), {PLANESWALKER: 1}, ("Chandra",)),
        (LUTRI, FOUR, {TWO_DROP: 1, FOREST: 5}, None),
        (LUTRI, FOUR, {TWO_DROP: 2}, ("Two Drop",)),
        (OBOSH, FIVE, {ONE_DROP: 1, THREE_SPELL: 1, FOREST: 1}, None),
        (OBOSH, FIVE, {TWO_DROP: 1}, ("Two Drop",)),
        (UMORI, FOUR, {TWO_DROP: 1, ARTIFACT_CREATURE: 1, FOREST: 3}, None),
        (UMORI, FOUR, {TWO_DROP: 2, THREE_SPELL: 1}, ("Three Spell",)),
        # companion conditions read types as outside the battlefield: Grist is a creature card (604.3)
        (UMORI, FOUR, {TWO_DROP: 1, GRIST: 1, ARTIFACT_CREATURE: 1, FOREST: 3}, None),
        (UMORI, FOUR, {GRIST: 1, THREE_SPELL: 1}, ("Three Spell",)),
        (KERUGA, FOUR, {GRIST: 1}, None),
        (YORION, FOUR, {FOREST: 99}, ()),  # never met in a 100-card Commander deck
        (YORION, FOUR, {FOREST: 119}, None),  # met by 120 cards: deck_size alone is wrong then
        (ZIRDA, legend("Activator", "RW", text="{1}: This gets +1/+0."), {TAPPER: 1, EQUIPMENT: 1, FOREST: 1, THREE_SPELL: 1}, None),
        (ZIRDA, FOUR, {VANILLA: 1, GRANTER: 1, WASTES: 1}, ("Cryptolith Rite", "Four Drop Legend", "Grizzly Bears")),
    ),
)
def test_companion_condition(companion_card, commander, main, offenders):
    d = deck(commander, main=main, companion=companion_card)
    expected = [] if offenders is None else [("companion_condition", offenders)]
    assert [(v.code, v.cards) for v in validate(d, (companion_condition,))] == expected


@pytest.mark.parametrize(
    ("companion_card", "expected"),
    (
        (GYRUDA, []),
        (LUTRI, [("companion_ineligible", ("Lutri, the Spellchaser",))]),  # banned as companion only
        (SOL_RING, [("companion_ineligible", ("Sol Ring",))]),  # no Companion ability
        (card("Reminder Only", "Creature — Cat", text="Vigilance (Companion — not really.)"),
         [("companion_ineligible", ("Reminder Only",))]),
    ),
)
def test_companion_ineligible(companion_card, expected):
    d = deck(ATRAXA, companion=companion_card)
    assert [(v.code, v.cards) for v in validate(d, (companion_ineligible,))] == expected


def test_lutri_is_fine_in_the_deck_and_as_commander():
    d = deck(LUTRI, main={FOREST: 1})
    assert [v.code for v in validate(d) if v.cards == ("Lutri, the Spellchaser",)] == []


def test_without_a_companion_ability_no_condition_is_read():
    d = deck(ATRAXA, companion=SOL_RING)
    assert list(companion_condition(d)) == []


@pytest.mark.parametrize(
    ("permanent", "activated"),
    (
        (FOREST, True),  # basic land types grant {T}: Add (305.6), though Oracle prints it as reminder
        (TAPPER, True),
        (EQUIPMENT, True),
        (PLANESWALKER, True),  # loyalty abilities
        (card("Channeler", "Creature — Elf", text="Channel — {1}{G}, Discard this card: Draw a card."), True),
        (card("Cycler", "Creature — Elf", text="Cycling {2} (... Draw a card.)"), True),
        (card("Landcycler", "Creature — Elf", text="Forestcycling {2}"), True),
        (card("Topiary Panther", "Creature — Cat", text="Trample\nBasic landcycling {1}{G} ({1}{G}, Discard this card: ...)"), True),
        (card("Arcanum Wings", "Enchantment — Aura", text="Enchant creature\nAura swap {2}{U} ({2}{U}: Exchange ...)"), True),
        # an ability word with periods in it ("Throw ...") before the cost
        (card("Captain", "Legendary Creature — Human", text="Throw ... — {3}, Unattach an Equipment from him: He deals 1 damage."), True),
        (VANILLA, False),
        (GRANTER, False),  # a quoted ability it grants is not its own
        (card("Morpher", "Creature — Elf", text="Morph {2}{G} (You may cast this card face down ...)"), False),
        (card("Colon Sentence", "Enchantment", text="Whenever a creature dies, choose one: gain 1 life."), False),
    ),
)
def test_has_activated_ability(permanent, activated):
    assert has_activated_ability(permanent) is activated


def test_a_second_declared_companion_is_reported():
    d = replace(deck(ATRAXA, companion=GYRUDA), extra_companions=(entry(LURRUS),))
    (found,) = validate(d, (companion_ineligible,))
    assert (found.code, found.cards, found.rule) == ("companion_ineligible", ("Lurrus of the Dream-Den",), "702.139a")
    assert found.message == ("Lurrus of the Dream-Den is also declared as companion, but only one card can be your "
                             "companion; Gyruda, Doom of Depths was taken.")


def test_yorion_message_never_claims_the_deck_is_short_of_120():
    (found,) = validate(deck(FOUR, main={FOREST: 99}, companion=YORION), (companion_condition,))
    assert "at least 120 cards" in found.message and "exactly 100" in found.message
    assert list(companion_condition(deck(FOUR, main={FOREST: 119}, companion=YORION))) == []
