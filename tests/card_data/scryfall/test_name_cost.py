"""Name normalisation costs linear time whatever the name (issue 19: the slash pattern
`\\s*/+\\s*` retried a run of blanks from each of its characters, so `a` + 30,000 spaces
+ `b` took 9 s), and tidies every name exactly as that pattern did."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from card_data.convert import _QUOTES, clean_name, normalize_name
from tests.support.growth import assert_linear

OLD_SLASHES = re.compile(r"\s*/+\s*")
SPACES = re.compile(r"\s+")


def clean_name_as_before(name: str) -> str:
    """clean_name as the regex wrote it before issue 19 (the oracle; quadratic in blanks)."""
    text = unicodedata.normalize("NFC", name).translate(_QUOTES)
    return SPACES.sub(" ", OLD_SLASHES.sub(" // ", text)).strip()


def normalize_name_as_before(name: str) -> str:
    """normalize_name before issue 19 (every name through NFKD and a loop over its characters)."""
    text = unicodedata.normalize("NFKD", clean_name_as_before(name))
    return "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()


NAMES = st.text(alphabet=st.sampled_from(" \t\u3000\u00a0/ab’Æû\n`ﬁŒ\u0301ẞ"), max_size=24) | st.text(max_size=12)


@settings(max_examples=2_000, deadline=None)
@given(NAMES)
def test_clean_and_normalize_read_every_name_exactly_as_before(name):
    assert clean_name(name) == clean_name_as_before(name)
    assert normalize_name(name) == normalize_name_as_before(name)


def test_known_spellings_of_split_cards():
    assert clean_name("Fire/Ice") == clean_name("Fire //Ice") == clean_name(" Fire  //  Ice ") == "Fire // Ice"
    assert normalize_name("Lim-Dûl’s   Vault") == "lim-dul's vault"


def test_normalising_a_name_of_blanks_grows_linearly():
    assert_linear(lambda n: (lambda name: lambda: normalize_name(name))("a" + " " * n + "b"), 200_000)


def test_normalising_a_name_of_blanks_and_slashes_grows_linearly():
    assert_linear(lambda n: (lambda name: lambda: normalize_name(name))(" / a" * (n // 4) + " " * n), 100_000)
