"""The compiled request checks (edh_service/api/request_loading.py) and the orjson body parser
(edh_service/api/json_codec.py) give exactly the answers marshmallow and json.loads give: the
same loaded dict (keys in the same order) or the same 422 messages, and the same document
or the same refusal, for hand-made bodies, every hostile body tests/hardening sends, and
generated ones. A list or dict over its bound is refused by its size alone, before any
item is loaded (check_sizes): marshmallow is compared after that check."""

from __future__ import annotations

import json
import re

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields, pre_load, validate

from edh_service.api import json_codec, schemas
from edh_service.api.request_loading import FastLoader, check_sizes, loader_for, trimmed
from edh_service.house_rules import MAX_LIST_NAMES
from tests.hardening.test_hostile_input import BATCH, CASES

VALIDATE_SCHEMA = schemas.validate_request_schema
BATCH_SCHEMA = schemas.batch_request_schema(schemas.BATCH_LIMIT)


def outcome(load, body):
    """("ok", the loaded dict and its key order) or ("refused", marshmallow's messages)."""
    try:
        loaded = load(body)
    except ValidationError as error:
        return "refused", error.messages
    return "ok", loaded, _key_order(loaded)


def _key_order(value):
    if isinstance(value, dict):
        return [(key, _key_order(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [_key_order(item) for item in value]
    return None


def same_answer(schema, body):
    """Both paths agree on the body; returns the answer's kind."""
    fast = outcome(loader_for(schema).load, body)
    assert fast == outcome(lambda data: check_sizes(schema, data) or schema.load(data), body), body
    return fast[0]


ACCEPTED = [
    {"decklist": "1 Sol Ring"},
    {"decklist": ""},
    {"decklist": "x", "format": "commander", "decklist_format": "forge", "commanders": ["A", "B"],
     "companion": "Lurrus of the Dream-Den", "color_choices": {"The Prismatic Piper": "R"}, "bracket": 3,
     "include": ["overview"]},
    {"decklist": "x", "commanders": None, "companion": None, "color_choices": None, "bracket": None,
     "include": None, "decklist_format": None},
    {"decklist": "x", "commanders": [], "color_choices": {}, "include": []},
    {"decklist": "x", "bracket": 3.0},  # one number with 3 in JSON Schema's model (the document's)
    {"bracket": 1, "decklist": "x"},  # key order of the body is not the answer's
    {"decklist": "x", "bracket": 5},
    {"decklist": "x", "commanders": ["A" * schemas.MAX_NAME_LENGTH] * schemas.MAX_COMMANDERS},
    {"decklist": "x", "format": None},  # the list's own format, else commander (issue 21)
    {"decklist": "x", "format": "EDH", "include": ["formats"]},  # an alias, any case: the canonical key
    {"decklist": "x", "format": "pdh", "signature_spells": None},
    {"decklist": "x", "format": "Oathbreaker", "signature_spells": ["Counterspell"]},
    # house rules: a profile's name, or the rules (every key optional)
    {"decklist": "x", "house_rules": "thursday-store"},
    {"decklist": "x", "house_rules": None},
    {"decklist": "x", "house_rules": {}},
    {"decklist": "x", "house_rules": {"name": "Thursday", "banned": ["Sol Ring"], "banned_as_commander": [],
                                      "unbanned": ["Biorhythm"] * MAX_LIST_NAMES, "max_bracket": 4}},
    {"decklist": "x", "house_rules": {"max_bracket": None, "banned": None, "name": None}},
    # the shape alone: exactly one of decklist and url is the view's to say (a 422 naming both)
    {},
    {"commanders": ["A"]},
    {"url": "https://archidekt.com/decks/1"},
    {"url": "moxfield.com/decks/abc", "bracket": None},  # null: no bracket, not even the site's
    {"decklist": "x", "url": "https://archidekt.com/decks/1"},
]
REFUSED = [
    {"decklist": None},
    {"url": None},
    {"url": ""},
    {"url": 7},
    {"url": "h" * (schemas.MAX_URL_LENGTH + 1)},
    {"decklist": 7},
    {"decklist": ["1 Sol Ring"]},
    {"decklist": "x", "unknown": 1},
    {"decklist": "x", "format": "modern"},
    {"decklist": "x", "decklist_format": "pdf"},
    {"decklist": "x", "commanders": "A"},
    {"decklist": "x", "commanders": [""]},
    {"decklist": "x", "commanders": [1]},
    {"decklist": "x", "commanders": ["A"] * (schemas.MAX_COMMANDERS + 1)},
    {"decklist": "x", "commanders": ["A" * (schemas.MAX_NAME_LENGTH + 1)]},
    {"decklist": "x", "companion": ""},
    {"decklist": "x", "color_choices": {"A": "X"}},
    {"decklist": "x", "color_choices": {"A": 1}},
    {"decklist": "x", "color_choices": ["A"]},
    {"decklist": "x", "color_choices": {str(i): "R" for i in range(schemas.MAX_COLOR_CHOICES + 1)}},
    {"decklist": "x", "bracket": 0},
    {"decklist": "x", "bracket": 6},
    {"decklist": "x", "bracket": True},
    {"decklist": "x", "bracket": 2.5},
    {"decklist": "x", "bracket": "3"},
    {"decklist": "x", "bracket": schemas.OUT_OF_RANGE},
    {"decklist": "x", "include": ["everything"]},
    {"decklist": "x", "include": "overview"},
    {"decklist": "x", "house_rules": "Thursday"},
    {"decklist": "x", "house_rules": "a" * 65},
    {"decklist": "x", "house_rules": ""},
    {"decklist": "x", "house_rules": "-x"},
    {"decklist": "x", "house_rules": "x\n"},
    {"decklist": "x", "house_rules": 3},
    {"decklist": "x", "house_rules": ["thursday"]},
    {"decklist": "x", "house_rules": {"banned": "Sol Ring"}},
    {"decklist": "x", "house_rules": {"banned": [""]}},
    {"decklist": "x", "house_rules": {"banned": ["Sol Ring"] * (MAX_LIST_NAMES + 1)}},
    {"decklist": "x", "house_rules": {"unbanned": ["x" * (schemas.MAX_NAME_LENGTH + 1)]}},
    {"decklist": "x", "house_rules": {"max_bracket": 5}},
    {"decklist": "x", "house_rules": {"max_bracket": 0}},
    {"decklist": "x", "house_rules": {"max_bracket": True}},
    {"decklist": "x", "house_rules": {"max_bracket": "3"}},
    {"decklist": "x", "house_rules": {"name": "x" * 201}},
    {"decklist": "x", "house_rules": {"banned_as_commander": [7]}},
    {"decklist": "x", "house_rules": {"title": "x"}},
    {"decklist": "x" * (schemas.MAX_DECKLIST_LENGTH + 1)},
    ["decklist"],
    "1 Sol Ring",
    None,
    7,
]


@pytest.mark.parametrize("body", ACCEPTED)
def test_accepted_bodies_load_alike(body):
    assert same_answer(VALIDATE_SCHEMA, body) == "ok"
    assert same_answer(BATCH_SCHEMA, {"decks": [body, body]}) == "ok"


@pytest.mark.parametrize("body", REFUSED)
def test_refused_bodies_are_refused_alike(body):
    assert same_answer(VALIDATE_SCHEMA, body) == "refused"
    assert same_answer(BATCH_SCHEMA, {"decks": [{"decklist": "ok"}, body]}) == "refused"


@pytest.mark.parametrize("body", [{}, {"decks": []}, {"decks": None}, {"decks": {"decklist": "x"}},
                                  {"decks": [{"decklist": "x"}] * (schemas.BATCH_LIMIT + 1)},
                                  {"decks": [{"decklist": "x"}], "extra": 1}, {"decks": ["x"]}])
def test_refused_batches_are_refused_alike(body):
    assert same_answer(BATCH_SCHEMA, body) == "refused"


def test_the_api_schemas_are_compiled():
    """The two request schemas take the fast path (not silently marshmallow every time)."""
    for schema in (VALIDATE_SCHEMA, BATCH_SCHEMA):
        assert loader_for(schema)._load is not None
    assert loader_for(VALIDATE_SCHEMA) is loader_for(VALIDATE_SCHEMA)


def test_a_schema_with_hooks_is_left_to_marshmallow():
    class Hooked(Schema):
        name = fields.String(required=True, validate=validate.Length(1, 5))

        @pre_load
        def strip(self, data, **kwargs):
            return {key: value.strip() for key, value in data.items()}

    loader = FastLoader(Hooked())
    assert loader._load is None
    assert loader.load({"name": "  abc  "}) == {"name": "abc"}


def test_unknown_field_kinds_are_left_to_marshmallow():
    loader = FastLoader(Schema.from_dict({"when": fields.DateTime(), "n": fields.Integer(strict=False)})())
    assert loader._load is None
    assert loader.load({"n": "3"}) == {"n": 3}


def old_read(data: bytes):
    """api.read_json's parser before issue 24: json.loads with the long-integer guard."""
    return json.loads(data, parse_int=schemas.integer)


def parsed(read, data: bytes):
    try:
        return "ok", read(data)
    except (ValueError, RecursionError) as error:
        return "refused", type(error)


@pytest.mark.parametrize("case", [c for c in CASES if c.content_type == "application/json"], ids=lambda c: c.id)
def test_hostile_bodies_read_and_load_alike(case):
    """Every JSON body the hardening tests send: the same document or the same kind of
    refusal from both parsers; then the same load or 422 from both loaders."""
    new = parsed(lambda data: json_codec.loads(data, parse_int=schemas.integer), case.body)
    assert new == parsed(old_read, case.body)
    if new[0] == "ok":
        same_answer(BATCH_SCHEMA if case.path == BATCH else VALIDATE_SCHEMA, new[1])


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
FIELD_VALUES = {
    "decklist": st.text(max_size=20) | JSON_VALUES,
    "format": st.sampled_from(["commander", "edh", ""]) | JSON_VALUES,
    "decklist_format": st.sampled_from(["forge", "text", "nope"]) | st.none() | JSON_VALUES,
    "commanders": st.lists(st.text(max_size=4), max_size=6) | st.none() | JSON_VALUES,
    "companion": st.text(max_size=4) | st.none() | JSON_VALUES,
    "color_choices": st.dictionaries(st.text(max_size=3), st.sampled_from(list("WUBRGX")), max_size=6) | JSON_VALUES,
    "bracket": st.integers(-1, 7) | st.none() | JSON_VALUES,
    "include": st.lists(st.sampled_from(["overview", "x"]), max_size=3) | st.none() | JSON_VALUES,
    "house_rules": st.sampled_from(["thursday", "Thursday", "", "x-1"]) | st.none() | st.fixed_dictionaries(
        {}, optional={"banned": st.lists(st.text(max_size=3), max_size=3) | JSON_VALUES,
                      "max_bracket": st.integers(-1, 6) | JSON_VALUES, "name": st.text(max_size=3) | JSON_VALUES}) | JSON_VALUES,
    "surprise": JSON_VALUES,
}
BODIES = st.fixed_dictionaries({}, optional=FIELD_VALUES)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODIES)
def test_generated_bodies_load_alike(body):
    same_answer(VALIDATE_SCHEMA, body)
    same_answer(BATCH_SCHEMA, {"decks": [body]})


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_generated_documents_read_alike(value):
    data = json.dumps(value).encode()
    assert parsed(lambda d: json_codec.loads(d, parse_int=schemas.integer), data) == parsed(old_read, data)


@pytest.mark.parametrize(("data", "scanned"), [
    (b'{"bracket": 12345678901234567890123}', True),  # orjson reads it as a float: the bytes are scanned
    (b'[1.5, -9223372036854775809]', True),
    (b'[' + b'[],' * 20 + b'99999999999999999999999]', True),  # more lists than are walked: the bytes decide
    (b'[' + b'0,' * 300 + b'18446744073709551616]', True),  # more values than are walked
    (b'{"decklist": "12345678901234567890123", "commanders": ["a"]}', False),  # a run in a string: orjson's reading stands
])
def test_long_integers_read_exactly(data, scanned):
    """An integer past 64 bits reads as json.loads reads it, wherever it stands."""
    assert parsed(lambda d: json_codec.loads(d, parse_int=schemas.integer), data) == parsed(old_read, data)
    assert json_codec.may_hold_float(orjson.loads(data)) is scanned


def test_a_dict_keyed_by_ints_dumps_as_the_standard_library_writes_it():
    assert json_codec.dumps_bytes({1: [2], "a": (3,)}) == b'{"1":[2],"a":[3]}'


def test_responses_are_the_same_json():
    """orjson's body for a report is the standard library's JSON, byte for byte once both
    write UTF-8 compactly (ensure_ascii escapes are the only difference)."""
    body = {"valid": False, "cards": ["Lim-Dûl's Vault", "祖先の幻視"], "n": [1, 2.5, None, True], "nested": {"a": []}}
    assert json_codec.dumps_bytes(body) == json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def test_a_lone_surrogate_is_written_as_the_standard_library_escapes_it():
    """orjson refuses to write a lone surrogate; the codec writes the stdlib's escape."""
    assert json_codec.dumps_bytes({"name": "a\ud800b", "n": [1]}) == b'{"name":"a\\ud800b","n":[1]}'
    assert json.loads(json_codec.dumps_bytes({"name": "\udfff"})) == {"name": "\udfff"}
    assert json_codec.dumps_bytes({"name": "Sol Ring é"}) == '{"name":"Sol Ring é"}'.encode()



@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80) | st.text(alphabet="0123456789 -.e\"a", max_size=80).map(str.encode))
def test_the_long_digit_screen_is_the_pattern_search(data):
    """has_long_digits (translate and one substring search) answers as the pattern
    `[0-9]{19}` it replaced, on bytes, and on text."""
    expected = re.search(rb"[0-9]{19}", data) is not None
    assert json_codec.has_long_digits(data) is expected
    assert json_codec.has_long_digits(bytearray(data)) is expected
    text = data.decode("latin-1")
    assert json_codec.has_long_digits(text) is expected
    assert json_codec.has_long_digits(b"[" + b"7" * 19 + b"]") and not json_codec.has_long_digits(b"7" * 18)


