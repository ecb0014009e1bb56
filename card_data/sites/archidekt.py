"""Archidekt: its deck links and its public deck API (no key needed).

Links: `archidekt.com/decks/<id>[/<slug>]` and `archidekt.com/api/decks/<id>/`, on
archidekt.com or www.archidekt.com. The deck is `GET {ARCHIDEKT_API_URL}/decks/<id>/`.
What the document means (categories, the companion, removed entries) is
validator.parse.sites' reading; this module adds what the site says of the deck: its
title, format (`deckFormat`) and declared bracket (`edhBracket`).
"""

from __future__ import annotations

import re
from typing import Any

from card_data.errors import DeckSiteFailed
from card_data.settings import DeckSiteSettings
from card_data.sites.decks import SiteDeck, bracket, deck_text, read_cards, title
from validator.parse.sites import archidekt_format
from validator.messages import msg

NAME = "archidekt"
LABEL = "Archidekt"
HOSTS = ("archidekt.com", "www.archidekt.com")
PATHS = re.compile(r"/(?:api/)?decks/(\d{1,12})(?:/[^/]*)?/?")  # the slug is the title, optional


def deck_id(path: str) -> str | None:
    """The deck id a path on Archidekt names, or None."""
    found = PATHS.fullmatch(path)
    return str(int(found[1])) if found and int(found[1]) > 0 else None


def page_url(deck: str) -> str:
    """The deck's page on the site."""
    return f"https://archidekt.com/decks/{deck}"


def api_url(settings: DeckSiteSettings, deck: str) -> str:
    """Where the API serves the deck."""
    return f"{settings.archidekt_api_url}/decks/{deck}/"


def headers(settings: DeckSiteSettings, user_agent: str) -> dict[str, str]:
    """Archidekt's API asks for nothing but an honest User-Agent."""
    return {"User-Agent": user_agent, "Accept": "application/json"}


def read(document: Any, deck: str, fetched_at: str) -> SiteDeck:
    """The deck an Archidekt document holds; DeckSiteFailed for anything else."""
    if not isinstance(document, dict) or not isinstance(document.get("cards"), list):
        raise DeckSiteFailed(msg("Archidekt answered with JSON that is not one of its decks."))
    cards = read_cards(document, NAME, LABEL)
    named = archidekt_format(document)
    return SiteDeck(NAME, deck, page_url(deck), title(document.get("name")), named,
                    bracket(document.get("edhBracket")), fetched_at, deck_text(cards, named))
