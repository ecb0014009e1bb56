"""Finding wrk, the HTTP benchmarks' load generator (Debian's `wrk` package).

`make bench` installs it with apt-get when it is missing and the machine allows it (root and
apt-get, as `.ci/run` installs what pip cannot); otherwise, or when run as
`python -m bench`, the HTTP benchmarks skip their rows and say so in one line.
"""

from __future__ import annotations

import shutil
import sys

from bench.common import Row

MISSING = "wrk is not installed (apt-get install wrk; `make bench` installs it as root): HTTP rows skipped"


def find_wrk() -> str | None:
    """wrk's path on PATH, or None after printing MISSING to stderr (one line)."""
    found = shutil.which("wrk")
    if found is None:
        print(MISSING, file=sys.stderr, flush=True)
    return found


def skipped(benchmark: str) -> list[Row]:
    """The one row a benchmark that needs wrk reports without it."""
    return [Row(benchmark, "skipped", "wrk is not installed")]
