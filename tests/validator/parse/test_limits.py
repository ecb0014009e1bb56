"""Bounded cost for every decklist input (issue 19): each hostile list the review found,
at the size it was found at, read by parse() (and assemble, where merging was the cost),
with what the result must be; and each one's cost growing linearly with the hostile part
(tests/support/growth.py: CPU time, the larger input 4 times the smaller, so a loaded machine
cannot fail it and a quadratic pattern cannot pass it).

The HTTP side of the same inputs (status, codes, the time a request takes, a real
gunicorn) is tests/hardening/test_bounded_readers.py.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.factories import card
from tests.support.growth import assert_linear
from validator.assemble import assemble
from validator.decklist import Section
from validator.parse import MAX_LINE_LENGTH, MAX_NAME_LENGTH, DecklistError, parse
from validator.parse.common import clean_text
from validator.parse.common import MAX_ENTRIES
from validator.parse.tappedout_board import board_cards
from validator.parse.decorations import MAX_DECORATIONS
from validator.parse.xml import MAX_XML_TAGS
from validator.violations import Code


def dek(*elements: str) -> str:
    """An MTGO .dek around the given elements, one a line (the first on line 3)."""
    return '<?xml version="1.0" encoding="utf-8"?>\n<Deck>\n' + "\n".join(elements) + "\n</Deck>\n"


def cod(inner: str, cards: str = '<card number="1" name="Sol Ring"/>') -> str:
    """A Cockatrice .cod: `inner` (comments, banner, zones) before a main zone of `cards`."""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n' + inner
            + f'\n<zone name="main">\n{cards}\n</zone>\n</cockatrice_deck>\n')


def moxfield(names: list[str], per_line: int = 1) -> str:
    """A Moxfield API export of one copy of each name, `per_line` cards on each line."""
    items = [json.dumps(f"k{i}") + ': {"quantity": 1, "card": {"name": ' + json.dumps(name) + "}}"
             for i, name in enumerate(names)]
    rows = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return '{"boards": {"mainboard": {"cards": {\n' + ",\n".join(rows) + "\n}}}}"


def problems(decklist, code: str = Code.UNPARSED_LINE) -> list:
    """The decklist's problems with that code."""
    return [p for p in decklist.problems if p.code == code]


def encodable(decklist) -> bool:
    """Every string the decklist carries can be written as UTF-8 (a lone surrogate cannot)."""
    texts = [e.name for e in decklist.entries] + [p.message for p in decklist.problems]
    texts += [name for p in decklist.problems for name in p.cards]
    for text in texts:
        text.encode("utf-8")
    return True


# --- the reproductions, at the sizes the review used -----------------------------------


def test_a_dek_element_with_a_50000_character_attribute_run_is_one_unparsed_line():
    text = dek('<Cards CatID="1" Quantity="1" ' + "a" * 50_000 + ' Name="Sol Ring" />')
    decklist = parse(text)
    (problem,) = problems(decklist)
    assert problem.lines == (3,) and f"longer than {MAX_LINE_LENGTH:,} characters" in problem.message
    assert decklist.entries == ()


def test_a_cod_element_with_a_50000_character_attribute_run_is_one_unparsed_line():
    text = cod("", cards='<card number="1" ' + "a" * 50_000 + ' name="Sol Ring"/>')
    (problem,) = problems(parse(text))
    assert problem.lines == (5,) and "longer than" in problem.message


def test_a_salvaged_element_just_under_the_line_limit_is_still_read():
    # 990 characters of attribute-like run inside a broken document: read, the run skipped
    element = '<Cards Quantity="2" ' + "a" * 950 + ' Name="Sol Ring" />'
    assert len(element) <= MAX_LINE_LENGTH
    decklist = parse(dek(element, "<broken"))
    assert [(e.name, e.quantity, e.line) for e in decklist.entries] == [("Sol Ring", 2, 3)]


