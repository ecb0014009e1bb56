"""/metrics stays bounded whatever clients send (issue 19): no label takes a value the client
chose. A 405 labelled the metrics with the client's method, and 20,000 made-up methods left
/metrics at 37 MB and 23 s to render until a restart."""

from __future__ import annotations

import itertools
import re
import string

from edh_service.serving.observability import METHODS, OTHER_METHOD
from tests.support.live_http import NORMAL_DECK, VALIDATE, http_json, raw_request

SAMPLE = re.compile(r'^edh_http_requests_total\{(?P<labels>[^}]*)\} ', re.MULTILINE)
LABEL = re.compile(r'(\w+)="([^"]*)"')
STATUSES = {"200", "400", "404", "405", "413", "415", "422"}


def made_up_methods(count: int) -> list[str]:
    """Distinct upper-case tokens no server knows ("QAAA", "QAAB"...)."""
    letters = itertools.product(string.ascii_uppercase, repeat=3)
    return ["Q" + "".join(next(letters)) for _ in range(count)]


def label_values(metrics: str) -> dict[str, set[str]]:
    """Every value each label of edh_http_requests_total takes."""
    values: dict[str, set[str]] = {}
    for match in SAMPLE.finditer(metrics):
        for name, value in LABEL.findall(match["labels"]):
            values.setdefault(name, set()).add(value)
    return values


def routes(app) -> set[str]:
    return {rule.rule for rule in app.url_map.iter_rules()} | {"unmatched"}


def test_made_up_methods_paths_and_queries_add_no_series(app, client):
    """2,000 made-up methods on real and made-up paths, with made-up query strings: the
    metrics name the standard methods and `other`, the route patterns, and the app's own
    statuses, and /metrics is no bigger than after a handful of requests."""
    def send(methods):
        for number, method in enumerate(methods):
            client.open(VALIDATE if number % 2 else f"/nowhere/{method}?{method}={number}", method=method)
            client.post(VALIDATE + f"?decklist_format={method}", data=b"1 Sol Ring", content_type="text/plain")

    client.post(VALIDATE, json={"decklist": NORMAL_DECK})
    send(made_up_methods(10))
    client.get("/metrics")  # the scrape itself is counted from then on
    before = client.get("/metrics").get_data(as_text=True)
    send(made_up_methods(2_000)[10:])
    after = client.get("/metrics").get_data(as_text=True)
    values = label_values(after)
    assert values["method"] <= METHODS | {OTHER_METHOD} and OTHER_METHOD in values["method"]
    assert values["endpoint"] <= routes(app)
    assert values["status"] <= STATUSES and "405" in values["status"]
    assert len(SAMPLE.findall(after)) == len(SAMPLE.findall(before))  # no new series
    assert len(after) < len(before) + 2_000  # only the counts grew a few digits
    assert "QAAB" not in after


def test_made_up_methods_through_gunicorn_leave_metrics_bounded(live_server):
    """The same through a real gunicorn (multiprocess metrics, summed over both workers)."""
    for method in made_up_methods(300):
        answer = raw_request(live_server, method, VALIDATE, b"1 Sol Ring", {"Content-Type": "text/plain"})
        assert answer.status in (400, 405), (method, answer.status)
    assert http_json(live_server, "POST", VALIDATE, {"decklist": NORMAL_DECK}).status == 200
    metrics = http_json(live_server, "GET", "/metrics").body.decode()
    values = label_values(metrics)
    assert values["method"] <= METHODS | {OTHER_METHOD}
    assert not re.search(r"Q[A-Z]{3}", metrics)
    assert len(metrics) < 50_000, len(metrics)
