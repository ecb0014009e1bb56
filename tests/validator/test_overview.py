"""validator.overview: the deck overview's numbers (mana curve, color balance, card types)."""

from __future__ import annotations

import pytest

from tests.support.factories import ATRAXA, COMMAND_TOWER, FOREST, SOL_RING, WASTES, card, deck, legend
from validator.deck import UnknownName
from validator.overview import CURVE_BUCKETS, cost_colors, curve_bucket, land_colors, overview


@pytest.mark.parametrize(("mana_value", "bucket"), [
    (0.0, "0"), (0.5, "0"), (1.0, "1"), (6.0, "6"), (7.0, "7+"), (15.0, "7+"), (1_000_000.0, "7+"),
])
def test_curve_bucket(mana_value, bucket):
    assert curve_bucket(mana_value) == bucket


@pytest.mark.parametrize(("cost", "expected"), [
    ("", {}),
    ("{3}", {}),
    ("{X}{R}{R}", {"R": 2}),
    ("{2}{W}{U}{B}{R}{G}", dict.fromkeys("WUBRG", 1)),
    ("{W/U}{W/U}", {"W": 2, "U": 2}),  # hybrid: a source of either color casts it
    ("{2/G}{B/P}", {"G": 1, "B": 1}),  # monocolored hybrid, Phyrexian
    ("{C}{C}{S}", {"C": 2}),  # colorless-specific counts; snow does not
    ("{G/U/P}", {"G": 1, "U": 1}),
    ("{1}{U} // {3}{R}", {"U": 1, "R": 1}),  # every face of a split / adventure card
])
def test_cost_colors(cost, expected):
    assert cost_colors(cost) == expected


TOWER_TEXT = "{T}: Add one mana of any color in your commander's color identity."
DELTA = card("Polluted Delta", "Land", text="{T}, Pay 1 life, Sacrifice this land: Search your library for an Island "
                                           "or Swamp card, put it onto the battlefield, then shuffle.")
VISTA = card("Prismatic Vista", "Land", text="{T}, Pay 1 life, Sacrifice this land: Search your library for a basic "
                                             "land card, put it onto the battlefield, then shuffle.")


@pytest.mark.parametrize(("land", "colors"), [
    (card("Breeding Pool", "Land — Forest Island", produced_mana=frozenset("GU")), "GU"),
    # produced_mana wins over the text when the store has it
    (card("City of Brass", "Land", text="{T}: Add one mana of any color.", produced_mana=frozenset("WUBRG")),
     "WUBRG"),
    # stores built before produced_mana was kept: basic land types and "Add" clauses
    (FOREST, "G"),
    (WASTES, "C"),
    (card("Murmuring Bosk", "Land — Forest", text="({T}: Add {G}.)\n{T}: Add {W} or {B}."), "WBG"),
    (card("Tundra", "Land — Plains Island", text="({T}: Add {W} or {U}.)"), "WU"),
    (card("Reliquary Tower", "Land", text="You have no maximum hand size.\n{T}: Add {C}."), "C"),
    (card("Maze of Ith", "Land", text="{T}: Untap target attacking creature."), ""),
    # the commanders' colors (here Atraxa's, WUBG), from the text or with Scryfall's produced_mana
    (COMMAND_TOWER, "WUBG"),
    (card("Command Tower", "Land", text=TOWER_TEXT, produced_mana=frozenset("WUBRG")), "WUBG"),
    (card("Opal Palace", "Land", text="{T}: Add {C}.\n{1}, {T}: " + TOWER_TEXT[5:],
          produced_mana=frozenset("WUBRGC")), "WUBGC"),
    # a fetch land makes no mana itself, whatever produced_mana may say
    (DELTA, ""), (VISTA, ""), (card("Evolving Wilds", "Land", text=VISTA.oracle_text, produced_mana=frozenset("WUBRG")), ""),
    (card("Myriad Landscape", "Land", text="{T}: Add {C}.\n{2}, {T}, Sacrifice this land: Search your library for "
                                           "up to two basic land cards, put them onto the battlefield tapped."), "C"),
])
def test_land_colors(land, colors):
    assert land_colors(land, frozenset("WUBG")) == frozenset(colors)


def test_command_tower_makes_the_commanders_colors_and_a_fetch_land_none():
    # the land row counted Command Tower and fetch lands as sources of every color
    tower = card("Command Tower", "Land", text=TOWER_TEXT, produced_mana=frozenset("WUBRG"))
    sources = overview(deck(DOCTOR, main={tower: 1, DELTA: 1, VISTA: 1, FOREST: 2})).land_sources
    assert dict(sources) == {"W": 0, "U": 1, "B": 0, "R": 1, "G": 2, "C": 0}
    assert dict(overview(deck(main={tower: 1})).land_sources) == dict.fromkeys("WUBRGC", 0)  # no commander: none


