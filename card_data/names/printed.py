"""Names printed in other languages: card objects -> (key, tier, language, English card) rows.

Pure functions, no I/O: the names sync (names_sync.py), `cards import-names` and the
resolver (repository.py) share one key for a printed name, so what is written is what is
looked up. A name gets two keys:

- tier 0, `exact_key`: the name as printed, tidied as any typed name is (NFC, straight
  quotes, " // ", single spaces): "Téfeiri, mage de Zhalfir";
- tier 1, `folded_key`: case and accents folded, letters and digits only:
  "tefeirimagedezhalfir", "solring", "祖先の幻視" (kana voicing marks are letters there,
  never folded away: カ and ガ are different words).

Sources: Scryfall card objects (`lang`, and `printed_name` on a single-faced printing or
`card_faces[].printed_name` on a multi-faced one; either may be missing or null) and
MTGJSON cards (`foreignData[]` with `language` words and `name`/`faceName`). A printed name
spelled like the card's English name or one of its faces (18 in Time Spiral; English
placeholders on the faces of some Japanese DFCs) is English: it is not indexed, since
English names resolve first anyway.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable, Iterator, Mapping

from card_data.convert import MAX_NAME_LENGTH, clean_name, faces, normalize_name
from card_data.store.names_table import Row

# Scryfall's language codes (https://scryfall.com/docs/api/languages), English excluded.
LANGUAGES = ("es", "fr", "de", "it", "pt", "ja", "ko", "ru", "zhs", "zht", "he", "la", "grc", "ar", "sa", "ph")
# What the page calls each (static/app.js keeps a copy).
LANGUAGE_NAMES = {
    "es": "Spanish", "fr": "French", "de": "German", "it": "Italian", "pt": "Portuguese", "ja": "Japanese",
    "ko": "Korean", "ru": "Russian", "zhs": "Simplified Chinese", "zht": "Traditional Chinese", "he": "Hebrew",
    "la": "Latin", "grc": "Ancient Greek", "ar": "Arabic", "sa": "Sanskrit", "ph": "Phyrexian",
}
# MTGJSON's foreignData language words -> Scryfall's codes.
MTGJSON_LANGUAGES = {
    "Spanish": "es", "French": "fr", "German": "de", "Italian": "it", "Portuguese (Brazil)": "pt",
    "Portuguese": "pt", "Japanese": "ja", "Korean": "ko", "Russian": "ru", "Chinese Simplified": "zhs",
    "Chinese Traditional": "zht", "Hebrew": "he", "Latin": "la", "Ancient Greek": "grc", "Arabic": "ar",
    "Sanskrit": "sa", "Phyrexian": "ph",
}
EXACT, FOLDED = 0, 1  # the two tiers of a key, tried in that order
# What folded_key drops, in one C pass: every character that is neither alphanumeric (re's
# \w is str.isalnum() and "_") nor a kana sound mark (U+3099/U+309A, the combining voiced
# and semi-voiced marks: part of the word).
_NOT_KEPT = re.compile(r"[^\w\u3099\u309a]|_")

# An object is one card: Scryfall's have at most two faces (a few layouts more, none over
# four), an MTGJSON card one foreignData entry a language (Scryfall's 16, printed again in
# a few sets). An object past either bound is no card's and gives no rows: a names file of
# objects with thousands of faces each wrote 1.4 million names from 39 MB.
MAX_FACES = 8
MAX_FOREIGN_ENTRIES = 64


def exact_key(name: str) -> str:
    """A printed (or typed) name as printed: NFC, straight quotes, " // ", single spaces."""
    return clean_name(name)


def folded_key(name: str) -> str:
    """Case and accents folded, punctuation and blanks dropped ("Sol-Ring" -> "solring")."""
    return folded_of_exact(exact_key(name))


def folded_of_exact(exact: str) -> str:
    """folded_key of a name already through exact_key: a name needing both keys is tidied
    (NFC, quotes, blanks) once, not twice."""
    text = unicodedata.normalize("NFKD", exact.casefold())
    return unicodedata.normalize("NFC", _NOT_KEPT.sub("", text))


def name_rows(printed: str, language: str, card: str, english: frozenset[str]) -> list[Row]:
    """The two rows of one printed name of `card` (its normalize_name key); none for a name
    that is English (spelled like one of `english`, the card's own names as keys), empty,
    or longer than any card name."""
    if not printed or len(printed) > MAX_NAME_LENGTH:
        return []
    exact = exact_key(printed)
    if not exact or normalize_name(exact) in english:
        return []
    folded = folded_of_exact(exact)
    return [(exact, EXACT, language, card)] + ([(folded, FOLDED, language, card)] if folded else [])


def _english_names(name: str, face_names: Iterable[str]) -> frozenset[str]:
    """The keys of a card's English name and face names."""
    return frozenset(normalize_name(n) for n in (name, *face_names) if n)


def scryfall_rows(payload: Mapping[str, Any], languages: frozenset[str] | None = None) -> list[Row]:
    """Rows for one Scryfall card object: its printed name, or its faces' printed names and
    their `A // B` join. English printings, other languages than `languages` (None: all)
    and objects that are no card give none."""
    name, language = payload.get("name"), payload.get("lang")
    if not isinstance(name, str) or not isinstance(language, str) or language == "en":
        return []
    if payload.get("object", "card") != "card" or (languages is not None and language not in languages):
        return []
    raw_faces = payload.get("card_faces")
    if isinstance(raw_faces, list) and len(raw_faces) > MAX_FACES:
        return []
    card = normalize_name(name)
    card_faces = [face for face in faces(payload) if isinstance(face, Mapping)]
    english = _english_names(name, [face_name for face in card_faces if isinstance(face_name := face.get("name"), str)])
    rows: list[Row] = []
    printed = payload.get("printed_name")
    if isinstance(printed, str):
        rows += name_rows(printed, language, card, english)
    if payload.get("card_faces"):
        printed_faces = [face.get("printed_name") for face in card_faces]
        for face_name in printed_faces:
            if isinstance(face_name, str):
                rows += name_rows(face_name, language, card, english)
        named = [face_name for face_name in printed_faces if isinstance(face_name, str) and face_name]
        if len(printed_faces) > 1 and len(named) == len(printed_faces):
            rows += name_rows(" // ".join(named), language, card, english)
    return rows


def mtgjson_rows(card: Mapping[str, Any], languages: frozenset[str] | None = None) -> list[Row]:
    """Rows for one MTGJSON card: each `foreignData` entry's name (and face name)."""
    name = card.get("name")
    entries = card.get("foreignData")
    if not isinstance(name, str) or not isinstance(entries, list) or len(entries) > MAX_FOREIGN_ENTRIES:
        return []
    key = normalize_name(name)
    english = _english_names(name, [face_name] if isinstance(face_name := card.get("faceName"), str) else [])
    english |= _english_names(name, name.split(" // "))
    rows: list[Row] = []
    for entry in entries:
        if not isinstance(entry, Mapping):
            continue
        written = entry.get("language")
        language = MTGJSON_LANGUAGES.get(written) if isinstance(written, str) else None
        if language is None or (languages is not None and language not in languages):
            continue
        for field in ("name", "faceName"):
            if isinstance(entry.get(field), str):
                rows += name_rows(entry[field], language, key, english)
    return rows


def rows_of(item: Mapping[str, Any], languages: frozenset[str] | None = None) -> Iterator[Row]:
    """Rows for one object of either source (MTGJSON cards carry `foreignData`)."""
    yield from (mtgjson_rows if "foreignData" in item else scryfall_rows)(item, languages)
