"""edh-validate: check Commander decklist files in CI pipelines and pre-commit hooks.

    edh-validate [options] PATH...      (files, directories, globs, or - for stdin)

Exit codes: 0 every deck is valid; 1 some deck has an error-severity violation (or a
warning, with --strict); 2 usage error, unreadable file, or card data unavailable.
It runs the same engine and card store as the HTTP service (service.validate_text).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import fnmatch
import json
import os
import re
import stat
import sys
import traceback
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterable, Iterator, NamedTuple, Sequence, TextIO

from edh_service import config

if TYPE_CHECKING:
    from validator.decklist import Designation

EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_USAGE = 2

PROG = "edh-validate"
STDIN = "-"
STDIN_NAME = "<stdin>"
# Extensions a directory argument is searched for (plain text, Cockatrice .dec, the XML
# and INI dialects). Explicitly named files are checked whatever their extension.
DECK_EXTENSIONS = frozenset({".txt", ".dec", ".dck", ".dek", ".cod"})
# Extensions that name their reader outright; .dck is Forge's or XMage's (see dck_dialect).
EXTENSION_FORMATS = {".dek": "mtgo_dek", ".cod": "cockatrice"}
GLOB_CHARS = re.compile(r"[*?\[]")
BRACKETS = range(1, 6)  # the Commander Brackets a deck may declare


@dataclass(frozen=True)
class Streams:
    """Where one run reads stdin ("-") and writes its report and its errors."""

    stdout: TextIO
    stderr: TextIO
    stdin: BinaryIO | None = None  # None: the process's own stdin, read only for "-"


class UsageError(Exception):
    """Bad arguments or inputs that make the whole run meaningless: exit code 2."""


@dataclass(frozen=True)
class Checked:
    """One input's outcome: the engine's Report, or why the input could not be checked."""

    path: str  # as the user named it; "-" is stdin
    report: object | None = None  # validator.engine.Report
    error: str | None = None

    @property
    def name(self) -> str:
        """The name to show for this input in every output format."""
        return STDIN_NAME if self.path == STDIN else shown_path(self.path)

    def violations(self) -> list:
        """The report's violations (none for an unreadable input)."""
        return list(self.report.violations) if self.report is not None else []

    def counts(self) -> tuple[int, int]:
        """How many (errors, warnings) the report holds."""
        errors = sum(1 for v in self.violations() if v.severity == "error")
        return errors, len(self.violations()) - errors

    def fails(self, strict: bool) -> bool:
        """True when this deck fails the check: any error, or any warning under --strict."""
        errors, warnings = self.counts()
        return errors > 0 or (strict and warnings > 0)


