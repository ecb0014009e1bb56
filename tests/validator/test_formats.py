"""The Commander-family formats (validator/formats.py, DESIGN.md): the table and its
lookups, and each format's rules on hand-made cards: size, who can command, legality by
the format's own key, Duel's role ban, 903.12e, Pauper Commander's list, brackets."""

from __future__ import annotations

import pytest

from tests.support.factories import (
    ATRAXA, BACKGROUND, FOREST, LIGHTNING_BOLT, LUTRI, SNOW_FOREST, SOL_RING, WASTES, WILSON, YORION, card, deck,
    everywhere, filler, full_deck, legend,
)
from validator import deck_facts, formats
from validator.decklist import Designation
from validator.engine import check, validate
from validator.formats import (
    BRAWL, COMMANDER, DUEL, FORMATS, OATHBREAKER, PAUPER_COMMANDER, PREDH, STANDARD_BRAWL, FieldNotInFormat, FormatData,
    UnknownFormat, format_named, format_table, named_in_file,
)
from validator.parse import parse
from tests.support.engines import plain_python_only

# --- cards with a value for every format's key ---------------------------------------

ATRAXA_ALL = everywhere(ATRAXA)
SOL = everywhere(SOL_RING)
BOLT = everywhere(LIGHTNING_BOLT)
WASTES_ALL = everywhere(WASTES)
KARN = everywhere(card("Karn, Legacy Reforged", "Legendary Planeswalker — Karn", text="+1: ..."))
TEFERI = everywhere(card("Teferi, Master of Time", "Legendary Planeswalker — Teferi", identity="U", text="+1: ..."))
PLAIN_WALKER = everywhere(card("Walker Without Legend", "Planeswalker — Test", identity="U", text="+1: ..."))
ISLAND = everywhere(card("Island", "Basic Land — Island", identity="U", text="({T}: Add {U}.)"))
SNOW_ISLAND = everywhere(card("Snow-Covered Island", "Basic Snow Land — Island", identity="U", text="({T}: Add {U}.)"))
FOREST_ALL = everywhere(FOREST)
SNOW_FOREST_ALL = everywhere(SNOW_FOREST)
PLAINS = everywhere(card("Plains", "Basic Land — Plains", identity="W", text="({T}: Add {W}.)"))
# a legal PDH commander reads not_legal in Scryfall's key (FORMATS.md): only the list judges it
WITNESS = everywhere(card("Eternal Witness", "Creature — Human Shaman", identity="G", cost="{1}{G}{G}",
                          text="When this creature enters, return target card from your graveyard to your hand."),
                     paupercommander="not_legal")
PDH_WILSON = everywhere(WILSON, paupercommander="not_legal")
PDH_BACKGROUND = everywhere(BACKGROUND, paupercommander="not_legal")
PDH_LIST = FormatData(pauper_commanders=frozenset({WITNESS.name, PDH_WILSON.name, PDH_BACKGROUND.name}))


def codes(d) -> list[str]:
    """Every violation code of the deck, errors and warnings, in report order."""
    return [v.code for v in validate(d)]


def errors(d) -> list[tuple[str, tuple[str, ...]]]:
    """(code, cards) of every error of the deck."""
    return [(v.code, v.cards) for v in validate(d) if v.severity == "error"]


def fill(*commanders, size=100, main=None, **kwargs):
    """A deck of the size with every card legal everywhere (filler artifacts)."""
    main = dict(main or {})
    spells = len(tuple(kwargs.get("signature_spells", ())))
    missing = size - len(commanders) - sum(main.values()) - spells
    main.update({everywhere(c): q for c, q in filler(missing).items()})
    return deck(commanders=commanders, main=main, **kwargs)


# --- the table -------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "key"), [
    ("commander", "commander"), ("EDH", "commander"), ("edh", "commander"),
    ("duel", "duel"), ("DuelCommander", "duel"), ("dc", "duel"),
    ("brawl", "brawl"), ("historicbrawl", "brawl"), ("HistoricBrawl", "brawl"),
    ("standardbrawl", "standardbrawl"), (" Oathbreaker ", "oathbreaker"),
    ("paupercommander", "paupercommander"), ("PDH", "paupercommander"), ("pauperedh", "paupercommander"),
    ("PreDH", "predh"),
])
def test_format_named_takes_keys_and_aliases_in_any_case(text, key):
    assert format_named(text).key == key


