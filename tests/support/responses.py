"""Reading the service's answers in tests: the API's error envelope, /metrics, the page as HTML."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup


def assert_envelope(response, status: int) -> dict:
    """The response is the JSON error envelope with this status; returns the body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert body["code"] == status
    assert isinstance(body["status"], str) and body["status"]
    assert isinstance(body["message"], str) and body["message"]
    assert set(body) <= {"code", "status", "message", "errors"}
    return body


def sample(metrics: str, name: str, **labels: str) -> float:
    """One sample's value from Prometheus text (0 when absent)."""
    for line in metrics.splitlines():
        match = re.match(rf"{name}(?:\{{(.*)\}})? (\S+)$", line)
        if match:
            found = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1) or ""))
            if all(found.get(key) == value for key, value in labels.items()):
                return float(match.group(2))
    return 0.0


def soup_of(response) -> BeautifulSoup:
    """The response body as a parsed document."""
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def shown_names(node) -> list[str]:
    """Card names as a person reads them: links and quoted names, minus screen-reader hints."""
    names = []
    for item in node.select("a.card, q.typed"):
        hidden = "".join(h.get_text() for h in item.select(".visually-hidden"))
        names.append(item.get_text().removesuffix(hidden))
    return names


def violations(soup) -> dict[str, tuple[list[str], list[int]]]:
    """code -> (cards, lines) of every violation the page lists."""
    found = {}
    for item in soup.select("li.violation"):
        cards = item.select_one("p.cards")
        lines = [int(a.get_text()) for a in item.select("a.line-link")]
        found[item["data-code"]] = (shown_names(cards) if cards else [], lines)
    return found
