"""The `cards` command: sync, import and status of the card store.

    cards sync [--force]      download Scryfall's oracle-cards bulk file if it is newer, then
                              refresh the synced lists (mass land denial, two-card combos,
                              Pauper Commander commanders)
    cards import PATH         build the store from a local bulk file (air-gapped CI); the
                              lists from MASS_LAND_DENIAL_FILE / COMBOS_FILE /
                              PAUPER_COMMANDERS_FILE if set; --if-empty: only when the
                              store holds no cards yet (make run CARD_DATA_FILE=PATH)
    cards brackets            refresh only the synced lists
    cards import-names PATH.. the table of names printed in other languages from local files
                              (Scryfall card objects or MTGJSON files with foreignData)
    cards status [--json]     what the store holds

`sync` also rebuilds the names table from Scryfall's all_cards bulk file (or CARD_NAMES_FILE)
when it is due (CARD_NAMES_REFRESH_SECONDS, weekly) and that file is newer; CARD_NAME_LANGUAGES
says which languages (empty: none). A names refresh that fails keeps the last table and is a
warning, like a bracket list's.

(`python -m edh_service.cli.cards ...` runs the same.)

CARD_DB and SCRYFALL_API_URL choose the store and the API (--db / --api-url override);
they are read as the service reads them (edh_service.config, turned into card_data's
StoreSettings and BracketSources by config.store_settings / bracket_sources). With REDIS_URL (several
instances) `sync` shares Scryfall's budget through Redis and, with CARD_DATA_SHARED_DIR,
uses or publishes the bulk file there (docs/deployment.md).
SPELLBOOK_URL, MASS_LAND_DENIAL_FILE, COMBOS_FILE and PAUPER_COMMANDERS_FILE the lists' sources.
Exit codes: 0 done, 1 card data error, 75 temporarily unavailable (EX_TEMPFAIL). A bracket
list that fails to refresh keeps its last data and is a warning on stderr, not an error:
the card data, which validation needs, is fine.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from typing import Any, Callable

from card_data.lists import refresh as bracket_lists
from card_data.store import list_tables as bracket_tables, names_table
from card_data.names import sync as names_sync
from card_data.scryfall.building import SyncResult
from card_data.errors import CardDataError, CardDataUnavailable
from card_data.settings import BracketSources, NameSources
from card_data.store.cards import read_metadata
from card_data.sync import import_file, sync
from edh_service.config import ConfigError, bracket_sources as sources_of, name_sources, setting, store_settings
from edh_service.first_start import BULK_DATA_PAGE, cards_command, no_card_data_hint
from validator import ENGINE

# The settings each command reads of the table (the service reads them from app.config).
BRACKET_SETTINGS = ("SCRYFALL_API_URL", "SPELLBOOK_URL", "MASS_LAND_DENIAL_FILE", "COMBOS_FILE", "USER_AGENT",
                    "PAUPER_COMMANDERS_FILE", "LIST_SHRINK_ALLOWED")
NAME_SETTINGS = ("CARD_NAME_LANGUAGES", "CARD_NAMES_FILE", "CARD_NAMES_REFRESH_SECONDS")

EXIT_ERROR = 1
EXIT_TEMPFAIL = 75  # sysexits.h: try again later (a cron job or CI can tell it apart)


def _parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand (its defaults come from the environment)."""
    common = argparse.ArgumentParser(add_help=False)  # --db works after the subcommand
    common.add_argument("--db", default=setting("CARD_DB"), help="store file (default: $CARD_DB or %(default)s)")
    parser = argparse.ArgumentParser(prog="cards", description="Manage the Scryfall card store.")
    commands = parser.add_subparsers(dest="command", required=True)
    sync_parser = commands.add_parser("sync", parents=[common], help="download Scryfall's oracle-cards bulk file if newer")
    sync_parser.add_argument("--api-url", default=setting("SCRYFALL_API_URL"), help="Scryfall API base (default: %(default)s)")
    sync_parser.add_argument("--force", action="store_true", help="download even if the store is current")
    sync_parser.add_argument("--no-names", action="store_true",
                             help="leave the names in other languages to the service's background sync (make run)")
    import_parser = commands.add_parser("import", parents=[common], help="build the store from a local bulk file")
    import_parser.add_argument("path", help=".jsonl.gz, .jsonl, .json or .json.gz bulk file")
    import_parser.add_argument("--updated-at", help="the file's updated_at (default: bulk-data.json beside it, or mtime)")
    import_parser.add_argument("--if-empty", action="store_true",
                               help="import only when the store holds no cards yet (make run CARD_DATA_FILE=PATH)")
    brackets_parser = commands.add_parser("brackets", parents=[common], help="refresh only the bracket lists")
    brackets_parser.add_argument("--api-url", default=setting("SCRYFALL_API_URL"), help="Scryfall API base (default: %(default)s)")
    brackets_parser.add_argument("--allow-shrink", action="store_true", default=None,
                                 help="accept a list under half its last size (default: $LIST_SHRINK_ALLOWED, else refused)")
    names_parser = commands.add_parser("import-names", parents=[common],
                                       help="load the names printed in other languages from local files")
    names_parser.add_argument("paths", nargs="+", metavar="PATH",
                              help="Scryfall card objects (.jsonl[.gz], a JSON list or list object) or MTGJSON files")
    names_parser.add_argument("--updated-at", help="the files' updated_at (default: the newest file's mtime)")
    status_parser = commands.add_parser("status", parents=[common], help="show what the store holds")
    status_parser.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _report(result: SyncResult, db: str) -> None:
    """Print what a sync or import did."""
    meta = result.metadata
    verb = "is up to date" if result.status == "unchanged" else "updated"
    print(f"{db} {verb}: {meta.cards} cards from {meta.source}, updated_at {meta.updated_at}")
    _report_brackets(result.brackets or {})


