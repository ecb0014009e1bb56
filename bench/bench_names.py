"""Card names in other languages (issue 23), on the real data of ../shared/carddata/foreign-names/:

- a 100-card list written wholly in Spanish against the same list in English, through
  pipeline.validate_text on a warm store (target: within 20%), and the same with the
  per-store memos emptied before each call (names seen for the first time: the batched
  look-ups run, the suggestion index stays built);
- the all_cards refresh of a ~390 MB all_cards-shaped .jsonl.gz file through the local
  Scryfall-shaped server, in a child process: wall and CPU time and peak RSS (the child's
  own VmHWM; target <= 200 MB). The file is generated under /tmp by repeating the real
  Scryfall objects of the foreign-names page in a shuffled order (ids made unique, each
  printed name given one of 2,000 suffixes, so the table holds about as many names as the
  real one); it is never committed and is reused while it exists (BENCH_ALL_CARDS names
  another path, BENCH_ALL_CARDS_MB another size);
- the table's size on disk: the distilled file, and what installing it added to the store.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench.common import SHARED, Row, micros
from bench.common import instructions_per_call as counted_instructions

ROOT = Path(__file__).resolve().parent.parent
NAME = "names"
FOLDER = SHARED / "carddata" / "foreign-names"
TSP = FOLDER / "mtgjson-set-TSP-2025-08-18.json"
PAGE = FOLDER / "scryfall-cards-page3-gk2-2019.json"
ALL_CARDS = Path(os.environ.get("BENCH_ALL_CARDS", "/tmp/edh-bench-all-cards.jsonl.gz"))
TARGET_MB = int(os.environ.get("BENCH_ALL_CARDS_MB", "390"))
SUFFIXES = 2000

# validate_text `calls` times after 3 warm-up calls, for cachegrind: instructions per call
# (the difference between 0 and N calls) compare two lists whatever else the machine runs.
VALIDATE_CHILD = """
import sys
from pathlib import Path
from card_data import open_repository
from card_data.settings import StoreSettings
from edh_service import pipeline
text = Path(sys.argv[2]).read_text(encoding="utf-8")
repository = open_repository(StoreSettings(sys.argv[1], offline=True))
for _ in range(3 + int(sys.argv[3])):
    pipeline.validate_text(text, repository)
"""

REFRESH_CHILD = """
import json, sys, time
from card_data.names import sync as names_sync
from card_data.scryfall.client import ScryfallClient
from card_data.settings import NameSources, StoreSettings
from tests.support.measured import peak_rss_kb
start = time.perf_counter()
outcome = names_sync.refresh(StoreSettings(sys.argv[1], api_url=sys.argv[2]), NameSources(),
                             client=ScryfallClient(sys.argv[2]), force=True)
print(json.dumps({"seconds": time.perf_counter() - start, "status": outcome.status, "error": outcome.error,
                  "names": outcome.names.names, "vm_hwm_kb": peak_rss_kb()}))
"""


def real_store(folder: Path) -> tuple[Path, dict]:
    """A store of the Time Spiral and Scryfall-page cards with both files' names; the TSP set."""
    sys.path.insert(0, str(ROOT))
    from tests.support.foreign_names import real_names_store

    db, tsp, _ = real_names_store(SHARED, folder)
    return db, tsp


