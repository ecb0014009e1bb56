"""Deck sites: decks read from a link to Archidekt or Moxfield (DESIGN.md "Decks by URL").

`DeckSites(settings, limits_for, cache).deck(link)` returns a `SiteDeck`: what the site
says of the deck (title, format, declared bracket) and the deck as the plain text the
service judges. One module a site (archidekt, moxfield: links, API address, what the
document says), `fetch` (one bounded, polite GET), `decks` (SiteDeck and its text),
`sources` (links, the cache, the single fetch per deck). Failures are card_data.errors'
DeckSourceError kinds.

May import: card_data's base modules (errors, http, settings, streams) and validator;
never store, coordination, scryfall, lists, names, the facade or edh_service (the budget
and the cache are handed in: edh_service wires card_data.coordination's).
"""

from card_data.sites.decks import SiteDeck
from card_data.sites.sources import DeckCache, DeckLink, DeckSites, MemoryCache, locate

__all__ = ["DeckCache", "DeckLink", "DeckSites", "MemoryCache", "SiteDeck", "locate"]
