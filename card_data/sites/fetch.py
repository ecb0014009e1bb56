"""One deck document from a site's API: a GET of a URL this service built itself, held to
the bounds DESIGN.md "Decks by URL" sets, every failure one of card_data.errors'
DeckSourceError kinds.

- https only (http on a loopback address alone: a local test server), no redirect away
  from the URL's own scheme and host (redirects are not followed by requests; one on the
  same host is, at most MAX_REDIRECTS);
- one total deadline for the whole fetch, the wait for a request slot included (a
  card_data.http Cutoff shuts the socket of an answer that drips past it);
- the body streamed and refused past MAX_BODY_BYTES;
- the site's request budget (`Limits`: at most 2 requests a second, shared by every
  process and, through Redis, every host) claimed before each request, and a 429 the
  site sends honoured for every client of that budget.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any, Protocol
from urllib.parse import urljoin, urlsplit

import requests
import urllib3.exceptions

from card_data.errors import DeadlinePassed, DeckNotFound, DeckSiteBusy, DeckSiteFailed, DeckSiteTimeout
from card_data.http import DOWNLOAD_CHUNK, Cutoff, Deadline
from card_data.settings import allowed_base
from card_data.streams import size_text
from validator.messages import Text, msg

MAX_BODY_BYTES = 8 << 20  # a 100-card Archidekt deck is about 300 KB; Moxfield's about 500 KB
FETCH_SECONDS = 10.0  # the whole fetch: waiting for a slot, connecting, every byte of the answer
TIMEOUT = (3.05, 10.0)  # (connect, read), never past the deadline (Cutoff.timeout)
MAX_REDIRECTS = 2  # on the same scheme and host only
LOCKOUT_SECONDS = 30  # a 429 without a usable Retry-After
MISSING = (401, 403, 404, 410)  # the deck is private, deleted or was never there


class Limits(Protocol):
    """A site's request budget (card_data.coordination's RateLimits or RedisLimits)."""

    def acquire_slot(self) -> float:
        """0.0: the slot is claimed, send now; else seconds to wait before asking again."""

    def lockout_remaining(self) -> float:
        """Seconds left in a 429 lockout (0 when none)."""

    def lock_out(self, seconds: float) -> None:
        """Start (or extend) a lockout of `seconds` from now."""


def fetch_json(session: requests.Session, url: str, *, label: str, limits: Limits, deadline: Deadline,
               headers: dict[str, str] | None = None) -> Any:
    """The JSON value at `url` (a deck document of the site `label` names, e.g. "Archidekt")."""
    if not allowed_base(url):
        raise DeckSiteFailed(msg("{site} is set up at an address that is not https; it was not asked.", site=label))
    cutoff = Cutoff(deadline, label)
    try:
        with cutoff:  # leaving it past the deadline raises DeadlinePassed, whatever was raised inside
            body = _exchange(session, url, label, limits, cutoff, headers or {})
    except DeadlinePassed:
        raise _late(label, deadline) from None
    except (requests.exceptions.RequestException, urllib3.exceptions.HTTPError, OSError) as error:
        if _timed_out(error):
            raise _late(label, deadline) from error
        raise DeckSiteFailed(msg("{site} could not be reached ({reason}).", site=label, reason=type(error).__name__)) \
            from error
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as error:
        raise DeckSiteFailed(msg("{site} answered with something that is not its deck JSON.", site=label)) from error


def _timed_out(error: BaseException) -> bool:
    """A read or connect timeout, also as requests wraps one met while streaming the body."""
    timeouts = (requests.exceptions.Timeout, urllib3.exceptions.TimeoutError, TimeoutError)
    return isinstance(error, timeouts) or any(isinstance(arg, timeouts) for arg in error.args)


def _late(label: str, deadline: Deadline) -> DeckSiteTimeout:
    return DeckSiteTimeout(msg("{site} did not answer within {seconds} s; try again later.", site=label,
                               seconds=f"{deadline.seconds:g}"))


def _exchange(session: requests.Session, url: str, label: str, limits: Limits, cutoff: Cutoff,
              headers: dict[str, str]) -> bytes:
    """Send (following same-host redirects) and read the answer's bytes."""
    origin = urlsplit(url)[:2]
    for _ in range(MAX_REDIRECTS + 1):
        _claim_slot(label, limits, cutoff.deadline)
        with cutoff.watching():
            response = session.get(url, headers=headers, stream=True, allow_redirects=False,
                                   timeout=cutoff.timeout(TIMEOUT))
        with response:
            if response.is_redirect:
                target = urljoin(url, response.headers.get("Location", ""))
                if urlsplit(target)[:2] != origin:
                    raise DeckSiteFailed(msg("{site} answered with a redirect to another site; it was not followed.",
                                             site=label))
                url = target
                continue
            _check_status(response, label, limits)
            return _capped_body(response, label)
    raise DeckSiteFailed(msg("{site} answered with more than {redirects} redirects; they were not followed.",
                             site=label, redirects=str(MAX_REDIRECTS)))


def _claim_slot(label: str, limits: Limits, deadline: Deadline) -> None:
    """Wait for the site's next request slot, or say how long it is busy."""
    locked = limits.lockout_remaining()
    if locked > 0:
        raise DeckSiteBusy(slow_down(label, math.ceil(locked)), math.ceil(locked))
    while (delay := limits.acquire_slot()) > 0:
        if delay >= deadline.remaining():
            raise DeckSiteBusy(msg("Too many decks are being read from {site} just now; try again in a few seconds.",
                                   site=label), math.ceil(delay) + 1)
        time.sleep(delay)


def _check_status(response: requests.Response, label: str, limits: Limits) -> None:
    """Raise for an answer that is no deck: missing, rate-limited, failed."""
    status = response.status_code
    if status in MISSING:
        raise DeckNotFound(msg("{site} has no public deck there: it is private, deleted or was never made ({site} "
                               "answered {status}).", site=label, status=str(status)))
    if status == 429:
        seconds = _retry_after(response.headers.get("Retry-After"))
        limits.lock_out(seconds)
        raise DeckSiteBusy(slow_down(label, seconds), seconds)
    if status != 200:
        answered = f"{status} {response.reason or ''}".rstrip()
        raise DeckSiteFailed(msg("{site} answered {status} instead of the deck.", site=label, status=answered))


def slow_down(label: str, seconds: int) -> Text:
    """What a site's lockout (a 429 it sent) says."""
    return msg("{site} asked this service to slow down; try again in {seconds} s.", site=label, seconds=str(seconds))


def _retry_after(value: str | None) -> int:
    """A Retry-After of whole seconds (1 to 10 minutes), else LOCKOUT_SECONDS."""
    if value and value.strip().isdigit():
        return min(max(int(value.strip()), 1), 600)
    return LOCKOUT_SECONDS


def _capped_body(response: requests.Response, label: str) -> bytes:
    """The answer's bytes (decompressed), refused past MAX_BODY_BYTES as they stream in."""
    too_big = DeckSiteFailed(msg("{site}'s answer is over {size}; it was not read.", site=label,
                                 size=size_text(MAX_BODY_BYTES)))
    length = response.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > MAX_BODY_BYTES:
        raise too_big
    pieces, size = [], 0
    for piece in response.iter_content(DOWNLOAD_CHUNK):
        size += len(piece)
        if size > MAX_BODY_BYTES:
            raise too_big
        pieces.append(piece)
    return b"".join(pieces)
