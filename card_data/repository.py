"""CardRepository: every name a person types -> the right Card, in one batch per deck.

Order of lookups: the in-memory cache of the current store file, then one indexed
SELECT over the store's name index, then (unless offline) POST /cards/collection for
what is left (cached in the store, misses remembered for a day), then fuzzy
suggestions for the names that still don't resolve.

Scryfall is asked within a look-up budget (LOOKUP_SECONDS unless the caller shares one
across a request): when it does not answer in time (down, slow, a 429 lockout), the names
it was asked about stay unknown for this call and are said to be `unavailable`; a store
that is loaded never turns a typo into an outage.
"""

from __future__ import annotations

import logging
import os
import time
from array import array
from dataclasses import dataclass
from typing import Any, Final, Iterable, Mapping, final

from rapidfuzz import fuzz, process

from card_data.store import list_tables as bracket_tables, names_table
from card_data.names import lookup as printed_lookup
from card_data.scryfall.client import ScryfallClient
from card_data.coordination import coordination_for
from card_data.convert import clean_name, faces, normalize_name, to_card
from card_data.errors import BudgetSpent, CardDataError, CardDataUnavailable
from card_data.http import Deadline
from card_data.settings import StoreSettings
from card_data.store.cards import CardStore, Snapshot, StoreMetadata, file_stamp, settled
from validator.brackets import BracketData
from validator.deck import Card, Translation, wubrg
from validator.formats import FormatData
from validator.parse import MAX_NAME_LENGTH  # no card name is longer; longer input is not worth a request

log = logging.getLogger(__name__)

MAX_SUGGESTIONS = 3
SUGGESTION_CUTOFF = 60.0  # WRatio score below which a "suggestion" is noise
MISS_TTL_SECONDS = 24 * 60 * 60  # Scryfall asks clients to cache for at least 24 h
# Work bounds per resolve() call, so one hostile paste cannot pin a worker: a fuzzy
# suggestion costs ~6-13 ms over 30k keys (9,000 distinct typos took 122 s unbounded; 100
# of them were 0.8 s of the worst 1 MiB list), and every 75 misses cost one
# /cards/collection request at 2 a second. 40 typos with "did you mean" is more than any
# real list needs.
MAX_SUGGESTED_NAMES = 40
MAX_FETCHED_NAMES = 2 * 75
# What a request may spend waiting on Scryfall for names the store lacks, in all (DESIGN.md
# "First start without Scryfall"): past it the names are unknown_card plus card_lookup_unavailable.
LOOKUP_SECONDS = 2.0
# After Scryfall failed to answer (refused, timed out, 5xx, a 429 lockout), this process does
# not ask it about misses for this long: the next typos are answered at once instead of each
# spending the whole look-up budget on an outage. Then one request asks again.
OUTAGE_PAUSE_SECONDS = 15.0
LOOKUP_RETRIES = 1  # urllib3 retries its first retry at once; later ones back off


@final
@dataclass(slots=True, init=False)
class Resolution:
    """Cards keyed by each input string exactly, and suggestions for every name that failed.
    Built for every validation: a record as validator.deck_facts.Deck is (Final fields, its
    `__init__` written out, simple assignments instead of a frozen dataclass's setattr calls)."""

    cards: Final[dict[str, Card]]
    suggestions: Final[dict[str, tuple[str, ...]]]
    # The store file these cards came from: a response quoting metadata() read separately
    # could name the next file when a sync swaps in between (seen under load).
    metadata: Final[StoreMetadata | None]
    stamp: Final[tuple[int, int, int, int] | None]  # that file's store.file_stamp(), for bracket_data()
    # names (as typed) read in another language -> the English card and a language (printed_lookup)
    translated: Final[dict[str, Translation]]
    # names (as typed) the store lacks that Scryfall did not answer for in time (also unresolved)
    unavailable: Final[tuple[str, ...]]
    # the build of that store file: what was resolved against one build resolves the same
    # while it lasts (cards fetched since only add), so callers may keep answers by it
    build: Final[str | None]

    def __init__(self, cards: dict[str, Card], suggestions: dict[str, tuple[str, ...]],
                 metadata: StoreMetadata | None = None, stamp: tuple[int, int, int, int] | None = None,
                 translated: dict[str, Translation] | None = None, unavailable: tuple[str, ...] = (),
                 build: str | None = None) -> None:
        self.cards = cards
        self.suggestions = suggestions
        self.metadata = metadata
        self.stamp = stamp
        self.translated = {} if translated is None else translated
        self.unavailable = unavailable
        self.build = build


