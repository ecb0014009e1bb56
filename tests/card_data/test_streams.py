"""card_data/streams.py: the byte caps, bounded gunzip and the JSON shape guard, and the caps
each reader applies with them (small caps patched in, so the bounds are tested fast; the
real sizes are in tests/hardening/test_sync_bounds.py)."""

from __future__ import annotations

import gzip
import json
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from card_data.scryfall import records
from card_data.lists import spellbook
from card_data.errors import CardDataError
from card_data.streams import INFLATE_PIECE, JsonGuard, capped, cut, decompressed, size_text
from tests.support.scryfall_server import FIXTURES

GENEROUS = dict(max_depth=10_000, max_string=1 << 30, max_token=1 << 16, item_depth=0, max_item=1 << 30)


def split_at(data: bytes, cuts: list[int]) -> list[bytes]:
    """data cut at the given positions (any order, repeats allowed: empty chunks too)."""
    points = [0, *sorted(min(max(c, 0), len(data)) for c in cuts), len(data)]
    return [data[a:b] for a, b in zip(points, points[1:])]


def guard(**bounds) -> JsonGuard:
    """A guard with generous bounds except those given."""
    return JsonGuard("the test data", **{**GENEROUS, **bounds})


def feed(data: bytes, cuts: list[int], **bounds) -> JsonGuard:
    """Run data through a guard in chunks; return the guard."""
    checker = guard(**bounds)
    for chunk in split_at(data, cuts):
        checker.check(chunk)
    return checker


def depth_of(value) -> int:
    """How deep arrays and objects nest in value (a scalar: 0)."""
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    return 0


def longest_token(value) -> int:
    """The longest number or literal in value's JSON text."""
    if isinstance(value, list):
        return max(map(longest_token, value), default=0)
    if isinstance(value, dict):
        return max(map(longest_token, value.values()), default=0)
    return 0 if isinstance(value, str) else len(json.dumps(value))