# --- arguments -------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse, with its error message printable: it quotes arguments (file names)."""

    def error(self, message: str):
        """Print the usage and the error on stderr; exit with 2, as argparse does."""
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, printable(f"{self.prog}: error: {message}") + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The command line: paths, output format, strictness and where the card data lives."""
    parser = Parser(
        prog=PROG,
        description="Validate Commander (EDH) decklist files. Exit code 0: every deck is "
        "valid; 1: a deck has an error (or a warning with --strict); 2: usage error, "
        "unreadable file, or card data unavailable.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="decklist files, directories, globs (quoted), or - for stdin")
    parser.add_argument("--format", dest="output", default="text", choices=sorted(RENDERERS),
                        help="output format (default: text)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--offline", action="store_true", default=config.setting("CARD_DATA_OFFLINE"),
                        help="never touch the network (also CARD_DATA_OFFLINE=1)")
    parser.add_argument("--card-db", default=config.setting("CARD_DB"),
                        metavar="PATH", help=f"card store (default: $CARD_DB or {config.DEFAULT_CARD_DB})")
    parser.add_argument("--bulk-file", metavar="PATH",
                        help="import this Scryfall bulk file (.jsonl[.gz], .json[.gz]) into "
                        "the store first, for air-gapped runners")
    parser.add_argument("--commander", action="append", metavar="NAME",
                        help="designate the commander (repeat for partners), overriding the lists")
    parser.add_argument("--companion", metavar="NAME", help="designate the companion")
    parser.add_argument("--bracket", type=bracket_number, metavar="N",
                        help="declare the Commander Bracket (1-5): what a deck breaks in it is an "
                        "error (bracket_* codes)")
    return parser


def bracket_number(value: str) -> int:
    """--bracket's N: a whole number from 1 to 5. argparse's own checks quoted a bad value
    whole (thousands of digits came back in the error); this one quotes it cut short."""
    from validator.parse.common import snippet

    with contextlib.suppress(ValueError):  # not a whole number, or past Python's 4,300 digits
        if (number := int(value)) in BRACKETS:
            return number
    choices = ", ".join(map(str, BRACKETS))
    raise argparse.ArgumentTypeError(f"invalid choice: {snippet(value)!r} (choose from {choices})")


# --- inputs ----------------------------------------------------------------------------
#
# What a PATH argument may read is bounded: a committed checkout is hostile input too. A
# link to /etc/passwd or ~/.ssh/id_rsa would be read and its lines quoted in public
# annotations; links to each other or to an ancestor made the folder walk explode; a FIFO
# waited forever for a writer; /dev/zero or a 1 GiB file filled the memory.

MAX_FILES = 10_000  # decklist files one run checks (a repository of decks holds hundreds)
MAX_ENTRIES = 200_000  # files and folders one run's folder and glob walks may look at
MAX_FILE_BYTES = 4 * 1024 * 1024  # twice the largest real export seen (a TCGplayer API deck, 2 MB)


@dataclass(frozen=True)
class Input:
    """One input to check: its path as reached, and why it is not read (None: read it)."""

    path: str
    refused: str | None = None


@dataclass(frozen=True)
class Tree:
    """Where one PATH argument may read: every file, its links resolved, lies in `real`."""

    real: str  # the tree's real path
    shown: str  # how messages name it

    @classmethod
    def around(cls, argument: str, folder: str) -> Tree:
        """A relative argument inside the current directory may read the current directory
        (the repository, where pre-commit and the Action run); any other argument the
        folder it names: a folder itself, a glob's folder before its first wildcard, a
        file's own folder."""
        here = os.getcwd()
        if not os.path.isabs(argument) and is_within(os.path.abspath(argument), here):
            return cls(os.path.realpath(here), "the current directory")
        return cls(os.path.realpath(folder or os.curdir), folder or os.curdir)

    def refusal(self, path: str) -> str | None:
        """Why `path` may be neither read nor walked (None: it may): a link on its way
        leads out of the tree, or into a hidden file or folder of it that the path does
        not name itself (.git/config holds the checkout's token, .env a job's secrets),
        is broken, or loops."""
        real = os.path.realpath(path)
        if not is_within(real, self.real):
            return f"cannot read: a symbolic link out of {self.shown}, not followed"
        if not hidden_parts(os.path.relpath(real, self.real)) <= hidden_parts(path):
            return "cannot read: a symbolic link into a hidden file or folder (such as .git), not followed"
        try:
            os.stat(path)
        except FileNotFoundError:
            return "cannot read: a broken symbolic link"
        except OSError as error:
            return "cannot read: a symbolic link loop" if error.errno == errno.ELOOP else f"cannot read: {error}"
        return None


def hidden_parts(path: str) -> set[str]:
    """The dot files and folders the path goes through ("." and ".." are none)."""
    return {part for part in re.split(r"[\\/]", path) if part.startswith(".") and part not in (os.curdir, os.pardir)}


def is_within(path: str, folder: str) -> bool:
    """Whether the absolute path is the folder or lies under it."""
    try:
        return os.path.commonpath([path, folder]) == folder
    except ValueError:  # Windows: another drive
        return False


class Entry(NamedTuple):  # a tuple: a walk makes one per file it looks at
    """A file or folder met on a walk: its path as reached, its name, its real path,
    whether it is (or its link leads to) a folder, and why it may not be followed."""

    path: str
    name: str
    real: str = ""
    folder: bool = False
    refused: str | None = None  # None: it may be followed


class Budget:
    """How many more files and folders this run's walks may look at (MAX_ENTRIES in all):
    `edh-validate .` at the root of a huge tree stops with a message, not after minutes."""

    def __init__(self) -> None:
        self.left = MAX_ENTRIES

    def spend(self, folder: str) -> None:
        """Count one entry listed in the folder; raises UsageError past the limit."""
        self.left -= 1
        if self.left < 0:
            raise UsageError(f"more than {MAX_ENTRIES:,} files and folders to look at (in {folder} and "
                             "before): name the decklist folders instead")


def expand_paths(arguments: Sequence[str]) -> list[Input]:
    """Turn PATH arguments into the inputs to check, in order, each once.

    Globs are expanded here too (`**` included), because pre-commit, Windows shells and
    quoted CI arguments hand them over unexpanded. A directory stands for the decklist
    files under it. A link out of an argument's tree (Tree.around), a broken link and a
    link loop come back refused: reported as not checked (exit code 2), never read.
    """
    budget = Budget()
    found: dict[object, Input] = {}  # real path -> the input as first reached
    for argument in arguments:
        for item in expand_one(argument, budget):
            # One check per file: "./a.txt" and "a.txt", or a folder reached through a
            # link inside the tree, are the same file.
            key = item.path if item.path == STDIN or item.refused else os.path.realpath(item.path)
            found.setdefault(key, item)
        if len(found) > MAX_FILES:
            raise UsageError(f"more than {MAX_FILES:,} decklist files to check: check fewer folders at a time")
    return list(found.values())


