"""Card data across instances (docs/deployment.md): the syncing instance leaves the
bulk file in a shared folder and publishes it in Redis; the others build their own store
from it without downloading it again."""

from __future__ import annotations

import pytest

from card_data import CardDataError

from card_data.settings import StoreSettings
from card_data.store.cards import read_metadata
from card_data.sync import adopt, sync

DOWNLOAD = "/files/oracle-cards.jsonl.gz"


def test_one_download_serves_every_instance(redis_server, scryfall_server, tmp_path):
    shared = tmp_path / "shared"
    options = {"redis_url": redis_server.url, "shared_dir": shared}
    first, second, third = (tmp_path / name / "cards.sqlite3" for name in ("a", "b", "c"))
    assert adopt(StoreSettings(second, **options)) is None  # nothing published yet

    result = sync(StoreSettings(first, api_url=scryfall_server.base_url, **options))
    assert result.status == "updated" and result.metadata.cards == len(scryfall_server.cards)
    assert scryfall_server.paths("GET").count(DOWNLOAD) == 1
    assert [p.name for p in shared.iterdir()] == ["oracle-cards-20261130T100421.000000Z.bulk"]

    adopted = adopt(StoreSettings(second, **options))  # an instance without the lock: no request to Scryfall at all
    assert adopted.status == "updated"
    assert read_metadata(second) == read_metadata(first)
    assert adopt(StoreSettings(second, **options)) is None  # already current
    assert len(scryfall_server.requests) == 2  # the first sync's bulk object and download

    # An instance syncing from scratch asks whether there is something newer, then uses the shared file.
    assert sync(StoreSettings(third, api_url=scryfall_server.base_url, **options)).metadata == read_metadata(first)
    assert scryfall_server.paths("GET").count(DOWNLOAD) == 1

    # A newer file on Scryfall is downloaded once more, published, and adopted.
    scryfall_server.updated_at = "2026-12-01T10:00:00.000+00:00"
    assert sync(StoreSettings(first, api_url=scryfall_server.base_url, **options)).metadata.updated_at == scryfall_server.updated_at
    assert scryfall_server.paths("GET").count(DOWNLOAD) == 2
    assert adopt(StoreSettings(second, **options)).metadata.updated_at == scryfall_server.updated_at


def test_a_broken_download_publishes_nothing(redis_server, scryfall_server, tmp_path):
    shared = tmp_path / "shared"
    options = {"redis_url": redis_server.url, "shared_dir": shared}
    scryfall_server.truncate = "gzip"
    with pytest.raises(CardDataError):
        sync(StoreSettings(tmp_path / "a" / "cards.sqlite3", api_url=scryfall_server.base_url, **options))
    assert list(shared.iterdir()) == []  # the partial copy is gone
    assert adopt(StoreSettings(tmp_path / "b" / "cards.sqlite3", **options)) is None
    assert read_metadata(tmp_path / "b" / "cards.sqlite3") is None


def test_without_redis_nothing_is_shared(scryfall_server, tmp_path):
    result = sync(StoreSettings(tmp_path / "a" / "cards.sqlite3", api_url=scryfall_server.base_url, shared_dir=tmp_path / "shared"))
    assert result.status == "updated"
    assert not (tmp_path / "shared").exists()  # one host: the store file itself is shared
    assert adopt(StoreSettings(tmp_path / "b" / "cards.sqlite3", shared_dir=tmp_path / "shared")) is None
