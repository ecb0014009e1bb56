"""`python -m card_data` is no program (card_data is a library): it says in one line to run
the `cards` command, and exits 2 without touching anything."""

from __future__ import annotations

import subprocess
import sys

from tests.support.cli_runs import ROOT


def test_python_m_card_data_points_to_the_cards_command(tmp_path):
    db = tmp_path / "cards.sqlite3"
    result = subprocess.run([sys.executable, "-m", "card_data", "sync", "--db", str(db)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "card_data is a library: run `cards` (or `python -m edh_service.cli.cards`) for sync, import, "
        "brackets and status"]
    assert not db.exists()
