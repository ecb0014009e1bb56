"""Reading one decklist input for `edh-validate`: a regular file (or stdin) of at most
MAX_FILE_BYTES, decoded as the page decodes uploads, and the reader its extension names."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from edh_service.cli.results import STDIN
from edh_service.decoding import decode_file, has_unicode_bom

MAX_FILE_BYTES = 4 * 1024 * 1024  # twice the largest real export seen (a TCGplayer API deck, 2 MB)
# Extensions that name their reader outright; .dck is Forge's or XMage's (see dck_dialect).
EXTENSION_FORMATS = {".dek": "mtgo_dek", ".cod": "cockatrice"}


def read_input(path: str, stdin: BinaryIO | None = None) -> str:
    """The decklist text: UTF-16/32 by its BOM, else UTF-8 (a BOM dropped), else
    Windows-1252 as older tools write (decoding.decode_file, as the page reads uploads)."""
    data = read_bounded(stdin or sys.stdin.buffer) if path == STDIN else read_file(path)
    if b"\0" in data and not has_unicode_bom(data):
        # No decklist format contains NUL; this is a binary file caught by a glob.
        raise ValueError("binary file, not a decklist")
    text = decode_file(data)
    if "\0" in text:
        raise ValueError("binary file, not a decklist")
    return text


# Opened without waiting (a FIFO has no writer), never as a controlling terminal.
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
FILE_KINDS = {stat.S_ISDIR: "a folder", stat.S_ISFIFO: "a named pipe", stat.S_ISCHR: "a device",
              stat.S_ISBLK: "a device", stat.S_ISSOCK: "a socket"}


def read_file(path: str) -> bytes:
    """A regular file's bytes, at most MAX_FILE_BYTES: a FIFO, a device or a folder is
    refused unread, a file too large before a byte is read."""
    descriptor = os.open(path, OPEN_FLAGS)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in FILE_KINDS.items() if test(info.st_mode)), "a special file")
            raise ValueError(f"not a regular file ({kind})")
        if info.st_size > MAX_FILE_BYTES:
            raise ValueError(too_large(info.st_size))
        with open(descriptor, "rb", closefd=False) as handle:
            return read_bounded(handle)  # st_size can be 0 for a file that has bytes (/proc)
    finally:
        os.close(descriptor)


def read_bounded(stream: BinaryIO) -> bytes:
    """At most MAX_FILE_BYTES from the stream; ValueError if it holds more."""
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(too_large())
    return data


def too_large(size: int | None = None) -> str:
    """Why a file is not read: its size, over the limit."""
    mebibytes, rest = divmod(MAX_FILE_BYTES, 1024 * 1024)
    limit = f"{MAX_FILE_BYTES:,} bytes" if rest else f"{mebibytes} MiB"
    given = f" ({size:,} bytes)" if size is not None else ""
    return f"over {limit}{given}: no decklist is that large"


# Scryfall's own card objects (a bulk file, a card or a search page): card data, never a
# decklist. Their first key is "object"; anchored, so a large file is not searched.
SCRYFALL_CARD_DATA = re.compile(r'\A\s*\[?\s*\{\s*"object"\s*:\s*"(?:card|list)"')


def card_data_refusal(text: str) -> str | None:
    """Why the text is not checked as a decklist (None: it may be): Scryfall card data,
    which --bulk-file imports."""
    if SCRYFALL_CARD_DATA.match(text):
        return "Scryfall card data, not a decklist (import it with --bulk-file)"
    return None


def format_hint(path: str, text: str) -> str | None:
    """The reader to force for this file, from its extension (None: let the parser detect)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".dck":
        return dck_dialect(text)
    return EXTENSION_FORMATS.get(suffix)


# [^\S\n]: blanks within one line. With \s, "^\s*" ran from every line start across all the
# lines after it: 20,000 newlines took 29 s.
FORGE_SECTION = re.compile(r"^[^\S\n]*\[(metadata|commander|main|sideboard)\][^\S\n]*$", re.I | re.M)
XMAGE_LINE = re.compile(r"^[^\S\n]*(?:(?:SB:[^\S\n]*)?\d+[^\S\n]+\[[^\]:\n]*:[^\]\n]*\]|(?:NAME|LAYOUT)\b)", re.M)


def dck_dialect(text: str) -> str | None:
    """Forge or XMage: both use .dck, Forge with [Section] headers, XMage with [SET:num] cards."""
    if FORGE_SECTION.search(text):
        return "forge"
    if XMAGE_LINE.search(text):
        return "xmage"
    return None
