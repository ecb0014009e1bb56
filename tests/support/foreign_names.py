"""A store of the real cards of ../shared/carddata/foreign-names/ (MTGJSON's Time Spiral set
file and one page of Scryfall's /cards list) with both files' printed names loaded: for
tests/card_data/test_names_real_data.py and bench/bench_names.py. The caller skips when
../shared is absent."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

TSP = "mtgjson-set-TSP-2025-08-18.json"
PAGE = "scryfall-cards-page3-gk2-2019.json"


def real_names_store(shared: Path, folder: Path) -> tuple[Path, dict, dict]:
    """(store path, the TSP set file, the Scryfall page) with the files' cards taken from the
    real oracle file (joined by name) and their names imported."""
    from card_data.names import sync as names_sync
    from card_data.sync import import_file

    names = shared / "carddata" / "foreign-names"
    tsp = json.loads((names / TSP).read_text(encoding="utf-8"))
    page = json.loads((names / PAGE).read_text(encoding="utf-8"))
    wanted = {card["name"] for card in tsp["data"]["cards"]} | {card["name"] for card in page["data"]}
    subset = folder / "cards.jsonl"
    with gzip.open(shared / "carddata" / "oracle-cards.jsonl.gz", "rt", encoding="utf-8") as oracle, \
            subset.open("w", encoding="utf-8") as out:
        out.writelines(line for line in oracle if json.loads(line)["name"] in wanted)
    db = folder / "cards.sqlite3"
    import_file(db, subset, updated_at="2026-11-01T00:00:00+00:00")
    names_sync.import_names(db, names / TSP, names / PAGE, updated_at="2026-11-02T00:00:00+00:00")
    return db, tsp, page
