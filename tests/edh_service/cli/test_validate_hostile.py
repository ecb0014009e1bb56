"""edh-validate on a hostile checkout (issue 19): links out of the tree and link loops,
files that are not decklists (FIFOs, devices, 1 GiB, unreadable), too many files, and
card names or paths carrying control characters.

Every tree is made of real files and real symbolic links in tmp_path; the command runs
in-process (tests/support/cli_runs.py run_cli) and, where the process itself matters (a FIFO
that would block, bytes that are not UTF-8 on a real stdout, dropped privileges), as a
subprocess (run_process).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from edh_service.cli import paths, printable, reading, validate
from tests.support.cli_runs import (COMMAND, LINK_HIDDEN as HIDDEN, LINK_OUT as OUT, ROOT, SAMPLES, annotations, deck_checkout,
                            environment, run_cli, run_process)

SECRET = "SECRET-TOKEN-1234"  # what a file outside the checkout holds: never in any output


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """A checkout (the current directory): decks/ with a valid and an illegal list."""
    root = deck_checkout(tmp_path / "repo", {"valid.txt": "valid.txt", "illegal.txt": "illegal.txt"})
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the checkout, holding a 'decklist' whose second line is a secret."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(f"1 Sol Ring\n1 {SECRET}\n")
    return folder


def check(fixture_db, repo, *args, output="text", run=run_cli, **kwargs):
    """edh-validate offline over the fixture store, in the checkout."""
    return run("--offline", "--card-db", fixture_db, "--format", output, *args, cwd=repo, **kwargs)


def errors(result) -> list[str]:
    """The stderr lines."""
    return result.stderr.splitlines()


STATUS = re.compile(r"^(.*?): ((?:valid|invalid) \(|not checked: )")


def checked(result) -> dict[str, str]:
    """Each file's status line in text output: name -> the rest ("valid (...)", "not checked: ...")."""
    found = {}
    for line in result.stdout.splitlines():
        if match := STATUS.match(line):
            found[match.group(1)] = line[len(match.group(1)) + 2:]
    return found


# --- links out of the tree -------------------------------------------------------------


@pytest.mark.parametrize("argument", ["decks", "decks/", "decks/*.txt", "decks/**/*.txt", "**/*.txt", "."])
def test_a_link_out_of_the_tree_is_reported_never_read(fixture_db, repo, outside, argument):
    os.symlink(outside / "secret.txt", repo / "decks" / "x.txt")
    result = check(fixture_db, repo, argument)
    assert result.returncode == 2  # a deck that was not checked must not pass
    name = "./decks/x.txt" if argument == "." else "decks/x.txt"
    assert errors(result) == [f"edh-validate: error: {name}: {OUT}"]
    assert SECRET not in result.stdout + result.stderr
    status = checked(result)
    assert status[name] == f"not checked: {OUT}"
    assert status[name.replace("x.txt", "illegal.txt")].startswith("invalid (2 errors")
    assert result.stdout.splitlines()[-1] == (
        "3 files checked: 1 valid, 1 invalid; 2 errors, 0 warnings; 1 could not be checked.")


def test_a_link_out_named_explicitly_is_reported_and_annotated(fixture_db, repo, outside):
    os.symlink(outside / "secret.txt", repo / "decks" / "x.txt")
    result = check(fixture_db, repo, "decks/x.txt", "decks/illegal.txt", output="github", run=run_process)
    assert result.returncode == 2
    assert SECRET not in result.stdout + result.stderr
    found = annotations(result.stdout)
    assert ("error", {"file": "decks/x.txt", "title": "edh-validate"}, OUT) in found
    assert ("error", {"file": "decks/illegal.txt", "line": "23", "title": "banned"},
            "Mana Crypt is banned in Commander.") in found
    assert errors(result) == [f"edh-validate: error: decks/x.txt: {OUT}"]


