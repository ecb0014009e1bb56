"""The other way round (DESIGN.md "Answers in the player's language"): an English card's
printed name in one language, for messages in that language (CardRepository.printed_names):
batched through the names table's by-card index, one name a card chosen the same way every
time, English for what the table lacks; the index in every store that has the table, old
stores included once written. Over the fixture store with tests/fixtures/names/ loaded, and
the real Time Spiral names (skipped without ../shared)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from card_data.convert import clean_name
from card_data.names import sync as names_sync
from card_data.repository import open_repository
from card_data.settings import StoreSettings
from card_data.store import names_table
from card_data.sync import import_file
from tests.support.factories import PRINTED_NAMES, load_card_names
from tests.support.foreign_names import real_names_store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def names_db(fixture_db):
    load_card_names(fixture_db)
    return fixture_db


def repository(db, languages=None):
    return open_repository(StoreSettings(db, offline=True, name_languages=languages))


def test_english_names_come_back_printed_in_the_language_asked(names_db):
    shown = repository(names_db).printed_names(["Counterspell", "Swords to Plowshares", "Sol Ring", "Forest"], "de")
    assert shown == {"Counterspell": "Gegenzauber", "Swords to Plowshares": "Schwerter zu Pflugscharen",
                     "Sol Ring": "Sol-Ring"}
    assert repository(names_db).printed_names(["Counterspell"], "ja") == {"Counterspell": "対抗呪文"}
    assert repository(names_db).printed_names(["Counterspell"], "ko") == {}  # none in Korean: stays English


def test_english_and_an_empty_batch_ask_nothing(names_db):
    assert repository(names_db).printed_names(["Counterspell"], "en") == {}
    assert repository(names_db).printed_names([], "es") == {}
    assert repository(names_db, languages=()).printed_names(["Counterspell"], "es") == {}  # the table is off


def test_a_card_with_faces_is_named_with_both_faces(names_db):
    shown = repository(names_db).printed_names(["Fire // Ice", "Esika, God of the Tree // The Prismatic Bridge"], "ja")
    assert shown == {"Esika, God of the Tree // The Prismatic Bridge": "樹の神、エシカ // プリズムの橋"}
    assert repository(names_db).printed_names(["Fire // Ice"], "es") == {"Fire // Ice": "Fuego // Hielo"}


def test_several_printed_names_in_one_language_give_one_the_same_way_every_time(names_db, tmp_path):
    reprint = tmp_path / "reprint.jsonl"
    reprint.write_text(json.dumps({"object": "card", "name": "Counterspell", "lang": "de",
                                   "printed_name": "Aaa Gegenzauber"}) + "\n", encoding="utf-8")
    names_sync.import_names(names_db, FIXTURES / PRINTED_NAMES, reprint)
    first = repository(names_db).printed_names(["Counterspell"], "de")
    assert first == repository(names_db).printed_names(["Counterspell"], "de") == {"Counterspell": "Aaa Gegenzauber"}


def test_the_look_up_goes_through_the_by_card_index(names_db):
    with closing(sqlite3.connect(names_db)) as conn:
        assert names_table.indexed(conn)
        plan = conn.execute("EXPLAIN QUERY PLAN " + names_table.PRINTED_OF.format(marks="?,?"),
                            ["es", "counterspell", "solring"]).fetchall()
    assert any("printed_names_by_card" in row[-1] for row in plan), plan


def test_a_store_from_before_the_index_gets_it_when_next_written(names_db):
    with closing(sqlite3.connect(names_db)) as conn:
        conn.execute("DROP INDEX printed_names_by_card")
        conn.commit()
    # read-only readers still answer (through the table), and the index comes back with a write
    assert repository(names_db).printed_names(["Counterspell"], "es") == {"Counterspell": "Contrahechizo"}
    names_table.record_checked(names_db)
    with closing(sqlite3.connect(names_db)) as conn:
        assert names_table.indexed(conn)


def test_a_new_store_file_keeps_the_index(names_db, tmp_path):
    new = tmp_path / "new.sqlite3"
    import_file(new, FIXTURES / "cards.jsonl")
    names_table.carry_over(names_db, new)
    with closing(sqlite3.connect(new)) as conn:
        assert names_table.indexed(conn)


def test_the_real_time_spiral_names_come_back_in_each_language(shared_dir, tmp_path):
    db, tsp, _ = real_names_store(shared_dir, tmp_path)
    codes = {"German": "de", "Spanish": "es", "French": "fr", "Italian": "it", "Japanese": "ja",
             "Portuguese (Brazil)": "pt", "Russian": "ru", "Chinese Simplified": "zhs"}
    cards = {card["name"]: card for card in tsp["data"]["cards"] if card["name"] != "Island"}
    english = sorted(cards)
    for language, code in codes.items():
        shown = repository(db).printed_names(english, code)
        for name in english:
            # as the table keeps a printed name: tidied (straight quotes, single spaces...)
            printed = {clean_name(entry["name"]) for entry in cards[name]["foreignData"] if entry["language"] == language}
            if name in shown:
                assert shown[name] in printed, (name, code)
        assert len(shown) > len(english) * 0.8, code
