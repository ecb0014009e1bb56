"""Card data as a Flask extension, in the manner of flaskr's db.py.

`init_app(app)` builds the store's settings once from app.config (config.store_settings),
opens the card repository and starts the background sync, keeping both in
`app.extensions`; `get_repository()` hands the repository to a view; `lookup_budget()` is
the request's one budget for asking Scryfall about names the store lacks; `retry_after(error)`
is the one figure every 503 sends (API, page, /readyz). Nothing else reaches into
`app.extensions` for card data.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Flask, current_app, g

from card_data import CardDataError, CardDataUnavailable, CardRepository, Deadline, StoreSettings, open_repository
from card_data import sync
from card_data.names import sync as names_sync
from card_data.scryfall.building import SyncResult
from card_data.coordination import Coordination, coordination_for
from card_data.coordination.redis_backend import RedisCoordination
from edh_service.background_sync import BackgroundSync
from edh_service.config import bracket_sources, name_sources, store_settings

# The app.extensions keys of the CardRepository, the BackgroundSync and the StoreSettings.
REPOSITORY_KEY = "card_repository"
SYNC_KEY = "card_data_sync"
SETTINGS_KEY = "card_store_settings"


def init_app(app: Flask) -> None:
    """Put the live repository in app.extensions and start the background sync."""
    config = app.config
    settings = app.extensions[SETTINGS_KEY] = store_settings(config)
    syncer = None
    if config["CARD_DATA_SYNC"] and not settings.offline:
        syncer = BackgroundSync(
            settings.db_path,
            lambda: sync_store(settings, config),
            base=config["SYNC_BACKOFF_BASE"],
            cap=config["SYNC_BACKOFF_CAP"],
            refresh=config["CARD_DATA_REFRESH_SECONDS"],
            lock_poll=config["CARD_DATA_LOCK_POLL"],
            # One syncer per store (flock) or, with REDIS_URL, per cluster; the others
            # adopt the bulk file it publishes in CARD_DATA_SHARED_DIR.
            lock=coordination_for(settings).sync_lock(),
            adopt=lambda: adopt_published(settings, config),
            # `make run` synced the cards but leaves the names to the background (when due)
            on_existing_store=lambda: names_sync.refresh(settings, name_sources(config)),
        )
    app.extensions[SYNC_KEY] = syncer
    # The repository opens the store lazily and reopens it when a sync swaps the file, so
    # it can be created before the store exists (it raises CardDataUnavailable until then).
    app.extensions[REPOSITORY_KEY] = open_repository(settings)
    if syncer is not None:
        syncer.start()


def sync_store(settings: StoreSettings, config: Mapping[str, Any]) -> SyncResult:
    """One bulk sync of the store, then the bracket lists, then (when due: weekly) the names
    printed in other languages (the background thread calls this).

    The lists' sources are app.config's settings (SPELLBOOK_URL, MASS_LAND_DENIAL_FILE,
    COMBOS_FILE, CARD_NAME_LANGUAGES, CARD_NAMES_FILE...): the table read once by
    create_app, as `cards sync` reads it too. The store is in place before the names are
    looked at, so they never delay readiness; a names refresh that fails keeps the last
    table and fails nothing else (names_sync.refresh records it).
    """
    settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    result = sync.sync(settings, brackets=bracket_sources(config))
    names_sync.refresh(settings, name_sources(config))
    return result


def adopt_published(settings: StoreSettings, config: Mapping[str, Any] | None = None) -> SyncResult | None:
    """Build the store from the bulk file the syncing instance published (several
    instances), and install the names table it published; None when there is no newer
    bulk file. Never asks Scryfall."""
    settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    result = sync.adopt(settings)
    names_sync.adopt(settings, name_sources(config or {}))
    return result


def coordination_of(app: Flask) -> Coordination:
    """This process's card_data coordination (files, or Redis with REDIS_URL): the same
    object the repository, the sync and /metrics use."""
    return coordination_for(app.extensions[SETTINGS_KEY])


def probe_redis(app: Flask) -> dict[str, Any]:
    """Ask Redis now (one PING, 0.5 s at most; a failure starts the outage, logged once, and
    a success ends it) and return the coordination's status: backend, redis_up,
    redis_outages, redis_fallbacks. Without REDIS_URL: {"backend": "file"}."""
    coordination = coordination_of(app)
    if isinstance(coordination, RedisCoordination):
        coordination.call(coordination.redis.ping, lambda: False)
    return coordination.status()


def repository_of(app: Flask) -> CardRepository | None:
    """The app's card repository, or None before init_app (metrics read it outside requests)."""
    return app.extensions.get(REPOSITORY_KEY)


def syncer_of(app: Flask) -> BackgroundSync | None:
    """The app's background sync; None when this process does not sync."""
    return app.extensions.get(SYNC_KEY)


def get_repository() -> CardRepository:
    """The current app's card repository (raises CardDataUnavailable while there is none)."""
    repository = repository_of(current_app._get_current_object())  # type: ignore[attr-defined]  # a LocalProxy
    if repository is None:
        raise CardDataUnavailable("the app has no card repository", retry_after=wait_seconds())
    return repository


def lookup_budget() -> Deadline:
    """This request's budget for asking Scryfall about names the store lacks: one for the
    whole request (a batch's decks share it), CARD_LOOKUP_SECONDS from its first use."""
    context = g._get_current_object()  # one look-up through the context proxy
    budget = context.get("card_lookup_budget")
    if budget is None:
        config = current_app._get_current_object().config  # type: ignore[attr-defined]  # the proxy once, not its attribute path
        budget = context.card_lookup_budget = Deadline(config["CARD_LOOKUP_SECONDS"])
    return budget


def get_syncer() -> BackgroundSync | None:
    """The current app's background sync, if this process runs one."""
    return syncer_of(current_app)


def wait_seconds() -> int:
    """Seconds a client should wait for card data, as /readyz says: until this process's
    next sync attempt, or CARD_DATA_RETRY_AFTER when this process does not sync."""
    syncer = get_syncer()
    return syncer.retry_after() if syncer else int(current_app.config["CARD_DATA_RETRY_AFTER"])


def retry_after(error: CardDataUnavailable | None = None) -> int:
    """Retry-After for a 503 answered because card data is unavailable.

    Before any store exists every endpoint says what /readyz says (the background sync's
    next attempt; card_data's own "no store" figure is a fixed 60 s). Once a store is there
    (a look-up Scryfall rate-limited, say) the error's own figure stands.
    """
    waiting = wait_seconds()
    repository = repository_of(current_app)
    try:
        loaded = repository is not None and repository.metadata() is not None
    except CardDataError:
        loaded = False
    if not loaded or error is None:
        return max(1, int(waiting))
    return max(1, int(error.retry_after or waiting))
