"""The deck cache and the deck sites' budgets (card_data.sites' DeckCache and Limits) in
both backends: files next to the store (one host's processes) and a real redis-server
(every instance), which falls back to this host's files while Redis is down."""

from __future__ import annotations

import os
import time

import pytest

from card_data.coordination.files import SITE_INTERVAL, FileCoordination, FileDeckCache
from card_data.coordination.redis_backend import RedisCoordination


def test_an_entry_lives_its_seconds(tmp_path):
    cache = FileDeckCache(tmp_path / "decks")
    assert cache.get("archidekt:1") is None
    cache.put("archidekt:1", b'{"deck": 1}', 0.3)
    assert cache.get("archidekt:1") == b'{"deck": 1}'
    time.sleep(0.35)
    assert cache.get("archidekt:1") is None


def test_one_fetch_claim_at_a_time_across_cache_objects(tmp_path):
    first, second = FileDeckCache(tmp_path / "decks"), FileDeckCache(tmp_path / "decks")  # two processes' views
    assert first.claim("moxfield:x", 10) is True
    assert second.claim("moxfield:x", 10) is False and first.claim("moxfield:x", 10) is False
    assert second.claim("moxfield:y", 10) is True  # another deck
    first.release("moxfield:x")
    assert second.claim("moxfield:x", 10) is True


def test_expired_entries_are_swept(tmp_path, monkeypatch):
    cache = FileDeckCache(tmp_path / "decks")
    monkeypatch.setattr(FileDeckCache, "PRUNE_SECONDS", 0.0)
    cache.put("archidekt:1", b"{}", 0.01)
    old = time.time() - 60
    for path in (tmp_path / "decks").iterdir():
        os.utime(path, (old, old))
    cache.put("archidekt:2", b"{}", 60)
    assert [path.suffix for path in (tmp_path / "decks").iterdir()] == [".json"]
    assert cache.get("archidekt:2") == b"{}"


def test_an_unwritable_folder_keeps_nothing_and_fails_nothing(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    cache = FileDeckCache(blocked / "decks")
    cache.put("archidekt:1", b"{}", 60)
    assert cache.get("archidekt:1") is None
    assert cache.claim("archidekt:1", 10) is True  # fetch, uncoordinated


def test_each_site_has_its_own_budget_next_to_the_store(tmp_path):
    coordination = FileCoordination(tmp_path / "cards.sqlite3")
    archidekt, moxfield = coordination.site_limits("archidekt"), coordination.site_limits("moxfield")
    assert archidekt is coordination.site_limits("archidekt") and archidekt.interval == SITE_INTERVAL
    assert archidekt.acquire_slot() == 0.0 and moxfield.acquire_slot() == 0.0
    assert archidekt.acquire_slot() > 0  # the same site again, at once: wait
    assert FileCoordination(tmp_path / "cards.sqlite3").site_limits("archidekt").acquire_slot() > 0  # another process
    assert (tmp_path / "cards.sqlite3.archidekt-limits").is_file()


def test_instances_share_decks_claims_and_budgets_through_redis(redis_server, tmp_path):
    one = RedisCoordination(redis_server.url, tmp_path / "a" / "cards.sqlite3")
    two = RedisCoordination(redis_server.url, tmp_path / "b" / "cards.sqlite3")
    try:
        one.deck_cache().put("archidekt:1", '{"name": "Ñoño"}'.encode(), 5)
        assert two.deck_cache().get("archidekt:1") == '{"name": "Ñoño"}'.encode()
        assert one.deck_cache().claim("archidekt:1", 5) is True
        assert two.deck_cache().claim("archidekt:1", 5) is False
        one.deck_cache().release("archidekt:1")
        assert two.deck_cache().claim("archidekt:1", 5) is True
        assert one.site_limits("archidekt").acquire_slot() == 0.0
        assert two.site_limits("archidekt").acquire_slot() > 0  # the cluster's one budget
        assert two.site_limits("moxfield").acquire_slot() == 0.0
        assert one.limits.acquire_slot() == 0.0  # Scryfall's is another budget
    finally:
        one.close()
        two.close()


def test_the_deck_cache_falls_back_to_files_while_redis_is_down(redis_server, tmp_path):
    coordination = RedisCoordination(redis_server.url, tmp_path / "cards.sqlite3")
    try:
        redis_server.stop()
        cache = coordination.deck_cache()
        cache.put("moxfield:x", b'{"a": 1}', 5)
        assert cache.get("moxfield:x") == b'{"a": 1}'  # this host's folder
        assert cache.claim("moxfield:x", 5) is True and cache.claim("moxfield:x", 5) is False
        cache.release("moxfield:x")
        assert cache.claim("moxfield:x", 5) is True
        assert (tmp_path / "cards.sqlite3.deck-cache").is_dir()
    finally:
        coordination.close()
