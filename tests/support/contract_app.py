"""The app the OpenAPI contract is tested against (tests/edh_service/api/test_openapi.py,
and `python -m tests.support.contract_app PORT` for schemathesis' own CLI): the fixture
store, every feature on. Deck links are read from a local site server that holds a real
fixture deck under every id, a house rules profile is configured, and the fixture's card
names are there for a test to give schemathesis as data (it cannot know which strings are
cards: its generator reads only the document)."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Iterator

from card_data.coordination import files
from card_data.sync import import_file
from tests.support.apps import offline_app
from tests.support.site_server import SiteServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SITES = FIXTURES / "sites"
PROFILE = "thursday"


class EveryDeck(dict):
    """One deck document under every id a link can name."""

    def __init__(self, document: dict) -> None:
        super().__init__()
        self.document = document

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: str) -> dict:
        return self.document


def card_names() -> list[str]:
    """The fixture store's card names, sorted."""
    lines = (FIXTURES / "cards.jsonl").read_text(encoding="utf-8").splitlines()
    return sorted(json.loads(line)["name"] for line in lines if line.strip())


@contextlib.contextmanager
def contract_app(db: Path, folder: Path) -> Iterator:
    """The app over the store at `db`, its profile in `folder`, its sites served locally."""
    profiles = folder / "house-rules"
    profiles.mkdir(exist_ok=True)
    (profiles / f"{PROFILE}.toml").write_text('name = "Thursday at the store"\nbanned = ["Sol Ring"]\n'
                                              "max_bracket = 3\n", encoding="utf-8")
    archidekt = json.loads((SITES / "archidekt-4242.json").read_text(encoding="utf-8"))
    moxfield = json.loads((SITES / "moxfield-Hand-Made_1.json").read_text(encoding="utf-8"))
    interval = files.SITE_INTERVAL
    files.SITE_INTERVAL = 0.0  # the local server needs no 2-a-second etiquette; thousands of decks are asked
    try:
        with SiteServer(archidekt=EveryDeck(archidekt), moxfield=EveryDeck(moxfield)) as site:
            yield offline_app(db, HOUSE_RULES_DIR=str(profiles), **site.config())
    finally:
        files.SITE_INTERVAL = interval


def main(port: int, folder: Path) -> None:
    """Serve the contract app on 127.0.0.1:port (for `schemathesis run`)."""
    from werkzeug.serving import run_simple

    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "cards.sqlite3"
    if not db.exists():
        import_file(db, FIXTURES / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
    with contract_app(db, folder) as app:
        run_simple("127.0.0.1", port, app, threaded=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), Path(sys.argv[2]))
