"""A memo bounded by the characters it holds, not only by its entries.

The memos of names and lines are kept from one request to the next (a deck's names come
back on every save), so whatever they hold stays in the worker. Counted in entries alone,
20,000 entries of a 200-character name whose normalized key NFKD expands 18 times held
half a gigabyte. Here every entry is charged its characters (the caller says how many:
the key's and a text value's) plus a fixed cost, and when the next entry would pass the
budget the memo starts over: a flood of distinct long names costs time, never memory.

It is a dict, so look-ups stay C look-ups (`get`, `map(memo.get, names)`, `keys()`).
"""

from __future__ import annotations

from typing import Generic, Mapping, TypeVar

K = TypeVar("K")
V = TypeVar("V")

# What an entry costs besides its characters, in characters: a dict slot and a str header
# come to ~100 bytes, about 50 characters of a two-byte string.
ENTRY_CHARACTERS = 50


class CharacterMemo(dict[K, V], Generic[K, V]):
    """A dict that empties itself rather than hold more than `budget` characters (entries
    charged by `remember`, see the module docstring) or `max_entries` entries."""

    __slots__ = ("budget", "max_entries", "held")

    def __init__(self, budget: int, max_entries: int) -> None:
        super().__init__()
        self.budget = budget
        self.max_entries = max_entries
        self.held = 0  # characters charged since the memo last started over

    def can_hold(self, count: int, characters: int) -> bool:
        """Whether `count` entries of `characters` in all fit in the memo when it is empty."""
        return characters + ENTRY_CHARACTERS * count <= self.budget and count <= self.max_entries

    def fits(self, count: int, characters: int) -> bool:
        """Whether they fit beside what the memo holds now (no start-over needed)."""
        return (self.held + characters + ENTRY_CHARACTERS * count <= self.budget
                and len(self) + count <= self.max_entries)

    def remember(self, key: K, value: V, characters: int) -> None:
        """Keep key -> value, charged `characters` (plus ENTRY_CHARACTERS)."""
        cost = characters + ENTRY_CHARACTERS
        if cost > self.budget:
            return  # bigger than the whole memo: never kept
        if self.held + cost > self.budget or len(self) >= self.max_entries:
            self.clear()
        self[key] = value
        self.held += cost

    def remember_all(self, items: Mapping[K, V], characters: int) -> None:
        """Keep every item, charged `characters` in all (plus ENTRY_CHARACTERS each): the
        memo starts over first when they would not fit beside what it holds."""
        if not self.can_hold(len(items), characters):
            return
        if not self.fits(len(items), characters):
            self.clear()
        self.update(items)
        self.held += characters + ENTRY_CHARACTERS * len(items)

    def clear(self) -> None:
        """Forget everything, and the characters charged."""
        super().clear()
        self.held = 0
