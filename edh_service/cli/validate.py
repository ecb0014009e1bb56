"""edh-validate: check Commander decklist files in CI pipelines and pre-commit hooks.

    edh-validate [options] PATH...      (files, directories, globs, - for stdin, or deck links)

Exit codes: 0 every deck is valid; 1 some deck has an error-severity violation (or a
warning, with --strict); 2 usage error, unreadable file, or card data unavailable.
It runs the same engine and card store as the HTTP service (pipeline.validate_text).

The program's parts: paths.py (what PATH arguments name, bounded), reading.py (one input's
text), store.py (the card store it checks against), render.py (the four output formats,
printable.py keeping them plain text), results.py (Checked and the exit code).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import traceback
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import BinaryIO, Sequence, TextIO

from card_data import CardDataError, CardRepository, StoreMetadata
from card_data.errors import DeckSourceError
from card_data.settings import project_version
from card_data.sites import DeckSites
from edh_service import config, deck_urls, house_rules, pipeline
from edh_service.house_profiles import Profile, Profiles, read_profile
from edh_service.pipeline import names_to_resolve
from edh_service.cli.paths import Input, UsageError, expand_paths, is_document_name
from edh_service.cli.printable import printable
from edh_service.cli.reading import card_data_refusal, format_hint, read_input
from edh_service.cli.render import RENDERERS, said
from edh_service.cli.results import EXIT_USAGE, Checked, PROG, exit_code
from edh_service.cli.store import open_card_store
from edh_service.i18n import DEFAULT, LANGUAGES, choose
from edh_service.i18n.catalogs import language as catalog_language
from validator import ENGINE
from validator.brackets import BRACKETS
from validator.decklist import NOBODY, Decklist, Designation
from validator.formats import KEYS, FieldNotInFormat, HouseRules, UnknownFormat, format_named
from validator.parse import FORMATS, DecklistError, parse
from validator.parse.common import snippet
from validator.messages import ENGLISH, Renderer, Text, msg
from validator.violations import Code

# The settings a deck link is read with (the service's own, from the environment).
DECK_SETTINGS = ("DECK_URLS", "ARCHIDEKT_API_URL", "MOXFIELD_API_URL", "MOXFIELD_USER_AGENT", "DECK_URL_CACHE_SECONDS",
                 "USER_AGENT")


@dataclass(frozen=True)
class Streams:
    """Where one run reads stdin ("-") and writes its report and its errors."""

    stdout: TextIO
    stderr: TextIO
    stdin: BinaryIO | None = None  # None: the process's own stdin, read only for "-"


# --- arguments -------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse, with its error message printable: it quotes arguments (file names)."""

    def error(self, message: str):
        """Print the usage and the error on stderr; exit with 2, as argparse does."""
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, printable(f"{self.prog}: error: {message}") + "\n")


class Formatter(argparse.HelpFormatter):
    """argparse's help, its "usage:" in the chosen language (the rest of its own words are
    set on the parser: its groups' titles and -h's help)."""

    usage_word = "usage: "

    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, self.usage_word if prefix is None else prefix)


