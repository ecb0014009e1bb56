"""edh-validate on hand-written decklists, over a real card store: in-process through
`cli.main(argv, stdout, stderr, stdin)`, and a few runs as a real subprocess (exit codes,
the entry point, stderr as a pipe).

The store is built from tests/fixtures/cards.jsonl (fixture_db). Scryfall is never the
real one: SCRYFALL_API_URL points at a closed local port unless a test starts the local
Scryfall-shaped server.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from edh_service.cli import validate
from tests.support.cli_runs import ROOT, annotations, run_cli, run_process
from tests.support.factories import load_bracket_lists
from validator import ENGINE

SAMPLES = ROOT / "tests" / "fixtures" / "decklists_cli"
FIXTURE_CARDS = ROOT / "tests" / "fixtures" / "cards.jsonl"

# What each sample must produce: its detected reader and (code, cards, lines) per violation.
EXPECTED = {
    "valid.txt": ("arena", []),
    "valid.cod": ("cockatrice", []),
    "valid_forge.dck": ("forge", []),
    "valid_xmage.dck": ("xmage", []),
    "sideboard.txt": ("arena", [("sideboard", ["Negate"], [24])]),
    "illegal.txt": ("arena", [("banned", ["Mana Crypt"], [23]), ("color_identity", ["Lightning Bolt"], [22])]),
    "typo.dek": ("mtgo_dek", [("unknown_card", ["Rhystic Studdy"], [13])]),
}


def sample(name: str) -> str:
    """A sample's path relative to the repository root, as a user would type it."""
    return str((SAMPLES / name).relative_to(ROOT))


def check(fixture_db, *args, run=run_cli, **kwargs):
    """Run the CLI offline over the fixture store (in-process unless `run` says otherwise)."""
    return run("--offline", "--card-db", fixture_db, *args, **kwargs)


# --- exit codes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("files", "options", "code"),
    (
        (["valid.txt"], [], 0),
        (["valid.txt", "valid.cod", "valid_forge.dck", "valid_xmage.dck"], [], 0),
        (["sideboard.txt"], [], 0),  # a warning alone passes...
        (["sideboard.txt"], ["--strict"], 1),  # ...unless warnings are errors
        (["valid.txt"], ["--strict"], 0),
        (["illegal.txt"], [], 1),
        (["typo.dek"], [], 1),
        (["valid.txt", "illegal.txt"], [], 1),
    ),
)
def test_exit_codes(fixture_db, files, options, code):
    result = check(fixture_db, *options, *map(sample, files))
    assert result.returncode == code, result.stdout + result.stderr
    assert result.stderr == ""


@pytest.mark.parametrize(("args", "code"), ((["valid.txt"], 0), (["illegal.txt"], 1), (["missing.txt"], 2)))
def test_exit_codes_of_the_real_process(fixture_db, args, code):
    result = check(fixture_db, *(sample(a) if a != "missing.txt" else a for a in args), run=run_process)
    assert result.returncode == code, result.stdout + result.stderr


# --- json ------------------------------------------------------------------------------


def test_json_is_the_api_shape_per_file(fixture_db):
    names = sorted(EXPECTED)
    result = check(fixture_db, "--format", "json", *map(sample, names))
    assert result.returncode == 1
    bodies = json.loads(result.stdout)
    assert [b["file"] for b in bodies] == [sample(n) for n in names]
    for name, body in zip(names, bodies):
        reader, violations = EXPECTED[name]
        assert body["decklist_format"] == reader, name
        assert [(v["code"], v["cards"], v["lines"]) for v in body["violations"]] == violations, name
        assert body["valid"] is not any(v[0] != "sideboard" for v in violations)
        assert body["commanders"] == ["Atraxa, Praetors' Voice"]
        assert body["color_identity"] == ["W", "U", "B", "G"]
        assert body["card_count"] == 100
        assert body["card_data"]["updated_at"] == "2026-11-01T00:00:00+00:00"