def expand_one(argument: str, budget: Budget) -> list[Input]:
    """The inputs one PATH argument names; raises UsageError when it names nothing."""
    if argument == STDIN:
        return [Input(STDIN)]
    if os.path.lexists(argument):
        folder = os.path.isdir(argument)
        tree = Tree.around(argument, argument if folder else os.path.dirname(argument))
        if refused := tree.refusal(argument):
            return [Input(argument, refused)]
        if not folder:
            return [Input(argument)]
        top = Entry(argument, os.path.basename(argument), os.path.realpath(argument), True)
        if files := deck_files_under(top, tree, budget):
            return files
        # Like a glob that matches nothing: a CI check over no decks must not pass silently.
        extensions = " ".join(sorted(DECK_EXTENSIONS))
        raise UsageError(f"no decklist files ({extensions}) under {argument}")
    if GLOB_CHARS.search(argument):
        if files := glob_inputs(argument, budget):
            return files
        raise UsageError(f"no files match {argument!r}")
    raise UsageError(f"no such file or directory: {argument}")


def glob_inputs(pattern: str, budget: Budget) -> list[Input]:
    """The inputs a glob matches, sorted: its files, the decklists under its folders."""
    base, parts = glob_parts(pattern)
    start = base or os.curdir
    if not os.path.isdir(start):
        return []
    tree = Tree.around(pattern, start)
    if refused := tree.refusal(start):
        return [Input(base, refused)]
    found = []
    for entry in walk(Entry(base, os.path.basename(base), os.path.realpath(start), True), parts, tree, budget):
        if entry.refused:
            found.append(Input(entry.path, entry.refused))
        elif entry.folder:
            found.extend(deck_files_under(entry, tree, budget))
        else:
            found.append(Input(entry.path))
    return sorted(found, key=lambda item: item.path)


def glob_parts(pattern: str) -> tuple[str, list[str]]:
    """A glob as its folder before the first wildcard and the parts from there on:
    'decks/**/*.txt' is ('decks', ['**', '*.txt']), '/tmp/*.dck' ('/tmp', ['*.dck'])."""
    drive, rest = os.path.splitdrive(pattern)
    parts = re.split(r"[\\/]" if os.altsep else "/", rest)
    first = next(i for i, part in enumerate(parts) if GLOB_CHARS.search(part))
    head = parts[:first]
    base = drive + (os.sep.join(head) if head != [""] else os.sep)
    return base, [part for part in parts[first:] if part]  # "a//b" is "a/b", as for glob


def deck_files_under(folder: Entry, tree: Tree, budget: Budget) -> list[Input]:
    """Every file with a decklist extension under the folder, sorted, and every such
    file or folder on the way that could not be followed (a link out, a broken link...)."""
    found: dict[str, Input] = {}
    for entry in walk(folder, ("**", "*"), tree, budget):
        if entry.refused and (entry.folder or is_deck_name(entry.name)):
            found.setdefault(entry.path, Input(entry.path, entry.refused))
        elif not entry.refused and not entry.folder and is_deck_name(entry.name):
            found.setdefault(entry.path, Input(entry.path))
    return sorted(found.values(), key=lambda item: item.path)


def is_deck_name(name: str) -> bool:
    """Whether a folder walk checks this file: its extension is a decklist's."""
    return os.path.splitext(name)[1].lower() in DECK_EXTENSIONS


