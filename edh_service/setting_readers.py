"""The typed readers of the settings table (edh_service.config): each turns an environment
variable's text into its value or raises ValueError with a plain message, and TYPE_NAMES
says how the configuration page names each kind."""

from __future__ import annotations

import re
from typing import Any, Callable

from card_data.names.printed import LANGUAGES
from card_data.settings import allowed_base

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


def flag(value: str) -> bool:
    """An on/off setting: 1/true/yes/on or 0/false/no/off (any case); anything else is refused."""
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError("expected 1/true/yes/on or 0/false/no/off")


def origins(value: str) -> tuple[str, ...]:
    """Comma-separated origins, `*` for any, empty for none."""
    return tuple(part.strip() for part in value.split(",") if part.strip())


def whole_number(value: str) -> int:
    """A whole number (ValueError with a plain message otherwise)."""
    try:
        return int(value)
    except ValueError:
        raise ValueError("expected a whole number") from None


def positive_int(value: str) -> int:
    """A whole number above zero."""
    number = whole_number(value)
    if number <= 0:
        raise ValueError("expected a whole number above 0")
    return number


def non_negative_int(value: str) -> int:
    """A whole number, zero or more."""
    number = whole_number(value)
    if number < 0:
        raise ValueError("expected a whole number, 0 or more")
    return number


def non_negative_float(value: str) -> float:
    """A number of seconds, zero or more."""
    try:
        number = float(value)
    except ValueError:
        raise ValueError("expected a number of seconds") from None
    if not number >= 0:  # also refuses nan
        raise ValueError("expected a number, 0 or more")
    return number


def positive_float(value: str) -> float:
    """A number of seconds above zero."""
    number = non_negative_float(value)
    if number == 0:
        raise ValueError("expected a number above 0")
    return number


def text(value: str) -> str:
    """Any text, as given."""
    return value


ZERO_WINDOW = re.compile(r"(?:/|\bper)\s*0+\s*[A-Za-z]", re.IGNORECASE)  # "10/0 seconds"


def rate_limits(value: str) -> str:
    """One or more `limits` rate limits (`10/second;600/minute`), kept as written; refused
    here, before any worker starts, when `limits` cannot read them or one allows nothing."""
    from limits import parse_many  # only the service needs it, not the CLI

    try:
        items = parse_many(value)
    except ValueError:
        raise ValueError("expected limits such as 10/second;600/minute") from None
    if any(item.amount < 1 for item in items):
        raise ValueError("every limit must allow at least 1 request (RATELIMIT_ENABLED=0 turns the limit off)")
    if ZERO_WINDOW.search(value):  # limits reads "10/0 seconds" as 10 a second: say so instead
        raise ValueError("a window of 0 seconds (or minutes...) counts nothing; write 10/second")
    return value


def site_api_url(value: str) -> str:
    """A deck site's API base: https (http only on a loopback address, a local test server)."""
    if not allowed_base(value):
        raise ValueError("expected an https:// URL (http:// only on a loopback address)")
    return value


REDIS_SCHEMES = ("redis://", "rediss://", "unix://")  # what redis-py's from_url reads


def languages(value: str) -> tuple[str, ...] | None:
    """Comma-separated Scryfall language codes (`es,de,ja`), `all` for every one, empty for none."""
    codes = tuple(dict.fromkeys(part.strip().lower() for part in value.split(",") if part.strip()))
    if codes == ("all",):
        return None
    unknown = [code for code in codes if code not in LANGUAGES]
    if unknown:
        raise ValueError(f"unknown language code {unknown[0]!r} (Scryfall's codes: {', '.join(LANGUAGES)}, or all)")
    return codes


def redis_url(value: str) -> str:
    """A Redis URL (empty: unset), refused here when redis-py could not read it: a typo
    such as `localhost:6379` otherwise stopped every worker as it booted."""
    if value and not value.startswith(REDIS_SCHEMES):
        raise ValueError("expected redis://host:6379/0, rediss://... or unix:///path/to/redis.sock")
    return value


def storage_uri(value: str) -> str:
    """A `limits` storage URI (empty: unset): its scheme must be one `limits` knows."""
    from limits.storage import SCHEMES  # only the service needs it, not the CLI

    scheme = value.partition("://")[0]
    if value and ("://" not in value or scheme not in SCHEMES):
        raise ValueError("expected a `limits` storage such as memory://, redis://host:6379 or "
                         "memcached://host:11211")
    return value


# How each reader is named in the configuration table's "type" column.
TYPE_NAMES: dict[Callable[[str], Any], str] = {
    flag: "flag", origins: "list", positive_int: "integer > 0", non_negative_int: "integer ≥ 0",
    non_negative_float: "seconds", positive_float: "seconds > 0", text: "text", rate_limits: "rate limits", redis_url: "Redis URL",
    storage_uri: "storage URI", languages: "language codes", site_api_url: "https URL",
}
