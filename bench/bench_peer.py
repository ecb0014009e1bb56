"""Against the fastest peer, in the same run: `validate_text` and mtg-mcp-server 3.0.0's
`deck_validate` (bench/peer_mtg_mcp.py, in the peer's own Python 3.12 venv) on the same
real Commander lists, each a plain list of its commanders and deck (the one syntax the
peer reads), on the same Scryfall bulk file. Issue 24's in-process target is "at most the
fastest peer's time"; wall times here move by a factor of three with the machine's state,
so the ratio is the figure: each list timed by both back to back (the peer's process
stays loaded and times one list on request), the median of the lists' ratios (the peer's median
over the issue's lists was 0.15 ms on the machine it was measured on).

The lists: every file of ../shared/decks that validate_text reads as a 100-card deck with
its commanders, written out again as `Commander` / `Deck` blocks (the peer gets the first
commander as its `commander` and the rest as lines). Skipped with one line when ../shared
or the peer's venv (`make peer-venv`; PEER_PYTHON names another interpreter) is absent.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from bench.bench_http import REAL_CARDS, store_and_deck
from bench.common import SHARED, Row, median_seconds, micros
from card_data import open_repository
from card_data.settings import StoreSettings
from edh_service import pipeline as service
from validator.decklist import Section
from validator.parse import parse

NAME = "peer"
ROOT = Path(__file__).resolve().parent.parent
PEER_SCRIPT = ROOT / "bench" / "peer_mtg_mcp.py"
DECKS = SHARED / "decks"
ROUNDS = 100  # calls of each list per pass, after a warm-up
PASSES = 2  # every list: ours then the peer's, then the peer's then ours
DECK_SECTIONS = (Section.COMMANDER, Section.MAIN, Section.SIGNATURE)
# The fixed cost of a validation, little of it per card: a commander and 99 basic lands, and
# a 20-card list (a commander and 19 others), timed by both the same way as the real lists.
GOBLINS = ("Sol Ring", "Arcane Signet", "Lightning Bolt", "Goblin Guide", "Mountain", "Shock", "Mogg Fanatic",
           "Skullclamp", "Goblin Matron", "Goblin Recruiter", "Impact Tremors", "Purphoros, God of the Forge",
           "Krenko, Tin Street Kingpin", "Goblin Chieftain", "Goblin King", "Goblin Warchief", "Skirk Prospector",
           "Goblin Lackey", "Siege-Gang Commander")
SMALL_LISTS = (
    ("a commander and 99 basic lands", "Krenko, Mob Boss", ["99 Mountain"]),
    ("a 20-card list", "Krenko, Mob Boss", [f"1 {name}" for name in GOBLINS]),
)


def same_core() -> None:
    """Run this process on one core, the lowest this machine lets it use: the peer's process
    and ours both call it, so each pair timed back to back runs on the same core (on a
    shared virtual machine one core can run slower than the other for seconds at a time,
    and the pair's ratio would measure that instead)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def peer_python() -> Path | None:
    """The peer's interpreter: PEER_PYTHON, else this tree's .venv-peer; None when neither exists."""
    named = os.environ.get("PEER_PYTHON")
    python = Path(named) if named else ROOT / ".venv-peer" / "bin" / "python"
    return python if python.is_file() else None


def plain_lists(repository) -> list[tuple[str, dict]]:
    """(our text, the peer's input) for every real list read as 100 cards with commanders."""
    lists = []
    for path in sorted(p for p in DECKS.rglob("*") if p.is_file() and p.suffix in (".txt", ".dck", ".dek", ".csv")):
        text = path.read_text(encoding="utf-8", errors="replace")
        report = service.validate_text(text, repository).report
        if report.card_count != 100 or not 1 <= len(report.commanders) <= 2:
            continue
        decklist = parse(text)
        cards = repository.resolve([e.name for e in decklist.entries]).cards
        if len(cards) != len({e.name for e in decklist.entries}):
            continue  # a name the store lacks: the peer would read it otherwise
        rest: dict[str, int] = {}
        for entry in decklist.entries:
            name = cards[entry.name].name
            if entry.section in DECK_SECTIONS and name not in report.commanders:
                rest[name] = rest.get(name, 0) + entry.quantity
        deck = [f"{copies} {name}" for name, copies in rest.items()]
        ours = "Commander\n" + "".join(f"1 {name}\n" for name in report.commanders) + "\nDeck\n" + "\n".join(deck) + "\n"
        again = service.validate_text(ours, repository).report
        if again.card_count != 100 or again.commanders != report.commanders:
            continue
        peer = {"commander": report.commanders[0], "lines": [f"1 {name}" for name in report.commanders[1:]] + deck}
        lists.append((ours, peer))
    return lists


class Peer:
    """The peer's process, loaded once, timing one list at a time on request."""

    def __init__(self, python: Path, lists: list[dict]) -> None:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(lists, handle)
        self.lists_file = handle.name
        self.process = subprocess.Popen([str(python), str(PEER_SCRIPT), str(REAL_CARDS), handle.name, str(ROUNDS)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        preexec_fn=same_core)
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the peer did not start (exit {self.process.wait()})")

    def time(self, index: int) -> tuple[float, bool]:
        """The peer's median seconds for list `index`, and its verdict."""
        self.process.stdin.write(f"{index}\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        return answer["median"], answer["valid"]

    def close(self) -> None:
        """End the process and remove the lists file."""
        self.process.stdin.close()
        self.process.wait(timeout=30)
        self.process.stdout.close()
        os.unlink(self.lists_file)


def peer_medians(python: Path, lists: list[dict]) -> tuple[list[float], list[bool]]:
    """Each list's median deck_validate seconds, and its verdicts, from the peer's process."""
    peer = Peer(python, lists)
    try:
        answers = [peer.time(index) for index in range(len(lists))]
    finally:
        peer.close()
    return [median for median, _ in answers], [valid for _, valid in answers]


def run() -> list[Row]:
    """Medians of both over the same lists, alternately; their ratio; verdicts that differ."""
    if not (REAL_CARDS.is_file() and DECKS.is_dir()):
        return [Row(NAME, "skipped", "../shared is absent")]
    python = peer_python()
    if python is None:
        return [Row(NAME, "skipped", "no peer venv: `make peer-venv` (needs Python 3.12+), or set PEER_PYTHON")]
    db, _, _ = store_and_deck()
    repository = open_repository(StoreSettings(db, offline=True))
    lists = plain_lists(repository)
    same_core()  # this process exits after its rows: no need to give the other core back
    small = [("Commander\n1 " + commander + "\n\nDeck\n" + "\n".join(lines) + "\n",
              {"commander": commander, "lines": lines}) for _, commander, lines in SMALL_LISTS]
    texts = [ours for ours, _ in lists]
    peer = Peer(python, [p for _, p in lists] + [p for _, p in small])
    fixed = []
    try:
        for offset, (text, _) in enumerate(small):  # each timed back to back, in both orders
            pairs = []
            for turn in range(PASSES):
                mine = theirs = 0.0
                for step in ((0, 1) if turn % 2 == 0 else (1, 0)):
                    if step == 0:
                        mine = median_seconds(lambda: service.validate_text(text, repository), repeat=ROUNDS, warmup=20)
                    else:
                        theirs = peer.time(len(lists) + offset)[0]
                pairs.append((mine, theirs))
            fixed.append(pairs)
    except BaseException:
        peer.close()
        raise
    ours_runs, peer_runs, ratios = [], [], []
    try:
        for turn in range(PASSES):  # each list timed by both back to back, the order swapped each pass
            ours_medians, peer_medians_, peer_valid = [], [], []
            for index, text in enumerate(texts):
                def ours():
                    return median_seconds(lambda: service.validate_text(text, repository), repeat=ROUNDS, warmup=20)
                if turn % 2 == 0:
                    mine = ours()
                    theirs, valid = peer.time(index)
                else:
                    theirs, valid = peer.time(index)
                    mine = ours()
                ours_medians.append(mine)
                peer_medians_.append(theirs)
                peer_valid.append(valid)
            ours_runs.append(statistics.median(ours_medians))
            peer_runs.append(statistics.median(peer_medians_))
            ratios.append(statistics.median(m / t for m, t in zip(ours_medians, peer_medians_)))
    finally:
        peer.close()
    our_valid = [service.validate_text(text, repository).report.valid for text in texts]
    differ = sum(a != b for a, b in zip(our_valid, peer_valid))
    return [
        Row(NAME, f"validate_text, median over {len(lists)} real 100-card lists (plain), per pass",
            " / ".join(micros(s) for s in ours_runs)),
        Row(NAME, "mtg-mcp-server 3.0.0 deck_validate, same lists, same passes",
            " / ".join(micros(s) for s in peer_runs)),
        Row(NAME, "ours / the peer's, median of the lists' ratios (each list timed back to back), per pass",
            " / ".join(f"{r:.2f}x" for r in ratios), "≤ 0.75x"),
        Row(NAME, "lists where the peer's verdict differs from ours", f"{differ} of {len(lists)}"),
        *(Row(NAME, f"fixed cost, {what}: ours / the peer's, per pass (each pair back to back)",
              " / ".join(f"{micros(mine)} / {micros(theirs)} = {mine / theirs:.2f}x" for mine, theirs in pairs),
              "≤ 1.00x")
          for (what, _, _), pairs in zip(SMALL_LISTS, fixed)),
        Row(NAME, "setup", f"peer {python}; both processes on one core; load {os.getloadavg()[0]:.1f}"),
    ]
