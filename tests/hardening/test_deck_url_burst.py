"""A burst of requests for one deck link costs the site one request, and requests for many
links keep to the site's budget: against real gunicorn (two worker processes sharing the
deck cache and budget in files next to the store), and against three instances behind
HAProxy sharing them through a real Redis (REDIS_URL). The site is a local
Archidekt-shaped server whose answers take 0.3 s, so the burst's requests overlap the fetch."""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.support import cluster as cluster_module
from tests.support.cluster import Cluster
from tests.support.live_http import gunicorn
from tests.support.site_server import SiteServer

SITES = Path(__file__).resolve().parents[1] / "fixtures" / "sites"
ARCHIDEKT = json.loads((SITES / "archidekt-4242.json").read_text(encoding="utf-8"))
BURST = 50
LINK = "https://archidekt.com/decks/4242/atraxa"


@pytest.fixture
def site():
    documents = {str(number): ARCHIDEKT for number in (4242, 1, 2, 3, 4)}
    with SiteServer(archidekt=documents, delay=0.3) as server:
        yield server


def environment(site: SiteServer, **extra: str) -> dict[str, str]:
    return {"ARCHIDEKT_API_URL": site.archidekt_url, "MOXFIELD_API_URL": site.moxfield_url, **extra}


def burst(base: str, links: list[str]) -> list[requests.Response]:
    """Every link asked at once (BURST clients in all)."""
    with ThreadPoolExecutor(max_workers=BURST) as pool:
        return list(pool.map(lambda link: requests.post(base + "/api/v1/validate", json={"url": link}, timeout=60),
                             links))


def assert_one_deck(answers: list[requests.Response]) -> None:
    assert [answer.status_code for answer in answers] == [200] * len(answers)
    bodies = [answer.json() for answer in answers]
    assert {body["card_count"] for body in bodies} == {100}
    assert len({body["source"]["fetched_at"] for body in bodies}) == 1  # the one fetch, kept


@pytest.mark.timeout(120)
def test_a_burst_for_one_link_costs_the_site_one_request(fixture_db, site, tmp_path):
    with gunicorn(tmp_path / "gunicorn.log", CARD_DB=str(fixture_db), **environment(site)) as (base, _):
        assert_one_deck(burst(base, [LINK] * BURST))
        assert [r.path for r in site.requests] == ["/api/decks/4242/"]
        # five links asked ten times each: five requests, spaced as the budget says
        links = [f"https://archidekt.com/decks/{number}" for number in (1, 2, 3, 4)] * 12 + [LINK, LINK]
        answers = burst(base, links)
        assert {answer.status_code for answer in answers} == {200}
    paths = [r.path for r in site.requests]
    assert sorted(paths) == sorted(["/api/decks/4242/"] + [f"/api/decks/{n}/" for n in (1, 2, 3, 4)])
    # Claims were SITE_INTERVAL apart; arrivals can come closer by how late each request was
    # sent after its claim (a loaded machine: tests/support/spacing.py), so the contract is
    # checked at the site: never three requests within one second.
    times = site.times()
    assert all(c - a > 1.0 for a, c in zip(times, times[2:])), times


@pytest.mark.skipif(not cluster_module.available(), reason="Debian's haproxy is not installed (.ci/run installs it)")
@pytest.mark.timeout(120)
def test_a_cluster_shares_the_deck_cache_through_redis(fixture_db, redis_server, site, tmp_path):
    stores = []
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
        stores.append(shutil.copyfile(fixture_db, tmp_path / name / "cards.sqlite3"))
    with Cluster(tmp_path / "cluster", stores, CARD_DATA_OFFLINE="1", REDIS_URL=redis_server.url,
                 **environment(site)) as cluster:
        assert_one_deck(burst(cluster.url, [LINK] * BURST))
        served = {row["svname"]: int(row["stot"]) for row in cluster.stats() if row["svname"] not in ("FRONTEND", "BACKEND")}
    assert sum(1 for count in served.values() if count) >= 2  # the burst reached several instances
    assert [r.path for r in site.requests] == ["/api/decks/4242/"]
