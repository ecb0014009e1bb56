"""The line-based decklist syntaxes: plain text, MTG Arena, Moxfield, Archidekt, MTGO and
MTGGoldfish text, Forge and XMage `.dck`, and the taw precon convention.

They share one line grammar (RULES.md §8): `[quantity] [printing] name [printing]
[markers]`, so one tolerant reader handles them all. What differs between sites is only
which decorations appear, and the decorations never collide: a leading `[SET:num]` is
XMage, a trailing `|SET|art` is Forge, `*CMDR*` is Moxfield, `[Category{flags}]` and
`^label^` are Archidekt, `(SET) num` is Arena, `[SET:num] [foil]` is taw.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from validator.card_facts import LAND_TYPES
from validator.decklist import ListEntry, Section
from validator.messages import msg
from validator.parse.memo import CharacterMemo
from validator.parse.common import (
    COMMANDER_LABEL, HEADERS, MAX_LINE_LENGTH, MAX_NAME_LENGTH, TOO_LONG, Collector, deck_cards, heading_word, side_zone_section,
)
from validator.parse.decorations import FORGE_PRINTING, peel

# The common cases, `1 Sol Ring`, `4x Forest`, `1 x Forest`, Arena's `1 Sol Ring (C21) 263` and
# Forge's `1 Sol Ring|C21|1`: the name holds only characters no decoration uses, so
# the general path would read the same entry. One character class to the end of the
# name: linear, whatever the line. (The class is [\w ',.!?&/-], written with its ASCII
# part first and possessive: the same names, a fifth faster on Python 3.11's re.)
# The name is at most MAX_NAME_LENGTH characters: a longer one fails the fast path, and the
# general one refuses it (Collector.add).
_PLAIN = re.compile(r"([1-9]\d{0,2})(?:[ \t]*[xX])?[ \t]+([^\W\d_](?:[A-Za-z0-9_ ',.!?&/-]|\w){0,%d}+)"
                    % (MAX_NAME_LENGTH - 1))
_ARENA_TAIL = re.compile(r"\(([A-Za-z0-9]{2,6})\)[ \t]+([\w-]+)")
# A leading quantity: `1`, `1x`, `1 x`, `-3`, rarely `x1` (no card name starts with the
# word "x"). Linear: one anchored attempt.
_QUANTITY = re.compile(r"(?:(-?\d+)(?:[ \t]*[xX])?|[xX](\d+))(?:\s+|$)")
# A count after the name, `Sol Ring x2` / `x 2`, tried only when no quantity leads (no card
# name ends in " x" and digits). Searched from the end: one short attempt per blank.
_TRAILING_QUANTITY = re.compile(r"[ \t][xX][ \t]?(\d+)$")
# `1 Sol Ring|C21|1` or `1 Sol Ring (C21) 263` in one match. _PLAIN's name stops at the
# first "|" or "(", and giving any of it back could never let a printing match, so it is
# atomic: linear, whatever the line. The name keeps the spaces before the printing.
_PRINTED = re.compile(rf"(?>{_PLAIN.pattern})\s*(?:{FORGE_PRINTING.pattern}|{_ARENA_TAIL.pattern})")
_INLINE = re.compile(r"([A-Za-z][A-Za-z ]{0,20}):\s*+(.+)")  # COMMANDER: 1 Name, SB: 1 Name (lines are stripped)
_CATEGORY_HEADER = re.compile(r"[^\W\d_][\w &/',+-]{0,40}")  # TappedOut `Creatures (2)`
_NOT_A_NAME = re.compile(r"[<>{}\[\]|=*^\x00-\x1f\x7f]")  # markup, never in a card name
_LETTER = re.compile(r"[^\W\d_]")
_COMMENT = re.compile(r"\s#(.*)")  # a trailing comment (Archidekt's `^label,#rrggbb^` has no space)
_FORMAT_LINE = re.compile(r"format\s*:\s*(\S.*)", re.IGNORECASE)  # `Format: Brawl`, before the first card

# Bare words that head a group of main-deck cards in type-grouped lists (no card has
# these names, so reading them as headers loses nothing).
TYPE_GROUPS = frozenset({
    "creatures", "lands", "instants", "sorceries", "artifacts", "enchantments",
    "planeswalkers", "battles", "spells", "nonlands",
})
_COMMAND_SECTIONS = (Section.COMMANDER, Section.COMPANION)
_XMAGE_METADATA = ("NAME:", "LAYOUT ")  # XMage deck name and UI layout lines
# XMage's deck editor state, one line per zone however many cards it lays out (one over
# MAX_LINE_LENGTH is still no card line): accounted for at any length, before any pattern.
_XMAGE_LAYOUT = ("LAYOUT MAIN:", "LAYOUT SIDEBOARD:")
# The basic lands (205.4c's basic land types, Wastes, their snow-covered printings): a
# block of `Island: 9` lines after a list naming each once gives each one's total.
BASIC_LANDS = frozenset(
    name.lower() for basic in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes")
    for name in (basic, f"Snow-Covered {basic}")
)
_BASIC_TOTAL = re.compile(r"([A-Za-z][A-Za-z -]{0,30}+):[ \t]*+(\d{1,3})")


class _State:
    """Where the reader is: current section, metadata block, and what the text marked."""

    __slots__ = ("section", "metadata", "marked", "side", "blocks", "gap", "seen", "section_start",
                 "side_block", "first_block", "entries", "totals")

    def __init__(self, entries: list[ListEntry]) -> None:
        self.entries = entries  # the collector's entries, read-only here
        self.section = Section.MAIN
        self.section_start = 0  # entries before the last section header
        self.side_block: int | None = None  # len(blocks) when a Sideboard header was read
        self.first_block: tuple[int, bool, int] | None = None  # (entries, marked, problems) at its end
        self.metadata: str | None = None  # "about" (until a blank line) or "forge" (until a header)
        self.marked = False  # any header, marker or category: commanders are not guessed
        self.side: list[int] = []  # indices of `SB:` entries
        self.blocks: list[tuple[int, int]] = [(0, 0)]  # (entry, problem) index at each block start
        self.gap = False  # a blank line was seen since the last card line
        self.seen: set[str] = set()  # dialects whose decorations were read (see DIALECTS)
        self.totals: list[tuple[str, int, int]] = []  # (basic as typed, total, line) of `Island: 9` lines


# Most specific first: a Forge list may carry Arena-looking lines, never the reverse.
DIALECTS = ("xmage", "forge", "archidekt", "moxfield", "arena")
_ARENA_HEADERS = frozenset({"About", "Deck", "Commander", "Companion", "Sideboard"})


def read_text(lines: list[str], collector: Collector, format: str | None = None,
              numbered: Iterable[tuple[int, str]] | None = None) -> str:
    """Read every line; returns the dialect (the forced `format`, else the one whose
    decorations were seen; "text" when none). In XMage, `SB:` lines are the command zone.
    `numbered` ((line number, text) pairs) reads only those lines, as a Markdown
    document's list part (validator/parse/markdown.py): the others are not there at all."""
    entries = collector.entries
    state = _State(entries)
    # The card lines' fast path runs for nearly every line: a line read before (in any list)
    # is one look-up (_CARD_LINES), and the dialects its lines show are noted once each, after
    # the loop (nothing reads them before).
    seen_lines = _CARD_LINES
    forge = arena = False
    for number, raw in numbered if numbered is not None else enumerate(lines, 1):
        line = raw.strip()
        if not line:
            state.gap = True
            if state.metadata == "about":
                state.metadata = None  # Arena's About block ends at the first blank line
            continue
        if state.gap:
            state.gap = False
            _new_block(state, len(entries), len(collector.problems))
        if state.metadata is None and len(line) <= MAX_LINE_LENGTH:
            read = seen_lines.get(line)
            if read is None:
                read = _read_card_line(line)
            if read is not None:
                name, quantity, printing, collector_number, dialect = read
                if dialect is not None:
                    if dialect == "forge":
                        forge = True
                    else:
                        arena = True
                entries.append(ListEntry(name, quantity, number, state.section, printing, collector_number))
                continue
        _read_line(line, number, state, collector)
    if forge:
        state.seen.add("forge")
    if arena:
        state.seen.add("arena")
    dialect = format or next((d for d in DIALECTS if d in state.seen), "text")
    _settle_side_zone(state, collector, dialect == "xmage")
    _infer_from_last_block(state, collector)
    _propose_blocks(state, collector)
    if state.totals:
        _settle_totals(state.totals, collector)
    return dialect


