"""Log lines that say what a client sent without letting it write the log.

A request's path, headers and names reach log messages. In a text log a decoded `%0A` in
the path started a line of the client's choosing (`[CRITICAL] ...`), and an ESC sequence
reached the operator's terminal as a command. Every log format of the service escapes
control characters in what it writes: C0 and C1 controls, DEL, the Unicode line and
paragraph separators and the bidirectional overrides (which reorder what a terminal
shows). A traceback keeps its own line breaks; nothing else in a record does.
"""

from __future__ import annotations

import logging

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_CONTROLS = [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
ESCAPES = {point: _NAMED.get(chr(point)) or (f"\\x{point:02x}" if point < 0x100 else f"\\u{point:04x}")
           for point in _CONTROLS}
# In a traceback the line breaks are the traceback's own.
TRACEBACK_ESCAPES = {point: text for point, text in ESCAPES.items() if point != ord("\n")}
# What json.dumps leaves as it is (it escapes those below 0x20 itself), as JSON escapes.
JSON_ESCAPES = {point: f"\\u{point:04x}" for point in _CONTROLS if point >= 0x7F}


def escaped(text: str) -> str:
    """The text with every control character written as an escape (`\\n`, `\\x1b`, `\\u202e`)."""
    return text.translate(ESCAPES)


class EscapeControls(logging.Filter):
    """A handler's filter: the record's message (with its arguments) and exception text are
    escaped before any formatter sees them (idempotent: an escape is plain text)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = escaped(message)
        if clean != message or record.args:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = record.exc_text.translate(TRACEBACK_ESCAPES)
        if record.stack_info:
            record.stack_info = record.stack_info.translate(TRACEBACK_ESCAPES)
        return True


def escape_handlers(*loggers: logging.Logger) -> None:
    """Give every handler of these loggers the EscapeControls filter (once)."""
    for logger in loggers:
        for handler in logger.handlers:
            if not any(isinstance(existing, EscapeControls) for existing in handler.filters):
                handler.addFilter(EscapeControls())