class CardRepository:
    """Resolves names against the store, fetching misses from Scryfall unless offline."""

    def __init__(self, store: CardStore, client: ScryfallClient | None = None, *, offline: bool = False,
                 name_languages: tuple[str, ...] | None = None) -> None:
        self.store = store
        self.client = None if offline else client
        # Languages whose printed names resolve: None every one the table has, () none.
        self.name_languages = None if name_languages is None else frozenset(name_languages)
        self._ask_after = 0.0  # time.monotonic() before which misses are not asked about (an outage)
        # (store build, list versions) -> the lists: rebuilt only when a list or the file changes
        # (file stamp it holds for, or None; (build, list versions); BracketData; FormatData)
        self._lists: tuple[tuple | None, tuple, BracketData, FormatData] | None = None

    def resolve(self, names: Iterable[str], *, suggest_limit: int = MAX_SUGGESTED_NAMES,
                lookup: Deadline | None = None) -> Resolution:
        """Resolve a batch of names (as typed) to Cards; raises CardDataUnavailable without data.

        Only the first `suggest_limit` unresolved names get fuzzy suggestions (a work bound).
        `lookup` is the budget for asking Scryfall about names the store lacks (one per
        request, shared by its decks; None: LOOKUP_SECONDS from the first question).
        """
        snapshot = self.store.snapshot()  # one store file for the whole call
        names = list(names)
        known = snapshot.known_cards(names)  # in English or in another language
        if known is not None:  # every name seen before
            translated = printed_lookup.remembered(snapshot, names)
            return Resolution(known, {}, snapshot.metadata(), snapshot.stamp, translated,
                              build=snapshot.generation.build_id)
        # A "name" longer than any card's is never normalized, looked up or remembered: NFKD
        # expands some characters 18 times, and it could only be unknown anyway.
        distinct = dict.fromkeys(names)
        keys = {name: snapshot.key_of(name) for name in distinct if len(name) <= MAX_NAME_LENGTH}
        found = snapshot.lookup(keys.values())
        snapshot.remember({name: found[key] for name, key in keys.items() if key in found}, keys)
        missing = {name: key for name, key in keys.items() if key not in found}
        printed = printed_lookup.NONE
        if missing:  # "Atraxa, Praetors Voice", "Kodamas Reach": punctuation forgiven
            found.update(self._loose_matches(snapshot, missing.values()))
            missing = {name: key for name, key in missing.items() if key not in found}
        if missing and self.name_languages != frozenset():  # English first; then printed names
            printed = printed_lookup.look_up(snapshot, missing, self.name_languages)
            missing = {name: key for name, key in missing.items()
                       if name not in printed.cards and name not in printed.ambiguous}
        unavailable: set[str] = set()
        if missing and self.client is not None:
            fetched, unavailable = self._fetch(missing, lookup)
            found.update(fetched)
        cards = {name: found[key] for name, key in keys.items() if key in found}
        cards.update(printed.cards)
        unresolved = [(name, key) for name, key in keys.items() if name not in cards and name not in printed.ambiguous]
        # Past the bound a name is still unknown (every miss is in suggestions), just with none.
        suggestions = {name: self._suggest(snapshot, key) if index < suggest_limit else ()
                       for index, (name, key) in enumerate(unresolved)}
        if len(keys) < len(distinct):  # the overlong names: unknown, no suggestion
            suggestions.update((name, ()) for name in distinct if len(name) > MAX_NAME_LENGTH)
        suggestions.update(printed.ambiguous)  # the candidates of an ambiguous name (ambiguous_card)
        unasked = tuple(name for name, key in missing.items() if key in unavailable and name not in cards)
        return Resolution(cards, suggestions, snapshot.metadata(), snapshot.stamp, printed.translated, unasked,
                          snapshot.generation.build_id)

    def metadata(self) -> StoreMetadata | None:
        """Source, updated_at and card count of the current store (None before the first sync)."""
        return self.store.metadata()

    def bracket_data(self, stamp: tuple[int, int, int, int] | None = None) -> BracketData:
        """The mass land denial and combo lists of the current store, for check(bracket_data=...).

        A list never loaded (or a store from before bracket data) is None in the result, so
        the engine reports it as not checked. Cached until a sync or refresh changes a list.
        Asking the store on every validation cost ~8 µs of ~270, so one stat of the file
        decides: the same file (inode), mtime and size as at the last answer, and written
        over store.QUIET_SECONDS before it (a later write could not share its coarse mtime), is
        the same lists; anything else asks the store for the lists' versions. `stamp` is a
        Resolution's (the file its cards came from), which spares that stat.
        """
        return self._synced_lists(stamp)[2]

    def format_data(self, stamp: tuple[int, int, int, int] | None = None) -> FormatData:
        """The formats' lists of the current store (the Pauper Commander commanders), for
        check(format_data=...): None for a list never loaded (an old store included), so the
        engine says legality_unknown. Cached with bracket_data, on the same terms."""
        return self._synced_lists(stamp)[3]

    def _synced_lists(self, stamp: tuple[int, int, int, int] | None) -> tuple[tuple | None, tuple, BracketData,
                                                                                FormatData]:
        """The cache entry of the current store's lists (see bracket_data)."""
        if stamp is None:
            try:
                stamp = file_stamp(os.stat(self.store.path))
            except OSError:
                stamp = None  # no store: snapshot() below says so
        cached = self._lists
        if cached is not None and stamp is not None and cached[0] == stamp:
            return cached
        snapshot = self.store.snapshot()
        key = (snapshot.generation.build_id, bracket_tables.versions(snapshot.conn))
        if cached is not None and cached[1] == key:
            brackets, formats = cached[2], cached[3]
        else:
            brackets, formats = bracket_tables.read(snapshot.conn), bracket_tables.read_format_data(snapshot.conn)
        entry = (stamp if stamp is not None and settled(stamp) else None, key, brackets, formats)
        self._lists = entry
        return entry

    def names_status(self) -> names_table.NamesStatus:
        """The table of names printed in other languages: languages, names, updated_at (empty
        when the store has none, or CARD_NAME_LANGUAGES is empty)."""
        if self.name_languages == frozenset():
            return names_table.NamesStatus()
        return names_table.read_status(self.store.path)

    def printed_names(self, english_names: Iterable[str], lang: str) -> dict[str, str]:
        """English card name -> its printed name in `lang` (Scryfall's language code: "es",
        "zhs"), for the names the names table has in that language; the others are left
        out (shown in English). English, or no table: nothing."""
        if lang == "en" or self.name_languages == frozenset():
            return {}
        english_names = list(english_names)
        if not english_names:
            return {}
        return printed_lookup.printed_in(self.store.snapshot(), english_names, lang)

    def bracket_status(self) -> dict[str, bracket_tables.ListStatus] | None:
        """Source, updated_at, size and last failure of each synced list, the bracket lists and
        the formats' (bracket_tables.LISTS; None: no store)."""
        return bracket_tables.status(self.store.path)

    def describe(self, name: str) -> dict[str, Any] | None:
        """What /api/v1/cards/<name> shows of the stored card, or None when the name is unknown."""
        card = self.resolve([name]).cards.get(name)
        if card is None:
            return None
        record = self.store.snapshot().record(normalize_name(card.name)) or {}
        return describe_card(card, record)

    def _fetch(self, missing: Mapping[str, str], lookup: Deadline | None) -> tuple[dict[str, Card], set[str]]:
        """Ask Scryfall for names the store lacks, within the look-up budget; cache what it
        finds and what it doesn't. Returns the cards by key, and the keys it was asked
        about and did not answer for in time (down, slow, a 429 lockout: not remembered
        as misses, so the next request asks again)."""
        asked = {key: clean_name(name) for name, key in missing.items() if key and len(name) <= MAX_NAME_LENGTH}
        for key in self.store.recent_misses(asked, MISS_TTL_SECONDS):
            del asked[key]
        # Names past the bound stay unknown for this request (and are not remembered as misses).
        asked = dict(list(asked.items())[:MAX_FETCHED_NAMES])
        if not asked:
            return {}, set()
        if self.client is None or time.monotonic() < self._ask_after:  # offline, or Scryfall just failed
            return {}, set(asked)
        found: list[tuple[str, dict]] = []
        not_found: list[str] = []
        unanswered: set[str] = set()
        try:
            for batch_found, batch_missing in self.client.collection_batches(
                    asked.values(), deadline=lookup or Deadline(LOOKUP_SECONDS)):
                found += batch_found
                not_found += batch_missing
        except CardDataUnavailable as error:  # the names not answered for stay unknown, this time
            answered = {normalize_name(name) for name, _ in found} | {normalize_name(name) for name in not_found}
            unanswered = {key for key in asked if key not in answered}
            if not isinstance(error, BudgetSpent):  # an outage, not a busy moment: pause the questions
                self._ask_after = time.monotonic() + OUTAGE_PAUSE_SECONDS
            log.warning("Scryfall did not answer for %d card names in time; they stay unknown: %s", len(unanswered),
                        error)
        except CardDataError as error:  # e.g. a 400 for an odd name: the names stay unknown
            log.warning("card lookup failed, names stay unknown: %s", error)
        if found or not_found:
            self._cache(found, not_found)
        return {normalize_name(name): to_card(payload) for name, payload in found}, unanswered

    def _cache(self, found: list[tuple[str, dict]], not_found: list[str]) -> None:
        """Store fetched cards (with the name that found them) and remember the misses."""
        try:
            self.store.add_cards((payload, [normalize_name(name)]) for name, payload in found)
            self.store.record_misses(normalize_name(name) for name in not_found)
        except CardDataError as error:  # caching is an optimisation; the answer stands
            log.warning("could not cache fetched cards: %s", error)

    @staticmethod
    def _loose_matches(snapshot: Snapshot, keys: Iterable[str]) -> dict[str, Card]:
        """Cards for keys that differ from one card's name only in punctuation and spacing."""
        index = snapshot.fuzzy_index(SuggestionIndex)
        canonical = {key: name for key in keys if len(key) <= MAX_NAME_LENGTH
                     and (name := index.loose_match(key)) is not None}
        if not canonical:
            return {}
        cards = snapshot.lookup([normalize_name(name) for name in canonical.values()])
        return {key: cards[normalize_name(name)] for key, name in canonical.items()
                if normalize_name(name) in cards}

    @staticmethod
    def _suggest(snapshot: Snapshot, key: str) -> tuple[str, ...]:
        """Up to three canonical names close to an unresolved key."""
        # A "name" longer than any card's is no typo of one; matching it would only cost time.
        return snapshot.fuzzy_index(SuggestionIndex).suggest(key) if key and len(key) <= MAX_NAME_LENGTH else ()


