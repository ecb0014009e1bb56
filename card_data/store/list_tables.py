"""The synced lists' tables in the store file (Commander Brackets' data, and the Pauper
Commander commander list of the Commander-family formats, DESIGN.md): the SQL behind
bracket_lists.py, beside the store's own (store.py). Every SQLite error becomes
CardDataError through store.sqlite_errors, the store's one translation; a store built
before these tables existed reads as "not loaded".

Each list lives in its own table, with its own row in `bracket_lists` (source, the
source's updated_at, when it was refreshed, a version that changes on every write). A
write replaces one list in one transaction; a failure is remembered in
`bracket_failures` for `cards status`. building.build_store carries the tables over into
every new store file (`carry_over`).
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TypeVar

from card_data.store import tables as store_tables
from card_data.errors import CardDataError
from card_data.store.tables import now
from card_data.store.cards import BUSY_TIMEOUT_SECONDS, canonical_names, sqlite_errors
from validator.brackets import BracketData, Combo
from validator.formats import FormatData

MASS_LAND_DENIAL = "mass_land_denial"
TWO_CARD_COMBOS = "two_card_combos"
PAUPER_COMMANDERS = "pauper_commanders"  # Scryfall's is:paupercommander (validator.formats.FormatData)
BRACKET_LISTS = (MASS_LAND_DENIAL, TWO_CARD_COMBOS)
FORMAT_LISTS = (PAUPER_COMMANDERS,)
LISTS = BRACKET_LISTS + FORMAT_LISTS
NAME_LISTS = frozenset({MASS_LAND_DENIAL, PAUPER_COMMANDERS})  # one `name` column (the other: pairs)
T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS bracket_lists (
    list TEXT PRIMARY KEY, source TEXT NOT NULL, updated_at TEXT NOT NULL,
    refreshed_at TEXT NOT NULL, entries INTEGER NOT NULL, unresolved INTEGER NOT NULL,
    version TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bracket_failures (
    list TEXT PRIMARY KEY, failed_at TEXT NOT NULL, error TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS mass_land_denial (name TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pauper_commanders (name TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS two_card_combos (
    card_a TEXT NOT NULL, card_b TEXT NOT NULL, fast INTEGER NOT NULL, PRIMARY KEY (card_a, card_b)
) WITHOUT ROWID;
"""
TABLES = ("bracket_lists", "bracket_failures", MASS_LAND_DENIAL, TWO_CARD_COMBOS, PAUPER_COMMANDERS)


@dataclass(frozen=True, slots=True)
class ListStatus:
    """What the store holds for one list, and the last failed refresh (if after the last success)."""

    list: str
    source: str | None = None
    updated_at: str | None = None
    refreshed_at: str | None = None
    entries: int | None = None
    unresolved: int | None = None
    failed_at: str | None = None
    error: str | None = None

    @property
    def loaded(self) -> bool:
        """The list has data (it may still have failed to refresh since)."""
        return self.refreshed_at is not None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


class ListWriter:
    """Writes the lists of one store file (bracket_lists.refresh holds one while it runs)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn  # autocommit: each write is its own explicit transaction

    def canonical(self, names: Iterable[str]) -> dict[str, str]:
        """name as given -> canonical card name, through the store's name index (unknown names left out)."""
        return canonical_names(self.conn, names)

    def write(self, kind: str, rows: list[tuple], *, source: str, updated_at: str, unresolved: int) -> None:
        """Replace one list and its bracket_lists row in one transaction (readers see old or new)."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            _ensure_tables(conn)
            conn.execute(f"DELETE FROM {kind}")
            marks = "?" if kind in NAME_LISTS else "?, ?, ?"
            conn.executemany(f"INSERT INTO {kind} VALUES ({marks})", rows)
            conn.execute(
                "INSERT OR REPLACE INTO bracket_lists VALUES (?, ?, ?, ?, ?, ?, ?)",
                (kind, source, updated_at, now(), len(rows), unresolved, uuid.uuid4().hex),
            )
            conn.execute("DELETE FROM bracket_failures WHERE list = ?", (kind,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def record_failure(self, kind: str, error: str) -> None:
        """Remember why a refresh failed; the list itself is untouched."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            _ensure_tables(conn)
            conn.execute("INSERT OR REPLACE INTO bracket_failures VALUES (?, ?, ?)", (kind, now(), error))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def status(self, kind: str) -> ListStatus:
        """One list's status now."""
        return statuses(self.conn)[kind]


