"""bench/load_tool.py: the HTTP benchmarks find wrk on PATH, or skip with one line."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from bench.load_tool import MISSING, find_wrk

ROOT = Path(__file__).resolve().parents[2]


def fake_wrk(folder: Path) -> Path:
    """An executable named wrk in folder."""
    path = folder / "wrk"
    path.write_text("#!/bin/sh\necho 'wrk 4.1.0 [epoll]'\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def no_setup():
    raise AssertionError("a benchmark built its store without wrk to drive it")


def test_without_wrk_on_path_says_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_wrk() is None
    captured = capsys.readouterr()
    assert captured.err == MISSING + "\n"
    assert captured.out == ""


def test_wrk_on_path_is_found_silently(tmp_path, monkeypatch, capsys):
    wrk = fake_wrk(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_wrk() == str(wrk)
    assert capsys.readouterr().err == ""


def test_http_benchmarks_without_wrk_skip_their_rows(tmp_path, monkeypatch, capsys):
    from bench import bench_http, bench_load

    monkeypatch.setenv("PATH", str(tmp_path))
    for module in (bench_http, bench_load):  # nothing is built or started without wrk
        monkeypatch.setattr(module, "store_and_deck", no_setup)
    rows = bench_http.run() + bench_load.run()
    assert [(row.metric, row.value) for row in rows] == [("skipped", "wrk is not installed")] * 2
    assert capsys.readouterr().err == MISSING + "\n" + MISSING + "\n"


def test_bench_main_without_wrk_prints_no_traceback(tmp_path):
    """`python -m bench http` with a PATH lacking wrk: the one line, a skipped row, exit 0."""
    env = {**os.environ, "PATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bench", "bench_http"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert MISSING in done.stderr.splitlines()
    assert "skipped" in done.stdout and "wrk is not installed" in done.stdout



def test_each_benchmark_runs_in_a_process_of_its_own():
    """`python -m bench --one NAME` (what `python -m bench` runs per module) prints only the
    module's rows, as JSON; a module that fails exits non-zero with its traceback, so the
    table shows it FAILED."""
    done = subprocess.run([sys.executable, "-m", "bench", "--one", "bench_engine"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert {row["benchmark"] for row in rows} == {"engine"}
    assert any(row["metric"].startswith("validate(deck)") and row["value"].endswith("µs") for row in rows)
    broken = subprocess.run([sys.executable, "-m", "bench", "--one", "bench_no_such_module"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert broken.returncode == 1 and broken.stdout == ""
    assert "ModuleNotFoundError" in broken.stderr
