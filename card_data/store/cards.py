"""The SQLite card store: one file at CARD_DB, built whole by sync and swapped in atomically.

Readers hold one read-only connection per thread and notice when sync has replaced the
file (a new inode), so a long-running server serves new data after a sync. Each store
file gets its own in-memory caches (a "generation"), so one resolve() never mixes cards
from two files.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, cast
from urllib.parse import quote

import card_data.convert as convert  # the module itself: the package's __init__ imports this one
from card_data.errors import CardDataError, CardDataUnavailable
from validator.deck import Card
from validator.parse.memo import CharacterMemo

# 2: cards also keep produced_mana and image_uris. A version-1 store still loads (its cards
# have no produced_mana: validator.overview reads lands' colors from their text instead);
# the next sync or import rebuilds it whole with the new fields (`cards sync --force` now).
SCHEMA_VERSION = "2"
SCHEMA = """
CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE names (key TEXT PRIMARY KEY, priority INTEGER NOT NULL, card_id INTEGER NOT NULL)
    WITHOUT ROWID;
CREATE TABLE misses (key TEXT PRIMARY KEY, checked_at REAL NOT NULL) WITHOUT ROWID;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
"""
# A lower priority wins a contested key; the card's own name beats another card's face name.
UPSERT_NAME = """
INSERT INTO names (key, priority, card_id) VALUES (?, ?, ?)
ON CONFLICT (key) DO UPDATE SET priority = excluded.priority, card_id = excluded.card_id
WHERE excluded.priority < names.priority
"""
# Objects that are no game card lose a shared name to the card (a token named like a card).
EXTRA_LAYOUTS = frozenset({"token", "double_faced_token", "emblem", "art_series", "front_card"})
EXTRA_PENALTY = 10
# SQLite's host-parameter limit is 32766 on 3.32+; stay far below it for old builds.
MAX_PARAMS = 500
BUSY_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class StoreMetadata:
    """Where the store's data came from: source, the bulk file's updated_at, how many cards."""

    source: str
    updated_at: str
    cards: int


@contextmanager
def sqlite_errors(doing: str) -> Iterator[None]:
    """The one place SQLite's errors become CardDataError ("cannot <doing>: <why>"), as
    requests' HTTPAdapter.send turns urllib3's: nothing above the store sees sqlite3."""
    try:
        yield
    except sqlite3.Error as error:
        raise CardDataError(f"cannot {doing}: {error}") from error


def _chunks(items: list, size: int = MAX_PARAMS) -> Iterable[list]:
    """Consecutive slices of at most size items."""
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _key_rows(payload: Mapping[str, Any], card_id: int, extra_keys: Iterable[str] = ()) -> list[tuple]:
    """(key, priority, card_id) rows for every name a person may use for this card."""
    penalty = EXTRA_PENALTY if payload.get("layout") in EXTRA_LAYOUTS else 0
    keys = convert.name_keys(payload)
    for key in extra_keys:  # names Scryfall matched for us that our keys don't cover
        keys.setdefault(key, convert.PRIORITY_ALIAS + 1)
    return [(key, priority + penalty, card_id) for key, priority in keys.items()]


def canonical_names(conn: sqlite3.Connection, names: Iterable[str]) -> dict[str, str]:
    """name as given -> canonical card name, through the name index of the store `conn`
    reads; names it does not know are left out (bracket_tables resolves its lists so)."""
    keys = {name: convert.normalize_name(name) for name in names}
    found: dict[str, str] = {}
    for chunk in _chunks(list(dict.fromkeys(keys.values()))):
        found.update(conn.execute(
            "SELECT n.key, c.name FROM names n JOIN cards c ON c.id = n.card_id"
            f" WHERE n.key IN ({','.join('?' * len(chunk))})", chunk))
    return {name: found[key] for name, key in keys.items() if key in found}


class StoreBuilder:
    """Writes a brand-new store file; the caller swaps it in (sync) or deletes it (abort)."""

    BATCH = 2000

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.path.unlink(missing_ok=True)
        with sqlite_errors(f"create card store {self.path}"):
            self._conn = sqlite3.connect(self.path)
            # A half-built temporary file is thrown away on any error: durability buys nothing.
            self._conn.execute("PRAGMA journal_mode = OFF")
            self._conn.execute("PRAGMA synchronous = OFF")
            self._conn.executescript(SCHEMA)
        self._cards: list[tuple] = []
        self._names: list[tuple] = []
        self.count = 0

    def add(self, payload: Mapping[str, Any]) -> None:
        """Queue one Scryfall card object; objects that are no card (or nameless) are skipped."""
        if payload.get("object", "card") != "card" or not payload.get("name"):
            return
        self.count += 1
        data = json.dumps(convert.trim(payload), ensure_ascii=False, separators=(",", ":"))
        self._cards.append((self.count, payload["name"], data))
        self._names.extend(_key_rows(payload, self.count))
        if len(self._cards) >= self.BATCH:
            self._flush()

    def _flush(self) -> None:
        """Write the queued rows."""
        with sqlite_errors(f"write card store {self.path}"):
            self._conn.executemany("INSERT INTO cards (id, name, data) VALUES (?, ?, ?)", self._cards)
            self._conn.executemany(UPSERT_NAME, self._names)
        self._cards.clear()
        self._names.clear()

    def finish(self, source: str, updated_at: str) -> StoreMetadata:
        """Write the metadata, index and close the file; refuse a store with no cards."""
        self._flush()
        if self.count == 0:
            raise CardDataError("the card data held no cards")
        meta = {
            "source": source, "updated_at": updated_at, "cards": str(self.count),
            "build_id": uuid.uuid4().hex, "schema": SCHEMA_VERSION,
        }
        with sqlite_errors(f"finish card store {self.path}"):
            self._conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            self._conn.execute("CREATE INDEX cards_name ON cards (name)")
            self._conn.commit()
            self._conn.close()
        return StoreMetadata(source, updated_at, self.count)

    def abort(self) -> None:
        """Close and delete the unfinished file."""
        try:
            self._conn.close()
        finally:
            self.path.unlink(missing_ok=True)


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection: readers must never create or change the file."""
    return sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_SECONDS)


