"""The Prometheus multiprocess files of a worker that died (gunicorn's child_exit, in the master).

Each worker writes its counters and histograms to `counter_<pid>.db` and `histogram_<pid>.db`
in PROMETHEUS_MULTIPROC_DIR, and /metrics sums every file. prometheus_client's
`mark_process_dead` removes only a dead worker's live gauges: its counter and histogram
files stay (they must, or the totals would go down), one set per worker that ever ran, each
read at every scrape. Here a dead worker's values are added into one file per kind
(`counter_dead.db`, `histogram_dead.db`; /metrics reads a file's kind from its name and
sums it like the others) and its own files are removed, so the directory holds the live
workers' files and two more, however many workers came and went.

Between the sum's write and the removal a scrape may count the dead worker twice: one
write and one unlink apart, in the master, which does nothing else meanwhile.
"""

from __future__ import annotations

import os
from pathlib import Path

from prometheus_client import multiprocess
from prometheus_client.mmap_dict import MmapedDict

SUMMED_KINDS = ("counter", "histogram", "summary")
ARCHIVE = "dead"  # the pid part of the files holding the dead workers' sums


def retire_worker(pid: int, directory: str | os.PathLike | None = None) -> None:
    """Fold a dead worker's counters and histograms into the archive files and remove its
    files (its live gauges too, as mark_process_dead does)."""
    folder = Path(directory or os.environ["PROMETHEUS_MULTIPROC_DIR"])
    multiprocess.mark_process_dead(pid, str(folder))
    for kind in SUMMED_KINDS:
        dead = folder / f"{kind}_{pid}.db"
        if not dead.is_file():
            continue
        values = MmapedDict.read_all_values_from_file(str(dead))
        archive = MmapedDict(str(folder / f"{kind}_{ARCHIVE}.db"))
        try:
            for key, value, timestamp, _ in values:
                held, _ = archive.read_value(key)
                archive.write_value(key, held + value, timestamp)
        finally:
            archive.close()
        dead.unlink()
