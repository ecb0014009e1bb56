"""The data behind Commander Brackets: mass land denial and two-card combo lists in the store.

Sources (DESIGN.md, "Commander Brackets"), refreshed with each `cards sync`:
- mass land denial: Scryfall's tag search `otag:mass-land-denial` (every page, through the
  rate-limited ScryfallClient), or MASS_LAND_DENIAL_FILE (one name a line);
- two-card combos: Commander Spellbook's variants export from SPELLBOOK_URL (spellbook.py),
  or COMBOS_FILE (one `Card A@Card B` a line). `#` starts a comment line in both files.

Each list lives in the store file in its own table, with its own row in `bracket_lists`
(source, the source's updated_at, when it was refreshed, a version that changes on every
write). A refresh replaces one list in one transaction; any failure (network, a 404 tag,
a malformed export, a bad file) leaves the last good list in place and is remembered in
`bracket_failures` for `cards status`. A store with no row for a list (never loaded, or a
store built before these tables existed) has no data: the engine then reports `null`.

Names are resolved through the store's name index to canonical card names ("Boom/Bust",
"Lim-Dul" and "A // B" all land on the card); names the store does not know are kept as
written (they can match no deck card until the card data knows them) and counted.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import uuid
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping
from urllib.parse import quote

from card_data.client import DEFAULT_API_URL, RateLimits, ScryfallClient
from card_data.convert import MAX_NAME_LENGTH, clean_name, normalize_name
from card_data.errors import CardDataError, CardDataNotFound
from card_data.spellbook import DEFAULT_SPELLBOOK_URL, SpellbookClient, iter_lines, read_export
from card_data.streams import cut, read_capped
from validator.brackets import BracketData, Combo

log = logging.getLogger(__name__)

MASS_LAND_DENIAL = "mass_land_denial"
TWO_CARD_COMBOS = "two_card_combos"
LISTS = (MASS_LAND_DENIAL, TWO_CARD_COMBOS)
MASS_LAND_DENIAL_QUERY = "otag:mass-land-denial"
BUSY_TIMEOUT_SECONDS = 10.0
MAX_PARAMS = 500
# An override file is read whole: ../shared/brackets' combo list (1,700 pairs) is 70 KB.
MAX_LIST_FILE_BYTES = 16 << 20
ENTRY_WORDS = {MASS_LAND_DENIAL: "mass land denial cards", TWO_CARD_COMBOS: "two-card combos"}  # in messages

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
CREATE TABLE IF NOT EXISTS two_card_combos (
    card_a TEXT NOT NULL, card_b TEXT NOT NULL, fast INTEGER NOT NULL, PRIMARY KEY (card_a, card_b)
) WITHOUT ROWID;
"""
TABLES = ("bracket_lists", "bracket_failures", MASS_LAND_DENIAL, TWO_CARD_COMBOS)


@dataclass(frozen=True, slots=True)
class BracketSources:
    """Where each list comes from: a file override, else Scryfall's tag search / Spellbook's export."""

    api_url: str = DEFAULT_API_URL
    spellbook_url: str = DEFAULT_SPELLBOOK_URL
    mass_land_denial_file: str | None = None
    combos_file: str | None = None
    user_agent: str | None = None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], **overrides: Any) -> "BracketSources":
        """From the settings table's values (SETTING_NAMES: app.config in the service,
        edh_service.config.setting in `cards`); keyword overrides win, unset values default."""
        values = {
            "api_url": settings.get("SCRYFALL_API_URL") or DEFAULT_API_URL,
            "spellbook_url": settings.get("SPELLBOOK_URL") or DEFAULT_SPELLBOOK_URL,
            "mass_land_denial_file": settings.get("MASS_LAND_DENIAL_FILE") or None,
            "combos_file": settings.get("COMBOS_FILE") or None,
            "user_agent": settings.get("USER_AGENT") or None,
        }
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(**values)


# The settings (edh_service/config.py) that name the lists' sources.
SETTING_NAMES = ("SCRYFALL_API_URL", "SPELLBOOK_URL", "MASS_LAND_DENIAL_FILE", "COMBOS_FILE", "USER_AGENT")


@dataclass(frozen=True, slots=True)
class Fetched:
    """One list as a source gave it: raw names or pairs, the source, its updated_at."""

    entries: list  # names, or ((name, name), fast) pairs
    source: str
    updated_at: str


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