def test_a_cockatrice_comment_with_50000_spaces_names_no_commander_and_costs_nothing():
    text = cod("<comments>cdr: x" + " " * 50_000 + "y</comments>")
    decklist = parse(text)
    assert [e.name for e in decklist.entries] == ["Sol Ring"] and decklist.candidates == ()


def test_comment_lines_still_name_the_commander():
    text = cod("<comments>My deck\nCDR: Sol Ring\n</comments>")
    (candidate,) = parse(text).candidates
    assert candidate.source.english() == "the deck comment (CDR: Sol Ring)"
    # a `Commander:` line with the name on the next non-blank line, as the old pattern read it
    (candidate,) = parse(cod("<comments>Commander:\n\n  Sol Ring  \n</comments>")).candidates
    assert candidate.source.english() == "the deck comment (Commander:\n\n  Sol Ring)"


def test_an_xml_declaration_with_50000_spaces_before_its_end_is_read():
    text = ('<?xml version="1.0"' + " " * 50_000 + '?>\n<Deck>\n'
            '<Cards CatID="1" Quantity="1" Sideboard="false" Name="Sol Ring" />\n</Deck>\n')
    decklist = parse(text)
    assert [(e.name, e.line) for e in decklist.entries] == [("Sol Ring", 3)] and decklist.problems == ()


def test_a_declared_encoding_is_overridden_not_obeyed():
    # the text is already decoded: a declaration naming UTF-16 or Windows-1252 changes nothing
    for encoding in ("utf-16", "windows-1252", "no-such-codec"):
        text = f'<?xml version="1.0" encoding="{encoding}"?>\n<Deck>\n<Cards Quantity="1" Name="Lim-Dûl’s Vault"/>\n</Deck>'
        assert [e.name for e in parse(text).entries] == ["Lim-Dûl’s Vault"], encoding


def test_a_banner_name_of_20000_spaces_proposes_nothing():
    text = cod("<bannerCard>a" + " " * 20_000 + "b</bannerCard>")
    decklist = parse(text)
    assert [e.name for e in decklist.entries] == ["Sol Ring"] and decklist.candidates == ()


def test_a_banner_naming_two_cards_still_proposes_them():
    text = cod('<bannerCard>Sol Ring  &amp;  Arcane Signet</bannerCard>',
               cards='<card number="1" name="Sol Ring"/>\n<card number="1" name="Arcane Signet"/>')
    (candidate,) = parse(text).candidates
    assert candidate.entries == (0, 1)


def test_a_json_name_of_30000_characters_is_refused_whole_never_cut():
    name = "a" + " " * 30_000 + "b"
    decklist = parse(moxfield([name, "Sol Ring"]))
    (problem,) = problems(decklist)
    assert f"names a card of {len(name):,} characters" in problem.message
    assert f"no card name is longer than {MAX_NAME_LENGTH}" in problem.message
    assert [e.name for e in decklist.entries] == ["Sol Ring"]


@pytest.mark.parametrize("reader", ["text", "arena", "forge", "json", "csv", "mtgo_dek", "cockatrice"])
def test_every_reader_refuses_a_name_one_over_the_limit_and_reads_one_at_it(reader):
    at, over = "A" * MAX_NAME_LENGTH, "B" * (MAX_NAME_LENGTH + 1)
    text = {
        "text": f"1 {at}\n1 {over}",
        "arena": f"1 {at} (C21) 1\n1 {over} (C21) 2",
        "forge": f"[Main]\n1 {at}|C21|1\n1 {over}|C21|1",
        "json": moxfield([at, over]),
        "csv": f"Count,Name\n1,{at}\n1,{over}",
        "mtgo_dek": dek(f'<Cards Quantity="1" Name="{at}"/>', f'<Cards Quantity="1" Name="{over}"/>'),
        "cockatrice": cod("", cards=f'<card number="1" name="{at}"/>\n<card number="1" name="{over}"/>'),
    }[reader]
    decklist = parse(text)
    assert [e.name for e in decklist.entries] == [at]
    (problem,) = problems(decklist)
    assert f"names a card of {MAX_NAME_LENGTH + 1} characters" in problem.message


