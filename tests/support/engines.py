"""Tests that replace an engine function with monkeypatch: the compiled engine (mypyc) calls
its own functions directly, so a replacement is never seen there. They run on the plain
source (`make test`); tests/test_engines.py holds the compiled build to its answers."""

from __future__ import annotations

import pytest

from validator import ENGINE

plain_python_only = pytest.mark.skipif(
    ENGINE == "compiled", reason="replaces an engine function, which the compiled engine calls directly")
