"""Hostile sync inputs (issue 19): each bulk file and Spellbook export of tests/support/hostile_files.py,
served by the local Scryfall-shaped server and read by the real sync or refresh in a child
process (tests/support/measured.py: its own peak RSS, VmHWM, and CPU time), next to a normal sync of
../shared/carddata in the same run. Also the worst a file can cost under the caps: gzip
bombs just over MAX_BULK_BYTES (1 GiB) and MAX_EXPORT_BYTES (2 GiB), read to the cap.

Targets: peak RSS <= 200 MB; every hostile file refused (or read) in bounded time.
BENCH_SYNC_BOUNDS_CAPS=0 skips the two cap-sized bombs (about 30 s of CPU).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from bench.common import SHARED, Row

ROOT = Path(__file__).resolve().parent.parent
NAME = "sync_bounds"
CAPS = os.environ.get("BENCH_SYNC_BOUNDS_CAPS", "1") != "0"


def _figure(measured) -> str:
    """wall / CPU / peak RSS of one child run."""
    return f"{measured.wall_seconds:.2f} s / {measured.cpu_seconds:.2f} s CPU / {measured.peak_rss_mb:.0f} MB"


def _outcome(measured, kind: str | None = None) -> str:
    """What the run said, briefly."""
    outcome = measured.outcome if kind is None else measured.outcome[kind]
    return "refused" if outcome.get("error") else f"{outcome.get('cards', outcome.get('entries'))} read"


def run() -> list[Row]:
    """One row per hostile input: how it ended, wall, CPU and peak RSS."""
    sys.path.insert(0, str(ROOT))
    from card_data.sync import import_file
    from tests.support.hostile_files import HOSTILE_BULK, HOSTILE_EXPORTS, MB, gzip_of
    from tests.support.measured import measure
    from tests.support.scryfall_server import FIXTURES, ScryfallServer

    rows: list[Row] = []
    bulk = dict(HOSTILE_BULK)
    exports = dict(HOSTILE_EXPORTS)
    if CAPS:
        bulk["1.1 GiB of newlines from 1.1 MB of gzip (cap 1 GiB)"] = (lambda: gzip_of((b"\n", 1100 * MB)), "over")
        exports["2.1 GiB of whitespace from 2 MB of gzip (cap 2 GiB)"] = (
            lambda: gzip_of((b'{"variants": [', 1), (b" ", 2150 * MB), (b"]}", 1)), "over")
    search = json.loads((FIXTURES / "brackets" / "mass-land-denial-search.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        store = folder / "fixture.sqlite3"
        import_file(store, FIXTURES / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
        real = SHARED / "carddata" / "oracle-cards.jsonl.gz"
        if real.is_file():
            with ScryfallServer(bulk_file=real) as server:
                measured = measure("sync", folder / "real.sqlite3", server.base_url)
            rows.append(Row(NAME, f"normal: sync of {real.name} ({_outcome(measured)}): wall / CPU / peak RSS",
                            _figure(measured), "<= 200 MB"))
        for case, (build, _) in bulk.items():
            (file := folder / "hostile.bulk").write_bytes(build())
            shutil.copyfile(store, db := folder / "cards.sqlite3")
            with ScryfallServer(bulk_file=file) as server:
                measured = measure("sync", db, server.base_url)
            rows.append(Row(NAME, f"bulk file: {case} ({_outcome(measured)})", _figure(measured), "<= 200 MB"))
        for case, (build, _) in exports.items():
            shutil.copyfile(store, db := folder / "cards.sqlite3")
            with ScryfallServer(spellbook_export=build(), spellbook_offer_gz=False,
                                search_results={"otag:mass-land-denial": search}) as server:
                measured = measure("refresh", db, server.base_url, f"{server.base_url}/spellbook")
            rows.append(Row(NAME, f"Spellbook export: {case} ({_outcome(measured, 'two_card_combos')})",
                            _figure(measured), "<= 200 MB"))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
