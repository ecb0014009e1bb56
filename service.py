"""Glue shared by the HTTP API and the CLI: decklist text in, a Report out."""

from __future__ import annotations

from typing import Mapping, Sequence

from validator.engine import Report, check
from validator.parse import parse


def names_to_resolve(decklist, commanders=None, companion=None, color_choices=None) -> list[str]:
    """Every distinct name the check will look up: list entries, overrides, color choices."""
    names = dict.fromkeys(entry.name for entry in decklist.entries)
    names.update(dict.fromkeys(commanders or ()))
    if companion:
        names[companion] = None
    names.update(dict.fromkeys(color_choices or ()))
    return list(names)


def validate_text(text: str, repository, **options) -> Report:
    """Parse the text, resolve every name in one batch, and apply every rule
    (options: format, commanders, companion, color_choices, suggest_limit)."""
    return validate_text_with_source(text, repository, **options)[0]


def validate_text_with_source(
    text: str,
    repository,
    *,
    format: str | None = None,
    commanders: Sequence[str] | None = None,
    companion: str | None = None,
    color_choices: Mapping[str, str] | None = None,
    suggest_limit: int | None = None,
) -> tuple[Report, object | None]:
    """validate_text, plus the metadata of the very store file the cards came from (None
    when the repository does not say), so a response never names another store version.

    `suggest_limit` caps how many unknown names get fuzzy suggestions (the repository's
    default when None): a batch shares one budget so 50 decks of typos stay cheap.
    """
    decklist = parse(text, format)
    names = names_to_resolve(decklist, commanders, companion, color_choices)
    limit = {} if suggest_limit is None else {"suggest_limit": suggest_limit}
    resolution = repository.resolve(names, **limit)
    report = check(
        decklist,
        resolution.cards,
        resolution.suggestions,
        commanders=commanders,
        companion=companion,
        color_choices=color_choices,
    )
    return report, getattr(resolution, "metadata", None)
