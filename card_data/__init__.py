"""Card data: Scryfall client, bulk sync, the SQLite store and name resolution.

Everything that touches Scryfall or disk lives here; the engine (validator) stays pure.
"""

from card_data.errors import CardDataError, CardDataUnavailable
from card_data.http import Deadline
from card_data.repository import (
    CardRepository, Resolution, describe_card, open_repository,
)
from card_data.settings import BracketSources, StoreSettings
from card_data.store.cards import CardStore, StoreMetadata

__all__ = [
    "BracketSources", "CardDataError", "CardDataUnavailable", "CardRepository", "CardStore", "Deadline",
    "Resolution", "StoreMetadata", "StoreSettings", "describe_card", "open_repository",
]