def test_a_folder_link_out_of_the_tree_is_not_walked(fixture_db, repo, outside):
    os.symlink(outside, repo / "decks" / "shelf")
    result = check(fixture_db, repo, "decks", output="json")
    assert result.returncode == 2
    assert SECRET not in result.stdout + result.stderr
    bodies = {body["file"]: body for body in json.loads(result.stdout)}
    assert sorted(bodies) == ["decks/illegal.txt", "decks/shelf", "decks/valid.txt"]
    assert bodies["decks/shelf"] == {"file": "decks/shelf", "valid": False, "error": OUT}


@pytest.mark.parametrize("argument", ["lists", "lists/secret.txt", "lists/*.txt", "lists/**"])
def test_an_argument_through_a_committed_link_out_is_refused(fixture_db, repo, outside, argument):
    # The workflow names lists/; the pull request made lists a link to the runner's files.
    os.symlink(outside, repo / "lists")
    result = check(fixture_db, repo, argument)
    assert result.returncode == 2
    assert SECRET not in result.stdout + result.stderr
    assert len(errors(result)) == 1 and errors(result)[0].endswith(OUT)


def test_an_absolute_folder_is_read_as_named_but_its_links_out_are_not(fixture_db, repo, outside, tmp_path):
    # Outside the current directory, the tree is the folder the argument names: the user
    # named it, so its own files are read; a link in it that leaves it is not.
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("1 Elsewhere Card\n")
    os.symlink(elsewhere, outside / "link.txt")
    result = check(fixture_db, repo, str(outside))
    assert result.returncode == 2
    assert SECRET in result.stdout  # read: unknown_card quotes it (the user asked for this folder)
    assert "Elsewhere Card" not in result.stdout + result.stderr
    assert errors(result) == [f"edh-validate: error: {outside / 'link.txt'}: cannot read: a symbolic link "
                              f"out of {outside}, not followed"]


def test_a_link_into_a_hidden_place_of_the_tree_is_not_followed(fixture_db, repo):
    # actions/checkout leaves the job's token in .git/config; a job may leave .env.
    (repo / ".git").mkdir()
    (repo / ".git" / "config").write_text(f"[http]\n\textraheader = AUTHORIZATION: basic {SECRET}\n")
    (repo / ".env").write_text(f"TOKEN={SECRET}\n")
    os.symlink("../.git/config", repo / "decks" / "config.txt")
    os.symlink("../.env", repo / "decks" / "env.txt")
    os.symlink("../.git", repo / "decks" / "git")
    result = check(fixture_db, repo, "decks", "decks/config.txt")
    assert result.returncode == 2
    assert SECRET not in result.stdout + result.stderr
    assert errors(result) == [f"edh-validate: error: decks/{name}: {HIDDEN}"
                              for name in ("config.txt", "env.txt", "git")]


def test_a_hidden_folder_named_explicitly_is_read_with_its_own_links(fixture_db, repo):
    private = repo / ".private"
    private.mkdir()
    shutil.copy(SAMPLES / "sideboard.txt", private / "deck.txt")
    os.symlink("deck.txt", private / "alias.txt")  # stays in the hidden folder named
    (repo / ".env").write_text(f"TOKEN={SECRET}\n")
    os.symlink("../.env", private / "leak.txt")  # another hidden file: not named
    result = check(fixture_db, repo, ".private/alias.txt", ".private/leak.txt", "--strict")
    assert result.returncode == 2
    assert SECRET not in result.stdout + result.stderr
    assert checked(result)[".private/alias.txt"].startswith("invalid (0 errors, 1 warning)")
    assert errors(result) == [f"edh-validate: error: .private/leak.txt: {HIDDEN}"]


def test_links_that_stay_in_the_tree_are_followed(fixture_db, repo):
    (repo / "lists").mkdir()
    shutil.copy(SAMPLES / "sideboard.txt", repo / "lists" / "real.txt")
    os.symlink("../lists/real.txt", repo / "decks" / "alias.txt")  # a file link
    os.symlink("../lists", repo / "decks" / "shelf")  # a folder link: the same file again
    os.symlink("l2.txt", repo / "decks" / "l1.txt")  # a chain of links, ending inside
    os.symlink("alias.txt", repo / "decks" / "l2.txt")
    result = check(fixture_db, repo, "decks", "--strict")
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    # One check per real file, under the first name reached.
    assert list(checked(result)) == ["decks/alias.txt", "decks/illegal.txt", "decks/valid.txt"]
    assert "decks/alias.txt:24: warning sideboard" in result.stdout


