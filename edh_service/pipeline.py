"""The pipeline every way in shares (the API, the page, edh-validate): decklist text in,
parse -> resolve every name in one batch -> check, a Report out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple, final

from card_data import CardRepository, Deadline
from card_data.store.cards import StoreMetadata
from edh_service import house_rules as house
from edh_service.house_profiles import Profile
from edh_service.i18n import DEFAULT, PRINTED
from validator.deck import Translation
from validator.decklist import NOBODY, Decklist, Designation
from validator.engine import Report, check
from validator.formats import Format, FormatData, HouseRules
from validator.messages import Name, Names, Pairs, Text
from validator.parse import parse


def names_to_resolve(decklist: Decklist, designation: Designation = NOBODY) -> list[str]:
    """Every name the check will look up, in order: list entries, overrides, color choices.
    A name written twice comes twice: resolve() takes repeats, and its dict of the answers
    drops them once (deduplicating here too cost 6% of validating a precon, compiled)."""
    names = [entry.name for entry in decklist.entries]  # a list: compiled, no generator
    if decklist.named_commanders is not None:
        names += decklist.named_names()  # a `# Commander: NAME` comment's readings
    if designation is not NOBODY:
        names += designation.names()
    return names


@final
@dataclass(slots=True, init=False)
class Translated:
    """A name as written that was read in another language (DESIGN.md "Card names in other
    languages"). A 100-card list in Spanish builds 100 of them per validation: compiled with
    the engine (scripts/build_backend.py), a record as validator.deck_facts.Deck is (Final
    fields, its `__init__` written out) costs no more than a tuple."""

    name: Final[str]  # as written
    card: Final[str]  # the English card it names
    lang: Final[str]  # a language it was printed in (Scryfall's code)
    lines: Final[list[int]]  # the lines naming it, in order; empty for a name given only in a request field

    def __init__(self, name: str, card: str, lang: str, lines: list[int]) -> None:
        self.name = name
        self.card = card
        self.lang = lang
        self.lines = lines


class Validated(NamedTuple):
    """A Report and the metadata of the very store file its cards came from (so a response
    never names another store version when a sync swaps files in between), and the names
    read in another language."""

    report: Report
    card_data: StoreMetadata | None
    translated: tuple[Translated, ...] = ()


def translated_names(decklist: Decklist, names: list[str], translations: dict[str, Translation]) -> tuple[Translated, ...]:
    """One entry per distinct name read in another language, in the order the names were
    resolved (list lines first), with the lines that wrote it: one pass over the entries
    (in line order, so each name's lines come out sorted)."""
    if not translations:
        return ()
    records: dict[str, Translated] = {}
    for entry in decklist.entries:
        name = entry.name
        found = translations.get(name)
        if found is not None:
            record = records.get(name)
            if record is None:
                records[name] = Translated(name, found.card, found.lang, [entry.line])
            else:
                record.lines.append(entry.line)
    commanders = decklist.named_commanders
    if commanders is not None:  # a `# Commander: NAME` comment names them on its line
        for name in decklist.named_names():
            if (found := translations.get(name)) is not None:
                lines = records[name].lines if name in records else []
                records[name] = Translated(name, found.card, found.lang, sorted({*lines, commanders.line}))
    if len(records) < len(translations):  # names given only in request fields: no lines
        for name in names:
            if name not in records and (found := translations.get(name)) is not None:
                records[name] = Translated(name, found.card, found.lang, [])
    return tuple(records.values())


def validate_text(
    text: str,
    repository: CardRepository,
    designation: Designation = NOBODY,
    *,
    format: str | None = None,
    suggest_limit: int | None = None,
    bracket: int | None = None,
    with_overview: bool = False,
    game_format: str | Format | None = "commander",
    format_data: FormatData | None = None,
    with_formats: bool = False,
    decklist: Decklist | None = None,
    lookup: Deadline | None = None,
    house_rules: house.HouseList | Profile | HouseRules | None = None,
) -> Validated:
    """Parse the text, resolve every name in one batch, and apply every rule.

    `designation` is who commands as the request says it (commanders, companion, color
    choices), overriding what the text marks.

    `suggest_limit` caps how many unknown names get fuzzy suggestions (the repository's
    default when None): a batch shares one budget so 50 decks of typos stay cheap.
    `bracket` is the declared Commander Bracket (1-5): its bracket_* errors join the
    violations. The bracket lists (mass land denial, two-card combos) come from the store
    file the cards came from.
    `with_overview` fills Report.overview (the page's charts, the API's `overview` block).
    `format` is the decklist syntax (validator.parse.FORMATS; None: detect). `game_format`
    is the game format (a key or alias, or a validator.formats.Format; UnknownFormat, a
    ValueError, for anything else); None judges the list in the format it names for itself
    (with a format_inferred warning), else Commander. `format_data` is what the formats'
    rules are given (the Pauper Commander commander list); None: the store file's own
    (`repository.format_data`, None inside it for a list not loaded). A declared
    bracket outside Commander, or signature spells outside Oathbreaker, raise
    validator.formats.FieldNotInFormat (a ValueError with `.field`). `with_formats` fills
    Report.formats, every format's {valid, codes, status} (include=formats).
    `decklist` is the text already parsed (with `format`), when the caller needed it first.
    `lookup` is the budget for asking Scryfall about names the store lacks, shared by
    everything one request validates (None: the repository's default, from the first
    question); names it could not ask about are unknown_card plus card_lookup_unavailable.
    `house_rules` is the table's own list (DESIGN.md "House rules"): as written (a
    house_rules.HouseList, kept resolved for the store build among the last few), a profile
    (house_profiles.Profile: resolved once per version and store build) or resolved; a name
    in it that is no card raises house_rules.UnresolvedNames.
    """
    if decklist is None:
        decklist = parse(text, format)
    names = names_to_resolve(decklist, designation)
    limit = {} if suggest_limit is None else {"suggest_limit": suggest_limit}
    resolution = repository.resolve(names, lookup=lookup, **limit)
    if isinstance(house_rules, Profile):
        house_rules = house_rules.rules(repository, resolution.build, lookup=lookup)
    elif house_rules is not None:
        house_rules = house.resolved(house_rules, repository, resolution.build, lookup=lookup)
    report = check(
        decklist,
        resolution.cards,
        resolution.suggestions,
        designation,
        bracket_data=repository.bracket_data(resolution.stamp),
        bracket=bracket,
        with_overview=with_overview,
        game_format=game_format,
        format_data=repository.format_data(resolution.stamp) if format_data is None else format_data,
        with_formats=with_formats,
        unavailable=resolution.unavailable,
        house_rules=house_rules,
    )
    return Validated(report, resolution.metadata, translated_names(decklist, names, resolution.translated))


def names_in(report: Report) -> list[str]:
    """The English card names the report's messages name (violations' and bracket reasons'
    texts), in order, each once: what an answer in another language shows as printed."""
    found: dict[str, None] = {}
    texts = [violation.text for violation in report.violations]
    if report.bracket is not None:
        texts += [reason.text for reason in report.bracket.reasons]
    for text in texts:
        if isinstance(text, Text):
            _collect(text, found)
    return list(found)


def _collect(text: Text, found: dict[str, None]) -> None:
    for _, value in text.params:
        if isinstance(value, Pairs):
            for pair in value:
                found.update(dict.fromkeys(pair))
        elif isinstance(value, Names):
            found.update(dict.fromkeys(value))
        elif isinstance(value, Name):
            found[value] = None
    for sentence in text.more:
        _collect(sentence, found)


def shown_names(report: Report, translated: tuple[Translated, ...], repository: CardRepository,
                lang: str) -> dict[str, str]:
    """English name -> the name an answer in `lang` (edh_service.i18n's code) shows for the
    cards its messages name (DESIGN.md "Answers in the player's language"): the name the list
    wrote first, when it wrote it in that language, else the card's printed name in it from
    the names table; a card neither has stays English (left out). Empty for English."""
    if lang == DEFAULT:
        return {}
    named = names_in(report)
    if not named:
        return {}
    printed = PRINTED[lang]
    shown = repository.printed_names(named, printed)
    wanted = set(named)
    written: dict[str, str] = {}
    for read in translated:  # in list order: the first spelling wins
        if read.lang == printed and read.card in wanted and read.card not in written:
            written[read.card] = read.name
    shown.update(written)
    return shown