class SuggestionIndex:
    """Fuzzy "did you mean" over every name key of one store file (rapidfuzz).

    WRatio ranks best (it forgives missing words: "Atraxa" -> "Atraxa, Praetors' Voice")
    but costs ~150 ms over 30k keys, so it only re-ranks a shortlist: the closest keys by
    the cheap QRatio plus the keys whose first word is the typed one or close to it.
    """

    SHORTLIST = 12
    SAME_FIRST_WORD = 40
    CLOSE_FIRST_WORDS = 3
    QRATIO_CUTOFF = 40
    # A QRatio (200 * longest common subsequence / sum of lengths) of 40 needs the shorter string to
    # be at least a quarter of the longer (QRATIO_REACH): a typed name of 4n characters or
    # more is compared with the keys of n or more alone, in index order, so the shortlist
    # is the same. Real names are never that long (the longest key is 61 characters): a
    # 90-character one is compared with the 6,235 keys of 20 or more instead of 31,299.
    # Each step's keys are gathered the first time a name that long comes (4-10 ms), so
    # building the index, at a store file's first unknown name, pays nothing for them.
    QRATIO_REACH = 200 / QRATIO_CUTOFF - 1
    LENGTH_STEPS = (16, 20, 24, 32, 48)

    def __init__(self, keys: list[str], names: list[str]) -> None:
        self.keys, self.names = keys, names
        self.by_first_word: dict[str, list[int]] = {}
        # Letters and digits only -> the one canonical name they spell (None: ambiguous).
        self.loose: dict[str, str | None] = {}
        for index, key in enumerate(keys):
            self.by_first_word.setdefault(_first_word(key), []).append(index)
            loose = _loose(key)
            if loose and self.loose.setdefault(loose, names[index]) != names[index]:
                self.loose[loose] = None  # two cards spell the same: guess neither

        self.first_words = list(self.by_first_word)
        self.long_keys: dict[int, tuple[list[str], array]] = {}  # n -> the keys of n or more, their indices

    def loose_match(self, key: str) -> str | None:
        """The canonical name whose key has the same letters and digits, when only one does."""
        return self.loose.get(_loose(key))

    def _qratio_choices(self, length: int) -> tuple[list[str], array | None]:
        """The keys a typed key of `length` characters can reach QRATIO_CUTOFF with (a
        superset, in index order), and their indices (None: all keys, as they are)."""
        least = next((n for n in reversed(self.LENGTH_STEPS) if length >= self.QRATIO_REACH * n), None)
        if least is None:
            return self.keys, None
        found = self.long_keys.get(least)
        if found is None:  # the same list whichever thread builds it
            indices = array("i", (index for index, key in enumerate(self.keys) if len(key) >= least))
            found = self.long_keys[least] = ([self.keys[index] for index in indices], indices)
        return found

    def closest(self, key: str) -> set[int]:
        """The indices of the SHORTLIST keys closest to `key` by QRatio (ties: the first)."""
        choices, indices = self._qratio_choices(len(key))
        close = process.extract(key, choices, scorer=fuzz.QRatio, limit=self.SHORTLIST,
                                score_cutoff=self.QRATIO_CUTOFF)
        return {index if indices is None else indices[index] for _, _, index in close}

    def suggest(self, key: str) -> tuple[str, ...]:
        """Up to MAX_SUGGESTIONS canonical names, best first, each card once."""
        shortlist = self.closest(key)
        # Keys whose first word is the typed one or a near miss of it ("thrasioss" -> Thrasios).
        for word, _, _ in process.extract(_first_word(key), self.first_words, scorer=fuzz.ratio,
                                          limit=self.CLOSE_FIRST_WORDS, score_cutoff=75):
            shortlist.update(self.by_first_word[word][: self.SAME_FIRST_WORD])
        scored = sorted(
            ((fuzz.WRatio(key, self.keys[index]), -index) for index in shortlist), reverse=True
        )
        # Several keys (faces, flavor names) point at one card: suggest each card once.
        unique = dict.fromkeys(self.names[-index] for score, index in scored if score >= SUGGESTION_CUTOFF)
        return tuple(unique)[:MAX_SUGGESTIONS]