def test_loops_end_the_walk(fixture_db, repo, monkeypatch):
    sub = repo / "decks" / "sub"
    sub.mkdir()
    shutil.copy(SAMPLES / "valid.txt", sub / "deep.txt")
    os.symlink("..", sub / "up")  # a link to an ancestor
    os.symlink(".", repo / "decks" / "a")  # two self-referencing folder links: 2^40 paths for glob
    os.symlink(".", repo / "decks" / "b")
    os.symlink("q", repo / "decks" / "p")  # two links to each other (ELOOP), not deck names
    os.symlink("p", repo / "decks" / "q")
    os.symlink("q.txt", repo / "decks" / "p.txt")  # the same, named like decks
    os.symlink("p.txt", repo / "decks" / "q.txt")
    listed = []
    scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path=".": listed.append(path) or scandir(path))
    result = check(fixture_db, repo, "decks")
    assert result.returncode == 2
    assert list(checked(result)) == ["decks/illegal.txt", "decks/p.txt", "decks/q.txt", "decks/sub/deep.txt",
                                     "decks/valid.txt"]
    assert errors(result) == [f"edh-validate: error: decks/{name}: cannot read: a symbolic link loop"
                              for name in ("p.txt", "q.txt")]
    # Each of the 2 real folders listed once (and used for both '**' and '*').
    assert [path for path in listed if path.startswith("decks")] == ["decks", "decks/sub"]


def test_loops_end_the_walk_of_the_real_process(fixture_db, repo):
    os.symlink(".", repo / "decks" / "a")
    os.symlink(".", repo / "decks" / "b")
    os.symlink("../..", repo / "decks" / "root")  # out of the tree: a folder not walked
    result = check(fixture_db, repo, "decks/**/*.txt", run=run_process)
    assert result.returncode == 2
    assert errors(result) == [f"edh-validate: error: decks/root: {OUT}"]
    assert list(checked(result)) == ["decks/illegal.txt", "decks/root", "decks/valid.txt"]


def test_broken_links_are_reported_with_the_others_checked(fixture_db, repo):
    os.symlink("missing.txt", repo / "decks" / "gone.txt")
    os.symlink("missing", repo / "decks" / "gone-folder")  # no deck name: nothing to report
    result = check(fixture_db, repo, "decks", "decks/gone.txt")
    assert result.returncode == 2
    assert errors(result) == ["edh-validate: error: decks/gone.txt: cannot read: a broken symbolic link"]
    assert list(checked(result)) == ["decks/gone.txt", "decks/illegal.txt", "decks/valid.txt"]


def test_a_bulk_file_linked_out_of_the_tree_is_refused(fixture_db, repo, outside, tmp_path):
    os.symlink(outside / "secret.txt", repo / "cards.jsonl")
    result = run_cli("--offline", "--card-db", tmp_path / "new.sqlite3", "--bulk-file", "cards.jsonl", "decks",
                     cwd=repo)
    assert result.returncode == 2
    assert errors(result) == [f"edh-validate: error: card data unavailable: bulk file cards.jsonl: {OUT}"]
    assert result.stdout == ""
    assert not (tmp_path / "new.sqlite3").exists()


# --- files that are not decklists ----------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(fixture_db, repo):
    os.mkfifo(repo / "decks" / "pipe.txt")
    result = check(fixture_db, repo, "decks", "decks/pipe.txt", run=run_process)  # timeout=120 if it blocks
    assert result.returncode == 2
    assert errors(result) == ["edh-validate: error: decks/pipe.txt: cannot read: not a regular file (a named pipe)"]


def test_a_device_named_explicitly_is_refused_unread(fixture_db, repo):
    result = check(fixture_db, repo, "decks/valid.txt", "/dev/zero")
    assert result.returncode == 2
    assert errors(result) == ["edh-validate: error: /dev/zero: cannot read: not a regular file (a device)"]
    with pytest.raises(ValueError, match=r"not a regular file \(a folder\)"):  # a folder named is walked
        reading.read_file("/dev")