def chosen_language(argv: Sequence[str] | None) -> str:
    """--lang's language, read before the parser is built (its help speaks it): a tag no
    language supports, or none, is English (DESIGN.md: CI logs stay stable)."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    known, _ = early.parse_known_args(argv)
    return choose(field=known.lang)


def build_parser(lang: str = DEFAULT) -> argparse.ArgumentParser:
    """The command line: paths, output format, strictness and where the card data lives; its
    help in `lang` (edh_service.i18n's code)."""
    _ = catalog_language(lang).gettext
    formatter = type("Formatter", (Formatter,), {"usage_word": _("usage: ")})
    parser = Parser(
        prog=PROG,
        description=_("Validate Commander (EDH) decklist files. Exit code 0: every deck is valid; 1: a deck has an "
                      "error (or a warning with --strict); 2: usage error, unreadable file, or card data "
                      "unavailable."),
        formatter_class=formatter,  # type: ignore[arg-type]  # a HelpFormatter subclass, made above
        add_help=False,
    )
    parser._positionals.title = _("positional arguments")
    parser._optionals.title = _("options")
    parser.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help=_("decklist files, directories, globs (quoted), - for stdin, or links to decks on "
                               "Archidekt or Moxfield (https://archidekt.com/decks/<id>)"))
    parser.add_argument("--format", dest="output", default="text", choices=sorted(RENDERERS),
                        help=_("output format (default: text)"))
    parser.add_argument("--lang", default=DEFAULT, metavar="LANG",
                        help=_("the language of messages and text output: {languages} (default: en; JSON keys, "
                               "codes and card names in fields stay English)").format(languages=", ".join(LANGUAGES)))
    parser.add_argument("--strict", action="store_true", help=_("treat warnings as errors"))
    parser.add_argument("--version", action="version", version=f"%(prog)s {project_version()} (engine: {ENGINE})",
                        help="print the version and the engine (compiled or python), then exit")
    parser.add_argument("--offline", action="store_true", default=config.setting("CARD_DATA_OFFLINE"),
                        help=_("never touch the network (also CARD_DATA_OFFLINE=1)"))
    parser.add_argument("--card-db", default=config.setting("CARD_DB"), metavar="PATH",
                        help=_("card store (default: $CARD_DB or {path})").format(path=config.DEFAULT_CARD_DB))
    parser.add_argument("--bulk-file", metavar="PATH",
                        help=_("import this Scryfall bulk file (.jsonl[.gz], .json[.gz]) into the store first, for "
                               "air-gapped runners"))
    parser.add_argument("--commander", action="append", metavar="NAME",
                        help=_("designate the commander (repeat for partners), overriding the lists"))
    parser.add_argument("--companion", metavar="NAME", help=_("designate the companion"))
    parser.add_argument("--bracket", type=bracket_number, metavar="N",
                        help=_("declare the Commander Bracket (1-5): what a deck breaks in it is an error "
                               "(bracket_* codes); Commander only"))
    parser.add_argument("--game-format", type=game_format_key, metavar="NAME",
                        help=_("the game format to judge in: {keys} (or an alias: edh, dc, pdh...); default: the "
                               "format a list names for itself, else commander").format(keys=", ".join(KEYS)))
    parser.add_argument("--signature-spell", action="append", metavar="NAME",
                        help=_("designate an oathbreaker's signature spell (repeat for two), overriding the lists"))
    parser.add_argument("--house-rules", metavar="PROFILE",
                        help=_("judge under a table's own rules: PROFILE is a house rules file (FILE.toml: banned, "
                               "banned_as_commander, unbanned, max_bracket, name or title), or the name of a profile "
                               "in --house-rules-dir"))
    parser.add_argument("--house-rules-dir", default=config.setting("HOUSE_RULES_DIR"), metavar="DIR",
                        help=_("the folder of house rules profiles a NAME is looked up in (default: "
                               "$HOUSE_RULES_DIR)"))
    return parser


def game_format_key(value: str) -> str:
    """--game-format's NAME: a key or alias (any case) as its canonical key; anything else
    is a usage error listing the keys, the value quoted cut short."""
    try:
        return format_named(value).key
    except UnknownFormat:
        raise argparse.ArgumentTypeError(f"unknown game format {snippet(value)!r} (choose from {', '.join(KEYS)})") \
            from None


def bracket_number(value: str) -> int:
    """--bracket's N: a whole number from 1 to 5. argparse's own checks quoted a bad value
    whole (thousands of digits came back in the error); this one quotes it cut short."""
    with contextlib.suppress(ValueError):  # not a whole number, or past Python's 4,300 digits
        if (number := int(value)) in BRACKETS:
            return number
    choices = ", ".join(map(str, BRACKETS))
    raise argparse.ArgumentTypeError(f"invalid choice: {snippet(value)!r} (choose from {choices})")


