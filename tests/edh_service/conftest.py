"""Fixtures of the page's browser tests: the app on a loopback port, one Chromium per module."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.apps import offline_app
from tests.browser import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def live_url(tmp_path_factory):
    """The app served by werkzeug in a thread on 127.0.0.1, over a fixture card store."""
    from werkzeug.serving import make_server

    from card_data.sync import import_file

    db = tmp_path_factory.mktemp("browser-store") / "cards.sqlite3"
    import_file(db, Path(__file__).parents[1] / "fixtures" / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
    app = offline_app(db)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (Playwright driving the system binary)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