def test_dev_zero_through_a_committed_link_is_not_followed(fixture_db, repo):
    os.symlink("/dev/zero", repo / "decks" / "zero.txt")
    result = check(fixture_db, repo, "decks")
    assert result.returncode == 2
    assert errors(result) == [f"edh-validate: error: decks/zero.txt: {OUT}"]


def test_a_huge_file_is_refused_before_it_is_read(fixture_db, repo):
    huge = repo / "decks" / "huge.txt"
    with open(huge, "wb") as handle:
        handle.truncate(1024 ** 3)  # 1 GiB, sparse: costs no disk
    result = check(fixture_db, repo, "decks")
    assert result.returncode == 2
    assert errors(result) == ["edh-validate: error: decks/huge.txt: cannot read: over 4 MiB (1,073,741,824 bytes): "
                              "no decklist is that large"]
    assert checked(result)["decks/illegal.txt"].startswith("invalid")


def test_every_real_decklist_is_within_the_size_limit(shared_dir):
    # The limit is twice the largest real export in ../shared/decks (a TCGplayer API deck).
    decks = [path for path in (shared_dir / "decks").rglob("*") if path.is_file()]
    largest = max(decks, key=lambda path: path.stat().st_size)
    assert 2 * largest.stat().st_size <= reading.MAX_FILE_BYTES
    assert reading.read_input(str(largest)).startswith("{")


def test_stdin_is_read_up_to_the_limit(fixture_db, repo, monkeypatch):
    monkeypatch.setattr(reading, "MAX_FILE_BYTES", 1000)
    text = (SAMPLES / "illegal.txt").read_text()
    assert len(text.encode()) < 1000
    assert check(fixture_db, repo, "-", stdin=text).returncode == 1
    result = check(fixture_db, repo, "-", stdin=text + " " * 1000)
    assert result.returncode == 2
    assert errors(result) == ["edh-validate: error: <stdin>: cannot read: over 1,000 bytes: no decklist is that large"]


def test_a_folder_named_like_a_deck_is_walked_not_read(fixture_db, repo):
    folder = repo / "decks" / "folder.txt"
    folder.mkdir()
    shutil.copy(SAMPLES / "sideboard.txt", folder / "inner.txt")
    result = check(fixture_db, repo, "decks")
    assert result.returncode == 1, result.stderr
    assert list(checked(result)) == ["decks/folder.txt/inner.txt", "decks/illegal.txt", "decks/valid.txt"]
    assert list(checked(check(fixture_db, repo, "decks/folder.txt"))) == ["decks/folder.txt/inner.txt"]


def unprivileged(command: list[str]) -> list[str]:
    """The command run without root's right to read any file: as root, in a new user
    namespace (`unshare --user`: file permissions apply to it as to their owner)."""
    if os.geteuid() != 0:
        return command
    if shutil.which("unshare") is None or subprocess.run(["unshare", "--user", "true"]).returncode != 0:
        pytest.skip("running as root without unshare --user: every file is readable")
    return ["unshare", "--user", *command]


def test_an_unreadable_file_and_folder_are_reported_with_the_others_checked(fixture_db, repo):
    (repo / "decks" / "locked.txt").write_text("1 Sol Ring\n")
    (repo / "decks" / "locked.txt").chmod(0)
    (repo / "decks" / "private").mkdir()
    shutil.copy(SAMPLES / "valid.txt", repo / "decks" / "private" / "hidden.txt")
    (repo / "decks" / "private").chmod(0)
    try:
        done = subprocess.run(unprivileged([sys.executable, "-m", "cli", "--offline", "--card-db", str(fixture_db),
                                            "decks"]),
                              cwd=repo, capture_output=True, text=True, timeout=120,
                              env={**environment(None), "PYTHONPATH": str(ROOT)})
    finally:
        (repo / "decks" / "private").chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        "edh-validate: error: decks/locked.txt: cannot read: [Errno 13] Permission denied: 'decks/locked.txt'",
        "edh-validate: error: decks/private: cannot list: Permission denied",
    ]
    assert "decks/illegal.txt: invalid (2 errors, 0 warnings)" in done.stdout