def _report_brackets(refreshed: dict) -> None:
    """One line per refreshed bracket list; a failure is a warning on stderr."""
    for kind, outcome in refreshed.items():
        if outcome.status == "failed":
            kept = "keeping the last list" if outcome.list_status.loaded else "no list loaded"
            print(f"warning: {LABELS[kind]} not refreshed ({kept}): {outcome.error}", file=sys.stderr)
        else:
            print(f"{LABELS[kind]}: {_describe(outcome.list_status)}")


LABELS = {bracket_tables.MASS_LAND_DENIAL: "mass land denial", bracket_tables.TWO_CARD_COMBOS: "two-card combos",
          bracket_tables.PAUPER_COMMANDERS: "Pauper Commander commanders"}


NOT_LOADED = {
    bracket_tables.MASS_LAND_DENIAL: "not loaded (brackets report it as not checked)",
    bracket_tables.TWO_CARD_COMBOS: "not loaded (brackets report it as not checked)",
    bracket_tables.PAUPER_COMMANDERS: "not loaded (Pauper Commander commanders are legality_unknown)",
}


def _describe(list_status: bracket_tables.ListStatus) -> str:
    """One list's status in words."""
    if not list_status.loaded:
        text = NOT_LOADED[list_status.list]
    else:
        unresolved = f" ({list_status.unresolved} names unknown to the card data)" if list_status.unresolved else ""
        text = (f"{list_status.entries} entries{unresolved} from {list_status.source}, updated_at "
                f"{list_status.updated_at}, refreshed {list_status.refreshed_at}")
    if list_status.error:
        text += f"; last refresh failed at {list_status.failed_at}: {list_status.error}"
    return text


def _status(db: str, as_json: bool) -> int:
    """Print the store's metadata, bracket lists and names table; exit 1 when there is no store."""
    meta = read_metadata(db)
    lists = bracket_tables.status(db) if meta else None
    names = names_table.read_status(db) if meta else None
    if as_json:
        print(json.dumps({
            "db": db, "card_data": asdict(meta) if meta else None,
            "brackets": _as_dicts(lists, bracket_tables.BRACKET_LISTS),
            "format_lists": _as_dicts(lists, bracket_tables.FORMAT_LISTS),
            "card_names": names.shown() if names else None,
            "engine": ENGINE,
        }, ensure_ascii=False))
    elif meta is None:
        print(f"{db}: no card store (run `{cards_command()} sync`, or `{cards_command()} import PATH` with "
              f"Scryfall's Oracle Cards bulk file: {BULK_DATA_PAGE})")
    else:
        print(f"{db}: {meta.cards} cards from {meta.source}, updated_at {meta.updated_at}")
        print(f"  engine: {ENGINE}")
        for kind, list_status in (lists or {}).items():
            print(f"  {LABELS[kind]}: {_describe(list_status)}")
        if names is not None:
            print(f"  card names: {_describe_names(names)}")
    return 0 if meta else EXIT_ERROR