def spanish_and_english(tsp: dict) -> tuple[str, str]:
    """The same 100-card list in English and in Spanish: a legendary creature of the set, the
    set's cards inside its color identity (each named in Spanish unlike its English name),
    and basic lands to 100, so the list is judged as an ordinary one (a few violations)."""
    from card_data.convert import normalize_name

    def spanish_of(card: dict) -> str | None:
        name = next((entry["name"] for entry in card["foreignData"] if entry["language"] == "Spanish"), None)
        # "Íxidron" is Ixidron's English key with an accent: English (the list must be all Spanish)
        return name if name and normalize_name(name) != normalize_name(card["name"]) else None

    cards = tsp["data"]["cards"]
    legend = next(card for card in cards if "Legendary" in card.get("supertypes", []) and "Creature" in card["types"]
                  and card.get("colorIdentity") == ["W"] and spanish_of(card))
    pairs: dict[str, str] = {}
    for card in cards:
        if card is not legend and set(card.get("colorIdentity", [])) <= {"W"} and "Basic" not in card.get(
                "supertypes", []) and (spanish := spanish_of(card)):
            pairs.setdefault(card["name"], spanish)
    others = list(pairs.items())[:80]
    plains = next(card for card in cards if card["name"] == "Plains")
    basics = 99 - len(others)
    english = (f"Commander\n1 {legend['name']}\n\nDeck\n" + "".join(f"1 {en}\n" for en, _ in others)
               + f"{basics} Plains\n")
    spanish = (f"Commander\n1 {spanish_of(legend)}\n\nDeck\n" + "".join(f"1 {es}\n" for _, es in others)
               + f"{basics} {spanish_of(plains)}\n")
    return english, spanish


def validation_rows(db: Path, tsp: dict, folder: Path) -> list[Row]:
    from card_data import open_repository
    from card_data.settings import StoreSettings
    from edh_service import pipeline

    english, spanish = spanish_and_english(tsp)
    repository = open_repository(StoreSettings(db, offline=True))
    checked = pipeline.validate_text(spanish, repository)
    lines = len([line for line in spanish.splitlines() if line[:1].isdigit()])
    assert len(checked.translated) == lines and checked.report.card_count == 100, checked.report.violations
    assert pipeline.validate_text(english, repository).translated == ()

    def forgetting(text: str):
        def call():
            generation = repository.store.snapshot().generation
            generation.cards_by_name.clear()
            generation.keys_by_name.clear()
            generation.printed_by_name.clear()
            generation.cards_by_key.clear()
            return pipeline.validate_text(text, repository)
        return call

    rows = []
    for label, make in (("warm store", lambda text: lambda: pipeline.validate_text(text, repository)),
                        ("memos emptied each call", forgetting)):
        english_seconds, spanish_seconds = interleaved(make(english), make(spanish))
        ratio = spanish_seconds / english_seconds
        target = "<= 1.20 x" if label == "warm store" else ""
        rows += [Row(NAME, f"validate 100-card list in English, {label} (CPU, median)", micros(english_seconds)),
                 Row(NAME, f"validate the same list in Spanish, {label} (CPU, median)", micros(spanish_seconds)),
                 Row(NAME, f"Spanish / English, {label}", f"{ratio:.2f} x", target)]
    english_instructions = instructions_per_call(db, english, folder)
    if english_instructions is not None:
        spanish_instructions = instructions_per_call(db, spanish, folder)
        rows += [Row(NAME, "validate 100-card list in English, warm store (instructions, cachegrind)",
                     f"{english_instructions / 1e6:.2f} M"),
                 Row(NAME, "validate the same list in Spanish, warm store (instructions, cachegrind)",
                     f"{spanish_instructions / 1e6:.2f} M"),
                 Row(NAME, "Spanish / English, warm store, instructions (load-independent)",
                     f"{spanish_instructions / english_instructions:.2f} x", "<= 1.20 x")]
    return rows