def walk(top: Entry, parts: Sequence[str], tree: Tree, budget: Budget) -> Iterator[Entry]:
    """The entries under `top` that the glob parts match ('**': any folders below; a
    wildcard part is matched by fnmatch; any other names one entry), and every link met
    on the way that may not be followed. Hidden names match only a part that starts with
    '.', and '**' never enters a hidden folder, as for glob. Each folder is listed once
    and walked at most once per part: a link to an ancestor, or two links to each other,
    end there."""
    stack = [(top, 0)]
    seen: set[tuple[str, int]] = set()
    listings: dict[str, list[Entry]] = {}  # real path -> entries (MAX_ENTRIES bounds them)
    matchers = [re.compile(fnmatch.translate(os.path.normcase(part))).match for part in parts]
    while stack:
        entry, index = stack.pop()
        if entry.refused or index == len(parts):
            yield entry
            continue
        if not entry.folder or (entry.real, index) in seen:
            continue
        seen.add((entry.real, index))
        part = parts[index]
        if not (part == "**" or GLOB_CHARS.search(part)):  # a plain name: no listing
            path = os.path.join(entry.path, part)
            if os.path.lexists(path):
                stack.append((entry_at(path, entry.real, tree), index + 1))
            continue
        try:
            if entry.real not in listings:
                listings[entry.real] = children(entry, tree, budget)
        except OSError as error:
            yield Entry(entry.path, entry.name, entry.real, True, f"cannot list: {error.strerror or error}")
            continue
        visible = [child for child in listings[entry.real] if part.startswith(".") or not child.name.startswith(".")]
        if part == "**":
            following = [(entry, index + 1)] + [(child, index) for child in visible if child.folder]
        else:
            matches = matchers[index]
            following = [(child, index + 1) for child in visible if matches(os.path.normcase(child.name))]
        stack.extend(reversed(following))


def children(folder: Entry, tree: Tree, budget: Budget) -> list[Entry]:
    """The folder's entries, sorted by name; raises OSError when it cannot be listed.
    The listing tells links, folders and files apart: only a link costs a system call."""
    where = folder.path or os.curdir
    items = []
    with os.scandir(where) as listing:
        for item in listing:
            budget.spend(where)
            items.append(item)
    items.sort(key=lambda item: item.name)
    path, real = os.path.join(folder.path, ""), os.path.join(folder.real, "")  # "" stays ""
    found = []
    for item in items:
        try:
            link, is_folder = item.is_symlink(), item.is_dir(follow_symlinks=False)
        except OSError as error:  # gone since the folder was listed
            found.append(Entry(path + item.name, item.name, refused=f"cannot read: {error.strerror or error}"))
            continue
        found.append(linked(path + item.name, item.name, tree) if link
                     else Entry(path + item.name, item.name, real + item.name, is_folder))
    return found


def entry_at(path: str, parent_real: str, tree: Tree) -> Entry:
    """What a walk finds at `path`, named in a glob, in the folder whose real path is
    `parent_real`."""
    name = os.path.basename(path)
    try:
        mode = os.lstat(path).st_mode
    except OSError as error:  # gone since it was seen
        return Entry(path, name, refused=f"cannot read: {error.strerror or error}")
    if stat.S_ISLNK(mode):
        return linked(path, name, tree)
    return Entry(path, name, os.path.join(parent_real, name), stat.S_ISDIR(mode))


def linked(path: str, name: str, tree: Tree) -> Entry:
    """A link met on a walk, judged by where it leads (os.stat: never a read)."""
    if refused := tree.refusal(path):
        return Entry(path, name, folder=os.path.isdir(path), refused=refused)
    return Entry(path, name, os.path.realpath(path), os.path.isdir(path))


def read_input(path: str, stdin: BinaryIO | None = None) -> str:
    """The decklist text: UTF-16/32 by its BOM, else UTF-8 (a BOM dropped), else
    Windows-1252 as older tools write (service.decode_file, as the page reads uploads)."""
    from edh_service.service import decode_file, has_unicode_bom

    data = read_bounded(stdin or sys.stdin.buffer) if path == STDIN else read_file(path)
    if b"\0" in data and not has_unicode_bom(data):
        # No decklist format contains NUL; this is a binary file caught by a glob.
        raise ValueError("binary file, not a decklist")
    text = decode_file(data)
    if "\0" in text:
        raise ValueError("binary file, not a decklist")
    return text


# Opened without waiting (a FIFO has no writer), never as a controlling terminal.
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
FILE_KINDS = {stat.S_ISDIR: "a folder", stat.S_ISFIFO: "a named pipe", stat.S_ISCHR: "a device",
              stat.S_ISBLK: "a device", stat.S_ISSOCK: "a socket"}


def read_file(path: str) -> bytes:
    """A regular file's bytes, at most MAX_FILE_BYTES: a FIFO, a device or a folder is
    refused unread, a file too large before a byte is read."""
    descriptor = os.open(path, OPEN_FLAGS)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in FILE_KINDS.items() if test(info.st_mode)), "a special file")
            raise ValueError(f"not a regular file ({kind})")
        if info.st_size > MAX_FILE_BYTES:
            raise ValueError(too_large(info.st_size))
        with open(descriptor, "rb", closefd=False) as handle:
            return read_bounded(handle)  # st_size can be 0 for a file that has bytes (/proc)
    finally:
        os.close(descriptor)


