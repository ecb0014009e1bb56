"""The GitHub Action (action.yml): its metadata, and its steps run in a temporary repository.

The metadata is validated against the GitHub Actions metadata schema that check-jsonschema
ships (no network). The steps run through tests/support/action_runner.py as the runner would run
them: a real `pip install` of the action's checkout (offline, no index), the card store
built from a bulk file in the repository (cards import), real edh-validate, real git.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
import yaml

from scripts.count_invalid import count_invalid
from tests.support.action_runner import ACTION, ROOT, checkout, git, load_action, offline_pip, run_action

FIXTURE_CARDS = ROOT / "tests" / "fixtures" / "cards.jsonl"
SAMPLES = ROOT / "tests" / "fixtures" / "decklists_cli"
NOWHERE = "http://127.0.0.1:9"  # nothing listens: any Scryfall request fails at once


def check_metadata(path: Path) -> subprocess.CompletedProcess:
    """check-jsonschema with its vendored GitHub Actions metadata schema."""
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-actions",
                           str(path)], capture_output=True, text=True, timeout=120)


def test_action_metadata_matches_the_actions_schema():
    done = check_metadata(ACTION)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_rejects_a_broken_action(tmp_path):
    """The check can fail: a composite run step without `shell` is not valid metadata."""
    action = load_action()
    del action["runs"]["steps"][1]["shell"]
    broken = tmp_path / "action.yml"
    broken.write_text(yaml.safe_dump(action))
    done = check_metadata(broken)
    assert done.returncode == 1
    assert "shell" in done.stdout


def test_action_declares_its_interface():
    """Inputs and outputs docs/cli-and-action.md documents; the store is saved after the check, always."""
    action = load_action()
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {"paths", "strict", "bracket", "game-format", "house-rules", "card-names",
                                     "format", "cache-key", "python-version", "bulk-file"}
    assert action["inputs"]["format"]["default"] == "github"
    assert set(action["outputs"]) == {"invalid-files", "report"}
    steps = action["runs"]["steps"]
    uses = [s.get("uses", "").partition("@")[0] for s in steps]
    assert uses.index("actions/cache/restore") < uses.index("actions/cache/save")
    check = next(i for i, s in enumerate(steps) if s.get("id") == "check")
    save = uses.index("actions/cache/save")
    assert save > check and steps[save]["if"].startswith("always()")
    # Inputs reach scripts through env: only, never spliced into the script text.
    assert not any("inputs." in s.get("run", "") for s in steps)


@pytest.mark.parametrize(("card_names", "expected"), [
    ("", ["sync", "--no-names", "--db"]), ("false", ["sync", "--no-names", "--db"]), ("true", ["sync", "--db"]),
])
def test_the_store_step_builds_the_names_table_only_when_asked(tmp_path, card_names, expected):
    """all_cards is 390 MB: a cache miss downloads it only with card-names: "true"."""
    build = next(s for s in load_action()["runs"]["steps"] if s.get("id") == "build")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "cards"
    stub.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$EDH_STORE_DIR/args"\n')
    stub.chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "EDH_STORE_DIR": str(tmp_path / "store"), "EDH_BULK_FILE": "",
           "EDH_CARD_NAMES": card_names}
    subprocess.run(["bash", "-e", "-c", build["run"]], env=env, check=True)
    assert (tmp_path / "store" / "args").read_text().split()[: len(expected)] == expected


# --- the steps, run -------------------------------------------------------------------


@pytest.fixture(scope="module")
def action_path(tmp_path_factory) -> Path:
    """The action's checkout, as the runner downloads it."""
    return checkout(tmp_path_factory.mktemp("action"))


@pytest.fixture
def runner(tmp_path, action_path):
    """A decklist repository (git), a home, a runner temp dir and a cache, and a way to run the action."""
    repo = tmp_path / "repo"
    (repo / "decks").mkdir(parents=True)
    (repo / "notes").mkdir()
    shutil.copy(SAMPLES / "valid.txt", repo / "decks" / "precon.txt")
    shutil.copy(SAMPLES / "illegal.txt", repo / "decks" / "bolt.txt")
    shutil.copy(SAMPLES / "sideboard.txt", repo / "decks" / "sideboard.txt")
    # Not under decks/: the default rule (the pre-commit hook's) leaves it alone.
    shutil.copy(SAMPLES / "illegal.txt", repo / "notes" / "illegal.txt")
    shutil.copy(FIXTURE_CARDS, repo / "cards.jsonl")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "decks")
    cache = tmp_path / "cache"
    cache.mkdir()
    counter = iter(range(100))

    def run(**inputs):
        temp = tmp_path / f"runner-temp-{next(counter)}"  # each job gets a fresh runner
        temp.mkdir()
        site = temp / "site"
        done = run_action(repo, {"bulk-file": "cards.jsonl", **inputs}, home=tmp_path / "home", temp=temp,
                          cache=cache, env={"SCRYFALL_API_URL": NOWHERE, **offline_pip(site)},
                          extra_path=(site / "bin",), action_path=action_path)
        done.site = site
        return done

    run.repo, run.cache, run.home = repo, cache, tmp_path / "home"
    return run


