"""Every real decklist in ../shared/decks parses cleanly, with the commanders its
MANIFEST.tsv names (skipped when ../shared is absent)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.conftest import SHARED
from validator.decklist import Section
from validator.parse import parse
from validator.violations import Code

DECKS = SHARED / "decks"
# Companions the files mark (MANIFEST.tsv names them in prose; the exports that have no
# companion field, TappedOut and Scryfall CSV, list it as a plain sideboard card).
COMPANIONS = {
    "mtg-parser-fixtures/moxfield_api_WBXKb_3-amigos.json": ["Obosh, the Preypiercer"],
    "mtg-parser-fixtures/archidekt_api_1365846_3-amigos.json": ["Obosh, the Preypiercer"],
    "mtg-parser-fixtures/aetherhub_export_3-amigos.json": ["Obosh, the Preypiercer"],
    "mtg-parser-fixtures/tcgplayer_api_465171_cat-base.json": ["Kaheera, the Orphanguard"],
}


def manifest() -> list[dict]:
    """MANIFEST.tsv rows, or none when ../shared is absent (the tests then skip)."""
    path = DECKS / "MANIFEST.tsv"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def expected_commanders(row: dict) -> list[str]:
    """'A + B (companion C)' -> ['A', 'B']."""
    return sorted(name.strip() for name in row["commanders"].split("(")[0].split(" + "))


ROWS = manifest()


@pytest.fixture
def decks(shared_dir: Path) -> Path:
    """../shared/decks; skips when ../shared is absent."""
    return shared_dir / "decks"


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_real_deck_parses_with_its_commanders_and_nothing_unparsed(decks, row):
    decklist = parse((decks / row["file"]).read_bytes().decode("utf-8"))
    assert [p.code for p in decklist.problems] == []
    commanders = sorted(e.name for e in decklist.entries if e.section is Section.COMMANDER)
    assert commanders == expected_commanders(row)
    companions = [e.name for e in decklist.entries if e.section is Section.COMPANION]
    assert companions == COMPANIONS.get(row["file"], [])
    # every one of these is a 100-card deck once its commanders are counted
    assert sum(e.quantity for e in decklist.entries if e.section in (Section.MAIN, Section.COMMANDER)) == 100


@pytest.mark.parametrize("row", [r for r in ROWS if "display-commander" in r["notes"]], ids=lambda r: r["file"])
def test_taw_display_commanders_are_ignored_not_part_of_the_deck(decks, row):
    decklist = parse((decks / row["file"]).read_bytes().decode("utf-8"))
    shown = sorted(e.name for e in decklist.entries if e.section is Section.DISPLAY)
    named = row["notes"].split("display-commander:")[1].split("; contains")[0]
    assert shown == sorted(n.strip() for n in named.split(";"))


def test_taw_planar_decks_are_ten_planes(decks):
    decklist = parse((decks / "taw-precons/cmd-pc/moc/Call for Backup.txt").read_text(encoding="utf-8"))
    assert sum(e.quantity for e in decklist.entries if e.section is Section.PLANAR) == 10


def test_xmage_crlf_lines_are_numbered_like_the_file(decks):
    raw = (decks / "xmage-sample-decks/Tasigur BGU.dck").read_bytes().decode("utf-8")
    decklist = parse(raw)
    (commander,) = [e for e in decklist.entries if e.section is Section.COMMANDER]
    assert raw.split("\r\n")[commander.line - 1].startswith("SB: 1 [FRF:87] Tasigur")
    assert Code.COMMANDER_INFERRED not in [p.code for p in decklist.problems]