# A card line the fast path read -> what it read (name, quantity, set, collector number,
# dialect shown: None, "forge" or "arena"). A pure function of the stripped line, kept for
# the next list: most lists share most lines ("1 Sol Ring", "1 Command Tower", basics), and
# a line read again costs one look-up instead of a pattern match. Bounded like the card
# store's name memos, in lines and in characters (a line is up to MAX_LINE_LENGTH): when
# full it starts over, so a flood of distinct lines costs time, never memory.
MAX_MEMO_LINES = 20_000
MAX_MEMO_CHARACTERS = 2_000_000
_CardLine = tuple[str, int, str | None, str | None, str | None]
_CARD_LINES: CharacterMemo[str, _CardLine] = CharacterMemo(MAX_MEMO_CHARACTERS, MAX_MEMO_LINES)


def _read_card_line(line: str) -> _CardLine | None:
    """The fast path's reading of `1 Sol Ring`, `1 Sol Ring (C21) 263` and `1 Sol Ring|C21|1`
    (remembered in _CARD_LINES), or None when the line is not one of those."""
    if "(" in line or "|" in line:  # cheaper than a _PLAIN attempt that must fail
        printed = _PRINTED.fullmatch(line)
        if printed is None:
            return None
        quantity, name, forge_set, arena_set, collector_number = printed.groups()
        read: _CardLine = (name.rstrip(), int(quantity), forge_set or arena_set, collector_number,
                "arena" if forge_set is None else "forge")
    else:
        plain = _PLAIN.fullmatch(line)
        if plain is None:
            return None
        read = (plain[2], int(plain[1]), None, None, None)
    _CARD_LINES.remember(line, read, len(line) + len(read[0]))
    return read


