"""Markdown documents holding a decklist: a README, a blog post, a primer.

The list is the document's list part, read by the line-based reader (validator/parse/text.py)
with the document's own line numbers; the prose around it is no card ("3 Game Changers:
..." is not three copies of a card), and one `unread_lines` warning says how many lines
outside the list were not read, and which. The list part is, most telling first:
- the fenced code block (```` ``` ```` or `~~~`) with the most lines, when there is one;
- else the lines under the headings that head a list (`## Decklist`, `## Commander`,
  `### Creatures (30)`), up to the next heading that heads none; where that part has
  `- ` bullets, the bullets alone (other lines there are prose);
- else the bullets, when they are most of the document's lines.
Front matter between `---` lines may name the commander(s) (`commander:`, `commanders:`
with a list under it, `partner:`) and the format (`format:`). A text with none of these
(no fence, no front matter, no bullets, no heading beside its list headings) is no
Markdown document: the line-based reader reads it whole, as before.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from validator.messages import Value, msg, nmsg
from validator.parse.common import (
    COMMANDER_LABEL, HEADERS, MAX_LINE_LENGTH, Collector, heading_word,
)
from validator.parse.text import TYPE_GROUPS, read_text
from validator.violations import Code

_FENCES = ("```", "~~~")
_BULLETS = ("- ", "* ", "+ ", "-\t", "*\t", "+\t")
# Headings that head the list itself, beside the section words (common.HEADERS) and the
# type groups (`Creatures`).
_LIST_HEADINGS = frozenset({
    "decklist", "deck list", "the decklist", "the deck list", "my decklist", "list", "the list", "the deck",
    "cards", "card list", "the cards", "deck", "main deck", "maindeck", "mainboard", "the 99", "the 100",
})
_FRONT_MATTER_END = ("---", "...")
MAX_FRONT_MATTER = 100  # lines a front matter block may take (no closing line nearer: none)
_COMMANDER_KEYS = ("commander", "commanders", "partner")
MAX_SHOWN_RANGES = 20  # line ranges the warning spells out


def looks_like_markdown(text: str) -> bool:
    """Cheap test before the line scan (markdown_plan decides): a fence, a front matter
    opening, a heading or a bullet somewhere."""
    return (_has("```", text) or _has("~~~", text) or text.lstrip().startswith("---") or _has("# ", text)
            or _has("- ", text) or _has("* ", text) or _has("+ ", text))


def _has(mark: str, text: str) -> bool:
    """`mark in text`, asked of its first character first: a one-character search is a
    memchr, a fifth of the cost of a longer one, and most lists have no `#`, `*` or `~`."""
    return mark[0] in text and mark in text


class Plan(NamedTuple):
    """How a Markdown document is read: the list part's (line, text) pairs, and the lines
    that are markup (fences, front matter, headings outside the list) or outside it."""

    read: list[tuple[int, str]]
    markup: list[int]
    outside: list[int]
    front: list[tuple[int, str]]  # the front matter's (line, text) between its delimiters
    named: list[tuple[int, str]] = []  # (line, names) of headings naming the commanders


class _Line(NamedTuple):
    """One line of the document's body, classified by its start."""

    number: int
    text: str  # stripped; a heading's: its title
    kind: str  # "blank", "fence", "heading", "named" (`## Commander: NAME`), "bullet", "text"
    heads_list: bool = False  # a heading that heads the list or one of its sections


def markdown_plan(lines: list[str]) -> Plan | None:
    """The plan for a Markdown document, or None when the text is none (module docstring)."""
    body_start, front, markup = _front_matter(lines)
    body = [_classify(number, lines[number - 1]) for number in range(body_start + 1, len(lines) + 1)]
    named = [(line.number, line.text) for line in body if line.kind == "named"]
    markup = [*markup, *(number for number, _ in named)]
    plan = _plan(body, front, markup)
    return plan._replace(named=named) if plan is not None else None


