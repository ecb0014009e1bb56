"""The catalogs, loaded once a process per language, and a language as validator/messages.py
renders in it: its translations, its plural rules, its way of joining lists and writing
numbers, and card names as printed in it.

A catalog is its compiled .mo when that is at least as new as its .po (`pip install .`, `make
i18n`); otherwise its .po is compiled in memory (a checkout someone just edited), so a stale
.mo is never what answers.
"""

from __future__ import annotations

import io
from functools import cache, lru_cache
from pathlib import Path
from typing import Mapping

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from edh_service.i18n import DEFAULT, LANGUAGES, LOCALES
from validator.messages import ENGLISH, Renderer

DIRECTORY = Path(__file__).parent / "translations"
DOMAIN = "messages"
# Languages written without spaces between sentences.
_UNSPACED = {"ja", "zh-Hans", "zh-Hant"}


def po_path(code: str) -> Path:
    """Where a language's catalog source is."""
    return DIRECTORY / LOCALES[code] / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(code: str) -> NullTranslations:
    """A language's gettext translations (English: none, the message ids are English)."""
    if code == DEFAULT or code not in LANGUAGES:
        return NullTranslations()
    po = po_path(code)
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as file:
            return Translations(file, DOMAIN)
    if not po.exists():
        return NullTranslations()
    with po.open("rb") as file:
        catalog = read_po(file, locale=LOCALES[code], domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, DOMAIN)


@cache
def locale(code: str) -> Locale:
    """A language's Babel locale (lists, numbers, plural rules)."""
    return Locale.parse(LOCALES.get(code, DEFAULT))


SMALL_NUMBERS = 1000  # the counts messages say (cards, copies, lines): formatted once a language each


@lru_cache(maxsize=4096)
def _number(code: str, n: int) -> str:
    """A small number as a language writes it (Babel's format_decimal costs several µs a call)."""
    return format_decimal(n, locale=locale(code))


class Language:
    """validator.messages.Renderer for one language; `names` maps English card names to their
    printed names in it (names it lacks stay English)."""

    __slots__ = ("code", "_translations", "_locale", "_names")

    def __init__(self, code: str, names: Mapping[str, str] | None = None) -> None:
        self.code = code
        self._translations = translations(code)
        self._locale = locale(code)
        self._names = names or {}

    def gettext(self, message: str) -> str:
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._translations.ngettext(singular, plural, n)

    def join(self, items: list[str], style: str) -> str:
        # CLDR's "unit" lists have no separator in some languages (zh: "A + BC + D"): pairs
        # are joined as a plain list there.
        style = "standard" if style == "unit" else style
        if len(items) < 2:
            return "".join(items)
        return format_list(items, style=style, locale=self._locale)  # type: ignore[arg-type]  # a Babel style name

    def number(self, n: int) -> str:
        return _number(self.code, n) if 0 <= n < SMALL_NUMBERS else format_decimal(n, locale=self._locale)

    def card(self, name: str) -> str:
        return self._names.get(name, name)

    def sentences(self, parts: list[str]) -> str:
        return ("" if self.code in _UNSPACED else " ").join(parts)


def language(code: str, names: Mapping[str, str] | None = None) -> Renderer:
    """The renderer of a language: English is validator.messages.ENGLISH itself (so English
    answers are the validator's own words, byte for byte)."""
    if code == DEFAULT:
        return ENGLISH
    return Language(code, names)
