"""The formats through the API on the real, dated data of ../shared/carddata/formats (see its
README): a store imported from the real Scryfall objects with every legality key
(scryfall-legalities-sample.jsonl, 2025-2026), and the real PDH commander list
(pauper_commander.json's isPauperCommander names, 5,624) loaded as PAUPER_COMMANDERS_FILE.
Skipped cleanly when ../shared is absent."""

from __future__ import annotations

import json

import pytest

from card_data import BracketSources
from card_data.sync import import_file
from tests.conftest import SHARED
from tests.support.apps import offline_app
from tests.support.format_store import format_deck as deck

DATA = SHARED / "carddata" / "formats"
SAMPLE = DATA / "scryfall-legalities-sample.jsonl"
PDH = DATA / "pauper_commander.json"
pytestmark = pytest.mark.skipif(not (SAMPLE.is_file() and PDH.is_file()), reason="../shared/carddata/formats is absent")
DELVER = "Delver of Secrets // Insectile Aberration"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """The service over the real sample, with the real PDH list from a file."""
    folder = tmp_path_factory.mktemp("real-formats")
    names = [row["name"] for row in json.loads(PDH.read_text(encoding="utf-8")) if row["isPauperCommander"]]
    listed = folder / "pauper-commanders.txt"
    listed.write_text("# pauper_commander.json, isPauperCommander\n" + "\n".join(names) + "\n", encoding="utf-8")
    db = folder / "cards.sqlite3"
    import_file(db, SAMPLE, updated_at="2026-08-23T00:00:00+00:00",
                brackets=BracketSources(api_url="http://127.0.0.1:9", pauper_commanders_file=str(listed)))
    return offline_app(db).test_client()


def errors(client, text: str, key: str, **fields) -> set[tuple[str, tuple[str, ...]]]:
    """(code, cards) of every error of the list judged in `key`."""
    body = client.post("/api/v1/validate", json={"decklist": text, "format": key, **fields}).get_json()
    assert body["format"] == key
    return {(v["code"], tuple(v["cards"])) for v in body["violations"] if v["severity"] == "error"}


def test_the_real_pdh_list_is_loaded(client):
    sources = client.get("/api/v1/formats").get_json()["sources"]
    assert sources["pauper_commanders"]["entries"] == 5624
    assert sources["legalities"]["updated_at"] == "2026-08-23T00:00:00+00:00"


def test_duel_real_role_ban_and_bans(client):
    tamiyo = "Tamiyo, Inquisitive Student // Tamiyo, Seasoned Scholar"  # duel: restricted
    assert errors(client, deck([tamiyo]), "duel") == {("banned_as_commander", (tamiyo,))}
    assert errors(client, deck([tamiyo]), "commander") == set()
    glarb = "Glarb, Calamity's Augur"  # duel: Reanimate banned, Tamiyo legal in the 99
    found = errors(client, deck([glarb], tamiyo, "Reanimate", "Dig Through Time"), "duel")
    assert found == {("banned", ("Reanimate",)), ("banned", ("Dig Through Time",))}


def test_brawl_real_planeswalker_commander_and_bans(client):
    jace = "Jace, the Perfected Mind"
    assert errors(client, deck([jace], "Brainstorm"), "brawl") == set()
    found = errors(client, deck([jace], "Mana Drain", "Cunning Wish"), "brawl")
    assert found == {("banned", ("Mana Drain",)), ("not_legal", ("Cunning Wish",))}
    assert ("commander_ineligible", (jace,)) in errors(client, deck([jace]), "commander")


def test_oathbreaker_real(client):
    narset = "Narset, Parter of Veils"
    text = deck([narset], size=59) + "\nSignature Spell\n1 Brainstorm\n"
    assert errors(client, text, "oathbreaker") == set()
    assert errors(client, deck([narset], size=60), "oathbreaker") == {("signature_spell", (narset,))}


def test_pauper_commander_real_list_and_key(client):
    text = deck([DELVER], "Brainstorm", "Memory Lapse", "Spell Pierce", "Mystic Sanctuary")
    assert errors(client, text, "paupercommander") == set()
    found = errors(client, deck([DELVER], "Mystic Remora", "Snapcaster Mage"), "paupercommander")
    assert found == {("banned", ("Mystic Remora",)), ("not_legal", ("Snapcaster Mage",))}
    jace = "Jace, the Mind Sculptor"  # not on the list
    assert ("commander_ineligible", (jace,)) in errors(client, deck([jace]), "paupercommander")


def test_predh_real_pool(client):
    atraxa = "Atraxa, Grand Unifier"  # 2023: past New Phyrexia, commander or not
    found = errors(client, deck([atraxa], "Snapcaster Mage", "Brainstorm", "Swords to Plowshares"), "predh")
    assert found == {("not_legal", (atraxa,)), ("not_legal", ("Snapcaster Mage",))}
    assert errors(client, deck([atraxa], "Snapcaster Mage", "Brainstorm"), "commander") == set()


def test_every_format_of_a_real_list(client):
    text = deck([DELVER], "Brainstorm")
    body = client.post("/api/v1/validate", json={"decklist": text, "include": ["formats"]}).get_json()
    assert body["formats"]["paupercommander"] == {"valid": True, "status": "legal", "codes": []}  # every key known
    assert body["formats"]["commander"]["codes"] == ["commander_ineligible"]  # not legendary
