"""Instructions per call of the engine and service figures, counted by valgrind's
cachegrind. Unlike wall or CPU time the count does not move with the machine's load, so
two trees (this one, and a checkout of another commit) compare to a fraction of a percent
on a busy shared machine where timings swing by half.

    .venv/bin/python -m bench.instructions [--tree DIR] [--calls N] [METRIC ...]

METRIC: validate (bench_engine's deck), check (bench_engine's list), validate_text and
validate_text_formats (the real store's Forge precon, without and with every format's
verdict), validate_text_plain (the precon as a plain list), validate_text_small (a
commander and `99 Mountain`, bench_peer's fixed cost), api and api_formats (that deck
as a JSON POST /api/v1/validate through Flask's test client, the request naming no format;
api_formats with "include": ["formats"]): the whole view, schema load and JSON dump
included; wsgi (the same POST called on the WSGI app as gunicorn calls it, with bench_http's
settings: rate limit and metrics on), wsgi_no_validation (the same with the validation's
answer made once: what the HTTP layer costs) and floor (bench/floor_app.py serving that
answer: bench_http's floor); default: the first four. Each runs twice under cachegrind with
PYTHONHASHSEED=0: 0 and N calls after the same setup and warm-up; the difference over N
is one call's instructions. `--tree` runs another checkout's code with this venv
(`git archive COMMIT | tar -x -C DIR`). Needs valgrind (Debian's `valgrind` package);
not part of `make bench` (each count takes about a minute).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run in the measured tree (imports resolve there); the same setup for every count.
CHILD = """
import sys
from bench.bench_engine import build_cards, build_decklist
from validator.assemble import assemble
from validator.engine import check, validate
which, calls = sys.argv[1], int(sys.argv[2])
cards, decklist = build_cards(), build_decklist()
deck = assemble(decklist, cards)
if which.startswith("api"):
    from bench.bench_http import store_and_deck
    from tests.support.apps import offline_app
    db, text, _ = store_and_deck()
    client = offline_app(db).test_client()
    body = {"decklist": text, **({"include": ["formats"]} if which == "api_formats" else {})}
    call = lambda: client.post("/api/v1/validate", json=body)
elif which in ("wsgi", "wsgi_no_validation", "floor"):
    import io, json, os
    from bench.bench_http import store_and_deck
    db, text, _ = store_and_deck()
    os.environ.update({"CARD_DB": str(db), "CARD_DATA_OFFLINE": "1", "ACCESS_LOG": "", "LOG_LEVEL": "warning",
                       "RATELIMIT_ENABLED": "1", "RATELIMIT": "100000000/minute"})  # bench_http's gunicorn settings
    from edh_service.factory import create_app
    app = create_app()
    body = json.dumps({"decklist": text}).encode()
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/api/v1/validate", "SCRIPT_NAME": "", "QUERY_STRING": "",
               "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
               "HTTP_HOST": "127.0.0.1:8000", "REMOTE_ADDR": "127.0.0.1", "CONTENT_TYPE": "application/json",
               "CONTENT_LENGTH": str(len(body)), "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
               "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
               "wsgi.input_terminated": True}  # as gunicorn sets it
    statuses = []
    respond = lambda status, headers, exc_info=None: statuses.append(status)
    if which == "floor":  # bench/floor_app.py serving this very answer
        import tempfile
        answer = tempfile.NamedTemporaryFile(suffix=".json", delete=False)
        answer.write(b"".join(app({**environ, "wsgi.input": io.BytesIO(body)}, respond)))
        answer.close()
        os.environ["BENCH_FLOOR_BODY"] = answer.name
        from bench.floor_app import app
    elif which == "wsgi_no_validation":  # everything but the validation: its answer made once
        from edh_service import pipeline
        fixed = pipeline.validate_text(text, app.extensions["card_repository"])  # card_extension.REPOSITORY_KEY
        pipeline.validate_text = lambda *args, **kwargs: fixed
    call = lambda: b"".join(app({**environ, "wsgi.input": io.BytesIO(body)}, respond))
    assert b'"card_count":100' in call() and statuses[-1] == "200 OK", statuses  # a failing call would mislead
elif which.startswith("validate_text"):
    from bench.bench_http import store_and_deck
    from card_data import open_repository
    from card_data.settings import StoreSettings
    from edh_service import pipeline as service
    db, text, _ = store_and_deck()
    repository = open_repository(StoreSettings(db, offline=True))
    extra = {"with_formats": True} if which == "validate_text_formats" else {}
    if which == "validate_text_plain":
        from bench.bench_service import plain_list
        text = plain_list(text)
    elif which == "validate_text_small":  # the fixed cost: bench_peer's commander and 99 basic lands
        from bench.bench_peer import SMALL_LISTS
        _, commander, lines = SMALL_LISTS[0]
        text = "Commander\\n1 " + commander + "\\n\\nDeck\\n" + "\\n".join(lines) + "\\n"
    call = lambda: service.validate_text(text, repository, **extra)
else:
    call = {"validate": lambda: validate(deck), "check": lambda: check(decklist, cards)}[which]
for _ in range(30):
    call()
for _ in range(calls):
    call()
"""
METRICS = ("validate", "check", "validate_text", "validate_text_plain", "validate_text_formats", "validate_text_small",
           "api", "api_formats", "wsgi", "wsgi_no_validation", "floor")
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(tree: Path, metric: str, calls: int) -> int:
    """Cachegrind's instruction count of the child run with `calls` calls."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", CHILD, metric, str(calls)],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    )
    return int(_REFS.search(done.stderr)[1].replace(",", ""))


def per_call(tree: Path, metric: str, calls: int) -> int:
    """One call's instructions: (N calls - 0 calls) / N."""
    return (instructions(tree, metric, calls) - instructions(tree, metric, 0)) // calls


def main(argv: list[str]) -> int:
    """Print one line a metric: tree, metric, instructions per call."""
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    parser.add_argument("--calls", type=int, default=200, help="calls counted (default 200)")
    parser.add_argument("metrics", nargs="*", metavar="METRIC", help=f"any of {', '.join(METRICS)}")
    args = parser.parse_args(argv)
    unknown = [m for m in args.metrics if m not in METRICS]
    if unknown:
        parser.error(f"unknown metric {unknown[0]!r}; expected any of {', '.join(METRICS)}")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    for metric in args.metrics or METRICS[:4]:
        print(f"{args.tree}\t{metric}\t{per_call(args.tree.resolve(), metric, args.calls):,} instructions a call",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