@pytest.mark.parametrize(("schema", "body", "errors"), [
    (VALIDATE_SCHEMA, {"decklist": "x", "commanders": [""] * 300_000}, {"commanders": ["Longer than maximum length 5."]}),
    (VALIDATE_SCHEMA, {"decklist": "x", "color_choices": {"\ufdfa" * 100_000: "R"}},
     {"color_choices": ["A key is 100,000 characters long; at most 200 are accepted."]}),
    (VALIDATE_SCHEMA, {"decklist": "x", "color_choices": {str(n): 0 for n in range(1_000)}},
     {"color_choices": ["Longer than maximum length 5."]}),
    (BATCH_SCHEMA, {"decks": [0] * 250_000}, {"decks": ["Length must be between 1 and 50."]}),
    (BATCH_SCHEMA, {"decks": [{"decklist": "x", "include": [0] * 50_000}]},
     {"decks": {0: {"include": ["Longer than maximum length 2."]}}}),
])
def test_a_list_or_dict_over_its_bound_is_refused_before_its_items_are_loaded(schema, body, errors):
    """Its length alone is the answer: marshmallow loaded and reported every item first
    (300,000 empty commanders: 3.4 s and a 14 MB 422)."""
    with pytest.raises(ValidationError) as refused:
        loader_for(schema).load(body)
    assert refused.value.messages == errors


def test_a_bodys_unknown_fields_and_item_errors_are_reported_in_bounded_number():
    """Past ten problems in one object or list, a 422 says how many more there were, and a
    quoted key is cut short: the answer stays small whatever was sent."""
    with pytest.raises(ValidationError) as refused:
        loader_for(VALIDATE_SCHEMA).load({"decklist": "x", **{f"k{n}": 0 for n in range(100_000)}})
    assert list(refused.value.messages) == ["_schema"] and len(json.dumps(refused.value.messages)) < 1_000
    messages = trimmed({"decks": {n: {"x" * 1_000: ["Unknown field."]} for n in range(50)}})
    assert len(messages["decks"]) == 11 and messages["decks"]["_more"] == ["40 more problems are not listed."]
    assert list(messages["decks"][0]) == ["x" * 60 + "…"]
