"""The Action's cache key for a bulk file in the checkout: the first 16 hex digits of its
SHA-256, printed on stdout.

    python scripts/bulk_digest.py PATH

A bulk file that is a link out of the current directory (the workspace), a broken link,
or not a regular file (a FIFO, /dev/zero) is refused before a byte is read: an error
annotation (a workflow command) on stderr, exit code 2. The file is hashed in chunks: a 100 MB file costs no 100 MB of
memory. The Action runs it after installing the validator, whose edh_service.cli it imports.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys

from edh_service.cli.paths import bulk_file_refusal
from edh_service.cli.reading import OPEN_FLAGS
from edh_service.cli.render import workflow_command
from edh_service.cli.results import EXIT_USAGE, PROG

CHUNK = 1024 * 1024


def digest(path: str) -> str:
    """The file's digest for the cache key; ValueError (why) when it may not be read."""
    if refused := bulk_file_refusal(path):
        raise ValueError(refused)
    descriptor = os.open(path, OPEN_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise ValueError("cannot read: not a regular file")
        sha = hashlib.sha256()
        while chunk := os.read(descriptor, CHUNK):
            sha.update(chunk)
    finally:
        os.close(descriptor)
    return sha.hexdigest()[:16]


def main(argv: list[str]) -> int:
    """Print the digest (exit 0), or why the file is refused (stderr, exit 2)."""
    [path] = argv
    try:
        print(digest(path))
    except (OSError, ValueError) as error:
        # stderr: the step reads stdout into the key; the runner reads commands on both.
        print(workflow_command("error", f"bulk file {path}: {error}", title=PROG), file=sys.stderr)
        return EXIT_USAGE
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
