"""A local HTTP server on 127.0.0.1 that speaks Archidekt's and Moxfield's deck APIs, with
faults on demand (the deck-by-URL tests; DESIGN.md "Decks by URL": never the real sites).

Serves:
  GET /api/decks/<id>/            Archidekt: `archidekt[id]` (a dict sent as JSON, or bytes as they are)
  GET /v3/decks/all/<publicId>    Moxfield: `moxfield[publicId]`
An id it does not hold answers 404 with the site's kind of error body.

Faults (`fault`, for every deck; or `faults[id]` for one): an int (answer that status), "redirect"
(a 302 to another host: 127.0.0.2), "same_host_redirect" (a 301 to the same path on this host
with `?moved=1`, then the deck), "endless" (a 200 whose chunked body never ends), "drip" (the
answer a byte every `drip` seconds), "silent" (headers never come), "not_json" (an HTML page),
"other_json" (JSON of another shape), "huge" (a 9 MiB body), "retry_after" (429 with Retry-After: 7).
`delay` holds every answer back that many seconds. Every request is recorded in `requests`
(path, headers, when it arrived).

`real_archidekt(shared)` and `real_moxfield(shared)` load the real documents of
../shared/decks/site-api; `with_side_piles(document)` adds real cards of the deck to its
Sideboard and Maybeboard (and a removed entry) for the boards tests; `entries_deck(n)` is an
Archidekt document of `n` entries, small per entry.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.support.local_http import LocalServer

ARCHIDEKT_REAL = "archidekt-mtg-parser-e7b43e8b.json"  # deck 1365846: Kraum + Vial Smasher, Obosh
MOXFIELD_REAL = "moxfield-v3-njerador-deck-01.json"  # V06ztO0Imk-p5I8N81Ue8g: 1 + 99, 15 sideboard


@dataclass
class Recorded:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    at: float = field(default_factory=time.monotonic)


@dataclass
class SiteServer(LocalServer):
    """Start with start() (or as a context manager); archidekt_url and moxfield_url are the API bases."""

    archidekt: dict[str, Any] = field(default_factory=dict)
    moxfield: dict[str, Any] = field(default_factory=dict)
    fault: str | int | None = None
    faults: dict[str, str | int] = field(default_factory=dict)
    delay: float = 0.0
    drip: float = 0.2
    requests: list[Recorded] = field(default_factory=list)

    state_attribute = "state"  # what _Handler reads this as (LocalServer)

    def __post_init__(self) -> None:
        self.stopping = threading.Event()

    @property
    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _Handler

    def stop(self) -> None:
        """Stop serving (endless and silent answers end too)."""
        self.stopping.set()
        super().stop()

    @property
    def archidekt_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    @property
    def moxfield_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def config(self, **extra: Any) -> dict[str, Any]:
        """The app settings pointing both sites here (Moxfield with a granted User-Agent)."""
        return {"ARCHIDEKT_API_URL": self.archidekt_url, "MOXFIELD_API_URL": self.moxfield_url,
                "MOXFIELD_USER_AGENT": "edh-deck-validator-tests/1.0 (granted)", **extra}

    def times(self) -> list[float]:
        """When each deck request arrived."""
        return [r.at for r in self.requests]


class _Handler(BaseHTTPRequestHandler):
    state: SiteServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        state = self.state
        state.requests.append(Recorded(self.path, dict(self.headers)))
        if state.delay:
            time.sleep(state.delay)
        path = self.path.split("?")[0]
        if path.startswith("/api/decks/") and path.endswith("/"):
            deck_id, documents = path[len("/api/decks/"):-1], state.archidekt
        elif path.startswith("/v3/decks/all/"):
            deck_id, documents = path[len("/v3/decks/all/"):], state.moxfield
        else:
            deck_id, documents = "", {}
        fault = state.faults.get(deck_id, state.fault)
        if fault == "same_host_redirect" and "moved=1" in self.path:
            fault = None
        if fault is not None:
            self._fault(fault)
        elif deck_id not in documents:
            self._send(404, b'{"detail": "Not found."}')
        else:
            document = documents[deck_id]
            self._send(200, document if isinstance(document, bytes) else json.dumps(document).encode())

    def _send(self, status: int, body: bytes, content_type: str = "application/json", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _fault(self, fault: str | int) -> None:
        state = self.state
        if isinstance(fault, int):
            self._send(fault, b'{"detail": "Something went wrong."}')
        elif fault == "redirect":
            self._send(302, b"", Location=f"http://127.0.0.2:{state.port}{self.path}")
        elif fault == "same_host_redirect":
            self._send(301, b"", Location=f"{self.path}?moved=1")
        elif fault == "retry_after":
            self._send(429, b'{"detail": "Slow down."}', **{"Retry-After": "7"})
        elif fault == "not_json":
            self._send(200, b"<!doctype html><title>Archidekt</title><p>Loading...</p>", "text/html")
        elif fault == "other_json":
            self._send(200, json.dumps({"results": [], "count": 0, "next": None}).encode())
        elif fault == "huge":
            self._send(200, b'{"cards": [' + b" " * (9 << 20) + b"]}")
        elif fault == "endless":
            self._endless()
        elif fault == "drip":
            self._drip(b'{"id": 1, "name": "Slow", "cards": [], "categories": []}')
        elif fault == "silent":
            state.stopping.wait(60)

    def _endless(self) -> None:
        """A 200 whose chunked body never ends (until the client hangs up)."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b" " * 65536
        try:
            self.wfile.write(b'b\r\n{"cards": [\r\n')
            while not self.state.stopping.is_set():
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass

    def _drip(self, body: bytes) -> None:
        """The whole answer a byte at a time, `drip` seconds apart."""
        raw = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
        self.close_connection = True
        try:
            for index in range(len(raw)):
                if self.state.stopping.is_set():
                    return
                self.wfile.write(raw[index:index + 1])
                self.wfile.flush()
                time.sleep(self.state.drip)
        except OSError:
            pass


