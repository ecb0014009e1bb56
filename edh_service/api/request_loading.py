"""Request bodies loaded without building marshmallow's machinery for the usual request
(issue 24): a schema's fields compiled once into plain checks, marshmallow for the rest.

The marshmallow schemas (schemas.py) stay the contract: they document the API, feed the
OpenAPI document, and answer every request this module does not answer on its own. A
`FastLoader` is built from a schema's declared fields and accepts only the clear case of
each (a `str` within its Length and OneOf, a strict `int` within its Range, a list or dict
of those, a nested schema, None where None is allowed, the load_default of a field left
out); anything else, an unknown key, a missing required field or a value of another type
or outside a bound, is handed to `schema.load` itself, so every refusal (422) and every
unusual body that marshmallow accepts reads exactly as before. A schema with hooks
(pre_load, validates...) or a field kind not listed here is never compiled: marshmallow
loads it every time. tests/edh_service/test_request_loading.py holds both paths to the
same answers, hostile bodies included.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Callable

from marshmallow import Schema, ValidationError, fields, missing, validate

from edh_service.api.errors import Said
from edh_service.api.format_schemas import GameFormat
from edh_service.api.house_schemas import HouseRulesField
from edh_service.api.whole_numbers import WholeNumber, whole
from validator.formats import UnknownFormat, format_named
from validator.messages import msg

Check = Callable[[Any], Any]


class _Unclear(Exception):
    """A value the compiled checks do not answer for: marshmallow decides."""


class FastLoader:
    """schema.load's answer for a body, the clear cases without marshmallow."""

    __slots__ = ("schema", "_load")

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self._load = _compile_schema(schema)

    def load(self, data: Any) -> dict:
        """As schema.load(data): the loaded dict, or marshmallow's ValidationError (at once,
        without loading any item, for a list or dict over its bound: check_sizes)."""
        check_sizes(self.schema, data)
        if self._load is not None:
            try:
                return self._load(data)
            except _Unclear:
                pass
        return self.schema.load(data)


def _compile_schema(schema: Schema) -> Check | None:
    """A check loading a dict as the schema would, or None when the schema is not plain."""
    if any(schema._hooks.values()) or schema.many or schema.partial or schema.unknown != "raise":
        return None
    steps = []
    for name, field in schema.load_fields.items():
        if field.data_key not in (None, name) or field.attribute not in (None, name):
            return None
        check = _compile_field(field)
        if check is None:
            return None
        steps.append((name, field.required, field.load_default, check))
    known = frozenset(name for name, *_ in steps)

    def load(data: Any) -> dict:
        if type(data) is not dict or not known.issuperset(data):
            raise _Unclear  # not an object, or a key the schema does not know
        loaded = {}
        for name, required, default, check in steps:
            value = data.get(name, missing)
            if value is missing:
                if required:
                    raise _Unclear
                if default is not missing:
                    loaded[name] = default() if callable(default) else default
            else:
                loaded[name] = check(value)
        return loaded

    return load


def _compile_field(field: fields.Field) -> Check | None:
    """A check for one field's value (never None: the caller handles missing), or None for
    a field kind or validator this module does not know."""
    bounds = _compile_validators(field.validators)
    if bounds is None:
        return None
    allow_none = field.allow_none
    if type(field) is fields.String:
        kind: Check | None = _string
    elif type(field) is GameFormat:
        kind = _game_format
    elif type(field) is fields.Integer and field.strict:
        kind = _integer
    elif type(field) is WholeNumber:
        kind = _whole
    elif type(field) is fields.List:
        kind = _list_of(_compile_field(field.inner))
    elif type(field) is fields.Dict:
        kind = _dict_of(_compile_field(field.key_field) if field.key_field else _any,
                        _compile_field(field.value_field) if field.value_field else _any)
    elif type(field) is HouseRulesField:  # a profile's name or the rules: one check for each
        kind = _either(_compile_field(field.profile_field), _compile_schema(field.schema))
    elif type(field) is fields.Nested and not field.many and isinstance(field.nested, (Schema, type)):
        nested = field.nested if isinstance(field.nested, Schema) else field.nested()
        kind = _compile_schema(nested) if not field.only and not field.exclude else None
    else:
        kind = None
    if kind is None:
        return None

    def check(value: Any) -> Any:
        if value is None:
            if allow_none:
                return None
            raise _Unclear
        loaded = kind(value)
        bounds(loaded)
        return loaded

    return check