@dataclass(frozen=True, slots=True)
class Refresh:
    """The outcome of refreshing one list: "updated" or "failed", with the status after it."""

    status: str
    list_status: ListStatus
    error: str | None = None


def _now() -> str:
    """Now, as an ISO 8601 UTC timestamp."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _file_updated_at(path: Path) -> str:
    """A file's mtime as ISO 8601 UTC."""
    return datetime.fromtimestamp(path.stat().st_mtime, timezone.utc).isoformat(timespec="seconds")


def _read_file(path: str) -> tuple[str, str, str]:
    """(text, source, updated_at) of an override file; a missing, undecodable or too
    large (MAX_LIST_FILE_BYTES) file raises."""
    file = Path(path)
    try:
        text = read_capped(file, MAX_LIST_FILE_BYTES, "the list file").decode("utf-8-sig")
        return text, f"file:{file.name}", _file_updated_at(file)
    except (OSError, UnicodeDecodeError) as error:
        raise CardDataError(f"cannot read {file}: {error}") from error


# -- sources --------------------------------------------------------------------------------


def mass_land_denial_from_file(path: str) -> Fetched:
    """MASS_LAND_DENIAL_FILE: one card name a line."""
    text, source, updated_at = _read_file(path)
    return Fetched([line for _, line in iter_lines(text)], source, updated_at)


def combos_from_file(path: str) -> Fetched:
    """COMBOS_FILE: one `Card A@Card B` a line; a line that is not a pair fails the file."""
    text, source, updated_at = _read_file(path)
    pairs = []
    for number, line in iter_lines(text):
        first, at, second = line.partition("@")
        if not at or not first.strip() or not second.strip() or "@" in second:
            raise CardDataError(f"{path} line {number} is not `Card A@Card B`: {line!r}")
        pairs.append(((first.strip(), second.strip()), False))  # a plain pair list has no speed
    return Fetched(pairs, source, updated_at)


def mass_land_denial_from_scryfall(client: ScryfallClient) -> Fetched:
    """Every card of Scryfall's otag:mass-land-denial search.

    A 404 means the search matched nothing: the tag is gone or renamed (an empty list is
    refused for any source, see `refuse_empty`).
    """
    try:
        names = [card.get("name") for card in client.search(MASS_LAND_DENIAL_QUERY)]
    except CardDataNotFound as error:
        raise CardDataError(f"Scryfall's {MASS_LAND_DENIAL_QUERY} matched no cards (no such tag?): {error}") from error
    return Fetched([name for name in names if name], f"scryfall:{MASS_LAND_DENIAL_QUERY}", _now())


def combos_from_spellbook(client: SpellbookClient) -> Fetched:
    """The two-card variants of Commander Spellbook's export (streamed)."""
    with client.download() as download:
        export = read_export(download.chunks())
    log.info("Commander Spellbook export: %d variants, %d two-card combos", export.variants, len(export.pairs))
    return Fetched(list(export.pairs.items()), f"spellbook:{client.url}", export.timestamp or _now())


# -- the store --------------------------------------------------------------------------------


def _connect(db_path: str | os.PathLike) -> sqlite3.Connection:
    """A write connection to an existing store file (autocommit: transactions are explicit)."""
    path = Path(db_path)
    if not path.is_file():
        raise CardDataError(f"no card store at {path}: run `cards sync` or `cards import` first")
    return sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)


def _canonical(conn: sqlite3.Connection, names: Iterable[str]) -> dict[str, str]:
    """name as given -> canonical card name, through the store's name index; unknown names are left out."""
    keys = {name: normalize_name(name) for name in names}
    found: dict[str, str] = {}
    distinct = list(dict.fromkeys(keys.values()))
    for start in range(0, len(distinct), MAX_PARAMS):
        chunk = distinct[start:start + MAX_PARAMS]
        found.update(conn.execute(
            "SELECT n.key, c.name FROM names n JOIN cards c ON c.id = n.card_id"
            f" WHERE n.key IN ({','.join('?' * len(chunk))})", chunk))
    return {name: found[key] for name, key in keys.items() if key in found}


