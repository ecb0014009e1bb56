"""Requests that cost a worker memory it keeps, or work out of proportion to their size
(real gunicorn, `make run`'s config: 2 workers; every body at the size limits).

- A name longer than any card's (in the list, `commanders`, `companion`, `color_choices`
  keys, `signature_spells`) is never normalized or remembered: one 1 MiB color_choices key
  left 25-30 MB in a worker, and NFKD expands U+FDFA 18 times.
- The name memos are bounded by characters, and names that resolve to nothing are not
  kept: 100,000 distinct 200-character names left ~500 MB in each worker.
- A JSON list's `commander` field beside its `cards` is matched in one pass (a 140 KB
  body held a worker 44 s).
- A list or dict over its bound is refused by its length, before its items are loaded,
  and a 422 lists a few problems: 500 KB of `decks` got an 11 MB 422 in 5.5 s.
"""

from __future__ import annotations

import json
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from validator.parse import parse
from tests.support.cli_runs import run_cli
from tests.support.growth import assert_linear
from tests.support.live_http import BATCH, NORMAL_CODES, NORMAL_DECK, VALIDATE, gunicorn

MEMORY_GROWTH_MB = 100  # what a worker may keep after an attack
WITHIN_SECONDS = 1.0  # each hostile body's answer
SMALL_422 = 64 * 1024  # bytes of a 422's body
EXPANDS = "\ufdfa"  # NFKD makes it 18 characters


@pytest.fixture(scope="module")
def server(_fixture_db_template, tmp_path_factory):
    scratch = tmp_path_factory.mktemp("work-bounds")
    db = scratch / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    with gunicorn(scratch / "gunicorn.log", CARD_DB=str(db)) as (base, process):
        yield base, process


