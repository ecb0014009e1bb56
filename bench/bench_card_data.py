"""Card data: full bulk sync of ../shared/carddata through the local Scryfall-shaped server
(wall time and peak RSS of the syncing process), and name resolution from a warm store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import SHARED, Row, median_seconds, micros, millis

ROOT = Path(__file__).resolve().parent.parent
NAME = "card_data"

# Runs in a child process so its peak RSS is the sync's alone: VmHWM, read by the child
# (tests/support/measured.py says why os.wait4's ru_maxrss would report the parent's size instead).
SYNC_CHILD = """
import json, sys, time
from card_data.scryfall.client import ScryfallClient
from card_data.settings import StoreSettings
from card_data.sync import sync
from tests.support.measured import peak_rss_kb
start = time.perf_counter()
result = sync(StoreSettings(sys.argv[1]), client=ScryfallClient(sys.argv[2]), force=True)
print(json.dumps({"seconds": time.perf_counter() - start, "cards": result.metadata.cards, "vm_hwm_kb": peak_rss_kb()}))
"""


def _sync_in_child(db: Path, api_url: str) -> tuple[dict, object]:
    """Run one full sync in a child process; return its report and its rusage."""
    child = subprocess.Popen(
        [sys.executable, "-c", SYNC_CHILD, str(db), api_url],
        cwd=ROOT, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"sync child failed with exit code {child.returncode}")
    return json.loads(output), usage


def _deck_names(db: Path, count: int = 100) -> list[str]:
    """count distinct card names spread over the store, typed the way people type them."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        names = [name for (name,) in conn.execute("SELECT name FROM cards ORDER BY id")]
    step = len(names) // count
    return [name.lower() if i % 3 == 0 else name for i, name in enumerate(names[::step][:count])]


def run() -> list[Row]:
    """Sync time and memory, then warm and cold resolve times for a 100-name deck."""
    bulk_file = SHARED / "carddata" / "oracle-cards.jsonl.gz"
    if not bulk_file.is_file():
        return [Row(NAME, "skipped", "../shared/carddata is absent")]
    sys.path.insert(0, str(ROOT))
    from card_data import open_repository
    from card_data.settings import StoreSettings
    from tests.support.scryfall_server import ScryfallServer

    with tempfile.TemporaryDirectory() as tmp, ScryfallServer(bulk_file=bulk_file, content_encoding=True) as server:
        db = Path(tmp) / "cards.sqlite3"
        report, usage = _sync_in_child(db, server.base_url)
        names = _deck_names(db)
        warm = open_repository(StoreSettings(db, offline=True))
        warm_seconds = median_seconds(lambda: warm.resolve(names), repeat=200, warmup=5)
        cold_seconds = median_seconds(
            lambda: open_repository(StoreSettings(db, offline=True)).resolve(names), repeat=30, warmup=2)
        suggest_seconds = median_seconds(lambda: warm.resolve(["Lightnig Bolt"]), repeat=30, warmup=2)
    return [
        Row(NAME, f"full sync, {report['cards']} cards (wall)", f"{report['seconds']:.2f} s", "<= 20 s"),
        # CPU time tells the sync's own cost apart from a busy machine's wall time.
        Row(NAME, "full sync CPU time (child process)", f"{usage.ru_utime + usage.ru_stime:.2f} s"),
        Row(NAME, "full sync peak RSS (child process)", f"{report['vm_hwm_kb'] / 1024:.0f} MB", "<= 200 MB"),
        Row(NAME, "resolve 100-name deck, warm store (median)", micros(warm_seconds), "≤ 100 µs"),
        Row(NAME, "resolve 100-name deck, new repository (median)", millis(cold_seconds)),
        Row(NAME, "resolve 1 unknown name + 3 suggestions (median)", millis(suggest_seconds)),
    ]