def _new_block(state: _State, entries: int, problems: int) -> None:
    """A non-blank line after a blank one. An Arena-style `Commander` (or `Companion`)
    section with its cards read ends at the blank line: what follows without a header is
    the deck."""
    if state.first_block is None and entries:
        state.first_block = (entries, state.marked, problems)
    if state.section in _COMMAND_SECTIONS and entries > state.section_start:
        state.section = Section.MAIN
    state.blocks.append((entries, problems))


def _read_line(line: str, number: int, state: _State, c: Collector) -> None:
    """Everything but the fast path: long lines, comments, metadata, headers, cards."""
    if line.startswith(_XMAGE_LAYOUT):
        state.seen.add("xmage")
        c.account(number)
    elif len(line) > MAX_LINE_LENGTH:
        c.unparsed(number, line, TOO_LONG)
    elif line.startswith(("//", "#")):
        # `//Sideboard`, `# Commander` (deckstats and others): a header written as a comment
        comment = line.lstrip("/#").strip()
        if not _name_format(comment, number, c) and not _name_commanders(comment, number, c):
            _enter_section_comment(comment, state)
        c.account(number)
    elif _name_format(line, number, c):
        c.account(number)
    elif line.startswith(_XMAGE_METADATA):
        state.seen.add("xmage")
        c.account(number)
    elif _is_metadata(line, state):
        c.account(number)  # `Name Teysa Brew`, `Name=Krenko`: deck metadata, not cards
    elif _enter_header(line, state):
        c.account(number)
    else:
        _read_inline_or_card(line, number, state, c)


def _name_format(line: str, number: int, c: Collector) -> bool:
    """`Format: Brawl` before the first card names the list's game format (DESIGN.md)."""
    if c.entries or not line[:6].lower() == "format":
        return False
    named = _FORMAT_LINE.fullmatch(line)
    if named:
        c.name_format(named[1].strip(), number)
    return named is not None


def _name_commanders(comment: str, number: int, c: Collector) -> bool:
    """A comment before the first card naming the commander(s), `# Commander: NAME` or
    `// Commanders: A + B` (validator.decklist.NamedCommanders): they designate."""
    if c.entries or c.named_commanders is not None or not (label := COMMANDER_LABEL.match(comment)):
        return False
    return c.name_commanders(comment[label.end():], number)


