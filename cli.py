"""edh-validate: check Commander decklist files in CI pipelines and pre-commit hooks.

    edh-validate [options] PATH...      (files, directories, globs, or - for stdin)

Exit codes: 0 every deck is valid; 1 some deck has an error-severity violation (or a
warning, with --strict); 2 usage error, unreadable file, or card data unavailable.
It runs the same engine and card store as the HTTP service (service.validate_text).
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import json
import os
import re
import sys
import traceback
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterable, Sequence, TextIO

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
        return STDIN_NAME if self.path == STDIN else self.path

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


def build_parser() -> argparse.ArgumentParser:
    """The command line: paths, output format, strictness and where the card data lives."""
    parser = argparse.ArgumentParser(
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


def expand_paths(arguments: Sequence[str]) -> list[str]:
    """Turn PATH arguments into the files to check, in order, each once.

    Globs are expanded here too (`**` included), because pre-commit, Windows shells and
    quoted CI arguments hand them over unexpanded. A directory stands for the decklist
    files under it.
    """
    found: dict[str, str] = {}  # real path -> the path as first reached
    for argument in arguments:
        for path in expand_one(argument):
            # One check per file: "./a.txt" and "a.txt", or a symlink loop under a folder
            # (which lists a file once per level until ELOOP), are the same file.
            found.setdefault(path if path == STDIN else os.path.realpath(path), path)
    return list(found.values())


def expand_one(argument: str) -> list[str]:
    """The files one PATH argument names; raises UsageError when it names nothing."""
    if argument == STDIN or os.path.isfile(argument):
        return [argument]
    if os.path.isdir(argument):
        files = deck_files_under(argument)
        if files:
            return files
        # Like a glob that matches nothing: a CI check over no decks must not pass silently.
        extensions = " ".join(sorted(DECK_EXTENSIONS))
        raise UsageError(f"no decklist files ({extensions}) under {argument}")
    if GLOB_CHARS.search(argument):
        matches = sorted(glob.glob(argument, recursive=True))
        files = [m for path in matches for m in (deck_files_under(path) if os.path.isdir(path) else [path])]
        if files:
            return files
        raise UsageError(f"no files match {argument!r}")
    raise UsageError(f"no such file or directory: {argument}")


def deck_files_under(directory: str) -> list[str]:
    """Every file with a decklist extension under the directory, sorted."""
    pattern = os.path.join(glob.escape(directory), "**", "*")
    return sorted(p for p in glob.glob(pattern, recursive=True)
                  if os.path.isfile(p) and Path(p).suffix.lower() in DECK_EXTENSIONS)


def read_input(path: str, stdin: BinaryIO | None = None) -> str:
    """The decklist text: UTF-16/32 by its BOM, else UTF-8 (a BOM dropped), else
    Windows-1252 as older tools write (service.decode_file, as the page reads uploads)."""
    from edh_service.service import decode_file, has_unicode_bom

    data = (stdin or sys.stdin.buffer).read() if path == STDIN else Path(path).read_bytes()
    if b"\0" in data and not has_unicode_bom(data):
        # No decklist format contains NUL; this is a binary file caught by a glob.
        raise ValueError("binary file, not a decklist")
    text = decode_file(data)
    if "\0" in text:
        raise ValueError("binary file, not a decklist")
    return text


def format_hint(path: str, text: str) -> str | None:
    """The reader to force for this file, from its extension (None: let the parser detect)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".dck":
        return dck_dialect(text)
    return EXTENSION_FORMATS.get(suffix)


FORGE_SECTION = re.compile(r"^\s*\[(metadata|commander|main|sideboard)\]\s*$", re.I | re.M)
XMAGE_LINE = re.compile(r"^\s*(SB:\s*)?\d+\s+\[[^\]:]*:[^\]]*\]|^\s*(NAME|LAYOUT)\b", re.M)


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
        traceback.print_exc(file=streams.stderr if streams else sys.stderr)
        return Checked(path, error=f"internal error: {error!r}")
    return Checked(path, report=report)


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
    return "\n".join(lines) + "\n"


def report_json(result: Checked, card_meta) -> dict:
    """One file's JSON object: the API's response body plus "file" (or "error" instead)."""
    if result.error:
        return {"file": result.name, "valid": False, "error": result.error}
    # schemas.dump_report is the API's own serializer: both speak exactly the same JSON.
    from edh_service.schemas import dump_report

    return {"file": result.name, **dump_report(result.report, card_meta)}


def render_json(results: Sequence[Checked], *, strict: bool, card_meta) -> str:
    """A JSON array with one object per file, in the order checked."""
    return json.dumps([report_json(r, card_meta) for r in results], indent=2, ensure_ascii=False) + "\n"


def escape_data(text: str) -> str:
    """Escape a workflow command's message: %, CR and LF (GitHub's escapeData)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value: also ':' and ',' (GitHub's escapeProperty)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(level: str, message: str, **properties) -> str:
    """'::error file=...,line=...,title=...::message' with every part escaped."""
    props = ",".join(f"{k}={escape_property(str(v))}" for k, v in properties.items() if v is not None)
    return f"::{level} {props}::{escape_data(message)}" if props else f"::{level}::{escape_data(message)}"


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


# XML 1.0 forbids most control characters even escaped; a typo'd name could carry one.
XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_safe(text: str) -> str:
    """Text with the characters XML 1.0 cannot carry removed (ElementTree escapes the rest)."""
    return XML_ILLEGAL.sub("", text)


def junit_case(result: Checked, strict: bool) -> ET.Element:
    """One <testcase> per file: <error> if unreadable, <failure> listing violations if it fails."""
    case = ET.Element("testcase", classname=PROG, name=xml_safe(result.name), file=xml_safe(result.name))
    if result.report is not None and result.report.bracket is not None:
        case.append(bracket_properties(result.report.bracket))
    if result.error:
        ET.SubElement(case, "error", message=xml_safe(result.error), type="not_checked").text = xml_safe(result.error)
        return case
    body = xml_safe("\n".join(violation_line(result.name, v) for v in result.violations()))
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
        ET.SubElement(properties, "property", name="bracket.reason", value=xml_safe(reason.message))
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


def check_all(paths: Sequence[str], options: argparse.Namespace, streams: Streams) -> tuple[list[Checked], object]:
    """Check every path against one store; (results, the store's metadata).

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
    for path in paths:
        try:
            results.append(check_file(path, repository, designation, bracket=options.bracket,
                                      streams=streams))
        except CardDataUnavailable as error:
            if offline:
                raise
            print(f"{PROG}: warning: {error}; going on offline: names not in the card store "
                  "are reported as unknown", file=streams.stderr)
            offline = True
            repository = open_card_store(options.card_db, offline=True, bulk_file=None)
            results.append(check_file(path, repository, designation, bracket=options.bracket,
                                      streams=streams))
    return results, repository.metadata()


def fail(message: str, stderr: TextIO) -> int:
    """Print an error on stderr and return exit code 2."""
    print(f"{PROG}: error: {message}", file=stderr)
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
        paths = expand_paths(options.paths)
    except UsageError as error:
        return fail(str(error), streams.stderr)
    from card_data import CardDataError

    try:
        results, card_meta = check_all(paths, options, streams)
    except CardDataError as error:
        return fail(f"card data unavailable: {error}", streams.stderr)
    for result in results:
        if result.error:
            print(f"{PROG}: error: {result.name}: {result.error}", file=streams.stderr)
    streams.stdout.write(RENDERERS[options.output](results, strict=options.strict, card_meta=card_meta))
    return exit_code(results, options.strict)


if __name__ == "__main__":
    sys.exit(main())
