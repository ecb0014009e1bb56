"""Types stay true (DESIGN.md "The compiled core"): validator/ passes `mypy --strict`, and
card_data/ and edh_service/ pass mypy with the project's config (pyproject.toml's
[tool.mypy]): the types mypyc compiles the engine and the pipeline from. mypy is pinned in
requirements-dev.txt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("arguments", (["--strict", "validator"], ["card_data", "edh_service"]), ids=("strict", "config"))
def test_the_packages_type_check(arguments):
    """mypy finds nothing to say."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", *arguments], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