def test_json_unknown_card_carries_suggestions(fixture_db):
    [body] = json.loads(check(fixture_db, "--format", "json", sample("typo.dek")).stdout)
    [violation] = body["violations"]
    assert violation["code"] == "unknown_card"
    assert "Rhystic Study" in violation["suggestions"]


# --- text ------------------------------------------------------------------------------


def test_text_groups_violations_under_their_file_with_lines(fixture_db):
    illegal, valid = sample("illegal.txt"), sample("valid.txt")
    result = check(fixture_db, illegal, valid)
    lines = result.stdout.splitlines()
    assert lines[0] == f"{illegal}: invalid (2 errors, 0 warnings)"
    assert lines[1].startswith("  minimum bracket 3: 3 Game Changers")  # each file's bracket line
    assert lines[2].startswith(f"  {illegal}:23: error banned: Mana Crypt")
    assert lines[3].startswith(f"  {illegal}:22: error color_identity: Lightning Bolt")
    assert lines[3].endswith("(rule 903.5c)")
    assert lines[4] == f"{valid}: valid (0 errors, 0 warnings)"
    assert lines[5].startswith("  minimum bracket 3: ")
    assert lines[6] == "2 files checked: 1 valid, 1 invalid; 2 errors, 0 warnings."
    assert len(lines) == 7


def test_text_summary_says_strict(fixture_db):
    result = check(fixture_db, "--strict", sample("sideboard.txt"))
    assert result.stdout.splitlines()[-1] == (
        "1 file checked: 0 valid, 1 invalid; 0 errors, 1 warning (--strict: warnings fail).")
    assert f"{sample('sideboard.txt')}:24: warning sideboard:" in result.stdout


# --- github ----------------------------------------------------------------------------


@pytest.mark.parametrize(("strict", "sideboard_level"), ((False, "warning"), (True, "error")))
def test_github_annotates_each_violation_at_its_file_and_line(fixture_db, strict, sideboard_level):
    files = [sample(n) for n in ("illegal.txt", "sideboard.txt", "typo.dek", "valid.txt")]
    result = check(fixture_db, "--format", "github", *(["--strict"] if strict else []), *files)
    assert result.returncode == 1
    found = {(level, p["file"], p.get("line"), p["title"]) for level, p, _ in annotations(result.stdout)}
    assert found == {
        ("error", files[0], "23", "banned"),
        ("error", files[0], "22", "color_identity"),
        (sideboard_level, files[1], "24", "sideboard"),
        ("error", files[2], "13", "unknown_card"),
    }
    assert result.stdout.splitlines()[-1].startswith("4 files checked:")


def test_github_escapes_properties_and_messages(fixture_db, tmp_path):
    # A path with the characters GitHub reserves in properties, a name with '%'.
    deck = tmp_path / "50%, deck: one.txt"
    deck.write_text("Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol 100% Ring\n")
    result = check(fixture_db, "--format", "github", deck)
    lines = [line for line in result.stdout.splitlines() if line.startswith("::")]
    escaped = str(deck).replace("%", "%25").replace(":", "%3A").replace(",", "%2C")
    assert any(line.startswith(f"::error file={escaped},line=5,title=unknown_card::") for line in lines), lines
    unknown = next(line for line in lines if "title=unknown_card" in line)
    assert "Sol 100%25 Ring" in unknown.split("::", 2)[2]


# --- junit -----------------------------------------------------------------------------


