"""The card store `edh-validate` checks against: imported from --bulk-file when that file is
newer, synced from Scryfall when there is none (unless offline), then opened."""

from __future__ import annotations

import os
from pathlib import Path

from card_data import CardDataError, CardRepository, open_repository
from card_data import sync as card_sync
from card_data.store.cards import read_metadata
from edh_service import config
from edh_service.cli.paths import bulk_file_refusal


def quiet_progress_in_ci() -> None:
    """Silence the sync's progress bar in CI even when the runner allocates a terminal.

    card_data shows a tqdm bar only when stderr is a terminal; tqdm reads TQDM_DISABLE
    as the default for every bar, so CI logs stay free of carriage-return noise.
    """
    if os.environ.get("CI"):
        os.environ.setdefault("TQDM_DISABLE", "1")


def store_is_older(db: Path, bulk_file: Path) -> bool:
    """Whether the bulk file must be imported: no usable store, or one older than the file."""
    if read_metadata(db) is None:
        return True
    # Importing ~30k cards takes seconds; a runner that passes --bulk-file on every run
    # should pay for it only when the file changed since the store was built.
    return db.stat().st_mtime < bulk_file.stat().st_mtime


def open_card_store(db_path: str, *, offline: bool, bulk_file: str | None) -> CardRepository:
    """The card repository, importing or syncing the store first when needed.

    Raises card_data.CardDataError (exit 2) when the store is missing and cannot be built.
    The store's settings are CARD_DB (or --card-db), SCRYFALL_API_URL and offline: what
    `edh-validate` has always read of the table (not USER_AGENT, REDIS_URL...).
    """
    db = Path(db_path).expanduser()
    settings = config.store_settings({
        "CARD_DB": db, "SCRYFALL_API_URL": config.setting("SCRYFALL_API_URL"),  # as the service reads it
        "CARD_DATA_OFFLINE": offline,
    })
    quiet_progress_in_ci()
    if bulk_file:
        bulk = Path(bulk_file).expanduser()
        if refused := bulk_file_refusal(str(bulk)):
            raise CardDataError(f"bulk file {bulk}: {refused}")
        if not bulk.is_file():
            raise CardDataError(f"no such bulk file: {bulk}")
        if store_is_older(db, bulk):
            db.parent.mkdir(parents=True, exist_ok=True)
            card_sync.import_file(db, bulk)
    elif read_metadata(db) is None:
        if offline:
            raise CardDataError(
                f"no card store at {db} and --offline is set: run once without --offline, "
                "run `cards import PATH`, or pass --bulk-file PATH")
        db.parent.mkdir(parents=True, exist_ok=True)
        card_sync.sync(settings)
    return open_repository(settings)
