"""The four output formats of `edh-validate` (`--format`): text for people, JSON (the API's
own body per file), GitHub workflow commands (annotations on the pull request's diff) and
JUnit XML for CI dashboards. Every field passes printable() (printable.py).

`--lang` chooses the language of every human text (DESIGN.md "Answers in the player's
language"): each renderer gets it as `lang`, and each file's messages are rendered with the
card names its check found printed in it (Checked.names). Codes, severities, rule numbers,
paths and every JSON key stay as they are; English (the default) is the validator's own words.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any, Callable, Iterable, Sequence

from babel import Locale

from card_data import StoreMetadata
from card_data.names.printed import LANGUAGE_NAMES
from edh_service.cli.printable import JSON_UNPRINTABLE, json_escape, printable
from edh_service.cli.results import PROG, STDIN, Checked
from edh_service.api.responses import dump_report
from edh_service.deck_urls import source_body
from edh_service.i18n import DEFAULT, LOCALES
from edh_service.i18n.catalogs import language as language_of
from validator.brackets import Bracket
from validator.formats import HouseRules, format_named
from validator.messages import ENGLISH, Names, Renderer, Text, msg, nmsg
from validator.violations import Violation


def speaker(result: Checked, lang: str = DEFAULT) -> Renderer:
    """The language one file's texts are rendered in: its messages' cards as printed in it."""
    return ENGLISH if lang == DEFAULT else language_of(lang, result.names)


def said(text: Text | str, language: Renderer) -> str:
    """A message in a language (a text still written as a plain string: as it is)."""
    return text if isinstance(text, str) else text.render(language)


def counted(errors: int, warnings: int, language: Renderer) -> str:
    """'2 errors, 0 warnings' in a language (joined as its lists are: "2 errores y 0 advertencias")."""
    return language.join([nmsg("{n} error", "{n} errors", errors).render(language),
                          nmsg("{n} warning", "{n} warnings", warnings).render(language)], "unit")


def summary(results: Sequence[Checked], strict: bool, language: Renderer = ENGLISH) -> str:
    """One line totalling the run, shared by the text and github formats."""
    unreadable = sum(1 for r in results if r.error)
    failed = sum(1 for r in results if not r.error and r.fails(strict))
    errors = sum(r.counts()[0] for r in results)
    warnings = sum(r.counts()[1] for r in results)
    files = nmsg("{n} file checked", "{n} files checked", len(results)).render(language)
    counts = counted(errors, warnings, language)
    valid = str(len(results) - failed - unreadable)
    if unreadable and strict:
        text = msg("{files}: {valid} valid, {invalid} invalid; {counts}; {unreadable} could not be checked "
                   "(--strict: warnings fail).", files=files, valid=valid, invalid=str(failed), counts=counts,
                   unreadable=str(unreadable))
    elif unreadable:
        text = msg("{files}: {valid} valid, {invalid} invalid; {counts}; {unreadable} could not be checked.",
                   files=files, valid=valid, invalid=str(failed), counts=counts, unreadable=str(unreadable))
    elif strict:
        text = msg("{files}: {valid} valid, {invalid} invalid; {counts} (--strict: warnings fail).",
                   files=files, valid=valid, invalid=str(failed), counts=counts)
    else:
        text = msg("{files}: {valid} valid, {invalid} invalid; {counts}.", files=files, valid=valid,
                   invalid=str(failed), counts=counts)
    return text.render(language)


def location(name: str, violation: Violation) -> str:
    """'path:line' for a violation tied to lines (the first one), else 'path'."""
    return f"{name}:{violation.lines[0]}" if violation.lines else name


def violation_line(name: str, violation: Violation, language: Renderer = ENGLISH) -> str:
    """'path:line: severity code: message (rule N)': the shape compilers and editors link
    (the severity and code stay English: they are what a reader greps for)."""
    message = said(violation.text, language)
    if violation.rule:
        message = msg("{message} (rule {rule})", message=message, rule=violation.rule).render(language)
    return f"{location(name, violation)}: {violation.severity} {violation.code}: {message}"


# A file's verdict line, a whole sentence for each case: (invalid, judged in another format, under house rules).
VERDICTS = {
    (False, False, False): msg("{file}: valid ({counts})"),
    (True, False, False): msg("{file}: invalid ({counts})"),
    (False, True, False): msg("{file}: valid in {format} ({counts})"),
    (True, True, False): msg("{file}: invalid in {format} ({counts})"),
    (False, False, True): msg("{file}: valid under {rules} ({counts})"),
    (True, False, True): msg("{file}: invalid under {rules} ({counts})"),
    (False, True, True): msg("{file}: valid in {format} under {rules} ({counts})"),
    (True, True, True): msg("{file}: invalid in {format} under {rules} ({counts})"),
}


def file_status(result: Checked, strict: bool, language: Renderer = ENGLISH) -> str:
    """The header line of one file's group in text output."""
    if result.error:
        return msg("{file}: not checked: {reason}", file=result.name, reason=said(result.error, language)).render(language)
    judged = judged_in(result, language)
    house = result.report.house_rules if result.report is not None else None
    sentence = VERDICTS[result.fails(strict), judged is not None, house is not None]
    params = {"file": result.name, "counts": counted(*result.counts(), language), "format": judged or "",
              "rules": house_rules_named(house, language) if house is not None else ""}
    return Text(sentence.id, tuple(params.items())).render(language)


