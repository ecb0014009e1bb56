"""Decks by URL on real documents (../shared/decks/site-api, mtg-parser-fixtures) served by a
local Archidekt/Moxfield-shaped server, judged over a store of ~30k real cards: exactly
the 100 the site means, every card left out named, the declared bracket checked.

Skipped when ../shared is absent (a fresh clone). The store is imported once per session.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.apps import offline_app
from tests.support.site_server import (
    ARCHIDEKT_REAL, MOXFIELD_REAL, SiteServer, real_document, side_names, with_side_piles,
)

ARCHIDEKT_LINK = "https://archidekt.com/decks/1365846/mtg-parser_3_amigos"
MOXFIELD_LINK = "https://moxfield.com/decks/V06ztO0Imk-p5I8N81Ue8g"
AMIGOS = ["Kraum, Ludevic's Opus", "Vial Smasher the Fierce"]


@pytest.fixture(scope="session")
def real_db(shared_dir, tmp_path_factory) -> Path:
    """A card store built from ../shared/carddata/oracle-cards.jsonl.gz (about 10 s, once)."""
    from card_data.sync import import_file

    path = tmp_path_factory.mktemp("real-card-store") / "cards.sqlite3"
    import_file(path, shared_dir / "carddata" / "oracle-cards.jsonl.gz")
    return path


@pytest.fixture
def archidekt_deck(shared_dir) -> dict:
    """The real 3 Amigos document, its empty Sideboard and Maybeboard given real cards of the
    deck, one entry removed on the site, and bracket 2 declared."""
    return with_side_piles(real_document(shared_dir, ARCHIDEKT_REAL), sideboard=3, maybeboard=2, bracket=2)


@pytest.fixture
def site(shared_dir, archidekt_deck):
    mtg_parser = shared_dir / "decks" / "mtg-parser-fixtures"
    with SiteServer(archidekt={"1365846": archidekt_deck, "2": (mtg_parser / "archidekt_api_1365846_3-amigos.json")
                               .read_bytes()},
                    moxfield={"V06ztO0Imk-p5I8N81Ue8g": real_document(shared_dir, MOXFIELD_REAL),
                              "WBXKb": (mtg_parser / "moxfield_api_WBXKb_3-amigos.json").read_bytes()}) as server:
        yield server


@pytest.fixture
def client(real_db, site):
    return offline_app(real_db, **site.config()).test_client()


def lines_naming(text: str, names) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), 1) if line.partition(" ")[2] in names]


def test_a_real_archidekt_deck_with_a_sideboard_and_a_maybeboard(client, archidekt_deck):
    body = client.post("/api/v1/validate", json={"url": ARCHIDEKT_LINK}).get_json()
    assert body["card_count"] == 100
    assert body["commanders"] == AMIGOS and body["companion"] == "Obosh, the Preypiercer"
    codes = {v["code"]: v for v in body["violations"]}
    left_out = side_names(archidekt_deck, "Sideboard") + side_names(archidekt_deck, "Maybeboard")
    assert len(left_out) == 5
    assert sorted(codes["sideboard"]["cards"]) == sorted(left_out)  # every card left out, named
    assert codes["sideboard"]["lines"] == lines_naming(body["decklist"], left_out)[-5:]
    # the declared bracket: a cEDH list declared Core on the site
    assert body["source"]["declared_bracket"] == 2 and body["bracket"]["declared"] == 2
    changers = codes["bracket_game_changers"]
    assert len(changers["cards"]) == 11 and "Rhystic Study" in changers["cards"]
    assert changers["message"].endswith("The deck declares bracket 2 on Archidekt.")
    assert set(codes) == {"bracket_game_changers", "sideboard"}
    assert body["valid"] is False
    # the same deck with the site's bracket switched off is legal
    off = client.post("/api/v1/validate", json={"url": ARCHIDEKT_LINK, "bracket": None}).get_json()
    assert off["valid"] is True and [v["code"] for v in off["violations"]] == ["sideboard"]


def test_every_line_number_points_into_the_text_judged(client):
    body = client.post("/api/v1/validate", json={"url": ARCHIDEKT_LINK}).get_json()
    lines = body["decklist"].splitlines()
    for violation in body["violations"]:
        named = {lines[number - 1].partition(" ")[2] for number in violation["lines"]}
        assert named <= set(violation["cards"]), violation


def test_a_real_moxfield_v3_deck_with_its_15_card_sideboard(client):
    body = client.post("/api/v1/validate", json={"url": MOXFIELD_LINK}).get_json()
    assert body["card_count"] == 100 and body["commanders"] == ["Captain N'ghathrod"]
    codes = {v["code"]: v for v in body["violations"]}
    assert len(codes["sideboard"]["cards"]) == 15 and "Mana Leak" in codes["sideboard"]["cards"]
    assert body["source"]["declared_bracket"] == 2  # no userBracket in this document: its `bracket`
    assert body["bracket"]["declared"] == 2 and body["bracket"]["minimum"] == 1
    assert body["valid"] is True and set(codes) == {"sideboard"}


@pytest.mark.parametrize("link", ["https://archidekt.com/decks/2", "https://moxfield.com/decks/WBXKb"])
def test_the_mtg_parser_documents_read_as_the_same_deck(client, link):
    body = client.post("/api/v1/validate", json={"url": link, "bracket": None}).get_json()
    assert body["card_count"] == 100
    assert body["commanders"] == AMIGOS and body["companion"] == "Obosh, the Preypiercer"
    assert body["valid"] is True and body["violations"] == []
