"""Reading an API request: a validate body from JSON or text/plain (query parameters as its
options), the JSON body parsed with its failures as 400s that say why, a text body in its
charset, and a marshmallow schema's load with its 422 (edh_service.api.request_loading's
compiled checks first)."""

from __future__ import annotations

import codecs
import json
import re
from typing import Any, Mapping

from flask import request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from edh_service.api import json_codec, schemas
from edh_service.api.errors import Said, said, unprocessable
from edh_service.i18n.app import set_language
from edh_service.api.request_loading import loader_for, trimmed
from validator.messages import Text, msg

# A JSON escape of a UTF-16 surrogate, \uD800 to \uDFFF (any case).
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
# The charsets a text/plain body may name (Python's codec names, "-" read as "_"): Unicode's
# and the registered legacy ones. The codec registry holds more that are no charset:
# unicode_escape and raw_unicode_escape decode backslash escapes nobody typed (and made a
# lone surrogate, a 500, out of "\\ud800"), UTF-7 hides markup from filters, and punycode,
# idna, charmap, palmos and undefined are no text encodings anyone sends a list in.
TEXT_CHARSETS = re.compile(
    r"(?:utf_8(?:_sig)?|utf_(?:16|32)(?:_[lb]e)?|ascii|iso8859_\d+|cp\d+|mac_[a-z0-9]+|koi8_[a-z]|"
    r"kz1048|ptcp154|tis_620|hp_roman8|shift_jis(?:_2004|x0213)?|euc_[a-z0-9_]+|gb2312|gbk|gb18030|"
    r"hz|big5(?:hkscs)?|iso2022_[a-z0-9_]+|johab)\Z")
QUERY_LISTS = ("commanders", "include", "signature_spells")  # the query options that are lists: repeat them for more values


def read_validate_request() -> dict:
    """A validate request from JSON, or from a text/plain body; query parameters give the
    options either way (JSON fields win over them)."""
    served = request._get_current_object()  # type: ignore[attr-defined]  # one look-up through the context proxy
    if served.is_json:
        body = read_json()
        if isinstance(body, dict) and served.environ.get("QUERY_STRING"):  # no query string: nothing to parse
            body = {**query_options(), **body}
        return load(schemas.validate_request_schema, body)
    if served.mimetype == "text/plain":
        return load(schemas.validate_request_schema, {**query_options(), "decklist": read_text()})
    raise said(UnsupportedMediaType(), msg("Send the decklist as application/json or text/plain."))


def body_language(body: Any) -> None:
    """A JSON body's `lang` decides the answer's language before anything in it is checked, so
    even its 422 is in that language (a `lang` that is no text is left to the schema's 422)."""
    if type(body) is dict and isinstance(lang := body.get("lang"), str):
        set_language(lang)


def query_options() -> dict:
    """The options given as query parameters, checked like the JSON fields (422 if wrong)."""
    if not request.args:
        return {}
    given = {key: values if key in QUERY_LISTS else values[0] for key, values in request.args.lists()}
    # ?bracket=3&bracket=4 was silently 3: a single-valued option given twice is refused
    repeated = [key for key, values in request.args.lists()
                if len(values) > 1 and key not in QUERY_LISTS and key in schemas.validate_query_schema.fields]
    if repeated:
        raise unprocessable(msg("The query string gives {options} more than once; give each option once.",
                                options=", ".join(repeated)),
                            {key: [msg("Given more than once; give it once.")] for key in repeated})
    loaded = load(schemas.validate_query_schema, given)
    return {key: value for key, value in loaded.items() if key in given}  # no defaults yet


def read_json() -> Any:
    """The JSON body; 415 for another media type, 400 when it does not parse."""
    served = request._get_current_object()  # type: ignore[attr-defined]  # one look-up through the context proxy
    if not served.is_json:
        raise said(UnsupportedMediaType(), msg("Send a JSON body with Content-Type: application/json."))
    data = served.get_data()
    # json.loads rather than request.get_json: parse_int keeps a 5,000-digit number from
    # reading as broken JSON (a 400), and the parser's reason reaches the client (Flask hides it).
    try:
        body = json_codec.loads(data, parse_int=schemas.integer)  # orjson, else json.loads
    except UnicodeDecodeError:
        raise said(BadRequest(), msg("The JSON body is not valid UTF-8.")) from None
    except ValueError as error:
        raise said(BadRequest(), msg("The body is not valid JSON: {reason}", reason=str(error))) from None
    except RecursionError:
        # json.loads recurses once per nesting level: 100,000 "[" overflowed into a 500.
        raise said(BadRequest(), msg("The JSON body is nested too deeply.")) from None
    try:
        # JSON may escape a lone surrogate ("\ud800"): valid JSON, but no text. It reached
        # SQLite's UTF-8 encoder as a 500; refuse it here like any other undecodable body.
        # Only an escape can make one (strict UTF-8 refuses encoded surrogates), so a body
        # without any such escape is not encoded again (that cost ~10 µs a deck).
        if b"\\u" in data and SURROGATE_ESCAPE.search(data):  # the substring test first: a fast scan
            json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise said(BadRequest(), msg("The JSON body holds an unpaired surrogate escape; it is not valid Unicode.")) \
            from None
    body_language(body)
    return body


def read_text() -> str:
    """A text/plain body decoded with its charset (UTF-8 by default); 415 for a charset that
    is no text charset (TEXT_CHARSETS), even where Python has a codec by that name."""
    charset = request.mimetype_params.get("charset", "utf-8")
    try:
        codec = codecs.lookup(charset).name
    except LookupError:
        codec = ""
    if not TEXT_CHARSETS.match(codec.replace("-", "_")):
        raise said(UnsupportedMediaType(), msg("Unsupported charset {charset}: send UTF-8 (or another text charset "
                                               "such as UTF-16 or Windows-1252).", charset=repr(charset)))
    # utf-8-sig drops the byte-order mark Windows editors write, so line 1 still parses.
    codec = "utf-8-sig" if codec == "utf-8" else codec
    try:
        return request.get_data(cache=False).decode(codec)
    except UnicodeDecodeError as error:
        raise said(BadRequest(), msg("The body is not valid {charset}: byte {byte} cannot be decoded.",
                                     charset=charset, byte=str(error.start))) from None
    except UnicodeError:  # some codecs raise the bare base class
        raise said(BadRequest(), msg("The body is not valid {charset}.", charset=charset)) from None


def load(schema: Schema, data: Any) -> dict:
    """Load through a schema (its compiled checks for the clear case, request_loading);
    shape problems become a 422 listing every field."""
    try:
        return loader_for(schema).load(data)
    except ValidationError as error:
        text = msg("The request does not have the expected shape.")
        messages = trimmed(error.messages)
        unknown = format_message(messages)
        if unknown:  # DESIGN: the message itself lists the seven keys
            text = text.then(unknown.text if isinstance(unknown, Said) else Text("{problem}", (("problem", unknown),)))
        raise unprocessable(text, messages) from None


def format_message(messages: Any) -> str | None:
    """The first `format` field's message in a schema's (nested) error messages, if any."""
    if not isinstance(messages, Mapping):
        return None
    for key, value in messages.items():
        if key == "format" and isinstance(value, list) and value and isinstance(value[0], str):
            return value[0]
        found = format_message(value)
        if found:
            return found
    return None
