"""edh_service/cli/paths.py: PATH arguments expanded (files, folders, globs, "-"), each file
once however it is reached, and what names nothing refused as a usage error."""

from __future__ import annotations

import os

import pytest

from edh_service.cli import paths


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
