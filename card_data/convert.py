"""Scryfall card JSON -> validator.deck.Card, and the name normalisation behind the name index.

Pure functions only: no I/O, so the store, the client and the tests share one conversion.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Mapping

from validator.deck import Card
from validator.parse import MAX_NAME_LENGTH  # noqa: F401 (re-exported: no card name is longer)

# Supertypes (CR 205.4a). Everything else left of the dash is a card type.
SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host"})

# Subtypes written with a space. Splitting on spaces would turn "Time Lord" into two
# creature types and break the Doctor's companion check (702.124m).
MULTI_WORD_SUBTYPES = frozenset({
    "Time Lord",
    "Bolas's Meditation Realm",  # plane types
    "Serra's Realm",
    "New Phyrexia",
})
_LONGEST_SUBTYPE = max(len(s.split()) for s in MULTI_WORD_SUBTYPES)

# Layouts whose halves are both "the card" at once (CR 709.4: a split card has the
# combined characteristics of its halves outside the stack). Every other multi-face
# layout is read by its front face (712.8a, 903.4d covers identity separately).
COMBINED_LAYOUTS = frozenset({"split"})

# Fields kept in the store: what Card needs plus what /api/v1/cards/<name> shows, and the
# card images (image_uris, trimmed to IMAGE_SIZES) for previews on the page.
KEPT_FIELDS = (
    "object", "id", "oracle_id", "name", "layout", "mana_cost", "cmc", "type_line",
    "oracle_text", "power", "toughness", "colors", "color_identity", "keywords",
    "legalities", "game_changer", "scryfall_uri", "flavor_name", "printed_name",
    "set_type", "border_color", "digital", "produced_mana",
)
KEPT_FACE_FIELDS = (
    "name", "mana_cost", "type_line", "oracle_text", "power", "toughness",
    "flavor_name", "printed_name",
)
# Scryfall's image sizes worth a preview (146x204 and 488x680); png, art_crop... are not kept.
IMAGE_SIZES = ("small", "normal")

_QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "`": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    # NFKD leaves these ligatures whole; old printings and people still type them.
    "\u00c6": "Ae", "\u00e6": "ae", "\u0152": "Oe", "\u0153": "oe",
})
_SLASHES = re.compile(r"/+")
_SPACES = re.compile(r"\s+")
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")  # searched in C: max(text) walked the text in Python


@functools.cache
def _combining_marks() -> re.Pattern:
    """The combining marks of the Basic Multilingual Plane (unicodedata.combining) as one
    character class, built on the first accented name (a scan of 64K code points: no
    process that never meets one pays it). normalize_name drops them in one C pass
    instead of a Python loop over every character; a name with a character beyond U+FFFF
    takes the loop (no card name has one)."""
    return re.compile("[%s]" % "".join(
        re.escape(chr(point)) for point in range(0x300, 0x10000) if unicodedata.combining(chr(point))))


def clean_name(name: str) -> str:
    """A name as typed, tidied for display and for Scryfall: straight quotes, " // ", single spaces.

    Case and accents are kept (Scryfall's /cards/collection matches on them loosely).
    Linear in the name: a run of slashes with the blanks around it becomes " // " by
    splitting at the slashes and stripping the parts (a pattern of blanks, slashes, blanks
    retried a run of blanks from each of its characters: `a` + 30,000 spaces + `b` took 9 s).
    """
    text = unicodedata.normalize("NFC", name).translate(_QUOTES)
    if "/" in text:
        text = " // ".join(part.strip() for part in _SLASHES.split(text))
    return _SPACES.sub(" ", text).strip()


def normalize_name(name: str) -> str:
    """The index key of a name: any case, accents folded, straight quotes, slashes as " // "."""
    text = clean_name(name)
    if text.isascii():  # no decomposition, no combining mark: the character loop is spared
        return text.casefold()
    text = unicodedata.normalize("NFKD", text)
    if _BEYOND_BMP.search(text) is None:
        return _combining_marks().sub("", text).casefold()
    return "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()


def faces(card: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The card's faces, front first; a single-faced card is its own only face."""
    return list(card.get("card_faces") or ()) or [card]


def parse_type_line(type_line: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """One face's type line -> (supertypes, types, subtypes)."""
    left, _, right = type_line.partition("\u2014")  # em dash separates subtypes
    words = left.split()
    supertypes = frozenset(w for w in words if w in SUPERTYPES)
    types = frozenset(w for w in words if w not in SUPERTYPES)
    return supertypes, types, frozenset(split_subtypes(right))


def split_subtypes(text: str) -> Iterator[str]:
    """Subtype words, joining the known multi-word subtypes ("Time Lord") into one."""
    words = text.split()
    i = 0
    while i < len(words):
        for size in range(min(_LONGEST_SUBTYPE, len(words) - i), 0, -1):
            candidate = " ".join(words[i:i + size])
            if size == 1 or candidate in MULTI_WORD_SUBTYPES:
                yield candidate
                i += size
                break


def _card_types(card: Mapping[str, Any]) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Supertypes, types and subtypes: the front face, or every half of a split card."""
    counted = faces(card) if card.get("layout") in COMBINED_LAYOUTS else faces(card)[:1]
    parsed = [parse_type_line(face.get("type_line") or "") for face in counted]
    return tuple(frozenset().union(*(p[i] for p in parsed)) for i in range(3))  # type: ignore[return-value]


def _front_type_line(card: Mapping[str, Any]) -> str:
    """The type line to show in messages: the front face's (the whole line for split cards)."""
    if card.get("layout") in COMBINED_LAYOUTS:
        return card.get("type_line") or ""
    return faces(card)[0].get("type_line") or card.get("type_line") or ""


def _mana_cost(card: Mapping[str, Any]) -> str:
    """Every face's mana cost, " // "-joined; faces without a cost (DFC backs) are skipped."""
    costs = [face.get("mana_cost") or "" for face in faces(card)]
    return " // ".join(c for c in costs if c)


def _has_power_toughness(card: Mapping[str, Any]) -> bool:
    """The front face prints power and toughness (a commander-eligibility condition)."""
    front = faces(card)[0]
    # Some multi-face objects carry P/T only at the top level (the front face's values).
    power = front.get("power", card.get("power"))
    toughness = front.get("toughness", card.get("toughness"))
    return power is not None and toughness is not None


def is_meld_result(card: Mapping[str, Any]) -> bool:
    """The card is the melded back half (Brisela): all_parts lists it as the meld_result."""
    return any(
        part.get("component") == "meld_result" and part.get("name") == card.get("name")
        for part in card.get("all_parts") or ()
    )


def to_card(card: Mapping[str, Any]) -> Card:
    """Convert one Scryfall card object to the engine's Card."""
    supertypes, types, subtypes = _card_types(card)
    return Card(
        name=card["name"],
        types=types,
        supertypes=supertypes,
        subtypes=subtypes,
        face_texts=tuple(face.get("oracle_text") or "" for face in faces(card)),
        mana_cost=_mana_cost(card),
        mana_value=float(card.get("cmc") or 0.0),
        color_identity=frozenset(card.get("color_identity") or ()),
        layout=card.get("layout") or "normal",
        legality=(card.get("legalities") or {}).get("commander", "not_legal"),
        legalities=legalities(card),
        has_power_toughness=_has_power_toughness(card),
        game_changer=bool(card.get("game_changer")),
        keywords=frozenset(card.get("keywords") or ()),
        type_line=_front_type_line(card),
        is_meld_result=is_meld_result(card),
        produced_mana=frozenset(card.get("produced_mana") or ()),
        image=front_image(card),
    )


# Cards share few distinct legalities objects (most are "legal everywhere but ..."): one
# read-only mapping per distinct one, so 30,000 cards keep a few thousand; bounded.
_SHARED_LEGALITIES: dict[tuple, Mapping[str, str]] = {}
MAX_SHARED_LEGALITIES = 8192


def legalities(card: Mapping[str, Any]) -> Mapping[str, str]:
    """Every legality key the payload has (Scryfall's legalities, string values only), as a
    read-only mapping shared by the cards that have the same one."""
    given = card.get("legalities")
    if not isinstance(given, Mapping):
        return MappingProxyType({})
    items = tuple(sorted((k, v) for k, v in given.items() if isinstance(k, str) and isinstance(v, str)))
    shared = _SHARED_LEGALITIES.get(items)
    if shared is None:
        shared = MappingProxyType(dict(items))
        if len(_SHARED_LEGALITIES) < MAX_SHARED_LEGALITIES:
            _SHARED_LEGALITIES[items] = shared
    return shared


def front_image(card: Mapping[str, Any]) -> str:
    """The front face's preview image: the card's own image_uris (a single image for the
    whole card), else the first face's (transform, modal DFC); "normal" size, else "small"."""
    images = card.get("image_uris") or faces(card)[0].get("image_uris") or {}
    return images.get("normal") or images.get("small") or ""


def trim(card: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a Scryfall card object worth storing (drops prices, most URIs, other image sizes...)."""
    kept = {key: card[key] for key in KEPT_FIELDS if key in card}
    _keep_images(card, kept)
    if card.get("card_faces"):
        kept["card_faces"] = []
        for face in card["card_faces"]:
            kept["card_faces"].append({key: face[key] for key in KEPT_FACE_FIELDS if key in face})
            _keep_images(face, kept["card_faces"][-1])
    parts = [
        {"component": p.get("component"), "name": p.get("name")}
        for p in card.get("all_parts") or ()
        if p.get("component") in ("meld_part", "meld_result")
    ]
    if parts:
        kept["all_parts"] = parts
    return kept


def _keep_images(source: Mapping[str, Any], kept: dict[str, Any]) -> None:
    """Copy the preview sizes of source's image_uris (a card, or one face of a card whose
    faces have their own images, as Scryfall gives transform and modal cards)."""
    images = {size: url for size, url in (source.get("image_uris") or {}).items() if size in IMAGE_SIZES}
    if images:
        kept["image_uris"] = images


# Priorities of a name key: lower wins when two cards claim the same key, so a card's
# own Oracle name always beats another card's face, flavor or printed name.
PRIORITY_NAME, PRIORITY_FACE, PRIORITY_ALIAS = 0, 1, 2


def name_keys(card: Mapping[str, Any]) -> dict[str, int]:
    """Every normalized key a person may use for this card, with its priority.

    The Oracle name; each face name (a half of a split card, a DFC/flip/adventure face);
    Scryfall's flavor_name and printed_name, on the card and on its faces.
    """
    keys: dict[str, int] = {}

    def add(names: Iterable[str | None], priority: int) -> None:
        for name in names:
            if name and priority < keys.get(normalize_name(name), 99):
                keys[normalize_name(name)] = priority

    all_faces = card.get("card_faces") or ()
    add([card.get("name")], PRIORITY_NAME)
    add([face.get("name") for face in all_faces], PRIORITY_FACE)
    aliases = [card.get("flavor_name"), card.get("printed_name")]
    aliases += [face.get(field) for face in all_faces for field in ("flavor_name", "printed_name")]
    add(aliases, PRIORITY_ALIAS)
    return keys
