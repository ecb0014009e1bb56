"""The synced lists (Commander Brackets' two, and the Pauper Commander commander list of the
Commander-family formats): where each comes from and how a refresh replaces it.

Sources (DESIGN.md, "Commander Brackets" and "Commander-family formats"), refreshed with
each `cards sync`:
- mass land denial: Scryfall's tag search `otag:mass-land-denial` (every page, through the
  rate-limited ScryfallClient), or MASS_LAND_DENIAL_FILE (one name a line);
- two-card combos: Commander Spellbook's variants export from SPELLBOOK_URL (spellbook.py),
  or COMBOS_FILE (one `Card A@Card B` a line);
- Pauper Commander commanders: Scryfall's search `is:paupercommander` (every page, the same
  client, budget and lockout), or PAUPER_COMMANDERS_FILE (one name a line).
`#` starts a comment line in every file. `settings.BracketSources` says which; the caller
builds it from its configuration.

A refresh replaces one list at a time (bracket_tables.py holds the SQL); any failure (network,
a 404 tag, a malformed export, a bad file, an empty list) leaves the last good list in place
and is remembered for `cards status`. A store with no row for a list has no data: the
engine then reports `null`.

Names are resolved through the store's name index to canonical card names ("Boom/Bust",
"Lim-Dul" and "A // B" all land on the card); names the store does not know are kept as
written (they can match no deck card until the card data knows them) and counted.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from card_data.store import list_tables as bracket_tables
from card_data.store.list_tables import (
    MASS_LAND_DENIAL, NAME_LISTS, PAUPER_COMMANDERS, TWO_CARD_COMBOS, ListStatus, ListWriter, now,
)
from card_data.scryfall.client import SEARCH_PAGE_SIZE, ScryfallClient
from card_data.convert import MAX_NAME_LENGTH, clean_name
from card_data.errors import CardDataError, CardDataNotFound
from card_data.coordination.files import RateLimits
from card_data.settings import BracketSources
from card_data.lists.spellbook import SpellbookClient, read_export
from card_data.streams import cut, read_capped

log = logging.getLogger(__name__)

MASS_LAND_DENIAL_QUERY = "otag:mass-land-denial"
PAUPER_COMMANDERS_QUERY = "is:paupercommander"
# is:paupercommander matched about 5,600 cards in 2026 (pdh-json-updater's 2026-06-26 run:
# 5,624 uncommon creatures and Backgrounds), 33 pages of 175: room to double, still bounded.
PAUPER_COMMANDER_PAGES = 70
# An override file is read whole: ../shared/brackets' combo list (1,700 pairs) is 70 KB.
MAX_LIST_FILE_BYTES = 16 << 20
SHRINK_GUARDED = 50  # lists this long or longer may not shrink by more than half at once
SHRUNK = "the list shrank"  # how a refused shrink's message starts
ENTRY_WORDS = {MASS_LAND_DENIAL: "mass land denial cards", TWO_CARD_COMBOS: "two-card combos",  # in messages
               PAUPER_COMMANDERS: "Pauper Commander commanders"}


@dataclass(frozen=True, slots=True)
class Fetched:
    """One list as a source gave it: raw names or pairs, the source, its updated_at."""

    entries: list  # names, or ((name, name), fast) pairs
    source: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class Refresh:
    """The outcome of refreshing one list: "updated" or "failed", with the status after it."""

    status: str
    list_status: ListStatus
    error: str | None = None


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


def names_from_file(path: str) -> Fetched:
    """MASS_LAND_DENIAL_FILE or PAUPER_COMMANDERS_FILE: one card name a line."""
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


def names_from_search(client: ScryfallClient, query: str, **bounds: int) -> Fetched:
    """The names of every card a Scryfall search matches (otag:mass-land-denial,
    is:paupercommander); `bounds` are ScryfallClient.search's page and card limits.

    A 404 means the search matched nothing: the tag or keyword is gone or renamed (an empty
    list is refused for any source, see `refuse_empty`).
    """
    try:
        names = [card.get("name") for card in client.search(query, **bounds)]
    except CardDataNotFound as error:
        raise CardDataError(f"Scryfall's {query} matched no cards (no such tag?): {error}") from error
    return Fetched([name for name in names if name], f"scryfall:{query}", now())


def mass_land_denial_from_scryfall(client: ScryfallClient) -> Fetched:
    """Every card of Scryfall's otag:mass-land-denial search."""
    return names_from_search(client, MASS_LAND_DENIAL_QUERY)


def pauper_commanders_from_scryfall(client: ScryfallClient) -> Fetched:
    """Every card of Scryfall's is:paupercommander search (the cards legal as a PDH commander:
    Scryfall's own paupercommander legality says not_legal for them, FORMATS.md)."""
    return names_from_search(client, PAUPER_COMMANDERS_QUERY, max_pages=PAUPER_COMMANDER_PAGES,
                             max_cards=PAUPER_COMMANDER_PAGES * SEARCH_PAGE_SIZE)


def combos_from_spellbook(client: SpellbookClient) -> Fetched:
    """The two-card variants of Commander Spellbook's export (streamed)."""
    with client.download() as download:
        export = read_export(download.chunks())
    log.info("Commander Spellbook export: %d variants, %d two-card combos", export.variants, len(export.pairs))
    return Fetched(list(export.pairs.items()), f"spellbook:{client.url}", export.timestamp or now())


