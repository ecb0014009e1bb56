"""bench/bench_peer.py: the peer's interpreter is found or the rows are skipped with one line;
the peer script, given lists, answers each one's median and verdict (when the peer's venv is
there: `make peer-venv`)."""

from __future__ import annotations


import pytest

from bench import bench_peer
from bench.bench_http import REAL_CARDS


def test_without_the_peer_the_rows_are_skipped_with_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PEER_PYTHON", str(tmp_path / "missing-python"))
    assert bench_peer.peer_python() is None
    if REAL_CARDS.is_file():
        (row,) = bench_peer.run()
        assert row.metric == "skipped" and "make peer-venv" in row.value


def test_a_named_interpreter_is_used(tmp_path, monkeypatch):
    python = tmp_path / "python"
    python.write_text("")
    monkeypatch.setenv("PEER_PYTHON", str(python))
    assert bench_peer.peer_python() == python


def test_the_peer_script_times_and_judges_each_list(tmp_path, monkeypatch):
    monkeypatch.delenv("PEER_PYTHON", raising=False)
    python = bench_peer.peer_python()
    if python is None or not REAL_CARDS.is_file():
        pytest.skip("no peer venv (make peer-venv) or no ../shared")
    lists = [{"commander": "Atraxa, Praetors' Voice", "lines": ["1 Sol Ring", "1 Island"]},
             {"commander": "Krenko, Mob Boss", "lines": ["2 Sol Ring"]}]
    medians, valid = bench_peer.peer_medians(python, lists)
    assert len(medians) == 2 and all(0 < m < 1 for m in medians)
    assert valid == [False, False]  # 3 cards, not 100; and two Sol Rings
