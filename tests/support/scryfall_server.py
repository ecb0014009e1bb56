"""A local HTTP server on 127.0.0.1 that speaks Scryfall's API shape, with switchable faults.

Serves:
  GET  /bulk-data/oracle-cards          a bulk_data object (jsonl_download_uri and/or download_uri)
  GET  /files/oracle-cards.jsonl.gz     the gzipped JSON Lines bulk file
  GET  /files/oracle-cards.json[.gz]    the same cards as one JSON array (the old format)
  GET  /bulk-data/all-cards             the all_cards bulk_data object (when `all_cards` or
                                        `all_cards_file` is set; else 404, as for a type that is gone)
  GET  /files/all-cards.jsonl.gz        every printing in every language: `all_cards` gzipped
                                        (`all_cards_truncate` cuts it), or `all_cards_file` from disk
  POST /cards/collection                {"data": [...], "not_found": [...]} by name or face name
  GET  /cards/search?q=...[&page=N]     `search_results[q]` in pages of `search_page_size`,
                                        next_page an absolute URL; no match: 404 (as Scryfall)
  GET  /spellbook/variants.json[.gz]    a Commander Spellbook-shaped export: `spellbook_export`
                                        (bytes; .gz: gzipped, 404 unless `spellbook_offer_gz`;
                                        .json: gzipped too when `spellbook_gzip`), or
                                        `spellbook_file` at the path its name ends like
Anything else answers a Scryfall error object (404 not_found).

Faults (attributes, switch them in a test): `fail_next` (queue of statuses to answer
instead, e.g. [500, 500] or [429]), `delay` (seconds before answering), `truncate`
("short": the body ends early but Content-Length promises it all; "gzip": a cut gzip
file with an honest length), `malformed_line` (a broken line in the middle),
`content_encoding` (send Content-Encoding: gzip with the .gz file), `drip` (seconds
between bytes: every answer, status line and headers included, sent one byte at a
time, each byte well within a read timeout, the whole never in time), `offer`
("jsonl", "json" or "both": which download URIs the bulk object lists).
Hostile answers (tests/hardening/test_sync_bounds.py): `bulk_object_body`,
`collection_body` and `search_body` are sent as they are instead of the real answer
(bytes that start like gzip go with Content-Encoding: gzip); `search_next` makes every
search page say has_more, with next_page "endless" (the next page number, forever),
"self" (the page itself) or the URL given.
Every request is recorded in `requests` (method, path, headers, JSON body).
"""

from __future__ import annotations

import gzip
import json
import shutil
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import parse_qs, quote, urlsplit

from tests.support.local_http import LocalServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BRACKETS = FIXTURES / "brackets"  # the bracket lists' fixtures
BRACKET_EXPORT = (BRACKETS / "variants.json").read_bytes()  # a small Spellbook export
MASS_LAND_DENIAL_QUERY = "otag:mass-land-denial"
PAUPER_COMMANDERS_QUERY = "is:paupercommander"
MASS_LAND_DENIAL_SEARCH = json.loads((BRACKETS / "mass-land-denial-search.json").read_text())  # one page
FORMAT_FIXTURES = FIXTURES / "formats"
PAUPER_COMMANDERS_SEARCH = json.loads((FORMAT_FIXTURES / "pauper-commanders-search.json").read_text())


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    """Card objects from a JSON Lines file (plain or gzipped)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _face_names(card: dict[str, Any]) -> list[str]:
    """The card's name and each face name, lowercased (how /cards/collection matches)."""
    names = [card["name"]] + [face["name"] for face in card.get("card_faces") or ()]
    return [name.casefold() for name in names]


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any = None
    at: float = field(default_factory=time.monotonic)  # when it arrived (rate-limit tests)


