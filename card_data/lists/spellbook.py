"""Commander Spellbook's bulk variants export -> the two-card combos in it, streamed.

The export (https://json.commanderspellbook.com/variants.json, over 500 MB of JSON, about
100,000 variants; variants.json.gz beside it, about 25 MB) is written by the open-source backend (SpaceCowMedia/commander-spellbook-
backend, MIT: `spellbook/management/export_variants` and `serializers/variant_serializer.py`,
camelCased) as one object:

    {"timestamp": "2026-11-30T10:00:00+00:00", "version": "...",
     "variants": [{"id": "1234-5678", "status": "OK",
                   "uses": [{"card": {"name": "Thassa's Oracle", ...}, "quantity": 1,
                             "zoneLocations": ["H"], "mustBeCommander": false, ...}, ...],
                   "requires": [{"template": {"name": "..."}, "quantity": 1, ...}],
                   "produces": [...], "manaValueNeeded": 2, "bracketTag": "R", ...}, ...],
     "aliases": [...]}

Only the variants array is read, one variant at a time (ijson's C backend builds each item;
nothing else is kept), so memory stays flat whatever the file's size. Each chunk passes a
streams.JsonGuard first, since ijson itself would build a 100,000-deep nesting, a 500 MB
string or a variant of millions of elements whole: the MAX_EXPORT_* bounds below. A two-card combo is a
variant using exactly two cards, one copy each, and no template (a template is a third
piece: "any creature"). `bracketTag` "R" (Ruthless) marks what Spellbook rates bracket 4,
for a two-card combo: a fast one; it is kept as the combo's `fast` flag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import ijson
import requests

from card_data.convert import MAX_NAME_LENGTH
from card_data.errors import CardDataError, CardDataNotFound
from card_data.http import (
    DEFAULT_TIMEOUT, DOWNLOAD_SECONDS, UNAVAILABLE_RETRY_AFTER, Cutoff, Deadline, Download, cut_download, make_session,
    send, status_error,
)
from card_data.settings import DEFAULT_SPELLBOOK_URL, default_user_agent
from card_data.streams import ChunkReader, JsonGuard, cut, decompressed

# The backend writes both; the gzipped one is about 25 MB instead of over 500 MB, so it is
# asked for first, and the plain file only if there is no .gz beside it (a 404).
EXPORT_FILES = ("variants.json.gz", "variants.json")
# Variants in these states are published (the export holds only these, as of 2026-11).
PUBLIC_STATUSES = frozenset({"OK", "E"})
FAST_BRACKET_TAG = "R"
READ_SIZE = 256 * 1024
HEAD_BYTES = 4096  # the timestamp is the export's first key
EXPORT_NAME = "the Commander Spellbook export"
# Bounds on one export (in 2026: over 500 MB of JSON, about 100,000 variants of about 5 KB,
# nested 7 deep, its longest strings a few KB). Past one, the refresh fails and the last
# good list stays.
MAX_EXPORT_BYTES = 2 << 30  # decompressed (and raw): four times the real export
MAX_EXPORT_DEPTH = 32
MAX_EXPORT_STRING = 256 << 10  # bytes of one string
MAX_EXPORT_TOKEN = 1024  # bytes of one number or literal
MAX_VARIANT_BYTES = 1 << 20  # one variant (an item of the variants array, depth 3)
MAX_VARIANTS = 1_000_000
MAX_COMBOS = 100_000  # distinct two-card pairs kept from one export
_TIMESTAMP = re.compile(rb'"timestamp"\s*:\s*"([^"]{1,64})"')


@dataclass(frozen=True, slots=True)
class ComboExport:
    """The two-card combos of one export: {(card, card) in name order: fast}, and its timestamp."""

    pairs: dict[tuple[str, str], bool]
    timestamp: str | None
    variants: int  # variants read, two-card or not


def export_urls(base: str) -> tuple[str, ...]:
    """The export's URLs to try: SPELLBOOK_URL itself when it names a .json/.json.gz file,
    else base/variants.json.gz, then base/variants.json."""
    base = base.strip()
    if base.endswith((".json", ".json.gz")):
        return (base,)
    return tuple(f"{base.rstrip('/')}/{name}" for name in EXPORT_FILES)


def export_guard() -> JsonGuard:
    """The checks every chunk of an export passes before ijson reads it."""
    return JsonGuard(EXPORT_NAME, max_depth=MAX_EXPORT_DEPTH, max_string=MAX_EXPORT_STRING,
                     max_token=MAX_EXPORT_TOKEN, item_depth=2, max_item=MAX_VARIANT_BYTES)


def _two_cards(variant: Any) -> tuple[tuple[str, str], bool] | None:
    """((card, card) in name order, fast) for a variant of exactly two cards, else None."""
    if not isinstance(variant, dict) or not isinstance(variant.get("uses"), list):
        raise CardDataError("a Commander Spellbook variant has no `uses` list: the export's shape changed")
    if variant.get("status", "OK") not in PUBLIC_STATUSES or variant.get("requires"):
        return None
    names: list[str] = []
    for use in variant["uses"]:
        card = use.get("card") if isinstance(use, dict) else None
        name = card.get("name") if isinstance(card, dict) else None
        if not isinstance(name, str) or not name or len(name) > MAX_NAME_LENGTH:
            raise CardDataError(f"a card of Commander Spellbook variant {cut(repr(variant.get('id')), 40)} "
                                f"has no name of 1-{MAX_NAME_LENGTH} characters")
        quantity = use.get("quantity", 1)
        names += [name] * (quantity if isinstance(quantity, int) and quantity > 0 else 1)
        if len(names) > 2:
            return None
    if len(names) != 2 or names[0] == names[1]:  # one card twice never fits a singleton deck
        return None
    first, second = sorted(names)
    return (first, second), variant.get("bracketTag") == FAST_BRACKET_TAG


def read_export(chunks: Iterable[bytes]) -> ComboExport:
    """The two-card combos of an export's bytes (gzipped or not), streamed within the
    MAX_EXPORT_* bounds.

    A truncated or malformed file, a changed shape, an export without variants or one
    past a bound raises CardDataError, so the caller keeps its last good list.
    """
    reader = ChunkReader(export_guard().checked(decompressed(chunks, MAX_EXPORT_BYTES, EXPORT_NAME)), HEAD_BYTES)
    pairs: dict[tuple[str, str], bool] = {}
    variants = 0
    try:
        for variant in ijson.items(reader, "variants.item", use_float=True, buf_size=READ_SIZE):
            variants += 1
            if variants > MAX_VARIANTS:
                raise CardDataError(f"{EXPORT_NAME} holds over {MAX_VARIANTS:,} variants: refused")
            found = _two_cards(variant)
            if found is not None:
                pair, fast = found
                pairs[pair] = pairs.get(pair, False) or fast
                if len(pairs) > MAX_COMBOS:
                    raise CardDataError(f"{EXPORT_NAME} holds over {MAX_COMBOS:,} two-card combos: refused")
    except ijson.JSONError as error:  # IncompleteJSONError too: a truncated download
        raise CardDataError(f"the Commander Spellbook export is not valid JSON: {cut(str(error), 200)}") from error
    if variants == 0:
        raise CardDataError("the Commander Spellbook export holds no variants")
    match = _TIMESTAMP.search(reader.head)
    timestamp = match.group(1).decode("utf-8", "replace") if match else None
    return ComboExport(pairs, timestamp, variants)


class SpellbookClient:
    """Downloads the export: our User-Agent and Accept, timeouts, retries on 5xx and connection errors."""

    def __init__(self, url: str = DEFAULT_SPELLBOOK_URL, *, user_agent: str | None = None,
                 session: requests.Session | None = None, timeout: tuple[float, float] = DEFAULT_TIMEOUT,
                 download_seconds: float = DOWNLOAD_SECONDS) -> None:
        self.urls = export_urls(url)
        self.url = self.urls[0]  # the one downloaded last (for the list's source)
        self.session = session or make_session(user_agent or default_user_agent())
        self.timeout = timeout
        self.download_seconds = download_seconds  # the whole download's bound, reading included

    def download(self) -> Download:
        """Start streaming the export (the first URL that is there); use as a context manager."""
        for url in self.urls[:-1]:
            try:
                return self._download(url)
            except CardDataNotFound:
                continue
        return self._download(self.urls[-1])

    def _download(self, url: str) -> Download:
        """Start streaming one URL; every transport error and 4xx/5xx becomes a CardDataError."""
        self.url = url
        cutoff = Cutoff(Deadline(self.download_seconds), "Commander Spellbook")

        def start() -> requests.Response:
            with cutoff.watching():
                response = send(self.session, "GET", url, upstream="Commander Spellbook",
                                timeout=cutoff.timeout(self.timeout), stream=True)
            if response.status_code >= 400:
                response.close()
                retry_after = response.headers.get("Retry-After", "")
                raise status_error(response.status_code, f"Commander Spellbook answered {response.status_code} for {url}",
                                   int(retry_after) if retry_after.isdigit() else UNAVAILABLE_RETRY_AFTER)
            return response

        return cut_download(cutoff, url, start)


def iter_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, stripped line) of a list file, without blank lines and `#` comments."""
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            yield number, line
