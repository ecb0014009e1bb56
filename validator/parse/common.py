"""What every decklist reader shares: limits, header words, and the collector of results.

The readers (text, xml, json, csv) turn one syntax into calls on a `Collector`; the
collector owns the rules every format obeys: quantities are checked in one place,
problems carry their line, and every line a reader skips is recorded as accounted for.
"""

from __future__ import annotations

import re
from typing import Any, Final, Iterable, Sequence

from validator.decklist import Candidate, Decklist, ListEntry, NamedCommanders, NamedFormat, Section
from validator.messages import Names, Text, Value, msg
from validator.violations import Code, Severity, Violation

MAX_LINES: Final = 10_000  # a Commander list is ~100 lines; 100x that is abuse, not a deck
# Card entries (JSON cards, XML card elements) a list may hold: a one-line export is no
# cheaper to check than a list of as many lines (`1 Opt||` x 140,000 was one JSON line).
MAX_ENTRIES: Final = MAX_LINES
MAX_LINE_LENGTH: Final = 1_000  # longer lines are never card lines; refusing them keeps regexes cheap
MAX_QUANTITY: Final = 999  # above this a "quantity" is a typo or an attack, not a count
# No card name is longer (the longest English one has 141 characters; printed names in other
# languages and "A // B" joins stay well under): a longer "name" is refused before any
# pattern or normalisation sees it, in every reader (XML and JSON lists have no line limit).
MAX_NAME_LENGTH: Final = 200
SNIPPET = 60  # characters of a bad line quoted back in a message


class DecklistError(ValueError):
    """Input the parser refuses outright (too many lines, an unknown format name): `text`
    says why (validator.messages.Text); str() is its English."""

    def __init__(self, text: Text) -> None:
        self.text = text
        super().__init__(text.english())


# Header words, lower-cased, without a trailing colon or "(N)" count. None means "a
# metadata block follows" (Arena's About block, Forge's [metadata]).
HEADERS: dict[str, Section | None] = {
    "commander": Section.COMMANDER,
    "commanders": Section.COMMANDER,
    "command zone": Section.COMMANDER,
    "commandzone": Section.COMMANDER,
    "companion": Section.COMPANION,
    "companions": Section.COMPANION,
    "oathbreaker": Section.COMMANDER,  # Oathbreaker lists: the oathbreaker and its signature spell
    "oathbreakers": Section.COMMANDER,
    "signature spell": Section.SIGNATURE,
    "signature spells": Section.SIGNATURE,
    "deck": Section.MAIN,
    "main": Section.MAIN,
    "maindeck": Section.MAIN,
    "main deck": Section.MAIN,
    "mainboard": Section.MAIN,
    "library": Section.MAIN,
    "sideboard": Section.SIDEBOARD,
    "side": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "maybe": Section.MAYBEBOARD,
    "considering": Section.MAYBEBOARD,
    "tokens": Section.IGNORED,
    "display commander": Section.DISPLAY,
    "display commanders": Section.DISPLAY,
    "planar deck": Section.PLANAR,
    "planes": Section.PLANAR,
    "scheme deck": Section.SCHEMES,
    "schemes": Section.SCHEMES,
    # Forge's other piles: none of them is part of the 100-card deck
    "avatar": Section.IGNORED,
    "attractions": Section.IGNORED,
    "contraptions": Section.IGNORED,
    "stickers": Section.IGNORED,  # Moxfield's sticker sheets (Unfinity)
    "dungeon": Section.IGNORED,
    "conspiracy": Section.SIDEBOARD,
    "about": None,
    "metadata": None,
}


def heading_word(line: str) -> tuple[str, bool]:
    """A line reduced to a possible header word (lower case, no brackets, colon or `(N)`
    count), and whether it carried a count."""
    if line.startswith("[") and line.endswith("]") and line.count("[") == 1:
        return line[1:-1].strip().lower(), False  # Forge `[Commander]`
    word = line[:-1] if line.endswith(":") else line
    counted = False
    if word.endswith(")"):
        opening = word.rfind("(")
        inside = word[opening + 1 : -1]
        if opening > 0 and inside.isdigit() and inside.isascii():
            word, counted = word[:opening].rstrip(), True
    return word.lower(), counted


def heading_section(text: str) -> Section | None:
    """The section a heading names (`Commander`, `Sideboard (1)`...), None if no known one."""
    return HEADERS.get(heading_word(text.strip())[0])


# Invisible characters that copy-paste from web pages leaves in names ("\u200b1 Sol Ring").
_INVISIBLE_CHARS = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_INVISIBLE = dict.fromkeys(map(ord, _INVISIBLE_CHARS))