def _loose(key: str) -> str:
    """A key's letters and digits alone: "atraxa, praetors' voice" -> "atraxapraetorsvoice"."""
    return "".join(filter(str.isalnum, key))


_FILLER_WORDS = frozenset({"the", "a", "an", "of"})  # shared by thousands of names: no signal


def _first_word(key: str) -> str:
    """The first telling word of a key, without punctuation ("the atraxa, x" -> "atraxa")."""
    words = [word.strip(",.:;!?'\"") for word in key.split()]
    return next((word for word in words if word not in _FILLER_WORDS), "")


def describe_card(card: Card, record: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-ready summary of a card: what the service knows and shows about it."""
    summary: dict[str, Any] = {
        "name": card.name,
        "mana_cost": card.mana_cost,
        "mana_value": card.mana_value,
        "type_line": record.get("type_line", card.type_line),
        "oracle_text": card.oracle_text,
        "color_identity": list(wubrg(card.color_identity)),
        "keywords": sorted(card.keywords),
        "layout": card.layout,
        "legalities": dict(record.get("legalities") or {"commander": card.legality}),
        "game_changer": card.game_changer,
    }
    if record.get("card_faces"):
        summary["faces"] = [
            {field: face.get(field, "") for field in ("name", "mana_cost", "type_line", "oracle_text")}
            for face in faces(record)
        ]
    for optional in ("scryfall_uri", "flavor_name", "printed_name"):
        if record.get(optional):
            summary[optional] = record[optional]
    return summary


def open_repository(settings: StoreSettings) -> CardRepository:
    """A repository over the store at settings.db_path; online look-ups go to
    settings.api_url unless settings.offline.

    Scryfall's budget and lockout are shared by every process using the store (a file
    next to it) or, with settings.redis_url, by every instance using that Redis
    (card_data.coordination; the same object this process's sync and sync lock use).
    """
    limits = coordination_for(settings).limits
    # On a request's path: one immediate retry, never a backoff (the look-up budget is 2 s).
    client = None if settings.offline else ScryfallClient(settings.api_url, user_agent=settings.user_agent,
                                                           limits=limits, retries=LOOKUP_RETRIES)
    return CardRepository(CardStore(settings.db_path), client, offline=settings.offline,
                          name_languages=settings.name_languages)