def read_bounded(stream: BinaryIO) -> bytes:
    """At most MAX_FILE_BYTES from the stream; ValueError if it holds more."""
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(too_large())
    return data


def too_large(size: int | None = None) -> str:
    """Why a file is not read: its size, over the limit."""
    mebibytes, rest = divmod(MAX_FILE_BYTES, 1024 * 1024)
    limit = f"{MAX_FILE_BYTES:,} bytes" if rest else f"{mebibytes} MiB"
    given = f" ({size:,} bytes)" if size is not None else ""
    return f"over {limit}{given}: no decklist is that large"


def format_hint(path: str, text: str) -> str | None:
    """The reader to force for this file, from its extension (None: let the parser detect)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".dck":
        return dck_dialect(text)
    return EXTENSION_FORMATS.get(suffix)


# [^\S\n]: blanks within one line. With \s, "^\s*" ran from every line start across all the
# lines after it: 20,000 newlines took 29 s.
FORGE_SECTION = re.compile(r"^[^\S\n]*\[(metadata|commander|main|sideboard)\][^\S\n]*$", re.I | re.M)
XMAGE_LINE = re.compile(r"^[^\S\n]*(?:(?:SB:[^\S\n]*)?\d+[^\S\n]+\[[^\]:\n]*:[^\]\n]*\]|(?:NAME|LAYOUT)\b)", re.M)


def dck_dialect(text: str) -> str | None:
    """Forge or XMage: both use .dck, Forge with [Section] headers, XMage with [SET:num] cards."""
    if FORGE_SECTION.search(text):
        return "forge"
    if XMAGE_LINE.search(text):
        return "xmage"
    return None


# --- checking --------------------------------------------------------------------------


def check_file(path: str, repository, designation: "Designation | None" = None, *, bracket: int | None = None,
               streams: Streams | None = None) -> Checked:
    """Read, parse and validate one input; a file it cannot read becomes Checked.error."""
    from card_data import CardDataError
    from edh_service.service import validate_text
    from validator.decklist import NOBODY
    from validator.parse import FORMATS, DecklistError

    try:
        text = read_input(path, streams.stdin if streams else None)
    except (OSError, ValueError) as error:
        return Checked(path, error=f"cannot read: {error}")
    hint = format_hint(path, text)
    try:
        report = validate_text(text, repository, designation or NOBODY, format=hint if hint in FORMATS else None,
                               bracket=bracket).report
    except DecklistError as error:
        return Checked(path, error=f"cannot check: {error}")
    except CardDataError:
        raise  # the store itself failed: main() stops the whole run with exit code 2
    except Exception as error:  # noqa: BLE001 - a crash must not pass for "invalid deck" (1)
        print_traceback(error, streams.stderr if streams else sys.stderr)
        return Checked(path, error=f"internal error: {error!r}")
    return Checked(path, report=report)


def print_traceback(error: BaseException, stderr: TextIO) -> None:
    """A crash's traceback on stderr; the exception's message, which can quote a card
    name or a line of the file, printable."""
    message = "".join(traceback.format_exception_only(type(error), error)).rstrip("\n")
    stderr.write("Traceback (most recent call last):\n" + "".join(traceback.format_tb(error.__traceback__))
                 + printable(message) + "\n")


def exit_code(results: Iterable[Checked], strict: bool) -> int:
    """2 if any input could not be checked, else 1 if any deck fails, else 0."""
    results = list(results)
    if any(r.error for r in results):
        return EXIT_USAGE
    return EXIT_INVALID if any(r.fails(strict) for r in results) else EXIT_VALID


# --- card data -------------------------------------------------------------------------


def quiet_progress_in_ci() -> None:
    """Silence the sync's progress bar in CI even when the runner allocates a terminal.

    card_data shows a tqdm bar only when stderr is a terminal; tqdm reads TQDM_DISABLE
    as the default for every bar, so CI logs stay free of carriage-return noise.
    """
    if os.environ.get("CI"):
        os.environ.setdefault("TQDM_DISABLE", "1")


def store_is_older(db: Path, bulk_file: Path) -> bool:
    """Whether the bulk file must be imported: no usable store, or one older than the file."""
    from card_data.store import read_metadata

    if read_metadata(db) is None:
        return True
    # Importing ~30k cards takes seconds; a runner that passes --bulk-file on every run
    # should pay for it only when the file changed since the store was built.
    return db.stat().st_mtime < bulk_file.stat().st_mtime


def bulk_file_refusal(path: str) -> str | None:
    """Why a bulk file in a checkout may not be imported (None: it may): a link out of its
    tree (Tree.around), broken or looping, as for a decklist. The Action's cache key step
    asks the same (scripts/bulk_digest.py)."""
    if not os.path.lexists(path):
        return None  # "no such bulk file"
    return Tree.around(path, os.path.dirname(path)).refusal(path)


def open_card_store(db_path: str, *, offline: bool, bulk_file: str | None):
    """The card repository, importing or syncing the store first when needed.

    Raises card_data.CardDataError (exit 2) when the store is missing and cannot be built.
    """
    import card_data
    from card_data import sync as card_sync
    from card_data.store import read_metadata

    db = Path(db_path).expanduser()
    api_url = config.setting("SCRYFALL_API_URL")  # as the service reads it
    quiet_progress_in_ci()
    if bulk_file:
        bulk = Path(bulk_file).expanduser()
        if refused := bulk_file_refusal(str(bulk)):
            raise card_data.CardDataError(f"bulk file {bulk}: {refused}")
        if not bulk.is_file():
            raise card_data.CardDataError(f"no such bulk file: {bulk}")
        if store_is_older(db, bulk):
            db.parent.mkdir(parents=True, exist_ok=True)
            card_sync.import_file(db, bulk)
    elif read_metadata(db) is None:
        if offline:
            raise card_data.CardDataError(
                f"no card store at {db} and --offline is set: run once without --offline, "
                "run `cards import PATH`, or pass --bulk-file PATH")
        db.parent.mkdir(parents=True, exist_ok=True)
        card_sync.sync(db, api_url)
    return card_data.open_repository(db, api_url=api_url, offline=offline)


# --- output ----------------------------------------------------------------------------
#
# Card names, messages and paths are data from a hostile file: every field of every format
# goes through printable(), so no name can start a line of its own (a GitHub workflow
# command, a fake annotation), move a terminal's cursor or reorder the text around it.

# What a terminal, a CI log or a reader of lines takes for structure rather than text: C0
# and C1 controls (CR, LF, ESC, NEL...) and DEL; the line and paragraph separators; the
# bidi marks, embeddings, overrides and isolates; lone surrogates (a file name's bytes
# that are not UTF-8: printing them raised UnicodeEncodeError); the noncharacters XML 1.0
# cannot carry; and "##[", which the GitHub runner reads as a (legacy) workflow command
# anywhere in a line.
UNPRINTABLE = re.compile("##\\[|[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                         "\ud800-\udfff\ufffe\uffff]")
SHORT_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "##[": "##\\x5b"}


def printable(text: str) -> str:
    """The text with each character of UNPRINTABLE shown as its escape (\\n, \\x1b,
    \\u2028) and "##[" as "##\\x5b": one line of plain text, whatever it held."""
    return UNPRINTABLE.sub(lambda match: SHORT_ESCAPES.get(match.group()) or escape_code(match.group()), text)


def escape_code(character: str) -> str:
    """'\\x1b' or '\\u2028': a character as Python writes it in a string literal."""
    code = ord(character)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown_path(path: str) -> str:
    """A path as the outputs name it: "./" before a relative path that would begin its
    line with blanks or ':' (the runner trims leading blanks and reads "::" as a command)."""
    return f".{os.sep}{path}" if path[:1] == ":" or path[:1].isspace() else path



def plural(n: int, word: str) -> str:
    """'1 error', '2 errors'."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(results: Sequence[Checked], strict: bool) -> str:
    """One line totalling the run, shared by the text and github formats."""
    unreadable = sum(1 for r in results if r.error)
    failed = sum(1 for r in results if not r.error and r.fails(strict))
    errors = sum(r.counts()[0] for r in results)
    warnings = sum(r.counts()[1] for r in results)
    line = (f"{plural(len(results), 'file')} checked: {len(results) - failed - unreadable} valid, "
            f"{failed} invalid; {plural(errors, 'error')}, {plural(warnings, 'warning')}")
    if unreadable:
        line += f"; {unreadable} could not be checked"
    return line + (" (--strict: warnings fail)" if strict else "") + "."


