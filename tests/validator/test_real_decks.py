"""Real precons from ../shared/decks through parse() and check() (skipped without ../shared).

Every precon was legal when printed; Political Puppets (2011) holds Trade Secrets, banned
since, and must come back `banned` and nothing else (../shared/decks/README.md). Names are
resolved with a tiny local index over the card sample (card_data does this for real).
"""

from __future__ import annotations

import gzip
import json
import re
import unicodedata

import pytest

from tests.support.factories import to_card
from validator.engine import check
from validator.parse import parse

# taw precons without a planar deck (the sample lacks most planes), Forge and XMage decks
FOLDERS = ("taw-precons/cmd/", "forge-precons/", "xmage-sample-decks/")
EXPECTED = {"taw-precons/cmd/cmd/Political Puppets.txt": [("banned", ("Trade Secrets",))]}


def normalize(name: str) -> str:
    """Fold accents, quotes, slashes and case, as card_data's name index does."""
    name = unicodedata.normalize("NFKD", name)
    name = "".join(ch for ch in name if not unicodedata.combining(ch)).replace("’", "'")
    name = re.sub(r"\s*/+\s*", " // ", name)
    return " ".join(name.split()).casefold()


@pytest.fixture(scope="module")
def decks(shared_dir):
    """(manifest path, Decklist) of every deck in FOLDERS."""
    root = shared_dir / "decks"
    rows = [line.split("\t")[0] for line in (root / "MANIFEST.tsv").read_text().splitlines()[1:]]
    chosen = [row for row in rows if row.startswith(FOLDERS)]
    return [(row, parse((root / row).read_text(encoding="utf-8"))) for row in chosen]


@pytest.fixture(scope="module")
def index(shared_dir, decks):
    """Normalized name (full or face) -> Card, for the names the decks use."""
    wanted = {normalize(e.name) for _, decklist in decks for e in decklist.entries}
    found = {}
    with gzip.open(shared_dir / "carddata" / "oracle-cards.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            obj = json.loads(line)
            keys = {normalize(obj["name"]), *(normalize(part) for part in obj["name"].split(" // "))}
            if keys & wanted:
                card = to_card(obj)
                for key in keys & wanted:
                    found.setdefault(key, card)
    return found


def test_the_real_decks_are_there(decks):
    assert len(decks) >= 30


def test_real_precons_are_legal_but_for_what_the_ban_list_changed(decks, index):
    for path, decklist in decks:
        cards = {e.name: index[normalize(e.name)] for e in decklist.entries if normalize(e.name) in index}
        report = check(decklist, cards)
        errors = [(v.code, v.cards) for v in report.violations if v.severity == "error"]
        assert errors == EXPECTED.get(path, []), path
        assert report.card_count == 100, path
        assert report.commanders, path
