"""CSV exports: Scryfall's deck CSV and its look-alikes (one card a row, a header row
naming a name column and a quantity column; a section or board column places the card).
"""

from __future__ import annotations

import csv

from validator.decklist import Section
from validator.parse.common import Collector, heading_section

_QUANTITY_COLUMNS = ("count", "quantity", "qty", "amount")
_CSV_SECTIONS = {"nonlands": Section.MAIN, "lands": Section.MAIN, "outside": Section.SIDEBOARD}


def looks_like_csv(lines: list[str]) -> bool:
    """A header row naming a name column and a quantity column."""
    columns = {cell.strip().strip('"').lower() for cell in lines[0].split(",")} if lines else set()
    return "name" in columns and any(q in columns for q in _QUANTITY_COLUMNS)


def read_csv(lines: list[str], c: Collector) -> str:
    """Read a CSV export: one card a row; a section/board column places it."""
    reader = csv.reader(lines)
    try:
        header = [cell.strip().lower() for cell in next(reader)]
    except (StopIteration, csv.Error):
        c.unparsed(1, lines[0] if lines else "", "is not a readable CSV header")
        return "csv"
    c.account(1)
    for n in range(2, reader.line_num + 1):  # an unclosed quote ran the header over these lines
        if lines[n - 1].strip():
            c.unparsed(n, lines[n - 1], "is inside the CSV header row (is a quote left open?)")
    columns = {name: i for i, name in reversed(list(enumerate(header)))}
    done = reader.line_num
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            c.unparsed(reader.line_num, lines[reader.line_num - 1], f"is not readable CSV ({error})")
            row = None
        # a quoted field may span lines: the record's earlier lines belong to it
        c.accounted.extend(n for n in range(done + 1, reader.line_num) if lines[n - 1].strip())
        if reader.line_num == done:
            break  # the reader made no progress: never loop on the same line
        done = reader.line_num
        if row is not None:
            _csv_row(row, columns, done, lines, c)
    return "scryfall_csv" if "scryfall_id" in columns else "csv"


def _csv_row(row: list[str], columns: dict[str, int], line: int, lines: list[str], c: Collector) -> None:
    """One CSV row: a card, or an unparsed_line when it names none."""
    if not any(cell.strip() for cell in row):
        if lines[line - 1].strip():
            c.account(line)  # a row of empty cells: spreadsheet padding
        return

    def cell(name: str) -> str:
        """The row's value in a column ("" when the column or the cell is missing)."""
        index = columns.get(name)
        return row[index].strip() if index is not None and index < len(row) else ""

    name = cell("name")
    if not name:
        c.unparsed(line, lines[line - 1], "is a CSV row without a card name")
        return
    quantity = next((cell(q) for q in _QUANTITY_COLUMNS if q in columns), "1") or "1"
    if "format" in columns:  # a site's format column names the list's game format
        c.name_format(cell("format"), line)
    where = (cell("section") or cell("board")).lower()
    section = _CSV_SECTIONS.get(where) or heading_section(where) or Section.MAIN
    hints = {"set_code": cell("set_code") or None, "collector_number": cell("collector_number") or None,
             "foil": cell("finish").lower() == "foil"}
    c.add(name, quantity, line, section, **hints)