def iter_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, stripped line) of a list file, without blank lines and `#` comments."""
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            yield number, line


# -- refreshing ---------------------------------------------------------------------------------


def refuse_empty(kind: str, rows: list, source: str) -> None:
    """An empty list is never stored: every list has had a hundred to thousands of entries
    for years, so an empty one says the source broke (a renamed tag, an export without its
    two-card variants, a truncated file), not that no deck has any (or that no card can
    command in Pauper Commander). Storing it would clear
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


def _rows(tables: ListWriter, kind: str, fetched: Fetched) -> tuple[list[tuple], int]:
    """The table rows of one fetched list, its names canonical, and how many names the
    store does not know; an empty list or a name that is no name fails it."""
    raw = fetched.entries
    names = _checked_names(raw if kind in NAME_LISTS else [name for pair, _ in raw for name in pair],
                           fetched.source)
    canonical = tables.canonical(names)
    unresolved = {clean_name(name) for name in names if name not in canonical}

    def resolved(name: str) -> str:
        return canonical.get(name) or clean_name(name)

    rows: list[tuple[Any, ...]]  # (name,) or (first, second, fast)
    if kind in NAME_LISTS:
        rows = sorted({(resolved(name),) for name in raw})
    else:
        merged: dict[tuple[str, str], bool] = {}
        for (first, second), fast in raw:
            one, other = sorted((resolved(first), resolved(second)))
            if one != other:  # a card with itself never fits a singleton deck
                merged[one, other] = merged.get((one, other), False) or fast
        rows = sorted((first, second, int(fast)) for (first, second), fast in merged.items())
    refuse_empty(kind, rows, fetched.source)
    return rows, len(unresolved)


def refuse_shrink(kind: str, rows: list, before: int | None, source: str) -> None:
    """A list less than half its last size is refused, like an empty one: a source that
    lost most of a list (a truncated export, one holding a single combo) would otherwise
    clear most decks' findings. SHRUNK starts the message, so /readyz can say it."""
    if before is not None and before >= SHRINK_GUARDED and len(rows) * 2 < before:
        raise CardDataError(f"{SHRUNK} from {before:,} to {len(rows):,} {ENTRY_WORDS[kind]} ({source}): refused, the "
                            f"last list stays (LIST_SHRINK_ALLOWED=1 or `cards brackets --allow-shrink` accepts it)")


def _write(tables: ListWriter, kind: str, fetched: Fetched, allow_shrink: bool = False) -> None:
    """Replace one list in the store with what its source gave."""
    rows, unresolved = _rows(tables, kind, fetched)
    if not allow_shrink:
        refuse_shrink(kind, rows, tables.status(kind).entries, fetched.source)
    tables.write(kind, rows, source=fetched.source, updated_at=fetched.updated_at, unresolved=unresolved)


def _searched(search: Callable[[ScryfallClient], Fetched], client: Callable[[], ScryfallClient]) -> Fetched:
    """One Scryfall search, on the client made when first asked for."""
    return search(client())


def refresh(
    db_path: str | os.PathLike,
    sources: BracketSources,
    *,
    client: ScryfallClient | None = None,
    spellbook: SpellbookClient | None = None,
    network: bool = True,
) -> dict[str, Refresh]:
    """Refresh every list from its source into the store at db_path, each on its own.

    `network=False` refreshes only the lists that have a file override (`cards import`).
    A list that fails keeps its last good data; the failure is in its Refresh and status.
    """
    fetchers: dict[str, Callable[[], Fetched]] = {}
    made: list[ScryfallClient] = []

    def scryfall() -> ScryfallClient:
        """The given client, else one on the store's budget, made once (both searches share it)."""
        if client is not None:
            return client
        if not made:
            made.append(ScryfallClient(sources.api_url, user_agent=sources.user_agent,
                                       limits=RateLimits.for_store(db_path)))
        return made[0]

    searches = ((MASS_LAND_DENIAL, sources.mass_land_denial_file, mass_land_denial_from_scryfall),
                (PAUPER_COMMANDERS, sources.pauper_commanders_file, pauper_commanders_from_scryfall))
    for kind, path, from_scryfall in searches:
        if path:
            fetchers[kind] = partial(names_from_file, path)
        elif network:
            fetchers[kind] = partial(_searched, from_scryfall, scryfall)
    if combos_file := sources.combos_file:
        fetchers[TWO_CARD_COMBOS] = lambda: combos_from_file(combos_file)
    elif network:
        fetchers[TWO_CARD_COMBOS] = lambda: combos_from_spellbook(
            spellbook or SpellbookClient(sources.spellbook_url, user_agent=sources.user_agent))
    results: dict[str, Refresh] = {}
    with bracket_tables.writing(db_path) as tables:
        for kind, fetch in fetchers.items():
            try:
                _write(tables, kind, fetch(), sources.allow_shrink)
            except (CardDataError, MemoryError) as error:
                # Whatever a source sends, a failed refresh keeps the last list: never a crash.
                message = str(error) if isinstance(error, CardDataError) else "ran out of memory reading the list"
                log.warning("%s not refreshed, the last list stays: %s", kind, message)
                tables.record_failure(kind, message)
                results[kind] = Refresh("failed", tables.status(kind), message)
                continue
            results[kind] = Refresh("updated", tables.status(kind))
    return results
