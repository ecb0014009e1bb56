"""A card line's decorations, peeled off around its name: MTGGoldfish's exact versions
(`<variant> [SET] (F)`), XMage's leading `[SET:num]`, Archidekt's `[Category{flags}]` and
`^label^`, Moxfield's `*CMDR*`/`*F*`, taw's `[foil]`, Arena's `(SET) num` and Forge's
`|SET|art`. Each one reads the end (or start) of the line only: linear, whatever the line.
"""

from __future__ import annotations

import re
from typing import Any

from validator.decklist import Section

# Arena/Moxfield printing, tried only from the last "(" so Un-names with parentheses
# ("Erase (Not the Urza's Legacy One)") are left alone.
_PRINTING = re.compile(r"\(([A-Za-z0-9]{2,6})\)(?:\s+(\S+))?")
_SET_NUMBER = re.compile(r"([A-Za-z0-9]{2,8}):(\S+)")  # XMage [C21:263], taw [MOC:1]
_SET_CODE = re.compile(r"[A-Za-z0-9]{2,8}")
_FLAG = re.compile(r"\{(\w+)\}")
# Archidekt's first category names the pile; these piles are not the main deck.
_CATEGORY_SECTIONS = {
    "commander": Section.COMMANDER,
    "oathbreaker": Section.COMMANDER,
    "signature spell": Section.SIGNATURE,
    "companion": Section.COMPANION,
    "sideboard": Section.SIDEBOARD,
    "maybeboard": Section.MAYBEBOARD,
    "considering": Section.MAYBEBOARD,
}  # any other category is the user's own (`[Ramp]`, `[Tokens]`): part of the deck
# Markers, labels and categories read after one name; real lines carry three at most
# (`1 Sol Ring [Ramp{top}] ^Have,#37d67a^ *F*`).
MAX_DECORATIONS = 8
# MTGGoldfish's "exact versions": `1 Name <variant> [SET] (F)`; the variant is a word or
# two (`<extended>`, `<showcase - Scroll>`) or a collector number (`<285>`).
_GOLDFISH_FINISH = {" (F)": "foil", " (E)": "etched"}
# its set code alone, `1 Island [ZNR]`: capitals and digits (an Archidekt category has a
# lower-case letter: `[Ramp]`, `[Land{noDeck}]`)
_GOLDFISH_SET = re.compile(r" \[[A-Z0-9]{2,6}\]$")
MAX_VARIANT = 40
# Forge `|SET|art`. Possessive blanks: `\s*\d*\s*` before a non-digit tried every split of
# a run of blanks (1,000 lines `1 A|AB|` + 990 spaces + `Z` took 31 s); blanks, digits,
# blanks can be read one way only, so nothing is lost by never giving any back.
FORGE_PRINTING = re.compile(r"\|\s*+([A-Za-z0-9]{2,8})\s*+(?:\|\s*+\d*+\s*+)?")


def peel(rest: str, hints: dict[str, Any], seen: set[str]) -> tuple[str, Section | None]:
    """The name left once every decoration is off, and the section a marker gives (None:
    no marker). `hints` collects the printing and finish; `seen` the dialects spotted."""
    if rest.endswith((" (F)", " (E)", ">", "]")) and (rest[-1] != "]" or _GOLDFISH_SET.search(rest)) or "<" in rest:
        rest = _goldfish_version(rest, hints)
    rest = _leading_printing(rest, hints, seen)
    rest, section = _strip_decorations(rest, hints, seen)
    return _strip_printing(rest, hints, seen), section


def _goldfish_version(rest: str, hints: dict[str, Any]) -> str:
    """MTGGoldfish's exact versions, `Name <variant> [SET] (F)`: the finish, the set code and
    the variant (a collector number, or a word such as `extended`) peeled off the end. What
    does not fit is left, and judged as any other name."""
    for suffix, finish in _GOLDFISH_FINISH.items():
        if rest.endswith(suffix):
            hints[finish] = True
            rest = rest[: -len(suffix)].rstrip()
            break
    if rest.endswith("]") and (opening := rest.rfind("[")) > 0 and _SET_CODE.fullmatch(rest, opening + 1, len(rest) - 1):
        hints.setdefault("set_code", rest[opening + 1 : -1])
        rest = rest[:opening].rstrip()
    if rest.endswith(">") and (opening := rest.rfind("<")) > 0 and len(rest) - opening <= MAX_VARIANT:
        variant = rest[opening + 1 : -1].strip()
        if variant.isdigit():
            hints.setdefault("collector_number", variant)
        rest = rest[:opening].rstrip()
    return rest


