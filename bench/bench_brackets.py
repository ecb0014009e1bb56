"""Commander Brackets: streaming Commander Spellbook's export, and the engine with bracket data.

1. A synthetic export of the real one's size (100,000 variants, about 500 MB of JSON, in the
   backend's shape; a fifth of the variants use two cards) is written gzipped to a temporary
   file, served by the local server, and read by a child process running the real refresh
   (download, gunzip, ijson, name resolution, store write): wall time, CPU and peak RSS.
   Target: peak RSS <= 200 MB (the sync's memory bound).
2. check() on the engine benchmark's 100-card deck with lists the size of ../shared/brackets
   (1,700 combos, 117 mass land denial names) and a declared bracket, next to check() with
   no data (bench_engine's figure): the brackets' cost on a whole validation.
3. The service's whole validation of one 100-card deck (service.validate_text, then
   responses.dump_report: parse, resolve from the SQLite store, check, the JSON body) over
   the fixture store, with both lists loaded and a declared bracket, next to the same
   store without lists and no bracket.

BENCH_SPELLBOOK_VARIANTS sets the variant count (default 100000) for a quicker run.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from bench.common import Row, median_seconds, micros

if TYPE_CHECKING:
    from tests.support.scryfall_server import ScryfallServer

ROOT = Path(__file__).resolve().parent.parent
NAME = "brackets"
VARIANTS = int(os.environ.get("BENCH_SPELLBOOK_VARIANTS", "100000"))
TWO_CARD_SHARE = 5  # one variant in five uses two cards

# Runs in a child process so its peak RSS is the refresh's alone: VmHWM, read by the child
# (tests/support/measured.py says why os.wait4's ru_maxrss would report the parent's size instead).
REFRESH_CHILD = """
import json, sys, time
from card_data import BracketSources
from card_data.lists import refresh as bracket_lists
from card_data.store import list_tables as bracket_tables
from tests.support.measured import peak_rss_kb
start = time.perf_counter()
result = bracket_lists.refresh(sys.argv[1], BracketSources(spellbook_url=sys.argv[2],
                          mass_land_denial_file=sys.argv[3], api_url=sys.argv[4]))
status = result["two_card_combos"]
assert status.status == "updated", status.error
print(json.dumps({"seconds": time.perf_counter() - start, "combos": status.list_status.entries,
                  "vm_hwm_kb": peak_rss_kb()}))
"""


def _variant(number: int) -> dict:
    """One variant in the backend's camelCased shape, padded like real ones (~5 KB)."""
    cards = 2 if number % TWO_CARD_SHARE == 0 else 3 + number % 3
    uses = [{
        "card": {"id": number * 7 + i, "name": f"Synthetic Card {(number * 31 + i * 977) % 40000}",
                 "oracleId": f"{number:08x}-0000-4000-8000-{i:012x}", "spoiler": False,
                 "typeLine": "Legendary Creature — Human Wizard"},
        "zoneLocations": ["B"], "battlefieldCardState": "", "exileCardState": "", "libraryCardState": "",
        "graveyardCardState": "", "mustBeCommander": False, "quantity": 1,
    } for i in range(cards)]
    return {
        "id": f"{number}-{number + 1}", "status": "OK", "uses": uses, "requires": [],
        "produces": [{"feature": {"id": 2 + i, "name": f"Infinite feature {i}", "uncountable": True}, "quantity": 1}
                     for i in range(3)],
        "of": [{"id": number}], "includes": [{"id": number}], "identity": "WUBRG"[: 1 + number % 5],
        "manaNeeded": "{2}{U}{U}", "manaValueNeeded": number % 9, "easyPrerequisites": "All permanents on the battlefield.",
        "notablePrerequisites": "", "description": "Activate the first ability, then the second. " * 60,
        "notes": "", "popularity": number % 5000, "spoiler": False, "bracketTag": "RSPOCE"[number % 6],
        "legalities": {fmt: True for fmt in ("commander", "oathbreaker", "brawl", "vintage", "legacy", "modern")},
        "prices": {"tcgplayer": "12.34", "cardkingdom": "13.99", "cardmarket": "10.50"}, "variantCount": 1,
    }


def write_export(path: Path, variants: int = VARIANTS) -> int:
    """Write a gzipped synthetic export; return its uncompressed size in bytes."""
    size = 0
    with gzip.open(path, "wb", compresslevel=1) as handle:
        def write(text: str) -> None:
            nonlocal size
            data = text.encode("utf-8")
            size += len(data)
            handle.write(data)

        write('{"timestamp": "2026-11-30T08:15:00+00:00", "version": "bench", "variants": [')
        for number in range(variants):
            write(("," if number else "") + json.dumps(_variant(number), ensure_ascii=False))
        write('], "aliases": []}')
    return size