def _is_metadata(line: str, state: _State) -> bool:
    """A line of Arena's About block (`Name X`) or Forge's [metadata] (`Key=Value`).

    Anything else ends the block and is read as usual, so a missing blank line or
    header never turns cards into metadata."""
    if state.metadata == "about" and line[:5].lower() in ("name ", "name:"):
        return True
    if state.metadata == "forge" and "=" in line and not line.startswith("["):
        return True
    state.metadata = None
    return False


def _enter_header(line: str, state: _State) -> bool:
    """Switch section when the line is a header (`Deck`, `SIDEBOARD:`, `[Main]`,
    `Mainboard (99)`, `Creatures (2)`); False when it is not one."""
    word, counted = heading_word(line)
    if word in HEADERS:
        if line.startswith("["):
            state.seen.add("forge")
        elif line in _ARENA_HEADERS:
            state.seen.add("arena")
        section = HEADERS[word]
        state.metadata = ("forge" if word == "metadata" else "about") if section is None else None
        if section is not None:
            _switch(state, section)
        return True
    if (counted and _CATEGORY_HEADER.fullmatch(word)) or word in TYPE_GROUPS:
        state.section, state.metadata, state.marked = Section.MAIN, None, True
        return True
    return False


def _enter_section_comment(text: str, state: _State) -> None:
    """Switch section when a comment is nothing but a section header (`// Sideboard`)."""
    section = HEADERS.get(heading_word(text)[0])
    if section is not None:
        _switch(state, section)


def _switch(state: _State, section: Section) -> None:
    """Enter the section a header names."""
    state.section, state.marked, state.section_start = section, True, len(state.entries)
    if section is Section.SIDEBOARD:
        state.side_block = len(state.blocks)


def _read_inline_or_card(line: str, number: int, state: _State, c: Collector) -> None:
    """`COMMANDER: 1 Name` / `SB: 1 Name` put one card in a section, `Island: 9` gives a basic
    land's total; anything else is a card."""
    if line[-1:].isdigit() and (total := _BASIC_TOTAL.fullmatch(line)) and total[1].lower() in BASIC_LANDS:
        state.totals.append((total[1], int(total[2]), number))  # `Island: 9`, `Snow-Covered Island: 2`
        return
    inline = _INLINE.fullmatch(line)
    if inline:
        word = inline[1].strip().lower()
        if word == "sb":
            state.marked = True
            before = len(c.entries)
            _read_card(inline[2], number, Section.SIDEBOARD, state, c)
            # `SB: 1 X # !Commander` (deckstats) is marked already: no side-zone guess
            state.side.extend(i for i in range(before, len(c.entries)) if c.entries[i].section is Section.SIDEBOARD)
            return
        if (section := HEADERS.get(word)) is not None:
            state.marked = True
            _read_card(inline[2], number, section, state, c)
            return
    _read_card(line, number, state.section, state, c)


def _read_card(line: str, number: int, section: Section, state: _State, c: Collector) -> None:
    """One card line in any dialect, or an unparsed_line when it names nothing."""
    if len(line) > MAX_LINE_LENGTH:
        c.unparsed(number, line, TOO_LONG)
        return
    match = _QUANTITY.match(line)
    quantity = (match[1] or match[2]) if match else None
    rest = line[match.end():] if match else line
    if "#" in rest and (comment := _COMMENT.search(rest)) and not rest.endswith("^"):
        # no card name has "#": `1 Sol Ring # ramp`; deckstats marks `# !Commander`
        if "!commander" in comment[1].lower():
            section, state.marked = Section.COMMANDER, True
        rest = rest[: comment.start()]
    hints: dict[str, Any] = {}
    seen = state.seen
    rest = rest.strip()
    name, marked_section = peel(rest, hints, seen)
    if marked_section is not None:
        section, state.marked = marked_section, True
    if quantity is None and name[-1:].isdigit() and (trailing := _TRAILING_QUANTITY.search(name)):
        quantity, name = trailing[1], name[: trailing.start()].rstrip()
    if not _is_name(name):
        c.unparsed(number, line, msg("Line {line} has a quantity but no card name: \"{text}\"") if quantity and not name
                   else None)
        return
    c.add(name, quantity if quantity is not None else 1, number, section, **hints)


