"""One run's outcome, shared by the checking and the renderers: a `Checked` per input and
the exit code they add up to (0 every deck valid; 1 an error, or a warning with --strict;
2 an input not checked)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from card_data.sites import SiteDeck
from edh_service.cli.printable import shown_path
from edh_service.pipeline import Translated
from validator.engine import Report
from validator.messages import Text
from validator.violations import Violation

EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_USAGE = 2

PROG = "edh-validate"
STDIN = "-"
STDIN_NAME = "<stdin>"


@dataclass(frozen=True)
class Checked:
    """One input's outcome: the engine's Report, or why the input could not be checked."""

    path: str  # as the user named it; "-" is stdin
    report: Report | None = None
    error: str | Text | None = None  # a Text: rendered in --lang by the outputs
    translated: tuple[Translated, ...] = ()  # the names read in another language
    link: bool = False  # `path` is a link to a deck on a site, not a file
    site: SiteDeck | None = None  # the deck that link named, as read from its site
    names: dict = field(default_factory=dict)  # English name -> as shown in --lang (pipeline.shown_names)

    @property
    def name(self) -> str:
        """The name to show for this input in every output format."""
        return STDIN_NAME if self.path == STDIN else shown_path(self.path)

    def violations(self) -> list[Violation]:
        """The report's violations (none for an unreadable input)."""
        return list(self.report.violations) if self.report is not None else []

    def counts(self) -> tuple[int, int]:
        """How many (errors, warnings) the report holds."""
        errors = sum(1 for v in self.violations() if v.severity == "error")
        return errors, len(self.violations()) - errors

    def fails(self, strict: bool) -> bool:
        """True when this deck fails the check: any error, or any warning under --strict."""
        errors, warnings = self.counts()
        return errors > 0 or (strict and warnings > 0)


def exit_code(results: Iterable[Checked], strict: bool) -> int:
    """2 if any input could not be checked, else 1 if any deck fails, else 0."""
    results = list(results)
    if any(r.error for r in results):
        return EXIT_USAGE
    return EXIT_INVALID if any(r.fails(strict) for r in results) else EXIT_VALID
