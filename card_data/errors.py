"""The only exceptions that leave card_data: nothing above it sees requests or sqlite3 errors.

Two trees: `CardDataError` for the card data (a 503 to a client while it is out of reach),
and `DeckSourceError` for a deck read from a site's link (card_data.sites), whose kinds
say whose doing it was: the link or the deck (`DeckLinkRefused`, `DeckNotFound`), the
site's answer (`DeckSiteFailed`), the site's silence (`DeckSiteTimeout`), or this
service's own budget for the site (`DeckSiteBusy`).
"""

from __future__ import annotations

from validator.messages import Text


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


class DeckSourceError(Exception):
    """A deck could not be read from the link given; the message says why, for the user.
    Given as a validator.messages.Text, `text` keeps it so an answer can say it in the
    player's language; str() is its English either way."""

    def __init__(self, message: str | Text = "", *args: object) -> None:
        self.text = message if isinstance(message, Text) else None
        super().__init__(message.english() if isinstance(message, Text) else message, *args)


class DeckLinkRefused(DeckSourceError):
    """A link this service does not read: another site, a page that is no deck, a site
    not set up (Moxfield without a granted User-Agent), or links turned off."""


class DeckNotFound(DeckSourceError):
    """The site has no public deck there: private, deleted or never made."""


class DeckSiteFailed(DeckSourceError):
    """The site answered, but with an error or with something that is not its deck."""


class DeckSiteTimeout(DeckSourceError):
    """The site did not answer in time."""


class DeckSiteBusy(DeckSourceError):
    """This service may not ask the site now (its request budget, or a 429 the site sent);
    `retry_after` is how many seconds to wait."""

    def __init__(self, message: str | Text, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(1, int(retry_after))
