"""The CSV reader (validator/parse/csv.py): Scryfall's deck CSV and its look-alikes."""

from __future__ import annotations

import pytest

from tests.validator.parse import M, codes, rows
from validator.parse import parse
from validator.violations import Code


def test_csv_row_without_a_name_is_unparsed():
    decklist = parse("section,count,name\nnonlands,1,Sol Ring\nnonlands,1,\n")
    assert rows(decklist) == [("Sol Ring", 1, M, 2)]
    assert codes(decklist) == [(Code.UNPARSED_LINE, (3,))]


@pytest.mark.parametrize(("text", "expected"), [
    # an unclosed quote in the header row swallows the lines after it: they are reported, not lost
    ('"\n1 Sol Ring', [(Code.UNPARSED_LINE, (2,))]),
    ('count,"name\n1,Sol Ring\n', [(Code.UNPARSED_LINE, (2,))]),
])
def test_csv_header_spanning_lines_reports_the_lines_it_swallowed(text, expected):
    decklist = parse(text, "csv")
    assert (rows(decklist), codes(decklist)) == ([], expected)