def check_file(path: str, repository: CardRepository, designation: Designation | None = None, *,
               bracket: int | None = None, game_format: str | None = None, house: HouseRules | None = None,
               streams: Streams | None = None, found: bool = False, language: Renderer = ENGLISH) -> Checked | None:
    """Read, parse and validate one input; a file it cannot read becomes Checked.error, and
    so does Scryfall card data (a bulk file is no decklist) and one whose format has no use
    for an option given (--bracket for a list naming Brawl: it is not checked, exit 2,
    never "invalid"). None: a JSON, CSV or Markdown file a folder or glob `found` that
    holds no card (a README, package.json): not a decklist, skipped."""
    try:
        text = read_input(path, streams.stdin if streams else None)
    except (OSError, ValueError) as error:
        return Checked(path, error=msg("cannot read: {reason}", reason=str(error)))
    if refused := card_data_refusal(text):
        return Checked(path, error=msg("cannot check: {reason}", reason=refused))
    hint = format_hint(path, text)
    return judge(path, text, repository, designation or NOBODY, streams, format=hint if hint in FORMATS else None,
                 bracket=bracket, game_format=game_format, house_rules=house,
                 document=found and is_document_name(path), language=language)


def check_link(link: str, repository: CardRepository, designation: Designation | None = None, *,
               bracket: int | None = None, game_format: str | None = None, house: HouseRules | None = None,
               streams: Streams | None = None, sites: DeckSites | None = None, language: Renderer = ENGLISH) -> Checked:
    """Read the deck a link names from its site (`sites`; None: offline, not read) and
    validate the text written for it: --bracket wins over the bracket declared on the site."""
    if sites is None:
        return Checked(link, error=msg("not read: --offline never asks a deck site (paste the deck's export into a "
                                       "file instead)"), link=True)
    request = {"format": game_format} if bracket is None else {"format": game_format, "bracket": bracket}
    try:
        from_link = deck_urls.judged(sites.deck(link), request)
    except DeckSourceError as error:
        return Checked(link, error=msg("cannot read the deck: {reason}", reason=said(error.text or str(error), language)),
                       link=True)
    except DecklistError as error:
        return Checked(link, error=msg("cannot check: {reason}", reason=said(error.text, language)), link=True)
    checked = judge(link, from_link.deck.decklist, repository, designation or NOBODY, streams, format="text",
                    bracket=from_link.bracket, game_format=game_format, house_rules=house, decklist=from_link.decklist,
                    language=language)
    assert checked is not None  # judge() answers None only for a scanned document
    report = checked.report
    if report is not None and from_link.from_site:
        report = deck_urls.declared_on_site(report, from_link.deck)
    return replace(checked, report=report, link=True, site=from_link.deck)


def judge(path: str, text: str, repository: CardRepository, designation: Designation, streams: Streams | None,
          *, document: bool = False, decklist: Decklist | None = None, language: Renderer = ENGLISH,
          **options) -> Checked | None:
    """pipeline.validate_text on one input's text (`options`: its syntax, bracket, game
    format; `decklist`: the text already parsed), every refusal a Checked.error. None for a
    `document` (a scanned JSON, CSV or Markdown file) that names no card the store knows."""
    try:
        if decklist is None:
            decklist = parse(text, options.get("format"))
        if document and not names_a_card(decklist, repository):
            return None
        validated = pipeline.validate_text(text, repository, designation, decklist=decklist, **options)
    except (DecklistError, FieldNotInFormat) as error:  # said in --lang's language
        return Checked(path, error=msg("cannot check: {reason}", reason=said(error.text, language)))
    except CardDataError:
        raise  # the store itself failed: main() stops the whole run with exit code 2
    except Exception as error:  # noqa: BLE001 - a crash must not pass for "invalid deck" (1)
        print_traceback(error, streams.stderr if streams else sys.stderr)
        return Checked(path, error=msg("internal error: {reason}", reason=repr(error)))
    return Checked(path, report=validated.report, translated=validated.translated)


