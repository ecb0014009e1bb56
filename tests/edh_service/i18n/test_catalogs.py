"""The catalogs (edh_service/i18n/translations): every language complete, placeholders
identical, and the .pot in step with the code."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.pofile import read_po

from edh_service.i18n import LANGUAGES, LOCALES
from edh_service.i18n.catalogs import DIRECTORY, po_path

TRANSLATED = [code for code in LANGUAGES if code != "en"]
_FIELDS = string.Formatter()


def placeholders(text: str) -> set[str]:
    """The {names} a message formats (a `{{` is a brace, not a placeholder)."""
    return {name for _, name, _, _ in _FIELDS.parse(text) if name is not None}


def catalog(code: str):
    with po_path(code).open("rb") as file:
        return read_po(file, locale=LOCALES[code])


def template():
    with (DIRECTORY / "messages.pot").open("rb") as file:
        return read_po(file)


def entries(code: str):
    return [message for message in catalog(code) if message.id]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(code):
    missing = [message.id for message in entries(code)
               if message.fuzzy or not all(message.string if isinstance(message.string, tuple) else (message.string,))]
    assert missing == [], f"{code}: {len(missing)} untranslated or fuzzy, first: {missing[:3]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_translation_keeps_the_placeholders_of_its_english(code):
    wrong = []
    for message in entries(code):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*map(placeholders, ids))
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if text and placeholders(text) != wanted:
                wrong.append((ids[0], text))
    assert wrong == [], f"{code}: {wrong[:3]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_language_holds_every_message_of_the_template(code):
    wanted = {message.id for message in template() if message.id}
    assert wanted - {message.id for message in entries(code)} == set()


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_messages_have_every_form_the_language_has(code):
    translations = catalog(code)
    short = [message.id[0] for message in entries(code) if isinstance(message.id, tuple)
             and len(message.string) != translations.num_plurals]
    assert short == []


def test_the_template_holds_what_the_code_says():
    """`make i18n` was run after the last change of a message (a placeholder typo would show)."""
    ids = {message.id if isinstance(message.id, str) else message.id[0] for message in template() if message.id}
    assert "{card} is banned in {format}." in ids
    assert "{n} Game Changer ({cards}): bracket 3 allows at most {most}." in ids
    assert all(re.fullmatch(r"[^{}]*(\{[a-z_]+\}[^{}]*)*", text) for text in ids), "a malformed placeholder"
