"""A client cannot write the service's log: a decoded `%0A` in the path forged a
`[CRITICAL]` line in the text format `make run` uses, and ESC sequences reached the
operator's terminal. Real gunicorn, both log formats, access log on."""

from __future__ import annotations

import json
import logging
import shutil
import time

import pytest
import requests

from edh_service.serving.log_text import EscapeControls, escaped
from tests.support.live_http import gunicorn

FORGED = "[2026-12-05 07:00:00 +0000] [1] [CRITICAL] forged"
PATH = ("/x%0A%5B2026-12-05%2007:00:00%20+0000%5D%20%5B1%5D%20%5BCRITICAL%5D%20forged"
        "%1B%5B31m%0D%C2%9B2J%E2%80%AE")  # \n, the forged line, ESC [31m, CR, C1 CSI, a bidi override
RAW_CONTROLS = ("\x1b", "\x9b", "\r", "\u202e")


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_path_cannot_forge_a_log_line_or_reach_the_terminal(_fixture_db_template, tmp_path, log_format):
    db = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    log = tmp_path / "gunicorn.log"
    with gunicorn(log, CARD_DB=str(db), LOG_FORMAT=log_format, ACCESS_LOG="-", LOG_LEVEL="info") as (base, _):
        assert requests.get(base + PATH, timeout=10).status_code == 404
        assert requests.post(base + "/api/v1/validate" + PATH.replace("/x", "?lang="), data=b"1 Sol Ring",
                             headers={"Content-Type": "text/plain"}, timeout=10).status_code in (200, 422)
        time.sleep(0.5)  # the log lines are written
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "forged" in text  # the request was logged...
    lines = text.splitlines()
    assert not any(line.startswith(FORGED) for line in lines)  # ...inside its own line
    assert not any(control in text for control in RAW_CONTROLS)
    if log_format == "json":
        for line in lines:
            if line.startswith("{"):
                json.loads(line)


def test_every_control_character_is_escaped_but_a_tracebacks_own_line_breaks():
    assert escaped("a\nb\r\tc\x1b[31m\x7f\x9b\u2028\u202e") == "a\\nb\\r\\tc\\x1b[31m\\x7f\\x9b\\u2028\\u202e"
    try:
        raise ValueError("bad\nname\x1b")
    except ValueError:
        record = logging.LogRecord("edh", logging.ERROR, __file__, 1, "read %s\n%s", ("x\x1b", "y"),
                                   exc_info=__import__("sys").exc_info())
    assert EscapeControls().filter(record)
    assert record.getMessage() == "read x\\x1b\\ny"
    assert "Traceback" in record.exc_text and "\\x1b" in record.exc_text and "\x1b" not in record.exc_text
    assert EscapeControls().filter(record) and record.getMessage() == "read x\\x1b\\ny"  # idempotent