def _compile_validators(validators: list) -> Callable[[Any], None] | None:
    """One check for a field's validators (Length, OneOf, Range), or None for another kind."""
    checks = []
    for validator in validators:
        if type(validator) is validate.Length:
            checks.append(_length(validator.min, validator.max, validator.equal))
        elif type(validator) is validate.OneOf and all(isinstance(c, str) for c in validator.choices):
            checks.append(_one_of(frozenset(validator.choices)))
        elif type(validator) is validate.Range:
            checks.append(_range(validator))
        elif type(validator) is validate.Regexp:
            checks.append(_matches(validator))
        else:
            return None

    def bounds(value: Any) -> None:
        for check in checks:
            check(value)

    return bounds


def _game_format(value: Any) -> str:
    """format_schemas.GameFormat's loading: a key or alias in any case -> the canonical key."""
    if type(value) is not str:
        raise _Unclear
    try:
        return format_named(value).key
    except UnknownFormat:
        raise _Unclear from None


def _string(value: Any) -> str:
    if type(value) is not str:
        raise _Unclear
    return value


def _integer(value: Any) -> int:
    if type(value) is not int:  # bool, float, str: marshmallow's call
        raise _Unclear
    return value


def _whole(value: Any) -> int:
    number = whole(value)
    if number is None:
        raise _Unclear
    return number


def _any(value: Any) -> Any:
    return value


def _list_of(item: Check | None) -> Check | None:
    if item is None:
        return None

    def check(value: Any) -> list:
        if type(value) is not list:
            raise _Unclear
        return [item(element) for element in value]

    return check


def _dict_of(key: Check | None, item: Check | None) -> Check | None:
    if key is None or item is None:
        return None

    def check(value: Any) -> dict:
        if type(value) is not dict:
            raise _Unclear
        return {key(k): item(v) for k, v in value.items()}

    return check


def _either(text: Check | None, mapping: Check | None) -> Check | None:
    """house_schemas.HouseRulesField's loading: a str through `text`, a dict through `mapping`."""
    if text is None or mapping is None:
        return None

    def check(value: Any) -> Any:
        if type(value) is str:
            return text(value)
        if type(value) is dict:
            return mapping(value)
        raise _Unclear

    return check


def _matches(validator: validate.Regexp) -> Callable[[Any], None]:
    regex = validator.regex  # marshmallow's own test: regex.match

    def check(value: Any) -> None:
        if regex.match(value) is None:
            raise _Unclear

    return check


def _length(low: int | None, high: int | None, equal: int | None) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        size = len(value)
        if (equal is not None and size != equal) or (low is not None and size < low) \
                or (high is not None and size > high):
            raise _Unclear

    return check


def _one_of(allowed: frozenset[str]) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if value not in allowed:
            raise _Unclear

    return check


def _range(validator: validate.Range) -> Callable[[Any], None]:
    low, high = validator.min, validator.max
    low_inclusive, high_inclusive = validator.min_inclusive, validator.max_inclusive

    def check(value: Any) -> None:
        if low is not None and (value < low if low_inclusive else value <= low):
            raise _Unclear
        if high is not None and (value > high if high_inclusive else value >= high):
            raise _Unclear

    return check


_LOADERS: dict[int, tuple[Schema, FastLoader]] = {}


def loader_for(schema: Schema) -> FastLoader:
    """The FastLoader of a schema object, compiled once (schemas are built once: module
    objects, and batch_request_schema's per-limit cache)."""
    held = _LOADERS.get(id(schema))
    if held is None or held[0] is not schema:
        held = _LOADERS[id(schema)] = (schema, FastLoader(schema))
    return held[1]


# --- sizes before items, and a 422 of bounded size ---------------------------------------

MAX_REPORTED = 10  # problems a 422 lists in one object or list; it says how many more there were
QUOTED = 60  # characters of a client's key quoted back in a 422
LONGEST_MESSAGE = 1000  # characters of one message (marshmallow's never come near)