@pytest.mark.parametrize("text", ["modern", "pauper commander", "", "commander!", None, 3])
def test_an_unknown_format_is_a_value_error_naming_the_seven_keys(text):
    with pytest.raises(UnknownFormat) as raised:
        format_named(text)
    assert isinstance(raised.value, ValueError) and raised.value.field == "format"
    message = str(raised.value)
    assert all(key in message for key in
               ("commander", "duel", "brawl", "standardbrawl", "oathbreaker", "paupercommander", "predh"))


def test_the_table_as_data():
    table = format_table()
    assert [row["key"] for row in table] == [
        "commander", "duel", "brawl", "standardbrawl", "oathbreaker", "paupercommander", "predh"]
    assert all(set(row) == {"key", "name", "deck_size", "commander", "legality_key", "brackets", "aliases"}
               for row in table)
    by_key = {row["key"]: row for row in table}
    assert {key: row["deck_size"] for key, row in by_key.items()} == {
        "commander": 100, "duel": 100, "brawl": 100, "standardbrawl": 60, "oathbreaker": 60,
        "paupercommander": 100, "predh": 100}
    assert [key for key, row in by_key.items() if row["brackets"]] == ["commander"]
    assert by_key["duel"]["aliases"] == ["duelcommander", "dc"]
    assert by_key["paupercommander"]["aliases"] == ["pdh", "pauperedh"]
    assert all(row["legality_key"] == row["key"] for row in table)
    assert "planeswalker" in by_key["brawl"]["commander"] and "planeswalker" not in by_key["commander"]["commander"]
    assert "is:paupercommander" in by_key["paupercommander"]["commander"]


@pytest.mark.parametrize(("text", "key"), [
    ("duelCommander", "duel"), ("historicBrawl", "brawl"), ("pauperEdh", "paupercommander"),
    ("standardBrawl", "standardbrawl"), ("oathbreaker", "oathbreaker"), ("predh", "predh"),
    ("Pauper Commander", "paupercommander"), ("Duel Commander", "duel"), ("Commander / EDH", "commander"),
    ("Historic Brawl", "brawl"), ("Pre-DH", "predh"),
    ("modern", None), ("1v1 Commander", None), ("", None), (None, None),
])
def test_the_format_a_file_names(text, key):
    found = named_in_file(text)
    assert (found.key if found else None) == key


# --- deck size ---------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "commander", "size", "rule"), [
    (COMMANDER, ATRAXA_ALL, 100, "903.5a"),
    (DUEL, ATRAXA_ALL, 100, "903.5a"),
    (BRAWL, TEFERI, 100, "903.5a"),
    (STANDARD_BRAWL, TEFERI, 60, "903.12d"),
    (PREDH, ATRAXA_ALL, 100, "903.5a"),
])
def test_deck_size_is_the_formats(fmt, commander, size, rule):
    assert errors(fill(commander, size=size, game_format=fmt)) == []
    for wrong in (size - 1, size + 1, 160 - size):
        found = [v for v in validate(fill(commander, size=wrong, game_format=fmt)) if v.severity == "error"]
        assert [(v.code, v.rule) for v in found] == [("deck_size", rule)]
        assert f"{fmt.name} deck has exactly {size}" in found[0].message


def test_an_oathbreaker_deck_counts_its_signature_spell_in_the_60():
    rowan = everywhere(ROWAN)
    assert errors(fill(rowan, size=60, signature_spells=[BOLT], game_format=OATHBREAKER)) == []
    (found,) = validate(fill(rowan, size=59, signature_spells=[BOLT], game_format=OATHBREAKER))
    assert (found.code, found.rule) == ("deck_size", None)
    assert found.message == ("The deck has 59 cards; an Oathbreaker deck has exactly 60, oathbreakers and signature "
                             "spells included and companion excluded.")


# --- who can command ---------------------------------------------------------------------

ROWAN = card("Rowan, Scholar of Sparks // Will, Scholar of Frost",
             "Legendary Planeswalker — Rowan // Legendary Planeswalker — Will", identity="UR", layout="modal_dfc",
             text=("+1: Rowan deals 1 damage to each opponent.", "+1: Up to one target creature gets -3/-0."))
