"""How a decklist file's bytes become text, for the page's uploads and edh-validate's files
alike: UTF-16/32 by byte-order mark, else UTF-8 (a BOM dropped), else Windows-1252."""

from __future__ import annotations

import codecs

# UTF-32 first: its little-endian mark starts with UTF-16's.
UNICODE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def has_unicode_bom(data: bytes) -> bool:
    """True when the bytes start with a UTF-16 or UTF-32 byte-order mark."""
    return data.startswith(tuple(bom for bom, _ in UNICODE_BOMS))


def decode_file(data: bytes) -> str:
    """A decklist file's text, as the CLI and the page read uploads: UTF-16/UTF-32 by their
    byte-order mark (Notepad's "Unicode", PowerShell 5's `>`), else UTF-8 (a BOM dropped),
    else Windows-1252 as older tools write. Raises UnicodeDecodeError when none fits."""
    for bom, codec in UNICODE_BOMS:
        if data.startswith(bom):
            return data.decode(codec)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252")
