"""The app as most tests build it: over a store file, offline (no background sync, no
Scryfall look-ups), rate limiting off unless the config turns it on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from edh_service.factory import create_app


def offline_app(db: str | Path, **config: Any):
    """create_app over the store at db, offline; config adds or overrides settings."""
    return create_app({"TESTING": True, "CARD_DB": str(db), "CARD_DATA_OFFLINE": True, **config})