def names_a_card(decklist: Decklist, repository: CardRepository) -> bool:
    """Whether any line the parser read names a card the store knows (in any language): a
    README's or package.json's lines name none. Asked of the store alone, so no document's
    prose is ever sent to Scryfall as card names."""
    names = names_to_resolve(decklist)
    if not names:
        return False
    languages = repository.name_languages
    store_only = CardRepository(repository.store, offline=True,
                                name_languages=None if languages is None else tuple(languages))
    return bool(store_only.resolve(names, suggest_limit=0).cards)


def print_traceback(error: BaseException, stderr: TextIO) -> None:
    """A crash's traceback on stderr; the exception's message, which can quote a card
    name or a line of the file, printable."""
    message = "".join(traceback.format_exception_only(type(error), error)).rstrip("\n")
    stderr.write("Traceback (most recent call last):\n" + "".join(traceback.format_tb(error.__traceback__))
                 + printable(message) + "\n")




def check_all(inputs: Sequence[Input], options: argparse.Namespace,
              streams: Streams) -> tuple[list[Checked], StoreMetadata | None]:
    """Check every input against one store; (results, the store's metadata). A refused
    input (Input.refused) is a file not checked, never read.

    Names missing from the store are asked of Scryfall unless offline. When Scryfall does
    not answer for them (they come back unknown_card plus card_lookup_unavailable), the
    rest of the run goes on offline rather than waiting on it for every file: the store
    itself is there and answers the rest. No store at all is CardDataUnavailable: main
    stops the run with exit code 2.
    """
    designation = Designation.of(options.commander, options.companion, signature_spells=options.signature_spell)
    offline = options.offline
    repository = open_card_store(options.card_db, offline=offline, bulk_file=options.bulk_file)
    # the house rules' names resolved once for the whole run (HouseRulesError: main says why)
    house = house_rules.resolve(options.house.house, repository) if options.house is not None else None
    judged = {"bracket": options.bracket, "game_format": options.game_format, "house": house}
    sites = None if offline else deck_sites(options.card_db)
    language = catalog_language(options.lang)
    results = []
    for item in inputs:
        path = item.path
        if item.refused:
            results.append(Checked(path, error=item.refused))
            continue
        check = partial(check_link, sites=sites) if item.link else partial(check_file, found=item.found)
        checked = check(path, repository, designation, **judged, streams=streams, language=language)
        if checked is None:
            warn(msg("warning: {path}: skipped: no card in it, not a decklist (name the file to check it anyway)",
                     path=path), streams.stderr, language)
            continue
        results.append(in_language(checked, repository, options.lang))
        if not offline and lookup_failed(checked):  # Scryfall did not answer: don't wait on it per file
            warn(msg("warning: Scryfall did not answer in time; going on offline: names not in the card store "
                     "are reported as unknown"), streams.stderr, language)
            offline = True
            repository = open_card_store(options.card_db, offline=True, bulk_file=None)
    return results, repository.metadata()


def in_language(checked: Checked, repository: CardRepository, lang: str) -> Checked:
    """A checked file with the card names its messages show in --lang (pipeline.shown_names)."""
    if lang == DEFAULT or checked.report is None:
        return checked
    return replace(checked, names=pipeline.shown_names(checked.report, checked.translated, repository, lang))


def deck_sites(card_db: str) -> DeckSites:
    """The deck sites as the environment sets them (DECK_URLS, ARCHIDEKT_API_URL...), their
    budgets and cache next to the card store, shared with a service using the same store."""
    values = config.from_environment(os.environ, DECK_SETTINGS)
    return deck_urls.deck_sites(config.deck_site_settings(values), config.store_settings({"CARD_DB": card_db}))


def lookup_failed(checked: Checked) -> bool:
    """Whether a file's check could not ask Scryfall about names the store lacks."""
    report = checked.report
    return report is not None and any(v.code == Code.CARD_LOOKUP_UNAVAILABLE for v in report.violations)


