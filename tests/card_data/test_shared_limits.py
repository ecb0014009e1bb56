"""Scryfall's limits hold across processes that share a store (gunicorn workers, CLI, sync)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from card_data import CardDataUnavailable
from card_data.client import RateLimits, ScryfallClient
from tests.waiting import run_in_threads

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def client_for(server, limits_path) -> ScryfallClient:
    """A client whose budget lives in the file at limits_path, as open_repository sets it up."""
    return ScryfallClient(server.base_url, backoff=0, timeout=(1.0, 1.0), limits=RateLimits(limits_path))


def test_two_clients_sharing_a_limits_file_share_one_budget(scryfall_server, tmp_path):
    path = tmp_path / "cards.sqlite3.scryfall-limits"
    clients = [client_for(scryfall_server, path) for _ in range(2)]
    run_in_threads([lambda c=client: c.fetch_collection(["Sol Ring"]) for client in clients for _ in range(2)])
    times = scryfall_server.collection_times()
    assert len(times) == 4
    assert all(later - earlier >= 0.45 for earlier, later in zip(times, times[1:]))


def test_a_429_seen_by_one_client_locks_out_the_other(scryfall_server, tmp_path):
    path = tmp_path / "limits"
    first, second = client_for(scryfall_server, path), client_for(scryfall_server, path)
    scryfall_server.fail_next = [429]
    with pytest.raises(CardDataUnavailable):
        first.fetch_collection(["Sol Ring"])
    with pytest.raises(CardDataUnavailable) as raised:
        second.fetch_collection(["Sol Ring"])
    assert 0 < raised.value.retry_after <= 30
    assert len(scryfall_server.requests) == 1  # the second client sent nothing


def test_separate_processes_share_the_budget(scryfall_server, tmp_path):
    path = tmp_path / "limits"
    script = (
        "import sys; from card_data.client import RateLimits, ScryfallClient;"
        "c = ScryfallClient(sys.argv[1], backoff=0, limits=RateLimits(sys.argv[2]));"
        "c.fetch_collection(['Sol Ring']); c.fetch_collection(['Counterspell'])"
    )
    processes = [
        subprocess.Popen([sys.executable, "-c", script, scryfall_server.base_url, str(path)], cwd=ROOT)
        for _ in range(2)
    ]
    assert [p.wait(timeout=30) for p in processes] == [0, 0]
    times = scryfall_server.collection_times()
    assert len(times) == 4
    assert all(later - earlier >= 0.45 for earlier, later in zip(times, times[1:]))


def test_an_unwritable_limits_path_falls_back_to_this_process(scryfall_server, tmp_path):
    client = client_for(scryfall_server, tmp_path / "missing-folder" / "limits")
    client.fetch_collection(["Sol Ring"])
    client.fetch_collection(["Counterspell"])
    times = scryfall_server.collection_times()
    assert len(times) == 2 and times[1] - times[0] >= 0.45