def _plan(body: list[_Line], front: list[tuple[int, str]], markup: list[int]) -> Plan | None:
    """The plan of a classified body: fenced, by headings, by bullets, or all of it after
    a front matter (None: no Markdown document)."""
    fenced = _fenced_blocks(body)
    if fenced:
        return _plan_fenced(body, fenced, front, markup)
    headings = [line for line in body if line.kind == "heading"]
    bullets = sum(1 for line in body if line.kind == "bullet")
    if any(h.heads_list for h in headings) and (front or bullets or any(not h.heads_list for h in headings)):
        return _plan_headings(body, front, markup)
    prose = sum(1 for line in body if line.kind == "text")
    if bullets and (bullets >= prose or front):
        return _plan_bullets(body, front, markup)
    if front:
        return Plan([(line.number, line.text) for line in body], markup, [], front)
    return None


def read_markdown(lines: list[str], plan: Plan, c: Collector) -> str:
    """Read the list part with the line-based reader, the front matter's names, and say
    which lines were not read."""
    _read_front_matter(plan.front, c)
    for number, names in plan.named:
        c.name_commanders(names, number)
    for number in plan.markup:
        c.account(number)
    read = plan.read
    while read and not read[0][1]:
        read = read[1:]  # blank lines before the list start no block of it
    read_text(lines, c, None, numbered=read)
    if plan.outside:
        c.warn(Code.UNREAD_LINES,
               nmsg("{n} line of this Markdown document outside its decklist was not read as cards (prose, not a "
                    "list): line {lines}.",
                    "{n} lines of this Markdown document outside its decklist were not read as cards (prose, not a "
                    "list): lines {lines}.", len(plan.outside), lines=_ranges(plan.outside)),
               lines=tuple(plan.outside))
    return "markdown"


def _front_matter(lines: list[str]) -> tuple[int, list[tuple[int, str]], list[int]]:
    """(index where the body starts, the front matter's lines, its delimiter lines)."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or lines[first].strip() != "---":
        return 0, [], []
    for end in range(first + 1, min(len(lines), first + 1 + MAX_FRONT_MATTER)):
        if lines[end].strip() in _FRONT_MATTER_END:
            front = [(i + 1, lines[i]) for i in range(first + 1, end)]
            return end + 1, front, [first + 1, end + 1]
    return 0, [], []


def _classify(number: int, raw: str) -> _Line:
    """What a body line is, by its start only."""
    text = raw.strip()
    if not text:
        return _Line(number, text, "blank")
    if text.startswith(_FENCES):
        return _Line(number, text, "fence")
    if text.startswith("#"):
        marks = len(text) - len(text.lstrip("#"))
        if marks <= 6 and text[marks:marks + 1] in (" ", "\t"):
            title = text[marks:].strip().rstrip("#").strip()
            if label := COMMANDER_LABEL.match(title):
                return _Line(number, title[label.end():], "named")
            return _Line(number, title, "heading", _heads_list(title))
    if text.startswith(_BULLETS):
        return _Line(number, text, "bullet")
    return _Line(number, text, "text")


def _heads_list(title: str) -> bool:
    """Whether a heading's text heads the list or one of its sections."""
    if len(title) > MAX_LINE_LENGTH:
        return False
    word, counted = heading_word(title)
    return word in HEADERS or word in _LIST_HEADINGS or word in TYPE_GROUPS or counted


def _fenced_blocks(body: list[_Line]) -> list[tuple[int, int | None]]:
    """(opening, closing) indices into body of each fenced block (closing None: runs to the end)."""
    blocks: list[tuple[int, int | None]] = []
    opening = None
    for i, line in enumerate(body):
        if line.kind == "fence":
            if opening is None:
                opening = i
            else:
                blocks.append((opening, i))
                opening = None
    if opening is not None:
        blocks.append((opening, None))
    return blocks


def _plan_fenced(body: list[_Line], blocks: list[tuple[int, int | None]], front: list[tuple[int, str]],
                 markup: list[int]) -> Plan:
    """The list is the fenced block with the most non-blank lines; headings are markup, all
    else is outside."""
    def size(block: tuple[int, int | None]) -> int:
        opening, closing = block
        return sum(1 for line in body[opening + 1:closing] if line.kind != "blank")

    opening, closing = max(blocks, key=size)
    end = len(body) if closing is None else closing
    read = [(line.number, line.text) for line in body[opening + 1:end]]
    markup = [*markup, body[opening].number, *(() if closing is None else (body[closing].number,))]
    inside = set(range(opening, end + 1))
    outside: list[int] = []
    for i, line in enumerate(body):
        if i in inside or line.kind in ("blank", "named"):
            continue
        (markup if line.kind == "heading" else outside).append(line.number)
    return Plan(read, markup, outside, front)


