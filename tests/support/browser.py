"""Helpers for the tests that drive the page in Debian's Chromium through Playwright.

The fixtures that start the app and the browser (`live_url`, `browser`) live in
tests/edh_service/conftest.py; scripts/screenshot.py launches Chromium the same way.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Only loopback resolves: a page link or image pointing at scryfall.com or its CDN can
    # never leave the machine (tests answer the CDN through Playwright's router instead).
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]

# axe-core from npm (package.json; `npm ci` in `make test`), evaluated in the page.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = ("serious", "critical")

requires_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(),
    reason="Debian's chromium is not installed (.ci/run installs it): browser tests skipped",
)


def submit(page, *, via_keyboard: bool = False) -> None:
    """Submit the form and wait for the verdict, whether it reloads the page or not."""
    if via_keyboard:
        page.focus("#submit")
        page.keyboard.press("Enter")
    else:
        page.click("#submit")
    page.wait_for_selector("#result-heading", state="visible")


# For every element that shows text of its own: its color, the first opaque background
# behind it, and whether it counts as large text (WCAG: 24 px, or 18.66 px bold).
TEXT_COLORS_JS = """() => {
  const visible = (el) => el.offsetParent !== null && !el.closest('.visually-hidden');
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const bg = getComputedStyle(el).backgroundColor;
      if (!bg.startsWith('rgba') || !bg.endsWith(', 0)')) return bg;
    }
    return 'rgb(255, 255, 255)';
  };
  return [...document.querySelectorAll('body *')].filter((el) => visible(el) && ownText(el)).map((el) => {
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight, 10) >= 700;
    return {text: el.textContent.trim().slice(0, 40), color: style.color, background: background(el),
            large: size >= 24 || (bold && size >= 18.66)};
  });
}"""


def luminance(css_color: str) -> float:
    """WCAG relative luminance of an rgb()/rgba() color."""
    channels = [float(c) / 255 for c in css_color[css_color.index("(") + 1:-1].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two colors."""
    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def low_contrast(samples: list[dict]) -> list[tuple[str, float]]:
    """(text, ratio) of the TEXT_COLORS_JS samples under AA: 4.5:1, or 3:1 for large text."""
    return [
        (s["text"], round(contrast(s["color"], s["background"]), 2))
        for s in samples
        if contrast(s["color"], s["background"]) < (3.0 if s["large"] else 4.5)
    ]


def axe_findings(page) -> list[dict]:
    """axe-core's violations on the page as it stands (WCAG 2.x A/AA and best practices)."""
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    return page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary)}));
    }""")


def severe(findings: list[dict]) -> list[dict]:
    """The serious and critical findings, printed for whoever reads a failing run."""
    found = [f for f in findings if f["impact"] in SEVERE]
    for finding in found:
        print(f"axe {finding['impact']}: {finding['id']}: {finding['help']}")
        for node in finding["nodes"]:
            print(f"    {node}")
    return found
