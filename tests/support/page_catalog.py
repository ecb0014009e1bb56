"""The page's part of the catalogs: the texts edh_service/web writes (its Python modules and
templates, extracted as `make i18n` does), and each language's translations of them, read from
the .po files. The page's tests check that each is translated and that none shows in English."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from edh_service.i18n import LANGUAGES, LOCALES
from edh_service.i18n.catalogs import po_path
from validator.formats import FORMATS

WEB = Path(__file__).resolve().parents[2] / "edh_service" / "web"
OTHER_LANGUAGES = tuple(code for code in LANGUAGES if code != "en")
PLACEHOLDER = re.compile(r"%\(\w+\)s|%%|\{\w+\}")  # Flask-Babel's and validator.messages' (msg)
# Format names the page shows as names ("Commander", "Oathbreaker"): the role words that are
# spelled the same ("Commander" the card, "Oathbreaker" the card) are not looked for.
FORMAT_NAMES = frozenset(f.name for f in FORMATS)


@cache
def page_messages() -> tuple[tuple[str | tuple[str, str], str | None], ...]:
    """(msgid or (singular, plural), context) of every text the page writes."""
    found = extract_from_dir(str(WEB), method_map=[("**.py", "python"), ("**/templates/**.html", "jinja2")],
                             keywords={**DEFAULT_KEYWORDS, "msg": None})
    keys = {}
    for _, _, message, _, context in found:
        keys[(message if isinstance(message, str) else tuple(message[:2]), context)] = None
    return tuple(keys)


@cache
def translations(code: str) -> dict:
    """(msgid, context) -> the language's translation (a tuple of forms for a plural text)."""
    with po_path(code).open("rb") as file:
        catalog = read_po(file, locale=LOCALES[code])
    return {(message.id, message.context): message for message in catalog if message.id}


def placeholders(text: str) -> list[str]:
    """A text's `%(name)s` and `{name}` placeholders and `%%`, sorted."""
    return sorted(PLACEHOLDER.findall(text))


def english_left(code: str) -> list[str]:
    """The page's English texts whose translation in `code` differs from them: what must never
    show on a page in that language (a text its language writes the same way, such as Spanish
    "Legal", may). Each as a pattern (placeholders as any text); texts with no English word
    (punctuation around placeholders) are left out."""
    patterns = []
    catalog = translations(code)
    for key in page_messages():
        message = catalog.get(key)
        texts = key[0] if isinstance(key[0], tuple) else (key[0],)
        strings = message.string if message and isinstance(message.string, tuple) else (message.string,) if message else ()
        for text in texts:
            literal = PLACEHOLDER.sub(" ", text)
            if text in strings or text in FORMAT_NAMES or not re.search(r"[A-Za-z]{2,}", literal):
                continue
            parts = [re.escape(part) for part in PLACEHOLDER.split(text.replace("%%", "%"))]
            patterns.append(r"(?<!\w)" + r".{1,80}?".join(parts) + r"(?!\w)")
    return patterns
