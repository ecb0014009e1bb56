"""assemble() and check(): from a parsed Decklist and resolved cards to a Deck and a Report."""

import pytest

from tests.support.factories import ATRAXA, FOREST, LIGHTNING_BOLT, SOL_RING, card, legend
from validator.assemble import assemble
from validator.deck import Entry
from validator.decklist import Decklist, Designation, ListEntry, Section
from validator.engine import check
from validator.messages import Text, msg
from validator.violations import Code, Severity, Violation

VAULT = card("Lim-Dûl's Vault", "Instant", identity="UB", cost="{U}{B}")
GYRUDA = card("Gyruda, Doom of Depths", "Legendary Creature — Demon Kraken", identity="UB",
              text="Companion — Your starting deck contains only cards with even mana value.")
PIPER = legend("The Prismatic Piper", text="If The Prismatic Piper is your commander, choose a color before the game begins.")
CARDS = {
    "Atraxa": ATRAXA,
    "Atraxa, Praetors' Voice": ATRAXA,
    "atraxa praetors voice": ATRAXA,
    "Forest": FOREST,
    "Sol Ring": SOL_RING,
    "Lightning Bolt": LIGHTNING_BOLT,
    "Lim-Dul's Vault": VAULT,
    "Lim-Dûl's Vault": VAULT,
    "Gyruda": GYRUDA,
    "Piper": PIPER,
    "The Prismatic Piper": PIPER,
}


def listing(*rows) -> Decklist:
    """A Decklist from (name, quantity, section) rows, one per line starting at line 1."""
    return Decklist(tuple(ListEntry(name, q, i, section) for i, (name, q, section) in enumerate(rows, 1)))


M, C, S, MB, CO, P, SC, IG = (
    Section.MAIN, Section.COMMANDER, Section.SIDEBOARD, Section.MAYBEBOARD,
    Section.COMPANION, Section.PLANAR, Section.SCHEMES, Section.IGNORED,
)


def shape(d):
    """A comparable view of a Deck: (name, quantity, lines) per section."""
    view = lambda entries: [(e.card.name, e.quantity, e.lines) for e in entries]  # noqa: E731
    return {
        "commanders": view(d.commanders),
        "main": view(d.main),
        "companion": view([d.companion] if d.companion else []),
        "sideboard": view(d.sideboard),
        "unknown": [(u.name, u.quantity, u.lines, u.section) for u in d.unknown],
    }


def test_lines_naming_the_same_card_merge_into_one_entry():
    d = assemble(listing(("Lim-Dul's Vault", 1, M), ("Sol Ring", 1, M), ("Lim-Dûl's Vault", 1, M)), CARDS)
    assert shape(d)["main"] == [("Lim-Dûl's Vault", 2, (1, 3)), ("Sol Ring", 1, (2,))]


def test_assembled_entries_are_whole_entries_with_their_first_card_and_lines_in_order():
    """A pile builds its Entries straight from tuples: each equals what Entry() makes."""
    d = assemble(listing(("Lim-Dûl's Vault", 1, M), ("Sol Ring", 2, M), ("Lim-Dul's Vault", 1, M),
                         ("Lim-Dûl's Vault", 1, S)), CARDS)
    assert d.main == (Entry(VAULT, 2, (1, 3)), Entry(SOL_RING, 2, (2,)))
    assert d.sideboard == (Entry(VAULT, 1, (4,)),)


@pytest.mark.parametrize(
    ("rows", "overrides", "expected"),
    (
        # a commander named in the request that is in the list is that card, moved
        ([("Atraxa, Praetors' Voice", 1, M), ("Forest", 5, M)], {"commanders": ["Atraxa"]},
         {"commanders": [("Atraxa, Praetors' Voice", 1, (1,))], "main": [("Forest", 5, (2,))]}),
        # ... one not in the list is added
        ([("Forest", 5, M)], {"commanders": ["atraxa praetors voice"]},
         {"commanders": [("Atraxa, Praetors' Voice", 1, ())], "main": [("Forest", 5, (1,))]}),
        # the request replaces the list's designation; the listed one stays in the deck
        ([("Sol Ring", 1, C), ("Atraxa", 1, M)], {"commanders": ["Atraxa"]},
         {"commanders": [("Atraxa, Praetors' Voice", 1, (2,))], "main": [("Sol Ring", 1, (1,))]}),
        # a commander kept in the sideboard (MTGO convention) moves too
        ([("Atraxa", 1, S), ("Forest", 1, M)], {"commanders": ["Atraxa"]},
         {"commanders": [("Atraxa, Praetors' Voice", 1, (1,))], "main": [("Forest", 1, (2,))]}),
        # companion override: the sideboard copy is the companion
        ([("Gyruda", 1, S), ("Sol Ring", 1, S)], {"companion": "Gyruda"},
         {"companion": [("Gyruda, Doom of Depths", 1, (1,))], "sideboard": [("Sol Ring", 1, (2,))]}),
        ([], {"companion": "Gyruda"}, {"companion": [("Gyruda, Doom of Depths", 1, ())]}),
        # unknown override names are unknown in their zone
        ([("Forest", 1, M)], {"commanders": ["Atrax"]},
         {"main": [("Forest", 1, (1,))], "unknown": [("Atrax", 1, (), "commander")]}),
        ([("Atrax", 1, M)], {"commanders": ["Atrax"]}, {"unknown": [("Atrax", 1, (1,), "commander")]}),
        # ... and take the line that lists them, wherever it is
        ([("Companoin", 1, S)], {"companion": "Companoin"}, {"unknown": [("Companoin", 1, (1,), "companion")]}),
    ),
)
def test_overrides(rows, overrides, expected):
    empty = {"commanders": [], "main": [], "companion": [], "sideboard": [], "unknown": []}
    assert shape(assemble(listing(*rows), CARDS, designation=Designation.of(**overrides))) == {**empty, **expected}


