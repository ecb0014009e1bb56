"""The only exceptions that leave card_data: nothing above it sees requests or sqlite3 errors."""

from __future__ import annotations


class CardDataError(Exception):
    """Card data could not be read, fetched or built (a bad download, a broken store...)."""


class CardDataUnavailable(CardDataError):
    """Card data is temporarily out of reach: Scryfall lockout, timeout, 5xx, no store yet.

    `retry_after` is how many seconds a caller should wait (the API sends it as Retry-After).
    """

    def __init__(self, message: str, retry_after: int = 30) -> None:
        super().__init__(message)
        self.retry_after = int(retry_after)


class DeadlinePassed(CardDataUnavailable):
    """An upstream did not finish its answer within the time it was given (a silent or
    dripping server, a request budget spent): what was read of it is thrown away."""


class BudgetSpent(CardDataUnavailable):
    """Not asked at all: the caller's time budget was spent (or no slot in the upstream's
    request budget came within it) before the request could be sent. No sign of an outage."""


class CardDataNotFound(CardDataError):
    """The upstream answered 404: no such object (for a search: no card matched)."""