def test_junit_has_one_testcase_per_file_and_failures_listing_violations(fixture_db):
    files = [sample(n) for n in ("illegal.txt", "sideboard.txt", "valid.txt")]
    result = check(fixture_db, "--format", "junit", *files)
    root = ET.fromstring(result.stdout)
    [suite] = root.iter("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "0")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert list(cases) == files
    failure = cases[files[0]].find("failure")
    assert failure.get("message") == "2 errors, 0 warnings"
    assert f"{files[0]}:22: error color_identity: Lightning Bolt" in failure.text
    assert f"{files[0]}:23: error banned: Mana Crypt" in failure.text
    # A passing deck's warnings are kept in system-out; a clean deck has no children.
    assert cases[files[1]].find("failure") is None
    assert "warning sideboard" in cases[files[1]].find("system-out").text
    # a clean deck has only its bracket properties
    assert [child.tag for child in cases[files[2]]] == ["properties"]


def test_junit_strict_fails_on_warnings(fixture_db):
    root = ET.fromstring(check(fixture_db, "--format", "junit", "--strict", sample("sideboard.txt")).stdout)
    [case] = root.iter("testcase")
    assert case.find("failure").get("message") == "0 errors, 1 warning"


def test_junit_stays_well_formed_with_markup_and_control_characters(fixture_db, tmp_path):
    deck = tmp_path / "a&b <deck>.txt"
    deck.write_text('Commander\n1 Atraxa, Praetors\' Voice\n\nDeck\n1 Sol <Ring> & "Co"\x07\n')
    result = check(fixture_db, "--format", "junit", deck)
    root = ET.fromstring(result.stdout)  # raises if the document is not well-formed
    [case] = root.iter("testcase")
    assert case.get("name") == str(deck)
    assert 'Sol <Ring> & "Co"' in case.find("failure").text


# --- inputs ----------------------------------------------------------------------------


def test_stdin_is_read_with_dash(fixture_db):
    text = (SAMPLES / "illegal.txt").read_text()
    result = check(fixture_db, "--format", "github", "-", stdin=text)
    assert result.returncode == 1
    found = {(level, p.get("file"), p.get("line"), p["title"]) for level, p, _ in annotations(result.stdout)}
    # No file= for stdin: there is no file in the repository to annotate.
    assert found == {("error", None, "23", "banned"), ("error", None, "22", "color_identity")}
    assert json.loads(check(fixture_db, "--format", "json", "-", stdin=text).stdout)[0]["file"] == "<stdin>"


def test_globs_and_directories_are_expanded_by_the_command(fixture_db):
    result = check(fixture_db, "--format", "json", str(SAMPLES.relative_to(ROOT) / "valid*"))
    files = [Path(body["file"]).name for body in json.loads(result.stdout)]
    assert files == ["valid.cod", "valid.txt", "valid_forge.dck", "valid_xmage.dck"]
    assert result.returncode == 0
    result = check(fixture_db, "--format", "json", SAMPLES.relative_to(ROOT))
    assert sorted(Path(b["file"]).name for b in json.loads(result.stdout)) == sorted(EXPECTED)


def test_companion_override(fixture_db):
    result = check(fixture_db, "--format", "json", "--companion", "Lurrus of the Dream-Den", sample("valid.txt"))
    [body] = json.loads(result.stdout)
    assert result.returncode == 1
    assert body["companion"] == "Lurrus of the Dream-Den"
    # Lurrus: every permanent card, commander included, must have mana value 2 or less.
    [violation] = body["violations"]
    assert violation["code"] == "companion_condition"
    assert violation["cards"] == ["Atraxa, Praetors' Voice", "Eternal Witness", "Rhystic Study", "Smothering Tithe"]


def test_commander_override(fixture_db):
    result = check(fixture_db, "--format", "json", "--commander", "Lightning Bolt", sample("valid.txt"))
    [body] = json.loads(result.stdout)
    assert result.returncode == 1
    assert ("commander_ineligible", ["Lightning Bolt"]) in [(v["code"], v["cards"]) for v in body["violations"]]


# --- usage errors and card data: exit code 2 ----------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    (
        (["missing.txt"], "no such file or directory: missing.txt"),
        (["tests/fixtures/decklists_cli/*.nothing"], "no files match"),
        (["--format", "yaml", "x.txt"], "invalid choice: 'yaml'"),
        ([], "the following arguments are required: PATH"),
    ),
)
def test_usage_errors_exit_2(fixture_db, args, message):
    result = check(fixture_db, *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_unreadable_file_exits_2_but_still_reports_the_others(fixture_db, tmp_path):
    binary = tmp_path / "image.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0")
    result = check(fixture_db, "--format", "junit", sample("illegal.txt"), binary)
    assert result.returncode == 2
    assert f"{binary}: cannot read: binary file" in result.stderr
    root = ET.fromstring(result.stdout)
    [suite] = root.iter("testsuite")
    assert (suite.get("failures"), suite.get("errors")) == ("1", "1")
    assert [c.get("name") for c in suite.iter("testcase") if c.find("error") is not None] == [str(binary)]


