"""The SQLite store: its errors leave it only as CardDataError, through one translation point."""

from __future__ import annotations

import sqlite3

import pytest

from card_data import CardDataError, CardStore
from card_data.store.cards import StoreBuilder, read_metadata, sqlite_errors


def test_sqlite_errors_become_card_data_errors_naming_the_action():
    with pytest.raises(CardDataError, match=r"^cannot read the card store: boom$") as caught:
        with sqlite_errors("read the card store"):
            raise sqlite3.OperationalError("boom")
    assert isinstance(caught.value.__cause__, sqlite3.OperationalError)


def test_other_errors_pass_through_untouched():
    with pytest.raises(KeyError):
        with sqlite_errors("read the card store"):
            raise KeyError("source")


def test_a_file_that_is_no_database_is_a_card_data_error(tmp_path):
    path = tmp_path / "cards.sqlite3"
    path.write_bytes(b"this is not SQLite" * 100)
    with pytest.raises(CardDataError, match="cannot open the card store") as caught:
        CardStore(path).snapshot()
    assert isinstance(caught.value.__cause__, sqlite3.DatabaseError)
    assert read_metadata(path) is None  # a broken file reads as "no store": a sync replaces it
    assert CardStore(path).metadata() is None


def test_a_store_that_cannot_be_created_is_a_card_data_error(tmp_path):
    with pytest.raises(CardDataError, match="cannot create card store"):
        StoreBuilder(tmp_path / "missing-folder" / "cards.sqlite3")
