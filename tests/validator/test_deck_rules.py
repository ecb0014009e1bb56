"""903.5a-d and legality: deck size, singleton, color identity, color choices, legality codes."""

import pytest

from tests.support.factories import (
    ATRAXA, BANNED, DWARVES, FOREST, LIGHTNING_BOLT, PIPER, PLANE, RATS, SNOW_FOREST, SOL_RING, SYNDIC, TOKEN, WASTES, card, deck, filler, full_deck, legend,
)
from validator.deck import UnknownName
from validator.engine import validate
from validator.rules import color_choice, color_identity, deck_size, legality, singleton


def found(d, *rules):
    """(code, cards) of every violation the rules report, sorted."""
    return [(v.code, v.cards) for v in validate(d, rules)]


# --- deck size (903.5a) -------------------------------------------------------------

GYRUDA = card(
    "Gyruda, Doom of Depths", "Legendary Creature — Demon Kraken", identity="UB", cost="{4}{U/B}{U/B}",
    text="Companion — Your starting deck contains only cards with even mana value.",
)


@pytest.mark.parametrize(
    ("forests", "extra", "codes"),
    (
        (99, {}, []),
        (98, {}, ["deck_size"]),
        (100, {}, ["deck_size"]),
        (98, {"unknown": (UnknownName("Sol Rnig", 1),)}, []),  # one typo is unknown_card, not deck_size too
        (98, {"unknown": (UnknownName("Companoin", 1, section="companion"),)}, ["deck_size"]),
        (99, {"companion": GYRUDA}, []),  # the companion is outside the 100
        (99, {"sideboard": {SOL_RING: 5}}, []),
    ),
)
def test_deck_size(forests, extra, codes):
    assert [v.code for v in deck_size(deck(ATRAXA, main={FOREST: forests}, **extra))] == codes


def test_two_commanders_leave_98_cards():
    akiri = legend("Akiri, Line-Slinger", "RW", text="Partner")
    bruse = legend("Bruse Tarl, Boorish Herder", "RW", text="Partner")
    assert found(deck(commanders=(akiri, bruse), main={WASTES: 98}), deck_size) == []
    assert found(deck(commanders=(akiri, bruse), main={WASTES: 99}), deck_size) == [("deck_size", ())]


# --- singleton (903.5b) ---------------------------------------------------------------

NAZGUL = card("Nazgûl", "Creature — Wraith Knight", identity="B", cost="{2}{B}",
              text="Deathtouch\nA deck can have up to nine cards named Nazgûl.")
# the text names another card: it lifts no limit on this one
NAMER = card("Rat Fancier", "Creature — Human", text="A deck can have any number of cards named Relentless Rats.")
REMINDED = card("Reminded Thing", "Artifact", text="Flash (A deck can have any number of cards named Reminded Thing.)")


@pytest.mark.parametrize(
    ("main", "expected"),
    (
        ({FOREST: 40, SNOW_FOREST: 20, WASTES: 30}, []),  # basics, snow basics, Wastes
        ({SOL_RING: 2}, [("singleton", ("Sol Ring",))]),
        ({RATS: 30}, []),
        ({DWARVES: 7}, []),
        ({DWARVES: 8}, [("singleton", ("Seven Dwarves",))]),
        ({NAZGUL: 9}, []),
        ({NAZGUL: 10}, [("singleton", ("Nazgûl",))]),
        ({NAMER: 2}, [("singleton", ("Rat Fancier",))]),
        ({REMINDED: 2}, [("singleton", ("Reminded Thing",))]),  # reminder text is no rule
        ({ATRAXA: 1}, [("singleton", ("Atraxa, Praetors' Voice",))]),  # commander repeated in the 99
    ),
)
def test_singleton(main, expected):
    assert found(deck(ATRAXA, main=main), singleton) == expected


def test_singleton_counts_the_companion_sharing_a_name():
    assert found(deck(ATRAXA, main={GYRUDA: 1}, companion=GYRUDA), singleton) == [
        ("singleton", ("Gyruda, Doom of Depths",))
    ]


def test_singleton_lines_cover_every_copy():
    d = deck(ATRAXA, main={SOL_RING: 1, ATRAXA: 1})
    (violation,) = [v for v in singleton(d) if v.cards == ("Atraxa, Praetors' Voice",)]
    assert violation.lines == tuple(sorted(d.commanders[0].lines + d.main[1].lines))


# --- color identity (903.5c-d, 903.4) ----------------------------------------------------

ESIKA = card("Esika, God of the Tree // The Prismatic Bridge", "Legendary Creature — God",
             identity="WUBRG", text=("Vigilance", "At the beginning of your upkeep, ..."), layout="modal_dfc")