KYTHEON = card("Kytheon, Hero of Akros // Gideon, Battle-Forged",
               "Legendary Creature — Human Soldier // Legendary Planeswalker — Gideon", identity="W",
               layout="transform", text=("At end of combat, ...", "+2: ..."))
COMMANDS_ITSELF = card("Shorikai, Genesis Engine", "Legendary Artifact — Vehicle", identity="WU", pt=True,
                       text="Crew 8\nShorikai, Genesis Engine can be your commander.")


def test_brawl_takes_a_legendary_planeswalker_commander_and_commander_does_not():
    assert errors(fill(TEFERI, game_format=BRAWL)) == []
    assert errors(fill(TEFERI, size=60, game_format=STANDARD_BRAWL)) == []
    assert errors(fill(TEFERI)) == [("commander_ineligible", (TEFERI.name,))]
    (refused,) = [v for v in validate(fill(PLAIN_WALKER, game_format=BRAWL)) if v.severity == "error"]
    assert (refused.code, refused.rule) == ("commander_ineligible", "903.12c")
    assert refused.message == "Walker Without Legend is not legendary, so it can't be your commander."
    (sorcery,) = [v for v in validate(fill(everywhere(card("Big Spell", "Legendary Sorcery")), game_format=BRAWL))
                  if v.severity == "error"]
    assert "not a creature, planeswalker, Vehicle or Spacecraft" in sorcery.message


@pytest.mark.parametrize(("commander", "eligible"), [
    (ROWAN, True),  # a planeswalker front face (modal DFC)
    (TEFERI, True),
    (PLAIN_WALKER, True),  # Oathbreaker asks for a planeswalker, legendary or not
    (KYTHEON, False),  # a creature that transforms into one
    (COMMANDS_ITSELF, False),  # "can be your commander" makes no oathbreaker
    (ATRAXA, False),
])
def test_who_can_be_an_oathbreaker(commander, eligible):
    found = errors(fill(everywhere(commander), size=60, signature_spells=[everywhere(card("Spell", "Sorcery"))],
                        game_format=OATHBREAKER))
    assert found == ([] if eligible else [("commander_ineligible", (commander.name,))])


def test_an_oathbreaker_refused_says_the_front_face_counts():
    (found,) = [v for v in validate(fill(everywhere(KYTHEON), size=60, signature_spells=[BOLT],
                                         game_format=OATHBREAKER)) if v.code == "commander_ineligible"]
    assert found.message.startswith("Kytheon, Hero of Akros // Gideon, Battle-Forged's front face is a Legendary "
                                    "Creature — Human Soldier, not a planeswalker")


def test_pauper_commander_commanders_come_from_the_list_alone():
    # on the list: eligible, and its not_legal paupercommander value is not held against it
    assert errors(fill(WITNESS, game_format=PAUPER_COMMANDER, format_data=PDH_LIST)) == []
    # a legendary creature not on the list is no PDH commander, legal as it is in Commander
    refused = validate(fill(ATRAXA_ALL, game_format=PAUPER_COMMANDER, format_data=PDH_LIST))
    assert [(v.code, v.cards) for v in refused if v.severity == "error"] == [("commander_ineligible", (ATRAXA.name,))]
    assert "is:paupercommander" in refused[0].message
    # the same uncommon creature in the 99 is not_legal there (commons only)
    assert errors(fill(everywhere(ATRAXA, paupercommander="not_legal"), main={WITNESS: 1},
                       game_format=PAUPER_COMMANDER, format_data=FormatData(frozenset({ATRAXA.name})))) == [
        ("not_legal", (WITNESS.name,))]


def test_pauper_commander_without_its_list_never_takes_a_commander_as_legal_silently():
    found = validate(fill(WITNESS, game_format=PAUPER_COMMANDER))  # no FormatData: not loaded
    assert [(v.code, v.severity, v.cards) for v in found] == [("legality_unknown", "warning", (WITNESS.name,))]
    assert "commander list is not loaded" in found[0].message
    # a card that can't be one at all is still refused
    assert errors(fill(TEFERI, game_format=PAUPER_COMMANDER)) == [("commander_ineligible", (TEFERI.name,))]