def workers_rss_mb(master: int) -> list[float]:
    """Each gunicorn worker's resident memory, in MB."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    sizes = []
    for pid in children:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                sizes.append(int(line.split()[1]) / 1024)
    return sizes


def post(base: str, path: str, body: bytes, content_type: str = "application/json") -> tuple[requests.Response, float]:
    started = time.monotonic()
    answer = requests.post(base + path, data=body, headers={"Content-Type": content_type}, timeout=60)
    return answer, time.monotonic() - started


def assert_normal(base: str) -> None:
    answer, _ = post(base, VALIDATE, NORMAL_DECK.encode(), "text/plain")
    assert answer.status_code == 200 and {v["code"] for v in answer.json()["violations"]} == NORMAL_CODES


def long_name(n: int, length: int) -> str:
    """A distinct name of `length` characters that NFKD expands 18 times."""
    return chr(0x4E00 + n % 20_000) + chr(0x4E00 + n // 20_000) + EXPANDS * (length - 2)


def test_names_longer_than_any_card_are_never_kept_in_any_field(server):
    """The reported body (a 1 MiB color_choices key), and the same name in every other field
    and in the list itself, 20 distinct names each: answered at once, the workers' memory
    back within bounds, and a normal deck still judged right."""
    base, process = server
    before = workers_rss_mb(process.pid)
    megabyte = 349_000  # U+FDFA is 3 bytes of UTF-8: a 1 MiB body
    for n in range(20):
        name = long_name(n, megabyte)
        bodies = [
            json.dumps({"decklist": "1 Sol Ring", "color_choices": {name: "R"}}, ensure_ascii=False),
            json.dumps({"decklist": "1 Sol Ring", "commanders": [name]}, ensure_ascii=False),
            json.dumps({"decklist": "1 Sol Ring", "companion": name}, ensure_ascii=False),
            json.dumps({"decklist": "1 Sol Ring", "format": "oathbreaker", "signature_spells": [name]},
                       ensure_ascii=False),
            json.dumps({"decklist": "1 " + name}, ensure_ascii=False),
            json.dumps({"decklist": json.dumps({"commanders": [name], "mainboard": ["Sol Ring"]}, ensure_ascii=False)},
                       ensure_ascii=False),
        ]
        for body in bodies:
            answer, took = post(base, VALIDATE, body.encode())
            assert answer.status_code in (200, 422), answer.text[:300]
            assert took < WITHIN_SECONDS and len(answer.content) < SMALL_422, (took, len(answer.content))
            assert name not in answer.text  # never quoted back whole
    after = workers_rss_mb(process.pid)
    assert max(a - b for a, b in zip(after, before)) < MEMORY_GROWTH_MB, (before, after)
    assert_normal(base)


def test_a_hundred_thousand_distinct_names_that_expand_leave_the_memos_within_bounds(server):
    """100,000 distinct 200-character names (the longest a name may be), as many as fit a
    1 MiB list each time: every one unknown, and the workers keep no more than a bound."""
    base, process = server
    before = workers_rss_mb(process.pid)
    per_body = 1_700

    def send(first: int) -> None:
        body = "\n".join(f"1 {long_name(first + i, 200)}" for i in range(per_body)).encode()
        answer, took = post(base, VALIDATE, body, "text/plain")
        assert answer.status_code == 200, answer.text[:300]
        assert took < 30, took  # the work of 1,700 unknown names: a generous bound

    with ThreadPoolExecutor(2) as pool:  # both workers at once
        list(pool.map(send, range(0, 100_000, per_body)))
    after = workers_rss_mb(process.pid)
    assert max(a - b for a, b in zip(after, before)) < MEMORY_GROWTH_MB, (before, after)
    assert_normal(base)


QUADRATIC_JSON = json.dumps({"cards": [{}] * 20_000, "commander": [0] + ["b"] * 20_000}, separators=(",", ":"))
AT_THE_LIMIT_JSON = json.dumps({"cards": [{"name": "Forest"}] * 5_000, "commander": [0] + ["b"] * 4_999},
                               separators=(",", ":"))


def test_a_json_lists_commander_field_beside_its_cards_is_read_in_one_pass(server):
    """The reported 140 KB body, and the largest such list accepted (10,000 entries): each
    answered within a second (the first held a worker 44.6 s)."""
    base, _ = server
    for text, status in ((QUADRATIC_JSON, 422), (AT_THE_LIMIT_JSON, 200)):
        answer, took = post(base, VALIDATE, text.encode(), "text/plain")
        assert answer.status_code == status, answer.text[:300]
        assert took < WITHIN_SECONDS, took
    assert_normal(base)


def test_the_cli_reads_the_same_json_list_in_one_pass(fixture_db, tmp_path):
    """edh-validate on the reported body (it took 48.5 s)."""
    deck = tmp_path / "quadratic.json"
    deck.write_text(QUADRATIC_JSON)
    started = time.monotonic()
    result = run_cli("--offline", "--card-db", fixture_db, deck)
    took = time.monotonic() - started
    assert "10,000" in result.stdout + result.stderr, (result.stdout + result.stderr)[:500]
    assert took < 5, took  # the CLI's start included: generous for a loaded machine


COMMENT_TIMES_ENTRIES = ('<?xml version="1.0"?>\n<cockatrice_deck version="1"><comments>'
                         + "\n".join("CDR: Sol Ring" for _ in range(4_990)) + '</comments>\n<zone name="main">\n'
                         + "\n".join('<card number="1" name="Sol Ring"/>' for _ in range(4_990))
                         + "\n</zone></cockatrice_deck>")  # 9,983 lines: at the 10,000-line limit


def test_a_cockatrice_comment_naming_the_commander_on_every_line_is_read_once_a_name(server):
    """4,990 `CDR: Sol Ring` lines over 4,990 Sol Rings: each distinct name is looked up
    once (each line times each entry took 1.3-1.5 s)."""
    base, _ = server
    answer, took = post(base, VALIDATE, COMMENT_TIMES_ENTRIES.encode(), "text/plain")
    assert answer.status_code == 200, answer.text[:300]
    assert answer.json()["card_count"] == 4_990  # read whole (naming 4,990 cards, the comment marks none)
    assert took < WITHIN_SECONDS, took


@pytest.mark.parametrize(("path", "body"), [
    (BATCH, json.dumps({"decks": [0] * 256_000}, separators=(",", ":"))),  # 500 KB: 11.1 MB in 5.5 s
    (VALIDATE, json.dumps({"decklist": "1 Sol Ring", "commanders": [""] * 300_000}, separators=(",", ":"))),
    (VALIDATE, json.dumps({"decklist": "1 Sol Ring", "include": [0] * 300_000}, separators=(",", ":"))),
    (VALIDATE, json.dumps({"decklist": "1 Sol Ring", "color_choices": {str(n): 0 for n in range(80_000)}})),
    (VALIDATE, json.dumps({"decklist": "1 Sol Ring", **{f"x{n}": 0 for n in range(80_000)}})),
    (BATCH, json.dumps({"decks": [{"decklist": 0, "commanders": [0] * 5, "companion": 0, "format": 0,
                                   **{f"x{n}": 0 for n in range(50)}}] * 50})),
], ids=["batch of zeros", "empty commanders", "include of zeros", "color choices", "unknown fields",
        "every item wrong"])
def test_a_422_is_small_and_fast_whatever_the_bodys_size(server, path, body):
    base, _ = server
    answer, took = post(base, path, body.encode())
    assert answer.status_code == 422, answer.text[:300]
    assert len(answer.content) < SMALL_422, len(answer.content)
    assert took < WITHIN_SECONDS, took


def test_the_page_answers_the_largest_list_with_a_page_of_bounded_size(server):
    """9,800 unknown names of 103 characters (the body at its 1 MiB limit, form-encoded): a
    page of at most twice the list (it was 8.9 MB: every problem, each one's lines, every
    line), telling how many problems and lines it leaves to the API."""
    base, _ = server
    text = "\n".join(f"1 Qzv{n:04d} " + "Nonexistent Card Called Yonder " * 3 for n in range(9_800))
    started = time.monotonic()
    answer = requests.post(base + "/", data={"decklist": text}, timeout=60)
    took = time.monotonic() - started
    assert answer.status_code == 200, answer.text[:300]
    assert len(answer.content) < 2 * len(text.encode()), (len(answer.content), len(text.encode()))
    assert "more problems are not shown here" in answer.text and "are not shown." in answer.text
    assert took < 10, took  # 10,000 unknown names, rendered: generous for a loaded machine


def cockatrice_comment(lines: int) -> str:
    return ('<?xml version="1.0"?>\n<cockatrice_deck version="1"><comments>'
            + "\n".join("CDR: Sol Ring" for _ in range(lines)) + '</comments>\n<zone name="main">\n'
            + "\n".join('<card number="1" name="Sol Ring"/>' for _ in range(lines)) + "\n</zone></cockatrice_deck>")


def json_commander_field(names: int) -> str:
    return json.dumps({"cards": [{"name": f"c{n}"} for n in range(names)],
                       "commander": [0] + [f"b{n}" for n in range(names)]})  # 0 first: no array of names


@pytest.mark.parametrize("make", [cockatrice_comment, json_commander_field])
def test_the_readers_work_grows_linearly_with_commander_names_and_entries(make):
    """Four times the comment lines and the entries (or the commander names and the cards)
    cost about four times the parse, not sixteen (tests/support/growth.py)."""
    assert_linear(lambda size: (lambda text=make(size): parse(text)), 1_000)
