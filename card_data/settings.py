"""What card_data is told: where the store is and how to reach its sources, as two frozen
values built once by whoever reads the configuration (the service and its commands read
edh_service.config's table; a test or another program builds them directly).

    StoreSettings   the store file, Scryfall's API, offline, the User-Agent, and the
                    several-instances coordination (REDIS_URL, the shared folder)
    BracketSources  where each synced list comes from (Commander Brackets' two, the
                    Pauper Commander commander list)
    DeckSiteSettings  the deck sites a link may name (Archidekt, Moxfield): on or off,
                    their APIs, Moxfield's granted User-Agent, how long a deck is kept

card_data knows no setting names: these values are its whole configuration. This module
imports nothing but the standard library.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_API_URL = "https://api.scryfall.com"
DEFAULT_SPELLBOOK_URL = "https://json.commanderspellbook.com"
DEFAULT_ARCHIDEKT_API_URL = "https://archidekt.com/api"
DEFAULT_MOXFIELD_API_URL = "https://api2.moxfield.com"
DECK_CACHE_SECONDS = 300
PROJECT = "edh-deck-validator"


def project_version() -> str:
    """This project's installed version (for the User-Agent)."""
    try:
        return metadata.version(PROJECT)
    except metadata.PackageNotFoundError:
        return "0.1.0"


def default_user_agent() -> str:
    """The User-Agent Scryfall asks for: this project's name and version."""
    return f"{PROJECT}/{project_version()}"


@dataclass(frozen=True, slots=True)
class StoreSettings:
    """One card store and how it is kept: the repository, the sync, adopting a published
    bulk file and the coordination all take this one value instead of six arguments.

    `redis_url` (several instances) shares Scryfall's budget, lockout and the sync lock
    through Redis; `shared_dir` is the folder where the syncing instance publishes the bulk
    file (docs/deployment.md). None: one host, files next to the store.
    """

    db_path: Path
    api_url: str = DEFAULT_API_URL
    offline: bool = False
    user_agent: str | None = None
    redis_url: str | None = None
    shared_dir: Path | None = None
    # Languages whose printed names resolve (None: every one in the table; empty: none).
    name_languages: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "db_path", Path(self.db_path))
        object.__setattr__(self, "api_url", self.api_url or DEFAULT_API_URL)
        object.__setattr__(self, "redis_url", self.redis_url or None)
        object.__setattr__(self, "shared_dir", Path(self.shared_dir) if self.shared_dir else None)


@dataclass(frozen=True, slots=True)
class BracketSources:
    """Where each synced list comes from: a file override, else Scryfall's searches (mass
    land denial, the Pauper Commander commanders) / Spellbook's export."""

    api_url: str = DEFAULT_API_URL
    spellbook_url: str = DEFAULT_SPELLBOOK_URL
    mass_land_denial_file: str | None = None
    combos_file: str | None = None
    user_agent: str | None = None
    pauper_commanders_file: str | None = None
    # A list less than half its last size is refused (the last one stays) unless this is set:
    # an export holding one two-card combo replaced 1,698 of them.
    allow_shrink: bool = False


WEEK_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True, slots=True)
class NameSources:
    """Where the table of names printed in other languages comes from, and for what.

    `languages`: Scryfall language codes to keep (None: every language Scryfall has; empty:
    the table is off, never built nor read). `names_file`: a local file instead of
    Scryfall's all_cards bulk file (CARD_NAMES_FILE). `refresh_seconds`: how long a table
    (or a check that found nothing newer) is good for (0: never refreshed once built).
    """

    languages: tuple[str, ...] | None = None
    names_file: str | None = None
    refresh_seconds: int = WEEK_SECONDS

    @property
    def off(self) -> bool:
        """CARD_NAME_LANGUAGES is empty: no table."""
        return self.languages == ()

    def wanted(self) -> frozenset[str] | None:
        """The languages to keep (None: all)."""
        return None if self.languages is None else frozenset(self.languages)


@dataclass(frozen=True, slots=True)
class DeckSiteSettings:
    """Decks read from a link (DESIGN.md "Decks by URL"): whether links are read at all
    (`enabled`, DECK_URLS), each site's API base, the User-Agent Moxfield granted this
    operator (None: Moxfield links are answered with how to paste its export instead), the
    User-Agent naming this project for Archidekt, and how long a fetched deck is kept.

    An API base is https, or http on a loopback address (a local test server): the
    sites are only ever asked over https.
    """

    enabled: bool = True
    archidekt_api_url: str = DEFAULT_ARCHIDEKT_API_URL
    moxfield_api_url: str = DEFAULT_MOXFIELD_API_URL
    moxfield_user_agent: str | None = None
    user_agent: str | None = None
    cache_seconds: int = DECK_CACHE_SECONDS

    def __post_init__(self) -> None:
        for name in ("archidekt_api_url", "moxfield_api_url"):
            object.__setattr__(self, name, getattr(self, name).rstrip("/"))
        object.__setattr__(self, "moxfield_user_agent", self.moxfield_user_agent or None)


def allowed_base(url: str) -> bool:
    """Whether a deck site's API base may be asked: https, or http on a loopback address."""
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return True
    host = parts.hostname or ""
    if parts.scheme != "http" or not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
