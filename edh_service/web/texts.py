"""The page's words in the request's language (DESIGN.md "Answers in the player's language").

The templates translate their own texts (`_()`, `ngettext`); this module holds what they and
the views share: the words of data the engine keeps in English (color and card type names,
the languages a name was printed in), numbers and dates the language's way, the language
menu, and every text static/app.js writes, handed to it as JSON in the page's language
(`script_texts`), so the script holds no English of its own.
"""

from __future__ import annotations

from datetime import datetime, timezone
from functools import cache
from typing import Callable

from babel import Locale
from babel.dates import format_date, format_time, get_datetime_format
from babel.numbers import format_decimal
from flask_babel import gettext, npgettext

from card_data.names.printed import LANGUAGE_NAMES
from edh_service.i18n import DEFAULT, LANGUAGES, LOCALES
from edh_service.i18n.app import request_language


def N_(message: str) -> str:
    """Mark a text for the catalog (make i18n) where it is defined; gettext it where shown."""
    return message


# validator.overview.COLOR_NAMES and TYPE_ORDER (plus the rarer types a deck may hold).
COLOR_WORDS = {"W": N_("White"), "U": N_("Blue"), "B": N_("Black"), "R": N_("Red"), "G": N_("Green"),
               "C": N_("Colorless")}
TYPE_WORDS = (N_("Creature"), N_("Planeswalker"), N_("Battle"), N_("Instant"), N_("Sorcery"), N_("Artifact"),
              N_("Enchantment"), N_("Land"), N_("Kindred"))
# Scryfall's language codes that are no CLDR language: Babel names the rest in every language.
_CLDR_LANGUAGE = {"zhs": "zh_Hans", "zht": "zh_Hant"}
_UNNAMED = {"ph": N_("Phyrexian")}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def role(word: str, n: int) -> str:
    """A format's word for its commanders (Format.role), capitalized, by count: "Commander",
    "Oathbreakers"."""
    if word == "oathbreaker":
        return npgettext("role", "Oathbreaker", "Oathbreakers", n)
    return npgettext("role", "Commander", "Commanders", n)


def commander_label() -> str:
    """The form's Commander field."""
    return role("commander", 1)


def language() -> str:
    """The page's language (edh_service.i18n code: "es", "zh-Hant")."""
    return request_language()


def _locale() -> Locale:
    return _babel_locale(language())


@cache
def _babel_locale(code: str) -> Locale:
    return Locale.parse(LOCALES.get(code, DEFAULT))


def color_name(letter: str) -> str:
    """A color letter's name ("W" -> "White", "Blanco")."""
    return gettext(COLOR_WORDS[letter]) if letter in COLOR_WORDS else letter


def color_names() -> dict[str, str]:
    """Every color letter's name, for the pips and the charts."""
    return {letter: gettext(word) for letter, word in COLOR_WORDS.items()}


def type_name(kind: str) -> str:
    """A card type as the page shows it ("Creature" -> "Criatura"); a type the catalog lacks as it is."""
    return gettext(kind) if kind in TYPE_WORDS else kind


def printed_language(code: str) -> str:
    """The name of a language a card name was printed in (Scryfall's code), in the page's
    language: "es" -> "Spanish", "español", "スペイン語"."""
    if code in _UNNAMED:
        return gettext(_UNNAMED[code])
    if language() == DEFAULT:
        return LANGUAGE_NAMES.get(code, code)
    return _locale().languages.get(_CLDR_LANGUAGE.get(code, code)) or LANGUAGE_NAMES.get(code, code)


def number(n: int) -> str:
    """A number written the language's way ("12,345", "12.345", "12 345")."""
    return format_decimal(n, locale=_locale())


def readable_date(stamp: str) -> str:
    """An ISO 8601 timestamp as a person reads it, in UTC, in words of the page's language:
    "2026-11-30T10:04:21+00:00" -> "30 Nov 2026, 10:04 UTC", "30 de noviembre de 2026, 10:04
    UTC", "2026年11月30日 10:04 UTC"; a stamp that is no timestamp as it stands."""
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    if language() == DEFAULT:  # the footer's English, as it always read (not the process locale's)
        return f"{moment.day} {MONTHS[moment.month - 1]} {moment.year}, {moment:%H:%M} UTC"
    locale = _locale()
    when = get_datetime_format("long", locale=locale).format(  # type: ignore[operator]  # a pattern, a str
        format_time(moment, "HH:mm", locale=locale), format_date(moment, "long", locale=locale))
    return f"{when} UTC"


def plural_forms(said: Callable[[int], str]) -> dict[str, str]:
    """A plural text as app.js picks it: CLDR plural category ("one", "few", "many",
    "other"; what the browser's Intl.PluralRules answers) -> the catalog's form for it.
    `said(n)` is the text's ngettext for n; a category is sampled with its first number."""
    rule = _locale().plural_form
    forms: dict[str, str] = {}
    for n in range(0, 1000):
        forms.setdefault(rule(n), said(n))
    forms.setdefault("other", said(1000))
    return forms


def language_menu() -> list[dict]:
    """The language menu: each language in its own name, the page's marked."""
    here = language()
    return [{"code": code, "name": name, "current": code == here} for code, name in LANGUAGES.items()]