def location(name: str, violation) -> str:
    """'path:line' for a violation tied to lines (the first one), else 'path'."""
    return f"{name}:{violation.lines[0]}" if violation.lines else name


def violation_line(name: str, violation) -> str:
    """'path:line: severity code: message (rule N)': the shape compilers and editors link."""
    rule = f" (rule {violation.rule})" if violation.rule else ""
    return f"{location(name, violation)}: {violation.severity} {violation.code}: {violation.message}{rule}"


def file_status(result: Checked, strict: bool) -> str:
    """The header line of one file's group in text output."""
    if result.error:
        return f"{result.name}: not checked: {result.error}"
    errors, warnings = result.counts()
    verdict = "invalid" if result.fails(strict) else "valid"
    return f"{result.name}: {verdict} ({plural(errors, 'error')}, {plural(warnings, 'warning')})"


def bracket_line(result: Checked) -> str | None:
    """'minimum bracket 3 (declared 2): why...': the lowest Commander Bracket the list allows
    and every reason (checks not made included); None for a file not checked."""
    bracket = getattr(result.report, "bracket", None)
    if bracket is None:
        return None
    declared = f" (declared {bracket.declared})" if bracket.declared is not None else ""
    return f"minimum bracket {bracket.minimum}{declared}: " + " ".join(r.message for r in bracket.reasons)