@pytest.mark.parametrize(("listed", "refused"), [
    ({PDH_WILSON.name, PDH_BACKGROUND.name}, []),
    ({PDH_WILSON.name}, [PDH_BACKGROUND.name]),  # an uncommon creature beside a Background not on the list
    ({PDH_BACKGROUND.name}, [PDH_WILSON.name]),
])
def test_a_pauper_commander_background_pair_needs_both_on_the_list(listed, refused):
    found = errors(fill(PDH_WILSON, PDH_BACKGROUND, game_format=PAUPER_COMMANDER,
                        format_data=FormatData(frozenset(listed))))
    assert found == [("commander_ineligible", (name,)) for name in refused]


def test_a_pauper_commander_background_alone_commands_nothing():
    assert errors(fill(PDH_BACKGROUND, game_format=PAUPER_COMMANDER, format_data=PDH_LIST)) == [
        ("commander_ineligible", (BACKGROUND.name,))]


# --- legality by the format's own key ------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.key)
@pytest.mark.parametrize("value", ["banned", "not_legal"])
def test_legality_is_read_from_the_formats_own_key(fmt, value):
    commander, size, extra = _legal_start(fmt)
    bad = everywhere(card("Odd Card", "Artifact"), **{fmt.legality_key: value})
    found = errors(fill(commander, size=size, main={bad: 1}, game_format=fmt, **extra))
    assert found == [(value, ("Odd Card",))]
    others = [f for f in FORMATS if f is not fmt and f.legality_key != fmt.legality_key]
    for other in others:  # the same card is legal wherever its key says so
        start, other_size, other_extra = _legal_start(other)
        assert errors(fill(start, size=other_size, main={bad: 1}, game_format=other, **other_extra)) == []


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f is not COMMANDER], ids=lambda f: f.key)
def test_a_card_without_the_formats_key_is_legality_unknown_never_legal(fmt):
    commander, size, extra = _legal_start(fmt)
    unknown = everywhere(card("New Card", "Artifact"), **{fmt.legality_key: None})
    found = validate(fill(commander, size=size, main={unknown: 1}, game_format=fmt, **extra))
    assert [(v.code, v.severity, v.cards) for v in found] == [("legality_unknown", "warning", ("New Card",))]
    assert fmt.legality_key in found[0].message
    assert not any(v.code == "legality_unknown" for v in validate(fill(commander, size=size, game_format=fmt,
                                                                         **extra)))


def test_commander_keeps_reading_a_missing_commander_key_as_not_legal():
    # card_data's to_card has always read a missing legalities.commander as not_legal
    no_key = everywhere(card("New Card", "Artifact"), commander=None)
    assert errors(fill(ATRAXA_ALL, main={no_key: 1})) == [("not_legal", ("New Card",))]


def test_legality_unknown_names_every_such_card_once_with_their_lines():
    a, b = (everywhere(card(name, "Artifact"), duel=None) for name in ("Card A", "Card B"))
    d = fill(ATRAXA_ALL, main={a: 1, b: 1}, game_format=DUEL)
    (found,) = [v for v in validate(d) if v.code == "legality_unknown"]
    assert found.cards == ("Card A", "Card B")
    assert found.lines == tuple(sorted(line for e in d.main if e.card in (a, b) for line in e.lines))


def _legal_start(fmt):
    """A legal commander, the deck size and deck() extras for a format."""
    if fmt.signature_spells:
        return everywhere(ROWAN), 60, {"signature_spells": [BOLT_FOR_ROWAN]}
    if fmt is PAUPER_COMMANDER:
        return WITNESS, 100, {"format_data": PDH_LIST}
    if fmt.basic_land_type_choice:
        return TEFERI, fmt.deck_size, {}
    return ATRAXA_ALL, fmt.deck_size, {}


BOLT_FOR_ROWAN = BOLT  # red, inside Rowan's UR


# --- Duel's role ban -----------------------------------------------------------------------

TAMIYO = everywhere(legend("Tamiyo, Inquisitive Student // Tamiyo, Seasoned Scholar", "U"), duel="restricted")


def test_duel_restricted_is_banned_as_commander_only():
    d = fill(TAMIYO, game_format=DUEL)
    found = [v for v in validate(d) if v.severity == "error"]
    assert [(v.code, v.cards, v.lines) for v in found] == [("banned_as_commander", (TAMIYO.name,),
                                                            d.commanders[0].lines)]
    assert found[0].message == f"{TAMIYO.name} is banned as a commander in Duel Commander (it is legal in the deck)."
    blue = everywhere(legend("Blue Commander", "U"))
    assert errors(fill(blue, main={TAMIYO: 1}, game_format=DUEL)) == []  # legal in the 99
    assert errors(fill(TAMIYO)) == []  # Commander has no such ban


