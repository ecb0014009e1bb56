"""Fixtures shared by the edh-validate tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def real_db(shared_dir, tmp_path_factory) -> Path:
    """A card store built from ../shared/carddata/oracle-cards.jsonl.gz (about 10 s, once)."""
    from card_data.sync import import_file

    path = tmp_path_factory.mktemp("real-card-store") / "cards.sqlite3"
    import_file(path, shared_dir / "carddata" / "oracle-cards.jsonl.gz")
    return path
