"""903.3 and 702.124: who can be a commander, how many, and which pairs share an ability."""

import pytest

from tests.support.factories import (
    AKIRI, ATRAXA, BACKGROUND, NISSA, PIR, SOL_RING, TOOTHY, WESTVALE, WILSON, card, deck, full_deck, legend,
)
from validator.deck import UnknownName
from validator.engine import validate
from validator.card_facts import commander_eligibility, pairing_abilities
from validator.rules import commander_ineligible, commander_missing, partner_pairing, too_many_commanders

COMMANDER_RULES = (commander_missing, too_many_commanders, commander_ineligible, partner_pairing)

GRIST = card(
    "Grist, the Hunger Tide", "Legendary Planeswalker — Grist", identity="BG",
    text="As long as Grist isn't on the battlefield, it's a 1/1 Insect creature in addition to its other types.\n"
    "+1: Create a 1/1 black and green Insect creature token, then mill a card.",
)
TEFERI = card(
    "Teferi, Temporal Archmage", "Legendary Planeswalker — Teferi", identity="U",
    text="+1: Look at the top two cards of your library.\nTeferi, Temporal Archmage can be your commander.",
)
SMUGGLERS_COPTER = card("Smuggler's Copter", "Artifact — Vehicle", text="Flying\nCrew 1", pt=True)
PARHELION = card("Parhelion II", "Legendary Artifact — Vehicle", identity="W", pt=True, text="Crew 4")
SPACECRAFT_PT = card("The Seriema", "Legendary Artifact — Spacecraft", identity="W", pt=True, text="Station")
ETERNITY_ELEVATOR = card("The Eternity Elevator", "Legendary Artifact — Spacecraft", pt=False,
                         text="{T}: Add {C}{C}{C}.\nStation (Tap another creature you control.)")
OTHER_BACKGROUND = card("Cloakwood Hermit", "Legendary Enchantment — Background", identity="G",
                        text="Commander creatures you own have ...")
FACELESS_ONE = card(
    "Faceless One", "Legendary Enchantment Creature — Background",
    text="If Faceless One is your commander, choose a color before the game begins. Faceless One is the chosen color.\n"
    "Choose a Background (You can have a Background as a second commander.)",
)
BRUSE = legend("Bruse Tarl, Boorish Herder", "RW", text="Partner (You can have two commanders if both have partner.)")
RHODA = legend("Rhoda, Geist Avenger", "W", text="Partner with Timin, Youthful Geist (When this creature enters, ...)\nVigilance")
TIMIN = legend("Timin, Youthful Geist", "U", text="Partner with Rhoda, Geist Avenger (When this creature enters, ...)\nFlying")
# Jumpstart 2022 wording: Friends forever as its own keyword
CECILY = legend("Cecily, Haunted Mage", "UR", text="Friends forever (You can have two commanders if both have friends forever.)")
# Oracle wording since 2024: Partner—Friends forever
BJORNA = legend("Bjorna, Nightfall Alchemist", "UB", text="Partner—Friends forever (You can have two commanders if both have this ability.)")
KRATOS = legend("Kratos, Stoic Father", "RW", text="Partner—Father & son (You can have two commanders if both have this ability.)")
ATREUS = legend("Atreus, Impulsive Son", "GR", text="Partner—Father & son (You can have two commanders if both have this ability.)")
JOEL = legend("Joel, Resolute Survivor", "G", text="Partner—Survivors (You can have two commanders if both have this ability.)")
ELLIE = legend("Ellie, Brick Master", "R", text="Partner—Survivors (You can have two commanders if both have this ability.)")
RAPHAEL = legend("Raphael, the Muscle", "R", text="Partner—Character select (You can have two commanders if both have this ability.)")
LEONARDO = legend("Leonardo, the Balance", "W", text="Partner—Character select")
FUTURE_A = legend("Future Hero", "W", text="Partner—Best buds (You can have two commanders if both have this ability.)")
FUTURE_B = legend("Future Sidekick", "B", text="Partner—Best buds")
FUTURE_C = legend("Future Rival", "B", text="Partner—Worst enemies")
TENTH_DOCTOR = legend("The Tenth Doctor", "UR", subtypes="Time Lord Doctor", text="Allons-y! — Whenever you attack, ...")
MISSY = legend("Missy", "UB", subtypes="Time Lord Rogue", text="Whenever a nonartifact creature dies, ...")
CHANGELING_DOCTOR = legend("Shapeshifting Doctor", "U", subtypes="Time Lord Doctor", text="Changeling (This card is every creature type.)")
ROSE = legend("Rose Tyler", "W", text="Doctor's companion (You can have two commanders if the other is the Doctor.)")
AMY = legend(
    "Amy Pond", "R",
    text="Partner with Rory Williams (When this creature enters, ...)\nDoctor's companion (You can have two commanders if the other is the Doctor.)",
)
RORY = legend("Rory Williams", "W", text="Partner with Amy Pond (When this creature enters, ...)\nFirst strike, lifelink")
PLAIN_LEGEND = legend("Isshin, Two Heavens as One", "RWB", text="If a creature attacking causes a triggered ability ...")
OTHER_LEGEND = legend("Krenko, Mob Boss", "R", text="{T}: Create X 1/1 red Goblin creature tokens.")
# Akroma mentions partner in running text: that is no pairing ability
AKROMA_VISION = legend("Akroma, Vision of Ixidor", "W",
                       text="At the beginning of each combat, each other creature you control gets +1/+1 for each of partner, flying...")