def test_duel_banned_is_banned_anywhere_and_one_code_per_card():
    banned = everywhere(legend("Banned Legend", "U"), duel="banned")
    assert errors(fill(banned, game_format=DUEL)) == [("banned", (banned.name,))]


def test_pauper_commander_restricted_in_the_99_is_not_legal():
    # an old cached `restricted` meant "commander only" there (FORMATS.md)
    old = everywhere(card("Old Uncommon", "Creature — Elf", identity="G"), paupercommander="restricted")
    assert errors(fill(WITNESS, main={old: 1}, game_format=PAUPER_COMMANDER, format_data=PDH_LIST)) == [
        ("not_legal", (old.name,))]


# --- 903.12e: a colorless commander's basic land type ------------------------------------


@pytest.mark.parametrize("fmt", [BRAWL, STANDARD_BRAWL], ids=lambda f: f.key)
def test_903_12e_one_basic_land_type_by_type_with_wastes_always(fmt):
    basics = {ISLAND: 10, SNOW_ISLAND: 5, WASTES_ALL: 7}  # Island and Snow-Covered Island share a type
    assert errors(fill(KARN, size=fmt.deck_size, main=basics, game_format=fmt)) == []
    found = [v for v in validate(fill(KARN, size=fmt.deck_size, main={**basics, FOREST_ALL: 3, SNOW_FOREST_ALL: 1},
                                      game_format=fmt)) if v.severity == "error"]
    assert [(v.code, v.cards, v.rule) for v in found] == [
        ("color_identity", ("Forest",), "903.12e"), ("color_identity", ("Snow-Covered Forest",), "903.12e")]
    assert "Island (the type with the most copies)" in found[0].message


def test_903_12e_takes_the_type_with_most_copies():
    found = errors(fill(KARN, main={ISLAND: 10, FOREST_ALL: 20}, game_format=BRAWL))
    assert found == [("color_identity", ("Island",))]
    tie = errors(fill(KARN, main={ISLAND: 5, PLAINS: 5}, game_format=BRAWL))
    assert tie == [("color_identity", ("Island",))]  # a tie goes to the first in WUBRG order


@pytest.mark.parametrize("fmt", [COMMANDER, DUEL, PREDH], ids=lambda f: f.key)
def test_903_12e_does_not_exist_outside_brawl(fmt):
    colorless = everywhere(legend("Colorless Legend", ""))
    found = errors(fill(colorless, main={ISLAND: 10, WASTES_ALL: 5}, game_format=fmt))
    assert found == [("color_identity", ("Island",))]


def test_903_12e_is_for_colorless_commanders_only():
    found = errors(fill(TEFERI, main={ISLAND: 10, FOREST_ALL: 3}, game_format=BRAWL))
    assert found == [("color_identity", ("Forest",))]
    assert [v.rule for v in validate(fill(TEFERI, main={FOREST_ALL: 3}, game_format=BRAWL))
            if v.code == "color_identity"] == ["903.5c"]


# --- companions ------------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "banned"), [(COMMANDER, True), (DUEL, True), (BRAWL, False)])
def test_lutri_is_banned_as_companion_where_the_format_says(fmt, banned):
    izzet = everywhere(legend("Izzet Legend", "UR"))
    found = [v for v in validate(fill(izzet, game_format=fmt, companion=everywhere(LUTRI))) if v.severity == "error"]
    assert [(v.code, v.cards) for v in found] == ([("companion_ineligible", (LUTRI.name,))] if banned else [])
    if banned:
        assert f"banned as a companion in {fmt.name}" in found[0].message


def test_yorion_reads_the_formats_minimum():
    found = [v for v in validate(fill(everywhere(ROWAN), size=60, signature_spells=[BOLT], game_format=OATHBREAKER,
                                      companion=everywhere(YORION))) if v.code == "companion_condition"]
    assert "at least 80 cards" in found[0].message and "a deck of exactly 60 cards in Oathbreaker" in found[0].message


# --- brackets: Commander only ------------------------------------------------------------------

DECK_TEXT = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Ring\n98 Wastes\n"
CARDS = {"Atraxa, Praetors' Voice": ATRAXA_ALL, "Sol Ring": SOL, "Wastes": WASTES_ALL}