def test_1000_forge_lines_with_990_spaces_are_1000_unparsed_lines():
    text = "\n".join("1 A|AB|" + " " * 990 + "Z" for _ in range(1_000))
    decklist = parse(text)
    assert len(problems(decklist)) == 1_000 and decklist.entries == ()


def test_a_forge_printing_is_still_read_with_blanks_around_its_parts():
    decklist = parse("[Main]\n1 Sol Ring| C21 | 263 \n2 Island|ZNR|\n1 Arcane Signet |M3C")
    assert [(e.name, e.quantity, e.set_code) for e in decklist.entries] == [
        ("Sol Ring", 1, "C21"), ("Island", 2, "ZNR"), ("Arcane Signet", 1, "M3C")]


def test_a_line_reads_eight_decorations_and_no_more():
    eight = "1 Sol Ring *F* [Ramp,Draw{top}] ^Have,#37d67a^" + " [Ramp]" * (MAX_DECORATIONS - 3)
    (entry,) = parse(eight).entries
    assert (entry.name, entry.foil) == ("Sol Ring", True)
    decklist = parse(eight + " [Ramp]")
    assert decklist.entries == () and problems(decklist)[0].lines == (1,)


def test_1000_distinct_names_with_990_spaces_are_refused_by_length():
    text = "\n".join(f"1 {i} a" + " " * 990 + "b" for i in range(1_000))
    decklist = parse(text)
    assert len(problems(decklist)) == 1_000 and decklist.entries == ()
    assert all("names a card of" in p.message for p in decklist.problems)


def test_tappedout_cards_of_140000_repeats_are_refused_before_they_are_read():
    with pytest.raises(DecklistError, match=f"140,001 card entries; at most {MAX_ENTRIES:,}"):
        parse(json.dumps({"cards": "1 Opt||" * 140_000}))


def test_a_dek_of_55000_repeats_is_refused_by_its_tags():
    with pytest.raises(DecklistError, match=f"55,003 tags; at most {MAX_XML_TAGS:,}"):
        parse(dek('<Cards Name="Opt"/>' * 55_000))


def test_a_dek_of_over_10000_card_elements_is_refused():
    with pytest.raises(DecklistError, match="10,001 card entries"):
        parse(dek('<Cards Quantity="1" Name="Opt"/>' * 10_001))


def test_a_moxfield_export_of_15000_distinct_cards_is_refused():
    with pytest.raises(DecklistError, match="15,000 card entries"):
        parse(moxfield([f"Card {i}" for i in range(15_000)], per_line=2))


def test_a_tappedout_board_of_50000_unclosed_tags_reads_no_card():
    decklist = parse(json.dumps({"board": "<a " * 50_000}))
    assert decklist.entries == () and decklist.format == "tappedout_json"


@pytest.mark.parametrize("board", ["<![", "<![" * 10, "<!x", "</", "<", "<!--", "<a class='card-link'"])
def test_board_html_that_htmlparser_refused_is_read_without_an_exception(board):
    assert parse(json.dumps({"board": board, "cards": ""})).format == "tappedout_json"


def test_a_lone_less_than_sign_in_a_board_is_text():
    board = "<li class='tappedout-member'>1x <a class='card-link'>A < 3 > B</a></li>"
    assert [e.name for e in parse(json.dumps({"board": board})).entries] == ["A < 3 > B"]


