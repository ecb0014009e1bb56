"""edh_service/cli/paths.py: PATH arguments expanded (files, folders, globs, "-"), each file
once however it is reached, and what names nothing refused as a usage error."""

from __future__ import annotations

import os

import pytest

from edh_service.cli import paths
from validator.parse import EXTENSIONS


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A small folder of decklists and other files, as the current directory."""
    for name in ("decks/a.txt", "decks/b.dck", "decks/sub/c.dek", "decks/notes.md", "decks/cover.png",
                 "other/d.cod", "exports/e.json", "exports/f.csv", "exports/g.md", "exports/h.tsv"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("1 Sol Ring\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def found(arguments, **kwargs) -> list[tuple[str, bool]]:
    """(path, whether a folder or glob found it) of every input the arguments name."""
    return [(item.path, item.found) for item in paths.expand_paths(arguments, **kwargs).inputs]


def normal(path: str) -> str:
    """The path as the walk spells it."""
    return os.path.normpath(path) if path != "-" else path


@pytest.mark.parametrize(
    ("arguments", "named", "scanned"),
    (
        (["decks/a.txt"], ["decks/a.txt"], []),
        (["decks/cover.png"], ["decks/cover.png"], []),  # named explicitly: checked whatever its extension
        (["decks"], [], ["decks/a.txt", "decks/b.dck", "decks/notes.md", "decks/sub/c.dek"]),
        (["exports"], [], ["exports/e.json", "exports/f.csv", "exports/g.md", "exports/h.tsv"]),
        (["decks/*.txt"], [], ["decks/a.txt"]),
        (["decks/**/*.de?"], [], ["decks/sub/c.dek"]),
        (["-"], ["-"], []),
    ),
)
def test_expand_paths(tree, arguments, named, scanned):
    assert found(arguments) == [(normal(p), False) for p in named] + [(normal(p), True) for p in scanned]


def test_expand_paths_keeps_the_arguments_order(tree):
    assert found(["**/*.cod", "decks/a.txt", "decks/*.txt"]) == [("other/d.cod", True), ("decks/a.txt", False)]


def test_a_folder_scan_takes_every_extension_the_parser_reads():
    # .json, .csv and .md site exports were read when named one by one but skipped by a scan
    assert {".json", ".csv", ".tsv", ".md", ".txt", ".dec", ".dck", ".dek", ".cod"} == paths.DECK_EXTENSIONS
    assert paths.DECK_EXTENSIONS == {ext for extensions in EXTENSIONS.values() for ext in extensions}
    assert paths.DOCUMENT_EXTENSIONS == {".json", ".csv", ".tsv", ".md"}


@pytest.mark.parametrize(("argument", "message"), (
    ("missing.txt", "no such file or directory: missing.txt"), ("decks/*.xml", "no files match 'decks/\\*.xml'"),
    ("empty", r"no decklist files \(\.cod \.csv .* \.json \.md \.tsv \.txt\) under empty"),
))
def test_expand_paths_refuses_what_names_nothing(tree, argument, message):
    (tree / "empty").mkdir()
    with pytest.raises(paths.UsageError, match=message):
        paths.expand_paths([argument])


def test_each_file_is_checked_once_however_it_is_reached(tree):
    # A symlink back up the tree made the folder walk list one deck once per level until
    # ELOOP (41 times); naming one file by two spellings checked it twice.
    os.symlink("..", tree / "decks" / "sub" / "up")
    assert [path for path, _ in found(["decks", "./decks/a.txt"])] == [
        normal(p) for p in ("decks/a.txt", "decks/b.dck", "decks/notes.md", "decks/sub/c.dek")]


def test_a_folder_with_nothing_to_check_is_a_warning_and_the_others_are_checked(tree):
    # One folder with nothing to check stopped the whole run (exit 2), checking nothing else.
    (tree / "empty").mkdir()
    (tree / "pictures").mkdir()
    (tree / "pictures" / "cover.png").write_bytes(b"\x89PNG")
    expanded = paths.expand_paths(["empty", "exports", "pictures", "decks/*.xml"])
    assert [item.path for item in expanded.inputs] == ["exports/e.json", "exports/f.csv", "exports/g.md",
                                                       "exports/h.tsv"]
    extensions = " ".join(sorted(paths.DECK_EXTENSIONS))
    assert expanded.warnings == [f"no decklist files ({extensions}) under empty",
                                 f"no decklist files ({extensions}) under pictures", "no files match 'decks/*.xml'"]
    with pytest.raises(paths.UsageError) as raised:  # when no argument gives anything, a usage error
        paths.expand_paths(["empty", "pictures"])
    assert str(raised.value) == "; ".join(expanded.warnings[:2])


def test_the_runs_own_bulk_file_is_left_out_of_scans_not_of_what_is_named(tree):
    (tree / "exports" / "cards.json").write_text('[{"object": "card", "name": "Sol Ring"}]')
    assert "exports/cards.json" not in [p for p, _ in found(["exports"], leave_out=["exports/cards.json"])]
    assert found(["exports/cards.json"], leave_out=["exports/cards.json"]) == [("exports/cards.json", False)]
    only = tree / "only"
    only.mkdir()
    (only / "cards.json").write_text("[]")
    with pytest.raises(paths.UsageError, match="nothing to check in only but the card data file"):
        paths.expand_paths(["only"], leave_out=[str(only / "cards.json")])