def test_brackets_only_in_commander():
    decklist = parse(DECK_TEXT)
    assert check(decklist, CARDS).bracket is not None
    report = check(decklist, CARDS, game_format="duel")
    assert (report.valid, report.game_format, report.bracket) == (True, "duel", None)
    with pytest.raises(FieldNotInFormat) as raised:
        check(decklist, CARDS, game_format="duel", bracket=3)
    assert isinstance(raised.value, ValueError) and raised.value.field == "bracket"
    assert "bracket" in str(raised.value) and "Commander" in str(raised.value)
    assert check(decklist, CARDS, bracket=3).bracket.declared == 3


def test_signature_spells_designated_outside_oathbreaker_are_refused():
    with pytest.raises(FieldNotInFormat) as raised:
        check(parse(DECK_TEXT), CARDS, designation=Designation.of(signature_spells=["Sol Ring"]))
    assert raised.value.field == "signature_spells"


def test_check_reports_the_canonical_key_and_refuses_an_unknown_one():
    decklist = parse(DECK_TEXT)
    assert check(decklist, CARDS, game_format="EDH").game_format == "commander"
    assert check(decklist, CARDS, game_format=PREDH).game_format == "predh"
    assert check(decklist, CARDS).format == "arena"  # the decklist syntax, as before
    with pytest.raises(UnknownFormat):
        check(decklist, CARDS, game_format="modern")


# --- inference by the format's eligibility and size ---------------------------------------------


def _commander_first(first: list[str], rest: int) -> str:
    """A commander-first list: the block, a blank line, `rest` filler cards."""
    return "\n".join(f"1 {name}" for name in first) + "\n\n" + "\n".join(f"1 Filler {i}" for i in range(rest)) + "\n"


FILLER = {f"Filler {i}": everywhere(card(f"Filler {i}", "Artifact", cost="{2}")) for i in range(99)}


def test_inference_uses_the_formats_eligibility():
    cards = {**FILLER, TEFERI.name: TEFERI}
    decklist = parse(_commander_first([TEFERI.name], 99))
    brawl = check(decklist, cards, game_format="brawl")
    assert (brawl.valid, brawl.commanders) == (True, (TEFERI.name,))
    assert [v.code for v in brawl.violations] == ["commander_inferred"]
    commander = check(decklist, cards)
    assert commander.commanders == () and "commander_missing" in [v.code for v in commander.violations]


def test_inference_uses_the_formats_size():
    cards = {**FILLER, TEFERI.name: TEFERI}
    decklist = parse(_commander_first([TEFERI.name], 59))
    assert check(decklist, cards, game_format="standardbrawl").commanders == (TEFERI.name,)
    assert check(decklist, cards, game_format="brawl").commanders == ()  # 60 cards make no Brawl deck


def test_an_oathbreaker_first_block_of_planeswalker_and_instant_is_oathbreaker_and_signature_spell():
    rowan = everywhere(ROWAN)
    cards = {**FILLER, rowan.name: rowan, BOLT.name: BOLT}
    decklist = parse(_commander_first([rowan.name, BOLT.name], 58))
    report = check(decklist, cards, game_format="oathbreaker")
    assert (report.valid, report.commanders, report.signature_spells, report.card_count) == (
        True, (rowan.name,), (BOLT.name,), 60)
    (inferred,) = report.violations
    assert inferred.code == "commander_inferred" and inferred.lines == (1, 2)
    assert inferred.message == (f"No oathbreaker was marked; {rowan.name} taken as oathbreaker and Lightning Bolt as "
                                "its signature spell from the first block, before a blank line (a commander-first "
                                "list). It can be an oathbreaker. The deck then has 60 cards.")
    assert check(decklist, cards).commanders == ()  # nothing in Commander: no pair, 60 cards


# --- all formats at once ----------------------------------------------------------------------