def house_rules_source(options: argparse.Namespace) -> Profile | None:
    """--house-rules as a profile: a file it names (FILE.toml, or any file that is there), else
    a profile's name in --house-rules-dir. Raises HouseRulesError (or OSError) saying why not."""
    given = options.house_rules
    if given is None:
        return None
    path = Path(given)
    if given.endswith(".toml") or path.is_file():
        try:
            return read_profile(path)
        except OSError as error:
            raise house_rules.HouseRulesError(f"cannot read house rules {given}: {error.strerror or error}") from None
        except house_rules.HouseRulesError as error:
            raise house_rules.HouseRulesError(f"house rules {given}: {error}") from None
    if not options.house_rules_dir:
        raise house_rules.HouseRulesError(f"no house rules file {given!r}, and no --house-rules-dir (or "
                                          "HOUSE_RULES_DIR) to look a profile up in")
    return Profiles(options.house_rules_dir).get(given)


def option_not_in_format(options: argparse.Namespace) -> Text | None:
    """Why the options contradict --game-format (--bracket outside commander,
    --signature-spell outside oathbreaker), a usage error before any file is read; None
    when they do not (without --game-format each file's own format decides, per file)."""
    if options.game_format is None:
        return None
    fmt = format_named(options.game_format)
    if options.bracket is not None and not fmt.brackets:
        return msg("--bracket applies only in commander, not in {format}", format=fmt.key)
    if options.signature_spell and not fmt.signature_spells:
        return msg("--signature-spell applies only in oathbreaker, not in {format}", format=fmt.key)
    return None


def warn(message: str | Text, stderr: TextIO, language: Renderer = ENGLISH) -> None:
    """Print 'edh-validate: MESSAGE' on stderr in the run's language, printable (paths and
    names are data)."""
    print(printable(f"{PROG}: {said(message, language)}"), file=stderr)


def fail(message: str | Text, stderr: TextIO, language: Renderer = ENGLISH) -> int:
    """Print an error on stderr and return exit code 2."""
    warn(msg("error: {message}", message=said(message, language)), stderr, language)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None,
         stdin: BinaryIO | None = None) -> int:
    """Run the command; returns the exit code (0 valid, 1 invalid, 2 usage/data problem).

    The streams default to the process's own; tests pass their own and run it in-process.
    """
    streams = Streams(stdout or sys.stdout, stderr or sys.stderr, stdin)
    lang = chosen_language(argv)
    try:
        parser = build_parser(lang)  # its defaults come from the environment
    except config.ConfigError as error:
        return fail(str(error), streams.stderr)
    # argparse prints --help and usage errors itself and exits (0 or 2): keep both in our streams.
    with contextlib.redirect_stdout(streams.stdout), contextlib.redirect_stderr(streams.stderr):
        try:
            options = parser.parse_args(argv)
        except SystemExit as exit:
            return int(exit.code or 0)
    options.lang = lang
    language = catalog_language(lang)
    if (refused := option_not_in_format(options)) is not None:
        return fail(refused, streams.stderr, language)
    try:
        options.house = house_rules_source(options)
    except house_rules.HouseRulesError as error:
        return fail(str(error), streams.stderr, language)
    try:
        bulk_file = [os.path.expanduser(options.bulk_file)] if options.bulk_file else []
        inputs, empty = expand_paths(options.paths, leave_out=bulk_file)
    except UsageError as error:
        return fail(str(error), streams.stderr, language)
    for warning in empty:  # a folder or glob with nothing to check: the others are checked
        warn(msg("warning: {message}", message=warning), streams.stderr, language)
    try:
        results, card_meta = check_all(inputs, options, streams)
    except CardDataError as error:
        return fail(msg("card data unavailable: {reason}", reason=str(error)), streams.stderr, language)
    except house_rules.HouseRulesError as error:  # a name in them that is no card
        return fail(str(error), streams.stderr, language)
    if not results:  # every file found was skipped: no argument gave anything to check
        return fail(msg("no decklist to check: every file found holds no card"), streams.stderr, language)
    for result in results:
        if result.error:
            warn(msg("error: {file}: {reason}", file=result.name, reason=said(result.error, language)),
                 streams.stderr, language)
    streams.stdout.write(RENDERERS[options.output](results, strict=options.strict, card_meta=card_meta, lang=lang))
    return exit_code(results, options.strict)


if __name__ == "__main__":
    sys.exit(main())
