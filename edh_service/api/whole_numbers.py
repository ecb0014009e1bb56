"""A JSON whole number as the OpenAPI document (JSON Schema 2020-12) means it: `3` and
`3.0` are one number there (`"type": "integer"` takes both), so the service takes both;
a string ("3"), a boolean and a fraction (2.5) stay refused."""

from __future__ import annotations

from typing import Any

from marshmallow import fields


def whole(value: Any) -> int | None:
    """The int a JSON number stands for when it is whole, else None (bool is no number here)."""
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


class WholeNumber(fields.Integer):
    """A strict Integer that also reads a whole float (3.0) as its int."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        number = whole(value)
        return number if number is not None else super()._validated(value)
