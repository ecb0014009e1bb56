"""edh-validate on the real decklists in ../shared/decks over a store of ~30k real cards.

Skipped when ../shared is absent (a fresh clone). The store (conftest.py's real_db) is
imported once per session.
"""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support.cli_runs import annotations, run_cli


@pytest.fixture(scope="session")
def manifest(shared_dir) -> dict[str, dict]:
    """MANIFEST.tsv rows by file path (relative to ../shared/decks)."""
    with open(shared_dir / "decks" / "MANIFEST.tsv", newline="", encoding="utf-8") as handle:
        return {row["file"]: row for row in csv.DictReader(handle, delimiter="\t")}


def validate_json(db: Path, *paths: Path):
    """Run the CLI once over every path (offline); (exit code, bodies by file path)."""
    result = run_cli("--offline", "--card-db", db, "--format", "json", *paths)
    assert result.stderr == ""
    return result.returncode, {Path(body["file"]): body for body in json.loads(result.stdout)}


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the first line of the file containing text."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def violations(body: dict) -> list[tuple[str, list[str]]]:
    """(code, cards) of every violation in a JSON body."""
    return [(v["code"], v["cards"]) for v in body["violations"]]


def test_taw_precons_are_legal_except_political_puppets(shared_dir, real_db, manifest):
    decks = shared_dir / "decks"
    files = sorted((decks / "taw-precons").rglob("*.txt"))
    assert len(files) == 30
    code, bodies = validate_json(real_db, *files)
    assert code == 1
    for path in files:
        body = bodies[path]
        row = manifest[str(path.relative_to(decks))]
        expected_commanders = row["commanders"].split(" + ")
        assert body["commanders"] == expected_commanders, path.name
        drop_display_commanders(body, row)
        if path.name == "Political Puppets.txt":
            # Trade Secrets was banned after 2011: that, and nothing else.
            assert body["violations"] == [{
                "code": "banned", "severity": "error", "message": body["violations"][0]["message"],
                "cards": ["Trade Secrets"], "lines": [line_of(path, "Trade Secrets")], "rule": None,
            }]
        elif path.parent.name == "moc":
            assert_only_the_planar_deck_is_unresolved(path, body)
        else:
            assert violations(body) == [], path.name
            assert body["valid"] is True and body["card_count"] == 100


def drop_display_commanders(body: dict, row: dict) -> None:
    """The Display Commander cards other than the deck's own commander are named in a
    not_in_deck warning (nothing is dropped silently; a display copy of the commander is
    that commander): check it names exactly those of MANIFEST.tsv's, then set it aside."""
    shown = {n.strip() for n in row["notes"].split("display-commander:")[1].split("; contains")[0].split(";")}
    others = sorted(shown - set(body["commanders"]))
    found = [v for v in body["violations"] if v["code"] == "not_in_deck"]
    assert [(v["severity"], v["cards"]) for v in found] == ([("warning", others)] if others else [])
    for warning in found:
        body["violations"].remove(warning)


def assert_only_the_planar_deck_is_unresolved(path: Path, body: dict) -> None:
    """The March of the Machine precons' 100 are legal; only their planes may be unknown.

    ../shared/carddata holds 20 of Scryfall's planes (its README, "Known gaps"), so most
    cards of these planar decks resolve to nothing, and the planar deck then looks short.
    """
    planar_header = line_of(path, "Planar Deck")
    assert body["card_count"] == 100, path.name
    assert {v["code"] for v in body["violations"]} <= {"unknown_card", "planar_deck"}, path.name
    for violation in body["violations"]:
        assert all(line > planar_header for line in violation["lines"]), (path.name, violation)