def test_judge_formats_gives_every_formats_verdict():
    pool = everywhere(card("Old Card", "Artifact"), brawl="not_legal", standardbrawl="not_legal",
                      paupercommander="not_legal")
    cards = {**CARDS, "Old Card": pool}
    decklist = parse("Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Old Card\n98 Wastes\n")
    verdicts = check(decklist, cards, with_formats=True, format_data=PDH_LIST).formats
    assert {key: (v.valid, v.codes) for key, v in verdicts.items()} == {
        "commander": (True, ()),
        "duel": (True, ()),
        "brawl": (False, ("not_legal",)),
        "standardbrawl": (False, ("deck_size", "not_legal")),
        "oathbreaker": (False, ("commander_ineligible", "deck_size", "signature_spell")),
        "paupercommander": (False, ("commander_ineligible", "not_legal")),
        "predh": (True, ()),
    }
    from validator.engine import judge_formats

    assert judge_formats(decklist, cards, format_data=PDH_LIST) == verdicts
    assert check(decklist, cards).formats is None  # opt-in


def test_a_format_the_data_cannot_judge_is_unknown_never_legal():
    # no Duel value for one card, and no Pauper Commander list loaded (no format_data):
    # neither has an error, and neither may say "legal"
    old = everywhere(card("Old Card", "Artifact"), duel=None, brawl="not_legal")
    cards = {**CARDS, "Old Card": old}
    decklist = parse("Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Old Card\n98 Wastes\n")
    verdicts = check(decklist, cards, with_formats=True).formats
    assert {key: (v.status, v.valid, v.codes) for key, v in verdicts.items()} == {
        "commander": ("legal", True, ()),
        "duel": ("unknown", True, ()),
        "brawl": ("not_legal", False, ("not_legal",)),
        "standardbrawl": ("not_legal", False, ("deck_size",)),
        "oathbreaker": ("not_legal", False, ("commander_ineligible", "deck_size", "signature_spell")),
        "paupercommander": ("unknown", True, ()),
        "predh": ("legal", True, ()),
    }
    # the codes-only path agrees with each format judged alone, warnings included
    for key, verdict in verdicts.items():
        alone = check(decklist, cards, game_format=key)
        unknown = [v.cards for v in alone.violations if v.code == "legality_unknown"]
        assert (verdict.status == "unknown") == (alone.valid and bool(unknown)), key
    assert [v.cards for v in check(decklist, cards, game_format="duel").violations] == [("Old Card",)]
    assert [v.cards for v in check(decklist, cards, game_format="paupercommander").violations] == [
        ("Atraxa, Praetors' Voice",)]


SIGNATURE_TEXT = "Commander\n1 Atraxa, Praetors' Voice\n\nSignature Spell\n1 Sol Ring\n\nDeck\n98 Wastes\n"


@pytest.mark.parametrize(("text", "assembled"), [
    # a marked commander needs no inference, and nothing marks a signature spell: one deck
    # serves every format
    (DECK_TEXT, ["commander"]),
    # a Signature Spell section: Oathbreaker assembles its own
    (SIGNATURE_TEXT, ["commander", "oathbreaker"]),
])
@plain_python_only
def test_judge_formats_assembles_once_per_distinct_deck(monkeypatch, text, assembled):
    from validator import engine

    calls = []
    real = engine.assemble
    monkeypatch.setattr(engine, "assemble", lambda *a, **k: calls.append(k["game_format"].key) or real(*a, **k))
    verdicts = engine.judge_formats(parse(text), CARDS)
    assert calls == assembled
    assert len(verdicts) == 7


def test_judge_formats_runs_the_deck_only_rules_once_per_assembly(monkeypatch):
    from validator import engine, rules

    runs = []

    def counting(deck):
        runs.append(deck.format.key)
        return iter(())

    monkeypatch.setattr(engine, "DECK_RULES", (*rules.DECK_RULES, counting))
    engine.judge_formats(parse(SIGNATURE_TEXT), CARDS)
    assert runs == ["commander", "oathbreaker"]
    runs.clear()
    engine.judge_formats(parse(_commander_first([TEFERI.name], 99)), {**FILLER, TEFERI.name: TEFERI})
    # inferred per kind of commander and size: Commander, Duel and PreDH share theirs, Brawl
    # infers Teferi (another deck), Standard Brawl and Oathbreaker (60) and PDH infer nothing,
    # so they share the uninferred list with Commander's
    assert runs == ["commander", "brawl"]


# --- the format a list names ----------------------------------------------------------------------


