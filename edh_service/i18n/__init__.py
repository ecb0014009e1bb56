"""Answers in the player's language (DESIGN.md "Answers in the player's language"): which
languages there are, how a request chooses one, and its catalog.

The catalogs are gettext's, one domain ("messages") for every text the service writes: the
validator's message ids (validator/messages.py), the API's and CLI's texts and the page's
templates. `make i18n` extracts them (babel.cfg) into translations/messages.pot and updates
each language's .po; `pip install .` compiles them to .mo (scripts/build_backend.py), and a
checkout whose .mo is missing or older than its .po reads the .po itself (catalogs.py).

May import: validator, its own modules. Nothing in edh_service imports below it.
"""

from __future__ import annotations

import re

DEFAULT = "en"

# The languages answers are written in (Scryfall's printed languages), each with its name in
# itself (the page's menu), the Babel locale its catalog is filed under, and the language
# code of Scryfall's printed names (the names table) its card names come from.
LANGUAGES: dict[str, str] = {
    "en": "English", "es": "Español", "de": "Deutsch", "fr": "Français", "it": "Italiano",
    "pt": "Português", "ja": "日本語", "ko": "한국어", "ru": "Русский", "zh-Hans": "简体中文",
    "zh-Hant": "繁體中文",
}
LOCALES = {code: code.replace("-", "_") for code in LANGUAGES}
PRINTED = {"en": "en", "es": "es", "de": "de", "fr": "fr", "it": "it", "pt": "pt", "ja": "ja", "ko": "ko",
           "ru": "ru", "zh-Hans": "zhs", "zh-Hant": "zht"}

# Chinese tags name a script or a region: Traditional for Taiwan, Hong Kong and Macau.
_TRADITIONAL = {"hant", "tw", "hk", "mo"}
_TAG = re.compile(r"^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$")
MAX_TAG = 64  # longer is no language tag anyone sends
MAX_ACCEPT_ITEMS = 32  # an Accept-Language header's first entries; the rest are never read


def supported(tag: object) -> str | None:
    """The supported language a tag means ("es-MX" -> "es", "zh-TW" -> "zh-Hant", "pt-BR" ->
    "pt"), or None: its chain is followed down to the language, never an error."""
    if not isinstance(tag, str) or len(tag) > MAX_TAG or not _TAG.match(tag.strip()):
        return None
    parts = tag.strip().replace("_", "-").lower().split("-")
    if parts[0] == "zh":
        return "zh-Hant" if _TRADITIONAL.intersection(parts[1:]) else "zh-Hans"
    return parts[0] if parts[0] in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The best supported language of an Accept-Language header (quality values honoured,
    ties in the header's order; q=0 never), or None."""
    if not header:
        return None
    best, best_q = None, 0.0
    for item in header.split(",", MAX_ACCEPT_ITEMS)[:MAX_ACCEPT_ITEMS]:
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value)
            except ValueError:
                continue
            if not 0 <= quality <= 1:
                continue
        code = supported(tag)
        if code is not None and quality > best_q:
            best, best_q = code, quality
    return best


def choose(*, field: object = None, query: object = None, cookie: object = None,
           accept: str | None = None) -> str:
    """The answer's language: the request's `lang` field, else `?lang=`, else the page's cookie,
    else Accept-Language, else English. The first of them given decides: a tag no language
    supports falls back to English, never an error."""
    for tag in (field, query, cookie):
        if tag is not None and tag != "":
            return supported(tag) or DEFAULT
    return from_accept_language(accept) or DEFAULT