def test_too_many_decklists_stop_the_run_with_a_clear_message(fixture_db, repo, monkeypatch):
    many = repo / "decks" / "many"
    many.mkdir()
    for index in range(paths.MAX_FILES - 1):  # with valid.txt and illegal.txt: one over the limit
        (many / f"{index}.txt").write_bytes(b"")
    checks = []
    monkeypatch.setattr(validate, "check_file", lambda *args, **kwargs: checks.append(args))
    result = check(fixture_db, repo, "decks")
    assert result.returncode == 2
    assert errors(result) == ["edh-validate: error: more than 10,000 decklist files to check: check fewer "
                              "folders at a time"]
    assert checks == [] and result.stdout == ""  # refused before any file was read


def test_a_huge_tree_stops_the_walk_with_a_clear_message(fixture_db, repo, monkeypatch):
    monkeypatch.setattr(paths, "MAX_ENTRIES", 50)
    for index in range(60):
        (repo / "decks" / f"note-{index}.log").write_bytes(b"")
    result = check(fixture_db, repo, "decks")
    assert result.returncode == 2
    assert errors(result) == ["edh-validate: error: more than 50 files and folders to look at (in decks and before): "
                              "name the decklist folders instead"]
    monkeypatch.setattr(paths, "MAX_ENTRIES", 62)  # 60 notes and 2 decks, each looked at once: within it
    assert check(fixture_db, repo, "decks").returncode == 1


def test_the_dck_dialect_test_is_linear(repo):
    # "^\s*" from every line start ran across all the lines after it: 20,000 newlines took
    # 29 s. Compared with a normal list's time in the same run, and a generous bound.
    import time

    normal = (SAMPLES / "valid_forge.dck").read_text()
    hostile = ["\n" * 1_000_000, (" " * 50 + "\n") * 20_000, "1 [x\n" * 200_000, "SB: 1 [a" * 100_000 + "\n"]
    start = time.perf_counter()
    for _ in range(10):
        assert reading.dck_dialect(normal) == "forge"
    baseline = (time.perf_counter() - start) / 10
    for text in hostile:
        start = time.perf_counter()
        assert reading.dck_dialect(text) is None
        assert time.perf_counter() - start < max(2.0, 5000 * baseline)


# --- control characters ----------------------------------------------------------------

# One name per kind of character that would break a line, steer a terminal or reorder text.
HOSTILE_NAMES = {
    "lf": "Sol Ring\n::warning::lf",
    "crlf": "Sol Ring\r\n::error file=decks/valid.txt,line=1::crlf",
    "cr": "Sol Ring\r::error::cr",
    "vt-ff": "Sol\x0b::error::vt\x0c::error::ff",
    "separators": "Sol\x1c::error::fs\x1d\x1e",
    "nel": "Sol\x85::error::nel",
    "line-separator": "Sol\u2028::error::ls",
    "paragraph-separator": "Sol\u2029::error::ps",
    "esc": "Sol \x1b[2K\x1b[1A\x1b]0;title\x07Ring",
    "c1-csi": "Sol\x9b31m Ring",
    "del-nul": "Sol\x7f\x00 Ring",
    "bidi": "Sol \u202eRing\u202c \u2066x\u2069 \u200f",
    "legacy-command": "##[error]legacy ##[stop-commands]token",
    "noncharacter": "Sol\ufffe\uffff Ring",
}


def hostile_export(path: Path) -> None:
    """A Moxfield JSON export whose card names carry every kind of HOSTILE_NAMES."""
    mainboard = {key: {"quantity": 1, "card": {"name": name}} for key, name in HOSTILE_NAMES.items()}
    commander = {"a": {"quantity": 1, "card": {"name": "Atraxa, Praetors' Voice"}}}
    path.write_text(json.dumps({"commanders": commander, "mainboard": mainboard}))


BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unprintable(text: str) -> list[str]:
    """The characters no output may carry raw, told by Unicode's own categories (not by
    printable.UNPRINTABLE, which is what is under test): controls, surrogates, the line and
    paragraph separators, bidi controls, and the noncharacters U+FFFE, U+FFFF."""
    return [c for c in text if unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in BIDI
            or c in "\ufffe\uffff"]


def assert_plain(output: str, *, github: bool = False) -> list[str]:
    """No line (in Python's widest sense: CR, VT, FF, NEL, U+2028...) starts with '::',
    blanks trimmed as the runner trims them, except the github format's own commands; no
    '##[' and no unprintable character anywhere but the newlines that end lines.
    Returns the lines."""
    lines = output.splitlines()
    assert output.count("\n") == len(lines)  # every line break is a plain "\n"
    for line in lines:
        if github and COMMAND.match(line):
            props = dict(p.split("=", 1) for p in COMMAND.match(line).group(2).split(","))
            assert set(props) <= {"file", "line", "title"}, line
        else:
            assert not line.lstrip().startswith("::"), line
    assert unprintable(output.replace("\n", "")) == [], output
    assert "##[" not in output
    return lines


def every_string(value) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (key, *every_string(item))]
    if isinstance(value, list):
        return [s for item in value for s in every_string(item)]
    return []


@pytest.mark.parametrize("output", ["text", "json", "github", "junit"])
def test_control_characters_in_card_names_never_reach_any_output_raw(fixture_db, repo, output):
    hostile_export(repo / "decks" / "export.json")
    result = check(fixture_db, repo, "decks/export.json", output=output)
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    lines = assert_plain(result.stdout, github=output == "github")
    if output == "json":
        # JSON escapes keep the data whole: a program reading it gets the names as the
        # file had them, while the raw output above holds nothing a log reader obeys.
        [body] = json.loads(result.stdout)  # valid JSON, by construction
        unknown = {card for v in body["violations"] if v["code"] == "unknown_card" for card in v["cards"]}
        assert {HOSTILE_NAMES[key] for key in ("lf", "crlf", "esc", "legacy-command")} <= unknown
        return
    # The names are still there, escaped: the reader can see what the file held.
    assert "Sol Ring\\n::warning::lf" in result.stdout.replace("\\\\", "\\")
    assert "##\\x5berror]legacy" in result.stdout.replace("\\\\", "\\")
    if output == "junit":
        [case] = ET.fromstring(result.stdout).iter("testcase")  # well-formed XML 1.0
        assert "Sol Ring\\n::warning::lf" in case.find("failure").text
    if output == "github":
        # One command per violation, none injected.
        [body] = json.loads(check(fixture_db, repo, "decks/export.json", output="json").stdout)
        assert len([line for line in lines if line.startswith("::")]) == len(body["violations"])


@pytest.mark.parametrize("output", ["text", "json", "github", "junit"])
def test_a_path_holding_a_newline_never_breaks_a_line(fixture_db, repo, output):
    evil = repo / "decks" / "evil\n::error file=valid.txt,line=1::pwned\r\x1b[2K.txt"
    shutil.copy(SAMPLES / "illegal.txt", evil)
    for arguments in (["decks"], [str(evil.relative_to(repo))]):
        result = check(fixture_db, repo, *arguments, output=output)
        assert result.returncode == 1, result.stderr
        assert_plain(result.stdout, github=output == "github")
        shown = "decks/evil\\n%3A%3Aerror file=valid.txt%2C" if output == "github" else \
            "decks/evil\\n::error file=valid.txt,"
        assert shown in result.stdout.replace("\\\\", "\\")
        if output == "junit":
            ET.fromstring(result.stdout)
        if output == "json":
            assert "decks/evil\n::error file=valid.txt,line=1::pwned\r\x1b[2K.txt" in [
                body["file"] for body in json.loads(result.stdout)]


