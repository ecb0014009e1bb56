"""CSV exports: Scryfall's deck CSV and its look-alikes (one card a row under a header row).

The header decides everything, whatever order its columns come in: the name column
(`Name`, `Card`, `Card Name`), the quantity (`Count`, `Quantity`, `Qty`, `Amount`; none:
one copy a row), where a card goes (a `Section`/`Board` column: main, side, maybe, or a
letter such as `C` for the commander against `M` for the main deck; a `Commander` column
of `True`), the format. `,`, `;` and tab separate; a quoted field may follow a blank
(`, "Flying, first strike",`). The header row is never a card.
"""

from __future__ import annotations

import csv
from typing import Callable

from validator.decklist import Section
from validator.messages import msg
from validator.parse.common import MAX_LINE_LENGTH, Collector, clean_text, heading_section, snippet
from validator.violations import Code

_NAME_COLUMNS = ("name", "card name", "card", "cardname", "card_name")
_QUANTITY_COLUMNS = ("count", "quantity", "qty", "amount", "copies")
_SECTION_COLUMNS = ("section", "board", "zone", "category")
_COMMANDER_COLUMNS = ("commander", "is commander", "is_commander", "iscommander", "cmdr")
# Other columns the exports carry: one of them beside a name column makes a header row.
_OTHER_COLUMNS = frozenset({
    "format", "set", "set_code", "set code", "edition", "collector_number", "collector number", "number",
    "foil", "finish", "type", "type_line", "mana_cost", "mana cost", "cmc", "mana value", "rarity", "lang",
    "language", "artist", "price", "usd_price", "eur_price", "tix_price", "scryfall_id", "scryfall_uri", "id",
    "condition", "tags", "notes", "color", "colors",
})
_KNOWN_COLUMNS = frozenset((*_QUANTITY_COLUMNS, *_SECTION_COLUMNS, *_COMMANDER_COLUMNS)) | _OTHER_COLUMNS
_DELIMITERS = (",", ";", "\t")
# Section values beyond the header words (common.HEADERS): Scryfall's, and one-letter codes.
_CSV_SECTIONS = {
    "nonlands": Section.MAIN, "lands": Section.MAIN, "outside": Section.SIDEBOARD,
    "m": Section.MAIN, "mb": Section.MAIN, "c": Section.COMMANDER, "cmdr": Section.COMMANDER,
    "s": Section.SIDEBOARD, "sb": Section.SIDEBOARD,
}
_TRUE = frozenset({"true", "yes", "y", "1", "x"})


def _cells(line: str, delimiter: str) -> list[str]:
    """A header line's cells, lower case, blanks and quotes around each removed."""
    return [cell.strip().strip('"').strip().lower() for cell in line.split(delimiter)]


def csv_header(lines: list[str]) -> tuple[int, str] | None:
    """(index, delimiter) of the header row when the first non-blank line is one: a name
    column and another column an export carries, split by `,`, `;` or a tab; else None."""
    index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if index is None or len(lines[index]) > MAX_LINE_LENGTH:
        return None
    line = lines[index]
    for delimiter in _DELIMITERS:
        if delimiter in line:
            cells = set(_cells(line, delimiter))
            if any(name in cells for name in _NAME_COLUMNS) and cells & _KNOWN_COLUMNS:
                return index, delimiter
    return None


def looks_like_csv(lines: list[str]) -> bool:
    """A header row naming a name column and another known column (csv_header)."""
    return csv_header(lines) is not None


def read_csv(lines: list[str], c: Collector) -> str:
    """Read a CSV export: one card a row, placed by its section, board or commander column."""
    start, delimiter = csv_header(lines) or (0, ",")
    offset = start  # the reader numbers its lines from the header's
    reader = csv.reader(lines[start:], delimiter=delimiter, skipinitialspace=True)
    try:
        header = [cell.strip().lower() for cell in next(reader)]
    except (StopIteration, csv.Error):
        c.unparsed(start + 1, lines[start] if lines else "", msg("Line {line} is not a readable CSV header: \"{text}\""))
        return "csv"
    c.account(start + 1)
    for n in range(2, reader.line_num + 1):  # an unclosed quote ran the header over these lines
        if lines[offset + n - 1].strip():
            c.unparsed(offset + n, lines[offset + n - 1],
                       msg("Line {line} is inside the CSV header row (is a quote left open?): \"{text}\""))
    columns = _Columns(header)
    assumed: list[tuple[int, str, str]] = []  # (line, quantity as typed, name) counted as one copy
    done = reader.line_num
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            c.unparsed(offset + reader.line_num, lines[offset + reader.line_num - 1],
                       msg("Line {line} is not readable CSV ({error}): \"{text}\"", error=clean_text(str(error))))
            row = None
        # a quoted field may span lines: the record's earlier lines belong to it
        c.accounted.extend(offset + n for n in range(done + 1, reader.line_num) if lines[offset + n - 1].strip())
        if reader.line_num == done:
            break  # the reader made no progress: never loop on the same line
        done = reader.line_num
        if row is not None:
            _csv_row(row, columns, offset + done, lines, c, assumed)
    if assumed:
        _warn_assumed(assumed, c)
    return "scryfall_csv" if "scryfall_id" in columns.index else "csv"