LURRUS = card("Lurrus of the Dream-Den", "Legendary Creature — Cat Nightmare", identity="WB",
              text="Companion — Each permanent card in your starting deck has mana value 2 or less.")
PARTNER_A = legend("Partner A", "G", text="Partner")
PARTNER_COMPANION = card("Partner Companion", "Legendary Creature — Cat", identity="W",
                         text="Companion — Something.\nPartner")
PAIR_CARDS = {**CARDS, "Lurrus": LURRUS, "Partner A": PARTNER_A, "Partner Companion": PARTNER_COMPANION}


@pytest.mark.parametrize(
    ("rows", "overrides", "commanders", "companion"),
    (
        # MTGO .dek / XMage SB: / MTGO text: the side zone holds the commander and the companion
        ([("Atraxa", 1, C), ("Gyruda", 1, C), ("Forest", 98, M)], {}, ["Atraxa, Praetors' Voice"],
         "Gyruda, Doom of Depths"),
        ([("Gyruda", 1, C), ("Atraxa", 1, C)], {}, ["Atraxa, Praetors' Voice"], "Gyruda, Doom of Depths"),
        # a pair that is legal stays a pair, even when one of them has Companion
        ([("Partner A", 1, C), ("Partner Companion", 1, C)], {}, ["Partner A", "Partner Companion"], None),
        # two cards with Companion: nothing to tell them apart, nothing is guessed
        ([("Lurrus", 1, C), ("Gyruda", 1, C)], {}, ["Lurrus of the Dream-Den", "Gyruda, Doom of Depths"], None),
        # the request names both as commanders, or names a companion: that is the designation
        ([("Atraxa", 1, C), ("Gyruda", 1, C)], {"commanders": ["Atraxa", "Gyruda"]},
         ["Atraxa, Praetors' Voice", "Gyruda, Doom of Depths"], None),
        ([("Atraxa", 1, C), ("Gyruda", 1, C), ("Lurrus", 1, S)], {"companion": "Lurrus"},
         ["Atraxa, Praetors' Voice", "Gyruda, Doom of Depths"], "Lurrus of the Dream-Den"),
        ([("Atraxa", 1, C), ("Gyruda", 1, C), ("Lurrus", 1, CO)], {},
         ["Atraxa, Praetors' Voice", "Gyruda, Doom of Depths"], "Lurrus of the Dream-Den"),
    ),
)
def test_companion_listed_in_a_two_card_command_zone(rows, overrides, commanders, companion):
    d = assemble(listing(*rows), PAIR_CARDS, designation=Designation.of(**overrides))
    assert ([e.card.name for e in d.commanders], d.companion.card.name if d.companion else None) == (
        commanders, companion)


def test_unknown_names_only_matter_in_game_sections():
    rows = [("Sol Rnig", 2, M), ("Sol Rnig", 1, M), ("Nope", 1, S), ("Nah", 1, MB), ("Ignored", 1, IG),
            ("Plane?", 1, P), ("Forest", 3, IG)]
    d = assemble(listing(*rows), CARDS, {"Sol Rnig": ("Sol Ring", "Soul Ring", "Sal Ring", "Sell Ring")})
    # every unresolved name is kept with its section: only game sections make unknown_card,
    # the others are named by the sideboard / not_in_deck warnings (nothing dropped silently)
    assert [(u.name, u.quantity, u.lines, u.section, u.suggestions) for u in d.unknown] == [
        ("Sol Rnig", 3, (1, 2), "main", ("Sol Ring", "Soul Ring", "Sal Ring")),
        ("Nope", 1, (3,), "sideboard", ()),
        ("Nah", 1, (4,), "maybeboard", ()),
        ("Ignored", 1, (5,), "ignored", ()),
        ("Plane?", 1, (6,), "planar", ()),
    ]
    assert d.main == () and d.sideboard == ()
    assert [(e.card.name, e.quantity, e.lines) for e in d.outside] == [("Forest", 3, (7,))]
    report = check(listing(*rows), CARDS)
    named = {v.code: (v.cards, v.lines) for v in report.violations}
    assert [v.cards for v in report.violations if v.code == Code.UNKNOWN_CARD] == [("Sol Rnig",), ("Plane?",)]
    assert named[Code.SIDEBOARD] == (("Nah", "Nope"), (3, 4))
    assert named[Code.NOT_IN_DECK] == (("Forest", "Ignored"), (5, 7))


