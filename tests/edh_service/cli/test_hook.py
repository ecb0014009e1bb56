"""The pre-commit hook manifest (.pre-commit-hooks.yaml): its entry is edh-validate's console
script, run once for all files, on the files a decklist can be."""

from __future__ import annotations

import re

import pytest

import cli


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
