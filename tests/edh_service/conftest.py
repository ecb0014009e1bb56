"""Fixtures of the page's browser tests: the app on a loopback port, one Chromium per module."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from card_data import BracketSources
from card_data.lists import refresh as bracket_lists
from card_data.store import list_tables as bracket_tables
from tests.support.apps import offline_app
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS


FIXTURE_CARDS = Path(__file__).parents[1] / "fixtures" / "cards.jsonl"


@contextmanager
def serving(db: Path, **config) -> Iterator[str]:
    """The app over the store at `db` (with `config`), served by werkzeug in a thread on
    127.0.0.1: its URL."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, offline_app(db, **config), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        thread.join(5)


@pytest.fixture(scope="module")
def live_url(tmp_path_factory):
    """The app served by werkzeug in a thread on 127.0.0.1, over a fixture card store."""
    from card_data.sync import import_file

    db = tmp_path_factory.mktemp("browser-store") / "cards.sqlite3"
    import_file(db, FIXTURE_CARDS, updated_at="2026-11-01T00:00:00+00:00")
    # the combo list only: the page shows combos and says mass land denial was not checked
    bracket_lists.refresh(db, BracketSources(
        combos_file=str(Path(__file__).parents[1] / "fixtures" / "brackets" / "combos.txt")), network=False)
    with serving(db) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (Playwright driving the system binary)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(params=(True, False), ids=("js", "no-js"))
def page(request, browser):
    """A fresh page of `browser` with JavaScript on or off (`page.js`); console errors (CSP
    reports too) are collected in `page.console_errors`."""
    context = browser.new_context(java_script_enabled=request.param, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    page.js = request.param
    yield page
    context.close()