def test_the_board_scanner_reads_a_tappedout_board():
    board = ('<h3 class="x">Commander</h3><ul><li class="tappedout-member">1x <span>'
             '<a rel="popover" class="card-link card-hover" data-card-alt="Kraum, Ludevic&#x27;s Opus">'
             'Kraum, Ludevic&#x27;s Opus</a></span></li></ul><!-- <h3>Sideboard</h3> -->'
             '<h3>Creature (2)</h3><li CLASS=\'tappedout-member\'>\n 2x <a class=card-link>Sol Ring</a>'
             '<a class="card-link">Not in an item</a></li>')
    decklist = parse(json.dumps({"board": board}))
    assert [(e.name, e.quantity, e.section) for e in decklist.entries] == [
        ("Kraum, Ludevic's Opus", 1, Section.COMMANDER), ("Sol Ring", 2, Section.MAIN)]


# --- lone surrogates -------------------------------------------------------------------


def test_a_lone_surrogate_escape_in_a_json_export_becomes_the_replacement_character():
    decklist = parse(moxfield(["Sol Ring \ud800"]))
    assert [e.name for e in decklist.entries] == ["Sol Ring \ufffd"] and encodable(decklist)


def test_a_lone_surrogate_in_the_text_itself_becomes_the_replacement_character():
    decklist = parse("1 Sol Ring\udc00\n1 \ud83d\n2 x\x00\ud800y")
    assert [e.name for e in decklist.entries] == ["Sol Ring\ufffd"] and encodable(decklist)


@pytest.mark.parametrize("text", ["1 Anillo solar\n1 Ni\u00f1o", "1 \u592a\u967d", "1 \U0001f600"])
def test_text_without_a_lone_surrogate_is_kept_as_is_at_every_width(text):
    assert clean_text(text) is text
    assert clean_text(text + "\ud800") == text + "\ufffd"  # beside Latin-1, BMP or astral characters


def test_an_xml_surrogate_reference_is_no_character():
    decklist = parse(dek('<Cards CatID="1" Quantity="1" Sideboard="false" Name="Sol Ring &#xD800;" />'))
    assert decklist.entries == () and problems(decklist) and encodable(decklist)


def test_a_surrogate_in_a_quantity_or_a_site_error_is_quoted_encodable():
    export = '{"boards": {"mainboard": {"cards": {"a": {"quantity": "\\udfff", "card": {"name": "Opt"}}}}}}'
    decklist = parse(export)
    assert problems(decklist, Code.INVALID_QUANTITY) and encodable(decklist)


# --- the cost of each grows linearly with its hostile part ----------------------------


def _parse(text_of):
    """make(n) for assert_linear: parsing the text of size n."""
    return lambda n: (lambda text: lambda: parse(text))(text_of(n))


def _parse_and_assemble(text_of, cards):
    """make(n): parsing the text of size n and assembling the deck from `cards`."""
    return lambda n: (lambda text: lambda: assemble(parse(text), cards))(text_of(n))


OPT = {"Opt": card("Opt", "Instant", identity="U")}