def instructions_per_call(db: Path, text: str, folder: Path, calls: int = 50) -> float | None:
    """Instructions one warm validate_text of `text` executes (valgrind's cachegrind, the
    difference between 0 and `calls` calls); None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    path = folder / f"list-{abs(hash(text))}.txt"
    path.write_text(text, encoding="utf-8")
    return counted_instructions(VALIDATE_CHILD, [str(db), str(path)], calls)


def interleaved(first, second, *, rounds: int = 41, calls: int = 25) -> tuple[float, float]:
    """Median CPU seconds a call of each, measured in alternating rounds of `calls` calls
    (process time, so other processes on a busy 2-core machine weigh less than on the wall
    clock; alternating, so whatever load there is falls on both alike)."""
    for fn in (first, second):
        for _ in range(calls):
            fn()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for fn, samples in zip((first, second), times):
            start = time.process_time()
            for _ in range(calls):
                fn()
            samples.append((time.process_time() - start) / calls)
    return statistics.median(times[0]), statistics.median(times[1])


def generate_all_cards(path: Path, target_mb: int) -> int:
    """Write an all_cards-shaped .jsonl.gz of about target_mb MB by repeating the real page's
    objects; returns the objects written. Reused when already there at about that size."""
    if path.is_file() and path.stat().st_size >= target_mb * 0.95e6:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return sum(1 for _ in handle)
    objects = json.loads(PAGE.read_text(encoding="utf-8"))["data"]
    random.seed(23)
    written = 0
    partial = path.with_suffix(".part")
    with partial.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as out:
        while raw.tell() < target_mb * 1e6:
            batch = []
            for item in random.sample(objects, len(objects)):
                copy = dict(item, id=str(uuid.UUID(int=random.getrandbits(128))))
                if copy.get("printed_name"):
                    copy["printed_name"] = f"{copy['printed_name']} {random.randrange(SUFFIXES)}"
                batch.append(json.dumps(copy, ensure_ascii=False))
            out.write(("\n".join(batch) + "\n").encode("utf-8"))
            written += len(batch)
    partial.replace(path)
    return written


def refresh_rows(db: Path) -> list[Row]:
    from tests.support.scryfall_server import ScryfallServer

    objects = generate_all_cards(ALL_CARDS, TARGET_MB)
    before = db.stat().st_size
    with ScryfallServer(all_cards_file=ALL_CARDS) as server:
        child = subprocess.Popen([sys.executable, "-c", REFRESH_CHILD, str(db), server.base_url], cwd=ROOT,
                                 stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
        output = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("the names refresh child failed")
    report = json.loads(output)
    if report["status"] != "updated":
        raise RuntimeError(f"the names refresh did not update: {report['error']}")
    return [
        Row(NAME, f"all_cards refresh, {ALL_CARDS.stat().st_size / 1e6:.0f} MB .jsonl.gz, {objects:,} objects (wall)",
            f"{report['seconds']:.1f} s"),
        Row(NAME, "all_cards refresh CPU time (child process)", f"{usage.ru_utime + usage.ru_stime:.1f} s"),
        Row(NAME, "all_cards refresh peak RSS (child process VmHWM)", f"{report['vm_hwm_kb'] / 1024:.0f} MB",
            "<= 200 MB"),
        Row(NAME, f"names table: {report['names']:,} printed names, store growth on disk",
            f"{(db.stat().st_size - before) / 1e6:.1f} MB"),
    ]


def table_size_rows(db: Path, folder: Path) -> list[Row]:
    """The real files' table: rows and bytes of the distilled file."""
    from card_data.store import names_table
    from card_data.names.sources import name_objects
    from card_data.store.names_table import NamesFile
    from card_data.names.printed import rows_of
    from card_data.streams import file_chunks

    names = NamesFile(folder / "real.names")
    for path in (TSP, PAGE):
        for item in name_objects(file_chunks(path)):
            names.add(rows_of(item))
    status = names.finish("bench", "2026-11-02T00:00:00+00:00")
    size = (folder / "real.names").stat().st_size
    assert names_table.read_status(db).names == status.names
    return [Row(NAME, f"names table of the real files: {status.names:,} printed names, file size",
                f"{size / 1e3:.0f} kB ({size / status.names:.0f} bytes a name)")]


def run() -> list[Row]:
    if not TSP.is_file() or not PAGE.is_file():
        return [Row(NAME, "skipped", "../shared/carddata/foreign-names is absent")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db, tsp = real_store(folder)
        rows = validation_rows(db, tsp, folder)
        rows += table_size_rows(db, folder)
        rows += refresh_rows(db)
    return rows
