"""Fixtures shared by every test package."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared (real card data and decklists); skips the test when it is absent."""
    if not (SHARED / "carddata" / "oracle-cards.jsonl.gz").is_file():
        pytest.skip("../shared is absent (a fresh clone): real-data tests skipped")
    return SHARED
