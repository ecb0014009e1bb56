"""Decks by link: which site and deck a link names (`locate`), and the deck itself
(`DeckSites.deck`), fetched at most once per cache period however many ask for it.

A link names a site this service knows and a deck id it has checked; the upstream URL is
built from those two alone (the site's module and the operator's API base), never from
the link's own text, so no user picks the host asked.

The cache (`DeckCache`: card_data.coordination keeps it in files next to the store, or in
Redis for a cluster) holds each deck for `cache_seconds`, and answers that the deck is
missing or that the site failed for a shorter while (`FAILURE_SECONDS`), so a popular link,
good or broken, costs the site one request. A request that finds no entry claims the
deck's fetch; every other request for the same deck meanwhile waits for the entry the
claimant leaves, within its own deadline.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from datetime import datetime, timezone
from types import ModuleType
from typing import Callable, NamedTuple, Protocol
from urllib.parse import urlsplit

import requests

from card_data.errors import DeckLinkRefused, DeckNotFound, DeckSiteFailed, DeckSiteTimeout, DeckSourceError
from card_data.http import Deadline, make_session
from card_data.settings import DeckSiteSettings, default_user_agent
# the site modules themselves, not `from card_data.sites import`: the package's __init__ imports this module
import card_data.sites.archidekt as archidekt
import card_data.sites.moxfield as moxfield
from card_data.sites.decks import SiteDeck
from card_data.sites.fetch import FETCH_SECONDS, Limits, fetch_json
from validator.messages import Text, msg

log = logging.getLogger(__name__)

SITES: tuple[ModuleType, ...] = (archidekt, moxfield)
MAX_LINK_LENGTH = 2048
FAILURE_SECONDS = 30  # how long "no such deck" or a failing site is remembered (at most cache_seconds)
WAIT_STEP = 0.05  # seconds between looks at the cache while another request fetches the deck
SUPPORTED = "Archidekt (archidekt.com/decks/<id>) and Moxfield (moxfield.com/decks/<id>)"
TURNED_OFF = msg("This service does not read decks from links; paste the deck's text export instead.")
# Each sentence whole for translators (the sites and what to paste said in each).
PASTE = msg("For a deck on another site, paste its text export instead (most sites offer Export, then Text or MTGO).")


class DeckLink(NamedTuple):
    """A link read: the site's module and the deck's id there."""

    site: ModuleType
    id: str

    @property
    def key(self) -> str:
        """The deck's cache key."""
        return f"{self.site.NAME}:{self.id}"


class DeckCache(Protocol):
    """Where fetched decks are kept, and who is fetching one (card_data.coordination)."""

    def get(self, key: str) -> bytes | None:
        """The entry, or None when there is none (or it expired)."""

    def put(self, key: str, value: bytes, seconds: float) -> None:
        """Keep an entry for `seconds`."""

    def claim(self, key: str, seconds: float) -> bool:
        """Take the right to fetch `key` (for at most `seconds`); False when another holds it."""

    def release(self, key: str) -> None:
        """Give the right back."""


def locate(link: str) -> DeckLink:
    """The site and deck a link names (with or without https://); DeckLinkRefused for any
    other link, saying which sites are read and what to paste instead."""
    text = link.strip()
    if len(text) > MAX_LINK_LENGTH or any(char.isspace() for char in text):
        raise DeckLinkRefused(msg("That is not one link. Links to {sites} decks are read.", sites=SUPPORTED).then(PASTE))
    if "://" not in text:
        text = "https://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise DeckLinkRefused(msg("That link cannot be read. Links to {sites} decks are read.", sites=SUPPORTED)
                              .then(PASTE)) from None
    host = (parts.hostname or "").lower()
    plain = parts.scheme.lower() in ("http", "https") and parts.username is None and port in (None, 80, 443)
    for site in SITES:
        if plain and host in site.HOSTS:
            deck = site.deck_id(parts.path)
            if deck is None:
                raise DeckLinkRefused(msg("That {site} link names no deck: links to {sites} decks are read.",
                                          site=site.LABEL, sites=SUPPORTED).then(PASTE))
            return DeckLink(site, deck)
    raise DeckLinkRefused(msg("Only links to {sites} decks are read.", sites=SUPPORTED).then(PASTE))


