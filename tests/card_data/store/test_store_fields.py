"""The store keeps produced_mana and the preview images, and a store built before still loads."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

from card_data import open_repository

from card_data.settings import StoreSettings
from card_data.store.cards import CardStore
from card_data.sync import import_file
from tests.support.factories import deck
from validator.overview import overview

NOWHERE = "http://127.0.0.1:9"
IMAGE = "https://cards.scryfall.io/normal/front/1/2/12.jpg"
RECORDS = [
    {"object": "card", "name": "Breeding Pool", "layout": "normal", "cmc": 0.0, "type_line": "Land — Forest Island",
     "oracle_text": "({T}: Add {G} or {U}.)", "produced_mana": ["G", "U"], "legalities": {"commander": "legal"},
     "image_uris": {"small": IMAGE.replace("normal", "small"), "normal": IMAGE, "png": "https://x/p.png"}},
    {"object": "card", "name": "Cultivate", "layout": "normal", "mana_cost": "{2}{G}", "cmc": 3.0,
     "type_line": "Sorcery", "oracle_text": "Search your library...", "legalities": {"commander": "legal"}},
]


def test_a_new_store_keeps_produced_mana_and_preview_images(tmp_path):
    bulk = tmp_path / "cards.jsonl"
    bulk.write_text("\n".join(map(json.dumps, RECORDS)))
    db = tmp_path / "cards.sqlite3"
    import_file(db, bulk, updated_at="2026-11-01T00:00:00+00:00")
    snapshot = CardStore(db).snapshot()
    assert snapshot.lookup(["breeding pool"])["breeding pool"].produced_mana == frozenset("GU")
    assert snapshot.record("breeding pool")["image_uris"] == {"small": IMAGE.replace("normal", "small"),
                                                              "normal": IMAGE}
    with closing(sqlite3.connect(db)) as conn:
        assert dict(conn.execute("SELECT key, value FROM meta"))["schema"] == "2"


def test_a_store_built_before_loads_and_its_lands_still_count(fixture_db):
    """The fixture store's cards have no produced_mana (as a version-1 store's): lands are
    then read from their type and text, so the overview's color balance still holds."""
    with closing(sqlite3.connect(fixture_db)) as conn, conn:
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
        assert "produced_mana" not in conn.execute("SELECT data FROM cards WHERE name = 'Forest'").fetchone()[0]
    repository = open_repository(StoreSettings(fixture_db, api_url=NOWHERE, offline=True))
    cards = repository.resolve(["Forest", "Command Tower", "Atraxa, Praetors' Voice"]).cards
    assert cards["Forest"].produced_mana == frozenset()
    numbers = overview(deck(cards["Atraxa, Praetors' Voice"], main={cards["Forest"]: 30, cards["Command Tower"]: 1}))
    # Command Tower, read from its text, makes Atraxa's colors (WUBG), not red
    assert dict(numbers.land_sources) == {"W": 1, "U": 1, "B": 1, "R": 0, "G": 31, "C": 0}
    assert dict(numbers.cost_symbols) == {"W": 1, "U": 1, "B": 1, "R": 0, "G": 1, "C": 0}
