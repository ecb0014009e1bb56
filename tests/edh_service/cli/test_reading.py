"""edh_service/cli/reading.py: one input's text (byte order marks, Windows-1252, binary
files refused) and the format a file's name and first lines hint at."""

from __future__ import annotations

import pytest

from edh_service.cli import reading


@pytest.mark.parametrize(
    ("filename", "text", "hint"),
    (
        ("deck.dek", "<Deck/>", "mtgo_dek"),
        ("DECK.DEK", "<Deck/>", "mtgo_dek"),
        ("deck.cod", "<cockatrice_deck/>", "cockatrice"),
        ("deck.dck", "[metadata]\nName=x\n[Commander]\n1 Krenko, Mob Boss|DDT|1\n", "forge"),
        ("deck.dck", "[main]\n1 Sol Ring\n", "forge"),
        ("deck.dck", "NAME:Kenrith\r\n1 [C21:263] Sol Ring\r\nSB: 1 [ELD:303] Kenrith\r\n", "xmage"),
        ("deck.dck", "1 [C21:263] Sol Ring\n", "xmage"),
        ("deck.dck", "1 Sol Ring\n", None),
        ("deck.txt", "1 Sol Ring\n", None),
        ("-", "1 Sol Ring\n", None),
    ),
)
def test_format_hint(filename, text, hint):
    assert reading.format_hint(filename, text) == hint


def test_read_input_handles_bom_and_windows_1252(tmp_path):
    (tmp_path / "bom.txt").write_bytes("\ufeff1 Lim-Dûl's Vault\n".encode())
    (tmp_path / "cp.txt").write_bytes("1 Lim-D\xfbl's Vault\n".encode("latin-1"))
    (tmp_path / "bin.txt").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    assert reading.read_input(str(tmp_path / "bom.txt")) == "1 Lim-Dûl's Vault\n"
    assert reading.read_input(str(tmp_path / "cp.txt")) == "1 Lim-Dûl's Vault\n"
    with pytest.raises(ValueError, match="binary"):
        reading.read_input(str(tmp_path / "bin.txt"))


@pytest.mark.parametrize("codec", ("utf-16", "utf-16-be", "utf-32"))
def test_read_input_reads_unicode_files_by_their_byte_order_mark(tmp_path, codec):
    # Windows PowerShell 5's `>` and Notepad's "Unicode" write UTF-16 with a BOM: that was
    # "cannot read: binary file, not a decklist" (the NUL bytes of every ASCII character).
    path = tmp_path / "deck.txt"
    bom = {"utf-16-be": b"\xfe\xff"}.get(codec, b"")
    path.write_bytes(bom + "1 Lim-Dûl's Vault\r\n1 Sol Ring\r\n".encode(codec))
    assert reading.read_input(str(path)) == "1 Lim-Dûl's Vault\r\n1 Sol Ring\r\n"