def _read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    """The meta table as a dict."""
    return dict(conn.execute("SELECT key, value FROM meta"))


def read_metadata(path: str | os.PathLike) -> StoreMetadata | None:
    """The metadata of the store at path, or None when there is no usable store there."""
    path = Path(path)
    if not path.is_file():
        return None
    try:
        with sqlite_errors(f"read card store {path}"):
            conn = connect_read_only(path)
            try:
                meta = _read_meta(conn)
            finally:
                conn.close()
        return _metadata(meta)
    except (CardDataError, KeyError, ValueError):
        return None  # not a store (or a broken one): a sync may replace it


def _metadata(meta: Mapping[str, str]) -> StoreMetadata:
    """StoreMetadata from the meta table (KeyError/ValueError when it is not a store's)."""
    return StoreMetadata(meta["source"], meta["updated_at"], int(meta["cards"]))


MAX_MEMO_NAMES = 20_000  # typed names whose key (and card) is kept per store file
# ...and the characters those names (and their keys) may hold in all, each memo: 20,000
# typed names of ~25 characters and their keys fit; 20,000 names of 200 characters whose
# keys NFKD expands 18 times held ~500 MB when only entries were counted. With
# validator.parse.memo's fixed cost an entry, a full memo holds at most ~8 MB (four bytes a
# character at worst; two for any card name).
MAX_MEMO_CHARACTERS = 2_000_000


def name_memo() -> CharacterMemo:
    """A memo of typed names for one store file (read at a Generation's birth, so a test
    may shrink the bounds)."""
    return CharacterMemo(MAX_MEMO_CHARACTERS, MAX_MEMO_NAMES)

# A store file last written longer ago than this is trusted not to change without its mtime
# changing (file timestamps are coarse: two writes a few ms apart may share one).
QUIET_SECONDS = 1.0


def file_stamp(stat: os.stat_result) -> tuple[int, int, int, int]:
    """What says a store file is unchanged: the same file (inode), mtime and size."""
    return (stat.st_ino, stat.st_dev, stat.st_mtime_ns, stat.st_size)


def settled(stamp: tuple[int, int, int, int]) -> bool:
    """The stamped file was last written over QUIET_SECONDS ago, so any later write gives it
    another stamp: an answer read from it may be kept for as long as the stamp is the same."""
    return time.time_ns() - stamp[2] > QUIET_SECONDS * 1e9


