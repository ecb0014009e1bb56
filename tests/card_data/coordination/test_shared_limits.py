"""Scryfall's limits hold across processes that share a store (gunicorn workers, CLI, sync)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from card_data import CardDataUnavailable
from card_data.scryfall.client import ScryfallClient
from card_data.coordination.files import RateLimits
from tests.support.spacing import RecordedLimits, assert_spaced
from tests.support.waiting import run_in_threads

ROOT = __import__("pathlib").Path(__file__).resolve().parents[3]


def client_for(server, limits_path, starts: list[float] | None = None) -> ScryfallClient:
    """A client whose budget lives in the file at limits_path, as open_repository sets it up;
    its claims are noted in `starts` (tests/support/spacing.py). The read timeout is generous: the
    local server answering late on a loaded machine is no failure of the budget."""
    return ScryfallClient(server.base_url, backoff=0, timeout=(5.0, 10.0), limits=RecordedLimits(RateLimits(limits_path), starts))


def test_two_clients_sharing_a_limits_file_share_one_budget(scryfall_server, tmp_path):
    path = tmp_path / "cards.sqlite3.scryfall-limits"
    starts: list[float] = []
    clients = [client_for(scryfall_server, path, starts) for _ in range(2)]
    run_in_threads([lambda c=client: c.fetch_collection(["Sol Ring"]) for client in clients for _ in range(2)])
    times = scryfall_server.collection_times()
    assert len(times) == 4
    assert_spaced(starts, times)


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
    script = (  # each process prints when its claims began (time.monotonic is one clock machine-wide)
        "import json, sys; from card_data.scryfall.client import ScryfallClient; from card_data.coordination.files import RateLimits; from tests.support.spacing import RecordedLimits;"
        "limits = RecordedLimits(RateLimits(sys.argv[2])); c = ScryfallClient(sys.argv[1], backoff=0, limits=limits);"
        "c.fetch_collection(['Sol Ring']); c.fetch_collection(['Counterspell']); print(json.dumps(limits.starts))"
    )
    processes = [
        subprocess.Popen([sys.executable, "-c", script, scryfall_server.base_url, str(path)], cwd=ROOT,
                         stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=60)[0] for p in processes]
    assert [p.returncode for p in processes] == [0, 0]
    times = scryfall_server.collection_times()
    assert len(times) == 4
    assert_spaced([start for output in outputs for start in json.loads(output)], times)


def test_an_unwritable_limits_path_falls_back_to_this_process(scryfall_server, tmp_path):
    client = client_for(scryfall_server, tmp_path / "missing-folder" / "limits")
    client.fetch_collection(["Sol Ring"])
    client.fetch_collection(["Counterspell"])
    times = scryfall_server.collection_times()
    assert len(times) == 2
    assert_spaced(client.limits.starts, times)
