"""Every text the API, edh-validate, the deck sites and the house rules write is in every language's catalog
(DESIGN.md "Answers in the player's language"): translated, not fuzzy, with the English
string's placeholders, and plurals in each of the language's forms. The texts are found as
`make i18n` finds them (babel.cfg's keywords), so a new text without its translations fails
here, not in front of a player."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

from edh_service.i18n import LANGUAGES, LOCALES
from edh_service.i18n.catalogs import po_path

ROOT = Path(__file__).resolve().parents[2]
# The parts of the service whose texts this suite answers for (the validator's and the page's
# have their own); the Makefile's extraction keywords.
SOURCES = ("edh_service/api", "edh_service/cli", "edh_service/serving", "card_data/sites")
FILES = ("edh_service/house_rules.py", "edh_service/house_profiles.py")
KEYWORDS = {**DEFAULT_KEYWORDS, "msg": None, "nmsg": (1, 2), "Term": None}
PLACEHOLDER = re.compile(r"\{[A-Za-z_]+\}")


def service_texts() -> set[str | tuple[str, str]]:
    found: set = set()
    for source in SOURCES:
        for _, _, message, _, _ in extract_from_dir(ROOT / source, method_map=[("**.py", "python")],
                                                   keywords=KEYWORDS, strip_comment_tags=True):
            found.add(message if isinstance(message, str) else tuple(message[:2]))
    for path in FILES:
        for _, message, _, _ in extract_from_file("python", ROOT / path, keywords=KEYWORDS):
            found.add(message if isinstance(message, str) else tuple(message[:2]))
    return found


TEXTS = service_texts()


def test_the_service_writes_texts_to_translate():
    assert len(TEXTS) > 80 and "The request does not have the expected shape." in TEXTS


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_service_text_is_translated_in_every_language(lang):
    with po_path(lang).open("rb") as file:
        catalog = read_po(file, locale=LOCALES[lang])
    problems = []
    for text in sorted(TEXTS, key=str):
        key = text if isinstance(text, str) else text[0]
        message = catalog.get(key)
        if message is None or message.fuzzy:
            problems.append(f"missing or fuzzy: {key!r}")
            continue
        english = PLACEHOLDER.findall(text if isinstance(text, str) else text[1])
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if isinstance(text, tuple) and len(strings) != catalog.num_plurals:
            problems.append(f"{catalog.num_plurals} plural forms wanted: {key!r}")
        for string in strings:
            if not string:
                problems.append(f"empty: {key!r}")
            elif sorted(set(PLACEHOLDER.findall(string))) != sorted(set(english)):
                problems.append(f"placeholders differ: {key!r} -> {string!r}")
    assert problems == []
