"""Moxfield: its deck links and its API, which serves approved tools only.

Links: `moxfield.com/decks/<publicId>` (www. too; a page under the deck, such as
`/primer`, names the same deck). Moxfield tells approved tools apart by User-Agent: with
the one it granted this operator (`MOXFIELD_USER_AGENT`) the deck is
`GET {MOXFIELD_API_URL}/v3/decks/all/<publicId>`; without one, a link is answered with
how to paste Moxfield's own export instead (DeckLinkRefused). What the boards mean is
validator.parse.sites' reading; this module adds the title, `format` and declared
bracket: `userBracket`, else `bracket`, and none when the deck says `ignoreBrackets`.
"""

from __future__ import annotations

import re
from typing import Any

from card_data.errors import DeckLinkRefused, DeckSiteFailed
from card_data.settings import DeckSiteSettings
from card_data.sites.decks import SiteDeck, bracket, deck_text, read_cards, title
from validator.messages import msg

NAME = "moxfield"
LABEL = "Moxfield"
HOSTS = ("moxfield.com", "www.moxfield.com")
PATHS = re.compile(r"/decks/([A-Za-z0-9_-]{1,64})(?:/[A-Za-z0-9_-]*)?/?")
EXPORT = msg("Moxfield serves its deck data to approved tools only, and this service is not set up as one. "
             "Open the deck on Moxfield, choose Export, then Copy for MTGO, and paste that list instead.")


def deck_id(path: str) -> str | None:
    """The public id a path on Moxfield names, or None."""
    found = PATHS.fullmatch(path)
    return found[1] if found else None


def page_url(deck: str) -> str:
    """The deck's page on the site."""
    return f"https://moxfield.com/decks/{deck}"


def api_url(settings: DeckSiteSettings, deck: str) -> str:
    """Where the API serves the deck."""
    return f"{settings.moxfield_api_url}/v3/decks/all/{deck}"


def headers(settings: DeckSiteSettings, user_agent: str) -> dict[str, str]:
    """The User-Agent Moxfield granted (its API's one condition); refused without one."""
    if settings.moxfield_user_agent is None:
        raise DeckLinkRefused(EXPORT)
    return {"User-Agent": settings.moxfield_user_agent, "Accept": "application/json"}


def read(document: Any, deck: str, fetched_at: str) -> SiteDeck:
    """The deck a Moxfield document holds; DeckSiteFailed for anything else."""
    if not isinstance(document, dict) or not isinstance(document.get("boards", document.get("mainboard")), dict):
        raise DeckSiteFailed(msg("Moxfield answered with JSON that is not one of its decks."))
    cards = read_cards(document, NAME, LABEL)
    named = document.get("format") if isinstance(document.get("format"), str) else None
    declared = None
    if document.get("ignoreBrackets") is not True:
        declared = bracket(document.get("userBracket"))
        declared = declared if declared is not None else bracket(document.get("bracket"))
    return SiteDeck(NAME, deck, page_url(deck), title(document.get("name")), named, declared, fetched_at,
                    deck_text(cards, named))