class _Columns:
    """Where each column the reader uses is in the header (the first of each name)."""

    def __init__(self, header: list[str]) -> None:
        self.index = {name: i for i, name in reversed(list(enumerate(header)))}
        self.name = self._first(_NAME_COLUMNS)
        self.quantity = self._first(_QUANTITY_COLUMNS)
        self.sections = [self.index[name] for name in _SECTION_COLUMNS if name in self.index]
        self.commander = self._first(_COMMANDER_COLUMNS)
        self.format = self.index.get("format")
        self.set_code = self._first(("set_code", "set code"))
        self.number = self._first(("collector_number", "collector number"))
        self.finish = self._first(("finish", "foil"))

    def _first(self, names: tuple[str, ...]) -> int | None:
        """The index of the first of these columns the header has."""
        return next((self.index[name] for name in names if name in self.index), None)


def _csv_row(row: list[str], columns: _Columns, line: int, lines: list[str], c: Collector,
             assumed: list[tuple[int, str, str]]) -> None:
    """One CSV row: a card, or an unparsed_line when it names none."""
    if not any(cell.strip() for cell in row):
        if lines[line - 1].strip():
            c.account(line)  # a row of empty cells: spreadsheet padding
        return

    def cell(index: int | None) -> str:
        """The row's value in a column ("" when the column or the cell is missing)."""
        return row[index].strip() if index is not None and index < len(row) else ""

    name = cell(columns.name)
    if not name:
        c.unparsed(line, lines[line - 1], msg("Line {line} is a CSV row without a card name: \"{text}\""))
        return
    quantity = cell(columns.quantity) if columns.quantity is not None else "1"
    if not quantity.lstrip("-").isdigit():  # NULL, empty, "n/a": a row is at least one copy
        assumed.append((line, quantity, name))
        quantity = "1"
    if columns.format is not None:  # a site's format column names the list's game format
        c.name_format(cell(columns.format), line)
    section = _section(row, columns, cell)
    finish = cell(columns.finish).lower()
    hints = {"set_code": cell(columns.set_code) or None, "collector_number": cell(columns.number) or None,
             "foil": finish == "foil" or finish in _TRUE}
    c.add(name, quantity, line, section, **hints)


def _section(row: list[str], columns: _Columns, cell: Callable[[int], str]) -> Section:
    """Where a row's card goes: a true Commander column, else its section or board value."""
    if columns.commander is not None and cell(columns.commander).lower() in _TRUE:
        return Section.COMMANDER
    for index in columns.sections:
        where = cell(index).lower()
        if where:
            return _CSV_SECTIONS.get(where) or heading_section(where) or Section.MAIN
    return Section.MAIN


def _warn_assumed(assumed: list[tuple[int, str, str]], c: Collector) -> None:
    """quantity_assumed: the rows whose quantity is no number, each counted as one copy."""
    shown = sorted({repr(snippet(quantity)) if quantity else "empty" for _, quantity, _ in assumed})
    lines = tuple(line for line, _, _ in assumed)
    quantities = ", ".join(shown[:5])
    if len(lines) == 1:
        text = msg("Line {line}: the quantity ({quantities}) is not a number, so one copy was counted for the row.",
                   line=str(lines[0]), quantities=quantities)
    elif len(lines) <= 10:
        text = msg("Lines {lines}: the quantity ({quantities}) is not a number, so one copy was counted for each row.",
                   lines=", ".join(map(str, lines)), quantities=quantities)
    else:
        text = msg("Lines {lines} and {more} more: the quantity ({quantities}) is not a number, so one copy was "
                   "counted for each row.", lines=", ".join(map(str, lines[:10])), more=len(lines) - 10,
                   quantities=quantities)
    c.warn(Code.QUANTITY_ASSUMED,
           text,
           lines=lines, cards=tuple(sorted({snippet(name) for _, _, name in assumed})))
