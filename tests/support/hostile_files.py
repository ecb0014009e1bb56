"""Hostile card-data files and Spellbook exports at the sizes issue 19 found them, shared by
tests/hardening/test_sync_bounds.py and bench/bench_sync_bounds.py.

Each entry is name -> (a function building the file's bytes, what the refusal says). The
gzip ones are built piece by piece, never holding their decompressed text (512 MB of
spaces is 0.5 MB of gzip), and built once per process.
"""

from __future__ import annotations

import functools
import gzip
import zlib

MB = 1 << 20
SOL_RING = b'{"object": "card", "name": "Sol Ring", "type_line": "Artifact", "color_identity": []}'


@functools.cache
def gzip_of(*parts: tuple[bytes, int]) -> bytes:
    """gzip of each piece repeated count times, in order, without ever holding the whole text."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    out = []
    for piece, count in parts:
        per_block = max(1, MB // len(piece))
        block = piece * per_block
        for _ in range(count // per_block):
            out.append(packer.compress(block))
        out.append(packer.compress(piece * (count % per_block)))
    return b"".join(out) + packer.flush()


HOSTILE_BULK = {
    # the reproduction: 52 s (the line's buffer was copied again for every 64 KB chunk)
    "a 64 MB line with no newline": (
        lambda: b'{"object": "card", "name": "' + b"a" * (64 * MB), "card data line 1 is over 1,048,576 characters"),
    "a 64 MB line with no newline, gzipped": (
        lambda: gzip_of((b'{"object": "card", "name": "', 1), (b"a", 64 * MB)),
        "card data line 1 is over 1,048,576 characters"),
    # the reproduction: 1.1 GB RSS (each 64 KB of gzip was inflated whole, 64 MB at a time)
    "512 MB of spaces from 0.5 MB of gzip": (lambda: gzip_of((b" ", 512 * MB)), "the card data file is empty"),
    "512 MB of newlines": (lambda: gzip_of((b"\n", 512 * MB)), "the card data file is empty"),
    "a card line, then 512 MB of spaces on it": (
        lambda: gzip_of((SOL_RING, 1), (b" ", 512 * MB)), "card data line 1 is over 1,048,576 characters"),
    "a JSON array whose first item is 64 MB": (
        lambda: b'[{"object": "card", "name": "' + b"a" * (64 * MB), "not complete within 1,048,576"),
    "a line nested 100,000 deep": (lambda: gzip_of((b'{"a": ', 100_000)), "card data line 1 is nested too deeply"),
    "an array nested 400,000 deep": (lambda: gzip_of((b"[", 400_000)), "nested too deeply"),
    "gzip inside gzip five times": (
        lambda: functools.reduce(lambda data, _: gzip.compress(data), range(5), SOL_RING),
        "gzip inside gzip more than 3 times"),
}


HOSTILE_EXPORTS = {
    # the reproduction: over 6 GB and an uncaught MemoryError (ijson names every level)
    "400 KB nested 400,000 deep": (lambda: b'{"variants": [' + b"[" * 400_000, "nested deeper than 32 levels"),
    "256 MB of whitespace from 0.25 MB of gzip": (
        lambda: gzip_of((b'{"variants": [', 1), (b" ", 256 * MB), (b"]}", 1)), "holds no variants"),
    "a 64 MB string": (
        lambda: gzip_of((b'{"variants": [{"uses": [], "description": "', 1), (b"a", 64 * MB), (b'"}]}', 1)),
        "holds a string over 256 KiB"),
    "a 64 MB string of escaped quotes": (
        lambda: gzip_of((b'{"variants": [{"uses": [], "notes": "', 1), (b'\\"', 32 * MB), (b'"}]}', 1)),
        "holds a string over 256 KiB"),
    "a variant of 3 million elements": (
        lambda: gzip_of((b'{"variants": [{"uses": [', 1), (b"{},", 3_000_000), (b"{}]}]}", 1)),
        "holds one item over 1 MiB"),
    "a 64 MB number": (
        lambda: gzip_of((b'{"variants": [{"uses": [], "popularity": ', 1), (b"7", 64 * MB), (b"}]}", 1)),
        "holds a number or literal over 1024 bytes"),
}