def line_feeds(text: str) -> str:
    """Every line break as LF: CR CR LF (a CRLF file converted to CRLF again: one break, or
    every list would have a blank line after each line), CRLF and CR each one. A text with
    no CR left splits the same (split_lines(line_feeds(t)) == split_lines(t))."""
    return text.replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def split_lines(text: str) -> list[str]:
    """Lines as a client numbers them: CRLF, CR and LF each end one line (and nothing else),
    and so does CR CR LF (line_feeds); zero-width characters and soft hyphens removed."""
    text = line_feeds(text)
    if not text.isascii() and _has_invisible(text):  # all of them are non-ASCII
        text = text.translate(_INVISIBLE)
    return text.split("\n")


def _has_invisible(text: str) -> bool:
    """Whether the text holds an invisible character: one `in` a character (a character
    wider than the text's widest is found absent at once: a Latin-1 text, Spanish or
    French, is searched for the soft hyphen alone). A character class searched with `re`
    cost 7 µs on a 1.4 KB list in Spanish; this costs 0.7."""
    return any(char in text for char in _INVISIBLE_CHARS)


# A lone UTF-16 surrogate is a code point no text encoding can write: one in a name reached
# SQLite's and the page's UTF-8 encoders as a 500. A decoder can make one (utf-7,
# unicode_escape), and a JSON export's "\\ud800" escape; each becomes U+FFFD, the
# replacement character, as undecodable bytes do: in the text every reader but JSON reads
# (reading._read), and in each name the JSON reader decoded (an XML reference to one is
# refused: XML allows no such character).
_SURROGATE = re.compile(r"[\ud800-\udfff]")  # re reads the escapes: no surrogate in the source


def clean_text(text: str) -> str:
    """The text with every lone surrogate replaced by U+FFFD (text without one is returned
    as is: ASCII at no cost, any other after one encoding, a fifth of a pattern search's).
    A text of Latin-1 characters alone (Spanish, French, German lists) can hold none:
    encoding it to Latin-1 is a copy (0.25 µs for a 1.4 KB Spanish list; UTF-8 2.7 µs)."""
    if text.isascii():
        return text
    try:
        text.encode("latin-1")
        return text
    except UnicodeEncodeError:
        pass
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def line_count(lines: list[str]) -> int:
    """Lines as the list's author counts them, from split_lines(text): a final line break
    ends the last line, it does not start another."""
    return len(lines) - (len(lines) > 1 and lines[-1] == "")


def check_size(lines: list[str]) -> None:
    """Refuse input over MAX_LINES lines before any per-line work is done (a final line
    break ends the last line; it does not start another)."""
    count = line_count(lines)
    if count > MAX_LINES:
        raise DecklistError(msg("The decklist has {count} lines; at most {most} are accepted.", count=count,
                                most=MAX_LINES))


def check_entries(count: int) -> None:
    """Refuse a document holding over MAX_ENTRIES card entries before they are read."""
    if count > MAX_ENTRIES:
        raise DecklistError(msg("The decklist has {count} card entries; at most {most} are accepted.", count=count,
                                most=MAX_ENTRIES))


def check_collections(*collections: object) -> None:
    """check_entries on the lists and objects a reader is about to walk, their items
    together, before it reads one of them (a document over the bound is refused at once,
    however it is shaped)."""
    check_entries(sum(len(items) for items in collections if isinstance(items, (list, dict))))


def snippet(text: str) -> str:
    """A bad line as quoted back to the user: stripped, cut short, encodable."""
    text = text.strip()
    return clean_text(text if len(text) <= SNIPPET else text[: SNIPPET - 1] + "…")


def deck_cards(entries: Iterable[ListEntry]) -> int:
    """Copies listed in the main deck and the command zone."""
    return sum(e.quantity for e in entries if e.section in (Section.MAIN, Section.COMMANDER))


def side_zone_section(count: int, main: int, *, command_zone: bool = False) -> Section:
    """Where a format's side zone of `count` cards goes, beside `main` cards in the main deck
    and command zone (deck_cards): 1-2 cards are the commanders (MTGO, XMage,
    Cockatrice convention); 3 or more could hide a companion, so nothing is guessed. A
    main deck already of 100 cards holds its commander: then the side zone is a sideboard.
    Two cards beside 99 can't both command a 100-card deck: one is the commander, the other
    a sideboard card or the companion, and the cards decide (propose_side_tail); unless the
    zone is the format's own command zone (`command_zone`: XMage's SB: lines)."""
    if not 1 <= count <= 2 or main == 100:
        return Section.SIDEBOARD
    if count == 2 and main == 99 and not command_zone:
        return Section.SIDEBOARD
    return Section.COMMANDER


_DIGITS = re.compile(r"-?\d+")


