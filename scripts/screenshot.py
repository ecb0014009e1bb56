"""Screenshot the paste-and-validate page with an illegal deck validated on it.

    .venv/bin/python scripts/screenshot.py [--db PATH] [--out DIR]

Serves the app on 127.0.0.1 (werkzeug, in a thread) over a card store built from
tests/fixtures/cards.jsonl (or --db), pastes an illegal deck into headless Chromium,
validates it with JavaScript on, opens the overview's card list, clicks one violation's
line link and focuses a card name so its preview shows, then writes full-page shots at a
desktop and a phone size, each in the light and the dark color scheme:
screenshots/page-{desktop,phone}-{light,dark}.png.

The fixture cards have no images, so the built store gives a few of them Scryfall CDN
URLs, and the browser's requests to cards.scryfall.io are answered here with a drawn
placeholder card (the name on a frame): nothing is fetched from the internet.
Needs Debian's chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from edh_service.factory import create_app  # noqa: E402
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.factories import ILLEGAL_DECK  # noqa: E402

CDN = "https://cards.scryfall.io"
# Cards given a (placeholder) image in the built store: name -> frame color.
PREVIEWED = {"Atraxa, Praetors' Voice": "#c9b27c", "Sol Ring": "#9a9a9a", "Mana Crypt": "#9a9a9a",
             "Rhystic Study": "#3d6fa8", "Cultivate": "#3f7d4a", "Demonic Tutor": "#4a3f55"}

# The page tests' illegal deck (one problem of each kind) without its Forests, and more cards.
DECK = ILLEGAL_DECK.replace("92 Forest\n", "") + """\
1 Arcane Signet
1 Command Tower
1 Birds of Paradise
1 Counterspell
1 Brainstorm
1 Swords to Plowshares
1 Path to Exile
1 Demonic Tutor
1 Cultivate
1 Kodama's Reach
1 Beast Within
1 Eternal Witness
1 Mortify
1 Vindicate
1 Putrefy
1 Assassin's Trophy
1 Anguished Unmaking
1 Rhystic Study
1 Smothering Tithe
1 Wrath of God
1 Exotic Orchard
18 Forest
18 Island
17 Plains
17 Swamp

Sideboard
1 Ponder
"""
VIEWPORTS = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 360, "height": 740}}
SCHEMES = ("light", "dark")


def fixture_store(directory: Path) -> Path:
    """A card store built from the hand-written fixture cards, a few with CDN image URLs."""
    from card_data.sync import import_file

    lines = []
    for line in (ROOT / "tests" / "fixtures" / "cards.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["name"] in PREVIEWED:
            record["image_uris"] = {"normal": f"{CDN}/normal/front/{zlib.crc32(record['name'].encode())}.svg"}
        lines.append(json.dumps(record))
    (directory / "cards.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = directory / "cards.sqlite3"
    import_file(path, directory / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
    return path


def placeholder(name: str) -> str:
    """A card-shaped SVG naming the card: what the CDN answers here (there is no internet)."""
    from html import escape

    frame = PREVIEWED.get(name, "#777")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="488" height="680" viewBox="0 0 488 680">'
            f'<rect width="488" height="680" rx="24" fill="#151515"/>'
            f'<rect x="22" y="22" width="444" height="636" rx="14" fill="{frame}"/>'
            f'<rect x="40" y="40" width="408" height="50" rx="6" fill="#f4efe4"/>'
            f'<text x="56" y="74" font-family="serif" font-size="26" fill="#111">{escape(name)}</text>'
            f'<rect x="40" y="104" width="408" height="300" fill="#2c3440"/>'
            f'<rect x="40" y="420" width="408" height="220" rx="6" fill="#f4efe4"/>'
            f'<text x="56" y="460" font-family="serif" font-size="20" fill="#333">placeholder image</text></svg>')


def serve(db: Path):
    """Start the app on an ephemeral loopback port; returns (server, base URL)."""
    from werkzeug.serving import make_server

    app = create_app({"CARD_DB": str(db), "CARD_DATA_OFFLINE": True, "CARD_DATA_SYNC": False})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


def shoot(url: str, out: Path) -> list[Path]:
    """Validate DECK on the page at each viewport and scheme; save a full-page screenshot of each."""
    from playwright.sync_api import sync_playwright

    names = {}  # placeholder image URL -> card name, for the CDN answers
    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size, viewport in VIEWPORTS.items():
            for scheme in SCHEMES:
                context = browser.new_context(viewport=viewport, is_mobile=size == "phone", color_scheme=scheme)
                page = context.new_page()
                page.route(f"{CDN}/**", lambda route: route.fulfill(
                    content_type="image/svg+xml", body=placeholder(names.get(route.request.url, "?"))))
                page.goto(url)
                page.fill("#decklist", DECK)
                page.click("#submit")
                page.wait_for_selector("#overview")
                names.update(page.evaluate(
                    "Object.fromEntries([...document.querySelectorAll('.card-ref img')].map(i => [i.src, i.alt]))"))
                page.click("#overview details.deck-cards summary")
                page.click('li.violation[data-code="color_identity"] a.line-link')
                page.focus('li.violation[data-code="banned"] .card-ref a')  # its preview shows
                # (wait_for_function would poll through eval, which the page's CSP refuses)
                page.locator('li.violation[data-code="banned"] .preview img').wait_for(state="visible")
                for _ in range(100):
                    if page.evaluate("[...document.querySelectorAll('.preview img')].some(i => i.complete && i.naturalWidth)"):
                        break
                    page.wait_for_timeout(50)
                page.evaluate("window.scrollTo(0, 0)")  # full_page captures all; start at the top
                path = out / f"page-{size}-{scheme}.png"
                page.screenshot(path=str(path), full_page=True)
                written.append(path)
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
