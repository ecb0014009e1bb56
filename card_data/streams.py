"""Streaming readers for data from outside (Scryfall, Commander Spellbook, local files),
each with a bound on what one download may cost.

Every byte that comes in passes through here before a parser sees it: the raw bytes are
counted (`capped`), each gzip layer is peeled a bounded piece at a time and its output
counted too (`decompressed`), and a JSON stream read by ijson is checked for nesting
depth, string, token and item size as it streams past (`JsonGuard`). Whatever a file
holds, memory stays flat and the work is linear in its size up to the cap; past a bound
the download is refused with a CardDataError that names the bound, so the caller keeps
its last good data.
"""

from __future__ import annotations

import io
import re
import zlib
from itertools import accumulate
from pathlib import Path
from typing import Iterable, Iterator

from card_data.errors import CardDataError

GZIP_MAGIC = b"\x1f\x8b"
# Output of one decompression step: a gzip bomb expands 1,000-fold, so a compressed chunk
# is never inflated whole (64 KB of zeros would be 64 MB in one piece).
INFLATE_PIECE = 64 * 1024
# Scryfall's .jsonl.gz, a Content-Encoding: gzip on top, and one more for a mirror that
# gzips again: more layers is no real file (and each layer is a generator frame deeper).
MAX_GZIP_LAYERS = 3
READ_CHUNK = 64 * 1024


def size_text(size: int) -> str:
    """A byte count as people write it: "1 GiB", "64 MiB", "512 KiB", "300 bytes"."""
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor:
            return f"{size / factor:.4g} {unit}"
    return f"{size} bytes"


def cut(text: str, limit: int) -> str:
    """Outside text quoted in our messages (stored, shown by `cards status` and /readyz):
    at most limit characters."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def capped(chunks: Iterable[bytes], limit: int, what: str) -> Iterator[bytes]:
    """The chunks, unchanged, until more than limit bytes have passed: then a CardDataError."""
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > limit:
            raise CardDataError(f"{what} is over {size_text(limit)}: refused")
        yield chunk


def file_chunks(path: Path) -> Iterator[bytes]:
    """A local file's bytes in chunks."""
    with path.open("rb") as handle:
        while chunk := handle.read(READ_CHUNK):
            yield chunk


class ChunkReader(io.RawIOBase):
    """A file-like over byte chunks, for ijson; remembers the first `head_bytes` bytes."""

    def __init__(self, chunks: Iterable[bytes], head_bytes: int = 0) -> None:
        self._chunks = iter(chunks)
        self._pending = b""
        self._head_bytes = head_bytes
        self.head = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._pending:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._pending = chunk
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        if len(self.head) < self._head_bytes:
            self.head += self._pending[:size][: self._head_bytes - len(self.head)]
        self._pending = self._pending[size:]
        return size


def read_capped(path: Path, limit: int, what: str) -> bytes:
    """A small local file's bytes, refused (without reading it all) when over limit."""
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise CardDataError(f"{what} {path} is over {size_text(limit)}: refused")
    return data


def _peek(chunks: Iterator[bytes], size: int) -> tuple[bytes, Iterator[bytes]]:
    """The first size bytes, and an iterator that still yields them."""
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= size:
            break
    return head[:size], _prepend(head, chunks)


def _prepend(head: bytes, chunks: Iterator[bytes]) -> Iterator[bytes]:
    """head, then the rest."""
    if head:
        yield head
    yield from chunks


def _gunzip(chunks: Iterator[bytes], what: str) -> Iterator[bytes]:
    """Decompress a gzip stream (several members allowed) INFLATE_PIECE bytes at a time;
    raise if it ends early."""
    decompressor = zlib.decompressobj(zlib.MAX_WBITS | 16)
    try:
        for data in chunks:
            while True:
                piece = decompressor.decompress(data, INFLATE_PIECE)
                if piece:
                    yield piece
                if decompressor.eof:
                    # A finished member followed by more data is a multi-member gzip file.
                    data = decompressor.unused_data
                    if not data:
                        break
                    decompressor = zlib.decompressobj(zlib.MAX_WBITS | 16)
                else:
                    # Input left over, or a full piece (zlib may hold more output): go on.
                    data = decompressor.unconsumed_tail
                    if not data and len(piece) < INFLATE_PIECE:
                        break
    except zlib.error as error:
        raise CardDataError(f"{what} is not valid gzip: {error}") from error
    if not decompressor.eof:
        raise CardDataError(f"{what} is truncated (the gzip stream ends early)")


def decompressed(chunks: Iterable[bytes], limit: int, what: str = "the card data", *,
                 layers: int = MAX_GZIP_LAYERS) -> Iterator[bytes]:
    """Peel every gzip layer, found by magic bytes, whatever headers or file names say.

    The raw bytes and each layer's output are capped at limit bytes; more than `layers`
    gzip layers are refused.
    """
    head, stream = _peek(iter(capped(chunks, limit, what)), len(GZIP_MAGIC))
    if head != GZIP_MAGIC:
        return stream
    if layers == 0:
        raise CardDataError(f"{what} is gzip inside gzip more than {MAX_GZIP_LAYERS} times: refused")
    # A .gz file sent with Content-Encoding: gzip on top would be gzip twice over.
    return decompressed(_gunzip(stream, what), limit, what, layers=layers - 1)


# -- the shape of a JSON stream --------------------------------------------------------------

