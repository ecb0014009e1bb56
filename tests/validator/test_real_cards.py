"""The rules against real Scryfall card objects from ../shared/carddata (skipped without it).

The JSON -> Card conversion (tests/support/factories.py to_card) is deliberately tiny: the real
converter is card_data's job. It reads only what the rules need, front face first.
"""

from __future__ import annotations

import gzip
import json

import pytest

from tests.support.factories import load_real_cards
from validator.deck import Card, Entry
from validator.deck_facts import Deck
from validator.engine import validate
from validator.card_facts import commander_eligibility, pairing_abilities

NAMES = (
    "Esika, God of the Tree // The Prismatic Bridge", "Valki, God of Lies // Tibalt, Cosmic Impostor",
    "Bonecrusher Giant // Stomp", "Grist, the Hunger Tide", "Westvale Abbey // Ormendahl, Profane Prince",
    "Elbrus, the Binding Blade // Withengar Unbound", "Rhoda, Geist Avenger", "Timin, Youthful Geist",
    "Pir, Imaginative Rascal", "Toothy, Imaginary Friend", "Syndic of Tithes", "Seven Dwarves", "Nazgûl",
    "Relentless Rats", "The Eternity Elevator", "The Eleventh Doctor", "Rose Tyler", "Missy", "Amy Pond",
    "Rory Williams", "Clara Oswald", "Wilson, Refined Grizzly", "Raised by Giants", "Faceless One",
    "Lutri, the Spellchaser", "Lurrus of the Dream-Den", "Gyruda, Doom of Depths", "Cecily, Haunted Mage",
    "Bjorna, Nightfall Alchemist", "Kratos, Stoic Father", "Atreus, Impulsive Son", "Joel, Resolute Survivor",
    "Ellie, Brick Master", "Akiri, Line-Slinger", "The Prismatic Piper", "Teferi, Temporal Archmage",
    "Nissa, Who Shakes the World", "Parhelion II", "Smuggler's Copter", "Brisela, Voice of Nightmares",
    "Mana Crypt", "Backup Plan", "Blacker Lotus", "Tazeem", "Chaotic Aether", "Temple Garden", "Forest",
    "Wastes", "Sol Ring", "Lightning Bolt", "Kaheera, the Orphanguard", "Zirda, the Dawnwaker",
    "Arahbo, Roar of the World", "Mistform Ultimus", "Topiary Panther", "Arcanum Wings", "Grizzly Bears",
    "Captain America, First Avenger", "Umori, the Collector", "Yorion, Sky Nomad",
)


@pytest.fixture(scope="module")
def real(shared_dir) -> dict[str, Card]:
    """The named real cards, keyed by canonical name."""
    return load_real_cards(shared_dir, NAMES)


def make(real, commanders, main=(), companion=None, choices=None) -> Deck:
    """A deck of real cards (one copy each unless (name, n)) with Wastes to reach 100."""
    entries = [Entry(real[n], q) for n, q in (m if isinstance(m, tuple) else (m, 1) for m in main)]
    size = len(commanders) + sum(e.quantity for e in entries)
    entries.append(Entry(real["Wastes"], 100 - size))
    return Deck(
        commanders=tuple(Entry(real[n]) for n in commanders),
        main=tuple(entries),
        companion=Entry(real[companion]) if companion else None,
        color_choices=choices or {},
    )


def found(deck):
    """(code, cards) of every violation."""
    return [(v.code, v.cards) for v in validate(deck)]


@pytest.mark.parametrize(
    ("name", "eligible"),
    (
        ("Esika, God of the Tree // The Prismatic Bridge", True),
        ("Grist, the Hunger Tide", True),
        ("Teferi, Temporal Archmage", True),
        ("Parhelion II", True),
        ("Faceless One", True),
        ("Westvale Abbey // Ormendahl, Profane Prince", False),
        ("Elbrus, the Binding Blade // Withengar Unbound", False),
        ("The Eternity Elevator", False),
        ("Nissa, Who Shakes the World", False),
        ("Smuggler's Copter", False),
        ("Raised by Giants", False),
        ("Seven Dwarves", False),
    ),
)
def test_real_commander_eligibility(real, name, eligible):
    assert (commander_eligibility(real[name]) is None) is eligible


@pytest.mark.parametrize(
    ("name", "abilities"),
    (
        ("Rhoda, Geist Avenger", ("Partner with Timin, Youthful Geist",)),
        ("Cecily, Haunted Mage", ("Partner—Friends forever",)),
        ("Kratos, Stoic Father", ("Partner—Father & son",)),
        ("Amy Pond", ("Partner with Rory Williams", "Doctor's companion")),
        ("Faceless One", ("Choose a Background",)),
        ("The Prismatic Piper", ("Partner",)),
        ("The Eleventh Doctor", ()),
    ),
)
def test_real_pairing_abilities(real, name, abilities):
    assert pairing_abilities(real[name]) == abilities