def annotations(text: str) -> list[tuple[str, str, str]]:
    """(level, properties, message) of every workflow command in a log."""
    return re.findall(r"^::(error|warning) ([^:]*)::(.*)$", text, re.M)


def test_failing_deck_is_annotated_and_the_store_is_saved_anyway(runner):
    run = runner()
    check = run.step("check")
    assert run.step("build").outcome == "success"  # cache miss: built from the bulk file
    assert check.returncode == 1, check.stdout + check.stderr
    found = annotations(check.stdout)
    # illegal.txt: Mana Crypt banned (line 23), Lightning Bolt off-color (line 22).
    assert ("error", "file=decks/bolt.txt,line=23,title=banned", "Mana Crypt is banned in Commander.") in found
    assert any(props == "file=decks/bolt.txt,line=22,title=color_identity" for _, props, _ in found)
    # Without --strict the sideboard deck's warning is a warning, and it passes.
    assert ("warning", "file=decks/sideboard.txt,line=24,title=sideboard") in [f[:2] for f in found]
    assert not any("notes/" in props for _, props, _ in found)
    assert "3 files checked: 2 valid, 1 invalid" in check.stdout
    assert check.outputs["invalid-files"] == "1"
    assert run.outputs == {"invalid-files": "1", "report": check.outputs["report"]}
    assert run.failed
    # The store was saved although the check failed, under this week's key for this file.
    week = datetime.now(timezone.utc).strftime("%G-%V")
    assert run.step("key").outputs["key"].startswith(f"edh-card-store-{week}-")
    saved = list(runner.cache.iterdir())
    assert [p.name for p in saved] == [run.step("key").outputs["key"]]
    assert (saved[0] / "cards.sqlite3").is_file()
    # The check ran the edh-validate that the install step built from the action's checkout.
    assert (run.site / "bin" / "edh-validate").is_file()
    assert (run.site / "cli.py").is_file()
    # Both programs and their parts are installed from edh_service/cli (issue 20's moves).
    assert (run.site / "bin" / "cards").is_file()
    assert {p.name for p in (run.site / "edh_service" / "cli").glob("*.py")} >= {"validate.py", "cards.py", "paths.py"}


def test_a_cached_store_is_restored_not_rebuilt(runner):
    runner()  # a first run on this key builds and saves the store
    shutil.rmtree(runner.home)  # a new runner: nothing left in ~/.cache
    (runner.repo / "decks" / "bolt.txt").unlink()
    git(runner.repo, "commit", "-qam", "fix")
    run = runner()
    assert run.step("store").outputs["cache-hit"] == "true"
    assert run.step("build").outcome == "skipped"
    assert [s.outcome for s in run.steps if s.name == "Save the card store"] == ["skipped"]
    assert run.step("check").returncode == 0, run.step("check").stdout
    assert run.outputs["invalid-files"] == "0"
    assert not run.failed


def test_strict_explicit_paths_and_json_format(runner):
    """paths chooses the files; strict fails the warning; the count is read from JSON."""
    run = runner(paths="decks/sideboard.txt\n decks/precon.txt", strict="true", format="json")
    check = run.step("check")
    assert check.returncode == 1
    assert '"file": "decks/sideboard.txt"' in check.stdout
    assert "decks/bolt.txt" not in check.stdout
    assert run.outputs["invalid-files"] == "1"
    assert Path(run.outputs["report"]).read_text() in check.stdout


def test_junit_format_and_a_glob(runner):
    run = runner(paths="decks/*.txt", format="junit")
    assert run.step("check").returncode == 1
    assert "<testsuites" in run.step("check").stdout
    assert run.outputs["invalid-files"] == "1"


def test_no_decklists_is_an_error_not_a_pass(runner):
    git(runner.repo, "rm", "-rq", "decks")
    git(runner.repo, "commit", "-qm", "no decks")
    run = runner()
    check = run.step("check")
    assert check.returncode == 2
    assert check.stdout.startswith("::error title=edh-validate::no decklist files tracked by git match")
    assert run.outputs["invalid-files"] == "0"


def test_bracket_is_passed_only_when_set(runner, action_path):
    """Empty (the tests above): no --bracket. Set: edh-validate gets --bracket N."""
    help_text = subprocess.run([sys.executable, "-m", "cli", "--help"], capture_output=True, text=True,
                               cwd=ROOT).stdout
    run = runner(bracket="3", paths="decks/precon.txt")
    check = run.step("check")
    if "--bracket" not in help_text:
        # Until the bracket work adds the option, argparse refusing it shows it was passed.
        assert check.returncode == 2
        assert "unrecognized arguments: --bracket" in check.stderr
        return
    assert check.returncode in (0, 1), check.stderr  # not 2: the option was accepted
    assert "1 file checked" in check.stdout