@pytest.mark.parametrize(
    ("commander", "eligible"),
    (
        (ATRAXA, True),
        (GRIST, True),  # creature CDA off the battlefield
        (TEFERI, True),  # "can be your commander"
        (PARHELION, True),  # legendary Vehicle (903.3, 2025)
        (SPACECRAFT_PT, True),
        (FACELESS_ONE, True),  # a Background that is also a legendary creature
        (ETERNITY_ELEVATOR, False),  # Spacecraft without a P/T box
        (NISSA, False),
        (WESTVALE, False),  # front face is a land
        (SMUGGLERS_COPTER, False),  # not legendary
        (BACKGROUND, False),  # only beside Choose a Background
        (SOL_RING, False),
        # legendary creatures that are no deck card: a meld result and a token
        (card("Brisela, Voice of Nightmares", "Legendary Creature — Eldrazi Angel", identity="W",
              pt=True, is_meld_result=True, layout="meld"), False),
        (card("Ragavan", "Legendary Creature — Monkey", identity="R", pt=True, layout="token"), False),
    ),
)
def test_commander_eligibility(commander, eligible):
    assert (commander_eligibility(commander) is None) is eligible


def test_vanilla_planeswalker_message_says_exactly_why():
    assert commander_eligibility(NISSA).english() == (
        'Nissa, Who Shakes the World is a planeswalker without "can be your commander", '
        "so it can't be your commander."
    )


def test_land_front_dfc_message_names_the_front_face():
    assert "front face is a Land" in commander_eligibility(WESTVALE).english()


def found(d, rules=COMMANDER_RULES):
    """(code, cards) of every violation the rules report, sorted."""
    return [(v.code, v.cards) for v in validate(d, rules)]


