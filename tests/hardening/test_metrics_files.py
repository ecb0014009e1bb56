"""Workers that die leave no metrics files behind (real gunicorn): prometheus_client's
mark_process_dead removes a dead worker's live gauges only, so every worker that ever ran
kept its counter and histogram files, read at every scrape. Now its values are added into
one file per kind and its files removed: the totals stay, the files do not pile up."""

from __future__ import annotations

import os
import re
import shutil
import signal
import time
from pathlib import Path

import requests

from edh_service.serving.metrics_files import retire_worker
from tests.support.live_http import gunicorn
from tests.support.waiting import wait_for

HEALTHZ_TOTAL = re.compile(r'^edh_http_requests_total\{endpoint="/healthz",method="GET",status="200"\} (\S+)$', re.M)


def workers(master: int) -> list[int]:
    return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def metrics_dir(master: int) -> Path:
    """The folder of the workers' metrics files: the one their open .db files are in (the
    config sets it in the master's os.environ, which /proc does not show)."""
    for worker in workers(master):
        for fd in Path(f"/proc/{worker}/fd").iterdir():
            target = Path(os.readlink(fd))
            if target.suffix == ".db" and target.name.startswith(("counter_", "histogram_")):
                return target.parent
    raise AssertionError("no worker has a metrics file open")


def healthz_total(base: str) -> float:
    scraped = requests.get(base + "/metrics", timeout=10)
    found = HEALTHZ_TOTAL.search(scraped.text)
    assert found, f"/metrics ({scraped.status_code}) has no /healthz counter:\n{scraped.text[:2000]}"
    return float(found[1])


def test_dead_workers_metrics_are_folded_and_their_files_removed(_fixture_db_template, tmp_path):
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    with gunicorn(tmp_path / "gunicorn.log", CARD_DB=str(db)) as (base, process):
        sent, folder = healthz_total(base), None  # the start-up wait asked it too
        for _ in range(3):  # three rounds: every worker killed and replaced each time
            for _ in range(20):
                assert requests.get(base + "/healthz", timeout=10).status_code == 200
            sent += 20
            folder = folder or metrics_dir(process.pid)
            assert healthz_total(base) == sent
            for worker in workers(process.pid):
                os.kill(worker, signal.SIGKILL)
                assert wait_for(lambda worker=worker: worker not in workers(process.pid)
                                and len(workers(process.pid)) == 2)
                assert not list(folder.glob(f"*_{worker}.db"))
            assert requests.get(base + "/healthz", timeout=10).status_code == 200
            sent += 1
            assert healthz_total(base) == sent  # nothing counted lost, nothing counted twice
        files = sorted(path.name for path in folder.glob("*.db"))
        live = set(map(str, workers(process.pid)))
        assert all(name.split("_")[-1][:-3] in live | {"dead"} for name in files), files
        assert "counter_dead.db" in files and "histogram_dead.db" in files


def test_folding_adds_a_workers_counts_to_those_folded_before(tmp_path, monkeypatch):
    """Two dead workers' counters sum in the archive (checked through prometheus_client's own reader)."""
    from prometheus_client import CollectorRegistry, multiprocess
    from prometheus_client.mmap_dict import MmapedDict

    for pid, value in ((101, 2.0), (102, 5.0)):
        written = MmapedDict(str(tmp_path / f"counter_{pid}.db"))
        written.write_value('["c_total", "c_total", {}, "c"]', value, time.time())
        written.close()
        retire_worker(pid, tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["counter_dead.db"]
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=str(tmp_path))
    assert registry.get_sample_value("c_total") == 7.0
