"""ScryfallClient: the one place that speaks HTTP to Scryfall.

A Session from card_data.http (honest headers, timeouts, retries for 5xx and connection
errors; its `send` and `status_error` are the one error translation, shared with the
Spellbook client). Scryfall's rate limits are enforced here through a `Limits` budget
(card_data.coordination: a flock-guarded file next to the store, or Redis), across
threads, processes and hosts, and a 429 locks every client of that budget out for 30 s
instead of retrying.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any, Iterable, Iterator
from urllib.parse import urlsplit

import requests
import urllib3.exceptions

from card_data.coordination import Limits
from card_data.errors import BudgetSpent, CardDataError, CardDataUnavailable
from card_data.coordination.files import RateLimits
from card_data.http import (
    ANSWER_SECONDS, DEFAULT_BACKOFF, DEFAULT_RETRIES, DEFAULT_TIMEOUT, DOWNLOAD_CHUNK, DOWNLOAD_SECONDS,
    UNAVAILABLE_RETRY_AFTER, Cutoff, Deadline, Download, cut_download, make_session, send, status_error,
)
from card_data.settings import DEFAULT_API_URL, default_user_agent
from card_data.streams import cut, size_text

# Scryfall's 429 locks the client out for 30 s (its budget, 2 requests a second on these
# endpoints, is file_coordination.RATE_LIMITED_INTERVAL).
LOCKOUT_SECONDS = 30
COLLECTION_BATCH = 75  # identifiers per POST /cards/collection
# otag:mass-land-denial (about 106 cards) is one page of 175; an endless has_more chain stops
# here, and so many cards at most are kept from a search (is:paupercommander, some 5,600
# cards, passes its own bounds: bracket_lists.PAUPER_COMMANDER_PAGES).
MAX_SEARCH_PAGES = 20
SEARCH_PAGE_SIZE = 175
MAX_SEARCH_CARDS = MAX_SEARCH_PAGES * SEARCH_PAGE_SIZE
# A JSON answer is read into memory whole (decompressed), so it is capped: a 175-card search
# page is about 1 MB, a 75-card collection answer half that, a bulk-data object 1 KB.
MAX_ANSWER_BYTES = 4 << 20
MAX_DETAILS_CHARS = 200  # of an error object's details, quoted in our own error messages


class ScryfallClient:
    """Scryfall's API: bulk-data objects, bulk downloads and batched /cards/collection lookups."""

    def __init__(
        self,
        api_url: str = DEFAULT_API_URL,
        *,
        user_agent: str | None = None,
        session: requests.Session | None = None,
        timeout: tuple[float, float] = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        backoff: float = DEFAULT_BACKOFF,
        limits: Limits | None = None,
        answer_seconds: float = ANSWER_SECONDS,
        download_seconds: float = DOWNLOAD_SECONDS,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self.session = session or make_session(user_agent or default_user_agent(), retries, backoff)
        self.timeout = timeout
        self.limits = limits or RateLimits()
        # Total bounds, whatever Scryfall's pace: one JSON answer, one bulk download.
        self.answer_seconds = answer_seconds
        self.download_seconds = download_seconds

    # -- rate limiting ------------------------------------------------------------------

    def _check_lockout(self) -> None:
        """Refuse to send anything while a 429 lockout lasts."""
        remaining = self.limits.lockout_remaining()
        if remaining > 0:
            raise CardDataUnavailable(
                f"Scryfall rate limit: card data unavailable, retry after {math.ceil(remaining)} s",
                math.ceil(remaining),
            )

    def _wait_for_slot(self, deadline: Deadline) -> None:
        """Space rate-limited requests RATE_LIMITED_INTERVAL apart across threads and processes
        (and hosts, with Redis): wait until a slot can be claimed, then send at once. A wait
        that would outlast the deadline is not begun (BudgetSpent)."""
        while (delay := self.limits.acquire_slot()) > 0:
            if delay >= deadline.remaining():
                raise BudgetSpent(f"Scryfall's request budget has no slot within {deadline.seconds:g} s",
                                  math.ceil(delay))
            time.sleep(delay)  # outside any lock; then ask again (another waiter may win)

    def _lock_out(self) -> CardDataUnavailable:
        """Remember a 429 and build the error to raise."""
        self.limits.lock_out(LOCKOUT_SECONDS)
        return CardDataUnavailable(
            f"Scryfall rate limit (429): card data unavailable, retry after {LOCKOUT_SECONDS} s",
            LOCKOUT_SECONDS,
        )

    # -- requests -----------------------------------------------------------------------

    def _request(self, method: str, url: str, cutoff: Cutoff, *, limited: bool = False,
                 **kwargs: Any) -> requests.Response:
        """Send one request within the cutoff's deadline; translate every transport error;
        429 and error objects raise."""
        self._check_lockout()
        if limited:
            self._wait_for_slot(cutoff.deadline)
            self._check_lockout()  # another thread may have hit a 429 while we waited
        with cutoff.watching():
            response = send(self.session, method, url, upstream="Scryfall", timeout=cutoff.timeout(self.timeout),
                            **kwargs)
        if response.status_code == 429:
            response.close()
            raise self._lock_out()
        if response.status_code >= 400:
            raise self._error_for(response, url)
        return response

    @staticmethod
    def _error_for(response: requests.Response, url: str) -> CardDataError:
        """A CardDataError carrying Scryfall's error object details (cut short) when there is one."""
        try:
            details = _decoded(_answer_bytes(response, url), url).get("details") or response.reason
        except (CardDataError, AttributeError):
            details = response.reason
        finally:
            response.close()
        return status_error(response.status_code,
                            f"Scryfall answered {response.status_code} for {url}: {cut(str(details), MAX_DETAILS_CHARS)}")

    def _json(self, method: str, url: str, *, deadline: Deadline | None = None, **kwargs: Any) -> dict[str, Any]:
        """A request whose answer must be a JSON object (of at most MAX_ANSWER_BYTES), over
        within answer_seconds (or by `deadline`, when that comes first)."""
        bound = Deadline(self.answer_seconds) if deadline is None else deadline.within(self.answer_seconds)
        with Cutoff(bound, "Scryfall") as cutoff:
            response = self._request(method, url, cutoff, stream=True, **kwargs)
            try:
                body = _decoded(_answer_bytes(response, url), url)
            except BaseException:
                response.close()  # an answer refused half-read must not go back to the pool
                raise
        if not isinstance(body, dict):
            raise CardDataError(f"Scryfall sent an unexpected JSON value ({url})")
        return body

    def bulk_data(self, bulk_type: str = "oracle-cards") -> dict[str, Any]:
        """The bulk-data object for one type (GET /bulk-data/{type})."""
        body = self._json("GET", f"{self.api_url}/bulk-data/{bulk_type}")
        updated_at = body.get("updated_at")
        if body.get("object") != "bulk_data" or not isinstance(updated_at, str) or not updated_at:
            raise CardDataError(f"Scryfall's bulk-data answer for {bulk_type} is not a bulk_data object")
        return body

    def download(self, url: str) -> "Download":
        """Start streaming a bulk file; use as a context manager and iterate over raw chunks.
        The whole download, reading included, ends within download_seconds (DeadlinePassed)."""
        cutoff = Cutoff(Deadline(self.download_seconds), "Scryfall")
        return cut_download(cutoff, url, lambda: self._request("GET", url, cutoff, stream=True))

    def fetch_collection(self, names: Iterable[str], *,
                         deadline: Deadline | None = None) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
        """Look names up with POST /cards/collection, 75 a request, 2 requests a second.

        Returns ((name asked, card object) pairs, names Scryfall did not find).
        """
        found: list[tuple[str, dict[str, Any]]] = []
        not_found: list[str] = []
        for batch_found, batch_missing in self.collection_batches(names, deadline=deadline):
            found += batch_found
            not_found += batch_missing
        return found, not_found

    def collection_batches(self, names: Iterable[str], *, deadline: Deadline | None = None,
                           ) -> Iterator[tuple[list[tuple[str, dict[str, Any]]], list[str]]]:
        """fetch_collection one request (75 names) at a time, so a caller keeps what the
        first batches found when a later one is not answered. `deadline` bounds them all
        (a request's look-up budget); a slot in the 2-a-second budget is not waited for
        past it."""
        names = list(dict.fromkeys(names))
        for start in range(0, len(names), COLLECTION_BATCH):
            batch = names[start:start + COLLECTION_BATCH]
            body = self._json(
                "POST", f"{self.api_url}/cards/collection", deadline=deadline, limited=True,
                json={"identifiers": [{"name": name} for name in batch]},
            )
            yield _match_collection(batch, body)

    def search(self, query: str, *, max_pages: int = MAX_SEARCH_PAGES,
               max_cards: int = MAX_SEARCH_CARDS) -> Iterator[dict[str, Any]]:
        """Every card a search matches (GET /cards/search, following next_page, 2 requests a second).

        Scryfall answers 404 when no card matches: that raises CardDataNotFound. A chain of
        pages is followed only on this API's own search endpoint, never to a page it already
        gave, for `max_pages` pages and `max_cards` cards at most (MAX_SEARCH_PAGES and
        MAX_SEARCH_CARDS unless a search is known to be longer: is:paupercommander).
        """
        url = f"{self.api_url}/cards/search"
        params: dict[str, str] | None = {"q": query}
        followed: set[str] = set()
        cards = 0
        for _ in range(max_pages):
            body = self._json("GET", url, limited=True, params=params)
            if body.get("object") != "list" or not isinstance(body.get("data"), list):
                raise CardDataError(f"Scryfall's answer to the search {query!r} is not a list")
            page = [card for card in body["data"] if isinstance(card, dict)]
            cards += len(page)
            if cards > max_cards:
                raise CardDataError(f"Scryfall's search {query!r} returned over {max_cards:,} cards: refused")
            yield from page
            if not body.get("has_more"):
                return
            url, params = self._next_page(body.get("next_page"), query, followed), None  # next_page carries the query
        raise CardDataError(f"Scryfall's search {query!r} has more than {max_pages} pages")

    def _next_page(self, url: Any, query: str, followed: set[str]) -> str:
        """A search page's next_page, when it is a new page of this API's search endpoint."""
        if not isinstance(url, str) or not url:
            raise CardDataError(f"Scryfall's search {query!r} says has_more but gives no next_page")
        page, base = urlsplit(url), urlsplit(self.api_url)
        if (page.scheme, page.netloc.lower(), page.path) != (base.scheme, base.netloc.lower(),
                                                              f"{base.path.rstrip('/')}/cards/search"):
            raise CardDataError(f"Scryfall's search {query!r} gave a next_page away from {self.api_url}/cards/search: "
                                "not followed")
        if url in followed:
            raise CardDataError(f"Scryfall's search {query!r} gave a next_page it had given before (a loop): "
                                "not followed")
        followed.add(url)
        return url


def _answer_bytes(response: requests.Response, url: str) -> bytes:
    """The body of a JSON answer, decompressed, refused past MAX_ANSWER_BYTES (urllib3
    inflates a compressed answer a bounded piece at a time)."""
    length = response.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > MAX_ANSWER_BYTES:
        raise CardDataError(f"Scryfall's answer ({url}) is over {size_text(MAX_ANSWER_BYTES)}: refused")
    pieces, size = [], 0
    try:
        for piece in response.iter_content(DOWNLOAD_CHUNK):
            size += len(piece)
            if size > MAX_ANSWER_BYTES:
                raise CardDataError(f"Scryfall's answer ({url}) is over {size_text(MAX_ANSWER_BYTES)}: refused")
            pieces.append(piece)
    except (requests.exceptions.Timeout, requests.exceptions.ConnectionError) as error:
        raise CardDataUnavailable(f"Scryfall's answer broke off ({url}): {error}", UNAVAILABLE_RETRY_AFTER) from error
    except (requests.exceptions.RequestException, urllib3.exceptions.HTTPError, OSError) as error:
        raise CardDataError(f"Scryfall's answer could not be read ({url}): {error}") from error
    return b"".join(pieces)


def _decoded(body: bytes, url: str) -> Any:
    """A JSON answer's value; too deep a nesting is refused like any malformed answer."""
    try:
        return json.loads(body)
    except RecursionError as error:
        raise CardDataError(f"Scryfall's answer ({url}) is nested too deeply: refused") from error
    except MemoryError as error:
        raise CardDataError(f"ran out of memory reading Scryfall's answer ({url})") from error
    except ValueError as error:  # UnicodeDecodeError too
        raise CardDataError(f"Scryfall sent something that is not JSON ({url})") from error


def _match_collection(batch: list[str], body: dict[str, Any]) -> tuple[list[tuple[str, dict]], list[str]]:
    """Pair asked names with returned cards: `data` is in request order minus `not_found`."""
    missing = {(item or {}).get("name") for item in body.get("not_found") or ()}
    cards = iter(card for card in body.get("data") or () if isinstance(card, dict))
    found, not_found = [], []
    for name in batch:
        card = None if name in missing else next(cards, None)
        if card is None:
            not_found.append(name)
        else:
            found.append((name, card))
    return found, not_found