# Outside strings, a chunk is read in two C-speed passes: escape pairs (\", \\, \u...)
# are dropped first, so that every quote left opens or closes a string; then splitting at
# the quotes leaves what is outside strings at the even places.
_ESCAPES = re.compile(rb"\\.", re.DOTALL)
# The rest of a string that began in an earlier chunk, up to (not including) its quote.
_STRING_REST = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# Outside strings: every byte of a number or literal becomes "t", everything else " ".
_TOKEN_MAP = bytes(ord(" ") if byte in b' \t\r\n[]{}:,"' else ord("t") for byte in range(256))


class JsonGuard:
    """Checks a JSON byte stream chunk by chunk before a streaming parser reads it.

    ijson builds what it is asked for and buffers each token whole: a file nested 100,000
    deep costs it gigabytes (each event's prefix names every level), a 500 MB string or
    number is held whole, and one item of millions of elements is built whole. This guard
    sees each chunk first, with a few C-speed passes (escapes and strings dropped, two
    translations, a running sum over the brackets), and refuses:
    - nesting deeper than max_depth;
    - a string of more than max_string bytes, or a number or literal over max_token;
    - an item (what lies deeper than item_depth) spanning more than max_item bytes.
    Sizes are counted whole chunk by whole chunk once a string or item spans chunks, so
    each bound holds to within one chunk. Malformed JSON is left for the parser to report.
    """

    def __init__(self, what: str, *, max_depth: int, max_string: int, max_token: int,
                 item_depth: int, max_item: int) -> None:
        self.what = what
        self.max_depth, self.max_string, self.max_token = max_depth, max_string, max_token
        self.item_depth, self.max_item = item_depth, max_item
        self._long_token = b"t" * (max_token + 1)
        self.depth = 0
        self.in_string = False
        self.escaped = False  # the open string's last byte so far is an unpaired backslash
        self.string = 0  # bytes of the open string seen in whole chunks
        self.token = 0  # length of the number or literal the last chunk ended in
        self.item = 0  # bytes streamed since the depth was last item_depth or less

    def checked(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """The chunks, each checked before it is passed on."""
        for chunk in chunks:
            self.check(chunk)
            yield chunk

    def check(self, chunk: bytes) -> None:
        """Take one chunk into account; raise CardDataError when it breaks a bound."""
        start = self._end_of_open_string(chunk) if self.in_string else 0
        if start is None:  # the whole chunk is inside one string
            self._count_item(len(chunk), touched_item_level=self.depth <= self.item_depth)
            return
        rest = chunk[start:]
        if b"\\" in rest:
            rest = _ESCAPES.sub(b"", rest)
        parts = rest.split(b'"')  # outside, string, outside, string...
        structure = b"".join(parts[::2])
        if len(parts) % 2 == 0:  # an odd number of quotes: the last string runs on into the next chunk
            self.in_string, self.escaped, self.string = True, rest.endswith(b"\\"), 0
        self._check_tokens(structure)
        self._check_depth(structure, len(chunk))

    def _end_of_open_string(self, chunk: bytes) -> int | None:
        """Where the string open since an earlier chunk ends (after its quote); None when
        it runs through this whole chunk too."""
        skip = 1 if self.escaped and chunk else 0
        rest = _STRING_REST.match(chunk, skip)
        assert rest is not None  # it matches the empty string too
        end = rest.end()
        if end < len(chunk) and chunk[end] == ord('"'):
            self.in_string, self.escaped, self.token = False, False, 0
            return end + 1
        self.escaped = end < len(chunk) or (self.escaped and not chunk)  # a lone backslash ends the chunk
        self.string += len(chunk)
        if self.string > self.max_string:
            raise CardDataError(f"{self.what} holds a string over {size_text(self.max_string)}: refused")
        return None

    def _check_tokens(self, structure: bytes) -> None:
        """Numbers and literals stay under max_token bytes, across chunk borders too."""
        tokens = structure.translate(_TOKEN_MAP)
        leading = len(tokens) - len(tokens.lstrip(b"t"))
        if self.token + leading > self.max_token or self._long_token in tokens:
            raise CardDataError(f"{self.what} holds a number or literal over {self.max_token} bytes: refused")
        if leading == len(tokens) and not self.in_string:
            self.token += leading
        else:
            self.token = 0 if self.in_string else len(tokens) - len(tokens.rstrip(b"t"))

    def _check_depth(self, structure: bytes, size: int) -> None:
        """Nesting stays within max_depth; items stay under max_item bytes."""
        brackets = structure.translate(None, _NOT_BRACKETS)
        if not brackets:
            self._count_item(size, touched_item_level=self.depth <= self.item_depth)
            return
        depths = list(accumulate(map(_DEPTH_STEP.__getitem__, brackets), initial=self.depth))
        if max(depths) > self.max_depth:
            raise CardDataError(f"{self.what} is nested deeper than {self.max_depth} levels: refused")
        self.depth = depths[-1]
        self._count_item(size, touched_item_level=min(depths) <= self.item_depth)

    def _count_item(self, size: int, *, touched_item_level: bool) -> None:
        """Add a chunk to the open item's size (none is open when the depth came back up to
        item_depth in it), and refuse an item over max_item."""
        self.item = 0 if touched_item_level else self.item + size
        if self.item > self.max_item:
            raise CardDataError(f"{self.what} holds one item over {size_text(self.max_item)}: refused")