LINEAR = {
    # per line: the run inside each line grows (lines stay under MAX_LINE_LENGTH)
    "forge printing blanks": (_parse(lambda n: "\n".join("1 A|AB|" + " " * n + "Z" for _ in range(500))), 240),
    "salvaged attribute run": (_parse(lambda n: dek(*['<Cards Quantity="1" ' + "a" * n + ' Name="X"/>'] * 300,
                                                    "<broken")), 240),
    "comment lines": (_parse(lambda n: cod("<comments>" + "\n".join(f"cdr: x{' ' * n}y" for _ in range(300))
                                           + "</comments>")), 240),
    "name list split": (_parse(lambda n: cod("<comments>" + "\n".join(f"cdr: a{' ' * (n // 3)}b" for _ in range(300))
                                             + "</comments>")), 240),
    "decorated lines": (_parse(lambda n: "\n".join(["1 Sol Ring [a] ^b^ *F*"] * n)), 2_500),
    # one run grows
    "xml declaration blanks": (_parse(lambda n: '<?xml version="1.0"' + " " * n + '?>\n<Deck/>'), 100_000),
    "banner blanks": (_parse(lambda n: cod("<bannerCard>a" + " " * n + "b</bannerCard>")), 100_000),
    "json name blanks": (_parse(lambda n: moxfield(["a" + " " * n + "b"])), 100_000),
    "unclosed board tags": (_parse(lambda n: json.dumps({"board": "<a " * n})), 40_000),
    "board tags": (_parse(lambda n: json.dumps({"board": "<li class='tappedout-member'>1x <a class='card-link'>"
                                                         "Opt</a></li>" * n})), 1_500),
    # more entries (all under MAX_ENTRIES)
    "tappedout repeats": (_parse_and_assemble(lambda n: json.dumps({"cards": "1 Opt||" * n}), OPT), 2_000),
    "dek repeats": (_parse_and_assemble(lambda n: dek('<Cards Quantity="1" Name="Opt"/>' * n), OPT), 2_000),
    "text repeats": (_parse_and_assemble(lambda n: "1 Opt\n" * n, OPT), 2_000),
    "moxfield distinct names": (_parse(lambda n: moxfield([f"Card {i}" for i in range(n)])), 2_000),
    "cockatrice zones": (_parse(lambda n: cod("".join(f'<zone name="z{i}"><card number="1" name="C{i}"/></zone>'
                                                      for i in range(n)))), 1_500),
    "cockatrice commander comments": (_parse(lambda n: cod("<comments>" + "CDR: A\n" * n + "</comments>",
                                                           "".join(f'<card number="1" name="C{i}"/>' for i in range(n)))),
                                      1_000),
}


@pytest.mark.parametrize("case", LINEAR, ids=str)
def test_the_cost_grows_linearly(case):
    make, size = LINEAR[case]
    assert_linear(make, size)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    "<h3>", "</h3>", "Commander", "Sideboard", "Creature (2)", "<li class='tappedout-member'>", "<li>", "</li>",
    "1x ", "2x", "<a class=\"card-link x\">", "<A CLASS=card-link>", "<a href='/x'>", "</a>", "<span>", "</span>",
    "Sol Ring", "Kraum, Ludevic&#x27;s Opus", "Fire &amp; Ice", "< 3 >", "<!-- a -->", "<br/>", "\n  ", "<!DOCTYPE html>",
]), max_size=30))
def test_the_board_scanner_reads_well_formed_boards_as_htmlparser_did(pieces):
    board = "".join(pieces)
    assert board_cards(board) == _cards(_board_as_htmlparser_read_it(board))


def _cards(cards) -> list[tuple]:
    return [(card.name, card.quantity, card.section) for card in cards]


def _board_as_htmlparser_read_it(board: str) -> list:
    """The board reader before issue 19 (the oracle): the standard library's HTMLParser."""
    from html.parser import HTMLParser

    from validator.parse.common import heading_section
    from validator.parse.json import _Card

    class Reader(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.cards, self.section, self.capture, self.text, self.quantity = [], Section.MAIN, None, [], ""

        def handle_starttag(self, tag, attrs):
            classes = (dict(attrs).get("class") or "").split()
            if tag == "h3":
                self.capture, self.text = "heading", []
            elif tag == "li" and "tappedout-member" in classes:
                self.capture, self.text = "item", []
            elif tag == "a" and "card-link" in classes and self.capture == "item":
                self.quantity = "".join(self.text).strip().rstrip("xX")
                self.capture, self.text = "name", []

        def handle_data(self, data):
            if self.capture:
                self.text.append(data)

        def handle_endtag(self, tag):
            if tag == "h3" and self.capture == "heading":
                self.section = heading_section("".join(self.text)) or Section.MAIN
                self.capture = None
            elif tag == "a" and self.capture == "name":
                self.cards.append(_Card("".join(self.text), self.quantity, self.section))
                self.capture = None

    reader = Reader()
    reader.feed(board)
    reader.close()
    return reader.cards