def house_rules_named(house: HouseRules, language: Renderer) -> str:
    """"Thursday at the store's rules" in English (validator.formats.HouseRules.rules); in another
    language the rules' own name, or its words for the house rules."""
    if language is ENGLISH:
        return house.rules
    return house.name or msg("the house rules").render(language)


def judged_in(result: Checked, language: Renderer = ENGLISH) -> str | None:
    """'Duel Commander (duel)': the game format a checked file was judged in, when it is not
    Commander (the default says nothing, so Commander runs read as before)."""
    key = result.report.game_format if result.report is not None else "commander"
    return None if key == "commander" else f"{language.gettext(format_named(key).name)} ({key})"


def signature_line(result: Checked, language: Renderer = ENGLISH) -> str | None:
    """'signature spells: Brainstorm' for an Oathbreaker deck that has them."""
    spells = result.report.signature_spells if result.report is not None else ()
    if not spells:
        return None
    return nmsg("signature spell: {cards}", "signature spells: {cards}", len(spells),
                cards=Names(spells)).render(language)


def house_rules_line(result: Checked, language: Renderer = ENGLISH) -> str | None:
    """'house rules: Thursday at the store (profile thursday): 1 banned, ...': what the file was
    judged under; None without house rules."""
    house = result.report.house_rules if result.report is not None else None
    if house is None:
        return None
    name = house.name or msg("unnamed").render(language)
    if house.profile:
        name = msg("{name} (profile {profile})", name=name, profile=house.profile).render(language)
    counts = dict(name=name, banned=str(len(house.banned)), commanders=str(len(house.banned_as_commander)),
                  unbanned=str(len(house.unbanned)))
    if house.max_bracket is None:
        return msg("house rules: {name}: {banned} banned, {commanders} banned as commander, {unbanned} unbanned",
                   **counts).render(language)
    return msg("house rules: {name}: {banned} banned, {commanders} banned as commander, {unbanned} unbanned, "
               "max bracket {bracket}", **counts, bracket=str(house.max_bracket)).render(language)


def bracket_line(result: Checked, language: Renderer = ENGLISH) -> str | None:
    """'minimum bracket 3 (declared 2): why...': the lowest Commander Bracket the list allows
    and every reason (checks not made included); None for a file not checked."""
    bracket = result.report.bracket if result.report is not None else None
    if bracket is None:
        return None
    reasons = language.sentences([said(r.text, language) for r in bracket.reasons])
    if bracket.declared is not None:
        return msg("minimum bracket {minimum} (declared {declared}): {reasons}", minimum=str(bracket.minimum),
                   declared=str(bracket.declared), reasons=reasons).render(language)
    return msg("minimum bracket {minimum}: {reasons}", minimum=str(bracket.minimum), reasons=reasons).render(language)