def test_a_path_that_starts_with_a_command_is_shown_with_dot_slash(fixture_db, repo):
    # No control character at all: the text line began "::error::x.txt: invalid ...".
    shutil.copy(SAMPLES / "illegal.txt", repo / "::error::x.txt")
    shutil.copy(SAMPLES / "illegal.txt", repo / "\u00a0::warning::y.txt")  # .NET trims a no-break space
    for output in ("text", "junit"):
        result = check(fixture_db, repo, "::error::x.txt", "\u00a0::warning::y.txt", output=output)
        assert_plain(result.stdout)
        assert "./::error::x.txt" in result.stdout and "./\u00a0::warning::y.txt" in result.stdout
    result = check(fixture_db, repo, "::error::x.txt", output="github")
    assert {props["file"] for _, props, _ in annotations(result.stdout)} == {"%3A%3Aerror%3A%3Ax.txt"}


def test_undecodable_file_names_are_printed_escaped_by_the_real_process(fixture_db, repo):
    # os.listdir gives b"\xff" as "\udcff"; printing it to a real UTF-8 stdout raised
    # UnicodeEncodeError and lost the whole report.
    os.rename(os.fsencode(repo / "decks" / "illegal.txt"), os.fsencode(repo / "decks") + b"/ill\xffegal.txt")
    for output in ("text", "github", "json", "junit"):
        result = check(fixture_db, repo, "decks", output=output, run=run_process,
                       env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})  # a UTF-8 stdout, strict
        assert result.returncode == 1, result.stderr
        assert_plain(result.stdout, github=output == "github")
        assert "decks/ill\\udcffegal.txt" in result.stdout.replace("\\\\", "\\")


def test_an_internal_error_quoting_a_name_prints_a_printable_traceback(fixture_db, repo, monkeypatch):
    from edh_service import pipeline as service

    def crash(text, *args, **kwargs):
        raise ValueError(f"cannot handle {text.split(chr(10))[1]}")

    monkeypatch.setattr(service, "validate_text", crash)
    (repo / "decks" / "x.txt").write_text("1 Sol Ring\n1 A\u2028::error::traceback\x1b[2K\n")
    result = check(fixture_db, repo, "decks/x.txt")
    assert result.returncode == 2
    lines = assert_plain(result.stderr)
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-2] == "ValueError: cannot handle 1 A\\u2028::error::traceback\\x1b[2K"
    assert lines[-1].startswith("edh-validate: error: decks/x.txt: internal error: ValueError(")


def test_argument_errors_quote_arguments_printable(fixture_db, repo):
    result = check(fixture_db, repo, "decks", "--x\n::error::option")
    assert result.returncode == 2
    assert assert_plain(result.stderr)[-1] == "edh-validate: error: unrecognized arguments: --x\\n::error::option"
    result = check(fixture_db, repo, "decks/none\n::error::missing.txt")
    assert result.returncode == 2
    assert assert_plain(result.stderr) == ["edh-validate: error: no such file or directory: "
                                           "decks/none\\n::error::missing.txt"]


@pytest.mark.parametrize(
    ("text", "shown"),
    (
        ("Lim-Dûl's Vault // Fire: 100%", "Lim-Dûl's Vault // Fire: 100%"),  # letters stay letters
        ("a\nb\r\tc", "a\\nb\\r\\tc"),
        ("\x00\x1b\x7f\x85\x9f", "\\x00\\x1b\\x7f\\x85\\x9f"),
        ("\u2028\u2029\u202e\u2066\u200f\u061c", "\\u2028\\u2029\\u202e\\u2066\\u200f\\u061c"),
        ("\udcff\ufffe\uffff", "\\udcff\\ufffe\\uffff"),
        ("##[error]x ## [ok] #[ok]", "##\\x5berror]x ## [ok] #[ok]"),
        ("C:\\decks\\a.txt", "C:\\decks\\a.txt"),
    ),
)
def test_printable(text, shown):
    assert printable.printable(text) == shown
    assert "\n" not in printable.printable(text) and "##[" not in printable.printable(text)


@pytest.mark.parametrize(
    ("path", "shown"),
    (("decks/a.txt", "decks/a.txt"), ("::x.txt", "./::x.txt"), (" ::x.txt", "./ ::x.txt"),
     ("\u3000::x", "./\u3000::x"), ("/abs/::x", "/abs/::x"), ("a::b", "a::b")),
)
def test_shown_path(path, shown):
    assert printable.shown_path(path) == shown