def _refresh_in_child(db: Path, server: ScryfallServer, denial: Path) -> tuple[dict, object]:
    """One refresh in a child process, every source on the local server (or the denial
    file), so it never reaches for the internet; its report and rusage."""
    child = subprocess.Popen([sys.executable, "-c", REFRESH_CHILD, str(db), f"{server.base_url}/spellbook",
                              str(denial), server.base_url],
                             cwd=ROOT, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("refresh child failed")
    return json.loads(output), usage


def _engine_rows() -> list[Row]:
    """check() on the engine benchmark's deck with and without bracket data."""
    from bench.bench_engine import build_cards, build_decklist
    from validator.brackets import BracketData, Combo
    from validator.engine import check

    cards, decklist = build_cards(), build_decklist()
    # lists the size of ../shared/brackets; a few of the deck's cards are in them
    combos = [Combo((f"Combo Card {i}", f"Combo Card {i + 1}")) for i in range(0, 3400, 2)]
    combos += [Combo(("Spell Number 1", "Spell Number 2")), Combo(("Spell Number 3", "Missing Piece"))]
    data = BracketData(mass_land_denial=frozenset(f"Denial {i}" for i in range(116)) | {"Spell Number 5"},
                       combos=tuple(combos))
    bare = median_seconds(lambda: check(decklist, cards), repeat=1000, warmup=100)
    loaded = median_seconds(lambda: check(decklist, cards, bracket_data=data, bracket=3), repeat=1000, warmup=100)
    return [
        Row(NAME, "check(), 100 cards, no bracket data (median)", micros(bare)),
        Row(NAME, "check(), 100 cards, lists loaded + bracket 3 (median)", micros(loaded)),
    ]


def _service_rows(tmp: Path) -> list[Row]:
    """validate_text + dump_report on the fixture store: no lists, then both lists and bracket 4."""
    import time

    from card_data import BracketSources, StoreSettings, open_repository
    from card_data.lists import refresh as bracket_lists
    from card_data.store import list_tables as bracket_tables
    from card_data.sync import import_file
    from edh_service import pipeline as service
    from edh_service.api import responses, schemas
    from tests.support.factories import deck_text
    from tests.support.scryfall_server import FIXTURES

    text = deck_text()  # the API tests' legal 100-card Atraxa list
    rows = []
    for label, lists, declared in (("no lists, no bracket", False, None), ("both lists + bracket 4", True, 4)):
        db = tmp / f"service-{lists}.sqlite3"
        import_file(db, FIXTURES / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
        if lists:
            bracket_lists.refresh(db, BracketSources(
                mass_land_denial_file=str(FIXTURES / "brackets" / "mass-land-denial.txt"),
                combos_file=str(FIXTURES / "brackets" / "combos.txt")), network=False)
        old = time.time() - 60  # a store at rest, as in service (a fresh write is re-checked)
        os.utime(db, (old, old))
        repository = open_repository(StoreSettings(db, offline=True))

        def whole() -> dict:
            report, meta, translated = service.validate_text(text, repository, bracket=declared)
            return responses.dump_report(report, meta, translated=translated)

        rows.append(Row(NAME, f"validate_text + dump_report, 100 cards, {label} (median)",
                        micros(median_seconds(whole, repeat=2000, warmup=200))))
    return rows


def run() -> list[Row]:
    """Export streaming time and peak RSS, then the engine's and the service's cost."""
    sys.path.insert(0, str(ROOT))
    from card_data.sync import import_file
    from tests.support.scryfall_server import FIXTURES, ScryfallServer, with_format_lists

    with tempfile.TemporaryDirectory() as tmp:
        export = Path(tmp) / "variants.json.gz"
        size = write_export(export)
        db = Path(tmp) / "cards.sqlite3"
        import_file(db, FIXTURES / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
        denial = Path(tmp) / "mass-land-denial.txt"
        denial.write_text("Armageddon\n")
        with with_format_lists(ScryfallServer(spellbook_file=export)) as server:
            report, usage = _refresh_in_child(db, server, denial)
        gz_size = export.stat().st_size
        service_rows = _service_rows(Path(tmp))
    rows = [
        Row(NAME, f"Spellbook export: {VARIANTS} variants, {size / 1e6:.0f} MB JSON ({gz_size / 1e6:.0f} MB gz)",
            f"{report['combos']} two-card combos"),
        Row(NAME, "export refresh wall time (child process)", f"{report['seconds']:.1f} s"),
        Row(NAME, "export refresh CPU time (child process)", f"{usage.ru_utime + usage.ru_stime:.1f} s"),
        Row(NAME, "export refresh peak RSS (child process)", f"{report['vm_hwm_kb'] / 1024:.0f} MB", "<= 200 MB"),
    ]
    return rows + _engine_rows() + service_rows


if __name__ == "__main__":
    for row in run():
        print(row)