@dataclass(eq=False)
class Generation:
    """In-memory caches for one store file (one build): cards by key, the keys of names as
    typed, fuzzy-match keys. A new build starts empty, so nothing outlives its file."""

    build_id: str
    cards_by_key: dict[str, Card] = field(default_factory=dict)
    # name as typed -> normalize_name(name), for names the store resolved: a deck's names
    # come back on every save, and normalizing was ~45% of validate_text. Misses are not
    # kept. Bounded in names and characters (validator.parse.memo; see remember).
    keys_by_name: CharacterMemo[str, str] = field(default_factory=name_memo)
    # name as typed -> its Card, for names whose key the store holds and names read in
    # another language: a deck sent again resolves with one look-up a name. Bounded like
    # keys_by_name (see remember).
    cards_by_name: CharacterMemo[str, Card] = field(default_factory=name_memo)
    # name as typed -> its Translation (printed_lookup: the English name, a language it was
    # printed in) for the names of cards_by_name read in another language; bounded like it,
    # and never cleared without it (a name it knows must keep its translation).
    printed_by_name: CharacterMemo[str, Any] = field(default_factory=name_memo)
    printed_table: bool | None = None  # whether this file has a names table (asked once)
    # (language, English name) -> its printed name or None, and whether the by-card index is there
    printed_of: dict = field(default_factory=dict)
    printed_index: bool | None = None
    fuzzy: Any = None  # the suggestion index over every key, built lazily (see fuzzy_index)
    # (stamp of the file it was read from, None when not settled; what was read)
    metadata: tuple[tuple | None, StoreMetadata] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class Snapshot:
    """One thread's read view of one store file; used for a whole resolve() call."""

    def __init__(self, conn: sqlite3.Connection, generation: Generation, stamp: tuple | None = None) -> None:
        self.conn = conn
        self.generation = generation
        self.stamp = stamp  # file_stamp() of the file when the snapshot was taken

    def known_cards(self, names: list[str]) -> dict[str, Card] | None:
        """The Card of each typed name (repeats welcome) when every one of them was resolved
        before on this store file (see remember), the usual warm deck; else None."""
        cards = list(map(self.generation.cards_by_name.get, names))  # the look-ups in C
        if not all(cards):  # a Card is always true
            return None
        return dict(zip(names, cast(list[Card], cards)))

    def remember(self, cards: Mapping[str, Card], keys: Mapping[str, str] | None = None) -> None:
        """Keep typed name -> Card for names the store resolved (and typed name -> key, of
        `keys`, for those of them resolved by their key): at most MAX_MEMO_NAMES names and
        MAX_MEMO_CHARACTERS characters a memo; when full it starts over, so a flood of
        distinct names costs time, never memory."""
        if not cards:
            return
        self.generation.cards_by_name.remember_all(cards, sum(map(len, cards)))
        if keys:
            known = {name: key for name, key in keys.items() if name in cards}
            self.generation.keys_by_name.remember_all(known, sum(len(name) + len(key) for name, key in known.items()))

    def key_of(self, name: str) -> str:
        """normalize_name(name), from the memo when the name resolved before on this store
        file (see remember: a name that did not is normalized again each time it comes)."""
        key = self.generation.keys_by_name.get(name)
        return convert.normalize_name(name) if key is None else key

    def lookup(self, keys: Iterable[str]) -> dict[str, Card]:
        """Cards for the normalized keys that the store knows (cached per store file)."""
        cache = self.generation.cards_by_key
        found = {key: cache[key] for key in keys if key in cache}
        missing = [key for key in dict.fromkeys(keys) if key not in found]
        for key, data in self._rows(missing):
            found[key] = cache[key] = convert.to_card(json.loads(data))
        return found

    def record(self, key: str) -> dict[str, Any] | None:
        """The stored (trimmed) Scryfall object for one normalized key."""
        rows = self._rows([key])
        return json.loads(rows[0][1]) if rows else None

    def _rows(self, keys: list[str]) -> list[tuple[str, str]]:
        """(key, card JSON) for the keys present, one indexed SELECT per chunk of keys."""
        rows: list[tuple[str, str]] = []
        with sqlite_errors("read the card store"):
            for chunk in _chunks(keys):
                marks = ",".join("?" * len(chunk))
                rows += self.conn.execute(
                    "SELECT n.key, c.data FROM names n JOIN cards c ON c.id = n.card_id"
                    f" WHERE n.key IN ({marks})",
                    chunk,
                ).fetchall()
        return rows

    def fuzzy_index(self, build: Callable[[list[str], list[str]], Any]) -> Any:
        """build(keys, canonical names) over every name key, built once per store file."""
        generation = self.generation
        with generation.lock:
            if generation.fuzzy is None:
                with sqlite_errors("read the card store"):
                    rows = self.conn.execute(
                        "SELECT n.key, c.name FROM names n JOIN cards c ON c.id = n.card_id"
                    ).fetchall()
                generation.fuzzy = build([key for key, _ in rows], [name for _, name in rows])
            return generation.fuzzy

    def metadata(self) -> StoreMetadata | None:
        """The metadata of this store file: read again only when the file's stamp changed
        (caching fetched cards rewrites the card count in place) or it was written just now."""
        cached = self.generation.metadata
        if cached is not None and self.stamp is not None and cached[0] == self.stamp:
            return cached[1]
        try:
            with sqlite_errors("read the card store"):
                meta = _metadata(_read_meta(self.conn))
        except (CardDataError, KeyError, ValueError):
            return None
        self.generation.metadata = (self.stamp if self.stamp is not None and settled(self.stamp) else None, meta)
        return meta


