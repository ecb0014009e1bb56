"""JSON in and out with orjson (issue 24): Flask's JSON provider, and the request bodies'
parser with the standard library's exact answers kept for every body orjson refuses.

orjson is several times faster than the standard library at both ends of a validation
(the body in, the report out). Its output is compact JSON in UTF-8 with the keys in
insertion order, as the API documents its fields; the standard library's `ensure_ascii`
escapes are gone (the same JSON, fewer bytes). Reading, orjson is stricter than
`json.loads` (64-bit integers only, UTF-8 only, no NaN, no lone surrogate, 1,024 levels of
nesting): whatever it refuses goes through `json.loads` as before, so every body reads as
it did, and every refusal says what it said.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, cast

import orjson
from flask import Flask, Response
from flask.json.provider import JSONProvider

OPTIONS = orjson.OPT_NON_STR_KEYS  # a dict keyed by ints (none today) dumps as the stdlib would
# orjson reads an integer outside 64 bits as a float (-9223372036854775809 -> -9.2e18) where
# json.loads keeps it exact: a document orjson read with a float in it goes to json.loads
# when its body holds 19 digits in a row (no real request has such a run outside a string,
# and a string's run only costs the slower reader). A document of a few values without a
# float is not scanned at all (the scan was 2 µs of a 2.5 KB deck). Bytes are scanned with
# every digit made "0", then one substring search for 19 of them: a tenth of the pattern
# search's time (47 -> 5 µs for a 2.5 KB deck; the pattern tried a match at every byte).
_DIGITS_AS_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)
_RUN = b"0" * 19
_LONG_DIGITS_TEXT = re.compile(r"[0-9]{19}")
# A parsed body is looked through for a float in at most this many lists and objects, and
# values in them; past either, its bytes are scanned.
WALKED_CONTAINERS = 16
WALKED_VALUES = 256


def has_long_digits(data: bytes | bytearray | str) -> bool:
    """Whether 19 (or more) ASCII digits stand in a row anywhere in the body."""
    if isinstance(data, (bytes, bytearray)):
        return _RUN in data.translate(_DIGITS_AS_ZERO)
    return _LONG_DIGITS_TEXT.search(data) is not None


def may_hold_float(document: Any) -> bool:
    """Whether a parsed JSON document may hold a float: True when it holds one, or when it
    has more than WALKED_CONTAINERS lists and objects or WALKED_VALUES values in them (the
    byte scan is then the cheaper answer: 1 µs for a list of 100 objects that took 90 µs
    to walk whole; at most some 10 µs are spent before giving up). Each list's or object's
    values are looked at in one pass of `type`."""
    pending = [document]
    values = WALKED_VALUES
    for _ in range(WALKED_CONTAINERS):
        if not pending:
            return False
        value = pending.pop()
        if type(value) is dict:
            value = value.values()
        elif type(value) is not list:
            return type(value) is float  # the document itself is the one value
        values -= len(value)
        if values < 0:
            return True
        kinds = set(map(type, value))
        if float in kinds:
            return True
        if list in kinds or dict in kinds:
            pending.extend(inner for inner in value if type(inner) is list or type(inner) is dict)
    return bool(pending)


def loads(data: bytes | str, parse_int: Callable[[str], Any] | None = None) -> Any:
    """A JSON document: orjson's reading when it accepts it (and read no long integer as a
    float), else json.loads's answer or error (`parse_int` as json.loads takes it: what a
    long integer becomes)."""
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data, parse_int=parse_int)
    if may_hold_float(document) and has_long_digits(data):
        return json.loads(data, parse_int=parse_int)
    return document


def dumps_bytes(obj: Any) -> bytes:
    """Compact UTF-8 JSON, keys in insertion order. A dict keyed by other than text is
    written as the standard library writes it (OPT_NON_STR_KEYS: it doubles orjson's time,
    so it is asked for only when the plain call refused the keys). A string holding a lone
    surrogate (which orjson cannot write: a test client's body, a log of what json.loads
    read) is written as the standard library writes it, with a `\\ud800` escape: valid JSON,
    never a TypeError."""
    try:
        return orjson.dumps(obj, default=_default)
    except TypeError:  # a key that is no str, a lone surrogate, or a value nothing serializes
        pass
    try:
        return orjson.dumps(obj, option=OPTIONS, default=_default)
    except TypeError as error:
        if "surrogates" not in str(error):
            raise
        return json.dumps(obj, default=_default, separators=(",", ":")).encode()


def _default(value: Any) -> Any:
    """What orjson does not serialize natively: anything iterable as a list (frozensets,
    MappingProxy views...), else the standard library's refusal."""
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


class OrjsonProvider(JSONProvider):
    """Flask's app.json: jsonify, request.get_json and `return dict` all go through orjson."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps_bytes(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """jsonify(): the body as orjson's bytes, with no str round trip."""
        obj = self._prepare_response_obj(args, kwargs)
        return cast(Flask, self._app).response_class(dumps_bytes(obj), mimetype="application/json")