def test_a_list_naming_its_format_is_judged_in_it_with_a_warning():
    decklist = parse("Format: Duel Commander\n" + DECK_TEXT)
    report = check(decklist, {**CARDS, "Sol Ring": everywhere(SOL_RING, duel="banned")})
    assert report.game_format == "duel"
    assert [(v.code, v.severity, v.lines) for v in report.violations] == [
        ("banned", "error", (6,)), ("format_inferred", "warning", (1,))]
    assert "Duel Commander" in report.violations[1].message


def test_the_callers_format_always_wins_and_an_unsupported_one_is_ignored():
    named = parse("Format: Duel Commander\n" + DECK_TEXT)
    report = check(named, CARDS, game_format="commander")
    assert (report.game_format, [v.code for v in report.violations]) == ("commander", [])
    for text in ("Format: Modern\n", "# Format: Commander\n"):
        report = check(parse(text + DECK_TEXT), CARDS)
        assert (report.game_format, [v.code for v in report.violations]) == ("commander", [])


def test_formats_module_exports():
    assert formats.KEYS == tuple(f.key for f in FORMATS)
    assert deck_facts.deck_format(deck(ATRAXA)) is COMMANDER


def test_the_plain_screen_covers_every_non_deck_type():
    from validator.card_facts import NON_DECK_LAYOUTS, NON_DECK_TYPES
    from validator.deck import PLAIN_LAYOUTS, SUSPECT_TYPES

    assert SUSPECT_TYPES == frozenset(NON_DECK_TYPES) | {"Conspiracy"}
    assert PLAIN_LAYOUTS.isdisjoint(NON_DECK_LAYOUTS)
    assert card("Sol Ring", "Artifact").plain and not card("Goblin", "Token Creature — Goblin", layout="token").plain
    assert not card("Brisela", "Legendary Creature — Angel", is_meld_result=True).plain
    assert not card("Balloon Stand", "Artifact — Attraction").plain


ODD_CARDS = (
    everywhere(card("Banned Here", "Artifact"), duel="banned", brawl="banned"),
    everywhere(card("Not Everywhere", "Artifact"), predh="not_legal", paupercommander="restricted"),
    everywhere(card("Unknown Here", "Artifact"), oathbreaker=None, standardbrawl=None),
    everywhere(card("Backup Plan", "Conspiracy")),
    everywhere(card("Tazeem", "Plane — Zendikar", layout="planar")),
    TAMIYO, WITNESS,
)


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.key)
@pytest.mark.parametrize("commander", [ATRAXA_ALL, TAMIYO, WITNESS, everywhere(ROWAN), TEFERI],
                         ids=lambda c: c.name.split(",")[0])
def test_legality_codes_are_the_legality_rules_codes(fmt, commander):
    from validator.rules import legality, legality_codes

    d = fill(commander, main={c: 1 for c in ODD_CARDS if c is not commander}, game_format=fmt, format_data=PDH_LIST)
    assert legality_codes(d) == {v.code for v in legality(d)}  # its errors, and legality_unknown when it warns
    unlisted = fill(commander, game_format=fmt)  # no PDH list: a PDH commander can't be verified
    assert legality_codes(unlisted) == {v.code for v in legality(unlisted)}


@pytest.mark.parametrize("text", [
    DECK_TEXT,
    "Format: Brawl\n" + DECK_TEXT,
    "Commander\n1 Atraxa, Praetors' Voice\n\nSignature Spell\n1 Sol Ring\n\nDeck\n98 Wastes\n",
    "1 Teferi, Master of Time\n\n" + "\n".join(f"1 Filler {i}" for i in range(59)) + "\n",
    "1 Rowan, Scholar of Sparks // Will, Scholar of Frost\n1 Lightning Bolt\n\n"
    + "\n".join(f"1 Filler {i}" for i in range(58)) + "\n",
])
def test_each_formats_verdict_is_what_checking_in_that_format_finds(text):
    from validator.engine import judge_formats

    cards = {**CARDS, **FILLER, TEFERI.name: TEFERI, ROWAN.name: everywhere(ROWAN), BOLT.name: BOLT}
    decklist = parse(text)
    verdicts = judge_formats(decklist, cards, format_data=PDH_LIST)
    for fmt in FORMATS:
        report = check(decklist, cards, game_format=fmt, format_data=PDH_LIST)
        errors_found = sorted({v.code for v in report.violations if v.severity == "error"})
        assert (verdicts[fmt.key].valid, list(verdicts[fmt.key].codes)) == (report.valid, errors_found), fmt.key