def _plan_headings(body: list[_Line], front: list[tuple[int, str]], markup: list[int]) -> Plan:
    """The lines under the list's headings; other headings are markup, other lines outside."""
    parts: list[list[_Line]] = []
    markup = list(markup)
    outside = []
    current: list[_Line] | None = None
    for line in body:
        if line.kind == "heading":
            if line.heads_list:
                if current is None:
                    current = []
                    parts.append(current)
                current.append(line)
                continue
            current = None
            markup.append(line.number)
        elif line.kind == "named":
            continue
        elif current is not None:
            current.append(line)
        elif line.kind != "blank":
            outside.append(line.number)
    read = []
    for part in parts:
        bulleted = any(line.kind == "bullet" for line in part)
        for line in part:
            if line.kind == "text" and bulleted:
                outside.append(line.number)  # prose between the bullets
            else:
                read.append((line.number, _item(line)))
    return Plan(read, markup, sorted(outside), front)


def _plan_bullets(body: list[_Line], front: list[tuple[int, str]], markup: list[int]) -> Plan:
    """The bullets (and headings) are the list; other lines are outside."""
    read, outside = [], []
    for line in body:
        if line.kind == "text" or line.kind == "fence":
            outside.append(line.number)
        elif line.kind != "named":
            read.append((line.number, _item(line)))
    return Plan(read, markup, outside, front)


def _item(line: _Line) -> str:
    """A line as the line-based reader reads it: a heading as its section header (a heading
    of the whole list, `Decklist`, as `Deck`); a bullet's marker removed, and a leading
    `[Commander]` (any section word) written as the `Commander: ` it means."""
    if line.kind == "heading":
        word, counted = heading_word(line.text)
        return line.text if word in HEADERS or word in TYPE_GROUPS or counted else "Deck"
    if line.kind != "bullet":
        return line.text
    item = line.text[2:].strip()
    if item.startswith("[") and (close := item.find("]")) > 0:
        word = item[1:close].strip().lower()
        if HEADERS.get(word) is not None:
            return f"{word}: {item[close + 1:].strip()}"
    return item


def _read_front_matter(front: list[tuple[int, str]], c: Collector) -> None:
    """`commander:` / `commanders:` (a value, or `- NAME` items under it) and `partner:` name
    the commanders, `format:` the format; every front matter line is read as metadata."""
    names: list[str] = []
    first_line = None
    key = None
    for number, raw in front:
        c.account(number)
        if len(raw) > MAX_LINE_LENGTH:
            continue
        text = raw.strip()
        if text.startswith("- ") and key in _COMMANDER_KEYS:
            names.append(text[2:].strip())
            first_line = first_line or number
            continue
        key, colon, value = text.partition(":")
        key = key.strip().lower() if colon else None
        value = value.strip()
        if key in _COMMANDER_KEYS and value:
            names.extend(_flow_list(value))
            first_line = first_line or number
        elif key == "format" and value:
            c.name_format(value.strip("\"'"), number)
    if names and first_line is not None:  # a name was read on a line
        c.name_commanders(" + ".join(name for name in names if name), first_line)


def _flow_list(value: str) -> list[str]:
    """A YAML value naming one card, or a flow list of them (`["A", "B"]`)."""
    if value.startswith("[") and value.endswith("]"):
        try:
            items = json.loads(value)
        except ValueError:
            return [value[1:-1]]
        return [item for item in items if isinstance(item, str)] if isinstance(items, list) else []
    return [value]


def _ranges(numbers: list[int]) -> Value:
    """`1-3, 5, 9-12`: sorted line numbers as ranges (the first MAX_SHOWN_RANGES of them)."""
    ranges: list[list[int]] = []
    for number in numbers:
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    shown = ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in ranges[:MAX_SHOWN_RANGES])
    if len(ranges) > MAX_SHOWN_RANGES:
        return msg("{ranges} and {more} more ranges", ranges=shown, more=len(ranges) - MAX_SHOWN_RANGES)
    return shown
