"""One card_data operation run in a child process, so that its peak RSS and CPU time are its
own, not the test process's: `measure("sync", db, api_url)`.

The peak RSS is the child's VmHWM from /proc/self/status, read by the child as it ends:
os.wait4's ru_maxrss is no good here, since Linux keeps across exec the high-water mark of
the memory the child was forked with, which is the test process's (a 150 MB pytest made
every child "peak" at 150 MB). CPU time is os.wait4's.

The child (`python -m tests.support.measured OP ARGS...`) prints one JSON line: the operation's
outcome (or `{"error": ...}` for a CardDataError) and its VmHWM. Anything else it raises (a MemoryError,
a RecursionError) is a crash: traceback on stderr, exit status 1. Its address space is
capped at MEMORY_CAP_MB, so a regression that would take gigabytes fails fast with a
MemoryError instead of swapping a machine that others share.

Operations:
  sync DB API_URL                  card_data.sync.sync(force=True)
  import DB PATH                   card_data.sync.import_file
  refresh DB API_URL SPELLBOOK_URL [COMBOS_FILE]
                                   card_data.lists.refresh.refresh (COMBOS_FILE: mass land
                                   denial alone from the network)
  collection API_URL NAME...       ScryfallClient.fetch_collection
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEMORY_CAP_MB = 1536  # virtual memory (a Python process maps ~300 MB it never touches)
TIMEOUT_SECONDS = 120.0


@dataclass(frozen=True)
class Measured:
    """What the child printed, and what it cost."""

    outcome: dict
    peak_rss_mb: float
    cpu_seconds: float
    wall_seconds: float


def measure(operation: str, *args: object, timeout: float = TIMEOUT_SECONDS) -> Measured:
    """Run one operation in a child process; raise AssertionError (with its stderr) if it crashed."""
    command = [sys.executable, "-m", "tests.support.measured", operation, *map(str, args)]
    with tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
        killer = threading.Timer(timeout, child.kill)
        killer.start()
        try:
            output = child.stdout.read()
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            killer.cancel()
            child.stdout.close()
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        stderr.seek(0)
        errors = stderr.read().decode("utf-8", "replace")
    if child.returncode != 0:
        raise AssertionError(f"{operation} crashed (exit {child.returncode}) after {wall:.1f} s:\n{errors[-3000:]}")
    report = json.loads(output)
    return Measured(report["outcome"], report["vm_hwm_kb"] / 1024, usage.ru_utime + usage.ru_stime, wall)


def _sync(db: str, api_url: str) -> dict:
    from card_data.scryfall.client import ScryfallClient
    from card_data.settings import StoreSettings
    from card_data.sync import sync

    result = sync(StoreSettings(db), client=ScryfallClient(api_url, timeout=(5.0, 30.0), retries=0), force=True)
    return {"status": result.status, "cards": result.metadata.cards}


def _import(db: str, path: str) -> dict:
    from card_data.sync import import_file

    result = import_file(db, path, updated_at="2026-12-01T00:00:00+00:00")
    return {"status": result.status, "cards": result.metadata.cards}


def _refresh(db: str, api_url: str, spellbook_url: str, combos_file: str | None = None) -> dict:
    from card_data import BracketSources
    from card_data.lists import refresh as bracket_lists
    from card_data.store import list_tables as bracket_tables

    sources = BracketSources(api_url=api_url, spellbook_url=spellbook_url, combos_file=combos_file)
    return {kind: {"status": outcome.status, "error": outcome.error, "entries": outcome.list_status.entries}
            for kind, outcome in bracket_lists.refresh(db, sources).items()}


def _collection(api_url: str, *names: str) -> dict:
    from card_data.scryfall.client import ScryfallClient

    found, not_found = ScryfallClient(api_url, retries=0).fetch_collection(names)
    return {"found": len(found), "not_found": len(not_found)}


OPERATIONS = {"sync": _sync, "import": _import, "refresh": _refresh, "collection": _collection}


def main(argv: list[str]) -> int:
    """Run one operation and print its outcome as one JSON line."""
    from card_data.errors import CardDataError

    cap = MEMORY_CAP_MB << 20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    try:
        outcome = OPERATIONS[argv[0]](*argv[1:])
    except CardDataError as error:
        outcome = {"error": str(error)}
    print(json.dumps({"outcome": outcome, "vm_hwm_kb": peak_rss_kb()}))
    return 0


def peak_rss_kb() -> int:
    """This process's peak resident set size since its exec (VmHWM), in KiB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