class CardStore:
    """The store file at one path, read through per-thread read-only connections."""

    STORE_MISSING_RETRY_AFTER = 60  # the service retries its first sync in the background

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._path = str(self.path)
        self._local = threading.local()
        self._generation: Generation | None = None
        self._generation_lock = threading.Lock()
        self._write_lock = threading.Lock()

    def snapshot(self) -> Snapshot:
        """This thread's view of the current store file, reopened if sync swapped the file."""
        try:
            stat = os.stat(self._path)  # a str: a Path's __fspath__ is Python code, on every call
        except OSError as error:
            raise CardDataUnavailable(
                f"no card data yet at {self.path}; run `cards sync`", self.STORE_MISSING_RETRY_AFTER
            ) from error
        file_id = (stat.st_dev, stat.st_ino)
        local = self._local
        stamp = file_stamp(stat)
        if getattr(local, "file_id", None) != file_id:
            self._reopen(local, file_id)
        elif local.stamp != stamp:  # written in place: a names refresh gives it a new build_id
            with sqlite_errors(f"read the card store {self.path}"):
                row = local.conn.execute("SELECT value FROM meta WHERE key = 'build_id'").fetchone()
            local.generation = self._generation_for(row[0] if row else "")
        local.stamp = stamp
        return Snapshot(local.conn, local.generation, stamp)

    def _reopen(self, local: threading.local, file_id: tuple[int, int]) -> None:
        """Replace this thread's connection with one to the file now at the path."""
        old = getattr(local, "conn", None)
        if old is not None:
            old.close()
            local.conn = local.file_id = None
        with sqlite_errors(f"open the card store {self.path}"):
            conn = connect_read_only(self.path)
            build_id = _read_meta(conn).get("build_id", "")
        local.conn, local.file_id = conn, file_id
        local.generation = self._generation_for(build_id)

    def _generation_for(self, build_id: str) -> Generation:
        """The shared caches for one build; a new build starts with empty caches."""
        with self._generation_lock:
            if self._generation is None or self._generation.build_id != build_id:
                self._generation = Generation(build_id)
            return self._generation

    def metadata(self) -> StoreMetadata | None:
        """The current store's metadata, or None when there is no store yet."""
        try:
            return self.snapshot().metadata()
        except CardDataError:
            return None

    def _write(self, statements) -> None:
        """Run statements(conn) in one write transaction; writes are serialized in-process."""
        with self._write_lock, sqlite_errors(f"write the card store {self.path}"):
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")
                statements(conn)
                conn.execute("COMMIT")
            finally:
                conn.close()

    def add_cards(self, found: Iterable[tuple[Mapping[str, Any], Iterable[str]]]) -> None:
        """Cache cards fetched from Scryfall: (card object, extra name keys it answered to)."""
        found = list(found)
        if not found or not self.path.is_file():
            return

        def insert(conn: sqlite3.Connection) -> None:
            for payload, extra_keys in found:
                row = conn.execute("SELECT id FROM cards WHERE name = ?", (payload["name"],)).fetchone()
                if row is None:
                    data = json.dumps(convert.trim(payload), ensure_ascii=False, separators=(",", ":"))
                    row = conn.execute(
                        "INSERT INTO cards (name, data) VALUES (?, ?) RETURNING id", (payload["name"], data)
                    ).fetchone()
                conn.executemany(UPSERT_NAME, _key_rows(payload, row[0], extra_keys))
            conn.execute("UPDATE meta SET value = (SELECT count(*) FROM cards) WHERE key = 'cards'")

        self._write(insert)
        if self._generation is not None:
            self._generation.fuzzy = None  # new names: reload the suggestion list lazily

    def recent_misses(self, keys: Iterable[str], max_age: float) -> set[str]:
        """Keys Scryfall said it did not know within the last max_age seconds."""
        keys = list(keys)
        snapshot = self.snapshot()
        since = time.time() - max_age
        found: set[str] = set()
        with sqlite_errors("read the card store"):
            for chunk in _chunks(keys):
                marks = ",".join("?" * len(chunk))
                found.update(k for (k,) in snapshot.conn.execute(
                    f"SELECT key FROM misses WHERE checked_at >= ? AND key IN ({marks})", [since, *chunk]))
        return found

    def record_misses(self, keys: Iterable[str]) -> None:
        """Remember names Scryfall does not know, so a typo is not asked about on every request."""
        now = time.time()
        rows = [(key, now) for key in keys]
        if rows and self.path.is_file():
            self._write(lambda conn: conn.executemany(
                "INSERT OR REPLACE INTO misses (key, checked_at) VALUES (?, ?)", rows))
