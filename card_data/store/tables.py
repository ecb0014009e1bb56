"""What the store's side tables share (the bracket lists', bracket_tables.py; the names printed
in other languages, names_table.py): their tables created inside a caller's transaction, the
timestamps they record, a read of a store file by path, and the copy of them into each new
store file the sync builds.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, TypeVar
from urllib.parse import quote

from card_data.errors import CardDataError
from card_data.store.cards import BUSY_TIMEOUT_SECONDS, connect_read_only, sqlite_errors

log = logging.getLogger(__name__)
T = TypeVar("T")


def read_store(db_path: str | os.PathLike, doing: str, read: Callable[[sqlite3.Connection], T]) -> T | None:
    """read(conn) on a read-only connection to the store at db_path; None when there is no
    file. A SQLite error is CardDataError saying `doing` and the path."""
    path = Path(db_path)
    if not path.is_file():
        return None
    with sqlite_errors(f"{doing} {path}"):
        conn = connect_read_only(path)
        try:
            return read(conn)
        finally:
            conn.close()


def now() -> str:
    """Now, as an ISO 8601 UTC timestamp."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def ensure_tables(conn: sqlite3.Connection, schema: str, database: str = "") -> None:
    """Create a schema's tables (`CREATE TABLE IF NOT EXISTS` statements) inside the caller's
    transaction (executescript would commit it); `database` "main." names the attached one."""
    for statement in schema.split(";"):
        if statement.strip():
            conn.execute(statement.replace("IF NOT EXISTS ", f"IF NOT EXISTS {database}"))


def carry_over(old_path: str | os.PathLike, new_path: str | os.PathLike, *, tables: Iterable[str],
               schema: str, what: str) -> None:
    """Copy `tables` of the store at old_path into a freshly built store at new_path.

    Sync builds a whole new store file; without this every card-data update would drop
    them until their next refresh. A missing or unreadable old store, or one without the
    first table, copies nothing (logged: the new card data matters more).
    """
    old = Path(old_path)
    tables = tuple(tables)
    if not old.is_file():
        return
    try:
        with sqlite_errors(f"carry {what} over to {new_path}"):
            conn = sqlite3.connect(new_path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
            try:
                conn.execute("ATTACH DATABASE ? AS old", (f"file:{quote(str(old))}?mode=ro",))
                present = {name for (name,) in conn.execute("SELECT name FROM old.sqlite_master WHERE type = 'table'")}
                if tables[0] not in present:
                    return
                conn.execute("BEGIN")
                ensure_tables(conn, schema, "main.")
                for table in tables:
                    if table in present:
                        conn.execute(f"INSERT INTO main.{table} SELECT * FROM old.{table}")
                conn.execute("COMMIT")
            finally:
                conn.close()
    except CardDataError as error:
        log.warning("%s not carried over to the new store: %s", what, error.__cause__)
