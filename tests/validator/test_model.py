"""The shared model: violations sort errors first, cards expose their text."""

from validator import Card, Severity, Violation
from validator.messages import Text


def test_violations_sort_errors_first_then_code_then_line():
    warning = Violation("sideboard", Text("w"), Severity.WARNING, lines=(1,))
    late = Violation("singleton", Text("s"), lines=(9,))
    early = Violation("singleton", Text("s"), lines=(3,))
    banned = Violation("banned", Text("b"), lines=(50,))
    ordered = sorted([warning, late, early, banned], key=Violation.sort_key)
    assert ordered == [banned, early, late, warning]


def test_card_text_joins_every_face_front_first():
    card = Card("Esika, God of the Tree // The Prismatic Bridge", face_texts=("front", "back"))
    assert card.front_text == "front"
    assert card.oracle_text == "front\nback"
