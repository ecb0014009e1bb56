"""A typo is never a 503 (DESIGN.md "First start without Scryfall"): with a loaded store, a
name it lacks while Scryfall is closed, slow, dripping or in a 429 lockout is unknown_card
(with suggestions from the store) plus the card_lookup_unavailable warning, within the
request's one look-up budget (CARD_LOOKUP_SECONDS, default 2 s, shared by a batch's
decks); /readyz stays ready; the page says the same. A real gunicorn (the project's config,
two workers) in front of the local Scryfall-shaped server."""

from __future__ import annotations

import re
import shutil
import time
import urllib.parse

import pytest

from tests.support.cli_runs import NOWHERE
from tests.support.live_http import BATCH, VALIDATE, gunicorn, http_json, raw_request
from tests.support.scryfall_server import fixture_server

BUDGET = 2.0  # CARD_LOOKUP_SECONDS' default
SLACK = 1.5  # a loaded machine's lateness
TYPO_DECK = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Rnig\n1 Cultivate\n97 Forest\n"


@pytest.fixture
def store(_fixture_db_template, tmp_path):
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    return db


def online(tmp_path, db, api_url: str):
    """gunicorn over the loaded store, asking `api_url` about misses (no background sync)."""
    return gunicorn(tmp_path / "gunicorn.log", CARD_DB=str(db), CARD_DATA_OFFLINE="0", CARD_DATA_SYNC="0",
                    SCRYFALL_API_URL=api_url)


def timed_post(base: str, path: str, payload) -> tuple:
    started = time.monotonic()
    answer = http_json(base, "POST", path, payload)
    return answer, time.monotonic() - started


def assert_typo_answer(body: dict) -> None:
    """The typo's deck: unknown_card with a suggestion, the warning naming it on its line,
    and nothing else made of it (the unknown card counts toward the 100)."""
    by_code = {violation["code"]: violation for violation in body["violations"]}
    assert by_code["unknown_card"]["cards"] == ["Sol Rnig"]
    assert by_code["unknown_card"]["suggestions"] == ["Sol Ring"]
    warning = by_code["card_lookup_unavailable"]
    assert (warning["severity"], warning["cards"], warning["lines"]) == ("warning", ["Sol Rnig"], [5])
    assert "deck_size" not in by_code and body["card_count"] == 100


@pytest.mark.timeout(120)
@pytest.mark.parametrize("fault", ["closed", "slow", "drip", "429"])
def test_a_typo_is_unknown_card_within_the_budget_never_a_503(tmp_path, store, fault):
    with fixture_server() as scryfall:
        if fault == "slow":
            scryfall.delay = 20.0
        elif fault == "drip":
            scryfall.drip = 0.3
        elif fault == "429":
            scryfall.fail_next = [429]
        api = NOWHERE if fault == "closed" else scryfall.base_url
        with online(tmp_path, store, api) as (base, _):
            answer, took = timed_post(base, VALIDATE, {"decklist": TYPO_DECK})
            assert answer.status == 200, answer.body[:300]
            assert_typo_answer(answer.json())
            assert took < BUDGET + SLACK
            ready = http_json(base, "GET", "/readyz")
            assert ready.status == 200 and ready.json()["status"] == "ready"
            if fault == "429":  # the lockout (shared by both workers) answers at once, asking nothing
                for attempt in range(4):
                    again, took = timed_post(base, VALIDATE, {"decklist": TYPO_DECK.replace("Rnig", f"Rnig{attempt}")})
                    assert again.status == 200 and took < 1.0
                    assert {"unknown_card", "card_lookup_unavailable"} <= {v["code"] for v in again.json()["violations"]}
                assert scryfall.paths("POST") == ["/cards/collection"]


@pytest.mark.timeout(120)
def test_a_batch_shares_one_budget(tmp_path, store):
    with fixture_server() as scryfall:
        scryfall.delay = 20.0
        with online(tmp_path, store, scryfall.base_url) as (base, _):
            decks = [{"decklist": TYPO_DECK.replace("Sol Rnig", f"Sol Rnig{index}")} for index in range(5)]
            answer, took = timed_post(base, BATCH, {"decks": decks})
            assert answer.status == 200, answer.body[:300]
            results = answer.json()["results"]
            assert [next(v["cards"] for v in result["violations"] if v["code"] == "card_lookup_unavailable")
                    for result in results] == [[f"Sol Rnig{index}"] for index in range(5)]
            assert took < BUDGET + SLACK  # five decks, five misses: one budget, not five


@pytest.mark.timeout(120)
def test_the_page_shows_the_typo_and_the_warning(tmp_path, store):
    with online(tmp_path, store, NOWHERE) as (base, _):
        form = urllib.parse.urlencode({"decklist": TYPO_DECK}).encode()
        answer = raw_request(base, "POST", "/", form, {"Content-Type": "application/x-www-form-urlencoded"})
        assert answer.status == 200, answer.body[:300]
        # the page's own words, without app.js's texts (every text it may show, in data-texts)
        page = re.sub(r"data-texts='[^']*'", "", answer.body.decode())
        assert "Card data is not loaded" not in page
        assert "card_lookup_unavailable" in page and "Sol Rnig" in page and "did not answer in time" in page


@pytest.mark.timeout(120)
def test_no_card_data_at_all_is_still_a_503(tmp_path):
    with online(tmp_path, tmp_path / "absent.sqlite3", NOWHERE) as (base, _):
        answer = http_json(base, "POST", VALIDATE, {"decklist": TYPO_DECK})
        assert answer.status == 503 and int(answer.headers["retry-after"]) >= 1