def test_game_format_is_passed_only_when_set(runner):
    """Set: edh-validate judges in that format (an alias gives the canonical key); a bad name
    is a usage error (2), never a pass. Empty (the tests above): each list's own, else commander."""
    run = runner(**{"game-format": "DC"}, paths="decks/precon.txt", format="json")
    check = run.step("check")
    assert check.returncode in (0, 1), check.stderr
    assert '"format": "duel"' in check.stdout and '"format": "commander"' not in check.stdout
    # the fixture bulk file has the commander key alone: duel's values are unknown, never legal
    assert '"code": "legality_unknown"' in check.stdout
    run = runner(**{"game-format": "modern"}, paths="decks/precon.txt")
    check = run.step("check")
    assert check.returncode == 2 and "unknown game format 'modern'" in check.stderr


def test_house_rules_are_a_profile_file_in_the_repository(runner):
    """Set: edh-validate judges every deck under the file's rules, and the annotations say so;
    a file it cannot use stops the check (2), never a pass."""
    (runner.repo / "house.toml").write_text('title = "Club night"\nbanned = ["Sol Ring"]\nunbanned = ["Mana Crypt"]\n')
    git(runner.repo, "add", "house.toml")
    git(runner.repo, "commit", "-qm", "house rules")
    run = runner(**{"house-rules": "house.toml"}, paths="decks/precon.txt decks/bolt.txt")
    check = run.step("check")
    assert check.returncode == 1, check.stderr
    found = annotations(check.stdout)
    assert ("error", "file=decks/precon.txt,line=6,title=house_banned",
            "Sol Ring is banned under the house rules (Club night).") in found
    assert ("warning", "file=decks/bolt.txt,line=23,title=house_unbanned",
            "Mana Crypt is banned in Commander, but the house rules (Club night) allow it.") in found
    assert not any(props.endswith("title=banned") for _, props, _ in found)
    assert "::notice file=decks/precon.txt,title=edh-validate::judged under house rules: Club night" in check.stdout
    run = runner(**{"house-rules": "missing.toml"}, paths="decks/precon.txt")
    check = run.step("check")
    assert check.returncode == 2 and "cannot read house rules missing.toml" in check.stderr


@pytest.mark.parametrize(("output_format", "output", "strict", "expected"), [
    ("github", "::error file=a.txt::x\n3 files checked: 1 valid, 2 invalid; 2 errors, 0 warnings.\n", False, 2),
    ("text", "a: not checked\n2 files checked: 0 valid, 1 invalid; 1 error, 0 warnings; "
             "1 could not be checked (--strict: warnings fail).\n", True, 2),
    ("text", "", False, None),  # the run stopped before checking (card data unavailable)
    ("json", '[{"file": "a", "valid": true, "violations": [{"severity": "warning"}]},'
             ' {"file": "b", "valid": false, "error": "cannot read"}]', False, 1),
    ("json", '[{"file": "a", "valid": true, "violations": [{"severity": "warning"}]}]', True, 1),
    ("junit", '<testsuites name="edh-validate" tests="3" failures="1" errors="1"/>', False, 2),
    ("junit", "not xml", False, None),
])
def test_count_invalid(output_format, output, strict, expected):
    assert count_invalid(output_format, output, strict) == expected


def test_a_deck_link_in_paths_is_checked_through_edh_validate(runner, action_path, tmp_path):
    """`paths` may hold a deck link: edh-validate reads it from the site (here a local
    Archidekt-shaped server) on a runner with network; its annotations name the link."""
    import json as json_module

    from tests.support.site_server import SiteServer

    runner()  # a first run builds the store; the link run below finds it in the cache
    week = datetime.now(timezone.utc).strftime("%G-%V")
    shutil.copytree(next(runner.cache.iterdir()), runner.cache / f"edh-card-store-{week}")
    shutil.rmtree(runner.home)
    deck = json_module.loads((ROOT / "tests" / "fixtures" / "sites" / "archidekt-4242.json").read_text())
    with SiteServer(archidekt={"4242": deck}) as site:
        temp = tmp_path / "link-runner"
        temp.mkdir()
        done = run_action(runner.repo, {"paths": "https://archidekt.com/decks/4242/atraxa", "bulk-file": ""},
                          home=runner.home, temp=temp, cache=runner.cache, action_path=action_path,
                          env={"SCRYFALL_API_URL": NOWHERE, "ARCHIDEKT_API_URL": site.archidekt_url,
                               **offline_pip(temp / "site")}, extra_path=(temp / "site" / "bin",))
    check = done.step("check")
    assert done.step("store").outputs["cache-hit"] == "true"
    assert check.returncode == 1, check.stdout + check.stderr
    found = annotations(check.stdout)
    assert ("error", "line=8,title=bracket_game_changers (https%3A//archidekt.com/decks/4242/atraxa)") in [
        f[:2] for f in found]  # no file= : a link is no file of the repository
    assert len(site.requests) == 1
