"""Resolving names printed in other languages (DESIGN.md "Card names in other languages"):
the step CardRepository.resolve takes after every English match failed (exact, faces,
flavor names, the loose match) and before asking Scryfall.

One batched SELECT over the store's names table (names_table.lookup: every name's exact
and folded key at once, no query per name); exact printed names win over folded ones. A
name whose winning tier names one card resolves to it (a `Translation` says which and in
what language); one that names several is ambiguous: its candidates, English names, come
back instead (validator.deck.Candidates, for ambiguous_card), never a guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterable

from card_data import convert
from card_data.store import names_table
from card_data.names.printed import EXACT, FOLDED, exact_key, folded_of_exact
from card_data.store.cards import MAX_MEMO_NAMES, Snapshot
from validator.deck import Candidates, Card, Translation
from validator.parse import MAX_NAME_LENGTH


@dataclass(frozen=True, slots=True)
class PrintedMatches:
    """What the names table says of a batch of names."""

    cards: dict[str, Card]
    translated: dict[str, Translation]
    ambiguous: dict[str, Candidates]


NONE = PrintedMatches({}, {}, {})


def remembered(snapshot: Snapshot, names: list[str]) -> dict[str, Translation]:
    """The translations of the typed names resolved before through the table on this store
    file (their cards are in Snapshot.known_cards; see _remember). A list in English asks
    the memo once for all its names, in C (isdisjoint)."""
    memo = snapshot.generation.printed_by_name
    if not memo or memo.keys().isdisjoint(names):
        return {}
    found = list(map(memo.get, names))  # the look-ups in C, as Snapshot.known_cards does
    return {name: read for name, read in zip(names, found) if read is not None}


def look_up(snapshot: Snapshot, names: Iterable[str], languages: frozenset[str] | None = None) -> PrintedMatches:
    """The names (as typed) that the table knows; `languages` None: every language in it."""
    generation = snapshot.generation
    if generation.printed_table is None:
        generation.printed_table = names_table.present(snapshot.conn)
    keys = {name: _both_keys(name) for name in names if len(name) <= MAX_NAME_LENGTH}
    if not generation.printed_table or not keys:
        return NONE
    wanted = list(dict.fromkeys(key for pair in keys.values() for key in pair if key))
    # (key, tier) -> {English name: (languages, card JSON)}
    found: dict[tuple[str, int], dict[str, tuple[set[str], str]]] = {}
    for key, tier, lang, card, data in names_table.lookup(snapshot.conn, wanted):
        if languages is None or lang in languages:
            found.setdefault((key, tier), {}).setdefault(card, (set(), data))[0].add(lang)
    matches = PrintedMatches({}, {}, {})
    for name, (exact, folded) in keys.items():
        cards = found.get((exact, EXACT)) or found.get((folded, FOLDED))
        if not cards:
            continue
        if len(cards) > 1:
            matches.ambiguous[name] = Candidates(sorted(cards))
            continue
        (english, (langs, data)), = cards.items()
        matches.cards[name] = _card(snapshot, english, data)
        matches.translated[name] = Translation(english, min(langs))
    _remember(snapshot, matches)
    return matches


def _both_keys(name: str) -> tuple[str, str]:
    """The name's exact and folded keys, tidied once for both."""
    exact = exact_key(name)
    return exact, folded_of_exact(exact)


def _card(snapshot: Snapshot, english: str, data: str) -> Card:
    """The Card of an English name, from the store file's cache or the row just read."""
    key = convert.normalize_name(english)
    cache = snapshot.generation.cards_by_key
    card = cache.get(key)
    if card is None:
        card = cache[key] = convert.to_card(json.loads(data))
    return card


def _remember(snapshot: Snapshot, matches: PrintedMatches) -> None:
    """Keep typed name -> Card (with the English names, Snapshot.remember) and typed name ->
    Translation, so a list sent again resolves from memory. When the translations' memo is
    full both start over: no remembered card may outlive its translation."""
    if not matches.cards:
        return
    generation = snapshot.generation
    memo = generation.printed_by_name
    count, characters = len(matches.cards), sum(map(len, matches.cards))
    if not memo.can_hold(count, characters):
        return  # more than a whole memo holds: neither memo keeps them
    if len(memo) + count > MAX_MEMO_NAMES or not memo.fits(count, characters):
        memo.clear()
        generation.cards_by_name.clear()
    memo.remember_all({name: matches.translated[name] for name in matches.cards}, characters)
    snapshot.remember(matches.cards)


# Printed names an answer remembers per store file: the cards messages name recur (a deck sent
# again, the same staples); past this the memo starts over.
MAX_PRINTED_OF = 50_000


def printed_in(snapshot: Snapshot, english: Iterable[str], lang: str) -> dict[str, str]:
    """English card name -> a name it was printed with in `lang` (Scryfall's code), for the
    cards the table has a name for in it (DESIGN.md "Answers in the player's language"): one
    SELECT through the table's by-card index for the names not remembered on this file.
    Several printed names for a card in one language (reprints renamed, a face and its
    card): the one with as many faces as the English name (" // "), then the first in code
    point order, so every answer names a card the same way."""
    generation = snapshot.generation
    if generation.printed_table is None:
        generation.printed_table = names_table.present(snapshot.conn)
    if not generation.printed_table:
        return {}
    memo = generation.printed_of
    wanted = [name for name in dict.fromkeys(english) if (lang, name) not in memo and len(name) <= MAX_NAME_LENGTH]
    if wanted:
        if generation.printed_index is None:
            generation.printed_index = names_table.indexed(snapshot.conn)
        keys = {convert.normalize_name(name): name for name in wanted}
        found: dict[str, list[str]] = {}
        for key, printed in names_table.printed_names_of(snapshot.conn, list(keys), lang,
                                                        index=generation.printed_index):
            found.setdefault(keys[key], []).append(printed)
        if len(memo) + len(wanted) > MAX_PRINTED_OF:
            memo.clear()
        for name in wanted:
            memo[(lang, name)] = _chosen(name, found.get(name))
    return {name: shown for name in english if (shown := memo.get((lang, name))) is not None}


def _chosen(english: str, printed: list[str] | None) -> str | None:
    """The printed name shown for a card: as many faces as its English name, then the first."""
    if not printed:
        return None
    faces = english.count(" // ")
    return min(printed, key=lambda name: (name.count(" // ") != faces, name))