def _describe_names(names: names_table.NamesStatus) -> str:
    """The names table's status in words."""
    if not names.loaded:
        text = "not loaded (names in other languages are unknown cards)"
    else:
        text = (f"{names.names} printed names in {len(names.languages)} languages ({', '.join(names.languages)}) "
                f"from {names.source}, updated_at {names.updated_at}, refreshed {names.refreshed_at}")
    if names.error:
        text += f"; last refresh failed at {names.failed_at}: {names.error}"
    return text


def _report_names(outcome: names_sync.NamesRefresh) -> None:
    """What a names refresh did: a line, or a warning on stderr when it failed."""
    if outcome.status == "failed":
        kept = "keeping the last table" if outcome.names.loaded else "no table loaded"
        print(f"warning: card names not refreshed ({kept}): {outcome.error}", file=sys.stderr)
    elif outcome.status != "off":
        print(f"card names: {_describe_names(outcome.names)}")


def _name_sources() -> NameSources:
    """The names table's sources from the settings table (as the service reads them)."""
    return name_sources({name: setting(name) for name in NAME_SETTINGS})


def _as_dicts(lists: dict[str, bracket_tables.ListStatus] | None, kinds: tuple[str, ...]) -> dict | None:
    """The statuses of these lists, JSON-ready (None without a store)."""
    return {kind: lists[kind].as_dict() for kind in kinds} if lists else None


def bracket_sources(setting: Callable[[str], Any], **overrides: Any) -> BracketSources:
    """The bracket lists' sources from the settings table (the service reads the same values)."""
    return sources_of({name: setting(name) for name in BRACKET_SETTINGS}, **overrides)


def main(argv: list[str] | None = None) -> int:
    """Run one `cards` command and return its exit code."""
    try:
        parser = _parser()  # its defaults come from the environment
    except ConfigError as error:
        print(f"cards: {error}", file=sys.stderr)
        return EXIT_ERROR
    args = parser.parse_args(argv)
    try:
        if args.command == "sync":
            # REDIS_URL, CARD_DATA_SHARED_DIR: several instances share the budget and the bulk file
            sources = bracket_sources(setting, api_url=args.api_url)
            settings = store_settings({"CARD_DB": args.db, "SCRYFALL_API_URL": args.api_url,
                                       "REDIS_URL": setting("REDIS_URL"),
                                       "CARD_DATA_SHARED_DIR": setting("CARD_DATA_SHARED_DIR")})
            _report(sync(settings, force=args.force, brackets=sources), args.db)
            if not args.no_names:
                _report_names(names_sync.refresh(settings, _name_sources(), force=args.force))
        elif args.command == "import":
            if args.if_empty and (meta := read_metadata(args.db)) is not None and meta.cards:
                print(f"{args.db} already holds {meta.cards} cards from {meta.source}, updated_at {meta.updated_at}: "
                      f"{args.path} not imported (`{cards_command()} import {args.path}` replaces them)")
                return 0
            sources = bracket_sources(setting)
            _report(import_file(args.db, args.path, updated_at=args.updated_at, brackets=sources), args.db)
        elif args.command == "import-names":
            languages = _name_sources().wanted()
            if _name_sources().off:
                print("cards import-names: CARD_NAME_LANGUAGES is empty: the names table is off", file=sys.stderr)
                return EXIT_ERROR
            names = names_sync.import_names(args.db, *args.paths, languages=languages, updated_at=args.updated_at)
            print(f"{args.db} card names updated: {_describe_names(names)}")
        elif args.command == "brackets":
            _report_brackets(bracket_lists.refresh(args.db, bracket_sources(setting, api_url=args.api_url,
                                                                            allow_shrink=args.allow_shrink)))
        else:
            return _status(args.db, args.json)
    except CardDataUnavailable as error:
        print(f"cards {args.command}: {error}", file=sys.stderr)
        _first_start_hint(args)
        return EXIT_TEMPFAIL
    except ConfigError as error:  # a setting only this command reads (CARD_NAME_LANGUAGES...)
        print(f"cards {args.command}: {error}", file=sys.stderr)
        return EXIT_ERROR
    except CardDataError as error:
        print(f"cards {args.command}: {error}", file=sys.stderr)
        _first_start_hint(args)
        return EXIT_ERROR
    return 0


def _first_start_hint(args: argparse.Namespace) -> None:
    """After a failed sync that left no store at all: how to load card data without internet."""
    if args.command == "sync" and read_metadata(args.db) is None:
        print(no_card_data_hint(args.db), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
