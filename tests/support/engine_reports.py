"""Every real deck's answer, as the bytes of the API's body, from whichever engine this
process imports: tests/test_engines.py runs it once on the compiled build and once on the
plain source, and compares.

    python -m tests.support.engine_reports STORE OUT    # writes {"engine", "validator", "reports"} to OUT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.support.golden_reports import SHARED, deck_paths


def reports(db: Path) -> dict[str, str]:
    """Manifest path -> the body of `POST /api/v1/validate` for that deck (any status), as
    sent, and the same deck's JSON from edh-validate's renderer."""
    from tests.support.apps import offline_app

    client = offline_app(db).test_client()
    answers = {}
    for path in deck_paths(SHARED):
        text = (SHARED / "decks" / path).read_bytes().decode("utf-8-sig")
        for options in ({}, {"include": ["formats", "overview"], "bracket": 2}):
            response = client.post("/api/v1/validate", json={"decklist": text, **options})
            answers[f"{path} {sorted(options)}"] = f"{response.status_code} {response.get_data(as_text=True)}"
    return answers


def main(db: str, out: str) -> int:
    """Write this process's engine, where its validator came from, and every answer."""
    import validator
    from validator import ENGINE

    found = {"engine": ENGINE, "validator": str(Path(validator.__file__).parent), "reports": reports(Path(db))}
    Path(out).write_text(json.dumps(found, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