@pytest.mark.parametrize("how", ("flag", "environment"))
def test_offline_without_a_store_exits_2(tmp_path, how):
    db = tmp_path / "none" / "cards.sqlite3"
    args = ["--offline"] if how == "flag" else []
    env = {"CARD_DATA_OFFLINE": "1"} if how == "environment" else {}
    result = run_cli(*args, "--card-db", db, sample("valid.txt"), env=env)
    assert result.returncode == 2
    assert "card data unavailable" in result.stderr and "--offline" in result.stderr
    assert not db.exists()
    assert not db.parent.exists()  # nothing is created for a store that is not built


def test_unreachable_scryfall_without_a_store_exits_2(tmp_path):
    result = run_cli("--card-db", tmp_path / "cards.sqlite3", sample("valid.txt"))
    assert result.returncode == 2
    assert "card data unavailable" in result.stderr
    assert result.stdout == ""


def test_missing_bulk_file_exits_2(tmp_path):
    result = run_cli("--offline", "--card-db", tmp_path / "c.sqlite3", "--bulk-file", tmp_path / "no.jsonl.gz",
                     sample("valid.txt"))
    assert result.returncode == 2
    assert "no such bulk file" in result.stderr


# --- card data: sync, bulk import, offline ------------------------------------------------


@pytest.mark.parametrize(
    ("environment", "expected"),
    (({}, False), ({"CARD_DATA_OFFLINE": "1"}, True), ({"CARD_DATA_OFFLINE": "true"}, True),
     ({"CARD_DATA_OFFLINE": "0"}, False)),
)
def test_offline_flag_defaults_from_environment(monkeypatch, environment, expected):
    monkeypatch.delenv("CARD_DATA_OFFLINE", raising=False)
    for key, value in environment.items():
        monkeypatch.setenv(key, value)
    assert validate.build_parser().parse_args(["x"]).offline is expected


def test_card_db_defaults_to_environment_then_instance(monkeypatch):
    monkeypatch.delenv("CARD_DB", raising=False)
    assert validate.build_parser().parse_args(["x"]).card_db == "instance/cards.sqlite3"
    monkeypatch.setenv("CARD_DB", "/tmp/elsewhere.sqlite3")
    assert validate.build_parser().parse_args(["x"]).card_db == "/tmp/elsewhere.sqlite3"


@pytest.mark.parametrize("ci", ("", "true"))
def test_missing_store_is_synced_silently_when_not_a_terminal(scryfall_server, tmp_path, ci):
    db = tmp_path / "cache" / "cards.sqlite3"
    result = run_process("--card-db", db, sample("illegal.txt"),
                         env={"SCRYFALL_API_URL": scryfall_server.base_url, "CI": ci})
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""  # no progress bar: stderr is a pipe
    assert f"{sample('illegal.txt')}:22: error color_identity" in result.stdout
    assert "/bulk-data/oracle-cards" in scryfall_server.paths("GET")
    assert db.is_file()


def test_existing_store_is_not_synced_again(scryfall_server, fixture_db):
    result = run_cli("--card-db", fixture_db, sample("valid.txt"),
                     env={"SCRYFALL_API_URL": scryfall_server.base_url})
    assert result.returncode == 0
    assert scryfall_server.paths("GET") == []


