"""Output that a hostile file cannot turn into structure (issue 19): card names, messages
and paths are data, so every field of every format and every stderr line of `edh-validate`
goes through printable(): no name can start a line of its own (a GitHub workflow command,
a fake annotation), move a terminal's cursor or reorder the text around it.
"""

from __future__ import annotations

import os
import re

# What a terminal, a CI log or a reader of lines takes for structure rather than text: C0
# and C1 controls (CR, LF, ESC, NEL...) and DEL; the line and paragraph separators; the
# bidi marks, embeddings, overrides and isolates; lone surrogates (a file name's bytes
# that are not UTF-8: printing them raised UnicodeEncodeError); the noncharacters XML 1.0
# cannot carry; and "##[", which the GitHub runner reads as a (legacy) workflow command
# anywhere in a line.
UNPRINTABLE = re.compile("##\\[|[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                         "\ud800-\udfff\ufffe\uffff]")
SHORT_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "##[": "##\\x5b"}


def printable(text: str) -> str:
    """The text with each character of UNPRINTABLE shown as its escape (\\n, \\x1b,
    \\u2028) and "##[" as "##\\x5b": one line of plain text, whatever it held."""
    return UNPRINTABLE.sub(lambda match: SHORT_ESCAPES.get(match.group()) or escape_code(match.group()), text)


def escape_code(character: str) -> str:
    """'\\x1b' or '\\u2028': a character as Python writes it in a string literal."""
    code = ord(character)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown_path(path: str) -> str:
    """A path as the outputs name it: "./" before a relative path that would begin its
    line with blanks or ':' (the runner trims leading blanks and reads "::" as a command)."""
    return f".{os.sep}{path}" if path[:1] == ":" or path[:1].isspace() else path


# UNPRINTABLE less the C0 controls: json.dumps escapes those inside strings, and its own
# indentation's line breaks are structure.
JSON_UNPRINTABLE = re.compile("##\\[|[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                              "\ud800-\udfff\ufffe\uffff]")


def json_escape(match: re.Match) -> str:
    """A JSON string escape for one UNPRINTABLE match ("##[" as "#\\u0023[")."""
    text = match.group()
    return "#\\u0023[" if text == "##[" else f"\\u{ord(text):04x}"
