"""The background sync of a running service's card store: one thread per process, one
syncing process per store (or cluster), retrying with capped exponential backoff.

The service must come up even when Scryfall cannot be reached on a first start (a
deployment contract: it serves 503s, it does not crash): until a store exists, every lookup raises `CardDataUnavailable`, which the
API answers with 503 and `Retry-After`. Meanwhile one thread keeps trying to sync. Under
gunicorn every worker builds its own app, so a sync lock elects one syncing process:
card_data.coordination's, an flock next to the store on one host, or a Redis lock for the
whole cluster with REDIS_URL (docs/deployment.md). The others see the new file
when the card store notices the swapped-in inode; with several instances they also
`adopt` the bulk file the syncing instance published, without asking Scryfall.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from pathlib import Path
from typing import Callable

from card_data import CardDataError, CardDataUnavailable
from card_data.coordination import SyncLock, coordination_for
from card_data.settings import StoreSettings
from edh_service.first_start import no_card_data_hint

log = logging.getLogger(__name__)

# Retry-After told by a process that waits while another one syncs (card_data's own
# "come back later" for an unreachable Scryfall is 30 s too).
UNELECTED_RETRY_AFTER = 30.0

def backoff_delay(failures: int, *, base: float, cap: float) -> float:
    """Seconds to wait after `failures` failed syncs in a row: base, 2 base, 4 base... cap."""
    return min(cap, base * 2 ** max(0, failures - 1))


def jittered(seconds: float) -> float:
    """Spread retries by ±10% so many instances restarted together do not sync in lockstep."""
    return seconds * random.uniform(0.9, 1.1)


class BackgroundSync:
    """One daemon thread that syncs the store: right away when it is missing, then every
    `refresh` seconds; failures back off exponentially up to `cap`.

    Only the holder of `lock` (default: the store's flock) syncs; the others call `adopt`
    every `lock_poll` seconds while they wait (several instances: build the store from
    the published bulk file)."""

    def __init__(self, db_path: Path, sync: Callable[[], object], *, base: float = 5.0,
                 cap: float = 600.0, refresh: float = 24 * 3600.0, lock_poll: float = 10.0,
                 lock: SyncLock | None = None, adopt: Callable[[], object] | None = None,
                 on_existing_store: Callable[[], object] | None = None):
        self.db_path = Path(db_path)
        self._sync = sync
        self._adopt = adopt
        # Run once by the elected syncer when a store is already there at start (`make run`
        # synced the cards): the names in other languages, which `make run` leaves to it.
        self._on_existing_store = on_existing_store
        self._lock = lock if lock is not None else coordination_for(StoreSettings(self.db_path)).sync_lock()
        self.base, self.cap, self.refresh, self.lock_poll = base, cap, refresh, lock_poll
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="card-data-sync", daemon=True)
        self.next_attempt = time.monotonic()  # read by Retry-After
        self.last_error: str | None = None
        self._server_hint = 0.0  # Retry-After of the last failure, in seconds

    def start(self) -> "BackgroundSync":
        """Start the thread; returns self."""
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the thread to finish and wait for it (tests, shutdown)."""
        self._stop.set()
        if self._thread.ident is not None:  # started
            self._thread.join(timeout)
        self._lock.release()

    def retry_after(self) -> int:
        """Whole seconds until the next attempt, at least 1, for the Retry-After header."""
        return max(1, round(self.next_attempt - time.monotonic()))

    def _wait(self, seconds: float) -> bool:
        """Sleep unless stopped; True when the thread should go on."""
        self.next_attempt = time.monotonic() + seconds
        return not self._stop.wait(seconds)

    def _run(self) -> None:
        """Elect this process as the syncer, then sync while it holds the lock."""
        while self._elect():
            if not self._sync_while_held():
                return

    def _elect(self) -> bool:
        """Wait until this process holds the sync lock (adopting what the syncing instance
        publishes meanwhile); False when stopped."""
        while not self._lock.acquire():
            # Another process syncs; if it dies its lock goes with it and we take over. We
            # cannot see its schedule, so clients hear a conservative half a minute.
            self.next_attempt = time.monotonic() + UNELECTED_RETRY_AFTER
            self._adopt_published()
            if self._stop.wait(self.lock_poll):
                return False
        return True

    def _adopt_published(self) -> None:
        """Build the store from the bulk file another instance published, if newer."""
        if self._adopt is None:
            return
        try:
            if self._adopt() is not None:
                log.info("card data adopted from the shared bulk file into %s", self.db_path)
        except Exception as error:  # noqa: BLE001 - a bad shared file must not end the thread
            log.warning("adopting the shared bulk file failed: %s", error)

    def _sync_while_held(self) -> bool:
        """Sync now (no store yet) or every `refresh`; True when the lock was lost (wait
        for it again), False when stopped or there is nothing more to do."""
        if self.db_path.is_file():
            # `make run` or a mounted volume already provided a store: only refresh it.
            self._run_on_existing_store()
            if self.refresh <= 0 or not self._wait(jittered(self.refresh)):
                return False
        failures = 0
        while self._lock.held():
            failures, error = self._attempt(failures)
            delay = self._next_delay(failures)
            # Publish when to come back before why, so a reader that sees the error also
            # sees the matching Retry-After.
            self.next_attempt = time.monotonic() + (delay or 0.0)
            self.last_error = error
            if delay is None or not self._wait(delay):
                return False
        log.info("the sync lock went to another instance; %s waits for it again", self.db_path)
        return True

    def _run_on_existing_store(self) -> None:
        """The start-up step for an existing store (once); it must not end the thread."""
        step, self._on_existing_store = self._on_existing_store, None
        if step is None:
            return
        try:
            step()
        except Exception as error:  # noqa: BLE001 - the cards are there: serving goes on
            log.warning("the start-up step after an existing store failed: %s", error)

    def _attempt(self, failures: int) -> tuple[int, str | None]:
        """One sync: the number of consecutive failures after it, and why it failed."""
        self._server_hint = 0.0
        self.next_attempt = time.monotonic() + self.base  # mid-sync: "come back in a bit"
        try:
            self._sync()
        except CardDataUnavailable as error:
            self._server_hint = float(error.retry_after or 0)
            self._note_failure(error, failures + 1)
            return failures + 1, str(error)
        except CardDataError as error:
            self._note_failure(error, failures + 1)
            return failures + 1, str(error)
        except Exception as error:  # noqa: BLE001 - the thread must survive any bug
            log.exception("card data sync crashed")
            return failures + 1, repr(error)
        log.info("card data synced into %s", self.db_path)
        return 0, None

    def _next_delay(self, failures: int) -> float | None:
        """Seconds until the next sync; None when there is nothing more to do."""
        if failures:
            backoff = jittered(backoff_delay(failures, base=self.base, cap=self.cap))
            # Never earlier than the server asked (a 429 locks us out for 30 s).
            return max(backoff, self._server_hint)
        return jittered(self.refresh) if self.refresh > 0 else None

    def _note_failure(self, error: Exception, failures: int) -> None:
        """Say why the sync failed: a warning the first few times, then quieter info lines;
        the first time with no store at all, what to do about it (first_start)."""
        level = logging.WARNING if failures <= 3 else logging.INFO
        log.log(level, "card data sync failed (attempt %d): %s", failures, error)
        if failures == 1 and not self.db_path.exists():
            log.warning("%s", no_card_data_hint(self.db_path))