def test_forge_and_xmage_decks_are_read_and_legal(shared_dir, real_db, manifest):
    decks = shared_dir / "decks"
    files = sorted((decks / "forge-precons").glob("*.dck")) + sorted((decks / "xmage-sample-decks").glob("*.dck"))
    code, bodies = validate_json(real_db, *files)
    assert code == 0
    for path in files:
        body = bodies[path]
        assert body["decklist_format"] == ("forge" if path.parent.name == "forge-precons" else "xmage")
        assert sorted(body["commanders"]) == sorted(manifest[str(path.relative_to(decks))]["commanders"].split(" + "))
        assert violations(body) == [] and body["card_count"] == 100, path.name


def test_github_and_junit_point_at_the_banned_card(shared_dir, real_db):
    puppets = shared_dir / "decks" / "taw-precons" / "cmd" / "cmd" / "Political Puppets.txt"
    clean = shared_dir / "decks" / "taw-precons" / "cmd" / "cmd" / "Heavenly Inferno.txt"
    github = run_cli("--offline", "--card-db", real_db, "--format", "github", puppets, clean)
    assert github.returncode == 1
    found = annotations(github.stdout)
    # besides the error, each file's Display Commander cards other than its commander are a
    # not_in_deck warning (Heavenly Inferno shows Kaalia, its commander, beside Oros and Tariel)
    warnings = sorted((props["file"], props["title"], message) for level, props, message in found if level != "error")
    assert [(file, title) for file, title, _ in warnings] == [(str(clean), "not_in_deck"), (str(puppets), "not_in_deck")]
    assert "Oros, the Avenger and Tariel, Reckoner of Souls" in warnings[0][2] and "Kaalia" not in warnings[0][2]
    [(level, props, message)] = [a for a in found if a[0] == "error"]
    assert (level, props) == ("error", {"file": str(puppets), "line": str(line_of(puppets, "Trade Secrets")),
                                        "title": "banned"})
    assert "Trade Secrets" in message
    junit = run_cli("--offline", "--card-db", real_db, "--format", "junit", puppets, clean)
    cases = {c.get("name"): c for c in ET.fromstring(junit.stdout).iter("testcase")}
    assert "error banned: Trade Secrets" in cases[str(puppets)].find("failure").text
    # no failure for the clean deck; its not_in_deck warning is system-out, as warnings are
    assert [child.tag for child in cases[str(clean)]] == ["properties", "system-out"]
    assert "not_in_deck" in cases[str(clean)].find("system-out").text


def test_a_legal_precon_with_its_own_display_commander_passes_strict(shared_dir, real_db):
    # a COMMANDER: line and a Display Commander section of the same card failed --strict
    precons = shared_dir / "decks" / "taw-precons" / "cmd"
    legal = [precons / "c14" / "Peer Through Time.txt", precons / "c16" / "Breed Lethality.txt"]
    result = run_cli("--offline", "--card-db", real_db, "--strict", "--format", "json", *legal)
    assert result.returncode == 0, result.stdout
    bodies = json.loads(result.stdout)
    assert [(b["commanders"], b["valid"], b["violations"]) for b in bodies] == [
        (["Teferi, Temporal Archmage"], True, []), (["Atraxa, Praetors' Voice"], True, [])]
    lines = legal[0].read_text().splitlines()  # the file's shape: the same card shown
    assert (lines[3], lines[line_of(legal[0], "Display Commander")]) == (
        "COMMANDER: 1 Teferi, Temporal Archmage", "1 Teferi, Temporal Archmage [oc14] [foil]")
    # a 2013 precon shows its commander Marath beside Gahiji and Mayael: those two are named
    beast = precons / "c13" / "Nature of the Beast.txt"
    strict = run_cli("--offline", "--card-db", real_db, "--strict", "--format", "json", beast)
    [body] = json.loads(strict.stdout)
    assert strict.returncode == 1 and body["commanders"] == ["Marath, Will of the Wild"]
    display = line_of(beast, "Display Commander")  # Gahiji, Marath, Mayael on the three lines after it
    assert [(v["code"], v["cards"], v["lines"]) for v in body["violations"]] == [
        ("not_in_deck", ["Gahiji, Honored One", "Mayael the Anima"], [display + 1, display + 3])]
