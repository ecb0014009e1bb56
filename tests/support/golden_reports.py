"""Golden reports: the API's full JSON report for every real deck in ../shared/decks.

A speed change must not change a single report. tests/fixtures/golden_reports.json holds
what `POST /api/v1/validate` answered for each deck in ../shared/decks/MANIFEST.tsv, over
a store imported from ../shared/carddata with ../shared/brackets loaded; the test
(tests/edh_service/test_golden_reports.py) asks again and compares. The store's own
metadata (`card_data`: when it was built) is left out: it names the build, not the deck.

Regenerate (only when a report is meant to change, and say so in the commit):

    .venv/bin/python -m tests.support.golden_reports
"""

from __future__ import annotations

import csv
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
GOLDEN = ROOT / "tests" / "fixtures" / "golden_reports.json"
UPDATED_AT = "2026-11-01T00:00:00+00:00"  # fixed, so the build date cannot leak in


def build_store(shared: Path, db: Path) -> Path:
    """The real store at db: ../shared/carddata imported, ../shared/brackets loaded."""
    from card_data import BracketSources
    from card_data.lists import refresh as bracket_lists
    from card_data.store import list_tables as bracket_tables
    from card_data.sync import import_file

    lists = shared / "brackets"
    sources = BracketSources(mass_land_denial_file=str(lists / "mass-land-denial.txt"),
                                      combos_file=str(lists / "two-card-combos.txt"))
    import_file(db, shared / "carddata" / "oracle-cards.jsonl.gz", updated_at=UPDATED_AT, brackets=sources)
    return db


def deck_paths(shared: Path) -> list[str]:
    """Every deck file named in ../shared/decks/MANIFEST.tsv, in manifest order."""
    with open(shared / "decks" / "MANIFEST.tsv", encoding="utf-8", newline="") as handle:
        return [row["file"] for row in csv.DictReader(handle, delimiter="\t")]


def reports(shared: Path, db: Path) -> dict[str, dict]:
    """Manifest path -> status and, for a 200, the JSON body without `card_data`."""
    from tests.support.apps import offline_app

    client = offline_app(db).test_client()
    answers = {}
    for path in deck_paths(shared):
        text = (shared / "decks" / path).read_bytes().decode("utf-8-sig")
        response = client.post("/api/v1/validate", json={"decklist": text})
        answer = {"status": response.status_code}
        if response.status_code == 200:  # an error's wording is not what this file guards
            answer["body"] = {k: v for k, v in response.get_json().items() if k != "card_data"}
        answers[path] = answer
    return answers


def main() -> int:
    """Write tests/fixtures/golden_reports.json from ../shared."""
    if not (SHARED / "carddata" / "oracle-cards.jsonl.gz").is_file():
        print("../shared/carddata is absent: nothing to generate from", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        answers = reports(SHARED, build_store(SHARED, Path(scratch) / "cards.sqlite3"))
    GOLDEN.write_text(json.dumps(answers, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(answers)} reports to {GOLDEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
