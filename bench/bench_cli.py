"""edh-validate wall time: 40 real decklist files in one invocation, from a warm store.

The store is imported from ../shared/carddata once (not timed), then the command runs as
a real subprocess, as CI runs it: interpreter start, imports, store open, 40 checks.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import SHARED, Row

ROOT = Path(__file__).resolve().parent.parent
FILES = 40
REPEAT = 5
TARGET_SECONDS = 2.0


def deck_files() -> list[Path]:
    """Every plain-text and .dck decklist in ../shared/decks (the JSON/CSV are API bodies)."""
    decks = SHARED / "decks"
    return sorted(decks.rglob("*.txt")) + sorted(decks.rglob("*.dck"))


def stage_decks(sources: list[Path], directory: Path) -> list[Path]:
    """Copy the decks under distinct names, repeating some, until there are FILES of them.

    Distinct names because the command checks a path named twice only once.
    """
    staged = []
    for index in range(FILES):
        source = sources[index % len(sources)]
        target = directory / f"{index:02d}-{source.name}"
        shutil.copyfile(source, target)
        staged.append(target)
    return staged


def children_cpu() -> float:
    """User + system CPU seconds used so far by finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(args: list[str]) -> tuple[float, float]:
    """Median (wall, CPU) seconds of `python -m cli ARGS` over REPEAT runs, after a warm-up.

    CPU time is reported beside wall time because it barely moves when other work
    shares the machine, while wall time does.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SCRYFALL_API_URL": "http://127.0.0.1:9"}
    command = [sys.executable, "-m", "cli", "--offline", *args]
    walls, cpus = [], []
    for attempt in range(REPEAT + 1):
        start, cpu = time.perf_counter(), children_cpu()
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        wall, cpu = time.perf_counter() - start, children_cpu() - cpu
        if done.returncode == 2:
            raise RuntimeError(f"edh-validate failed: {done.stderr}")
        if attempt:  # the first run warms the page cache and .pyc files
            walls.append(wall)
            cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


def run() -> list[Row]:
    """Wall time of one invocation over 40 files, and of one over a single file (fixed cost)."""
    if not (SHARED / "carddata" / "oracle-cards.jsonl.gz").is_file():
        return [Row("cli", "40 files, one invocation", "skipped: ../shared absent")]
    from card_data.sync import import_file

    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        db = Path(tmp) / "cards.sqlite3"
        import_file(db, SHARED / "carddata" / "oracle-cards.jsonl.gz")
        staged = stage_decks(deck_files(), Path(tmp))
        many, many_cpu = time_command(["--card-db", str(db), *map(str, staged)])
        # A deck whose every name resolves: no "did you mean" index is built.
        plain = next(path for path in staged if path.name.endswith("Political Puppets.txt"))
        one, _ = time_command(["--card-db", str(db), str(plain)])
    return [
        Row("cli", f"{FILES} files, one invocation: wall (median of {REPEAT})", f"{many:.2f} s",
            f"≤ {TARGET_SECONDS:g} s"),
        Row("cli", f"{FILES} files, one invocation: CPU", f"{many_cpu:.2f} s"),
        Row("cli", "1 file: wall (start-up, imports, store open, 1 check)", f"{one:.2f} s"),
        Row("cli", "per file beyond the first: wall", f"{(many - one) / (FILES - 1) * 1e3:.1f} ms"),
    ]