def check_sizes(schema: Schema, data: Any) -> None:
    """marshmallow's ValidationError for every list and dict of the body (at any depth the
    schema declares) longer than its Length bound, for a dict key longer than its key
    field's bound, and for more than MAX_REPORTED unknown keys, all before any item is
    loaded: marshmallow loads every item first (300,000 empty commanders took 3.4 s and
    answered 14 MB) and quotes a bad key back whole (a 1 MiB color_choices key)."""
    errors = _oversized(schema, data)
    if errors:
        raise ValidationError(errors)


def _oversized(schema: Schema, data: Any) -> dict | None:
    if type(data) is not dict:
        return None
    known, sized = _sized_fields(schema)
    errors: dict[str, Any] = {}
    if len(data) > MAX_REPORTED and (count := sum(1 for key in data if key not in known)) > MAX_REPORTED:
        errors["_schema"] = [Said(msg("{count} unknown fields; the fields are {fields}.", count=count,
                                      fields=", ".join(sorted(known))))]
    for key, field in sized:
        value = data.get(key, missing)
        if value is not missing and (problem := _field_oversized(field, value)):
            errors[key] = problem
    return errors or None


@cache  # a schema object is hashed by identity: one entry per schema the service loads with
def _sized_fields(schema: Schema) -> tuple[frozenset[str], tuple[tuple[str, fields.Field], ...]]:
    """A schema's keys, and its list and dict fields by key (the only ones _field_oversized
    can find over a bound), read once a schema object: they were gathered on every request."""
    keyed = [(field.data_key or name, field) for name, field in schema.load_fields.items()]
    return (frozenset(key for key, _ in keyed),
            tuple((key, field) for key, field in keyed if isinstance(field, (fields.List, fields.Dict))))


def _field_oversized(field: fields.Field, value: Any) -> Any:
    if not isinstance(value, (list, dict)) or not isinstance(field, (fields.List, fields.Dict)):
        return None
    if (problem := _length_problem(field.validators, value)) is not None:
        return problem
    if isinstance(field, fields.List) and isinstance(field.inner, fields.Nested) and type(value) is list:
        nested = field.inner.schema
        found = {index: inner for index, item in enumerate(value) if (inner := _oversized(nested, item))}
        return found or None
    if isinstance(field, fields.Dict) and field.key_field is not None and type(value) is dict:
        longest = max((len(key) for key in value if isinstance(key, str)), default=0)
        limit = _longest_allowed(field.key_field.validators)
        if limit is not None and longest > limit:
            return [Said(msg("A key is {length} characters long; at most {limit} are accepted.", length=longest,
                             limit=str(limit)))]
    return None


def _length_problem(validators: list, value: Any) -> list[str] | None:
    """The message of the first Length validator the value's size breaks (len alone: no item read)."""
    for validator in validators:
        if type(validator) is validate.Length:
            try:
                validator(value)
            except ValidationError as error:
                return error.messages if isinstance(error.messages, list) else [str(error.messages)]
    return None


def _longest_allowed(validators: list) -> int | None:
    return min((v.max for v in validators if type(v) is validate.Length and v.max is not None), default=None)


def trimmed(messages: Any) -> Any:
    """A schema's error messages cut to MAX_REPORTED entries an object or list (with a count
    of the rest) and quoted keys to QUOTED characters: a 422 stays small whatever was sent."""
    if isinstance(messages, dict):
        items = list(messages.items())
        kept = {_quoted(key): trimmed(value) for key, value in items[:MAX_REPORTED]}
        if len(items) > MAX_REPORTED:
            kept["_more"] = [more_problems(len(items) - MAX_REPORTED)]
        return kept
    if isinstance(messages, list):
        kept_list = [trimmed(item) for item in messages[:MAX_REPORTED]]
        if len(messages) > MAX_REPORTED:
            kept_list.append(more_problems(len(messages) - MAX_REPORTED))
        return kept_list
    if isinstance(messages, str) and len(messages) > LONGEST_MESSAGE:
        return messages[:LONGEST_MESSAGE] + "…"
    return messages


def more_problems(count: int) -> Said:
    """What a trimmed 422 says in place of the problems it leaves out."""
    return Said(msg("{count} more problems are not listed.", count=count))


def _quoted(key: Any) -> Any:
    return key[:QUOTED] + "…" if isinstance(key, str) and len(key) > QUOTED else key