def languages_line(result: Checked, language: Renderer = ENGLISH) -> str | None:
    """'read in other languages: 12 lines in Spanish (es), 1 line in German (de)': how many
    lines named a card in which language, most first; None when every name was English."""
    lines: dict[str, set[int]] = {}
    for read in result.translated:
        lines.setdefault(read.lang, set()).update(read.lines)
    ordered = sorted(((len(numbers), lang) for lang, numbers in lines.items() if numbers), key=lambda c: (-c[0], c[1]))
    if not ordered:
        return None
    parts = [nmsg("{n} line in {language} ({code})", "{n} lines in {language} ({code})", count,
                  language=language_name(lang, language), code=lang).render(language)
             for count, lang in ordered]
    return msg("read in other languages: {counts}", counts=language.join(parts, "unit")).render(language)


def language_name(code: str, language: Renderer) -> str:
    """A printed language's name (Scryfall's code) in the answer's language, as Babel's locale
    data writes it ("Spanish", "español", "スペイン語"); English: names.printed's own."""
    english = LANGUAGE_NAMES.get(code, code)
    answer = getattr(language, "code", DEFAULT)
    if answer == DEFAULT:
        return english
    try:
        shown = Locale.parse({"zhs": "zh_Hans", "zht": "zh_Hant"}.get(code, code)).get_display_name(LOCALES[answer])
        return shown or english
    except (ValueError, LookupError):  # Phyrexian, and any code Babel has no data for
        return english


def render_text(results: Sequence[Checked], *, strict: bool, card_meta: StoreMetadata | None,
                lang: str = DEFAULT) -> str:
    """Human output: each file's status, its bracket line, its violations; a summary line."""
    lines = []
    for result in results:
        language = speaker(result, lang)
        lines.append(file_status(result, strict, language))
        for line in (signature_line(result, language), house_rules_line(result, language),
                     bracket_line(result, language), languages_line(result, language)):
            if line is not None:
                lines.append(f"  {line}")
        lines.extend(f"  {violation_line(result.name, v, language)}" for v in result.violations())
    lines.append(summary(results, strict, language_of(lang)))
    return "\n".join(map(printable, lines)) + "\n"


def report_json(result: Checked, card_meta: StoreMetadata | None, lang: str = DEFAULT) -> dict:
    """One file's JSON object: the API's response body plus "file" (or "error" instead)."""
    if result.error or result.report is None:
        return {"file": result.name, "valid": False, "error": said(result.error or "", speaker(result, lang))}
    # responses.dump_report is the API's own serializer: both speak exactly the same JSON.
    body = {"file": result.name, **dump_report(result.report, card_meta, translated=result.translated,
                                               language=None if lang == DEFAULT else speaker(result, lang))}
    if result.site is not None:  # a link: where the deck came from and the text judged, as the API says
        body.update(source=source_body(result.site), decklist=result.site.decklist)
    return body


def render_json(results: Sequence[Checked], *, strict: bool, card_meta: StoreMetadata | None,
                lang: str = DEFAULT) -> str:
    """A JSON array with one object per file, in the order checked. The data is kept
    whole: what printable() would escape is written as a JSON escape instead (json.dumps
    already escapes C0 controls), so a program reading the output gets the names as the
    list had them, and a log reader sees no line break, bidi mark or "##[" command."""
    body = json.dumps([report_json(r, card_meta, lang) for r in results], indent=2, ensure_ascii=False)
    return JSON_UNPRINTABLE.sub(json_escape, body) + "\n"


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


