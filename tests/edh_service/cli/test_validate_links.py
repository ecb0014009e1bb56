"""`edh-validate URL`: the deck a link names, read from a local Archidekt/Moxfield-shaped
server (ARCHIDEKT_API_URL, MOXFIELD_API_URL from the environment), judged like a file: the
JSON output says where it came from and the text judged, the GitHub annotations name the
link instead of a file, and a link that gives no deck is an input not checked (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_runs import COMMAND, run_cli, run_process
from tests.support.site_server import SiteServer

SITES = Path(__file__).resolve().parents[2] / "fixtures" / "sites"
ARCHIDEKT = json.loads((SITES / "archidekt-4242.json").read_text(encoding="utf-8"))
LINK = "https://archidekt.com/decks/4242/atraxa?tab=stats"  # a `?` in a link is no glob
DECK = Path(__file__).resolve().parents[2] / "fixtures" / "decklists"


@pytest.fixture
def site():
    with SiteServer(archidekt={"4242": ARCHIDEKT}) as server:
        yield server


def env(site: SiteServer, **extra: str) -> dict[str, str]:
    return {"ARCHIDEKT_API_URL": site.archidekt_url, "MOXFIELD_API_URL": site.moxfield_url, **extra}


def test_a_link_is_checked_like_a_file(fixture_db, site):
    result = run_cli("--card-db", fixture_db, "--format", "json", LINK, env=env(site))
    assert result.returncode == 1 and result.stderr == ""
    (body,) = json.loads(result.stdout)
    assert body["file"] == LINK and body["card_count"] == 100
    assert body["source"]["url"] == "https://archidekt.com/decks/4242" and body["source"]["declared_bracket"] == 2
    assert body["decklist"].startswith("Format: Commander\n")
    codes = {v["code"]: v for v in body["violations"]}
    assert codes["sideboard"]["cards"] == ["Counterspell", "Lightning Bolt", "Ponder"]
    assert codes["bracket_game_changers"]["message"].endswith("The deck declares bracket 2 on Archidekt.")


def test_bracket_option_wins_over_the_sites(fixture_db, site):
    result = run_cli("--card-db", fixture_db, "--format", "json", "--bracket", "4", LINK, env=env(site))
    (body,) = json.loads(result.stdout)
    assert result.returncode == 0 and body["bracket"]["declared"] == 4


def test_github_annotations_name_the_link(fixture_db, site):
    result = run_cli("--card-db", fixture_db, "--format", "github", LINK, env=env(site))
    commands = [COMMAND.match(line) for line in result.stdout.splitlines() if line.startswith("::")]
    assert commands and all("file=" not in match[2] for match in commands)
    assert any("bracket_game_changers (https%3A//archidekt.com/decks/4242/atraxa?tab=stats)" in match[2]
               for match in commands)


@pytest.mark.parametrize(("link", "said"), [
    ("https://archidekt.com/decks/999", "private, deleted or was never made"),
    ("https://tappedout.net/mtg-decks/atraxa/", "paste its text export"),
])
def test_a_link_that_gives_no_deck_is_not_checked(fixture_db, site, link, said):
    result = run_cli("--card-db", fixture_db, link, env=env(site))
    assert result.returncode == 2 and said in result.stderr


def test_offline_never_asks_a_site(fixture_db, site):
    result = run_cli("--offline", "--card-db", fixture_db, LINK, env=env(site))
    assert result.returncode == 2 and "--offline never asks a deck site" in result.stderr
    assert site.requests == []
    off = run_cli("--card-db", fixture_db, LINK, env=env(site, DECK_URLS="0"))
    assert off.returncode == 2 and "does not read decks from links" in off.stderr


def test_the_entry_point_reads_a_link_beside_a_file(fixture_db, site):
    result = run_process("--card-db", fixture_db, "--format", "json", LINK, DECK / "arena.txt", LINK, env=env(site))
    bodies = json.loads(result.stdout)
    assert [body["file"] for body in bodies] == [LINK, str(DECK / "arena.txt")]  # the link once
    assert "source" not in bodies[1] and len(site.requests) == 1


@pytest.mark.parametrize(("argument", "link"), [
    ("https://archidekt.com/decks/1", True), ("archidekt.com/decks/1", True), ("HTTP://example.com/x", True),
    ("my.decks/atraxa.txt", False), ("decks/atraxa.txt", False), ("*.txt", False),
])
def test_which_arguments_are_links(argument, link):
    from edh_service.deck_urls import link_argument

    assert link_argument(argument) is link


def test_a_missing_file_with_a_dot_in_its_folder_is_no_link(fixture_db, tmp_path):
    result = run_cli("--card-db", fixture_db, "my.decks/atraxa.txt", cwd=tmp_path)
    assert result.returncode == 2 and "no such file or directory" in result.stderr
