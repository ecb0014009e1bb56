"""Where an exported card's name sits in a multi-line JSON document: the line of the first
string equal to it, found in one lazy pass over the document's strings."""

from __future__ import annotations

import bisect
import json
import re
from itertools import accumulate

# A JSON string literal, unrolled so it reads each character once. json.loads accepted
# the text (no raw line breaks inside a string), so searched from the start the matches
# are exactly the document's strings, keys included.
_STRING = re.compile(r'"([^"\\]*+(?:\\.[^"\\]*+)*+)"')


class LineFinder:
    """Line of the first string in the document equal to a name (1 when there is none, or
    the text is one line). The strings are read once, lazily, as far as the names asked for
    need: searching the text from its start for each name was quadratic (15,000 distinct
    names in a Moxfield export took 7-23 s)."""

    def __init__(self, text: str, prefer_names: bool = False) -> None:
        # where each line starts (None: one line, every entry is on line 1)
        self.starts = list(accumulate((len(line) + 1 for line in text.split("\n")), initial=0)) if "\n" in text else None
        self.text = text
        self.strings = _STRING.finditer(text)
        self.offsets: dict[str, int] = {}  # decoded string -> where it first starts, for the strings read so far
        # with prefer_names: decoded string -> where it is first the value of a "name" key
        self.named: dict[str, int] | None = {} if prefer_names else None
        self.name_key_end = -1  # where the last "name" key read ends

    def __call__(self, *values: object) -> int:
        """1-based line of the first string equal to the first of `values` the document
        holds (strings only; others are skipped); with prefer_names, its first occurrence
        as a `"name"` value when it has one."""
        if self.starts is None:
            return 1
        wanted = [value for value in values if isinstance(value, str) and value]
        offsets, named = self.offsets, self.named
        found = named if named is not None else offsets
        if not any(value in found for value in wanted):
            for match in self.strings:
                raw = match[1]
                string = json.loads(match[0]) if "\\" in raw else raw
                new = string not in offsets
                if new:
                    offsets[string] = match.start()
                if named is not None:  # read on until the string is a "name" value
                    new = self.name_key_end >= 0 and string not in named \
                        and self.text[self.name_key_end:match.start()].strip() == ":"
                    if new:
                        named[string] = match.start()
                    self.name_key_end = match.end() if raw == "name" else -1
                if new and string in wanted:
                    break
        at = next((found.get(value, offsets.get(value)) for value in wanted if value in offsets), None)
        return 1 if at is None else bisect.bisect_right(self.starts, at)