TEMPLE_GARDEN = card("Temple Garden", "Land — Forest Plains", identity="GW", text="({T}: Add {G} or {W}.)")
AKIRI = legend("Akiri, Line-Slinger", "RW", text="Partner (You can have two commanders if both have partner.)")
BLUE = card("Opt", "Instant", identity="U", cost="{U}")
GREEN = card("Cultivate", "Sorcery", identity="G", cost="{2}{G}")
# "choose a color" while it resolves is no 903.4b choice
CHOOSER = legend("Color Chooser", "W", text="As this creature enters, choose a color.")


@pytest.mark.parametrize(
    ("commanders", "main", "choices", "expected"),
    (
        ((ATRAXA,), {LIGHTNING_BOLT: 1}, {}, [("color_identity", ("Lightning Bolt",))]),
        ((ATRAXA,), {SOL_RING: 1, FOREST: 1, WASTES: 1}, {}, []),
        ((card("Kozilek", "Legendary Creature — Eldrazi"),), {FOREST: 1, WASTES: 1}, {},
         [("color_identity", ("Forest",))]),  # colorless commander: no basic Forest (903.5d)
        ((legend("Odric", "W"),), {SYNDIC: 1}, {}, []),  # extort's {W/B} is reminder text
        ((legend("Selesnya Legend", "GW"),), {TEMPLE_GARDEN: 1}, {}, []),
        ((legend("Mono Green", "G"),), {TEMPLE_GARDEN: 1}, {}, [("color_identity", ("Temple Garden",))]),
        ((ESIKA,), {LIGHTNING_BOLT: 1, BLUE: 1}, {}, []),  # back face counts (903.4d)
        ((PIPER,), {LIGHTNING_BOLT: 1}, {"The Prismatic Piper": "R"}, []),
        ((PIPER,), {BLUE: 1}, {"The Prismatic Piper": "R"}, [("color_identity", ("Opt",))]),
        ((PIPER,), {LIGHTNING_BOLT: 1}, {}, []),  # one extra color allowed without a choice
        ((PIPER,), {LIGHTNING_BOLT: 2, BLUE: 1}, {}, [("color_identity", ("Opt",))]),
        ((PIPER, AKIRI), {GREEN: 1}, {}, []),
        ((PIPER, AKIRI), {GREEN: 1, BLUE: 1}, {}, [("color_identity", ("Cultivate",))]),
        ((CHOOSER,), {BLUE: 1}, {}, [("color_identity", ("Opt",))]),
    ),
)
def test_color_identity(commanders, main, choices, expected):
    assert found(deck(commanders=commanders, main=main, color_choices=choices), color_identity) == expected


def test_the_companion_must_fit_the_identity_too():
    assert found(deck(legend("Mono Blue", "U"), companion=GYRUDA), color_identity) == [
        ("color_identity", ("Gyruda, Doom of Depths",))
    ]


@pytest.mark.parametrize(
    ("commanders", "choices", "expected"),
    (
        ((PIPER,), {"The Prismatic Piper": "R"}, []),
        ((PIPER,), {}, [("color_choice", "warning", ("The Prismatic Piper",))]),
        ((PIPER,), {"The Prismatic Piper": "RG"}, [
            ("color_choice", "error", ("The Prismatic Piper",)),
            ("color_choice", "warning", ("The Prismatic Piper",)),
        ]),
        ((PIPER,), {"The Prismatic Piper": "Purple"}, [
            ("color_choice", "error", ("The Prismatic Piper",)),
            ("color_choice", "warning", ("The Prismatic Piper",)),
        ]),
        ((ATRAXA,), {"Atraxa, Praetors' Voice": "R"}, [("color_choice", "warning", ("Atraxa, Praetors' Voice",))]),
        ((ATRAXA,), {"Sol Ring": "R"}, [("color_choice", "warning", ("Sol Ring",))]),
        ((CHOOSER,), {}, []),
    ),
)
def test_color_choice(commanders, choices, expected):
    d = deck(commanders=commanders, main={LIGHTNING_BOLT: 1}, color_choices=choices)
    assert [(v.code, v.severity, v.cards) for v in validate(d, (color_choice,))] == expected


def test_missing_choice_warning_says_which_color_was_allowed():
    (warning,) = color_choice(deck(PIPER, main={LIGHTNING_BOLT: 1}))
    assert "R cards were allowed" in warning.message


# --- legality: one code per card ---------------------------------------------------------

