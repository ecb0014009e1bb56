"""The Prometheus multiprocess files of a worker that died (gunicorn's child_exit, in the master).

Each worker writes its counters and histograms to `counter_<pid>.db` and `histogram_<pid>.db`
in PROMETHEUS_MULTIPROC_DIR, and /metrics sums every file. prometheus_client's
`mark_process_dead` removes only a dead worker's live gauges: its counter and histogram
files stay (they must, or the totals would go down), one set per worker that ever ran, each
read at every scrape. Here a dead worker's values are added into one file per kind
(`counter_dead.db`, `histogram_dead.db`; /metrics reads a file's kind from its name and
sums it like the others) and its own files are removed, so the directory holds the live
workers' files and two more, however many workers came and went.

The archive is written whole under another name and renamed over the last one, so a scrape
reads one archive or the other, never a half-written file. Between that rename and the
removal of the worker's own file a scrape may count the dead worker twice: one rename and
one unlink apart, in the master, which does nothing else meanwhile.
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
        archive = folder / f"{kind}_{ARCHIVE}.db"
        sums = {key: (value, timestamp) for key, value, timestamp, _ in
                (MmapedDict.read_all_values_from_file(str(archive)) if archive.is_file() else ())}
        for key, value, timestamp, _ in MmapedDict.read_all_values_from_file(str(dead)):
            sums[key] = (sums.get(key, (0.0, 0.0))[0] + value, timestamp)
        # Written whole under another name, then renamed over the archive: a scrape reads the
        # old archive or the new one, never one half-written (a file growing under a reader's
        # mmap read as no file at all, and /metrics lost the counter).
        building = folder / f"{kind}_{ARCHIVE}.db.new"  # not *.db: no scrape reads it meanwhile
        building.unlink(missing_ok=True)
        written = MmapedDict(str(building))
        try:
            for key, (value, timestamp) in sums.items():
                written.write_value(key, value, timestamp)
        finally:
            written.close()
        os.replace(building, archive)
        dead.unlink()
