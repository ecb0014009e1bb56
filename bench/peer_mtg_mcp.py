"""The fastest peer we know, timed on the same lists: mtg-mcp-server 3.0.0's `deck_validate`
(the Commander check of an MCP server; PyPI, Python 3.12 or newer). Run by bench_peer.py
with the peer's own interpreter (.venv-peer, `make peer-venv`): it imports nothing of this
project.

    python bench/peer_mtg_mcp.py CARDS.jsonl.gz LISTS.json ROUNDS

LISTS.json holds [{"commander": name, "lines": ["1 Name", ...]}, ...] (the other cards,
a second commander among them: the peer takes one). The peer's card store is loaded from
the same Scryfall bulk file as ours, in memory as its own download would leave it; its
logging is set to warnings (its per-call info lines would only slow it). Prints one JSON
object: each list's median seconds over ROUNDS calls (after a warm-up), and its verdict.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import statistics
import sys
import time

import structlog

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

from mtg_mcp_server.services.scryfall_bulk import ScryfallBulkClient  # noqa: E402 - after the logging setup
from mtg_mcp_server.workflows.validation import deck_validate  # noqa: E402

WARMUP = 20


def loaded_client(cards_path: str) -> ScryfallBulkClient:
    """The peer's bulk client holding every card of the file, as if it had downloaded it."""
    with gzip.open(cards_path, "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    client = ScryfallBulkClient()
    client._parse(json.dumps(records).encode())  # what its own download hands to the parser
    client._loaded_at = time.monotonic()  # fresh: no download is attempted
    return client


async def timed(lists: list[dict], client: ScryfallBulkClient, rounds: int) -> dict:
    """Each list's median seconds and verdict."""
    medians, verdicts = [], []
    for deck in lists:
        def call():
            return deck_validate(deck["lines"], "commander", commander=deck["commander"], bulk=client)
        verdicts.append(bool((await call()).data.get("valid")))
        for _ in range(WARMUP):
            await call()
        samples = []
        for _ in range(rounds):
            start = time.perf_counter()
            await call()
            samples.append(time.perf_counter() - start)
        medians.append(statistics.median(samples))
    return {"medians": medians, "valid": verdicts}


def main(argv: list[str]) -> int:
    cards_path, lists_path, rounds = argv[0], argv[1], int(argv[2])
    with open(lists_path, encoding="utf-8") as handle:
        lists = json.load(handle)
    client = loaded_client(cards_path)
    print(json.dumps(asyncio.run(timed(lists, client, rounds))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
