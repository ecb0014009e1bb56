"""Oathbreaker's signature spells: how lists and requests mark them, and the
signature_spell rule (missing, surplus, not an instant or sorcery, two oathbreakers)."""

from __future__ import annotations

import json

import pytest

from tests.support.factories import card, deck, everywhere, filler
from validator.decklist import Designation
from validator.engine import check, validate
from validator.formats import COMMANDER, OATHBREAKER
from validator.parse import parse

PARTNER = "Partner (You can have two commanders if both have partner.)"
ROWAN = everywhere(card("Rowan, Scholar of Sparks // Will, Scholar of Frost",
                        "Legendary Planeswalker — Rowan // Legendary Planeswalker — Will", identity="UR",
                        layout="modal_dfc", text=("+1: Rowan deals 1 damage to each opponent.", "+1: ...")))
WHITE_WALKER = everywhere(card("White Walker", "Legendary Planeswalker — Test", identity="W", text=f"+1: ...\n{PARTNER}"))
BLUE_WALKER = everywhere(card("Blue Walker", "Legendary Planeswalker — Test", identity="U", text=f"+1: ...\n{PARTNER}"))
BOLT = everywhere(card("Lightning Bolt", "Instant", identity="R", cost="{R}", text="Lightning Bolt deals 3 damage."))
OPT = everywhere(card("Opt", "Instant", identity="U", cost="{U}", text="Scry 1. Draw a card."))
SWORDS = everywhere(card("Swords to Plowshares", "Instant", identity="W", cost="{W}", text="Exile target creature."))
WRATH = everywhere(card("Wrath of God", "Sorcery", identity="W", cost="{2}{W}{W}", text="Destroy all creatures."))
DETENTION = everywhere(card("Detention Sphere", "Enchantment", identity="WU", cost="{1}{W}{U}", text="..."))
AZORIUS_CHARM = everywhere(card("Azorius Charm", "Instant", identity="WU", cost="{W}{U}", text="Choose one —"))
SOL = everywhere(card("Sol Ring", "Artifact", cost="{1}", text="{T}: Add {C}{C}."))
FILLERS = [everywhere(c) for c in filler(59)]


def oathbreaker_deck(*oathbreakers, spells=(), size=60):
    """An Oathbreaker deck of `size` cards: the oathbreakers, their spells, legal filler."""
    return deck(commanders=oathbreakers, main=FILLERS[:size - len(oathbreakers) - len(spells)],
                signature_spells=spells, game_format=OATHBREAKER)


def found(d):
    """(code, cards) of every error."""
    return [(v.code, v.cards) for v in validate(d) if v.severity == "error"]


def test_one_oathbreaker_and_its_spell_is_legal():
    assert found(oathbreaker_deck(ROWAN, spells=[BOLT])) == []


def test_an_oathbreaker_without_a_signature_spell():
    errors = [v for v in validate(oathbreaker_deck(ROWAN)) if v.severity == "error"]
    assert [(v.code, v.cards) for v in errors] == [("signature_spell", (ROWAN.name,))]
    assert errors[0].message.startswith(f"{ROWAN.name} has 0 signature spells; it needs one")


def test_more_signature_spells_than_oathbreakers():
    errors = [v for v in validate(oathbreaker_deck(ROWAN, spells=[BOLT, OPT])) if v.severity == "error"]
    assert [(v.code, v.cards) for v in errors] == [("signature_spell", ("Lightning Bolt", "Opt"))]
    assert "2 signature spells for 1 oathbreaker" in errors[0].message


def test_a_signature_spell_that_is_no_instant_or_sorcery():
    errors = [v for v in validate(oathbreaker_deck(ROWAN, spells=[SOL])) if v.severity == "error"]
    assert [(v.code, v.cards) for v in errors] == [("signature_spell", ("Sol Ring",))]
    assert "an instant or sorcery" in errors[0].message


def test_an_off_identity_signature_spell_is_color_identity_alone():
    assert found(oathbreaker_deck(ROWAN, spells=[SWORDS])) == [("color_identity", ("Swords to Plowshares",))]


@pytest.mark.parametrize(("spells", "expected"), [
    ((SWORDS, OPT), []),  # one each, inside its own oathbreaker's identity
    ((OPT, SWORDS), []),
    ((SWORDS, WRATH), [("signature_spell", ("Swords to Plowshares", "Wrath of God"))]),  # both white
    ((AZORIUS_CHARM, OPT), [("signature_spell", ("Azorius Charm", "Opt"))]),  # WU fits neither alone
    ((BOLT, OPT), [("color_identity", ("Lightning Bolt",))]),  # outside both: color_identity alone
    ((OPT,), [("signature_spell", ("Blue Walker", "White Walker"))]),  # each needs its own
])
def test_two_oathbreakers_each_with_its_own_spell(spells, expected):
    assert found(oathbreaker_deck(WHITE_WALKER, BLUE_WALKER, spells=spells)) == expected


def test_two_oathbreakers_share_a_pairing_ability():
    loner = everywhere(card("Lone Walker", "Legendary Planeswalker — Test", identity="U", text="+1: ..."))
    assert found(oathbreaker_deck(WHITE_WALKER, loner, spells=[SWORDS, OPT])) == [
        ("partner_pairing", ("Lone Walker", "White Walker"))]


