"""edh-validate --house-rules (DESIGN.md "House rules"): a profile file or a profile's name in
--house-rules-dir (or HOUSE_RULES_DIR), every rule case in the text and JSON outputs, the
GitHub and JUnit outputs saying the rules, and exit code 2 for rules it cannot use. Over
tests/support/house_store.py's store."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from tests.support.cli_runs import annotations, run_cli, run_process
from tests.support.house_store import ATRAXA, PARTNERS, THURSDAY, TITAN_DECK, format_deck, house_store, write_profile


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return house_store(tmp_path_factory.mktemp("cli-house-store"))


@pytest.fixture
def work(tmp_path):
    """A working directory with the decks and a profiles folder."""
    (tmp_path / "profiles").mkdir()
    write_profile(tmp_path / "profiles", "thursday", THURSDAY, age=5)
    for name, text in (("partners.txt", PARTNERS), ("titan.txt", TITAN_DECK),
                       ("tithe.txt", format_deck([ATRAXA], "Smothering Tithe"))):
        (tmp_path / name).write_text(text)
    return tmp_path


def cli(store, work, *args, env=None, run=run_cli):
    return run("--offline", "--card-db", store, *args, cwd=work, env=env)


def json_of(done) -> list[dict]:
    return json.loads(done.stdout)


def test_a_profile_file_in_text(store, work):
    done = cli(store, work, "--house-rules", "profiles/thursday.toml", "partners.txt")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        "partners.txt: invalid under Thursday at the store's rules (1 error, 0 warnings)",
        "  house rules: Thursday at the store (profile thursday): 1 banned, 1 banned as commander, 1 unbanned, "
        "max bracket 2",
        "  minimum bracket 1 (declared 2): No Game Changers or extra-turn cards in the deck. Mass land denial was "
        "not checked: no mass land denial list is loaded. Two-card combos were not checked: no combo list is loaded.",
        "  partners.txt:3: error house_banned: Tymna the Weaver is banned under the house rules (Thursday at the store).",
        "1 file checked: 0 valid, 1 invalid; 1 error, 0 warnings.",
    ]


def test_a_profile_name_in_the_folder_and_json(store, work):
    done = cli(store, work, "--format", "json", "--house-rules", "thursday", "--house-rules-dir", "profiles",
               "partners.txt", "titan.txt")
    partners, titan = json_of(done)
    assert partners["house_rules"] == {"name": "Thursday at the store", "profile": "thursday", "banned": 1,
                                       "banned_as_commander": 1, "unbanned": 1, "max_bracket": 2}
    assert [(v["code"], v["cards"], v["lines"]) for v in partners["violations"]] == [
        ("house_banned", ["Tymna the Weaver"], [3])]
    assert [(v["code"], v["severity"], v["cards"]) for v in titan["violations"]] == [
        ("house_unbanned", "warning", ["Primeval Titan"])]
    assert titan["valid"] is True and done.returncode == 1


def test_the_folder_from_the_environment(store, work):
    done = cli(store, work, "--house-rules", "thursday", "titan.txt", env={"HOUSE_RULES_DIR": str(work / "profiles")})
    assert done.returncode == 0 and done.stdout.startswith("titan.txt: valid under Thursday at the store's rules")


@pytest.mark.parametrize(("game_format", "codes", "code"), [
    ("commander", ["house_unbanned"], 0), ("duel", [], 0)])
def test_an_unban_of_a_card_banned_in_commander_but_not_in_duel(store, work, game_format, codes, code):
    (work / "unban.toml").write_text('unbanned = ["Primeval Titan"]\n')
    done = cli(store, work, "--format", "json", "--game-format", game_format, "--house-rules", "unban.toml",
               "titan.txt")
    assert [v["code"] for v in json_of(done)[0]["violations"]] == codes and done.returncode == code
    plain = cli(store, work, "--format", "json", "--game-format", game_format, "titan.txt")
    assert (plain.returncode, [v["code"] for v in json_of(plain)[0]["violations"]]) == (
        (1, ["banned"]) if game_format == "commander" else (0, []))


def test_banned_as_commander_in_the_99_and_as_commander(store, work):
    (work / "tymna.toml").write_text('banned_as_commander = ["Tymna the Weaver"]\n')
    (work / "commander.txt").write_text(format_deck(["Tymna the Weaver"], basic="Plains"))
    (work / "in99.txt").write_text(format_deck([ATRAXA], "Tymna the Weaver", basic="Plains"))
    done = cli(store, work, "--format", "json", "--house-rules", "tymna.toml", "commander.txt", "in99.txt")
    commander, in99 = json_of(done)
    assert [(v["code"], v["cards"]) for v in commander["violations"]] == [
        ("house_banned_as_commander", ["Tymna the Weaver"])]
    assert in99["violations"] == [] and in99["valid"] is True


@pytest.mark.parametrize(("bracket", "codes"), [((), ["bracket_game_changers"]), (("--bracket", "4"), [])])
def test_a_house_max_bracket_and_bracket_given(store, work, bracket, codes):
    done = cli(store, work, "--format", "json", "--house-rules", "profiles/thursday.toml", *bracket, "tithe.txt")
    report = json_of(done)[0]
    assert [v["code"] for v in report["violations"]] == codes
    assert report["bracket"]["declared"] == (4 if bracket else 2)


def test_foreign_and_flavor_names_in_a_profile_file(store, work):
    (work / "names.toml").write_text('banned = ["Contrahechizo", "Eleven, the Mage"]\n')
    (work / "cecily.txt").write_text(format_deck(["Cecily, Haunted Mage"], "Counterspell"))
    report = json_of(cli(store, work, "--format", "json", "--house-rules", "names.toml", "cecily.txt"))[0]
    assert [v["cards"] for v in report["violations"]] == [["Cecily, Haunted Mage"], ["Counterspell"]]


def test_github_and_junit_say_the_rules(store, work):
    done = cli(store, work, "--format", "github", "--house-rules", "profiles/thursday.toml", "partners.txt")
    assert annotations(done.stdout)[:2] == [
        ("notice", {"file": "partners.txt", "title": "edh-validate"},
         "judged under house rules: Thursday at the store (profile thursday): 1 banned, 1 banned as commander, "
         "1 unbanned, max bracket 2"),
        ("error", {"file": "partners.txt", "line": "3", "title": "house_banned"},
         "Tymna the Weaver is banned under the house rules (Thursday at the store).")]
    junit = ET.fromstring(cli(store, work, "--format", "junit", "--house-rules", "profiles/thursday.toml",
                              "partners.txt").stdout)
    assert [p.get("value") for p in junit.iter("property") if p.get("name") == "house_rules"] == [
        "house rules: Thursday at the store (profile thursday): 1 banned, 1 banned as commander, 1 unbanned, "
        "max bracket 2"]


@pytest.mark.parametrize(("args", "files", "message"), [
    (("--house-rules", "friday", "--house-rules-dir", "profiles"), {},
     "No house rules profile is named 'friday'; the known ones: thursday."),
    (("--house-rules", "friday"), {},
     "no house rules file 'friday', and no --house-rules-dir (or HOUSE_RULES_DIR) to look a profile up in"),
    (("--house-rules", "missing.toml"), {}, "cannot read house rules missing.toml: No such file or directory"),
    (("--house-rules", "bad.toml"), {"bad.toml": 'banned = ["Sol Ring"]\nmax_bracket = three\n'},
     "house rules bad.toml: not valid TOML: Invalid value (at line 2, column 15)"),
    (("--house-rules", "typo.toml"), {"typo.toml": 'banned = ["Sol Rnig"]\n'},
     "The house rules profile 'typo' names \"Sol Rnig\", which is no card (did you mean Sol Ring?)."),
])
def test_house_rules_it_cannot_use_are_exit_2(store, work, args, files, message):
    for name, text in files.items():
        (work / name).write_text(text)
    done = cli(store, work, *args, "partners.txt")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().endswith(f"edh-validate: error: {message}")


def test_a_real_process(store, work):
    done = cli(store, work, "--house-rules", "profiles/thursday.toml", "partners.txt", run=run_process)
    assert done.returncode == 1
    assert done.stdout.startswith("partners.txt: invalid under Thursday at the store's rules (1 error, 0 warnings)")