@contextmanager
def writing(db_path: str | os.PathLike) -> Iterator[ListWriter]:
    """A writer on an existing store file; any SQLite error inside, while the caller's
    writes run too, is CardDataError("cannot write bracket data to the card store ...")."""
    path = Path(db_path)
    if not path.is_file():
        raise CardDataError(f"no card store at {path}: run `cards sync` or `cards import` first")
    with sqlite_errors(f"write bracket data to the card store {db_path}"):
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
        try:
            yield ListWriter(conn)
        finally:
            conn.close()


def _ensure_tables(conn: sqlite3.Connection) -> None:
    """Create the bracket tables inside the caller's transaction (a store from before them gets them)."""
    store_tables.ensure_tables(conn, SCHEMA)


def _missing_table(error: BaseException | None) -> bool:
    """The error says a bracket table does not exist: a store built before bracket data."""
    return isinstance(error, sqlite3.OperationalError) and "no such table" in str(error)


def _reading(read: Callable[[], T], old_store: T) -> T:
    """read() under sqlite_errors("read bracket data"); `old_store` when a table is missing."""
    try:
        with sqlite_errors("read bracket data"):
            return read()
    except CardDataError as error:
        if _missing_table(error.__cause__):
            return old_store
        raise


def statuses(conn: sqlite3.Connection) -> dict[str, ListStatus]:
    """Every list's status (an old store without the tables: nothing loaded). SQLite
    errors other than a missing table are left to the caller's translation."""
    try:
        lists = {row[0]: row[1:] for row in conn.execute(
            "SELECT list, source, updated_at, refreshed_at, entries, unresolved FROM bracket_lists")}
        failures = {row[0]: row[1:] for row in conn.execute("SELECT list, failed_at, error FROM bracket_failures")}
    except sqlite3.OperationalError as error:
        if not _missing_table(error):
            raise
        return {kind: ListStatus(kind) for kind in LISTS}
    return {kind: ListStatus(kind, *lists.get(kind, (None,) * 5), *failures.get(kind, (None, None))) for kind in LISTS}


def status(db_path: str | os.PathLike) -> dict[str, ListStatus] | None:
    """What the store at db_path holds for each list; None when there is no usable store."""
    try:
        return store_tables.read_store(db_path, "read bracket data of", statuses)
    except CardDataError:
        return None


def versions(conn: sqlite3.Connection) -> tuple:
    """A key that changes whenever any list is rewritten (cheap: one tiny table)."""
    return _reading(lambda: tuple(conn.execute("SELECT list, version FROM bracket_lists ORDER BY list")), ())


def read(conn: sqlite3.Connection) -> BracketData:
    """The lists in a store as the engine's BracketData (None for a list never loaded)."""

    def lists() -> BracketData:
        loaded = {kind for (kind,) in conn.execute("SELECT list FROM bracket_lists")}
        denial = combos = None
        if MASS_LAND_DENIAL in loaded:
            denial = frozenset(name for (name,) in conn.execute("SELECT name FROM mass_land_denial"))
        if TWO_CARD_COMBOS in loaded:
            combos = tuple(Combo((first, second), bool(fast)) for first, second, fast in
                           conn.execute("SELECT card_a, card_b, fast FROM two_card_combos"))
        return BracketData(mass_land_denial=denial, combos=combos)

    return _reading(lists, BracketData())


def read_format_data(conn: sqlite3.Connection) -> FormatData:
    """The formats' lists in a store as the engine's FormatData (None for a list never loaded)."""

    def lists() -> FormatData:
        if not tuple(conn.execute("SELECT 1 FROM bracket_lists WHERE list = ?", (PAUPER_COMMANDERS,))):
            return FormatData()
        return FormatData(pauper_commanders=frozenset(
            name for (name,) in conn.execute(f"SELECT name FROM {PAUPER_COMMANDERS}")))

    return _reading(lists, FormatData())


def carry_over(old_path: str | os.PathLike, new_path: str | os.PathLike) -> None:
    """Copy the bracket tables of the store at old_path into a freshly built store at new_path."""
    store_tables.carry_over(old_path, new_path, tables=TABLES, schema=SCHEMA, what="the bracket lists")
