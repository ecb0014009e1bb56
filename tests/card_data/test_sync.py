"""Bulk sync through the local server, and import from local files."""

from __future__ import annotations

import gzip
import json
import os

import pytest

from card_data import CardDataError, CardDataUnavailable, open_repository

from card_data.settings import StoreSettings
from card_data.scryfall.client import ScryfallClient
from card_data.store.cards import read_metadata
from card_data.scryfall.records import records
from card_data.sync import import_file, sync
from tests.support.scryfall_server import FIXTURES

FIXTURE_CARDS = 98


@pytest.fixture
def scryfall_client(scryfall_server):
    """A client without retry backoff."""
    return ScryfallClient(scryfall_server.base_url, backoff=0, timeout=(1.0, 2.0))


def resolved_name(db, name):
    """The canonical name a fresh offline repository resolves name to."""
    return open_repository(StoreSettings(db, offline=True)).resolve([name]).cards[name].name


@pytest.mark.parametrize(("offer", "content_encoding", "download"), [
    ("jsonl", False, "/files/oracle-cards.jsonl.gz"),
    ("jsonl", True, "/files/oracle-cards.jsonl.gz"),  # requests must not un-gzip behind our back
    ("both", False, "/files/oracle-cards.jsonl.gz"),  # JSON Lines preferred when both are offered
    ("json", False, "/files/oracle-cards.json"),  # the old JSON array, only when it is all there is
])
def test_sync_builds_the_store(tmp_path, scryfall_client, scryfall_server, offer, content_encoding, download):
    scryfall_server.offer, scryfall_server.content_encoding = offer, content_encoding
    db = tmp_path / "instance" / "cards.sqlite3"
    result = sync(StoreSettings(db), client=scryfall_client)
    assert (result.status, result.metadata.cards, result.metadata.source) == ("updated", FIXTURE_CARDS, "scryfall")
    assert read_metadata(db).updated_at == scryfall_server.updated_at
    assert scryfall_server.paths() == ["/bulk-data/oracle-cards", download]
    assert {r.headers["User-Agent"] for r in scryfall_server.requests} == {scryfall_client.session.headers["User-Agent"]}
    assert resolved_name(db, "Nazgul") == "Nazgûl"
    assert [p.name for p in db.parent.iterdir()] == ["cards.sqlite3"]  # no temporary file left


def test_unchanged_updated_at_skips_the_download(tmp_path, scryfall_client, scryfall_server):
    db = tmp_path / "cards.sqlite3"
    sync(StoreSettings(db), client=scryfall_client)
    inode = os.stat(db).st_ino
    result = sync(StoreSettings(db), client=scryfall_client)
    assert result.status == "unchanged"
    assert scryfall_server.paths().count("/files/oracle-cards.jsonl.gz") == 1
    assert os.stat(db).st_ino == inode


def test_older_updated_at_skips_and_force_downloads(tmp_path, scryfall_client, scryfall_server):
    db = tmp_path / "cards.sqlite3"
    sync(StoreSettings(db), client=scryfall_client)
    scryfall_server.updated_at = "2026-01-01T00:00:00.000+00:00"
    assert sync(StoreSettings(db), client=scryfall_client).status == "unchanged"
    assert sync(StoreSettings(db), client=scryfall_client, force=True).status == "updated"


def test_newer_updated_at_swaps_the_store(tmp_path, scryfall_client, scryfall_server):
    db = tmp_path / "cards.sqlite3"
    sync(StoreSettings(db), client=scryfall_client)
    reader = open_repository(StoreSettings(db, offline=True))
    assert "Cyclonic Rift" in reader.resolve(["Cyclonic Rift"]).suggestions
    scryfall_server.cards.append(scryfall_server.extra_cards[0])
    scryfall_server.updated_at = "2026-12-01T10:00:00.000+00:00"
    assert sync(StoreSettings(db), client=scryfall_client).metadata.cards == FIXTURE_CARDS + 1
    assert reader.resolve(["Cyclonic Rift"]).cards["Cyclonic Rift"].name == "Cyclonic Rift"


@pytest.mark.parametrize(("fault", "setting", "message"), [
    ("truncate", "gzip", "truncated"),  # a cut file with an honest Content-Length
    ("truncate", "short", "broke off"),  # the connection drops before Content-Length is reached
    ("malformed_line", True, "malformed card data on line"),
])
def test_broken_download_leaves_the_old_store_untouched(tmp_path, scryfall_client, scryfall_server, fault, setting, message):
    db = tmp_path / "cards.sqlite3"
    import_file(db, FIXTURES / "cards.jsonl", updated_at="2026-01-01T00:00:00+00:00")
    before = (os.stat(db).st_ino, read_metadata(db))
    setattr(scryfall_server, fault, setting)
    with pytest.raises(CardDataError, match=message):
        sync(StoreSettings(db), client=scryfall_client)
    assert (os.stat(db).st_ino, read_metadata(db)) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.sqlite3"]


