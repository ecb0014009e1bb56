"""Running edh-validate from the tests: in-process (`validate.main` with its own streams, the
usual way) or as a real subprocess (`python -m cli`, for exit codes and the entry point).

Both give the same environment: no CARD_DB, CARD_DATA_OFFLINE, CI or HOUSE_RULES_DIR from the caller, and
SCRYFALL_API_URL on a closed local port unless a test says otherwise.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from edh_service.cli import paths, validate

ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing listens, so any request fails fast
COMMAND = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")  # a GitHub workflow command


@dataclass(frozen=True)
class Run:
    """What one run of the command did (the fields of subprocess.CompletedProcess)."""

    returncode: int
    stdout: str
    stderr: str


def environment(env: dict | None) -> dict[str, str]:
    """The environment a run sees."""
    base = {k: v for k, v in os.environ.items() if k not in ("CARD_DB", "CARD_DATA_OFFLINE", "CI", "HOUSE_RULES_DIR")}
    return {**base, "SCRYFALL_API_URL": NOWHERE, **(env or {})}


def run_cli(*args: object, stdin: str | None = None, env: dict | None = None, cwd: Path = ROOT) -> Run:
    """`edh-validate ARGS` in this process, in `cwd`, with `env`; never raises."""
    out, err = io.StringIO(), io.StringIO()
    given = io.BytesIO(stdin.encode()) if stdin is not None else io.BytesIO()
    with mock.patch.dict(os.environ, environment(env), clear=True), contextlib.chdir(cwd):
        code = validate.main([str(arg) for arg in args], stdout=out, stderr=err, stdin=given)
    return Run(code, out.getvalue(), err.getvalue())


def run_process(*args: object, stdin: str | None = None, env: dict | None = None, cwd: Path = ROOT) -> Run:
    """`python -m cli ARGS` as a real subprocess (text, never raises)."""
    done = subprocess.run(
        [sys.executable, "-m", "cli", *map(str, args)],
        input=stdin, capture_output=True, text=True, env={**environment(env), "PYTHONPATH": str(ROOT)},
        cwd=cwd, timeout=120,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def annotations(stdout: str) -> list[tuple[str, dict, str]]:
    """(level, properties, message) of every workflow command line."""
    found = []
    for line in stdout.splitlines():
        if match := COMMAND.match(line):
            props = dict(p.split("=", 1) for p in match.group(2).split(","))
            found.append((match.group(1), props, match.group(3)))
    return found


SAMPLES = ROOT / "tests" / "fixtures" / "decklists_cli"
# What edh-validate says of a link that leaves the current directory (paths.Tree).
LINK_OUT = "cannot read: a symbolic link out of the current directory, not followed"
LINK_HIDDEN = "cannot read: a symbolic link into a hidden file or folder (such as .git), not followed"


def deck_checkout(root: Path, decks: dict[str, str]) -> Path:
    """A checkout at `root` whose decks/ folder holds copies of the CLI samples
    (tests/fixtures/decklists_cli), {name under decks/: sample}."""
    (root / "decks").mkdir(parents=True)
    for name, sample in decks.items():
        shutil.copy(SAMPLES / sample, root / "decks" / name)
    return root
