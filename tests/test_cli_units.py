"""The CLI's pure helpers: path expansion, format hints, escaping for GitHub and XML."""

from __future__ import annotations

import os
import re

import pytest

import cli

from edh_service.cli import paths, reading, render, store, validate


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


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A small folder of decklists and other files, as the current directory."""
    for name in ("decks/a.txt", "decks/b.dck", "decks/sub/c.dek", "decks/notes.md", "other/d.cod"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("1 Sol Ring\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("arguments", "expected"),
    (
        (["decks/a.txt"], ["decks/a.txt"]),
        (["decks/notes.md"], ["decks/notes.md"]),  # named explicitly: checked whatever its extension
        (["decks"], ["decks/a.txt", "decks/b.dck", "decks/sub/c.dek"]),
        (["decks/*.txt"], ["decks/a.txt"]),
        (["decks/**/*.de?"], ["decks/sub/c.dek"]),
        (["**/*.cod", "decks/a.txt", "decks/*.txt"], ["other/d.cod", "decks/a.txt"]),
        (["-"], ["-"]),
    ),
)
def test_expand_paths(tree, arguments, expected):
    assert paths.expand_paths(arguments) == [paths.Input(os.path.normpath(p) if p != "-" else p) for p in expected]


@pytest.mark.parametrize(("argument", "message"), (("missing.txt", "no such file"), ("decks/*.json", "no files match")))
def test_expand_paths_refuses_what_names_nothing(tree, argument, message):
    with pytest.raises(paths.UsageError, match=message):
        paths.expand_paths([argument])


def test_each_file_is_checked_once_however_it_is_reached(tree):
    # A symlink back up the tree made the folder walk list one deck once per level until
    # ELOOP (41 times); naming one file by two spellings checked it twice.
    os.symlink("..", tree / "decks" / "sub" / "up")
    files = paths.expand_paths(["decks", "./decks/a.txt"])
    assert files == [paths.Input(os.path.normpath(p)) for p in ("decks/a.txt", "decks/b.dck", "decks/sub/c.dek")]


@pytest.mark.parametrize("folder", ("empty", "notes"))
def test_a_directory_without_decklists_is_a_usage_error(tree, folder):
    # `edh-validate decks/` on a folder of .json exports or a mistyped checkout passed with
    # "0 files checked" and exit 0, while a glob that matches nothing exits 2.
    (tree / "empty").mkdir()
    (tree / "notes").mkdir()
    (tree / "notes" / "readme.md").write_text("1 Sol Ring\n")
    with pytest.raises(paths.UsageError, match=f"no decklist files .* under {folder}"):
        paths.expand_paths([folder])


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


@pytest.mark.parametrize(
    ("environment", "expected"),
    (({}, False), ({"CARD_DATA_OFFLINE": "1"}, True), ({"CARD_DATA_OFFLINE": "true"}, True),
     ({"CARD_DATA_OFFLINE": "0"}, False)),
)
def test_offline_flag_defaults_from_environment(monkeypatch, environment, expected):
    monkeypatch.delenv("CARD_DATA_OFFLINE", raising=False)
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    assert validate.build_parser().parse_args(["x"]).offline is expected


def test_card_db_defaults_to_environment_then_instance(monkeypatch):
    monkeypatch.delenv("CARD_DB", raising=False)
    assert validate.build_parser().parse_args(["x"]).card_db == "instance/cards.sqlite3"
    monkeypatch.setenv("CARD_DB", "/tmp/elsewhere.sqlite3")
    assert validate.build_parser().parse_args(["x"]).card_db == "/tmp/elsewhere.sqlite3"


# --- the pre-commit hook manifest ---------------------------------------------------------


@pytest.fixture(scope="module")
def hook():
    """The edh-validate hook from .pre-commit-hooks.yaml."""
    yaml = pytest.importorskip("yaml")
    [hook] = yaml.safe_load((cli_root() / ".pre-commit-hooks.yaml").read_text())
    return hook


def cli_root():
    """The repository root (where cli.py lives)."""
    from pathlib import Path

    return Path(cli.__file__).resolve().parent


def test_hook_entry_is_the_console_script(hook):
    import tomllib

    scripts = tomllib.loads((cli_root() / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts[hook["entry"]] == "edh_service.cli.validate:main"
    assert hook["language"] == "python"
    assert hook["require_serial"] is True  # one process: the store is synced at most once


@pytest.mark.parametrize(
    ("path", "checked"),
    (
        ("decks/atraxa.txt", True),
        ("lists/decks/forge.dck", True),
        ("deck/mtgo.dek", True),
        ("decks/sub/cockatrice.cod", True),
        ("requirements.txt", False),
        ("docs/decks.md", False),
        ("decks/README.md", False),
    ),
)
def test_hook_files_pattern(hook, path, checked):
    assert bool(re.search(hook["files"], path)) is checked


def test_card_db_tilde_is_expanded_as_the_hook_passes_it(monkeypatch, tmp_path):
    # pre-commit passes args without a shell, so "~" arrives literally.
    monkeypatch.setenv("HOME", str(tmp_path))
    bulk = cli_root() / "tests" / "fixtures" / "cards.jsonl"
    repository = store.open_card_store("~/.cache/edh-validate/cards.sqlite3", offline=True, bulk_file=str(bulk))
    assert (tmp_path / ".cache" / "edh-validate" / "cards.sqlite3").is_file()
    assert repository.metadata().source == "file:cards.jsonl"
