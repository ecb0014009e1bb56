"""The GitHub Action (action.yml) on a hostile pull request (issue 19): committed links
out of the workspace, link loops, file names git would quote (a newline, a non-ASCII
letter), and a bulk file that is a link. The steps run through tests/support/action_runner.py,
as in tests/test_action.py: real pip install of the action's checkout, real git, real
edh-validate; the secret outside the workspace must never reach a log.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.action_runner import ROOT, checkout, git, run_offline
from tests.support.cli_runs import LINK_HIDDEN as HIDDEN, LINK_OUT as OUT, annotations, deck_checkout

SECRET = "SECRET-TOKEN-1234"


@pytest.fixture(scope="module")
def action_path(tmp_path_factory) -> Path:
    """The action's checkout, as the runner downloads it."""
    return checkout(tmp_path_factory.mktemp("action"))


@pytest.fixture
def outside(tmp_path) -> Path:
    """A file on the runner beside the workspace, holding a secret."""
    path = tmp_path / "runner-files" / "credentials.txt"
    path.parent.mkdir()
    path.write_text(f"1 Sol Ring\n1 {SECRET}\n")
    return path


@pytest.fixture
def workspace(tmp_path, outside) -> Path:
    """The pull request's checkout: two real decks, and everything a hostile one commits."""
    # Éowyn.txt and a name holding a newline: git ls-files quoted them.
    repo = deck_checkout(tmp_path / "repo", {"precon.txt": "valid.txt", "bolt.txt": "illegal.txt",
                                             "Éowyn.txt": "illegal.txt", "two\nlines.txt": "illegal.txt"})
    os.symlink(outside, repo / "decks" / "secret.txt")  # a link git commits as a link
    os.symlink(".", repo / "decks" / "loop")
    os.symlink(".", repo / "decks" / "loop2")
    shutil.copy(ROOT / "tests" / "fixtures" / "cards.jsonl", repo / "cards.jsonl")
    os.symlink("../.git/config", repo / "decks" / "config.txt")  # the checkout's token
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "decks")
    # What actions/checkout's persist-credentials leaves for later git commands.
    with open(repo / ".git" / "config", "a") as config:
        config.write(f'[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic {SECRET}\n')
    return repo


def run(workspace, tmp_path, action_path, name="job", **inputs):
    """One job of the action in the workspace (a fresh runner temp dir each time)."""
    cache = tmp_path / "cache"
    cache.mkdir(exist_ok=True)
    return run_offline(workspace, {"bulk-file": "cards.jsonl", **inputs}, temp=tmp_path / name, home=tmp_path / "home",
                       cache=cache, action_path=action_path)


def test_a_committed_link_out_is_annotated_never_read(workspace, tmp_path, action_path):
    done = run(workspace, tmp_path, action_path)
    check = done.step("check")
    assert check.returncode == 2, check.stdout + check.stderr
    log = check.stdout + check.stderr
    assert SECRET not in log
    found = annotations(check.stdout)
    assert ("error", {"file": "decks/secret.txt", "title": "edh-validate"}, OUT) in found
    assert ("error", {"file": "decks/config.txt", "title": "edh-validate"}, HIDDEN) in found
    # Every other deck was checked, the names git would have quoted included.
    files = {props["file"] for _, props, _ in found}
    assert {"decks/bolt.txt", "decks/Éowyn.txt", "decks/two\\nlines.txt"} <= files
    assert check.stderr.splitlines() == [f"edh-validate: error: decks/{name}" for name in
                                         (f"config.txt: {HIDDEN}", f"secret.txt: {OUT}")]
    # bolt, Éowyn, two\nlines (invalid), config.txt and secret.txt (not checked); precon passes.
    assert "6 files checked: 1 valid, 3 invalid; 6 errors, 0 warnings; 2 could not be checked." in check.stdout
    assert done.outputs["invalid-files"] == "5"
    commands = [line for line in check.stdout.splitlines() if line.lstrip().startswith("::")]
    assert len(commands) == len(found) == 8  # 2 per invalid deck and the refusals: none injected


def test_a_folder_with_link_loops_and_links_out(workspace, tmp_path, action_path):
    done = run(workspace, tmp_path, action_path, paths="decks/", format="text")
    check = done.step("check")
    assert check.returncode == 2
    assert SECRET not in check.stdout + check.stderr
    assert check.stderr.splitlines() == [f"edh-validate: error: decks/{name}" for name in
                                         (f"config.txt: {HIDDEN}", f"secret.txt: {OUT}")]
    assert "decks/two\\nlines.txt: invalid (2 errors, 0 warnings)" in check.stdout.splitlines()
    assert done.outputs["invalid-files"] == "5"


def test_a_bulk_file_linked_out_of_the_workspace_is_refused(workspace, tmp_path, action_path, outside):
    (workspace / "cards.jsonl").unlink()
    os.symlink(outside, workspace / "cards.jsonl")
    git(workspace, "add", "cards.jsonl")
    git(workspace, "commit", "-qm", "bulk file")
    done = run(workspace, tmp_path, action_path)
    key = done.step("key")
    assert key.returncode == 2
    assert key.stderr.splitlines()[-1] == f"::error title=edh-validate::bulk file cards.jsonl: {OUT}"
    assert [done.step(step).outcome for step in ("build", "check")] == ["skipped", "skipped"]
    assert SECRET not in "".join(step.stdout + step.stderr for step in done.steps)


def digest(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """scripts/bulk_digest.py ARGS, as the key step runs it."""
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "bulk_digest.py"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_bulk_digest_hashes_a_regular_file_and_refuses_a_fifo(tmp_path):
    bulk = tmp_path / "cards.jsonl"
    bulk.write_bytes(b"x" * (3 * 1024 * 1024 + 5))  # more than one chunk
    done = digest("cards.jsonl", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout == hashlib.sha256(bulk.read_bytes()).hexdigest()[:16] + "\n"
    os.mkfifo(tmp_path / "pipe.jsonl")
    done = digest("pipe.jsonl", cwd=tmp_path)  # no writer: a blocking open would hang
    assert done.returncode == 2
    assert done.stderr == "::error title=edh-validate::bulk file pipe.jsonl: cannot read: not a regular file\n"