# -- documents ------------------------------------------------------------------------------


def real_document(shared: Path, name: str) -> dict[str, Any]:
    """A real document of ../shared/decks/site-api, decoded."""
    return json.loads((shared / "decks" / "site-api" / name).read_text(encoding="utf-8"))


def with_side_piles(document: dict[str, Any], sideboard: int = 3, maybeboard: int = 2,
                    bracket: int | None = 2) -> dict[str, Any]:
    """A copy of a real Archidekt document with real cards of its own added to its (empty)
    Sideboard (`includedInDeck: true`, as Archidekt sets it) and Maybeboard categories, one
    entry removed on the site (`deletedAt`), and `edhBracket` set: what such a deck looks like."""
    deck = copy.deepcopy(document)
    deck["edhBracket"] = bracket
    donors = [item for item in deck["cards"] if item["categories"] not in (["Commander"], ["Companion"])]
    added = []
    for number, (item, pile) in enumerate(zip(donors, ["Sideboard"] * sideboard + ["Maybeboard"] * maybeboard)):
        extra = copy.deepcopy(item)
        extra["id"], extra["categories"] = 9_000_000 + number, [pile]
        added.append(extra)
    removed = copy.deepcopy(donors[-1])
    removed["id"], removed["deletedAt"] = 9_100_000, "2024-10-22T15:17:18.470938Z"
    deck["cards"] = deck["cards"] + added + [removed]
    return deck


def side_names(document: dict[str, Any], pile: str) -> list[str]:
    """The names of a document's entries whose first category is `pile` (not removed)."""
    return [item["card"]["oracleCard"]["name"] for item in document["cards"]
            if (item.get("categories") or [""])[0] == pile and not item.get("deletedAt")]


def entries_deck(count: int) -> dict[str, Any]:
    """An Archidekt-shaped document of `count` entries, a few bytes each."""
    return {"id": 1, "name": "Enormous", "deckFormat": 3, "edhBracket": None,
            "categories": [{"name": "Commander", "includedInDeck": True, "isPremier": True}],
            "cards": [{"quantity": 1, "categories": ["Land"], "card": {"oracleCard": {"name": f"Card {number}"}}}
                      for number in range(count)]}
