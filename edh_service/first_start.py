"""What to do when there is no card data and Scryfall cannot be reached (DESIGN.md "First
start without Scryfall"): one text, with commands that work as written where it is read,
said by `cards sync` when it fails on an empty store (so by `make run`), by gunicorn as it
starts without a store, and by the background sync's first failure."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

BULK_DATA_PAGE = "https://scryfall.com/docs/api/bulk-data"
EXAMPLE_FILE = "/path/to/oracle-cards.jsonl.gz"


def cards_command() -> str:
    """How to run `cards` from here: `cards` when this environment's copy is on PATH (the
    Docker image, an activated virtualenv), else its path (`.venv/bin/cards` in a checkout)."""
    beside = Path(sys.executable).parent / "cards"
    if shutil.which("cards") == str(beside):
        return "cards"
    try:
        return str(beside.relative_to(Path.cwd()))
    except ValueError:
        return str(beside)


def in_checkout() -> bool:
    """Whether `make run` works from here (the working directory is a checkout)."""
    return (Path.cwd() / "Makefile").is_file() and (Path.cwd() / "edh_service").is_dir()


def no_card_data_hint(db: str | os.PathLike, *, offline: bool = False) -> str:
    """The lines that say why every validation answers 503 and how to load card data
    without internet."""
    why = ("CARD_DATA_OFFLINE is set, so Scryfall is not asked." if offline
           else "Scryfall could not be reached (no internet, or Scryfall is down).")
    lines = [
        f"No card data in {db}: {why} Until card data is loaded, validations answer 503.",
        f"To start without internet, download Scryfall's Oracle Cards bulk file ({BULK_DATA_PAGE}) on a machine "
        "that has internet, then run one of:",
    ]
    if in_checkout():
        lines.append(f"  make run CARD_DATA_FILE={EXAMPLE_FILE}   (imports it into the empty store, then serves)")
    lines.append(f"  {cards_command()} import {EXAMPLE_FILE}   (loads it; a running service picks it up at once)")
    if not offline:
        lines.append("Add CARD_DATA_OFFLINE=1 to stop asking Scryfall; without it the service keeps trying in the "
                     "background and loads Scryfall's data once it can reach it.")
    return "\n".join(lines)