def _ensure_tables(conn: sqlite3.Connection) -> None:
    """Create the bracket tables inside the caller's transaction (a store from before them gets them)."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def refuse_empty(kind: str, rows: list, source: str) -> None:
    """An empty list is never stored: both lists have had a hundred to thousands of entries
    for years, so an empty one says the source broke (a renamed tag, an export without its
    two-card variants, a truncated file), not that no deck has any. Storing it would clear
    every deck; failing keeps the last good list, and the failure is recorded."""
    if not rows:
        raise CardDataError(f"{source} gave no {ENTRY_WORDS[kind]}: an empty list is refused, the last list stays")


def _checked_names(names: Iterable[Any], source: str) -> list[str]:
    """The names, when every one is a string of 1-MAX_NAME_LENGTH characters."""
    for name in names:
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME_LENGTH:
            raise CardDataError(f"{source} gave {cut(repr(name), 40)}, which is no card name "
                                f"(a string of 1-{MAX_NAME_LENGTH} characters): refused")
    return list(names)


def _write(conn: sqlite3.Connection, kind: str, fetched: Fetched) -> None:
    """Replace one list and its bracket_lists row in one transaction (readers see old or new)."""
    raw = fetched.entries
    names = _checked_names(raw if kind == MASS_LAND_DENIAL else [name for pair, _ in raw for name in pair],
                           fetched.source)
    canonical = _canonical(conn, names)
    unresolved = {clean_name(name) for name in names if name not in canonical}

    def resolved(name: str) -> str:
        return canonical.get(name) or clean_name(name)

    if kind == MASS_LAND_DENIAL:
        rows = sorted({(resolved(name),) for name in raw})
    else:
        merged: dict[tuple[str, str], bool] = {}
        for (first, second), fast in raw:
            pair = tuple(sorted((resolved(first), resolved(second))))
            if pair[0] != pair[1]:  # a card with itself never fits a singleton deck
                merged[pair] = merged.get(pair, False) or fast
        rows = sorted((first, second, int(fast)) for (first, second), fast in merged.items())
    refuse_empty(kind, rows, fetched.source)
    conn.execute("BEGIN IMMEDIATE")
    try:
        _ensure_tables(conn)
        conn.execute(f"DELETE FROM {kind}")
        marks = "?" if kind == MASS_LAND_DENIAL else "?, ?, ?"
        conn.executemany(f"INSERT INTO {kind} VALUES ({marks})", rows)
        conn.execute(
            "INSERT OR REPLACE INTO bracket_lists VALUES (?, ?, ?, ?, ?, ?, ?)",
            (kind, fetched.source, fetched.updated_at, _now(), len(rows), len(unresolved), uuid.uuid4().hex),
        )
        conn.execute("DELETE FROM bracket_failures WHERE list = ?", (kind,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _record_failure(conn: sqlite3.Connection, kind: str, error: str) -> None:
    """Remember why a refresh failed; the list itself is untouched."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        _ensure_tables(conn)
        conn.execute("INSERT OR REPLACE INTO bracket_failures VALUES (?, ?, ?)", (kind, _now(), error))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _missing_table(error: sqlite3.Error) -> bool:
    """The error says a bracket table does not exist: a store built before bracket data."""
    return isinstance(error, sqlite3.OperationalError) and "no such table" in str(error)


def _statuses(conn: sqlite3.Connection) -> dict[str, ListStatus]:
    """Every list's status (an old store without the tables: nothing loaded)."""
    try:
        lists = {row[0]: row[1:] for row in conn.execute(
            "SELECT list, source, updated_at, refreshed_at, entries, unresolved FROM bracket_lists")}
        failures = {row[0]: row[1:] for row in conn.execute("SELECT list, failed_at, error FROM bracket_failures")}
    except sqlite3.Error as error:
        if not _missing_table(error):
            raise
        return {kind: ListStatus(kind) for kind in LISTS}
    return {kind: ListStatus(kind, *lists.get(kind, (None,) * 5), *failures.get(kind, (None, None))) for kind in LISTS}


