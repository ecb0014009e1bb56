"""The first start without Scryfall (DESIGN.md "First start without Scryfall"): `make run`
itself, from this checkout, with every upstream on a closed port. Without card data it
says what to do with commands that work as written, and serves 503 meanwhile; with
`CARD_DATA_FILE=PATH` it imports the file into the empty store and serves it, a typo
included. `cards import --if-empty` and the hints of `cards` and the background sync."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from edh_service.background_sync import BackgroundSync
from edh_service.cli import cards as cards_cli
from edh_service.first_start import EXAMPLE_FILE, no_card_data_hint
from tests.support.cli_runs import NOWHERE
from tests.support.live_http import VALIDATE, http_json
from tests.support.live_server import ROOT, free_port
from tests.support.scryfall_server import FIXTURES
from tests.support.waiting import wait_for

CARDS = FIXTURES / "cards.jsonl"
TYPO_DECK = "Commander\n1 Atraxa, Praetors' Voice\n\nDeck\n1 Sol Rnig\n1 Cultivate\n97 Forest\n"

needs_make = pytest.mark.skipif(shutil.which("make") is None or not (ROOT / ".venv" / "bin" / "gunicorn").exists(),
                                reason="make run needs make and the checkout's .venv (make test builds it)")


def make_run(tmp_path: Path, *variables: str) -> tuple[subprocess.Popen, str, Path]:
    """`make run VARIABLES...` from the checkout, on a free port, over a store in tmp_path;
    (the process, its base URL, its output file)."""
    port = free_port()
    log = tmp_path / "make-run.log"
    env = {**os.environ, "CARD_DB": str(tmp_path / "cards.sqlite3"), "PORT": str(port), "WEB_CONCURRENCY": "1",
           "SCRYFALL_API_URL": NOWHERE, "SPELLBOOK_URL": NOWHERE, "RATELIMIT_ENABLED": "0"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with open(log, "wb") as sink:
        process = subprocess.Popen(["make", "--no-print-directory", "run", *variables], cwd=ROOT, env=env,
                                   stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    return process, f"http://127.0.0.1:{port}", log


def status_of(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def stop(process: subprocess.Popen) -> None:
    """End make and the gunicorn it started (their own process group)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@needs_make
@pytest.mark.timeout(180)
def test_make_run_without_internet_says_what_to_do_and_serves_503(tmp_path):
    process, base, log = make_run(tmp_path)
    try:
        assert wait_for(lambda: status_of(base + "/healthz") == 200, timeout=90), log.read_text()
        assert status_of(base + "/readyz") == 503
        said = log.read_text()
        assert f"make run CARD_DATA_FILE={EXAMPLE_FILE}" in said
        assert f".venv/bin/cards import {EXAMPLE_FILE}" in said
        assert "CARD_DATA_OFFLINE=1" in said and "https://scryfall.com/docs/api/bulk-data" in said
        # The commands as the hint writes them do work from the checkout: the import it names
        # loads the running service's store.
        imported = subprocess.run([str(ROOT / ".venv" / "bin" / "cards"), "import", str(CARDS)], cwd=ROOT,
                                  env={**os.environ, "CARD_DB": str(tmp_path / "cards.sqlite3")},
                                  capture_output=True, text=True, timeout=120)
        assert imported.returncode == 0, imported.stderr
        assert wait_for(lambda: status_of(base + "/readyz") == 200, timeout=30)
    finally:
        stop(process)


@needs_make
@pytest.mark.timeout(180)
def test_make_run_card_data_file_imports_then_serves_a_typo_as_unknown(tmp_path):
    process, base, log = make_run(tmp_path, f"CARD_DATA_FILE={CARDS}")
    try:
        assert wait_for(lambda: status_of(base + "/readyz") == 200, timeout=90), log.read_text()
        assert "98 cards from file:cards.jsonl" in log.read_text()
        answer = http_json(base, "POST", VALIDATE, {"decklist": TYPO_DECK})
        assert answer.status == 200
        codes = {violation["code"] for violation in answer.json()["violations"]}
        assert codes == {"unknown_card", "card_lookup_unavailable"}
    finally:
        stop(process)
    # A second start keeps the store it has: the file is imported into an empty store only.
    process, base, log = make_run(tmp_path, f"CARD_DATA_FILE={CARDS}")
    try:
        assert wait_for(lambda: status_of(base + "/readyz") == 200, timeout=90), log.read_text()
        assert "already holds 98 cards" in log.read_text()
    finally:
        stop(process)


def test_import_if_empty_imports_into_an_empty_store_only(tmp_path, capsys):
    db = str(tmp_path / "cards.sqlite3")
    assert cards_cli.main(["import", "--if-empty", str(CARDS), "--db", db, "--updated-at", "2026-11-01T00:00:00Z"]) == 0
    assert "98 cards" in capsys.readouterr().out
    other = tmp_path / "other.jsonl"
    other.write_text(CARDS.read_text().splitlines()[0] + "\n")
    assert cards_cli.main(["import", "--if-empty", str(other), "--db", db]) == 0
    assert "already holds 98 cards" in capsys.readouterr().out
    assert cards_cli.main(["import", str(other), "--db", db]) == 0  # without it: replaced
    assert "1 cards" in capsys.readouterr().out


def test_a_failed_first_sync_prints_the_hint(tmp_path, capsys):
    db = str(tmp_path / "cards.sqlite3")
    code = cards_cli.main(["sync", "--no-names", "--db", db, "--api-url", NOWHERE])
    err = capsys.readouterr().err
    assert code == cards_cli.EXIT_TEMPFAIL
    assert f"import {EXAMPLE_FILE}" in err and "No card data in" in err


def test_a_failed_sync_over_a_store_says_no_more(fixture_db, capsys):
    code = cards_cli.main(["sync", "--no-names", "--db", str(fixture_db), "--api-url", NOWHERE])
    assert code == cards_cli.EXIT_TEMPFAIL
    assert "No card data" not in capsys.readouterr().err


def test_the_background_sync_logs_the_hint_once_when_there_is_no_store(tmp_path, caplog):
    def unreachable():
        from card_data import CardDataUnavailable
        raise CardDataUnavailable("Scryfall unreachable", 1)

    syncer = BackgroundSync(tmp_path / "cards.sqlite3", unreachable, base=0.05, cap=0.05, refresh=0)
    with caplog.at_level("WARNING", logger="edh_service.background_sync"):
        syncer.start()
        try:
            assert wait_for(lambda: sum("sync failed" in r.getMessage() for r in caplog.records) >= 3)
        finally:
            syncer.stop()
    hints = [r.getMessage() for r in caplog.records if "No card data in" in r.getMessage()]
    assert hints == [no_card_data_hint(tmp_path / "cards.sqlite3")]


def test_offline_says_so_instead_of_blaming_scryfall(tmp_path):
    hint = no_card_data_hint(tmp_path / "cards.sqlite3", offline=True)
    assert "CARD_DATA_OFFLINE is set" in hint and "Add CARD_DATA_OFFLINE=1" not in hint
