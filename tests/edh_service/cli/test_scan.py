"""edh-validate's folder and glob scans: every extension the parser reads (site exports as
JSON, CSV and Markdown too), a folder with nothing to check a warning beside the others,
documents with no card (a README, package.json) skipped with a warning, Scryfall card data
refused (never checked as a deck), the run's own --bulk-file left out, every bound kept.

Hand-made checkouts over the fixture store (tests/fixtures/cards.jsonl), and the real site
exports of ../shared/decks/mtg-parser-fixtures over the real cards (skipped without them).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from edh_service.cli import paths
from tests.support.cli_runs import ROOT, SAMPLES, run_cli

FIXTURE_CARDS = ROOT / "tests" / "fixtures" / "cards.jsonl"
STATUS = re.compile(r"^(.*?): (valid|invalid|not checked)\b")
SKIPPED = "skipped: no card in it, not a decklist (name the file to check it anyway)"


def listed(sample: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(quantity, name) of a sample's commander and its deck, read from its Arena-style text."""
    commander, deck, part = [], [], None
    for line in (SAMPLES / sample).read_text().splitlines():
        if line in ("Commander", "Deck"):
            part = commander if line == "Commander" else deck
        elif line and not line.startswith("//") and part is not None:
            quantity, name = line.split(" ", 1)
            part.append((int(quantity), name))
    return commander, deck


@pytest.fixture
def checkout(tmp_path, monkeypatch) -> Path:
    """decks/valid.txt, and exports/ holding the same legal deck as a Moxfield JSON, a
    Scryfall-style CSV and a Markdown list, beside a README and a package.json (no cards)."""
    commander, deck = listed("valid.txt")
    (tmp_path / "decks").mkdir()
    shutil.copy(SAMPLES / "valid.txt", tmp_path / "decks" / "valid.txt")
    exports = tmp_path / "exports"
    exports.mkdir()
    board = lambda cards: {name: {"quantity": q, "card": {"name": name}} for q, name in cards}  # noqa: E731
    (exports / "moxfield.json").write_text(json.dumps({"commanders": board(commander), "mainboard": board(deck)}))
    rows = [f'{q},"{name}",commander' for q, name in commander] + [f'{q},"{name}",main' for q, name in deck]
    (exports / "scryfall.csv").write_text("count,name,section\n" + "\n".join(rows) + "\n")
    markdown = ["# Atraxa", "", "## Commander", *(f"- {q} {n}" for q, n in commander), "", "## Deck",
                *(f"- {q} {n}" for q, n in deck)]
    (exports / "primer.md").write_text("\n".join(markdown) + "\n")
    (exports / "README.md").write_text("# My decks\n\nExported from the sites; see the notes.\n")
    (exports / "package.json").write_text('{"name": "decks", "private": true}\n')
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(db, root, *args):
    """edh-validate offline over the store `db`, in the checkout."""
    return run_cli("--offline", "--card-db", db, *args, cwd=root)


def statuses(result) -> dict[str, str]:
    """Each file's status in text output: name -> valid, invalid or not checked."""
    return {m.group(1): m.group(2) for line in result.stdout.splitlines() if (m := STATUS.match(line))}


def test_a_folder_of_site_exports_is_checked_beside_the_others(fixture_db, checkout):
    # A folder holding only .json, .csv and .md exports stopped the whole run (exit 2),
    # checking nothing; an empty folder beside the others did too.
    result = check(fixture_db, checkout, "exports", "decks", "empty")
    assert result.returncode == 0, result.stdout + result.stderr
    assert statuses(result) == {"exports/moxfield.json": "valid", "exports/primer.md": "valid",
                                "exports/scryfall.csv": "valid", "decks/valid.txt": "valid"}
    extensions = " ".join(sorted(paths.DECK_EXTENSIONS))
    assert result.stderr.splitlines() == [
        f"edh-validate: warning: no decklist files ({extensions}) under empty",
        f"edh-validate: warning: exports/README.md: {SKIPPED}",
        f"edh-validate: warning: exports/package.json: {SKIPPED}",
    ]
    assert result.stdout.splitlines()[-1].startswith("4 files checked: 4 valid, 0 invalid")


def test_the_exit_code_follows_the_other_paths(fixture_db, checkout):
    shutil.copy(SAMPLES / "illegal.txt", checkout / "decks" / "illegal.txt")
    result = check(fixture_db, checkout, "empty", "decks")
    assert result.returncode == 1
    assert statuses(result) == {"decks/illegal.txt": "invalid", "decks/valid.txt": "valid"}
    assert "decks/illegal.txt:23: error banned: Mana Crypt is banned in Commander." in result.stdout