def _leading_printing(rest: str, hints: dict[str, Any], seen: set[str]) -> str:
    """XMage puts the printing before the name: `[C21:263] Sol Ring`."""
    if rest.startswith("["):
        close = rest.find("]")
        printing = _SET_NUMBER.fullmatch(rest, 1, close) if close > 0 else None
        if printing:
            seen.add("xmage")
            _set_printing(hints, printing[1], printing[2])
            return rest[close + 1 :].strip()
        if close > 0 and _SET_CODE.fullmatch(rest, 1, close):  # deckstats / MWS `[KLD] Name`
            _set_printing(hints, rest[1:close], None)
            return rest[close + 1 :].strip()
    return rest


def _strip_decorations(rest: str, hints: dict[str, Any], seen: set[str]) -> tuple[str, Section | None]:
    """Peel trailing `^label^`, `[...]` groups and `*X*` markers off, right to left, at
    most MAX_DECORATIONS of them (what is left then still ends in one, and is no name).

    String searches, not regexes: each step looks at the end of the line only, so a
    hostile line costs linear time; the bound keeps it a few steps (330 `[a]` on each of
    1,000 lines cost 0.8 s).
    """
    section: Section | None = None
    for _ in range(MAX_DECORATIONS):
        if rest.endswith("^") and (start := rest.rfind("^", 0, len(rest) - 1)) >= 0:
            rest = rest[:start].rstrip()  # Archidekt color label `^Test,#2ccce4^`
            seen.add("archidekt")
        elif rest.endswith("]") and (start := rest.rfind("[")) >= 0:
            section = _bracket(rest[start + 1 : -1], hints, seen) or section
            rest = rest[:start].rstrip()
        elif rest.endswith("*") and (start := rest.rfind("*", 0, len(rest) - 1)) >= 0 \
                and rest[start + 1 : -1].isalpha() and len(rest) - start <= 8:
            section = _marker(rest[start + 1 : -1].upper(), hints) or section
            seen.add("moxfield")
            rest = rest[:start].rstrip()
        else:
            break
    return rest, section


def _bracket(tag: str, hints: dict[str, Any], seen: set[str]) -> Section | None:
    """A trailing `[...]`: taw `[foil]`/`[etched]`/`[SET:num]`, else Archidekt categories."""
    lowered = tag.strip().lower()
    if lowered in ("foil", "etched"):
        hints[lowered] = True
        return None
    printing = _SET_NUMBER.fullmatch(tag.strip())
    if printing:
        _set_printing(hints, printing[1], printing[2])
        return None
    seen.add("archidekt")
    first = tag.split(",", 1)[0]  # Archidekt: the first category is the pile
    flags = {flag.lower() for flag in _FLAG.findall(first)}
    category = first.split("{", 1)[0].strip().lower()
    if "nodeck" in flags:  # {noDeck}: listed, but not in the deck
        return Section.MAYBEBOARD if category in ("maybeboard", "considering") else Section.SIDEBOARD
    return _CATEGORY_SECTIONS.get(category)


def _marker(marker: str, hints: dict[str, Any]) -> Section | None:
    """Moxfield markers: *CMDR* commander, *F* foil, *E* etched (others are cosmetic)."""
    if marker == "CMDR":
        return Section.COMMANDER
    if marker in ("F", "E"):
        hints["foil" if marker == "F" else "etched"] = True
    return None


def _strip_printing(rest: str, hints: dict[str, Any], seen: set[str]) -> str:
    """Remove Arena's `(SET) number` and Forge's `|SET|art`; what is left is the name."""
    opening = rest.rfind("(")
    if opening > 0:
        printing = _PRINTING.fullmatch(rest, opening)
        if printing:
            _set_printing(hints, printing[1], printing[2])
            seen.add("arena")
            rest = rest[:opening].rstrip()
    if "|" in rest:
        bar = rest.find("|")
        forge = FORGE_PRINTING.fullmatch(rest, bar)
        if forge:  # anything else after a bar is left in, and the name is rejected
            _set_printing(hints, forge[1], None)
            seen.add("forge")
            rest = rest[:bar].rstrip()
    return rest


def _set_printing(hints: dict[str, Any], set_code: str, number: str | None) -> None:
    """Keep the first printing hint seen; `*` (taw: any basic) is no collector number."""
    hints.setdefault("set_code", set_code)
    if number and number != "*":
        hints.setdefault("collector_number", number)