def test_signature_spells_are_deck_cards_everywhere():
    d = oathbreaker_deck(ROWAN, spells=[BOLT])
    report_cards = {e.card.name for e in d.main}
    assert BOLT.name in report_cards  # counted in the 60, judged for identity, legality, singleton
    twice = deck(commanders=[ROWAN], main=[BOLT, *FILLERS[:57]], signature_spells=[BOLT], game_format=OATHBREAKER)
    assert sum(e.quantity for e in (*twice.commanders, *twice.main)) == 60
    errors = [v for v in validate(twice) if v.severity == "error"]
    assert [(v.code, v.cards) for v in errors] == [("singleton", ("Lightning Bolt",))]
    assert "(signature spell included)" in errors[0].message
    banned = everywhere(card("Banned Spell", "Sorcery", identity="R"), oathbreaker="banned")
    assert found(oathbreaker_deck(ROWAN, spells=[banned])) == [("banned", ("Banned Spell",))]


# --- how lists and requests mark them -----------------------------------------------------

CARDS = {c.name: c for c in (ROWAN, WHITE_WALKER, BLUE_WALKER, BOLT, OPT, SWORDS, SOL, *FILLERS)}
REST = "\n".join(f"1 {c.name}" for c in FILLERS[:58])


def judged(text, designation=Designation(), game_format="oathbreaker"):
    """The Report of the text in the format, over CARDS."""
    return check(parse(text), CARDS, designation=designation, game_format=game_format)


@pytest.mark.parametrize("text", [
    f"Oathbreaker\n1 {ROWAN.name}\n\nSignature Spell\n1 Lightning Bolt\n\nDeck\n{REST}\n",
    f"Commander\n1 {ROWAN.name}\n\nSignature Spells\n1 Lightning Bolt\n\nDeck\n{REST}\n",
    f"1 {ROWAN.name} [Oathbreaker]\n1 Lightning Bolt [Signature Spell]\n{REST}\n",  # Archidekt text categories
    f"Commander\n1 {ROWAN.name}\n1 Lightning Bolt\n\nDeck\n{REST}\n",  # the spell kept beside its oathbreaker
    f"{REST}\n\n1 {ROWAN.name}\n1 Lightning Bolt\n",  # MTGO's final block
])
def test_lists_mark_oathbreaker_and_signature_spell(text):
    report = judged(text)
    assert (report.valid, report.commanders, report.signature_spells, report.card_count) == (
        True, (ROWAN.name,), ("Lightning Bolt",), 60), report.violations


def test_a_signature_spell_section_counts_as_deck_cards_in_other_formats():
    report = judged(f"Commander\n1 {ROWAN.name}\n\nSignature Spell\n1 Lightning Bolt\n\nDeck\n{REST}\n",
                    game_format="commander")
    assert (report.signature_spells, report.card_count) == ((), 60)
    assert {"commander_ineligible", "deck_size"} <= {v.code for v in report.violations}


def test_the_request_designates_signature_spells_over_the_text():
    text = f"Oathbreaker\n1 {ROWAN.name}\n\nSignature Spell\n1 Lightning Bolt\n\nDeck\n1 Opt\n" + "\n".join(
        f"1 {c.name}" for c in FILLERS[:57]) + "\n"
    # a listed card named there is that card (not a second copy); the text's spell is a deck card
    report = judged(text, Designation.of(signature_spells=["Opt"]))
    assert (report.valid, report.signature_spells, report.card_count) == (True, ("Opt",), 60), report.violations
    # one not in the list is added, and counted
    short = f"Oathbreaker\n1 {ROWAN.name}\n\nDeck\n" + "\n".join(f"1 {c.name}" for c in FILLERS[:58]) + "\n"
    report = judged(short, Designation.of(signature_spells=["Lightning Bolt"]))
    assert (report.valid, report.signature_spells, report.card_count) == (True, ("Lightning Bolt",), 60)


def test_an_unknown_signature_spell_counts_and_is_no_missing_spell():
    report = judged(f"Oathbreaker\n1 {ROWAN.name}\n\nSignature Spell\n1 Lightning Blot\n\nDeck\n{REST}\n")
    assert [(v.code, v.cards) for v in report.violations] == [("unknown_card", ("Lightning Blot",))]
    assert report.card_count == 60


def test_a_moxfield_export_with_signature_spells_names_its_format():
    board = {"quantity": 1, "card": {"name": "Lightning Bolt"}}
    export = {"format": "oathbreaker", "boards": {
        "commanders": {"cards": {"a": {"quantity": 1, "card": {"name": ROWAN.name}}}},
        "signatureSpells": {"cards": {"b": board}},
        "mainboard": {"cards": {str(i): {"quantity": 1, "card": {"name": c.name}} for i, c in enumerate(FILLERS[:58])}},
    }}
    report = check(parse(json.dumps(export, indent=1)), CARDS)
    assert (report.game_format, report.valid, report.signature_spells) == ("oathbreaker", True, ("Lightning Bolt",))
    assert [v.code for v in report.violations] == ["format_inferred"]


def test_an_archidekt_export_with_oathbreaker_categories():
    def item(c, category):
        return {"quantity": 1, "categories": [category], "card": {"oracleCard": {"name": c.name}}}

    export = {"deckFormat": 14, "categories": [{"name": "Oathbreaker"}, {"name": "Signature Spell"}],
              "cards": [item(ROWAN, "Oathbreaker"), item(BOLT, "Signature Spell"),
                        *(item(c, "Artifacts") for c in FILLERS[:58])]}
    report = check(parse(json.dumps(export)), CARDS)
    assert (report.game_format, report.valid, report.commanders, report.signature_spells) == (
        "oathbreaker", True, (ROWAN.name,), ("Lightning Bolt",))


def test_commander_judges_a_signature_spell_like_any_card():
    assert COMMANDER.signature_spells is False and OATHBREAKER.signature_spells is True
    d = deck(commanders=[ROWAN], main=FILLERS[:58], signature_spells=[BOLT], game_format=COMMANDER)
    assert "signature_spell" not in {v.code for v in validate(d)}