def test_a_document_named_explicitly_is_checked_whatever_it_holds(fixture_db, checkout):
    result = check(fixture_db, checkout, "exports/README.md")
    assert result.returncode == 1 and statuses(result) == {"exports/README.md": "invalid"}
    assert "exports/README.md: error commander_missing" in result.stdout


@pytest.mark.parametrize(("arguments", "message"), [
    (["empty"], "no decklist files ({}) under empty"),
    (["empty", "exports/*.xml"], "no decklist files ({}) under empty; no files match 'exports/*.xml'"),
    (["exports/*.json", "exports/READ*"],
     "no decklist to check: every file found holds no card"),
])
def test_nothing_to_check_anywhere_is_a_usage_error(fixture_db, checkout, arguments, message):
    (checkout / "exports" / "moxfield.json").unlink()
    result = check(fixture_db, checkout, *arguments)
    assert result.returncode == 2 and result.stdout == ""
    extensions = " ".join(sorted(paths.DECK_EXTENSIONS))
    assert result.stderr.splitlines()[-1] == "edh-validate: error: " + message.format(extensions)


# --- Scryfall card data is no decklist --------------------------------------------------------------

def bulk_json(path: Path) -> Path:
    """The fixture cards as a Scryfall bulk .json (a JSON array of card objects)."""
    cards = [json.loads(line) for line in FIXTURE_CARDS.read_text().splitlines() if line.strip()]
    path.write_text(json.dumps(cards, indent=1))
    return path


@pytest.mark.parametrize("argument", ["exports", "exports/cards.json"])
def test_scryfall_card_data_is_refused_never_checked_as_a_deck(fixture_db, checkout, argument):
    bulk_json(checkout / "exports" / "cards.json")
    result = check(fixture_db, checkout, argument)
    assert result.returncode == 2
    assert statuses(result)["exports/cards.json"] == "not checked"
    assert "edh-validate: error: exports/cards.json: cannot check: Scryfall card data, not a decklist (import it " \
           "with --bulk-file)" in result.stderr.splitlines()
    assert "unparsed_line" not in result.stdout and "commander_missing" not in result.stdout


def test_the_runs_own_bulk_file_is_card_data_not_a_deck(checkout, tmp_path):
    bulk_json(checkout / "exports" / "cards.json")
    db = tmp_path / "built.sqlite3"
    result = run_cli("--offline", "--card-db", db, "--bulk-file", "exports/cards.json", "exports", "decks",
                     cwd=checkout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "exports/cards.json" not in result.stdout + result.stderr
    assert statuses(result) == {"exports/moxfield.json": "valid", "exports/primer.md": "valid",
                                "exports/scryfall.csv": "valid", "decks/valid.txt": "valid"}
    assert db.is_file()  # imported from the same file


def test_a_huge_export_found_by_a_scan_is_refused_before_it_is_read(fixture_db, checkout):
    # A real Scryfall bulk .json is hundreds of MB: refused by its size, never read.
    with open(checkout / "exports" / "default-cards.json", "wb") as handle:
        handle.truncate(1024 ** 3)  # 1 GiB, sparse
    result = check(fixture_db, checkout, "exports")
    assert result.returncode == 2
    assert "edh-validate: error: exports/default-cards.json: cannot read: over 4 MiB (1,073,741,824 bytes): no " \
           "decklist is that large" in result.stderr.splitlines()
    assert statuses(result)["exports/moxfield.json"] == "valid"


# --- the real site exports ----------------------------------------------------------------------------

def test_the_real_site_exports_folder_is_checked(shared_dir, real_db):
    # mtg-parser-fixtures holds only .json and .csv exports: "no decklist files" before
    folder = shared_dir / "decks" / "mtg-parser-fixtures"
    exports = sorted(p for p in folder.iterdir() if p.suffix in (".json", ".csv"))
    result = run_cli("--offline", "--card-db", real_db, "--format", "json", folder, cwd=folder.parent)
    bodies = {Path(body["file"]).name: body for body in json.loads(result.stdout)}
    assert sorted(bodies) == sorted(p.name for p in exports) and len(exports) == 8
    named = run_cli("--offline", "--card-db", real_db, "--format", "json", *exports, cwd=folder.parent)
    assert [body["violations"] for body in json.loads(named.stdout)] == [
        bodies[p.name]["violations"] for p in exports]  # as when named one by one
    partners = ["Kraum, Ludevic's Opus", "Vial Smasher the Fierce"]
    assert [name for name, body in bodies.items() if body["commanders"] == partners]
    assert (result.returncode, result.stderr) == (named.returncode, named.stderr)