def render_text(results: Sequence[Checked], *, strict: bool, card_meta) -> str:
    """Human output: each file's status, its bracket line, its violations; a summary line."""
    lines = []
    for result in results:
        lines.append(file_status(result, strict))
        if (line := bracket_line(result)) is not None:
            lines.append(f"  {line}")
        lines.extend(f"  {violation_line(result.name, v)}" for v in result.violations())
    lines.append(summary(results, strict))
    return "\n".join(map(printable, lines)) + "\n"


def report_json(result: Checked, card_meta) -> dict:
    """One file's JSON object: the API's response body plus "file" (or "error" instead)."""
    if result.error:
        return {"file": result.name, "valid": False, "error": result.error}
    # schemas.dump_report is the API's own serializer: both speak exactly the same JSON.
    from edh_service.schemas import dump_report

    return {"file": result.name, **dump_report(result.report, card_meta)}


def render_json(results: Sequence[Checked], *, strict: bool, card_meta) -> str:
    """A JSON array with one object per file, in the order checked. The data is kept
    whole: what printable() would escape is written as a JSON escape instead (json.dumps
    already escapes C0 controls), so a program reading the output gets the names as the
    list had them, and a log reader sees no line break, bidi mark or "##[" command."""
    body = json.dumps([report_json(r, card_meta) for r in results], indent=2, ensure_ascii=False)
    return JSON_UNPRINTABLE.sub(json_escape, body) + "\n"


# UNPRINTABLE less the C0 controls: json.dumps escapes those inside strings, and its own
# indentation's line breaks are structure.
JSON_UNPRINTABLE = re.compile("##\\[|[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                              "\ud800-\udfff\ufffe\uffff]")


def json_escape(match: re.Match) -> str:
    """A JSON string escape for one UNPRINTABLE match ("##[" as "#\\u0023[")."""
    text = match.group()
    return "#\\u0023[" if text == "##[" else f"\\u{ord(text):04x}"


def escape_data(text: str) -> str:
    """Escape a workflow command's message: %, CR and LF (GitHub's escapeData)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value: also ':' and ',' (GitHub's escapeProperty)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(level: str, message: str, **properties) -> str:
    """'::error file=...,line=...,title=...::message' with every part escaped."""
    props = ",".join(f"{k}={escape_property(printable(str(v)))}" for k, v in properties.items() if v is not None)
    message = escape_data(printable(message))
    return f"::{level} {props}::{message}" if props else f"::{level}::{message}"


def github_lines(result: Checked, strict: bool) -> Iterable[str]:
    """One annotation per violation (at its first line), or one for an unreadable file.

    Under --strict warnings are annotated as errors, because they fail the check.
    """
    file = None if result.path == STDIN else result.path
    if result.error:
        yield workflow_command("error", result.error, file=file, title=PROG)
        return
    for v in result.violations():
        level = "error" if v.severity == "error" or strict else "warning"
        yield workflow_command(level, v.message, file=file, line=v.lines[0] if v.lines else None,
                               title=v.code)


def render_github(results: Sequence[Checked], *, strict: bool, card_meta) -> str:
    """GitHub Actions workflow commands, so violations show on the pull request's diff."""
    lines = [line for r in results for line in github_lines(r, strict)]
    lines.append(summary(results, strict))
    return "\n".join(lines) + "\n"


def junit_case(result: Checked, strict: bool) -> ET.Element:
    """One <testcase> per file: <error> if unreadable, <failure> listing violations if it fails."""
    case = ET.Element("testcase", classname=PROG, name=printable(result.name), file=printable(result.name))
    if result.report is not None and result.report.bracket is not None:
        case.append(bracket_properties(result.report.bracket))
    if result.error:
        ET.SubElement(case, "error", message=printable(result.error), type="not_checked").text = printable(result.error)
        return case
    body = "\n".join(printable(violation_line(result.name, v)) for v in result.violations())
    if result.fails(strict):
        errors, warnings = result.counts()
        message = f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"
        ET.SubElement(case, "failure", message=message, type="invalid_deck").text = body
    elif body:
        # Warnings that do not fail the build still belong in the dashboard.
        ET.SubElement(case, "system-out").text = body
    return case


