"""The fastest peer we know, timed on the same lists: mtg-mcp-server 3.0.0's `deck_validate`
(the Commander check of an MCP server; PyPI, Python 3.12 or newer). Run by bench_peer.py
with the peer's own interpreter (.venv-peer, `make peer-venv`): it imports nothing of this
project.

    python bench/peer_mtg_mcp.py CARDS.jsonl.gz LISTS.json ROUNDS   (then list indices on stdin)

LISTS.json holds [{"commander": name, "lines": ["1 Name", ...]}, ...] (the other cards,
a second commander among them: the peer takes one). The peer's card store is loaded from
the same Scryfall bulk file as ours, in memory as its own download would leave it; its
logging is set to warnings (its per-call info lines would only slow it). Prints "ready",
then answers each list index read from stdin with that list's median seconds over ROUNDS
calls (after a warm-up) and its verdict, one JSON line each.
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


async def one_list(deck: dict, client: ScryfallBulkClient, rounds: int) -> tuple[float, bool]:
    """One list's median seconds over `rounds` calls after a warm-up, and its verdict."""
    def call():
        return deck_validate(deck["lines"], "commander", commander=deck["commander"], bulk=client)
    valid = bool((await call()).data.get("valid"))
    for _ in range(WARMUP):
        await call()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), valid


async def serve(lists: list[dict], client: ScryfallBulkClient, rounds: int) -> None:
    """Answer each list index read from stdin with one JSON line {"median", "valid"}, so the
    caller can time its own call of the same list right before or after (the machine's speed
    drifts within seconds here)."""
    print("ready", flush=True)
    for line in sys.stdin:
        median, valid = await one_list(lists[int(line)], client, rounds)
        print(json.dumps({"median": median, "valid": valid}), flush=True)


def main(argv: list[str]) -> int:
    cards_path, lists_path, rounds = argv[0], argv[1], int(argv[2])
    with open(lists_path, encoding="utf-8") as handle:
        lists = json.load(handle)
    client = loaded_client(cards_path)
    asyncio.run(serve(lists, client, rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
