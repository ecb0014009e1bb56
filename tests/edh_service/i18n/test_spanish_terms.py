"""The Spanish answers speak the official rules vocabulary (../shared/reference/GLOSSARY.md,
from the Spanish Comprehensive Rules): the key terms, where the English says them."""

from __future__ import annotations

import pytest

from edh_service.i18n.catalogs import language
from tests.support.factories import ATRAXA, card, deck, legend
from validator.messages import Name, Term, msg
from validator.phrasing import pairing_summary
from validator.rules import color_identity, partner_pairing

SPANISH = language("es")


def spanish(text) -> str:
    return text.render(SPANISH)


def test_color_identity_is_identidad_de_color_and_the_commander_comandante():
    bolt = card("Lightning Bolt", "Instant", identity="R")
    (violation,) = color_identity(deck(ATRAXA, main=[bolt]))
    said = spanish(violation.text)
    assert "identidad de color" in said and "comandante" in said and "Lightning Bolt" in said


def test_partner_is_camarada_and_a_background_trasfondo():
    akiri = legend("Akiri, Line-Slinger", "RW", text="First strike\nPartner")
    giants = card("Raised by Giants", "Legendary Enchantment — Background", identity="G")
    assert "camarada" in spanish(pairing_summary(akiri)[0]).lower()
    assert "Trasfondo" in spanish(pairing_summary(giants)[0])
    (violation,) = partner_pairing(deck(commanders=[akiri, ATRAXA]))
    assert "camarada" in spanish(violation.text).lower()


@pytest.mark.parametrize(("english", "spanish_term"), [
    ("{card} has Choose a Background.", "elige un Trasfondo"),
    ("{card} has Doctor's companion.", "acompañante del Doctor"),
    ("{card} has Partner with {partner}.", "camarada de"),
])
def test_pairing_abilities_read_as_the_spanish_rules_write_them(english, spanish_term):
    said = spanish(msg(english, card=Name("X"), partner=Name("Y")))
    assert spanish_term.lower() in said.lower()


def test_the_command_zone_is_zona_de_mando_and_the_planar_deck_mazo_planar():
    catalog = SPANISH
    assert any("zona de mando" in catalog.gettext(text) for text in _english_ids())
    assert any("mazo planar" in catalog.gettext(text) for text in _english_ids())
    assert SPANISH.gettext(Term("a plane")).startswith("un plano")


def test_sentences_speak_to_the_player_as_tu():
    # "your companion" is "tu compañero" (GLOSSARY: "tu mazo", "tu comandante")
    said = spanish(msg("{card} has no Companion ability, so it can't be your companion.", card=Name("Sol Ring")))
    assert "tu " in said and "su compañero" not in said


def _english_ids() -> list[str]:
    from babel.messages.pofile import read_po

    from edh_service.i18n.catalogs import DIRECTORY
    with (DIRECTORY / "messages.pot").open("rb") as file:
        return [m.id for m in read_po(file) if isinstance(m.id, str) and m.id]