# Strings full of what trips a scanner: quotes, backslashes, brackets, escapes of every kind.
tricky_text = st.text(alphabet=st.sampled_from(list('ab"\\[]{},: \n\t\u00e9\u2014\U0001f600')), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.floats(allow_nan=False) | tricky_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(tricky_text, children, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.lists(st.integers(0, 2000), max_size=12), st.booleans(), st.booleans())
def test_the_guard_follows_any_json_cut_anywhere(value, cuts, ascii_only, indent):
    data = json.dumps(value, ensure_ascii=ascii_only, indent=1 if indent else None).encode()
    checker = feed(data, cuts)
    assert (checker.depth, checker.in_string) == (0, False)  # it knows where strings end
    depth, token = depth_of(value), longest_token(value)
    feed(data, cuts, max_depth=depth, max_token=max(token, 1))  # exactly at the bounds: accepted
    if depth:
        with pytest.raises(CardDataError, match="nested deeper than"):
            feed(data, cuts, max_depth=depth - 1)
    if token > 1:
        with pytest.raises(CardDataError, match="number or literal over"):
            feed(data, cuts, max_token=token - 1)


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_a_long_string_is_refused_within_one_chunk_of_its_bound(chunk):
    bound = 10_000
    body = b'{"a": "' + b'x\\"' * (bound // 3) + b'"}'
    feed(body, list(range(chunk, len(body), chunk)), max_string=bound)  # under the bound
    longer = b'{"a": "' + b'x\\"' * (bound // 3 + chunk + 1) + b'"}'
    with pytest.raises(CardDataError, match="string over"):
        feed(longer, list(range(chunk, len(longer), chunk)), max_string=bound)


def test_an_item_over_its_bound_is_refused_and_many_small_ones_are_not():
    small = b'{"variants": [' + b",".join([b'{"uses": [1, 2, "]]]"]}'] * 5000) + b"]}"
    feed(small, list(range(512, len(small), 512)), item_depth=2, max_item=2048)
    big = b'{"variants": [{"uses": [' + b"1," * 5000 + b"1]}]}"
    with pytest.raises(CardDataError, match="one item over 2 KiB"):
        feed(big, list(range(512, len(big), 512)), item_depth=2, max_item=2048)


def test_the_export_in_tiny_random_chunks_reads_the_same():
    export = (FIXTURES / "brackets" / "variants.json").read_bytes()
    pairs = spellbook.read_export([export]).pairs
    rng = random.Random(19)
    for _ in range(20):
        cuts = [rng.randrange(len(export)) for _ in range(200)]
        assert spellbook.read_export(split_at(export, cuts)).pairs == pairs


# -- bytes and gzip ---------------------------------------------------------------------------------


def test_capped_passes_up_to_the_limit_and_refuses_past_it():
    assert b"".join(capped([b"ab", b"cd"], 4, "x")) == b"abcd"
    with pytest.raises(CardDataError, match="x is over 4 bytes: refused"):
        list(capped([b"ab", b"cde"], 4, "x"))


def test_a_gzip_bomb_is_inflated_in_bounded_pieces_and_capped():
    bomb = gzip.compress(b"\0" * (8 << 20), 9)  # 8 KB that would be 8 MB
    pieces = list(decompressed([bomb], 16 << 20))
    assert sum(map(len, pieces)) == 8 << 20 and max(map(len, pieces)) <= INFLATE_PIECE
    with pytest.raises(CardDataError, match="the card data is over 1 MiB: refused"):
        list(decompressed([bomb], 1 << 20))


def test_raw_bytes_are_capped_too():
    with pytest.raises(CardDataError, match="over 100 bytes"):
        list(decompressed([b"x" * 60, b"x" * 60], 100))
    empty_members = gzip.compress(b"") * 100  # no output at all, but endless input
    with pytest.raises(CardDataError, match="over 1 KiB"):
        list(decompressed([empty_members], 1024))


@pytest.mark.parametrize(("layers", "refused"), [(3, False), (4, True)])
def test_gzip_layers_are_bounded(layers, refused):
    data = b'{"name": "A"}\n'
    for _ in range(layers):
        data = gzip.compress(data)
    if refused:
        with pytest.raises(CardDataError, match="gzip inside gzip more than 3 times"):
            list(decompressed([data], 1 << 20))
    else:
        assert b"".join(decompressed([data], 1 << 20)) == b'{"name": "A"}\n'


def test_a_member_ending_exactly_on_a_full_piece_is_drained():
    text = bytes(range(256)) * (INFLATE_PIECE // 256) * 3  # three full pieces, barely compressible
    packed = zlib.compressobj(1, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    data = packed.compress(text) + packed.flush()
    for size in (1, 100, len(data)):
        assert b"".join(decompressed(split_at(data, list(range(size, len(data), size))), 1 << 20)) == text


def test_sizes_and_cuts_in_words():
    assert [size_text(n) for n in (300, 2048, 4 << 20, 1 << 30, 3 << 29)] == [
        "300 bytes", "2 KiB", "4 MiB", "1 GiB", "1.5 GiB"]
    assert cut("abc", 3) == "abc" and cut("abcd", 3) == "ab…"


# -- each reader's caps ------------------------------------------------------------------------------


def test_records_are_capped_in_bytes_and_count(monkeypatch):
    lines = b'{"name": "A"}\n' * 20
    with pytest.raises(CardDataError, match="over 100 bytes"):
        list(records.records([gzip.compress(lines)], limit=100))
    monkeypatch.setattr(records, "MAX_RECORDS", 19)
    with pytest.raises(CardDataError, match="over 19 objects"):
        list(records.records([lines]))
    monkeypatch.setattr(records, "MAX_RECORDS", 20)
    assert len(list(records.records([lines]))) == 20


def test_records_keep_their_line_numbers_across_blank_runs():
    data = b"\n \n\t\n" + b'{"name": "A"}\n\n\n{"name": "B"}\n   \n' + b"{broken\n"
    for size in (1, 3, len(data)):
        with pytest.raises(CardDataError, match="malformed card data on line 9"):
            list(records.records(split_at(data, list(range(size, len(data), size)))))


def test_a_line_at_the_card_bound_is_read_and_one_over_it_is_not(monkeypatch):
    monkeypatch.setattr(records, "MAX_CARD_CHARS", 100)
    line = b'{"name": "' + b"a" * 88 + b'"}'
    assert len(line) == 100 and len(list(records.records([line + b"\n", line]))) == 2
    with pytest.raises(CardDataError, match="line 2 is over 100 characters"):
        list(records.records([line + b"\n", line + b" "]))
    array = b"[" + line + b"," + line + b"]"
    assert len(list(records.records(split_at(array, list(range(7, len(array), 7)))))) == 2
    with pytest.raises(CardDataError, match="not complete within 100 characters"):
        list(records.records([b"[" + line[:-1] + b' "b": "' + b"c" * 200]))


def test_export_variants_and_pairs_are_capped(monkeypatch):
    def variant(i: int, cards: int) -> dict:
        return {"uses": [{"card": {"name": f"Card {i}-{n}"}} for n in range(cards)]}

    three = json.dumps({"variants": [variant(i, 3) for i in range(11)]}).encode()
    two = json.dumps({"variants": [variant(i, 2) for i in range(11)]}).encode()
    monkeypatch.setattr(spellbook, "MAX_VARIANTS", 10)
    with pytest.raises(CardDataError, match="over 10 variants"):
        spellbook.read_export([three])
    monkeypatch.setattr(spellbook, "MAX_VARIANTS", 100)
    monkeypatch.setattr(spellbook, "MAX_COMBOS", 10)
    with pytest.raises(CardDataError, match="over 10 two-card combos"):
        spellbook.read_export([two])