def status(db_path: str | os.PathLike) -> dict[str, ListStatus] | None:
    """What the store at db_path holds for each list; None when there is no usable store."""
    path = Path(db_path)
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_SECONDS)
        try:
            return _statuses(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def versions(conn: sqlite3.Connection) -> tuple:
    """A key that changes whenever any list is rewritten (cheap: one tiny table)."""
    try:
        return tuple(conn.execute("SELECT list, version FROM bracket_lists ORDER BY list"))
    except sqlite3.Error as error:
        if _missing_table(error):
            return ()
        raise CardDataError(f"cannot read bracket data: {error}") from error


def read(conn: sqlite3.Connection) -> BracketData:
    """The lists in a store as the engine's BracketData (None for a list never loaded)."""
    try:
        loaded = {kind for (kind,) in conn.execute("SELECT list FROM bracket_lists")}
        denial = combos = None
        if MASS_LAND_DENIAL in loaded:
            denial = frozenset(name for (name,) in conn.execute("SELECT name FROM mass_land_denial"))
        if TWO_CARD_COMBOS in loaded:
            combos = tuple(Combo((first, second), bool(fast)) for first, second, fast in
                           conn.execute("SELECT card_a, card_b, fast FROM two_card_combos"))
    except sqlite3.Error as error:
        if _missing_table(error):
            return BracketData()
        raise CardDataError(f"cannot read bracket data: {error}") from error
    return BracketData(mass_land_denial=denial, combos=combos)


def carry_over(old_path: str | os.PathLike, new_path: str | os.PathLike) -> None:
    """Copy the bracket tables of the store at old_path into a freshly built store at new_path.

    Sync builds a whole new store file; without this every card-data update would drop the
    lists until the next refresh. A missing or unreadable old store copies nothing.
    """
    old = Path(old_path)
    if not old.is_file():
        return
    try:
        conn = sqlite3.connect(new_path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
        try:
            conn.execute("ATTACH DATABASE ? AS old", (f"file:{quote(str(old))}?mode=ro",))
            present = {name for (name,) in conn.execute("SELECT name FROM old.sqlite_master WHERE type = 'table'")}
            if "bracket_lists" not in present:
                return
            conn.execute("BEGIN")
            _ensure_tables(conn)
            for table in TABLES:
                if table in present:
                    conn.execute(f"INSERT INTO main.{table} SELECT * FROM old.{table}")
            conn.execute("COMMIT")
        finally:
            conn.close()
    except sqlite3.Error as error:  # the new card data matters more than the old lists
        log.warning("bracket lists not carried over to the new store: %s", error)


# -- refreshing -------------------------------------------------------------------------------


def refresh(
    db_path: str | os.PathLike,
    sources: BracketSources,
    *,
    client: ScryfallClient | None = None,
    spellbook: SpellbookClient | None = None,
    network: bool = True,
) -> dict[str, Refresh]:
    """Refresh both lists from their sources into the store at db_path, each on its own.

    `network=False` refreshes only the lists that have a file override (`cards import`).
    A list that fails keeps its last good data; the failure is in its Refresh and status.
    """
    fetchers: dict[str, Callable[[], Fetched]] = {}
    if sources.mass_land_denial_file:
        fetchers[MASS_LAND_DENIAL] = lambda: mass_land_denial_from_file(sources.mass_land_denial_file)
    elif network:
        fetchers[MASS_LAND_DENIAL] = lambda: mass_land_denial_from_scryfall(
            client or ScryfallClient(sources.api_url, user_agent=sources.user_agent,
                                     limits=RateLimits.for_store(db_path)))
    if sources.combos_file:
        fetchers[TWO_CARD_COMBOS] = lambda: combos_from_file(sources.combos_file)
    elif network:
        fetchers[TWO_CARD_COMBOS] = lambda: combos_from_spellbook(
            spellbook or SpellbookClient(sources.spellbook_url, user_agent=sources.user_agent))
    results: dict[str, Refresh] = {}
    try:
        conn = _connect(db_path)
        try:
            for kind, fetch in fetchers.items():
                try:
                    _write(conn, kind, fetch())
                except (CardDataError, MemoryError) as error:
                    # Whatever a source sends, a failed refresh keeps the last list: never a crash.
                    message = str(error) if isinstance(error, CardDataError) else "ran out of memory reading the list"
                    log.warning("%s not refreshed, the last list stays: %s", kind, message)
                    _record_failure(conn, kind, message)
                    results[kind] = Refresh("failed", _statuses(conn)[kind], message)
                    continue
                results[kind] = Refresh("updated", _statuses(conn)[kind])
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise CardDataError(f"cannot write bracket data to the card store {db_path}: {error}") from error
    return results
