"""The four output formats of `edh-validate` (`--format`): text for people, JSON (the API's
own body per file), GitHub workflow commands (annotations on the pull request's diff) and
JUnit XML for CI dashboards. Every field passes printable() (printable.py).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Callable, Iterable, Sequence

from card_data import StoreMetadata
from card_data.names.printed import LANGUAGE_NAMES
from edh_service.cli.printable import JSON_UNPRINTABLE, json_escape, printable
from edh_service.cli.results import PROG, STDIN, Checked
from edh_service.api.responses import dump_report
from edh_service.deck_urls import source_body
from validator.brackets import Bracket
from validator.formats import format_named
from validator.phrasing import and_list, plural
from validator.violations import Violation


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


def location(name: str, violation: Violation) -> str:
    """'path:line' for a violation tied to lines (the first one), else 'path'."""
    return f"{name}:{violation.lines[0]}" if violation.lines else name


def violation_line(name: str, violation: Violation) -> str:
    """'path:line: severity code: message (rule N)': the shape compilers and editors link."""
    rule = f" (rule {violation.rule})" if violation.rule else ""
    return f"{location(name, violation)}: {violation.severity} {violation.code}: {violation.message}{rule}"


def file_status(result: Checked, strict: bool) -> str:
    """The header line of one file's group in text output."""
    if result.error:
        return f"{result.name}: not checked: {result.error}"
    errors, warnings = result.counts()
    verdict = "invalid" if result.fails(strict) else "valid"
    judged = judged_in(result)
    where = f" in {judged}" if judged else ""
    house = result.report.house_rules
    under = f" under {house.rules}" if house is not None else ""
    return f"{result.name}: {verdict}{where}{under} ({plural(errors, 'error')}, {plural(warnings, 'warning')})"


def judged_in(result: Checked) -> str | None:
    """'Duel Commander (duel)': the game format a checked file was judged in, when it is not
    Commander (the default says nothing, so Commander runs read as before)."""
    key = result.report.game_format if result.report is not None else "commander"
    return None if key == "commander" else f"{format_named(key).name} ({key})"


def signature_line(result: Checked) -> str | None:
    """'signature spells: Brainstorm' for an Oathbreaker deck that has them."""
    spells = result.report.signature_spells if result.report is not None else ()
    return f"signature {'spells' if len(spells) > 1 else 'spell'}: {and_list(spells)}" if spells else None


def house_rules_line(result: Checked) -> str | None:
    """'house rules: Thursday at the store (profile thursday): 1 banned, ...': what the file was
    judged under; None without house rules."""
    house = result.report.house_rules if result.report is not None else None
    if house is None:
        return None
    profile = f" (profile {house.profile})" if house.profile else ""
    bracket = f", max bracket {house.max_bracket}" if house.max_bracket is not None else ""
    return (f"house rules: {house.name or 'unnamed'}{profile}: {len(house.banned)} banned, "
            f"{len(house.banned_as_commander)} banned as commander, {len(house.unbanned)} unbanned{bracket}")


def bracket_line(result: Checked) -> str | None:
    """'minimum bracket 3 (declared 2): why...': the lowest Commander Bracket the list allows
    and every reason (checks not made included); None for a file not checked."""
    bracket = result.report.bracket if result.report is not None else None
    if bracket is None:
        return None
    declared = f" (declared {bracket.declared})" if bracket.declared is not None else ""
    return f"minimum bracket {bracket.minimum}{declared}: " + " ".join(r.message for r in bracket.reasons)


def languages_line(result: Checked) -> str | None:
    """'read in other languages: 12 lines in Spanish (es), 1 line in German (de)': how many
    lines named a card in which language, most first; None when every name was English."""
    lines: dict[str, set[int]] = {}
    for _, _, lang, numbers in result.translated:
        lines.setdefault(lang, set()).update(numbers)
    counted = sorted(((len(numbers), lang) for lang, numbers in lines.items() if numbers), key=lambda c: (-c[0], c[1]))
    if not counted:
        return None
    return "read in other languages: " + ", ".join(
        f"{plural(count, 'line')} in {LANGUAGE_NAMES.get(lang, lang)} ({lang})" for count, lang in counted)