def test_rate_limited_bulk_request_is_unavailable(tmp_path, scryfall_client, scryfall_server):
    scryfall_server.fail_next = [429]
    with pytest.raises(CardDataUnavailable):
        sync(StoreSettings(tmp_path / "cards.sqlite3"), client=scryfall_client)
    assert not (tmp_path / "cards.sqlite3").exists()


def test_server_errors_are_retried_during_sync(tmp_path, scryfall_client, scryfall_server):
    scryfall_server.fail_next = [502, 500]
    assert sync(StoreSettings(tmp_path / "cards.sqlite3"), client=scryfall_client).status == "updated"


def test_bulk_object_without_download_uri_is_an_error(tmp_path, scryfall_client, scryfall_server):
    scryfall_server.offer = "none"
    with pytest.raises(CardDataError, match="no download URI"):
        sync(StoreSettings(tmp_path / "cards.sqlite3"), client=scryfall_client)


# -- import_file ----------------------------------------------------------------------------


def write_bulk(path, cards, *, array=False):
    """Write cards as JSON Lines or a JSON array, gzipped when the name ends in .gz."""
    text = json.dumps(cards) if array else "\n".join(json.dumps(card) for card in cards) + "\n"
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
    return path


@pytest.mark.parametrize(("file_name", "array"), [
    ("cards.jsonl.gz", False), ("cards.jsonl", False), ("cards.json", True), ("cards.json.gz", True),
])
def test_import_file_formats(tmp_path, scryfall_server, file_name, array):
    source = write_bulk(tmp_path / file_name, scryfall_server.cards, array=array)
    db = tmp_path / "cards.sqlite3"
    result = import_file(db, source, updated_at="2026-11-02T00:00:00+00:00")
    assert (result.metadata.cards, result.metadata.source) == (FIXTURE_CARDS, f"file:{file_name}")
    assert resolved_name(db, "fire/ice") == "Fire // Ice"


def test_import_reads_updated_at_from_bulk_data_json_beside_the_file(tmp_path, scryfall_server):
    source = write_bulk(tmp_path / "oracle-cards.jsonl.gz", scryfall_server.cards)
    (tmp_path / "bulk-data.json").write_text(json.dumps({"updated_at": "2025-09-25T09:00:00.000+00:00"}))
    assert import_file(tmp_path / "cards.sqlite3", source).metadata.updated_at == "2025-09-25T09:00:00.000+00:00"


@pytest.mark.parametrize(("content", "message"), [
    (b"", "empty"),
    (b'{"object": "card", "name": "Sol Ring"}\nnot json\n', "line 2"),
    (b'[{"object": "card", "name": "Sol Ring"}, {"broken', "malformed"),
    (b"[1, 2]", "not a JSON object"),
    (b'{"object": "list"}\n', "no cards"),
    (b"\x1f\x8b\x08\x00garbage", "gzip"),
])
def test_import_refuses_bad_files(tmp_path, content, message):
    source = tmp_path / "bad.jsonl"
    source.write_bytes(content)
    with pytest.raises(CardDataError, match=message):
        import_file(tmp_path / "cards.sqlite3", source, updated_at="2026-11-02T00:00:00+00:00")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl"]


def test_import_missing_file(tmp_path):
    with pytest.raises(CardDataError, match="no such card data file"):
        import_file(tmp_path / "cards.sqlite3", tmp_path / "absent.jsonl.gz")


# -- the streaming decoder ------------------------------------------------------------------


def tiny_chunks(data: bytes, size: int = 7):
    """data in very small chunks, so objects and gzip members straddle chunk borders."""
    return (data[i:i + size] for i in range(0, len(data), size))


@pytest.mark.parametrize("array", [False, True])
@pytest.mark.parametrize("layers", [0, 1, 2])  # plain, gzip, gzip inside gzip (C-E on a .gz)
def test_records_stream_any_shape(array, layers):
    cards = [{"object": "card", "name": f"Card {i} ✓"} for i in range(50)]
    data = (json.dumps(cards) if array else "\n".join(map(json.dumps, cards))).encode()
    for _ in range(layers):
        data = gzip.compress(data)
    assert [record["name"] for record in records(tiny_chunks(data))] == [card["name"] for card in cards]


def test_records_read_multi_member_gzip():
    data = gzip.compress(b'{"name": "A"}\n') + gzip.compress(b'{"name": "B"}\n')
    assert [record["name"] for record in records(tiny_chunks(data, 5))] == ["A", "B"]
