"""The card-line memo of the line reader (text._CARD_LINES): a line read before reads the
same, in any list and at any line number, and the memo stays bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.parse import parse, text

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "decklists"
SAMPLES = sorted(path for path in FIXTURES.iterdir() if path.is_file())


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_a_list_reads_the_same_with_and_without_its_lines_remembered(path):
    source = path.read_text(encoding="utf-8", errors="replace")
    text._CARD_LINES.clear()
    cold = parse(source)
    warm = parse(source)  # every card line now comes from the memo
    assert warm == cold
    text._CARD_LINES.clear()
    assert parse(source) == cold


def test_a_remembered_line_takes_its_new_list_s_line_and_section():
    first = parse("1 Sol Ring|C21|1\n1 Arcane Signet\n")
    again = parse("Commander\n1 Arcane Signet\n\nSideboard\n1 Sol Ring|C21|1\n")
    assert [(e.name, e.quantity, e.line, e.set_code) for e in first.entries] == [
        ("Sol Ring", 1, 1, "C21"), ("Arcane Signet", 1, 2, None)]
    assert [(e.name, e.line, str(e.section), e.set_code) for e in again.entries] == [
        ("Arcane Signet", 2, "commander", None), ("Sol Ring", 5, "sideboard", "C21")]
    assert first.format == "forge" and again.format == "forge"  # the dialect a remembered line shows


def test_the_memo_is_bounded():
    text._CARD_LINES.clear()
    parse("\n".join(f"1 Card Number {i}" for i in range(3_000)))
    assert len(text._CARD_LINES) == 3_000
    for start in range(0, text.MAX_MEMO_LINES + 1, 5_000):
        parse("\n".join(f"1 Other Card {i}" for i in range(start, start + 5_000)))
    assert len(text._CARD_LINES) <= text.MAX_MEMO_LINES
    assert parse("1 Card Number 7\n").entries[0].name == "Card Number 7"
