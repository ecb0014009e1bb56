"""Every violation code is documented: validator.violations.ABOUT holds its severities, rule
and meaning (docs/violation-codes.md is generated from it)."""

from __future__ import annotations

import re

from validator.violations import ABOUT, Code, Severity

RULE_NUMBERS = re.compile(r"\d{3}(\.\d+[a-z]?)?")


def test_every_code_has_one_entry_in_codes_order():
    assert list(ABOUT) == list(Code)


def test_every_entry_says_when_and_how_bad():
    for code, info in ABOUT.items():
        assert info.meaning.endswith("."), code
        assert info.severities and all(isinstance(s, Severity) for s in info.severities), code
        assert info.rule is None or all(RULE_NUMBERS.fullmatch(n) for n in info.rule.split(", ")), code