def bracket_properties(bracket) -> ET.Element:
    """<properties> of a testcase: bracket.minimum, bracket.declared (when given) and one
    bracket.reason per reason, so a dashboard shows the bracket next to the verdict."""
    properties = ET.Element("properties")
    ET.SubElement(properties, "property", name="bracket.minimum", value=str(bracket.minimum))
    if bracket.declared is not None:
        ET.SubElement(properties, "property", name="bracket.declared", value=str(bracket.declared))
    for reason in bracket.reasons:
        ET.SubElement(properties, "property", name="bracket.reason", value=printable(reason.message))
    return properties


def render_junit(results: Sequence[Checked], *, strict: bool, card_meta) -> str:
    """JUnit XML: one <testsuite>, one <testcase> per file, for CI dashboards."""
    counts = {
        "tests": str(len(results)),
        "failures": str(sum(1 for r in results if not r.error and r.fails(strict))),
        "errors": str(sum(1 for r in results if r.error)),
        "skipped": "0",
    }
    suites = ET.Element("testsuites", name=PROG, **counts)
    suite = ET.SubElement(suites, "testsuite", name=PROG, **counts)
    suite.extend(junit_case(r, strict) for r in results)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


Renderer = Callable[..., str]
RENDERERS: dict[str, Renderer] = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
    "junit": render_junit,
}


# --- entry point -----------------------------------------------------------------------


def check_all(inputs: Sequence[Input], options: argparse.Namespace, streams: Streams) -> tuple[list[Checked], object]:
    """Check every input against one store; (results, the store's metadata). A refused
    input (Input.refused) is a file not checked, never read.

    Names missing from the store are asked of Scryfall unless offline. If Scryfall cannot
    be reached for them, the run goes on offline (those names come back unknown_card)
    rather than failing every deck: the store itself is there and answers the rest.
    """
    from card_data import CardDataUnavailable
    from validator.decklist import Designation

    designation = Designation.of(options.commander, options.companion)
    offline = options.offline
    repository = open_card_store(options.card_db, offline=offline, bulk_file=options.bulk_file)
    results = []
    for item in inputs:
        path = item.path
        if item.refused:
            results.append(Checked(path, error=item.refused))
            continue
        try:
            results.append(check_file(path, repository, designation, bracket=options.bracket,
                                      streams=streams))
        except CardDataUnavailable as error:
            if offline:
                raise
            warn(f"warning: {error}; going on offline: names not in the card store are reported as unknown",
                 streams.stderr)
            offline = True
            repository = open_card_store(options.card_db, offline=True, bulk_file=None)
            results.append(check_file(path, repository, designation, bracket=options.bracket,
                                      streams=streams))
    return results, repository.metadata()


def warn(message: str, stderr: TextIO) -> None:
    """Print 'edh-validate: MESSAGE' on stderr, printable (paths and names are data)."""
    print(printable(f"{PROG}: {message}"), file=stderr)


def fail(message: str, stderr: TextIO) -> int:
    """Print an error on stderr and return exit code 2."""
    warn(f"error: {message}", stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None,
         stdin: BinaryIO | None = None) -> int:
    """Run the command; returns the exit code (0 valid, 1 invalid, 2 usage/data problem).

    The streams default to the process's own; tests pass their own and run it in-process.
    """
    streams = Streams(stdout or sys.stdout, stderr or sys.stderr, stdin)
    try:
        parser = build_parser()  # its defaults come from the environment
    except config.ConfigError as error:
        return fail(str(error), streams.stderr)
    # argparse prints --help and usage errors itself and exits (0 or 2): keep both in our streams.
    with contextlib.redirect_stdout(streams.stdout), contextlib.redirect_stderr(streams.stderr):
        try:
            options = parser.parse_args(argv)
        except SystemExit as exit:
            return int(exit.code or 0)
    try:
        inputs = expand_paths(options.paths)
    except UsageError as error:
        return fail(str(error), streams.stderr)
    from card_data import CardDataError

    try:
        results, card_meta = check_all(inputs, options, streams)
    except CardDataError as error:
        return fail(f"card data unavailable: {error}", streams.stderr)
    for result in results:
        if result.error:
            warn(f"error: {result.name}: {result.error}", streams.stderr)
    streams.stdout.write(RENDERERS[options.output](results, strict=options.strict, card_meta=card_meta))
    return exit_code(results, options.strict)


if __name__ == "__main__":
    sys.exit(main())
