"""HTTP for every upstream card_data reads (Scryfall, Commander Spellbook): one Session
shape (honest headers, (connect, read) timeouts, urllib3 retries for 5xx and connection
errors, never for a 429), the one place a requests/urllib3 error or an error status
becomes CardDataError / CardDataUnavailable, and the streamed download both clients hand
out. Nothing above card_data sees a requests exception.
"""

from __future__ import annotations

from typing import Any, Iterator

import requests
import urllib3.exceptions
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from card_data.errors import CardDataError, CardDataNotFound, CardDataUnavailable

DEFAULT_TIMEOUT = (3.05, 30.0)  # (connect, read) seconds; a bulk download streams past 30 s fine
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF = 0.5
DOWNLOAD_CHUNK = 64 * 1024
# What callers should wait after a timeout, connection error, 429 or 5xx that survived
# retries (when the upstream's answer says nothing itself).
UNAVAILABLE_RETRY_AFTER = 30


def make_session(user_agent: str, retries: int = DEFAULT_RETRIES, backoff: float = DEFAULT_BACKOFF) -> requests.Session:
    """A Session with our headers and retries on 5xx and connection errors (never on 429)."""
    session = requests.Session()
    session.headers.update({"User-Agent": user_agent, "Accept": "application/json;q=0.9,*/*;q=0.8"})
    retry = Retry(
        total=retries,
        connect=retries,
        read=1,  # a read timeout is retried once: a stuck server rarely recovers quickly
        status=retries,
        backoff_factor=backoff,
        status_forcelist=(500, 502, 503, 504),
        allowed_methods=frozenset({"GET", "POST"}),  # /cards/collection is a read
        respect_retry_after_header=False,  # never sit out a 429 inside a request
    )
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("https://", adapter)
    session.mount("http://", adapter)  # the local test server
    return session


def send(session: requests.Session, method: str, url: str, *, upstream: str, **kwargs: Any) -> requests.Response:
    """session.request(...), every transport error translated: retries exhausted, a
    timeout or a refused connection is CardDataUnavailable, anything else CardDataError.
    `upstream` names the service in the messages ("Scryfall")."""
    try:
        return session.request(method, url, **kwargs)
    except requests.exceptions.RetryError as error:
        raise CardDataUnavailable(f"{upstream} kept failing ({url}): {error}", UNAVAILABLE_RETRY_AFTER) from error
    except (requests.exceptions.Timeout, requests.exceptions.ConnectionError) as error:
        raise CardDataUnavailable(f"{upstream} unreachable ({url}): {error}", UNAVAILABLE_RETRY_AFTER) from error
    except requests.exceptions.RequestException as error:
        raise CardDataError(f"request to {upstream} failed ({url}): {error}") from error


def status_error(status: int, message: str, retry_after: int = UNAVAILABLE_RETRY_AFTER) -> CardDataError:
    """The error for an answer of status >= 400: a 429 or 5xx is CardDataUnavailable (come
    back after retry_after), a 404 CardDataNotFound, any other CardDataError."""
    if status == 429 or status >= 500:
        return CardDataUnavailable(message, retry_after)
    if status == 404:
        return CardDataNotFound(message)
    return CardDataError(message)


class Download:
    """A streaming bulk-file response: the bytes exactly as sent, and their expected size."""

    def __init__(self, response: requests.Response, url: str) -> None:
        self.response = response
        self.url = url
        length = response.headers.get("Content-Length", "")
        self.length = int(length) if length.isdigit() else None

    def __enter__(self) -> "Download":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.response.close()

    def chunks(self) -> Iterator[bytes]:
        """Raw body chunks; gzip is left alone whatever Content-Encoding says (streams.py sniffs it)."""
        encoding = self.response.headers.get("Content-Encoding", "").strip().lower()
        # Let urllib3 undo only encodings we would not recognise by magic bytes (deflate, br).
        decode = encoding not in ("", "identity", "gzip", "x-gzip")
        try:
            yield from self.response.raw.stream(DOWNLOAD_CHUNK, decode_content=decode)
        except (urllib3.exceptions.HTTPError, requests.exceptions.RequestException, OSError) as error:
            raise CardDataError(f"the download of {self.url} broke off: {error}") from error