class MemoryCache:
    """A DeckCache in this process alone (a program that opens no store)."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[float, bytes]] = {}
        self._claims: dict[str, float] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            until, value = self._entries.get(key, (0.0, b""))
            return value if until > time.monotonic() else None

    def put(self, key: str, value: bytes, seconds: float) -> None:
        with self._lock:
            now = time.monotonic()
            self._entries = {k: v for k, v in self._entries.items() if v[0] > now}  # expired ones go
            self._entries[key] = (now + seconds, value)

    def claim(self, key: str, seconds: float) -> bool:
        with self._lock:
            if self._claims.get(key, 0.0) > time.monotonic():
                return False
            self._claims[key] = time.monotonic() + seconds
            return True

    def release(self, key: str) -> None:
        with self._lock:
            self._claims.pop(key, None)


class DeckSites:
    """The decks links name, fetched politely: a request budget per site (`limits_for(site
    name)`), a shared cache, FETCH_SECONDS for the whole of one fetch."""

    def __init__(self, settings: DeckSiteSettings, limits_for: Callable[[str], Limits], cache: DeckCache | None = None,
                 *, session: requests.Session | None = None, seconds: float = FETCH_SECONDS) -> None:
        self.settings = settings
        self.limits_for = limits_for
        self.cache = cache if cache is not None else MemoryCache()
        self.user_agent = settings.user_agent or default_user_agent()
        self.session = session or make_session(self.user_agent, retries=0, retry_statuses=())
        self.seconds = seconds

    def deck(self, link: str, deadline: Deadline | None = None) -> SiteDeck:
        """The deck a link names (DeckSourceError: why not)."""
        if not self.settings.enabled:
            raise DeckLinkRefused(TURNED_OFF)
        found = locate(link)
        headers = found.site.headers(self.settings, self.user_agent)  # Moxfield without a grant: refused here
        return self._cached(found, headers, deadline or Deadline(self.seconds))

    def _cached(self, link: DeckLink, headers: dict[str, str], deadline: Deadline) -> SiteDeck:
        """The cache's entry, else this request's own fetch, else another's once it lands."""
        while True:
            entry = self.cache.get(link.key)
            if entry is not None:
                return _decoded(entry)
            if self.cache.claim(link.key, deadline.remaining() + 1.0):
                try:
                    entry = self.cache.get(link.key)  # it may have landed as the claim was taken
                    return _decoded(entry) if entry is not None else self._fetched(link, headers, deadline)
                finally:
                    self.cache.release(link.key)
            if deadline.remaining() <= WAIT_STEP:
                raise DeckSiteTimeout(msg("{site} did not answer within {seconds} s; try again later.",
                                          site=link.site.LABEL, seconds=f"{deadline.seconds:g}"))
            time.sleep(WAIT_STEP)

    def _fetched(self, link: DeckLink, headers: dict[str, str], deadline: Deadline) -> SiteDeck:
        """Ask the site, and keep what it said (a deck, or that it has none or failed)."""
        keep = self.settings.cache_seconds
        try:
            document = fetch_json(self.session, link.site.api_url(self.settings, link.id), label=link.site.LABEL,
                                  limits=self.limits_for(link.site.NAME), deadline=deadline, headers=headers)
            deck = link.site.read(document, link.id, datetime.now(timezone.utc).isoformat(timespec="seconds"))
        except (DeckNotFound, DeckSiteFailed) as error:
            if keep > 0:
                self.cache.put(link.key, _failure(error), min(keep, FAILURE_SECONDS))
            if isinstance(error, DeckSiteFailed):  # the site's fault, not the user's: the operator's to know
                log.warning("deck %s could not be read: %s", link.key, error)
            raise
        except DeckSiteTimeout as error:
            log.warning("deck %s could not be read: %s", link.key, error)
            raise
        if keep > 0:
            self.cache.put(link.key, deck.to_json(), keep)
        return deck


def _failure(error: DeckSourceError) -> bytes:
    """An answer that is no deck, as the cache keeps it: its English, and its message as data
    (id and text parameters) so a request in another language hears it in its own."""
    kind = "not_found" if isinstance(error, DeckNotFound) else "failed"
    entry: dict = {"error": kind, "message": str(error)}
    text = error.text
    if text is not None and not text.more and text.plural is None and all(type(v) is str for _, v in text.params):
        entry["text"] = {"id": text.id, "params": dict(text.params)}
    return json.dumps(entry).encode("utf-8")


def _decoded(entry: bytes) -> SiteDeck:
    """A cache entry: the deck, or the failure it remembers raised again."""
    if entry.startswith(b'{"error"'):
        failure = json.loads(entry)
        kind = DeckNotFound if failure.get("error") == "not_found" else DeckSiteFailed
        said = failure.get("text")
        if isinstance(said, dict) and isinstance(said.get("id"), str) and isinstance(said.get("params"), dict):
            raise kind(Text(said["id"], tuple((str(k), str(v)) for k, v in said["params"].items())))
        raise kind(str(failure.get("message")))
    return SiteDeck.from_json(entry)
