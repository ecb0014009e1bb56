"""Run every bench/bench_*.py module (or those named on the command line) and print a table.

Each module runs in a process of its own (`python -m bench --one NAME` prints its rows as
JSON): a benchmark is timed as it would be alone, not on a heap, line memos and name
memos the modules before it filled (bench_service's validate_text read about 5% slower
after bench_hostile in one process than alone, alternating runs)."""

from __future__ import annotations

import dataclasses
import json
import pkgutil
import subprocess
import sys
import traceback
from importlib import import_module

import bench
from bench.common import Row

ONE = "--one"


def main(argv: list[str]) -> int:
    """Run the benchmarks and print one table; exit non-zero if any benchmark crashed."""
    if argv[:1] == [ONE]:
        return _run_one(argv[1])
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    rows: list[Row] = []
    failed = False
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        # its stderr (progress, a traceback) passes through; its stdout is the rows
        child = subprocess.run([sys.executable, "-m", "bench", ONE, name], stdout=subprocess.PIPE, text=True)
        if child.returncode != 0:  # a broken benchmark must not hide the others' figures
            rows.append(Row(name, "FAILED", "see traceback above"))
            failed = True
        else:
            rows.extend(Row(**fields) for fields in json.loads(child.stdout))
    headers = ("benchmark", "metric", "value", "target")
    table = [headers] + [(r.benchmark, r.metric, r.value, r.target) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for i, row in enumerate(table):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    return 1 if failed else 0


def _run_one(name: str) -> int:
    """Run one module and print its rows as JSON on stdout (whatever it prints goes to
    stderr, so only the rows reach the parent's pipe)."""
    stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        rows = import_module(f"bench.{name}").run()
    except Exception:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout = stdout
    print(json.dumps([dataclasses.asdict(row) for row in rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