def test_color_choices_are_keyed_by_canonical_name():
    d = assemble(listing(("Piper", 1, C)), CARDS,
                 designation=Designation.of(color_choices={"Piper": "r", "Unknown Thing": "G"}))
    assert dict(d.color_choices) == {"The Prismatic Piper": "R", "Unknown Thing": "G"}


def codes(report):
    """(code, cards) of a Report's violations in order."""
    return [(v.code, v.cards) for v in report.violations]


def test_check_reports_every_problem_sorted_with_the_decklists_own():
    unparsed = Violation(Code.UNPARSED_LINE, Text("Line 7 is not a card line."), lines=(7,))
    decklist = Decklist(
        (ListEntry("Atraxa", 2, 1, C), ListEntry("Forest", 96, 2), ListEntry("Lightning Bolt", 1, 3),
         ListEntry("Sol Rnig", 1, 4), ListEntry("Sol Ring", 1, 5, S)),
        format="moxfield",
        problems=(unparsed,),
    )
    report = check(decklist, CARDS, {"Sol Rnig": ("Sol Ring",)})
    assert codes(report) == [
        ("color_identity", ("Lightning Bolt",)),
        ("invalid_quantity", ("Atraxa, Praetors' Voice",)),  # a commander line with quantity 2
        ("unknown_card", ("Sol Rnig",)),
        ("unparsed_line", ()),
        ("sideboard", ("Sol Ring",)),
    ]
    assert (report.valid, report.format, report.commanders, report.companion) == (
        False, "moxfield", ("Atraxa, Praetors' Voice",), None,
    )
    assert report.color_identity == ("W", "U", "B", "G")
    assert report.card_count == 100  # 2 + 96 + 1 + the unknown 1


def test_check_companion_and_color_choice():
    decklist = listing(("Piper", 1, C), ("Forest", 99, M), ("Gyruda", 1, CO))
    report = check(decklist, CARDS, designation=Designation.of(color_choices={"The Prismatic Piper": "G"}))
    # every card has even mana value (Gyruda's condition holds) but Gyruda is UB, outside G
    assert codes(report) == [("color_identity", ("Gyruda, Doom of Depths",))]
    assert report.color_identity == ("G",)
    assert report.companion == "Gyruda, Doom of Depths"
    assert report.card_count == 100
    assert report.valid is False


@pytest.mark.parametrize(("rows", "expected"), [
    # a command-zone line's own quantity is invalid_quantity alone, for a companion as for a commander
    ([("Atraxa", 2, C), ("Forest", 98, M)], [("invalid_quantity", ("Atraxa, Praetors' Voice",))]),
    ([("Atraxa", 1, C), ("Forest", 99, M), ("Gyruda", 2, CO)],
     [("invalid_quantity", ("Gyruda, Doom of Depths",))]),
    # a second copy elsewhere is singleton too
    ([("Atraxa", 1, C), ("Forest", 98, M), ("Gyruda", 1, M), ("Gyruda", 1, CO)],
     [("singleton", ("Gyruda, Doom of Depths",))]),
])
def test_command_zone_quantity_is_not_also_singleton(rows, expected):
    assert codes(check(listing(*rows), CARDS)) == expected


@pytest.mark.parametrize("commanders", [["Atraxa"], ["Sol Ring"]])
def test_a_guess_is_no_warning_when_the_request_names_the_commanders(commanders):
    inferred = Violation(Code.COMMANDER_INFERRED, msg("No commander was marked; Atraxa taken as commander."),
                         Severity.WARNING, cards=("Atraxa",), lines=(2,))
    decklist = Decklist((ListEntry("Forest", 99, 1), ListEntry("Atraxa", 1, 2, C)), problems=(inferred,))
    assert Code.COMMANDER_INFERRED not in [v.code for v in check(decklist, CARDS, designation=Designation.of(commanders)).violations]
    assert Code.COMMANDER_INFERRED in [v.code for v in check(decklist, CARDS).violations]


def test_check_warnings_alone_keep_the_deck_valid():
    report = check(listing(("Atraxa", 1, C), ("Forest", 99, M), ("Sol Ring", 1, MB)), CARDS)
    assert codes(report) == [("sideboard", ("Sol Ring",))]
    assert report.valid is True


def test_inferred_warning_says_which_side_zone_card_became_the_companion():
    inferred = Violation(Code.COMMANDER_INFERRED, msg("No commander was marked; Atraxa and Gyruda taken as commander "
                                                      "from the final block."), Severity.WARNING, cards=("Atraxa", "Gyruda"), lines=(2, 3))
    decklist = Decklist((ListEntry("Forest", 98, 1, M), ListEntry("Atraxa", 1, 2, C), ListEntry("Gyruda", 1, 3, C)),
                        problems=(inferred,))
    report = check(decklist, PAIR_CARDS)
    (warning,) = [v for v in report.violations if v.code == Code.COMMANDER_INFERRED]
    assert warning.message.endswith("Gyruda, Doom of Depths has Companion, so it is the companion.")
    assert (report.commanders, report.companion) == (("Atraxa, Praetors' Voice",), "Gyruda, Doom of Depths")
