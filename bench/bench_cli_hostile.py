"""edh-validate on a hostile checkout (issue 19): what the walk and the caps cost.

- walk: `paths.expand_paths` over 100,000 entries (100 decklists among other files in 1,000
  folders, and two self-referencing folder links, which made glob's walk explode);
- MAX_ENTRIES: the command (a subprocess) over 250,000 entries, until it refuses;
- MAX_FILES: the command over 10,000 decklist files in one run;
- MAX_FILE_BYTES: the command over one 4 MiB Moxfield JSON of distinct names, the costliest
  file at the size limit found (each name is resolved, and reported unknown);
- dck_dialect on 1 MiB of newlines (20,000 of them took 29 s before).

The store is built from tests/fixtures/cards.jsonl (no ../shared needed). Peak RSS is the
subprocess's own (wait4), wall time includes its start-up.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Row

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "fixtures" / "decklists_cli" / "valid.txt"


def command(args: list[str], cwd: Path) -> tuple[float, int, int]:
    """(wall seconds, peak RSS in MB, exit code) of `python -m cli --offline ARGS`, the
    second of two runs (the first, fresh from writing the tree, warms the caches)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SCRYFALL_API_URL": "http://127.0.0.1:9"}
    for _ in range(2):
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "cli", "--offline", *args], cwd=cwd, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
    return wall, usage.ru_maxrss // 1024, process.returncode


def tree(root: Path, entries: int, decks: int, folders: int = 1000) -> Path:
    """`entries` empty files spread over `folders` folders, `decks` of them decklists."""
    for index in range(entries):
        folder = root / f"f{index % folders:04d}"
        if index < folders:
            folder.mkdir(parents=True)
        name = f"{index}.txt" if index < decks else f"{index}.log"
        if index < decks:
            shutil.copyfile(SAMPLE, folder / name)
        else:
            (folder / name).touch()
    return root


def walk_seconds(root: Path) -> float:
    """Median wall time of expand_paths over the tree, 3 runs, in its folder."""
    sys.path.insert(0, str(ROOT))
    from edh_service.cli import paths, reading

    here = os.getcwd()
    os.chdir(root.parent)
    try:
        samples = []
        for _ in range(3):
            start = time.perf_counter()
            found = paths.expand_paths([root.name]).inputs
            samples.append(time.perf_counter() - start)
    finally:
        os.chdir(here)
    assert len(found) == 100, len(found)
    return statistics.median(samples)


def dck_seconds() -> float:
    """dck_dialect on 1 MiB of newlines."""
    sys.path.insert(0, str(ROOT))
    from edh_service.cli import paths, reading

    start = time.perf_counter()
    reading.dck_dialect("\n" * (1024 * 1024))
    return time.perf_counter() - start


def run() -> list[Row]:
    """The rows: walk, each cap, the dck test."""
    from card_data.sync import import_file

    with tempfile.TemporaryDirectory(prefix="bench-cli-hostile-") as tmp:
        work = Path(tmp)
        db = work / "cards.sqlite3"
        import_file(db, ROOT / "tests" / "fixtures" / "cards.jsonl")
        walked = tree(work / "walked", 100_000, 100)
        os.symlink(".", walked / "f0000" / "a")
        os.symlink(".", walked / "f0000" / "b")
        walk = walk_seconds(walked)
        shutil.rmtree(walked)
        tree(work / "huge", 250_000, 0)
        huge_wall, huge_rss, huge_code = command(["--card-db", str(db), "huge"], work)
        shutil.rmtree(work / "huge")
        tree(work / "many", 10_000, 10_000)
        many_wall, many_rss, many_code = command(["--card-db", str(db), "many"], work)
        shutil.rmtree(work / "many")
        # As many entries as a JSON list may hold (validator.parse's 10,000): the largest read.
        names = {f"k{i}": {"quantity": 1, "card": {"name": f"Card Name {i}"}} for i in range(10_000)}
        export = work / "big.json"
        export.write_text(json.dumps({"commanders": {}, "mainboard": names}, separators=(",", ":")))
        size = export.stat().st_size
        big_wall, big_rss, big_code = command(["--card-db", str(db), "big.json"], work)
    assert (huge_code, many_code, big_code) == (2, 0, 1), (huge_code, many_code, big_code)
    return [
        Row("cli_hostile", "walk 100,000 entries (100 decks, 2 self-links), median of 3", f"{walk:.2f} s", "≤ 2 s"),
        Row("cli_hostile", "250,000 entries: refused at MAX_ENTRIES: wall / peak RSS",
            f"{huge_wall:.2f} s / {huge_rss} MB", "≤ 5 s / ≤ 200 MB"),
        Row("cli_hostile", "10,000 decklist files (MAX_FILES), one run: wall / peak RSS",
            f"{many_wall:.1f} s / {many_rss} MB", "≤ 200 MB"),
        Row("cli_hostile", f"one {size / 2**20:.1f} MB JSON of 10,000 distinct names (the most a JSON list may hold): wall / peak RSS",
            f"{big_wall:.1f} s / {big_rss} MB", "≤ 200 MB"),
        Row("cli_hostile", "dck_dialect, 1 MiB of newlines", f"{dck_seconds() * 1e3:.1f} ms", "≤ 1 s"),
    ]
