"""edh_service/cli/render.py: escaping for GitHub's workflow commands."""

from __future__ import annotations

import pytest

from edh_service.cli import render


@pytest.mark.parametrize(
    ("text", "escaped"),
    (
        ("plain", "plain"),
        ("100% legal", "100%25 legal"),
        ("two\nlines", "two%0Alines"),
        ("crlf\r\nend", "crlf%0D%0Aend"),
        ("%0A is not a newline", "%250A is not a newline"),
        ("Fire // Ice: outside, sadly", "Fire // Ice: outside, sadly"),
    ),
)
def test_escape_data(text, escaped):
    assert render.escape_data(text) == escaped


@pytest.mark.parametrize(
    ("text", "escaped"),
    (
        ("decks/a.txt", "decks/a.txt"),
        ("decks/a,b.txt", "decks/a%2Cb.txt"),
        ("C:\\decks\\a.txt", "C%3A\\decks\\a.txt"),
        ("50%\n", "50%25%0A"),
    ),
)
def test_escape_property(text, escaped):
    assert render.escape_property(text) == escaped


def test_workflow_command_escapes_each_part_and_omits_missing_properties():
    # A newline in a message is a hostile name's: shown as \n (printable), never a line break.
    line = render.workflow_command("error", "Bolt: 100%\nbad", file="d/a,b.txt", line=3, title="color_identity")
    assert line == "::error file=d/a%2Cb.txt,line=3,title=color_identity::Bolt: 100%25\\nbad"
    assert render.workflow_command("warning", "m", file=None, line=None) == "::warning::m"
