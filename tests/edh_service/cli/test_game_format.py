"""edh-validate --game-format (issue 21): the format a deck is judged in, in every output
(text, JSON, GitHub, JUnit), the list's own format without the option, --signature-spell,
and the usage errors; exit codes as before (0 valid, 1 invalid, 2 not checked/usage)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from tests.support.cli_runs import annotations, run_cli, run_process
from tests.support.format_store import TEFERI, format_deck


@pytest.fixture
def db(formats_db):
    """The formats' store (every legality key, the PDH list)."""
    return formats_db


@pytest.fixture
def decks(tmp_path):
    """Three lists: Oathbreaker with its signature spell, a Brawl list, one naming Duel."""
    files = {
        "oath.txt": format_deck([TEFERI], size=59) + "\nSignature Spell\n1 Brainstorm\n",
        "brawl.txt": format_deck([TEFERI], "Brainstorm"),
        "named.txt": "// Format: Duel Commander\n" + format_deck(["Derevi, Empyrial Tactician"], basic="Forest"),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def cli(db, *args):
    """edh-validate in-process, offline, over the formats' store."""
    return run_cli("--offline", "--card-db", db, *args)


def test_text_names_the_format_and_the_signature_spell(db, decks):
    result = cli(db, "--game-format", "oathbreaker", decks / "oath.txt")
    lines = result.stdout.splitlines()
    assert result.returncode == 0
    assert lines[0] == f"{decks / 'oath.txt'}: valid in Oathbreaker (oathbreaker) (0 errors, 0 warnings)"
    assert lines[1] == "  signature spell: Brainstorm"


def test_the_same_list_in_another_format(db, decks):
    result = cli(db, "--game-format", "EDH", decks / "brawl.txt")  # an alias, any case
    assert result.returncode == 1 and "error commander_ineligible" in result.stdout
    assert cli(db, "--game-format", "historicbrawl", decks / "brawl.txt").returncode == 0


def test_json_carries_the_canonical_key(db, decks):
    result = cli(db, "--format", "json", "--game-format", "dc", decks / "brawl.txt", decks / "named.txt")
    bodies = json.loads(result.stdout)
    assert [body["format"] for body in bodies] == ["duel", "duel"]
    assert bodies[0]["bracket"] is None and bodies[0]["signature_spells"] == []
    assert [v["code"] for v in bodies[1]["violations"]] == ["banned_as_commander"]  # no format_inferred: asked


def test_without_the_option_a_list_names_its_own_format(db, decks):
    result = cli(db, "--format", "json", decks / "named.txt", decks / "brawl.txt")
    named, brawl = json.loads(result.stdout)
    assert named["format"] == "duel" and "format_inferred" in [v["code"] for v in named["violations"]]
    assert brawl["format"] == "commander"  # names none: Commander, as before
    assert result.returncode == 1


def test_github_notes_the_format(db, decks):
    found = annotations(cli(db, "--format", "github", "--game-format", "brawl", decks / "brawl.txt").stdout)
    assert found == [("notice", {"file": str(decks / "brawl.txt"), "title": "edh-validate"},
                      "judged in Brawl (brawl)")]


def test_junit_carries_the_format(db, decks):
    result = cli(db, "--format", "junit", "--game-format", "oathbreaker", decks / "oath.txt", decks / "brawl.txt")
    cases = ET.fromstring(result.stdout).iter("testcase")
    properties = [[(p.get("name"), p.get("value")) for p in case.find("properties")] for case in cases]
    assert properties[0] == [("format", "oathbreaker"), ("signature_spell", "Brainstorm")]
    assert properties[1] == [("format", "oathbreaker")]  # and a failure: no signature spell
    assert result.returncode == 1


def test_signature_spell_option(db, decks):
    result = cli(db, "--format", "json", "--game-format", "oathbreaker", "--signature-spell", "brainstorm",
                 decks / "brawl.txt")
    body = json.loads(result.stdout)[0]
    assert (result.returncode, body["signature_spells"], body["card_count"]) == (1, ["Brainstorm"], 100)
    assert [v["code"] for v in body["violations"]] == ["deck_size"]


@pytest.mark.parametrize(("args", "message"), [
    (("--game-format", "modern"), "unknown game format 'modern' (choose from commander, duel, brawl"),
    (("--game-format", "brawl", "--bracket", "2"), "--bracket applies only in commander, not in brawl"),
    (("--game-format", "duel", "--signature-spell", "Brainstorm"), "--signature-spell applies only in oathbreaker"),
])
def test_usage_errors_exit_2(db, decks, args, message):
    result = cli(db, *args, decks / "brawl.txt")
    assert result.returncode == 2 and message in result.stderr and result.stdout == ""


def test_a_file_naming_a_format_without_brackets_is_not_checked_with_bracket(db, decks):
    result = cli(db, "--bracket", "2", decks / "named.txt", decks / "brawl.txt")
    assert result.returncode == 2  # not checked: never "invalid"
    assert f"{decks / 'named.txt'}: not checked: cannot check: bracket applies only in Commander" in result.stdout


def test_the_installed_program_takes_the_option(db, decks):
    result = run_process("--offline", "--card-db", db, "--game-format", "pdh", "--format", "json", decks / "brawl.txt")
    body = json.loads(result.stdout)[0]
    assert body["format"] == "paupercommander" and result.returncode == 1