@dataclass
class ScryfallServer(LocalServer):
    """Start with start() (or use as a context manager); base_url is the API base."""

    cards: list[dict[str, Any]] = field(default_factory=list)  # the bulk file's cards
    extra_cards: list[dict[str, Any]] = field(default_factory=list)  # known only to /cards/collection
    bulk_file: Path | None = None  # serve these gzipped bytes as the bulk file instead of `cards`
    updated_at: str = "2026-11-30T10:04:21.000+00:00"
    offer: str = "jsonl"
    content_encoding: bool = False
    truncate: str | None = None
    malformed_line: bool = False
    delay: float = 0.0
    drip: float = 0.0
    fail_next: list[int] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    search_results: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # query -> cards
    search_page_size: int = 175  # Scryfall's page size
    spellbook_export: bytes | None = None
    spellbook_gzip: bool = False
    spellbook_offer_gz: bool = True
    spellbook_file: Path | None = None  # served as is, streamed from disk (benchmarks)
    bulk_object_body: bytes | None = None
    collection_body: bytes | None = None
    search_body: bytes | None = None
    search_next: str | None = None
    all_cards: list[dict[str, Any]] | None = None  # the all_cards file's objects (None: no such bulk type)
    all_cards_file: Path | None = None  # served as is, streamed from disk (benchmarks)
    all_cards_updated_at: str = "2026-11-30T09:12:44.000+00:00"
    all_cards_truncate: bool = False  # the all_cards file ends halfway (honest length)

    state_attribute = "server_state"  # what _Handler reads this as (LocalServer)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    @property
    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _Handler

    # -- lifecycle ----------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The API base URL (what SCRYFALL_API_URL would be)."""
        return f"http://127.0.0.1:{self.port}"

    def collection_times(self) -> list[float]:
        """When each POST /cards/collection arrived (time.monotonic: one clock for every
        process on the machine), in order."""
        return sorted(r.at for r in self.requests if r.method == "POST" and r.path == "/cards/collection")

    def paths(self, method: str | None = None) -> list[str]:
        """Paths requested so far (optionally only one method)."""
        return [r.path for r in self.requests if method is None or r.method == method]

    # -- content --------------------------------------------------------------------------

    def jsonl_bytes(self) -> bytes:
        """The gzipped JSON Lines bulk file, with the configured faults."""
        if self.bulk_file is not None and not self.malformed_line:
            body = self.bulk_file.read_bytes()
        else:
            cards = self.cards if self.bulk_file is None else load_jsonl(self.bulk_file)
            lines = [json.dumps(card, ensure_ascii=False) for card in cards]
            if self.malformed_line:
                lines.insert(len(lines) // 2, '{"object": "card", "name": "Broken')
            body = gzip.compress(("\n".join(lines) + "\n").encode("utf-8"))
        if self.truncate == "gzip":
            body = body[: len(body) // 2]
        return body

    def json_array_bytes(self) -> bytes:
        """The old-style bulk file: one JSON array."""
        return json.dumps(self.cards, ensure_ascii=False, indent=1).encode("utf-8")

    def bulk_object(self) -> dict[str, Any]:
        """The bulk_data object for oracle_cards."""
        body: dict[str, Any] = {
            "object": "bulk_data", "id": "2378df23-f67e-5513-9d55-0621b4176151",
            "type": "oracle_cards", "updated_at": self.updated_at, "name": "Oracle Cards",
            "content_type": "application/jsonl", "content_encoding": "gzip",
        }
        if self.offer in ("jsonl", "both"):
            body["jsonl_download_uri"] = f"{self.base_url}/files/oracle-cards.jsonl.gz"
        if self.offer in ("json", "both"):
            body["download_uri"] = f"{self.base_url}/files/oracle-cards.json"
        return body

    def all_cards_object(self) -> dict[str, Any]:
        """The bulk_data object for all_cards."""
        return {
            "object": "bulk_data", "id": "e2ef41e3-5778-4bc2-af3f-78eca4dd9c23", "type": "all_cards",
            "updated_at": self.all_cards_updated_at, "name": "All Cards", "content_type": "application/jsonl",
            "content_encoding": "gzip", "jsonl_download_uri": f"{self.base_url}/files/all-cards.jsonl.gz",
        }

    def all_cards_bytes(self) -> bytes:
        """The gzipped all_cards file (cut in half with all_cards_truncate)."""
        lines = "".join(json.dumps(card, ensure_ascii=False) + "\n" for card in self.all_cards or ())
        body = gzip.compress(lines.encode("utf-8"))
        return body[: len(body) // 2] if self.all_cards_truncate else body

    def collection(self, identifiers: Iterable[dict[str, Any]]) -> dict[str, Any]:
        """A /cards/collection List: data in request order, not_found for the rest."""
        catalog = {name: card for card in self.cards + self.extra_cards for name in _face_names(card)}
        data, not_found = [], []
        for identifier in identifiers:
            card = catalog.get(str(identifier.get("name", "")).casefold())
            (data if card else not_found).append(card or identifier)
        return {"object": "list", "not_found": not_found, "data": data}

    def search_page(self, query: str, page: int) -> dict[str, Any] | None:
        """One page of a search's List object; None when nothing matches (Scryfall's 404)."""
        cards = self.search_results.get(query) or []
        start = (page - 1) * self.search_page_size
        if not cards or start >= len(cards) or page < 1:
            return None
        body: dict[str, Any] = {
            "object": "list", "total_cards": len(cards),
            "data": cards[start:start + self.search_page_size],
            "has_more": start + self.search_page_size < len(cards),
        }
        if body["has_more"]:
            body["next_page"] = f"{self.base_url}/cards/search?q={quote(query)}&page={page + 1}"
        return body

    def chained_page(self, path: str, page: int) -> dict[str, Any]:
        """A search page that always has more (`search_next`): one card, and a next_page."""
        following = {"endless": f"{self.base_url}/cards/search?q=chain&page={page + 1}",
                     "self": f"{self.base_url}{path}"}.get(self.search_next, self.search_next)
        return {"object": "list", "total_cards": 10 ** 6, "has_more": True, "next_page": following,
                "data": [{"object": "card", "name": f"Chained Card {page}"}]}

    def next_fault(self) -> int | None:
        """Pop the next queued failure status, if any."""
        with self._lock:
            return self.fail_next.pop(0) if self.fail_next else None


class _Handler(BaseHTTPRequestHandler):
    """Routes requests to the ScryfallServer state bound as `server_state`."""

    server_state: ScryfallServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:  # keep test output quiet
        pass

    def _record(self, body: Any = None) -> None:
        self.server_state.requests.append(Recorded(self.command, self.path, dict(self.headers), body))

    def _send(self, status: int, body: bytes, content_type: str = "application/json", **headers: str) -> None:
        if self.server_state.drip:
            self._drip(status, body, content_type, **headers)
            return
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", headers.pop("length", str(len(body))))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def _drip(self, status: int, body: bytes, content_type: str, **headers: str) -> None:
        """The answer a byte at a time, `drip` seconds apart, until it is all sent or the
        client hangs up."""
        head = [f"HTTP/1.1 {status} {self.responses.get(status, ('',))[0]}", f"Content-Type: {content_type}",
                f"Content-Length: {headers.pop('length', str(len(body)))}"]
        head += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
        raw = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
        self.close_connection = True
        try:
            for index in range(len(raw)):
                self.wfile.write(raw[index:index + 1])
                self.wfile.flush()
                time.sleep(self.server_state.drip)
        except OSError:
            pass  # the client gave up: the test working

    def _error(self, status: int, code: str, details: str) -> None:
        error = {"object": "error", "status": status, "code": code, "details": details}
        self._send(status, json.dumps(error).encode())

    def _faulted(self) -> bool:
        """Apply the delay and a queued failure; True when the request was answered."""
        state = self.server_state
        if state.delay:
            time.sleep(state.delay)
        status = state.next_fault()
        if status is None:
            return False
        if status == 429:
            self._error(429, "rate_limited", "Too many requests. Back off for 30 seconds.")
        else:
            self._error(status, "server_error", "Something went wrong on Scryfall's side.")
        return True

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        """Bulk-data objects and bulk files."""
        self._record()
        if self._faulted():
            return
        state = self.server_state
        url = urlsplit(self.path)
        if url.path == "/cards/search" and state.search_body is not None:
            self._send_answer(state.search_body)
        elif url.path == "/cards/search" and state.search_next is not None:
            number = int((parse_qs(url.query).get("page") or ["1"])[0])
            self._send(200, json.dumps(state.chained_page(self.path, number)).encode())
        elif url.path == "/cards/search":
            query = parse_qs(url.query)
            page = state.search_page(query.get("q", [""])[0], int((query.get("page") or ["1"])[0]))
            if page is None:
                self._error(404, "not_found", "Your query didn't match any cards. Adjust your search terms.")
            else:
                self._send(200, json.dumps(page).encode())
        elif url.path in ("/spellbook/variants.json", "/spellbook/variants.json.gz"):
            self._send_export(url.path.endswith(".gz"))
        elif self.path == "/bulk-data/oracle-cards" and state.bulk_object_body is not None:
            self._send_answer(state.bulk_object_body)
        elif self.path == "/bulk-data/oracle-cards":
            self._send(200, json.dumps(state.bulk_object()).encode())
        elif self.path == "/bulk-data/all-cards" and (state.all_cards is not None or state.all_cards_file):
            self._send(200, json.dumps(state.all_cards_object()).encode())
        elif self.path == "/files/all-cards.jsonl.gz" and state.all_cards_file is not None:
            self._stream_file(state.all_cards_file, "application/gzip")
        elif self.path == "/files/all-cards.jsonl.gz" and state.all_cards is not None:
            self._send_file(state.all_cards_bytes(), "application/gzip")
        elif self.path == "/files/oracle-cards.jsonl.gz":
            self._send_file(state.jsonl_bytes(), "application/gzip")
        elif self.path in ("/files/oracle-cards.json", "/files/oracle-cards.json.gz"):
            body = state.json_array_bytes()
            self._send_file(gzip.compress(body) if self.path.endswith(".gz") else body, "application/json")
        else:
            self._error(404, "not_found", f"No endpoint at {self.path}")

    def _send_answer(self, body: bytes) -> None:
        """A hostile answer as it is; gzip bytes as Content-Encoding: gzip (a CDN would)."""
        headers = {"Content_Encoding": "gzip"} if body[:2] == b"\x1f\x8b" else {}
        self._send(200, body, **headers)

    def _send_file(self, body: bytes, content_type: str) -> None:
        """A bulk file, with the Content-Encoding and truncation faults."""
        state = self.server_state
        headers = {"Content_Encoding": "gzip"} if state.content_encoding and body[:2] == b"\x1f\x8b" else {}
        if state.truncate == "short":  # promise the whole file, send half, hang up
            headers["length"] = str(len(body))
            headers["Connection"] = "close"
            body = body[: len(body) // 2]
            self.close_connection = True
        self._send(200, body, content_type, **headers)

    def _stream_file(self, path: Path, content_type: str) -> None:
        """A file from disk, streamed (benchmarks' large files)."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(path.stat().st_size))
        self.end_headers()
        with path.open("rb") as handle:
            shutil.copyfileobj(handle, self.wfile, 1024 * 1024)

    def _send_export(self, gz: bool) -> None:
        """The Spellbook export: bytes from memory (with the file faults) or a file streamed from disk."""
        state = self.server_state
        if state.spellbook_file is not None and state.spellbook_file.name.endswith(".gz") != gz:
            self._error(404, "not_found", "No such export file")
        elif state.spellbook_file is not None:
            self._stream_file(state.spellbook_file, "application/json")
        elif state.spellbook_export is None or (gz and not state.spellbook_offer_gz):
            self._error(404, "not_found", "No export here")
        else:
            body = state.spellbook_export
            body = gzip.compress(body) if gz or state.spellbook_gzip else body
            self._send_file(body, "application/json")

    def do_POST(self) -> None:  # noqa: N802
        """POST /cards/collection."""
        length = int(self.headers.get("Content-Length") or 0)
        try:
            payload = json.loads(self.rfile.read(length) or b"null")
        except ValueError:
            payload = None
        self._record(payload)
        if self._faulted():
            return
        if self.path != "/cards/collection":
            self._error(404, "not_found", f"No endpoint at {self.path}")
        elif self.server_state.collection_body is not None:
            self._send_answer(self.server_state.collection_body)
        elif not isinstance(payload, dict) or not isinstance(payload.get("identifiers"), list):
            self._error(400, "bad_request", "The JSON you supplied is missing the identifiers field.")
        elif len(payload["identifiers"]) > 75:
            self._error(422, "bad_request", "Too many identifiers: at most 75.")
        else:
            self._send(200, json.dumps(self.server_state.collection(payload["identifiers"])).encode())


def fixture_server(**settings: Any) -> ScryfallServer:
    """A server (not started) over tests/fixtures/cards.jsonl plus the collection-only cards."""
    return ScryfallServer(
        cards=load_jsonl(FIXTURES / "cards.jsonl"),
        extra_cards=load_jsonl(FIXTURES / "scryfall" / "collection-only.jsonl"),
        **settings,
    )


def with_bracket_lists(server: ScryfallServer) -> ScryfallServer:
    """The server answering the mass land denial tag search and serving the Spellbook
    export of tests/fixtures/brackets (both good, to begin with)."""
    server.search_results = {MASS_LAND_DENIAL_QUERY: MASS_LAND_DENIAL_SEARCH}
    server.spellbook_export = BRACKET_EXPORT
    return server


def with_format_lists(server: ScryfallServer) -> ScryfallServer:
    """The server answering Scryfall's is:paupercommander search (the Pauper Commander
    commander list: tests/fixtures/formats/pauper-commanders-search.json), beside any
    search it answered already."""
    server.search_results = {**server.search_results, PAUPER_COMMANDERS_QUERY: PAUPER_COMMANDERS_SEARCH}
    return server
