"""What the PATH arguments of `edh-validate` name, bounded: a committed checkout is hostile
input too (issue 19). A link to /etc/passwd or ~/.ssh/id_rsa would be read and its lines
quoted in public annotations; links to each other or to an ancestor made the folder walk
explode; hidden folders (.git/config holds the checkout's token) are never entered unnamed.

`expand_paths(arguments) -> Expanded`: files, folders (their decklist files) and globs
(`**` included, since pre-commit, Windows shells and quoted CI arguments hand them over
unexpanded), each file once, each refused one with the reason it is not read; a folder or
glob with nothing to check is a warning, a usage error only when no argument gives any; an
argument that is no file but a link (`https://archidekt.com/decks/1`) is an input of its
own, the deck it names.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat
from dataclasses import dataclass
from typing import Iterator, NamedTuple, Sequence

from edh_service.cli.results import STDIN
from edh_service.deck_urls import link_argument
from validator.parse import EXTENSIONS

# Extensions a directory argument is searched for: every one the parser reads (plain text,
# .dec, the XML and INI dialects, site exports as JSON, CSV or Markdown), from the parser's
# own table so the two cannot drift. Explicitly named files are checked whatever their extension.
DECK_EXTENSIONS = frozenset(extension for extensions in EXTENSIONS.values() for extension in extensions)
# Kinds of file that hold other things as often as decklists (package.json, README.md, a
# data CSV): one found by a scan that holds no card is skipped with a warning (validate.py).
DOCUMENT_EXTENSIONS = frozenset(EXTENSIONS["json"] + EXTENSIONS["csv"] + EXTENSIONS["markdown"])
GLOB_CHARS = re.compile(r"[*?\[]")
MAX_FILES = 10_000  # decklist files one run checks (a repository of decks holds hundreds)
MAX_ENTRIES = 200_000  # files and folders one run's folder and glob walks may look at


class UsageError(Exception):
    """Bad arguments or inputs that make the whole run meaningless: exit code 2."""


@dataclass(frozen=True)
class Input:
    """One input to check: its path as reached, why it is not read (None: read it), and
    whether a folder or glob found it (False: the argument named it)."""

    path: str
    refused: str | None = None
    found: bool = False
    link: bool = False  # a link to a deck on a site (edh_service.deck_urls), not a file


class Expanded(NamedTuple):
    """What the PATH arguments name: the inputs, in order, and a warning for each folder or
    glob that gave nothing to check."""

    inputs: list[Input]
    warnings: list[str]


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


def expand_paths(arguments: Sequence[str], leave_out: Sequence[str] = ()) -> Expanded:
    """Turn PATH arguments into the inputs to check, in order, each once.

    Globs are expanded here too (`**` included), because pre-commit, Windows shells and
    quoted CI arguments hand them over unexpanded. A directory stands for the decklist
    files under it. A link out of an argument's tree (Tree.around), a broken link and a
    link loop come back refused: reported as not checked (exit code 2), never read.
    `leave_out` names files no folder or glob may bring in (the run's own --bulk-file: card
    data, not a deck). A folder or glob with nothing to check is a warning and the other
    arguments are checked; when no argument gives anything, that is a UsageError (a CI
    check over no decks must not pass silently).
    """
    budget = Budget()
    found: dict[object, Input] = {}  # real path -> the input as first reached
    warnings = []
    left_out = {os.path.realpath(path) for path in leave_out}
    for argument in arguments:
        items, empty = expand_one(argument, budget)
        kept = 0
        for item in items:
            # One check per file: "./a.txt" and "a.txt", or a folder reached through a
            # link inside the tree, are the same file.
            key = item.path if item.path == STDIN or item.refused or item.link else os.path.realpath(item.path)
            if not (item.found and key in left_out):
                found.setdefault(key, item)
                kept += 1
        if not kept:
            warnings.append(empty or f"nothing to check in {argument} but the card data file (--bulk-file)")
        if len(found) > MAX_FILES:
            raise UsageError(f"more than {MAX_FILES:,} decklist files to check: check fewer folders at a time")
    if not found:
        raise UsageError("; ".join(warnings))
    return Expanded(list(found.values()), warnings)


def expand_one(argument: str, budget: Budget) -> tuple[list[Input], str | None]:
    """The inputs one PATH argument names, and why it names none when it is a folder or a
    glob with nothing to check; raises UsageError for a path that does not exist."""
    if argument == STDIN:
        return [Input(STDIN)], None
    if os.path.lexists(argument):
        folder = os.path.isdir(argument)
        tree = Tree.around(argument, argument if folder else os.path.dirname(argument))
        if refused := tree.refusal(argument):
            return [Input(argument, refused)], None
        if not folder:
            return [Input(argument)], None
        top = Entry(argument, os.path.basename(argument), os.path.realpath(argument), True)
        if files := deck_files_under(top, tree, budget):
            return files, None
        extensions = " ".join(sorted(DECK_EXTENSIONS))
        return [], f"no decklist files ({extensions}) under {argument}"
    if link_argument(argument):  # no such file, and a link: the deck it names (a `?` in it is no glob)
        return [Input(argument, link=True)], None
    if GLOB_CHARS.search(argument):
        if files := glob_inputs(argument, budget):
            return files, None
        return [], f"no files match {argument!r}"
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
            found.append(Input(entry.path, entry.refused, found=True))
        elif entry.folder:
            found.extend(deck_files_under(entry, tree, budget))
        else:
            found.append(Input(entry.path, found=True))
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
            found.setdefault(entry.path, Input(entry.path, entry.refused, found=True))
        elif not entry.refused and not entry.folder and is_deck_name(entry.name):
            found.setdefault(entry.path, Input(entry.path, found=True))
    return sorted(found.values(), key=lambda item: item.path)


def is_deck_name(name: str) -> bool:
    """Whether a folder walk checks this file: its extension is one the parser reads."""
    return os.path.splitext(name)[1].lower() in DECK_EXTENSIONS


def is_document_name(name: str) -> bool:
    """Whether the file's kind holds other things as often as decklists (DOCUMENT_EXTENSIONS)."""
    return os.path.splitext(name)[1].lower() in DOCUMENT_EXTENSIONS


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


def bulk_file_refusal(path: str) -> str | None:
    """Why a bulk file in a checkout may not be imported (None: it may): a link out of its
    tree (Tree.around), broken or looping, as for a decklist. The Action's cache key step
    asks the same (scripts/bulk_digest.py)."""
    if not os.path.lexists(path):
        return None  # "no such bulk file"
    return Tree.around(path, os.path.dirname(path)).refusal(path)
