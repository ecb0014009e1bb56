"""The table of names printed in other languages is bounded: objects with more faces (or
foreignData entries) than a card has give no names, and a file writing more rows than every
printing in every language is refused, the last table kept (a hostile names file of 39 MB
wrote 1.4 million names and grew the store from 22 to 95 MB)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_data.names import sync as names_sync, printed as printed_names
from card_data.store import names_table
from card_data.errors import CardDataError

FIXTURE_NAMES = Path(__file__).parents[1] / "fixtures" / "names" / "printed-names.jsonl"


def write_jsonl(path, objects) -> str:
    path.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in objects))
    return str(path)


def test_an_object_with_more_faces_than_a_card_gives_no_names():
    many = {"object": "card", "name": "Fire // Ice", "lang": "es",
            "card_faces": [{"name": "Fire", "printed_name": f"Fuego {n}"} for n in range(10_000)]}
    assert printed_names.scryfall_rows(many) == []
    two = {**many, "card_faces": many["card_faces"][:2]}
    assert len(printed_names.scryfall_rows(two)) == 6  # each face and the join, two tiers each
    foreign = {"name": "Counterspell", "foreignData": [{"language": "Spanish", "name": f"Contrahechizo {n}"}
                                                        for n in range(printed_names.MAX_FOREIGN_ENTRIES + 1)]}
    assert printed_names.mtgjson_rows(foreign) == []
    foreign["foreignData"] = foreign["foreignData"][:printed_names.MAX_FOREIGN_ENTRIES]
    assert len(printed_names.mtgjson_rows(foreign)) == 2 * printed_names.MAX_FOREIGN_ENTRIES


def test_a_file_of_objects_with_thousands_of_faces_is_refused_and_the_last_table_stays(fixture_db, tmp_path):
    names_sync.import_names(fixture_db, FIXTURE_NAMES)
    before = names_table.read_status(fixture_db)
    hostile = write_jsonl(tmp_path / "faces.jsonl", (
        {"object": "card", "name": "Fire // Ice", "lang": "es",
         "card_faces": [{"name": "Fire", "printed_name": f"Fuego {i}-{n}"} for n in range(2_000)]}
        for i in range(100)))  # 200,000 names before the bound
    with pytest.raises(CardDataError, match="no card names"):
        names_sync.import_names(fixture_db, hostile)
    assert names_table.read_status(fixture_db).names == before.names > 0


def test_a_file_over_the_row_bound_is_refused_and_the_last_table_stays(fixture_db, tmp_path, monkeypatch):
    """At a bound of 10,000 rows (the real one, 2,000,000, holds four times Scryfall's every
    printing: the same check, a file a test can write)."""
    names_sync.import_names(fixture_db, FIXTURE_NAMES)
    before = names_table.read_status(fixture_db)
    monkeypatch.setattr(names_table, "MAX_ROWS", 10_000)
    hostile = write_jsonl(tmp_path / "many.jsonl", ({"object": "card", "name": "Sol Ring", "lang": "es",
                                                     "printed_name": f"Anillo solar {n}"} for n in range(6_000)))
    with pytest.raises(CardDataError, match="over 5,000 printed names"):
        names_sync.import_names(fixture_db, hostile)
    after = names_table.read_status(fixture_db)
    assert (after.names, after.updated_at) == (before.names, before.updated_at)
    assert not list(tmp_path.glob(".*.names"))  # the half-written file is gone
