"""A card data swap while the service is under load (card_extension.py reopens the store a
sync swapped in): no errors, every response wholly from one store version, the new data
served after the swap; two gunicorn workers share one store file safely.

The two versions differ in a way a response shows: in version A Mana Crypt is banned and
Sol Ring legal, in version B the other way round, and each has its own updated_at. A
response whose banned card and updated_at disagree mixed two versions."""

from __future__ import annotations

import json
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from card_data.sync import import_file
from tests.conftest import ROOT
from tests.support.apps import offline_app
from tests.support.live_http import NORMAL_DECK, VALIDATE, gunicorn, http_json
from tests.support.waiting import wait_for

VERSIONS = {  # updated_at -> the card banned in that version
    "2026-12-01T00:00:00+00:00": "Mana Crypt",
    "2026-12-02T00:00:00+00:00": "Sol Ring",
}
A, B = VERSIONS


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> dict[str, Path]:
    """Bulk files for the two versions, from tests/fixtures/cards.jsonl."""
    folder = tmp_path_factory.mktemp("versions")
    records = [json.loads(line) for line in (ROOT / "tests/fixtures/cards.jsonl").read_text().splitlines() if line]
    files = {}
    for updated_at, banned in VERSIONS.items():
        for record in records:
            if record["name"] in VERSIONS.values():
                record["legalities"] = {**record["legalities"], "commander": "banned" if record["name"] == banned else "legal"}
        files[updated_at] = folder / f"{banned.replace(' ', '-')}.jsonl"
        files[updated_at].write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return files


def version_of(report: dict) -> str:
    """The store version a validate response came from; fails when it mixes two."""
    banned = {card for v in report["violations"] if v["code"] == "banned" for card in v["cards"]}
    updated_at = report["card_data"]["updated_at"]
    assert updated_at in VERSIONS, updated_at
    assert banned == {VERSIONS[updated_at]}, f"mixed versions: {updated_at} but banned {banned}"
    return updated_at


def answered_after(seen: list[str], count: int, futures: list[Future]) -> None:
    """Wait until `count` more answers are in `seen` than now, however long load on the
    machine makes that (with one more than the hammering threads, the last was asked after
    now), or until a hammering thread ended (its failure is raised by its future)."""
    mark = len(seen)
    assert wait_for(lambda: len(seen) >= mark + count or any(f.done() for f in futures), timeout=60), \
        f"{len(seen) - mark} answers of {count}"


def swap(db: Path, sources: dict[str, Path], updated_at: str) -> None:
    """Build a version into a new file and swap it in over the live store."""
    import_file(db, sources[updated_at], updated_at=updated_at)


@pytest.mark.timeout(120)
def test_swaps_under_load_never_mix_versions(tmp_path, sources):
    db = tmp_path / "cards.sqlite3"
    swap(db, sources, A)
    client = offline_app(db).test_client()
    stop = threading.Event()
    seen: list[str] = []

    def hammer() -> int:
        count = 0
        while not stop.is_set():
            response = client.post(VALIDATE, json={"decklist": NORMAL_DECK})
            assert response.status_code == 200, response.get_data(as_text=True)[:300]
            seen.append(version_of(response.get_json()))
            count += 1
        return count

    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(hammer) for _ in range(4)]
        for round_ in range(10):  # A -> B -> A ... while four threads validate
            answered_after(seen, 5, futures)
            swap(db, sources, B if round_ % 2 == 0 else A)
        answered_after(seen, 5, futures)
        stop.set()
        served = sum(future.result() for future in futures)  # re-raises any thread's failure
    assert served == len(seen) > 50
    assert set(seen) == {A, B}
    # After the last swap (to A), every answer comes from A.
    final = client.post(VALIDATE, json={"decklist": NORMAL_DECK}).get_json()
    assert version_of(final) == A


@pytest.mark.timeout(120)
def test_two_gunicorn_workers_share_one_store_through_a_swap(tmp_path, sources):
    db = tmp_path / "cards.sqlite3"
    swap(db, sources, A)
    with gunicorn(tmp_path / "gunicorn.log", CARD_DB=str(db), GUNICORN_THREADS="4") as (base, _):
        stop = threading.Event()
        seen: list[str] = []

        def hammer() -> int:
            count = 0
            while not stop.is_set():
                answer = http_json(base, "POST", VALIDATE, {"decklist": NORMAL_DECK})
                assert answer.status == 200, answer.body[:300]
                seen.append(version_of(answer.json()))
                count += 1
            return count

        with ThreadPoolExecutor(6) as pool:
            futures = [pool.submit(hammer) for _ in range(6)]
            answered_after(seen, 7, futures)
            swap(db, sources, B)
            answered_after(seen, 7, futures)
            stop.set()
            served = sum(future.result() for future in futures)
        assert served == len(seen)
        assert seen[0] == A and set(seen) == {A, B}
        # Both workers now serve B: many fresh connections land on both of them.
        after = [version_of(http_json(base, "POST", VALIDATE, {"decklist": NORMAL_DECK}).json()) for _ in range(30)]
        assert set(after) == {B}
        assert http_json(base, "GET", "/readyz").json()["card_data"]["updated_at"] == B
    assert "Traceback" not in (tmp_path / "gunicorn.log").read_text(errors="replace")
