"""How many files failed an edh-validate run, read from its output (the action's output).

    python scripts/count_invalid.py FORMAT REPORT_FILE [--strict]

Prints the number of files that failed the check: invalid decks plus files that could not
be checked. Prints nothing when the output holds no result (the run stopped before
checking, e.g. card data unavailable). Standard library only: the GitHub Action runs it
with the runner's Python, beside the installed validator.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET

# The last line of the text and github formats (cli.summary).
SUMMARY = re.compile(r"^\d+ files? checked: \d+ valid, (\d+) invalid;.*$", re.M)
UNREADABLE = re.compile(r"; (\d+) could not be checked")


def count_invalid(output_format: str, output: str, strict: bool) -> int | None:
    """Failed files in one run's output, or None when it reports no result."""
    try:
        if output_format == "json":
            files = json.loads(output)
            # A warning-only deck is "valid" in JSON but fails under --strict.
            return sum(1 for f in files if not f.get("valid") or (strict and f.get("violations")))
        if output_format == "junit":
            suites = ET.fromstring(output)
            return int(suites.get("failures", 0)) + int(suites.get("errors", 0))
    except (ValueError, ET.ParseError, AttributeError):
        return None
    lines = list(SUMMARY.finditer(output))
    if not lines:
        return None
    line = lines[-1]
    unreadable = UNREADABLE.search(line.group(0))
    return int(line.group(1)) + (int(unreadable.group(1)) if unreadable else 0)


def main(argv: list[str]) -> int:
    """Print the count (or nothing); always exit 0: the check's own exit code decides."""
    output_format, path, *flags = argv
    with open(path, encoding="utf-8") as handle:
        count = count_invalid(output_format, handle.read(), "--strict" in flags)
    if count is not None:
        print(count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
