"""The table of names printed in other languages, in the store file (DESIGN.md "Card names in
other languages"): its SQL, beside the store's own (store.py) and the bracket lists'.

A table is distilled first into a file of its own (`NamesFile`: streamed rows, deduplicated
by SQLite, never held in memory), then `install`ed into the store in one transaction
(readers see the old table or the new). The same file is what the syncing instance
publishes in the shared folder for the others (names_sync.py). A failed refresh is
remembered (`record_failure`) and the last table stays. building.build_store carries the
table into every new store file (`carry_over`). A store from before the table reads as
"no names" and gets the table with its first refresh: no manual step.

Rows: (key, tier, lang, card_key) with printed_names.EXACT / FOLDED tiers and card_key the
English card's normalize_name key (so the table outlives a rebuild of the cards: it is
joined to the store's name index at look-up time).
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import quote

from card_data.store import tables as store_tables
from card_data.errors import CardDataError
from card_data.store.cards import BUSY_TIMEOUT_SECONDS, sqlite_errors
from card_data.store.tables import now

SCHEMA = """
CREATE TABLE IF NOT EXISTS printed_names (
    key TEXT NOT NULL, tier INTEGER NOT NULL, lang TEXT NOT NULL, card_key TEXT NOT NULL,
    PRIMARY KEY (key, tier, lang, card_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS printed_names_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
"""
# The other way round, for answers in the player's language: a card's printed names in one
# language (printed_names_of). In the store only: the distilled file is read whole.
INDEX = """
CREATE INDEX IF NOT EXISTS printed_names_by_card ON printed_names (card_key, lang, tier, key);
"""
STORE_SCHEMA = SCHEMA + INDEX
TABLES = ("printed_names", "printed_names_meta")
BATCH = 5000
# Rows a table may hold: Scryfall's all_cards gave 258,487 printed names (two rows each)
# in 2026; four times that is room to grow, and a bound on what a hostile file can write
# (1.4 million names from 39 MB grew the store from 22 to 95 MB).
MAX_ROWS = 2_000_000
# Meta keys of a table's last success (a failure adds failed_at and error, cleared by the next success).
SUCCESS_KEYS = ("source", "updated_at", "languages", "names", "refreshed_at")

Row = tuple[str, int, str, str]  # (key, tier, language, normalize_name of the English card)


@dataclass(frozen=True, slots=True)
class NamesStatus:
    """What the store holds: the table's source, its file's updated_at, the languages it
    has, how many printed names (distinct name, language and card), when it was refreshed
    and checked, and the last failure after that."""

    source: str | None = None
    updated_at: str | None = None
    languages: tuple[str, ...] = ()
    names: int = 0
    refreshed_at: str | None = None
    checked_at: str | None = None
    failed_at: str | None = None
    error: str | None = None
    built_for: str = ""  # the languages it was built for: "all", or codes ("es,ja")

    @property
    def loaded(self) -> bool:
        """A table was installed (it may have failed to refresh since)."""
        return self.refreshed_at is not None

    def shown(self) -> dict[str, Any]:
        """What /readyz and `cards status` show: {"languages", "names", "updated_at"}."""
        return {"languages": list(self.languages), "names": self.names, "updated_at": self.updated_at}

    def as_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready."""
        return {**asdict(self), "languages": list(self.languages)}


class NamesFile:
    """A distilled table being written to a file of its own (rows deduplicated as they come)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.path.unlink(missing_ok=True)
        with sqlite_errors(f"create the names file {self.path}"):
            self._conn = sqlite3.connect(self.path, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode = OFF")  # a half-written file is thrown away
            self._conn.execute("PRAGMA synchronous = OFF")
            self._conn.executescript(SCHEMA)
            self._conn.execute("BEGIN")
        self._pending: list[Row] = []
        self.rows = 0  # distinct rows written so far

    def add(self, rows: Iterable[Row]) -> None:
        """Queue rows; written BATCH at a time. CardDataError past MAX_ROWS distinct rows."""
        self._pending.extend(rows)
        if len(self._pending) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        with sqlite_errors(f"write the names file {self.path}"):
            written = self._conn.executemany("INSERT OR IGNORE INTO printed_names VALUES (?, ?, ?, ?)",
                                             self._pending).rowcount
        self._pending.clear()
        self.rows += max(written, 0)
        if self.rows > MAX_ROWS:
            raise CardDataError(f"the file holds over {MAX_ROWS // 2:,} printed names, more than every card "
                                "printed in every language: refused, the last table stays")

    def finish(self, source: str, updated_at: str, wanted: frozenset[str] | None = None) -> NamesStatus:
        """Write the meta rows and close; a file with no names is refused (the last table stays)."""
        self._flush()
        with sqlite_errors(f"finish the names file {self.path}"):
            names = self._conn.execute("SELECT count(*) FROM printed_names WHERE tier = 0").fetchone()[0]
            languages = tuple(lang for (lang,) in self._conn.execute(
                "SELECT DISTINCT lang FROM printed_names ORDER BY lang"))
            if names == 0:
                raise CardDataError("the file held no card names in other languages: the last table stays")
            status = NamesStatus(source, updated_at, languages, names, now(), built_for=built_for(wanted))
            self._conn.executemany("INSERT OR REPLACE INTO printed_names_meta VALUES (?, ?)", _meta_rows(status))
            self._conn.execute("COMMIT")
            self._conn.close()
        return status

    def abort(self) -> None:
        """Close and delete the unfinished file."""
        try:
            self._conn.close()
        finally:
            self.path.unlink(missing_ok=True)


def built_for(wanted: frozenset[str] | None) -> str:
    """How a table records the languages it was built for."""
    return "all" if wanted is None else ",".join(sorted(wanted))


def _meta_rows(status: NamesStatus) -> list[tuple[str, str]]:
    return [("built_for", status.built_for), ("source", status.source or ""), ("updated_at", status.updated_at or ""),
            ("languages", ",".join(status.languages)), ("names", str(status.names)),
            ("refreshed_at", status.refreshed_at or "")]


def _ensure_tables(conn: sqlite3.Connection, database: str = "") -> None:
    """The tables and the by-card index in a store (a store from before the index gets it
    the first time it is written: an install, a refresh's failure or check, a carry-over)."""
    store_tables.ensure_tables(conn, STORE_SCHEMA, database)


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)


def install(db_path: str | os.PathLike, names_path: str | os.PathLike) -> NamesStatus:
    """Replace the store's table with a finished names file's, in one transaction.

    The store's build_id changes with it, so every process drops its memos of names
    resolved through the old table (store.CardStore notices on its next snapshot).
    """
    db_path, names_path = Path(db_path), Path(names_path)
    if not db_path.is_file():
        raise CardDataError(f"no card store at {db_path} to add the names to: sync or import the cards first")
    with sqlite_errors(f"install the card names into {db_path}"):
        conn = _connect(db_path)
        try:
            conn.execute("ATTACH DATABASE ? AS names", (f"file:{quote(str(names_path))}?mode=ro",))
            conn.execute("BEGIN IMMEDIATE")
            try:
                _ensure_tables(conn, "main.")
                conn.execute("DELETE FROM main.printed_names")
                conn.execute("INSERT INTO main.printed_names SELECT * FROM names.printed_names")
                conn.execute("DELETE FROM main.printed_names_meta")
                conn.execute("INSERT INTO main.printed_names_meta SELECT * FROM names.printed_names_meta")
                conn.execute("UPDATE main.meta SET value = ? WHERE key = 'build_id'", (uuid.uuid4().hex,))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        finally:
            conn.close()
    return read_status(db_path)


def _write_meta(db_path: Path, values: dict[str, str], doing: str) -> None:
    """Set meta rows of the store's table in place (created if the store has none yet)."""
    if not db_path.is_file():
        return
    with sqlite_errors(f"{doing} in {db_path}"):
        conn = _connect(db_path)
        try:
            conn.execute("BEGIN IMMEDIATE")
            _ensure_tables(conn)
            conn.executemany("INSERT OR REPLACE INTO printed_names_meta VALUES (?, ?)", values.items())
            conn.execute("COMMIT")
        finally:
            conn.close()


def record_failure(db_path: str | os.PathLike, error: str) -> None:
    """Remember why a refresh failed (for `cards status`); the table itself is untouched."""
    _write_meta(Path(db_path), {"failed_at": now(), "error": error}, "record the names refresh failure")


def record_checked(db_path: str | os.PathLike) -> None:
    """Remember that the source was asked and had nothing newer (the weekly clock restarts)."""
    _write_meta(Path(db_path), {"checked_at": now()}, "record the names check")


def status_of(conn: sqlite3.Connection) -> NamesStatus:
    """The status of the table the connection's main database holds (empty: none)."""
    present = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'printed_names_meta'").fetchone()
    if present is None:
        return NamesStatus()
    meta = dict(conn.execute("SELECT key, value FROM printed_names_meta"))
    failed_at = meta.get("failed_at")
    if failed_at and meta.get("refreshed_at") and failed_at < meta["refreshed_at"]:
        failed_at = None  # a success since
    return NamesStatus(
        source=meta.get("source") or None, updated_at=meta.get("updated_at") or None,
        languages=tuple(filter(None, meta.get("languages", "").split(","))),
        names=int(meta.get("names") or 0), refreshed_at=meta.get("refreshed_at") or None,
        checked_at=meta.get("checked_at") or None, failed_at=failed_at,
        error=meta.get("error") if failed_at else None, built_for=meta.get("built_for", ""),
    )


def read_status(db_path: str | os.PathLike) -> NamesStatus:
    """The status of the store's table (empty when there is no store or no table yet)."""
    status = store_tables.read_store(db_path, "read the card names of", status_of)
    return NamesStatus() if status is None else status


def carry_over(old_path: str | os.PathLike, new_path: str | os.PathLike) -> None:
    """Copy the names table of the store at old_path into a freshly built store at new_path."""
    store_tables.carry_over(old_path, new_path, tables=TABLES, schema=STORE_SCHEMA, what="the card names")


LOOKUP = ("SELECT p.key, p.tier, p.lang, c.name, c.data FROM printed_names p"
          " JOIN names n ON n.key = p.card_key JOIN cards c ON c.id = n.card_id WHERE p.key IN ({marks})")


def present(conn: sqlite3.Connection) -> bool:
    """Whether the store the connection reads has a names table (a store from before has none)."""
    with sqlite_errors("read the card store"):
        return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'printed_names'").fetchone() is not None


def lookup(conn: sqlite3.Connection, keys: list[str], chunk: int = 500) -> list[tuple[str, int, str, str, str]]:
    """(key, tier, lang, English name, card JSON) of every printed name among `keys`: one
    indexed SELECT per chunk of keys, the card joined through the store's name index."""
    rows: list[tuple[str, int, str, str, str]] = []
    with sqlite_errors("read the card names"):
        for start in range(0, len(keys), chunk):
            part = keys[start:start + chunk]
            rows += conn.execute(LOOKUP.format(marks=",".join("?" * len(part))), part).fetchall()
    return rows


PRINTED_OF = ("SELECT card_key, key FROM printed_names INDEXED BY printed_names_by_card"
              " WHERE tier = 0 AND lang = ? AND card_key IN ({marks})")
PRINTED_OF_UNINDEXED = PRINTED_OF.replace(" INDEXED BY printed_names_by_card", "")


def indexed(conn: sqlite3.Connection) -> bool:
    """Whether the store has the by-card index (a store from before it gets it when next written)."""
    with sqlite_errors("read the card store"):
        return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'printed_names_by_card'").fetchone() is not None


def printed_names_of(conn: sqlite3.Connection, card_keys: list[str], lang: str, *, index: bool = True,
                     chunk: int = 500) -> list[tuple[str, str]]:
    """(card_key, printed name) of every name the cards were printed with in `lang` (tier
    EXACT: the names as printed, faces and "A // B" joins included): one SELECT per chunk
    of keys through the by-card index (`index` False: a store without it, a scan)."""
    query = PRINTED_OF if index else PRINTED_OF_UNINDEXED
    rows: list[tuple[str, str]] = []
    with sqlite_errors("read the card names"):
        for start in range(0, len(card_keys), chunk):
            part = card_keys[start:start + chunk]
            rows += conn.execute(query.format(marks=",".join("?" * len(part))), [lang, *part]).fetchall()
    return rows