@pytest.mark.parametrize(
    ("commanders", "expected"),
    (
        (("Rhoda, Geist Avenger", "Timin, Youthful Geist"), []),
        (("Pir, Imaginative Rascal", "Toothy, Imaginary Friend"), []),
        (("Cecily, Haunted Mage", "Bjorna, Nightfall Alchemist"), []),
        (("Kratos, Stoic Father", "Atreus, Impulsive Son"), []),
        (("Joel, Resolute Survivor", "Ellie, Brick Master"), []),
        (("Rose Tyler", "The Eleventh Doctor"), []),
        (("Amy Pond", "The Eleventh Doctor"), []),
        (("Amy Pond", "Rory Williams"), []),
        (("Wilson, Refined Grizzly", "Raised by Giants"), []),
        (("Faceless One", "Raised by Giants"), [("color_choice", ("Faceless One",))]),
        (("Rose Tyler", "Missy"), [("partner_pairing", ("Missy", "Rose Tyler"))]),
        (("Akiri, Line-Slinger", "Kratos, Stoic Father"), [("partner_pairing", ("Akiri, Line-Slinger", "Kratos, Stoic Father"))]),
        (("Rhoda, Geist Avenger", "Toothy, Imaginary Friend"), [("partner_pairing", ("Rhoda, Geist Avenger", "Toothy, Imaginary Friend"))]),
        (("Akiri, Line-Slinger", "Raised by Giants"), [("partner_pairing", ("Akiri, Line-Slinger", "Raised by Giants"))]),
        (("Raised by Giants",), [("commander_ineligible", ("Raised by Giants",))]),
        (("Westvale Abbey // Ormendahl, Profane Prince",), [("commander_ineligible", ("Westvale Abbey // Ormendahl, Profane Prince",))]),
        (("The Eternity Elevator",), [("commander_ineligible", ("The Eternity Elevator",))]),
    ),
)
def test_real_pairs(real, commanders, expected):
    assert found(make(real, commanders)) == expected


@pytest.mark.parametrize(
    ("commanders", "main", "expected"),
    (
        # Esika's back face gives it every color (903.4d)
        (("Esika, God of the Tree // The Prismatic Bridge",), ["Lightning Bolt", "Syndic of Tithes"], []),
        # extort's reminder-text {W/B} does not make Syndic black
        (("Rose Tyler",), ["Syndic of Tithes"], []),
        (("Kratos, Stoic Father",), ["Temple Garden"], [("color_identity", ("Temple Garden",))]),
        (("Akiri, Line-Slinger",), [("Seven Dwarves", 7)], []),
        (("Akiri, Line-Slinger",), [("Seven Dwarves", 8)], [("singleton", ("Seven Dwarves",))]),
        (("Esika, God of the Tree // The Prismatic Bridge",), [("Nazgûl", 9), ("Relentless Rats", 20)], []),
        (("Esika, God of the Tree // The Prismatic Bridge",), [("Nazgûl", 10)], [("singleton", ("Nazgûl",))]),
        (("Akiri, Line-Slinger",), [("Sol Ring", 2)], [("singleton", ("Sol Ring",))]),
        (("Esika, God of the Tree // The Prismatic Bridge",),
         ["Mana Crypt", "Backup Plan", "Blacker Lotus", "Tazeem", "Brisela, Voice of Nightmares"],
         [("banned", ("Backup Plan",)), ("banned", ("Mana Crypt",)), ("non_deck_card", ("Brisela, Voice of Nightmares",)),
          ("non_deck_card", ("Tazeem",)), ("not_legal", ("Blacker Lotus",))]),
    ),
)
def test_real_deck_rules(real, commanders, main, expected):
    assert found(make(real, commanders, main)) == expected


def test_real_color_choosers(real):
    piper = make(real, ("The Prismatic Piper",), ["Lightning Bolt"], choices={"The Prismatic Piper": "R"})
    assert found(piper) == []
    clara = make(real, ("Clara Oswald", "The Eleventh Doctor"), ["Syndic of Tithes"])
    assert found(clara) == [("color_choice", ("Clara Oswald",))]  # a warning: W assumed


@pytest.mark.parametrize(
    ("companion", "expected"),
    (
        ("Lutri, the Spellchaser", [("companion_ineligible", ("Lutri, the Spellchaser",))]),
        ("Lurrus of the Dream-Den", [("companion_condition", ("Esika, God of the Tree // The Prismatic Bridge",))]),
        ("Gyruda, Doom of Depths", [("companion_condition", ("Esika, God of the Tree // The Prismatic Bridge",))]),
        ("Sol Ring", [("companion_ineligible", ("Sol Ring",))]),
    ),
)
def test_real_companions(real, companion, expected):
    # Esika has mana value 3: odd for Gyruda, over 2 for Lurrus
    assert found(make(real, ("Esika, God of the Tree // The Prismatic Bridge",), companion=companion)) == expected


@pytest.mark.parametrize(
    ("companion", "main", "offenders"),
    (
        ("Kaheera, the Orphanguard", ["Mistform Ultimus"], None),  # every creature type by its own text
        ("Kaheera, the Orphanguard", ["Grist, the Hunger Tide"], ("Grist, the Hunger Tide",)),  # an Insect
        ("Kaheera, the Orphanguard", ["Grizzly Bears"], ("Grizzly Bears",)),
        # Grist is a creature card outside the battlefield (604.3): it shares Creature
        ("Umori, the Collector", ["Grist, the Hunger Tide", "Grizzly Bears"], None),
        ("Umori, the Collector", ["Grist, the Hunger Tide", "Sol Ring"], ("Sol Ring",)),
        # basic landcycling, aura swap and an ability word with periods are activated abilities
        ("Zirda, the Dawnwaker", ["Topiary Panther", "Arcanum Wings", "Captain America, First Avenger"],
         ("Arahbo, Roar of the World",)),
    ),
)
def test_real_companion_conditions(real, companion, main, offenders):
    d = make(real, ("Arahbo, Roar of the World",), main, companion=companion)
    got = [v.cards for v in validate(d) if v.code == "companion_condition"]
    assert got == ([] if offenders is None else [offenders])


def test_lutri_is_legal_as_commander(real):
    assert found(make(real, ("Lutri, the Spellchaser",))) == []
