"""The `cards` command: sync, import and status of the card store.

    cards sync [--force]      download Scryfall's oracle-cards bulk file if it is newer
    cards import PATH         build the store from a local bulk file (air-gapped CI)
    cards status [--json]     what the store holds

CARD_DB and SCRYFALL_API_URL choose the store and the API (--db / --api-url override);
they are read as the service reads them (edh_service.config). With REDIS_URL (several
instances) `sync` shares Scryfall's budget through Redis and, with CARD_DATA_SHARED_DIR,
uses or publishes the bulk file there (docs/several-instances.md).
Exit codes: 0 done, 1 card data error, 75 temporarily unavailable (EX_TEMPFAIL).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from card_data.errors import CardDataError, CardDataUnavailable
from card_data.store import read_metadata
from card_data.sync import import_file, sync

EXIT_ERROR = 1
EXIT_TEMPFAIL = 75  # sysexits.h: try again later (a cron job or CI can tell it apart)


def _parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    # The command is an entry point, like the service: one reading of the environment.
    from edh_service.config import setting

    common = argparse.ArgumentParser(add_help=False)  # --db works after the subcommand
    common.add_argument("--db", default=setting("CARD_DB"), help="store file (default: $CARD_DB or %(default)s)")
    parser = argparse.ArgumentParser(prog="cards", description="Manage the Scryfall card store.")
    commands = parser.add_subparsers(dest="command", required=True)
    sync_parser = commands.add_parser("sync", parents=[common], help="download Scryfall's oracle-cards bulk file if newer")
    sync_parser.add_argument("--api-url", default=setting("SCRYFALL_API_URL"), help="Scryfall API base (default: %(default)s)")
    sync_parser.add_argument("--force", action="store_true", help="download even if the store is current")
    import_parser = commands.add_parser("import", parents=[common], help="build the store from a local bulk file")
    import_parser.add_argument("path", help=".jsonl.gz, .jsonl, .json or .json.gz bulk file")
    import_parser.add_argument("--updated-at", help="the file's updated_at (default: bulk-data.json beside it, or mtime)")
    status_parser = commands.add_parser("status", parents=[common], help="show what the store holds")
    status_parser.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _report(result, db: str) -> None:
    """Print what a sync or import did."""
    meta = result.metadata
    verb = "is up to date" if result.status == "unchanged" else "updated"
    print(f"{db} {verb}: {meta.cards} cards from {meta.source}, updated_at {meta.updated_at}")


def _status(db: str, as_json: bool) -> int:
    """Print the store's metadata; exit 1 when there is no store."""
    meta = read_metadata(db)
    if as_json:
        print(json.dumps({"db": db, "card_data": asdict(meta) if meta else None}))
    elif meta is None:
        print(f"{db}: no card store (run `cards sync` or `cards import PATH`)")
    else:
        print(f"{db}: {meta.cards} cards from {meta.source}, updated_at {meta.updated_at}")
    return 0 if meta else EXIT_ERROR


def main(argv: list[str] | None = None) -> int:
    """Run one `cards` command and return its exit code."""
    from edh_service.config import ConfigError, setting

    try:
        parser = _parser()  # its defaults come from the environment
    except ConfigError as error:
        print(f"cards: {error}", file=sys.stderr)
        return EXIT_ERROR
    args = parser.parse_args(argv)
    try:
        if args.command == "sync":
            # REDIS_URL, CARD_DATA_SHARED_DIR: several instances share the budget and the bulk file
            _report(sync(args.db, args.api_url, force=args.force, redis_url=setting("REDIS_URL"),
                         shared_dir=setting("CARD_DATA_SHARED_DIR")), args.db)
        elif args.command == "import":
            _report(import_file(args.db, args.path, updated_at=args.updated_at), args.db)
        else:
            return _status(args.db, args.json)
    except CardDataUnavailable as error:
        print(f"cards {args.command}: {error}", file=sys.stderr)
        return EXIT_TEMPFAIL
    except CardDataError as error:
        print(f"cards {args.command}: {error}", file=sys.stderr)
        return EXIT_ERROR
    return 0