def test_bulk_file_builds_the_store_once_for_air_gapped_runners(tmp_path):
    db = tmp_path / "cards.sqlite3"
    first = run_cli("--offline", "--card-db", db, "--bulk-file", FIXTURE_CARDS, "--format", "json", sample("illegal.txt"))
    assert first.returncode == 1, first.stderr
    [body] = json.loads(first.stdout)
    assert [v["code"] for v in body["violations"]] == ["banned", "color_identity"]
    assert body["card_data"]["source"] == "file:cards.jsonl"
    built = db.stat().st_mtime_ns
    second = run_cli("--offline", "--card-db", db, "--bulk-file", FIXTURE_CARDS, sample("valid.txt"))
    assert second.returncode == 0
    assert db.stat().st_mtime_ns == built  # the store is newer than the file: no re-import


def test_offline_never_asks_scryfall_for_unknown_names(scryfall_server, fixture_db):
    env = {"SCRYFALL_API_URL": scryfall_server.base_url}
    offline = run_cli("--offline", "--card-db", fixture_db, sample("typo.dek"), env=env)
    assert offline.returncode == 1
    assert scryfall_server.requests == []
    online = run_cli("--card-db", fixture_db, sample("typo.dek"), env=env)
    assert online.returncode == 1
    assert scryfall_server.paths("POST") == ["/cards/collection"]


def test_scryfall_rate_limit_on_a_lookup_goes_on_offline(scryfall_server, fixture_db):
    # The store answers everything but the typo; a 429 for that one must not fail the run.
    scryfall_server.fail_next = [429]
    result = run_cli("--card-db", fixture_db, "--format", "json", sample("typo.dek"), sample("valid.txt"),
                     env={"SCRYFALL_API_URL": scryfall_server.base_url})
    assert result.returncode == 1
    assert "going on offline" in result.stderr
    typo, valid = json.loads(result.stdout)
    assert [(v["code"], v["cards"]) for v in typo["violations"]] == [
        ("unknown_card", ["Rhystic Studdy"]), ("card_lookup_unavailable", ["Rhystic Studdy"])]
    assert valid["valid"] is True
    assert scryfall_server.paths("POST") == ["/cards/collection"]  # asked once, never again


