"""Screenshot the paste-and-validate page with an illegal deck validated on it.

    .venv/bin/python scripts/screenshot.py [--db PATH] [--out DIR]

Serves the app on 127.0.0.1 (werkzeug, in a thread) over a card store built from
tests/fixtures/cards.jsonl (or --db), pastes an illegal deck into headless Chromium,
validates it with JavaScript on, clicks one violation's line link, and writes
screenshots/page.png (desktop, full page) and screenshots/page-phone.png (360 px).
Needs Debian's chromium at /usr/bin/chromium; nothing is fetched from the internet.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from edh_service.factory import create_app  # noqa: E402
from tests.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

DECK = """\
Commander
1 Atraxa, Praetors' Voice

Deck
1 Mana Crypt
1 Lightning Bolt
1 Sol Rnig
1 Sol Ring
1 Sol Ring
1 Arcane Signet
1 Command Tower
1 Demonic Tutor
1 Rhystic Study
20 Forest
20 Island
20 Plains
20 Swamp

Sideboard
1 Counterspell
"""
VIEWPORTS = {"page.png": {"width": 1200, "height": 900}, "page-phone.png": {"width": 360, "height": 740}}


def fixture_store(directory: Path) -> Path:
    """A card store built from the hand-written fixture cards."""
    from card_data.sync import import_file

    path = directory / "cards.sqlite3"
    import_file(path, ROOT / "tests" / "fixtures" / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
    return path


def serve(db: Path):
    """Start the app on an ephemeral loopback port; returns (server, base URL)."""
    from werkzeug.serving import make_server

    app = create_app({"CARD_DB": str(db), "CARD_DATA_OFFLINE": True, "CARD_DATA_SYNC": False})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


def shoot(url: str, out: Path) -> list[Path]:
    """Validate DECK on the page at each viewport and save a full-page screenshot of each."""
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, viewport in VIEWPORTS.items():
            context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 500)
            page = context.new_page()
            page.goto(url)
            page.fill("#decklist", DECK)
            page.click("#submit")
            page.wait_for_selector("#result-heading")
            page.click('li.violation[data-code="color_identity"] a.line-link')
            page.evaluate("window.scrollTo(0, 0)")  # full_page captures all; start at the top
            page.screenshot(path=str(out / name), full_page=True)
            written.append(out / name)
            context.close()
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    """Build or open the store, serve, screenshot, print the files written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="card store to use (default: built from tests/fixtures)")
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots", help="output directory")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).is_file():
        print(f"chromium not found at {CHROMIUM}; install Debian's chromium (.ci/run does)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        server, url = serve(args.db or fixture_store(Path(scratch)))
        try:
            for path in shoot(url, args.out):
                print(path)
        finally:
            server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