DOCTOR = legend("The Doctor", "UR", cost="{1}{U}{R}")
COUNTERSPELL = card("Counterspell", "Instant", cost="{U}{U}", identity="U")
BIG = card("Blightsteel Colossus", "Artifact Creature — Phyrexian Golem", cost="{12}")
FIRE_ICE = card("Fire // Ice", "Instant // Instant", cost="{1}{R} // {1}{U}", mana_value=4, identity="UR")
VOLCANIC = card("Volcanic Island", "Land — Island Mountain", produced_mana=frozenset("UR"))
DRYAD_ARBOR = card("Dryad Arbor", "Land Creature — Forest Dryad", produced_mana=frozenset("G"))
SHOCKLAND_COPY = card("Steam Vents", "Land — Island Mountain", produced_mana=frozenset("UR"))


@pytest.mark.parametrize(("the_deck", "curve", "cost_symbols", "land_sources", "types", "cards", "lands"), [
    pytest.param(deck(), [0] * 8, {}, {}, {}, 0, 0, id="empty"),
    pytest.param(
        deck(DOCTOR, main={COUNTERSPELL: 1, SOL_RING: 1, BIG: 1, FIRE_ICE: 1, VOLCANIC: 1, WASTES: 3}),
        # Sol Ring at 1; Doctor 3; Counterspell 2; Fire // Ice 4; Blightsteel 7+.
        [0, 1, 1, 1, 1, 0, 0, 1],
        {"U": 4, "R": 2},  # Doctor U R, Counterspell U U, Fire // Ice R and U
        {"U": 1, "R": 1, "C": 3},
        {"Creature": 2, "Instant": 2, "Artifact": 2, "Land": 4},
        9, 4, id="mixed"),
    pytest.param(
        # Copies count; a land creature is a land (no curve) and counts under both types.
        deck(ATRAXA, main={FOREST: 40, DRYAD_ARBOR: 1, SHOCKLAND_COPY: 1}),
        [0, 0, 0, 0, 1, 0, 0, 0],
        {"W": 1, "U": 1, "B": 1, "G": 1},
        {"U": 1, "R": 1, "G": 41},
        {"Creature": 2, "Land": 42},
        43, 42, id="copies-and-land-creature"),
    pytest.param(
        # The companion, the sideboard and unknown names are outside the game deck's numbers.
        deck(ATRAXA, main={SOL_RING: 1}, sideboard={COUNTERSPELL: 1}, unknown=[UnknownName("Sol Rnig", 1, (9,))],
             companion=card("Lurrus", "Legendary Creature — Cat Nightmare", cost="{1}{W/B}{W/B}")),
        [0, 1, 0, 0, 1, 0, 0, 0],
        {"W": 1, "U": 1, "B": 1, "G": 1},
        {},
        {"Creature": 1, "Artifact": 1},
        2, 0, id="outside-the-game-deck"),
])
def test_overview(the_deck, curve, cost_symbols, land_sources, types, cards, lands):
    numbers = overview(the_deck)
    assert list(numbers.curve) == list(CURVE_BUCKETS)
    assert list(numbers.curve.values()) == curve
    assert dict(numbers.cost_symbols) == {**dict.fromkeys("WUBRGC", 0), **cost_symbols}
    assert dict(numbers.land_sources) == {**dict.fromkeys("WUBRGC", 0), **land_sources}
    assert list(numbers.types.items()) == list(types.items())  # counts, in display order
    assert (numbers.cards, numbers.lands) == (cards, lands)
    assert sum(numbers.curve.values()) == cards - lands


def test_types_are_listed_in_display_order():
    kindred = card("Bitterblossom Kindred", "Kindred Enchantment — Faerie", cost="{1}{B}")
    numbers = overview(deck(main=[FOREST, kindred, SOL_RING, COUNTERSPELL, DOCTOR]))
    assert list(numbers.types) == ["Creature", "Instant", "Artifact", "Enchantment", "Land", "Kindred"]


def test_cards_by_type_and_images():
    """The cards behind each type count, by name with their copies, and every listed card's image."""
    bolt = card("Lightning Bolt", "Instant", cost="{R}", image="https://cards.scryfall.io/normal/front/b.jpg")
    relic = card("Chalice", "Artifact Creature — Golem", cost="{2}")
    side = card("Counterspell", "Instant", cost="{U}{U}", image="https://cards.scryfall.io/normal/front/c.jpg")
    result = overview(deck(commander=ATRAXA, main={bolt: 1, relic: 2, FOREST: 10}, sideboard=[side]))
    assert dict(result.cards_by_type) == {
        "Creature": ((ATRAXA.name, 1), ("Chalice", 2)),
        "Instant": (("Lightning Bolt", 1),),
        "Artifact": (("Chalice", 2),),
        "Land": (("Forest", 10),),
    }
    assert {kind: sum(n for _, n in names) for kind, names in result.cards_by_type.items()} == dict(result.types)
    # The sideboard card is no part of the numbers but a violation may name it: its image is there.
    assert dict(result.images) == {"Lightning Bolt": bolt.image, "Counterspell": side.image}


def test_check_fills_the_overview_only_when_asked():
    from validator.decklist import Decklist, ListEntry, Section
    from validator.engine import check

    decklist = Decklist(entries=(ListEntry("Forest", 3, 1, Section.MAIN),), format="text")
    assert check(decklist, {"Forest": FOREST}).overview is None
    assert check(decklist, {"Forest": FOREST}, with_overview=True).overview.types == {"Land": 3}