def test_version_names_the_engine():
    """--version: the version and which engine runs (compiled by mypyc, or plain Python)."""
    result = run_process("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("edh-validate ") and f"(engine: {ENGINE})" in result.stdout


def test_help_lists_formats_and_exit_codes():
    result = run_process("--help")
    assert result.returncode == 0
    assert "{github,json,junit,text}" in result.stdout
    assert "2: usage error" in result.stdout


# --- Commander Brackets ----------------------------------------------------------------

VALID_GAME_CHANGERS = ["Demonic Tutor", "Rhystic Study", "Smothering Tithe"]  # in valid.txt


@pytest.mark.parametrize(("bracket", "code", "codes"), (
    (None, 0, []), ("4", 0, []), ("3", 0, []), ("2", 1, ["bracket_game_changers"]),
    ("1", 1, ["bracket_game_changers"]),
))
def test_bracket_declared_on_the_command_line_sets_the_exit_code(fixture_db, bracket, code, codes):
    args = ["--bracket", bracket] if bracket else []
    result = check(fixture_db, "--format", "json", *args, sample("valid.txt"))
    assert result.returncode == code, result.stdout + result.stderr
    [body] = json.loads(result.stdout)
    assert [(v["code"], v["cards"], v["severity"]) for v in body["violations"]] == [
        (c, VALID_GAME_CHANGERS, "error") for c in codes]
    assert body["bracket"]["declared"] == (int(bracket) if bracket else None)


def test_json_carries_the_bracket_block(fixture_db):
    load_bracket_lists(fixture_db)
    deck = (SAMPLES / "valid.txt").read_text().replace("1 Cultivate", "1 Vindicate")
    result = check(fixture_db, "--format", "json", "--bracket", "3", "-", stdin=deck)
    assert result.returncode == 1
    [body] = json.loads(result.stdout)
    assert list(body["bracket"]) == ["minimum", "declared", "game_changers", "mass_land_denial", "extra_turns",
                                     "two_card_combos", "reasons"]
    assert body["bracket"]["minimum"] == 4
    assert body["bracket"]["mass_land_denial"] == ["Vindicate"]
    assert body["bracket"]["game_changers"] == VALID_GAME_CHANGERS
    assert body["bracket"]["two_card_combos"] == []  # Counterspell's partner is not in the deck
    assert [v["code"] for v in body["violations"]] == ["bracket_mass_land_denial"]


@pytest.mark.parametrize("bad", ("0", "6", "x", "2.5"))
def test_a_bad_bracket_is_a_usage_error(fixture_db, bad):
    result = check(fixture_db, "--bracket", bad, sample("valid.txt"))
    assert result.returncode == 2
    assert "--bracket" in result.stderr and "invalid" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("digits", (4_000, 5_000))  # an int Python converts, and one past its 4,300 digits
def test_a_huge_bracket_is_a_usage_error_quoted_cut_short(fixture_db, digits):
    result = check(fixture_db, "--bracket", "7" * digits, sample("valid.txt"))
    assert result.returncode == 2 and result.stdout == ""
    [error] = result.stderr.splitlines()[-1:]
    assert error == (f"edh-validate: error: argument --bracket: invalid choice: '{'7' * 59}…' "
                     "(choose from 1, 2, 3, 4, 5)")


def test_text_prints_one_bracket_line_per_file_with_its_reasons(fixture_db):
    result = check(fixture_db, "--bracket", "2", sample("valid.txt"))
    lines = result.stdout.splitlines()
    assert lines[0] == f"{sample('valid.txt')}: invalid (1 error, 0 warnings)"
    assert lines[1] == ("  minimum bracket 3 (declared 2): 3 Game Changers (Demonic Tutor, Rhystic Study and "
                        "Smothering Tithe): brackets 1 and 2 allow none. Mass land denial was not checked: no mass "
                        "land denial list is loaded. Two-card combos were not checked: no combo list is loaded.")
    assert lines[2].startswith(f"  {sample('valid.txt')}:12: error bracket_game_changers: Bracket 2 (Core)")
    load_bracket_lists(fixture_db)
    lines = check(fixture_db, sample("valid.txt")).stdout.splitlines()
    assert lines[1] == ("  minimum bracket 3: 3 Game Changers (Demonic Tutor, Rhystic Study and Smothering "
                        "Tithe): brackets 1 and 2 allow none.")


def test_github_annotates_bracket_errors(fixture_db):
    result = check(fixture_db, "--format", "github", "--bracket", "1", sample("valid.txt"))
    assert result.returncode == 1
    [(level, props, message)] = annotations(result.stdout)
    assert (level, props) == ("error", {"file": sample("valid.txt"), "line": "12", "title": "bracket_game_changers"})
    assert all(name in message for name in VALID_GAME_CHANGERS)


def test_junit_carries_the_bracket_as_properties(fixture_db):
    result = check(fixture_db, "--format", "junit", "--bracket", "2", sample("valid.txt"), sample("illegal.txt"))
    cases = {case.get("name"): case for case in ET.fromstring(result.stdout).iter("testcase")}
    properties = [(p.get("name"), p.get("value")) for p in cases[sample("valid.txt")].find("properties")]
    assert properties[:2] == [("bracket.minimum", "3"), ("bracket.declared", "2")]
    assert [name for name, _ in properties[2:]] == ["bracket.reason"] * 3 + ["format"]
    assert properties[-1] == ("format", "commander")
    assert properties[2][1].startswith("3 Game Changers (Demonic Tutor")
    assert "error bracket_game_changers" in cases[sample("valid.txt")].find("failure").text