@pytest.mark.parametrize(
    ("commanders", "expected"),
    (
        # the bugs other validators shipped
        ((BACKGROUND,), [("commander_ineligible", ("Raised by Giants",))]),  # lone Background
        ((ATRAXA, OTHER_LEGEND), [("partner_pairing", ("Atraxa, Praetors' Voice", "Krenko, Mob Boss"))]),
        ((PIR, TOOTHY), []),  # Pir + Toothy are two different cards
        ((RHODA, TIMIN), []),
        ((CECILY, BJORNA), []),  # Friends forever as keyword == Partner—Friends forever
        ((WESTVALE,), [("commander_ineligible", ("Westvale Abbey // Ormendahl, Profane Prince",))]),
        # every pairing ability
        ((AKIRI, BRUSE), []),
        ((KRATOS, ATREUS), []),
        ((JOEL, ELLIE), []),
        ((RAPHAEL, LEONARDO), []),
        ((FUTURE_A, FUTURE_B), []),  # unknown future label pairs by equal label
        ((FUTURE_A, FUTURE_C), [("partner_pairing", ("Future Hero", "Future Rival"))]),
        ((WILSON, BACKGROUND), []),
        ((BACKGROUND, WILSON), []),
        ((FACELESS_ONE, BACKGROUND), []),  # Faceless One chooses a Background
        ((WILSON, FACELESS_ONE), []),  # ... or is the Background
        ((ROSE, TENTH_DOCTOR), []),
        ((AMY, TENTH_DOCTOR), []),  # Amy picks Doctor's companion
        ((AMY, RORY), []),  # ... or Partner with Rory
        # different abilities never combine (702.124f)
        ((AKIRI, KRATOS), [("partner_pairing", ("Akiri, Line-Slinger", "Kratos, Stoic Father"))]),
        ((AKIRI, PIR), [("partner_pairing", ("Akiri, Line-Slinger", "Pir, Imaginative Rascal"))]),
        ((PIR, TIMIN), [("partner_pairing", ("Pir, Imaginative Rascal", "Timin, Youthful Geist"))]),
        ((AKIRI, BACKGROUND), [("partner_pairing", ("Akiri, Line-Slinger", "Raised by Giants"))]),
        ((ATRAXA, BACKGROUND), [("partner_pairing", ("Atraxa, Praetors' Voice", "Raised by Giants"))]),
        ((BACKGROUND, OTHER_BACKGROUND), [("partner_pairing", ("Cloakwood Hermit", "Raised by Giants"))]),
        ((ROSE, MISSY), [("partner_pairing", ("Missy", "Rose Tyler"))]),  # Missy is no Doctor
        ((ROSE, CHANGELING_DOCTOR), [("partner_pairing", ("Rose Tyler", "Shapeshifting Doctor"))]),
        ((ROSE, AKIRI), [("partner_pairing", ("Akiri, Line-Slinger", "Rose Tyler"))]),
        ((AKROMA_VISION, AKIRI), [("partner_pairing", ("Akiri, Line-Slinger", "Akroma, Vision of Ixidor"))]),
        # an ineligible card is commander_ineligible, not also partner_pairing
        ((AKIRI, NISSA), [("commander_ineligible", ("Nissa, Who Shakes the World",))]),
        ((WILSON, SOL_RING), [("commander_ineligible", ("Sol Ring",))]),
        # three or more is too_many_commanders alone
        ((AKIRI, BRUSE, NISSA), [("too_many_commanders", ("Akiri, Line-Slinger", "Bruse Tarl, Boorish Herder", "Nissa, Who Shakes the World"))]),
        ((), [("commander_missing", ())]),
        ((AKIRI, AKIRI), [("partner_pairing", ("Akiri, Line-Slinger",))]),
    ),
)
def test_commanders_and_pairs(commanders, expected):
    assert found(deck(commanders=commanders)) == expected


def test_an_unknown_commander_name_still_counts_as_designated():
    unknown = UnknownName("Atrax", section="commander")
    assert found(deck(unknown=(unknown,))) == []
    assert found(deck(commanders=(AKIRI, BRUSE), unknown=(unknown,))) == [
        ("too_many_commanders", ("Akiri, Line-Slinger", "Bruse Tarl, Boorish Herder"))
    ]


@pytest.mark.parametrize(
    ("commander", "abilities"),
    (
        (AKIRI, ("Partner",)),
        (CECILY, ("Partner—Friends forever",)),
        (KRATOS, ("Partner—Father & son",)),
        (PIR, ("Partner with Toothy, Imaginary Friend",)),
        (AMY, ("Partner with Rory Williams", "Doctor's companion")),
        (FACELESS_ONE, ("Choose a Background",)),
        (AKROMA_VISION, ()),
        (ATRAXA, ()),
    ),
)
def test_pairing_abilities_read_oracle_lines(commander, abilities):
    assert pairing_abilities(commander) == abilities


def test_partner_with_compares_canonical_names_case_insensitively():
    okaun = legend("Okaun, Eye of Chaos", "R", text="Partner with Zndrsplt, Eye of Wisdom")
    zndrsplt = legend("Zndrsplt, Eye of Wisdom", "U", text="Partner with okaun, eye of chaos")
    assert found(full_deck(okaun, zndrsplt)) == []