def github_lines(result: Checked, strict: bool, lang: str = DEFAULT) -> Iterable[str]:
    """One annotation per violation (at its first line), or one for an unreadable file.

    Under --strict warnings are annotated as errors, because they fail the check.
    """
    file = None if result.path == STDIN or result.link else result.path  # a link's lines are the text judged
    language = speaker(result, lang)
    if result.error:
        yield workflow_command("error", said(result.error, language), file=file, title=PROG)
        return
    if (judged := judged_in(result, language)) is not None:  # outside Commander, say where it was judged
        yield workflow_command("notice", msg("judged in {format}", format=judged).render(language), file=file,
                               title=PROG)
    if (house := house_rules_line(result, language)) is not None:  # and under which table's rules
        yield workflow_command("notice", msg("judged under {rules}", rules=house).render(language), file=file,
                               title=PROG)
    for v in result.violations():
        level = "error" if v.severity == "error" or strict else "warning"
        yield workflow_command(level, said(v.text, language), file=file, line=v.lines[0] if v.lines else None,
                               title=f"{v.code} ({result.name})" if result.link else v.code)


def render_github(results: Sequence[Checked], *, strict: bool, card_meta: StoreMetadata | None,
                  lang: str = DEFAULT) -> str:
    """GitHub Actions workflow commands, so violations show on the pull request's diff."""
    lines = [line for r in results for line in github_lines(r, strict, lang)]
    lines.append(summary(results, strict, language_of(lang)))
    return "\n".join(lines) + "\n"


def junit_case(result: Checked, strict: bool, lang: str = DEFAULT) -> ET.Element:
    """One <testcase> per file: <error> if unreadable, <failure> listing violations if it fails."""
    case = ET.Element("testcase", classname=PROG, name=printable(result.name), file=printable(result.name))
    language = speaker(result, lang)
    if result.report is not None:
        properties = bracket_properties(result.report.bracket, language)
        ET.SubElement(properties, "property", name="format", value=result.report.game_format)
        if (house := house_rules_line(result, language)) is not None:
            ET.SubElement(properties, "property", name="house_rules", value=printable(house))
        for spell in result.report.signature_spells:
            ET.SubElement(properties, "property", name="signature_spell", value=printable(spell))
        case.append(properties)
    if result.error:
        error = printable(said(result.error, language))
        ET.SubElement(case, "error", message=error, type="not_checked").text = error
        return case
    body = "\n".join(printable(violation_line(result.name, v, language)) for v in result.violations())
    if result.fails(strict):
        message = counted(*result.counts(), language)
        ET.SubElement(case, "failure", message=message, type="invalid_deck").text = body
    elif body:
        # Warnings that do not fail the build still belong in the dashboard.
        ET.SubElement(case, "system-out").text = body
    return case


def bracket_properties(bracket: Bracket | None, language: Renderer = ENGLISH) -> ET.Element:
    """<properties> of a testcase: bracket.minimum, bracket.declared (when given) and one
    bracket.reason per reason, so a dashboard shows the bracket next to the verdict (none
    outside Commander: bracket None); junit_case adds `format` and any `signature_spell`."""
    properties = ET.Element("properties")
    if bracket is None:
        return properties
    ET.SubElement(properties, "property", name="bracket.minimum", value=str(bracket.minimum))
    if bracket.declared is not None:
        ET.SubElement(properties, "property", name="bracket.declared", value=str(bracket.declared))
    for reason in bracket.reasons:
        ET.SubElement(properties, "property", name="bracket.reason", value=printable(said(reason.text, language)))
    return properties


def render_junit(results: Sequence[Checked], *, strict: bool, card_meta: StoreMetadata | None,
                 lang: str = DEFAULT) -> str:
    """JUnit XML: one <testsuite>, one <testcase> per file, for CI dashboards."""
    counts: dict[str, Any] = {
        "tests": str(len(results)),
        "failures": str(sum(1 for r in results if not r.error and r.fails(strict))),
        "errors": str(sum(1 for r in results if r.error)),
        "skipped": "0",
    }
    suites = ET.Element("testsuites", name=PROG, **counts)
    suite = ET.SubElement(suites, "testsuite", name=PROG, **counts)
    suite.extend(junit_case(r, strict, lang) for r in results)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


Render = Callable[..., str]  # one output format: (results, *, strict, card_meta, lang) -> text
RENDERERS: dict[str, Render] = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
    "junit": render_junit,
}