CONSPIRACY = card("Backup Plan", "Conspiracy", legality="not_legal", text="Hidden agenda")
SILVER = card("Blacker Lotus", "Artifact", legality="not_legal", text="{T}, Tear Blacker Lotus into pieces: Add {B}{B}{B}{B}.")
PLANE_BANNED = card("Odd Plane", "Plane — Zendikar", layout="planar", legality="banned")
PHENOMENON = card("Chaotic Aether", "Phenomenon", layout="planar", legality="not_legal")
SCHEME = card("Your Puny Minds Cannot Fathom", "Scheme", layout="scheme", legality="not_legal")
VANGUARD = card("Oni of Wild Places", "Vanguard", layout="vanguard", legality="not_legal")
EMBLEM = card("Elspeth Emblem", "Emblem — Elspeth", layout="emblem", legality="not_legal")
ART = card("Art Card", "Card", layout="art_series", legality="not_legal")
FRONT = card("Front Card", "Card", layout="front_card", legality="legal")
DUNGEON = card("Lost Mine of Phandelver", "Dungeon", layout="normal", legality="legal")
ATTRACTION = card("Balloon Stand", "Artifact — Attraction", legality="legal")
MELD_RESULT = card("Brisela, Voice of Nightmares", "Legendary Creature — Eldrazi Angel", identity="W",
                   layout="meld", is_meld_result=True)


@pytest.mark.parametrize(
    ("bad", "code"),
    (
        (BANNED, "banned"),
        (CONSPIRACY, "banned"),  # Conspiracy cards are banned
        (SILVER, "not_legal"),
        (PLANE, "non_deck_card"),
        (PLANE_BANNED, "non_deck_card"),  # non_deck_card wins over banned
        (PHENOMENON, "non_deck_card"),
        (SCHEME, "non_deck_card"),
        (VANGUARD, "non_deck_card"),
        (TOKEN, "non_deck_card"),
        (EMBLEM, "non_deck_card"),
        (ART, "non_deck_card"),
        (FRONT, "non_deck_card"),
        (DUNGEON, "non_deck_card"),
        (ATTRACTION, "non_deck_card"),
        (MELD_RESULT, "non_deck_card"),
        (SOL_RING, None),
    ),
)
def test_one_legality_code_per_card(bad, code):
    expected = [(code, (bad.name,))] if code else []
    assert found(deck(ATRAXA, main={bad: 1}), legality) == expected


def test_commander_and_companion_get_legality_checks_too():
    banned_legend = legend("Golos, Tireless Pilgrim", legality="banned")
    d = deck(banned_legend, companion=card("Silver Companion", "Creature — Cat", legality="not_legal"))
    assert found(d, legality) == [
        ("banned", ("Golos, Tireless Pilgrim",)),
        ("not_legal", ("Silver Companion",)),
    ]


def test_a_legal_100_card_deck_has_no_violations():
    d = full_deck(ATRAXA, main={SOL_RING: 1, FOREST: 30, **filler(30, identity="W")})
    assert validate(d) == []


# --- a non_deck_card is judged by nothing else (DESIGN.md, how the codes combine) ------

RED_TOKEN = card("Goblin Token", "Token Creature — Goblin", identity="R", cost="{R}", layout="token",
                 legality="not_legal")
RED_PLANE = card("Naar Isle", "Plane — Wildfire", identity="R", layout="planar", legality="not_legal")


def test_a_non_deck_card_is_named_by_non_deck_card_alone():
    # off-color, two copies, mana value 1 beside Gyruda (even only): still only non_deck_card
    green = legend("Green Legend", "G", cost="{2}{G}{G}")
    d = deck(green, main={RED_TOKEN: 2, RED_PLANE: 1, FOREST: 96}, companion=GYRUDA)
    named = [(v.code, v.cards) for v in validate(d) if {"Goblin Token", "Naar Isle"} & set(v.cards)]
    assert sorted(named) == [("non_deck_card", ("Goblin Token",)), ("non_deck_card", ("Naar Isle",))]


def test_a_non_deck_commander_is_non_deck_card_not_also_ineligible():
    token_legend = card("Ragavan", "Legendary Creature — Monkey", identity="R", pt=True, layout="token",
                        legality="not_legal")
    d = full_deck(token_legend, main={LIGHTNING_BOLT: 1})
    assert [(v.code, v.cards) for v in validate(d)] == [("non_deck_card", ("Ragavan",))]


def test_every_color_choice_finding_points_at_the_commanders_line():
    """A choice for a commander that chooses no color names that commander's line; a
    choice for a card that is no commander has no line of its own to point at."""
    d = deck(ATRAXA, main={LIGHTNING_BOLT: 1}, color_choices={"Atraxa, Praetors' Voice": "R", "Sol Ring": "G"})
    atraxa_lines = d.commanders[0].lines
    assert atraxa_lines
    assert {v.cards: v.lines for v in color_choice(d)} == {("Atraxa, Praetors' Voice",): atraxa_lines, ("Sol Ring",): ()}