def quantity_of(raw: object) -> int | None:
    """The quantity as an int when it is a sane count (1..MAX_QUANTITY), else None.

    Accepts an int or a string of digits; the length check comes first so a
    10**30-digit string is never converted or looped over.
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if 1 <= raw <= MAX_QUANTITY else None
    if not isinstance(raw, str) or len(raw) > 4 or not _DIGITS.fullmatch(raw):
        return None
    value = int(raw)
    return value if 1 <= value <= MAX_QUANTITY else None


# --- commanders named in words (`# Commander: A + B`, front matter) -----------------

# `Commander:`, `Commanders =`, `CDR:`, `CMDR -` at the start of a comment's text.
COMMANDER_LABEL = re.compile(r"(?:commanders?|cdr|cmdr)\s*+[:=]\s*+", re.I)
# Between two names for certain: `+`, `;`, `|`. A match starts at a run of blanks' first
# character, never inside it (linear).
_NAMES_APART = re.compile(r"(?<!\s)\s*+[+;|]\s*+")
# Between two names, or inside one: ` & `, ` and `, ` / ` ("Minsc & Boo, Timeless Heroes",
# "Adrix and Nev, Twincasters"; `Front // Back` is one name: no blank beside a single `/`).
_NAMES_OR_ONE = re.compile(r"(?<!\s)\s++(?:&|and|/)\s++", re.I)
_LEADING_COUNT = re.compile(r"[1-9]\d{0,2}x?\s++")  # `// COMMANDER: 1 Krenko, Mob Boss`
# Text naming more than two names of the longest length names none (nor is looked at).
MAX_NAMED = 2 * MAX_NAME_LENGTH + 10
MAX_READINGS = 4  # the whole text and up to three places to split it


def commander_readings(text: str) -> tuple[tuple[str, ...], ...]:
    """The ways words naming the commander(s) can be read, most likely first: the names
    apart at `+`, `;`, `|`; else the whole text as one name, then the text split at each
    ` & `, ` and `, ` / ` into two. A final remark in parentheses, a leading count and
    quotes around a whole name are dropped. () when the text names nothing or is too long."""
    text = text.strip()
    if not text or len(text) > MAX_NAMED:
        return ()
    if text.endswith(")") and (opening := text.rfind(" (")) > 0:
        text = text[:opening].rstrip()  # `Krenko, Mob Boss (the goblin king)`
    if count := _LEADING_COUNT.match(text):
        text = text[count.end():]
    parts = [_unquoted(part) for part in _NAMES_APART.split(text)]
    parts = [part for part in parts if part]
    if len(parts) != 1:
        return (tuple(parts),) if parts else ()
    (whole,) = parts
    readings: list[tuple[str, ...]] = [(whole,)]
    for separator in _NAMES_OR_ONE.finditer(whole):
        if len(readings) == MAX_READINGS:
            break
        first, second = _unquoted(whole[:separator.start()]), _unquoted(whole[separator.end():])
        if first and second:
            readings.append((first, second))
    return tuple(readings)


def _unquoted(name: str) -> str:
    """A name without quotes around all of it (`"Krenko, Mob Boss"`); quotes inside stay
    (`Miles "Tails" Prower`)."""
    name = name.strip()
    if len(name) > 2 and name[0] == name[-1] and name[0] in "\"'" and name[0] not in name[1:-1]:
        return name[1:-1].strip()
    return name


NOT_A_CARD_LINE = msg("Line {line} is not a card line: \"{text}\"")
TOO_LONG = msg("Line {line} is longer than {most} characters: \"{text}\"", most=MAX_LINE_LENGTH)


class Collector:
    """Accumulates entries, problems and accounted-for lines while a reader runs."""

    __slots__ = ("entries", "problems", "accounted", "candidates", "named_format", "named_commanders")

    def __init__(self) -> None:
        self.entries: list[ListEntry] = []
        self.problems: list[Violation] = []
        self.accounted: list[int] = []
        self.candidates: list[Candidate] = []
        self.named_format: NamedFormat | None = None
        self.named_commanders: NamedCommanders | None = None

    def add(self, name: str, quantity: object, line: int, section: Section = Section.MAIN, **hints: Any) -> None:
        """Record a card; an unparsed_line when the name is longer than any card's, an
        invalid_quantity problem when the quantity is no sane count."""
        if len(name) > MAX_NAME_LENGTH:
            self.too_long_name(line, name)
            return
        count = quantity_of(quantity)
        if count is None:
            self.invalid_quantity(line, quantity, name)
            return
        self.entries.append(ListEntry(name, count, line, section, **hints))

    def too_long_name(self, line: int, name: str) -> None:
        """A "name" longer than MAX_NAME_LENGTH: refused whole, never cut to a shorter one."""
        self.unparsed(line, name, msg("Line {line} names a card of {length} characters (no card name is longer than "
                                      "{most}), so it was not read as one: \"{text}\"", length=len(name),
                                      most=MAX_NAME_LENGTH))

    def invalid_quantity(self, line: int, quantity: object, name: str) -> None:
        """A quantity of 0, a negative one, or one too large to be a count."""
        if quantity is None:
            text = msg("Line {line}: no valid number of copies of {card} (use 1 to {most}); the line was not counted.",
                       line=str(line), card=snippet(name), most=MAX_QUANTITY)
        else:
            text = msg("Line {line}: {quantity} is not a valid number of copies of {card} (use 1 to {most}); the line "
                       "was not counted.", line=str(line), quantity=snippet(str(quantity)), card=snippet(name),
                       most=MAX_QUANTITY)
        self.problems.append(Violation(
            code=Code.INVALID_QUANTITY,
            text=text,
            cards=(name,),
            lines=(line,),
        ))

    def unparsed(self, line: int, text: str, why: Text | None = None) -> None:
        """A non-blank line that is no card entry, header or comment in any known syntax;
        `why` a sentence with `{line}` and `{text}` (the line's start), given here."""
        why = NOT_A_CARD_LINE if why is None else why
        self.problems.append(Violation(
            code=Code.UNPARSED_LINE,
            text=why.given(line=str(line), text=snippet(text)),
            lines=(line,),
        ))

    def take_as_commanders(self, indices: Sequence[int], where: Value | None) -> None:
        """Move those entries to the command zone; with `where`, a commander_inferred
        warning says which cards and from where."""
        for i in indices:
            self.entries[i] = self.entries[i].moved_to(Section.COMMANDER)
        if where is not None:
            names = tuple(self.entries[i].name for i in indices)
            self.warn(Code.COMMANDER_INFERRED,
                      msg("No commander was marked; {cards} taken as commander from {where}.", cards=Names(names),
                          where=where),
                      lines=tuple(self.entries[i].line for i in indices), cards=names)

    def warn(self, code: str, text: Text, lines: tuple[int, ...], cards: tuple[str, ...] = ()) -> None:
        """A warning about the list as a whole (commander_inferred)."""
        self.problems.append(Violation(code, text, Severity.WARNING, cards=cards, lines=lines))

    def propose(self, indices: Iterable[int], source: Value, layout: bool = False) -> None:
        """Offer entries as the commander(s) for assemble to judge with the cards (Candidate)."""
        proposed = tuple(indices)
        if proposed and all(0 <= i < len(self.entries) for i in proposed):
            self.candidates.append(Candidate(proposed, source, layout))

    def name_commanders(self, text: str, line: int) -> bool:
        """The commanders a comment or front matter names in words (the first such text
        counts); False when the text names none."""
        readings = commander_readings(text)
        if readings and self.named_commanders is None:
            self.named_commanders = NamedCommanders(readings, line)
        return bool(readings)

    def propose_side_tail(self, indices: list[int], where: Value) -> None:
        """Exporters that append the commander(s) after real sideboard cards: the last two,
        then the last one, of a side zone holding three or more. Of two (beside 99 cards:
        side_zone_section), both (commander and companion), or either one alone."""
        if len(indices) > 2:
            self.propose(indices[-2:], msg("the last two cards of {where}", where=where))
            self.propose(indices[-1:], msg("the last card of {where}", where=where))
        elif len(indices) == 2:
            self.propose(indices, msg("the two cards of {where}", where=where))
            self.propose(indices[-1:], msg("the last card of {where}", where=where))
            self.propose(indices[:1], msg("the first card of {where}", where=where))

    def name_format(self, text: object, line: int | None = None) -> None:
        """The game format the list names for itself (a site's format field, a `Format:`
        line); the first one named counts. Anything but non-empty text is no name."""
        if self.named_format is None and isinstance(text, str) and text.strip():
            self.named_format = NamedFormat(snippet(text), line)

    def account(self, line: int) -> None:
        """Mark a line as a header, comment or metadata: read, and deliberately no card."""
        self.accounted.append(line)

    def account_rest(self, lines: list[str]) -> None:
        """For whole documents (XML, JSON, CSV): every other non-blank line is markup."""
        used = {e.line for e in self.entries}
        used.update(n for p in self.problems for n in p.lines)
        self.accounted.extend(
            n for n, text in enumerate(lines, 1) if n not in used and text.strip()
        )

    def decklist(self, format: str) -> Decklist:
        """The finished, immutable result."""
        return Decklist(tuple(self.entries), format, tuple(self.problems), tuple(self.accounted),
                        tuple(self.candidates), self.named_format, self.named_commanders)
