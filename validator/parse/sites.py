"""The two deckbuilding sites' API documents, Archidekt's and Moxfield's, read as each site
means its boards (DESIGN.md "Decks by URL"): the same reading whether the JSON was pasted
(validator.parse.json) or fetched by the service from a link (card_data.sites).

`site_cards(document, site)` gives every card of the document as a `SiteCard`: its name,
quantity, the section it belongs to and the site's own pile it came from (Archidekt's
category, Moxfield's board), so a caller can name the pile. A document that is not the
shape it claims raises one of `SITE_ERRORS`.

Archidekt: a card's first category is its pile (a 2021 response has one `category`
instead; an official precon's cards have `categories: null`); the Commander category holds
the commanders and the Companion category (or `companion: true`) the companion;
`isPremier` decides nothing; Sideboard and Maybeboard are outside the deck whatever their
`includedInDeck` says, and so is any category whose `includedInDeck` is false; entries
with a `deletedAt` were removed on the site. Moxfield: v3 boards under `boards`, v2 at the
top level; attractions, stickers, contraptions and tokens are no part of the deck.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from validator.decklist import Section
from validator.parse.common import check_collections, heading_section

SITE_ERRORS = (TypeError, KeyError, AttributeError, ValueError, IndexError)


class SiteCard(NamedTuple):
    """A card as a site's export lists it (these two sites', and every JSON shape
    validator.parse.json reads), before it is checked and numbered."""

    name: Any
    quantity: Any
    section: Section
    set_code: Any = None
    collector_number: Any = None
    foil: bool = False
    source_id: Any = None  # the site's own id, quoted when the name is missing
    source: Any = None  # the string the name was read from, when it is not the name alone
    pile: str = ""  # the site's own name for where it lies (an Archidekt category, a Moxfield board)


# Archidekt's deckFormat numbers (its API; pyrchidekt's Format enum), as the site names them.
# 13 is Archidekt's "Brawl" from before Arena's Dec 2023 rename, the 60-card Standard one;
# 20 "Historic Brawl" is Arena's 100-card Brawl today.
ARCHIDEKT_FORMATS = {
    1: "Standard", 2: "Modern", 3: "Commander", 4: "Legacy", 5: "Vintage", 6: "Pauper", 7: "Custom",
    8: "Frontier", 9: "Future Standard", 10: "Penny Dreadful", 11: "1v1 Commander", 12: "Duel Commander",
    13: "Standard Brawl", 14: "Oathbreaker", 15: "Pioneer", 16: "Historic", 17: "Pauper EDH", 18: "Alchemy",
    19: "Explorer", 20: "Historic Brawl", 21: "Gladiator", 22: "Premodern", 23: "PreDH", 24: "Timeless",
    25: "Canadian Highlander",
}

MOXFIELD_BOARDS = {
    "commanders": Section.COMMANDER,
    "companions": Section.COMPANION,
    "mainboard": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "planes": Section.PLANAR,
    "schemes": Section.SCHEMES,
    "signatureSpells": Section.SIGNATURE,  # Oathbreaker's
}  # any other board (attractions, stickers, contraptions, tokens): not part of the deck
_MOXFIELD_V2_OTHERS = ("attractions", "stickers", "contraptions")

# Archidekt categories that place a card whatever their includedInDeck flag says.
_ARCHIDEKT_NAMED = ("commander", "companion", "sideboard", "maybeboard", "oathbreaker", "signature spell")


def site_cards(document: dict[str, Any], site: str) -> list[SiteCard]:
    """Every card of an Archidekt (`site` "archidekt") or Moxfield ("moxfield") document."""
    return _archidekt(document) if site == "archidekt" else _moxfield(document)


def archidekt_format(document: dict[str, Any]) -> str | None:
    """The format an Archidekt document names (its deckFormat number), as the site names it."""
    number = document.get("deckFormat")
    return ARCHIDEKT_FORMATS.get(number) if isinstance(number, int) and not isinstance(number, bool) else None


def _moxfield(data: dict[str, Any]) -> list[SiteCard]:
    """Moxfield API: boards of {key: {quantity, card: {name, set, cn}}} (v2 at the top
    level, v3 under "boards"). v2 lists a companion in companions and again in the
    sideboard (`isCompanion`) or the maybeboard: the same card, not another copy."""
    boards = data.get("boards")
    if isinstance(boards, dict):
        piles = {key: (board or {}).get("cards") or {} for key, board in boards.items()}
    else:
        piles = {key: data[key] for key in (*MOXFIELD_BOARDS, *_MOXFIELD_V2_OTHERS) if isinstance(data.get(key), dict)}
    check_collections(*piles.values())
    companions = {item["card"]["name"] for item in (piles.get("companions") or {}).values()}
    again = (Section.SIDEBOARD, Section.MAYBEBOARD) if not isinstance(boards, dict) else (Section.SIDEBOARD,)
    cards = []
    for key, pile in piles.items():
        section = MOXFIELD_BOARDS.get(key, Section.IGNORED)
        for item in pile.values():
            card = item["card"]
            if section in again and companions and (item.get("isCompanion") or card["name"] in companions):
                continue  # the same card as in companions, not a second copy
            if section is Section.SIDEBOARD and item.get("isCompanion"):
                section_here = Section.COMPANION
            else:
                section_here = section
            cards.append(SiteCard(card["name"], item.get("quantity"), section_here, card.get("set"), card.get("cn"),
                                  item.get("finish") == "foil" or bool(item.get("isFoil")), pile=str(key)))
    return cards


def _archidekt(data: dict[str, Any]) -> list[SiteCard]:
    """Archidekt API: cards with categories (the first is the pile); a category with
    includedInDeck false is outside the deck, and so are Sideboard and Maybeboard."""
    check_collections(data["cards"])
    check_collections(data.get("categories"))  # no entries, but each one is read
    included = {cat["name"].lower(): cat.get("includedInDeck", True) for cat in data.get("categories") or ()}
    cards = []
    for item in data["cards"]:
        if item.get("deletedAt"):
            continue  # removed from the deck on the site; kept in the API for history
        pile = _first_category(item)
        section = Section.COMPANION if item.get("companion") is True else _archidekt_section(pile.lower(), included)
        card = item["card"]
        cards.append(SiteCard(card["oracleCard"]["name"], item.get("quantity"), section,
                              (card.get("edition") or {}).get("editioncode"), card.get("collectorNumber"),
                              item.get("modifier") == "Foil", pile=pile))
    return cards



def _first_category(item: dict[str, Any]) -> str:
    """A card's pile: its first category (`categories`, or a 2021 response's `category`;
    none for a precon's `categories: null`)."""
    categories = item.get("categories")
    if categories is None:
        categories = item.get("category")
    if isinstance(categories, str):
        return categories
    first = categories[0] if categories else ""
    if not isinstance(first, str):
        raise TypeError(f"a category is {type(first).__name__}, not text")
    return first


def _archidekt_section(category: str, included: dict[str, Any]) -> Section:
    """The section an Archidekt category (lower case) stands for."""
    if category in _ARCHIDEKT_NAMED:
        return heading_section(category) or Section.MAIN
    if not included.get(category, True):
        return Section.SIDEBOARD
    return Section.MAIN