def render_text(results: Sequence[Checked], *, strict: bool, card_meta: StoreMetadata | None) -> str:
    """Human output: each file's status, its bracket line, its violations; a summary line."""
    lines = []
    for result in results:
        lines.append(file_status(result, strict))
        for line in (signature_line(result), house_rules_line(result), bracket_line(result), languages_line(result)):
            if line is not None:
                lines.append(f"  {line}")
        lines.extend(f"  {violation_line(result.name, v)}" for v in result.violations())
    lines.append(summary(results, strict))
    return "\n".join(map(printable, lines)) + "\n"


def report_json(result: Checked, card_meta: StoreMetadata | None) -> dict:
    """One file's JSON object: the API's response body plus "file" (or "error" instead)."""
    if result.error:
        return {"file": result.name, "valid": False, "error": result.error}
    # responses.dump_report is the API's own serializer: both speak exactly the same JSON.
    body = {"file": result.name, **dump_report(result.report, card_meta, translated=result.translated)}
    if result.site is not None:  # a link: where the deck came from and the text judged, as the API says
        body.update(source=source_body(result.site), decklist=result.site.decklist)
    return body


def render_json(results: Sequence[Checked], *, strict: bool, card_meta: StoreMetadata | None) -> str:
    """A JSON array with one object per file, in the order checked. The data is kept
    whole: what printable() would escape is written as a JSON escape instead (json.dumps
    already escapes C0 controls), so a program reading the output gets the names as the
    list had them, and a log reader sees no line break, bidi mark or "##[" command."""
    body = json.dumps([report_json(r, card_meta) for r in results], indent=2, ensure_ascii=False)
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


def github_lines(result: Checked, strict: bool) -> Iterable[str]:
    """One annotation per violation (at its first line), or one for an unreadable file.

    Under --strict warnings are annotated as errors, because they fail the check.
    """
    file = None if result.path == STDIN or result.link else result.path  # a link's lines are the text judged
    if result.error:
        yield workflow_command("error", result.error, file=file, title=PROG)
        return
    if (judged := judged_in(result)) is not None:  # outside Commander, say where it was judged
        yield workflow_command("notice", f"judged in {judged}", file=file, title=PROG)
    if (house := house_rules_line(result)) is not None:  # and under which table's rules
        yield workflow_command("notice", f"judged under {house}", file=file, title=PROG)
    for v in result.violations():
        level = "error" if v.severity == "error" or strict else "warning"
        yield workflow_command(level, v.message, file=file, line=v.lines[0] if v.lines else None,
                               title=f"{v.code} ({result.name})" if result.link else v.code)


def render_github(results: Sequence[Checked], *, strict: bool, card_meta: StoreMetadata | None) -> str:
    """GitHub Actions workflow commands, so violations show on the pull request's diff."""
    lines = [line for r in results for line in github_lines(r, strict)]
    lines.append(summary(results, strict))
    return "\n".join(lines) + "\n"


def junit_case(result: Checked, strict: bool) -> ET.Element:
    """One <testcase> per file: <error> if unreadable, <failure> listing violations if it fails."""
    case = ET.Element("testcase", classname=PROG, name=printable(result.name), file=printable(result.name))
    if result.report is not None:
        properties = bracket_properties(result.report.bracket)
        ET.SubElement(properties, "property", name="format", value=result.report.game_format)
        if (house := house_rules_line(result)) is not None:
            ET.SubElement(properties, "property", name="house_rules", value=printable(house))
        for spell in result.report.signature_spells:
            ET.SubElement(properties, "property", name="signature_spell", value=printable(spell))
        case.append(properties)
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


def bracket_properties(bracket: Bracket | None) -> ET.Element:
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
        ET.SubElement(properties, "property", name="bracket.reason", value=printable(reason.message))
    return properties


def render_junit(results: Sequence[Checked], *, strict: bool, card_meta: StoreMetadata | None) -> str:
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