def _is_name(name: str) -> bool:
    """Could this be a card name? A letter and no markup (`_____` is a real card)."""
    if not name or _NOT_A_NAME.search(name):
        return False
    return bool(_LETTER.search(name)) or not name.strip("_")


def _settle_side_zone(state: _State, c: Collector, xmage: bool) -> None:
    """`SB:` cards are the command zone when there are one or two of them."""
    if not state.side:
        return
    side = set(state.side)
    main = deck_cards(e for i, e in enumerate(c.entries) if i not in side)
    section = side_zone_section(len(side), main, command_zone=xmage)
    if section is not Section.COMMANDER:
        c.propose_side_tail(state.side, msg("the SB: (sideboard) lines"))
        return
    # XMage writes its command zone this way (nothing to say); elsewhere SB: means sideboard
    c.take_as_commanders(state.side, None if xmage else
                         msg("the SB: (sideboard) lines, the Commander convention of MTGO and Cockatrice"))


def _infer_from_last_block(state: _State, c: Collector) -> None:
    """MTGO/MTGGoldfish text: main deck, a blank line, then 1-2 commanders. Only when the
    text marks nothing else and has exactly those two blocks, so nothing is guessed."""
    if state.marked or len(state.blocks) != 2:
        return
    (_, _), (first_entry, first_problem) = state.blocks
    last = list(range(first_entry, len(c.entries)))
    if not 1 <= len(last) <= 2 or len(c.problems) != first_problem or first_entry <= len(last):
        return
    if any(c.entries[i].quantity != 1 for i in last):
        return
    c.take_as_commanders(last, msg("the final block after a blank line (MTGO/MTGGoldfish convention)"))


def _propose_blocks(state: _State, c: Collector) -> None:
    """Candidates from the block layout (assemble judges them with the cards): the first
    block of a list that marks nothing, and Moxfield's MTGO download, whose final block
    after the sideboard holds the commander(s)."""
    entries = c.entries
    if state.first_block is not None:
        end, marked, problems = state.first_block
        if not marked and not problems and end <= 2 and len(entries) > end \
                and all(entries[i].section is Section.MAIN for i in range(end)):
            c.propose(range(end), msg("the first block, before a blank line (a commander-first list)"), layout=True)
    first_entry, first_problem = state.blocks[-1]
    last = range(first_entry, len(entries))
    if state.side_block is not None and state.side_block < len(state.blocks) and 1 <= len(last) <= 2 \
            and len(c.problems) == first_problem and all(entries[i].section is Section.SIDEBOARD for i in last):
        c.propose(last, msg("the final block after the sideboard (the layout of Moxfield's MTGO download)"),
                  layout=True)
    if state.side_block is not None and state.side_block == len(state.blocks) and 1 <= len(last) <= 2 \
            and len(c.problems) == first_problem and all(entries[i].section is Section.SIDEBOARD for i in last):
        c.propose(last, msg("a sideboard holding only them, at the end of the list"))


def _settle_totals(totals: list[tuple[str, int, int]], c: Collector) -> None:
    """`Island: 9` after a list that names Island gives the total, not 9 more: the line adds
    what the list above lacks of it (nothing when it already has them; an unparsed_line
    when it has more). A basic the list does not name is that many copies."""
    listed: dict[str, int] = {}
    for entry in c.entries:
        if entry.section is Section.MAIN and (key := entry.name.lower()) in BASIC_LANDS:
            listed[key] = listed.get(key, 0) + entry.quantity
    for name, total, line in totals:
        have = listed.get(name.lower(), 0)
        if total < have:
            c.unparsed(line, f"{name}: {total}", msg("Line {line} gives {total} {land} in all, but the list above has "
                                                     "{have}: \"{text}\"", total=total, land=LAND_TYPES.get(name, name),
                                                     have=have))
        elif total == have:
            c.account(line)
        else:
            c.add(name, total - have, line)
        listed[name.lower()] = max(have, total)

