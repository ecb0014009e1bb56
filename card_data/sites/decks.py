"""A deck read from a site (`SiteDeck`) and the plain text it is judged as.

The service judges a fetched deck as text it writes itself (DESIGN.md "Decks by URL"):
an optional `Format: NAME` line (the format the site names), then each section under its
header (Commander, Companion, Signature Spells, Deck, Planar Deck, Scheme Deck, Sideboard,
Maybeboard, and the piles that are no part of the deck under their own names), one
`N Name` entry a line, so every line number a violation gives points into that text and
the user sees exactly what was judged. Nothing the site's user wrote can make a line of
another kind: names lose their line breaks and control characters, a deck's title is
never in the text, and a format name that is not plain words is left out.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from card_data.errors import DeckSiteFailed
from validator.brackets import BRACKETS
from validator.decklist import Section
from validator.messages import msg
from validator.parse.common import heading_section
from validator.parse.sites import SITE_ERRORS, SiteCard, site_cards

# Sections in the order the text lists them, with their headers (validator.parse reads
# each header back as that section).
HEADERS = {
    Section.COMMANDER: "Commander",
    Section.COMPANION: "Companion",
    Section.SIGNATURE: "Signature Spells",
    Section.MAIN: "Deck",
    Section.PLANAR: "Planar Deck",
    Section.SCHEMES: "Scheme Deck",
    Section.SIDEBOARD: "Sideboard",
    Section.MAYBEBOARD: "Maybeboard",
    Section.DISPLAY: "Display Commander",
}
OUTSIDE_HEADER = "Tokens"  # a pile outside the deck whose own name is no header the parser knows
PLAIN_FORMAT = re.compile(r"[A-Za-z0-9][A-Za-z0-9 '.-]{0,39}")  # "Commander", "duelCommander", "Pauper EDH"
UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
MAX_TITLE = 200  # characters of a deck's title kept


@dataclass(frozen=True, slots=True)
class SiteDeck:
    """A deck as read from a site: where from, what the site says of it, and the text judged."""

    site: str  # "archidekt", "moxfield"
    id: str  # the site's id of the deck
    url: str  # the deck's canonical page on the site
    name: str | None  # the deck's title on the site
    format: str | None  # the format the site names for it, as the site names it
    declared_bracket: int | None  # the Commander Bracket declared on the site
    fetched_at: str  # when the site was asked (ISO 8601, UTC)
    decklist: str  # the deck as text (deck_text)

    def to_json(self) -> bytes:
        """The deck as the cache keeps it."""
        return json.dumps(asdict(self), ensure_ascii=False).encode("utf-8")

    @classmethod
    def from_json(cls, data: bytes) -> "SiteDeck":
        """A deck the cache kept (DeckSiteFailed for bytes that are no such deck)."""
        try:
            return cls(**json.loads(data))
        except (ValueError, TypeError) as error:
            raise DeckSiteFailed("a cached deck could not be read") from error


def read_cards(document: Any, site: str, label: str) -> list[SiteCard]:
    """The cards of a site's deck document; DeckSiteFailed when it is not that site's shape."""
    try:
        return site_cards(document, site)
    except SITE_ERRORS as error:
        raise DeckSiteFailed(msg("{site} answered with JSON that is not the shape of its decks ({reason}).",
                                 site=label, reason=type(error).__name__)) from error


def deck_text(cards: Iterable[SiteCard], format_name: str | None = None) -> str:
    """The text judged: a `Format:` line, then each section under its header, `N Name` a line."""
    piles: dict[str, list[str]] = {}
    for card in cards:
        header = HEADERS.get(card.section) or _outside_header(card.pile)
        piles.setdefault(header, []).append(f"{_quantity(card.quantity)} {_one_line(card.name)}")
    order = [*HEADERS.values(), *sorted(set(piles) - set(HEADERS.values()))]
    blocks = ["\n".join([header, *piles[header]]) for header in order if header in piles]
    if format_name and PLAIN_FORMAT.fullmatch(format_name):
        blocks.insert(0, f"Format: {format_name}")
    return "\n\n".join(blocks) + "\n"


def _outside_header(pile: str) -> str:
    """A pile outside the deck under its own name when the parser reads that name as such a pile."""
    name = pile.strip().title()
    return name if heading_section(name) is Section.IGNORED else OUTSIDE_HEADER


def _quantity(value: object) -> str:
    """A count as the site gave it (the parser judges it); anything but a whole number is no deck."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise DeckSiteFailed(f"a card of the deck has no count ({type(value).__name__})")


def _one_line(name: object) -> str:
    """A card name on one line (no line break, no control character)."""
    if not isinstance(name, str):
        raise DeckSiteFailed(f"a card of the deck has no name ({type(name).__name__})")
    return UNPRINTABLE.sub(" ", name).strip() or "?"


def title(value: object) -> str | None:
    """A deck's title as said back: one line, at most MAX_TITLE characters; None when absent."""
    if not isinstance(value, str):
        return None
    text = UNPRINTABLE.sub(" ", value).strip()
    return (text if len(text) <= MAX_TITLE else text[:MAX_TITLE - 1] + "…") or None


def bracket(value: object) -> int | None:
    """A declared Commander Bracket: a whole number 1 to 5, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value in BRACKETS else None
