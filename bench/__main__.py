"""Run every bench/bench_*.py module (or those named on the command line) and print a table."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import traceback

import bench
from bench.common import Row


def main(argv: list[str]) -> int:
    """Run the benchmarks and print one table; exit non-zero if any benchmark crashed."""
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    rows: list[Row] = []
    failed = False
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            rows.extend(importlib.import_module(f"bench.{name}").run())
        except Exception:  # a broken benchmark must not hide the others' figures
            traceback.print_exc()
            rows.append(Row(name, "FAILED", "see traceback above"))
            failed = True
    headers = ("benchmark", "metric", "value", "target")
    table = [headers] + [(r.benchmark, r.metric, r.value, r.target) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for i, row in enumerate(table):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
