"""The JSON reader (validator/parse/json.py): site exports, and what is not one."""

from __future__ import annotations

from tests.validator.parse import C, M, codes, rows
from validator.decklist import Section
from validator.parse import parse
from validator.parse.json import looks_like_json
from validator.violations import Code


def test_json_that_is_no_known_export_is_one_unparsed_line():
    decklist = parse('{"hello": "world"}')
    assert decklist.format == "json"
    assert codes(decklist) == [(Code.UNPARSED_LINE, (1,))]


def test_forced_json_that_does_not_decode_is_unparsed():
    assert codes(parse("1 Sol Ring", "json")) == [(Code.UNPARSED_LINE, (1,))]


def test_json_export_of_the_wrong_shape_is_reported_not_raised():
    decklist = parse('{"convertedDeck": [{"quantity": 1}], "x": 1}')
    assert decklist.entries == ()
    assert [p.code for p in decklist.problems] == [Code.UNPARSED_LINE]


def test_tcgplayer_export_reads_names_from_its_card_map_and_reports_bare_ids():
    export = ('{"result": {"deck": {"companionID": 3, "subDecks": {"commandzone": [{"cardID": 1, "quantity": 1}], '
              '"maindeck": [{"cardID": 2, "quantity": 98}, {"cardID": 4, "quantity": 1}], '
              '"sideboard": [{"cardID": 3, "quantity": 1}]}}, '
              '"cards": {"1": {"name": "Arahbo, Roar of the World"}, "2": {"name": "Plains"}, '
              '"3": {"name": "Kaheera, the Orphanguard"}}}}')
    decklist = parse(export)
    assert decklist.format == "tcgplayer_json"
    assert rows(decklist) == [("Arahbo, Roar of the World", 1, C, 1), ("Plains", 98, M, 1),
                              ("Kaheera, the Orphanguard", 1, Section.COMPANION, 1)]
    (problem,) = decklist.problems
    assert problem.code == Code.UNPARSED_LINE and "cardID 4" in problem.message


def test_forge_file_starting_with_a_bracket_is_not_mistaken_for_json():
    decklist = parse("[Commander]\n1 Krenko, Mob Boss\n[Main]\n1 Sol Ring\n[Sideboard]")
    assert rows(decklist) == [("Krenko, Mob Boss", 1, C, 2), ("Sol Ring", 1, M, 4)]


def test_a_quantity_of_5000_digits_is_an_invalid_quantity_not_a_broken_document():
    """Python's json refuses integers over 4,300 digits (ValueError): the whole export was
    then read as text, one unparsed_line for a 5,000-character line."""
    export = ('{"name": "x", "boards": {"mainboard": {"count": 2, "cards": {'
              '"a": {"quantity": ' + "9" * 5_000 + ', "card": {"name": "Sol Ring"}}, '
              '"b": {"quantity": 1, "card": {"name": "Command Tower"}}}}}}')
    decklist = parse(export)
    assert decklist.format == "moxfield_json"
    assert rows(decklist) == [("Command Tower", 1, M, 1)]
    (problem,) = decklist.problems
    assert problem.code == Code.INVALID_QUANTITY and problem.cards == ("Sol Ring",)
    assert "99999" in problem.message and len(problem.message) < 200  # the digits as typed, cut short


def test_only_text_that_json_could_decode_is_tried_as_json():
    """looks_like_json decides whether json.loads is tried: never for a Forge file (`[m`,
    `[C`), always for what opens like an object or array."""
    for text in ("[metadata]\nName=X\n[Main]\n1 Sol Ring\n[Sideboard]", "[Commander]\n[Main]", "{x}"):
        assert not looks_like_json(text)
    for text in ("[]", "{ }", '{"a": 1}', "[\n 1]", "[-1]", "[NaN]", "[Infinity]", "[true]", '["x"]', "[[1]]"):
        assert looks_like_json(text)
