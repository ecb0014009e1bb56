"""Every setting of the service, the CLI and gunicorn, defined once: its environment
variable, type, default and meaning.

`SETTINGS` is the table. `from_environment(environ)` reads it once, typed, and refuses a
bad value with a `ConfigError` naming the variable (every bad one at once), so a typo
stops start-up with one clear line instead of a traceback. The configuration page's
table (docs/configuration.md) is generated from here (`python -m scripts.gen_docs` calls
`markdown_table`) and a test keeps the two equal. Adding a setting is one `Setting(...)`
line below; `create_app` puts every service setting in `app.config` under the same name.

`store_settings(values)` and `bracket_sources(values)` turn the table's values (app.config,
or what a command read with `setting`) into the two values card_data is given: card_data
knows no setting names.

This module imports neither flask nor the rest of the package but its readers
(setting_readers): the CLI and gunicorn's config read it before (or without) an app.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from card_data.settings import (
    DECK_CACHE_SECONDS, DEFAULT_API_URL, DEFAULT_ARCHIDEKT_API_URL, DEFAULT_MOXFIELD_API_URL, DEFAULT_SPELLBOOK_URL,
    WEEK_SECONDS, BracketSources, DeckSiteSettings, NameSources, StoreSettings,
)
# The readers, importable from here as before (tests and gen_docs read config.flag...).
from edh_service.setting_readers import (  # noqa: F401
    TRUE_WORDS, FALSE_WORDS, flag, origins, whole_number, positive_int, non_negative_int, non_negative_float, positive_float,
    text, ZERO_WINDOW, rate_limits, site_api_url, REDIS_SCHEMES, languages, redis_url, storage_uri, TYPE_NAMES,
)
from validator.parse import MAX_LINES

# One default for the card store everywhere (service, `edh-validate`, `cards`, gunicorn):
# relative to the working directory the command starts in.
DEFAULT_CARD_DB = "instance/cards.sqlite3"
DEFAULT_BATCH_LIMIT = 50

class ConfigError(ValueError):
    """A setting's value cannot be read; the message names every bad variable."""


@dataclass(frozen=True)
class Setting:
    """One setting: `name` is both the environment variable and the app.config key."""

    name: str
    read: Callable[[str], Any]
    default: Any
    meaning: str
    # "app": create_app puts it in app.config; "gunicorn": only gunicorn's config reads it.
    scope: str = "app"
    # The configuration table's default column when the default is not a plain value.
    shown_default: str | None = None

    @property
    def type_name(self) -> str:
        """The value's kind, as the configuration table shows it."""
        return TYPE_NAMES[self.read]

    def show_default(self) -> str:
        """The default as the configuration table shows it."""
        if self.shown_default is not None:
            return self.shown_default
        if isinstance(self.default, bool):
            return "`1`" if self.default else "`0`"
        if isinstance(self.default, tuple):
            return f"`{','.join(self.default)}`" if self.default else "empty"
        return f"`{self.default}`"


SETTINGS: tuple[Setting, ...] = (
    # card data
    Setting("CARD_DB", text, DEFAULT_CARD_DB,
            "the SQLite card store; a relative path is relative to the working directory"),
    Setting("SCRYFALL_API_URL", text, DEFAULT_API_URL,
            "Scryfall API base (tests point it at a local server)"),
    Setting("SPELLBOOK_URL", text, DEFAULT_SPELLBOOK_URL,
            "Commander Spellbook's bulk export base (or a full `.json`/`.json.gz` URL) for the "
            "two-card combo list"),
    Setting("MASS_LAND_DENIAL_FILE", text, None,
            "mass land denial list from a file (one name a line, `#` comments) instead of "
            "Scryfall's tag search", shown_default="unset"),
    Setting("COMBOS_FILE", text, None,
            "two-card combo list from a file (one `Card A@Card B` a line, `#` comments) instead "
            "of Commander Spellbook", shown_default="unset"),
    Setting("CARD_NAME_LANGUAGES", languages, None,
            "languages whose printed card names resolve (Scryfall's codes, `es,de,fr,it,pt,ja,ko,ru,zhs,zht`...; "
            "`all`); empty: off, no names table is built or read", shown_default="`all`"),
    Setting("CARD_NAMES_REFRESH_SECONDS", non_negative_int, WEEK_SECONDS,
            "how often the names table is rebuilt from Scryfall's `all_cards` bulk file, after the card sync, "
            "when that file is newer (`0`: built once)"),
    Setting("CARD_NAMES_FILE", text, None,
            "names table from a local file (Scryfall card objects as JSON Lines, gzip or not, a JSON list or a "
            "list object; or an MTGJSON file with `foreignData`) instead of `all_cards`", shown_default="unset"),
    Setting("PAUPER_COMMANDERS_FILE", text, None,
            "Pauper Commander commander list from a file (one name a line, `#` comments) instead "
            "of Scryfall's `is:paupercommander` search", shown_default="unset"),
    Setting("LIST_SHRINK_ALLOWED", flag, False,
            "`1`: a synced list (two-card combos, mass land denial, Pauper Commander commanders) may replace "
            "the last one though it is under half its size; otherwise it is refused, the last list stays and "
            "`/readyz` says so"),
    Setting("HOUSE_RULES_DIR", text, None,
            "a folder of house rules profiles, one `<name>.toml` a profile (docs/house-rules.md), read at start "
            "and again when a file changes; a broken file is logged, shown at `/readyz` and not served; unset: "
            "no profiles", shown_default="unset"),
    Setting("REDIS_URL", redis_url, None,
            "several instances: Redis shared by every instance for the request budgets, "
            "Scryfall's lockout and the sync lock (`redis://host:6379/0`); unset, one instance",
            shown_default="unset"),
    Setting("CARD_DATA_SHARED_DIR", text, None,
            "several instances: a folder every instance can read where the syncing instance "
            "publishes the bulk file (docs/deployment.md)", shown_default="unset"),
    Setting("CARD_DATA_OFFLINE", flag, False,
            "`1`: no background sync and no `/cards/collection` look-ups"),
    Setting("CARD_DATA_SYNC", flag, True,
            "`0`: no background sync (the store is managed outside, e.g. a mounted volume)"),
    Setting("CARD_DATA_REFRESH_SECONDS", non_negative_int, 24 * 3600,
            "how often the background sync checks for a newer bulk file (`0`: never); "
            "Scryfall rebuilds its bulk files daily"),
    Setting("CARD_DATA_LOCK_POLL", non_negative_float, 10.0,
            "seconds between an instance's looks at the sync lock while another holds it (it "
            "also adopts the bulk file the syncing instance published in `CARD_DATA_SHARED_DIR`)"),
    Setting("CARD_LOOKUP_SECONDS", positive_float, 2.0,
            "the longest one request (a batch's decks together) waits on Scryfall for names the store "
            "lacks; past it, or in a 429 lockout, they are `unknown_card` plus the `card_lookup_unavailable` "
            "warning, never a 503"),
    Setting("CARD_DATA_RETRY_AFTER", positive_int, 30,
            "`Retry-After` seconds for a 503 when no sync runs in this process"),
    Setting("SYNC_BACKOFF_BASE", non_negative_float, 5.0,
            "first wait after a failed background sync; it doubles per failure"),
    Setting("SYNC_BACKOFF_CAP", non_negative_float, 600.0, "longest wait between failed background syncs"),
    Setting("USER_AGENT", text, None, "the User-Agent sent to Scryfall, Commander Spellbook and Archidekt",
            shown_default="`edh-deck-validator/<version>`"),
    # decks by URL
    Setting("DECK_URLS", flag, True, "`0`: a deck link (`url`, a link alone on the page, an `edh-validate` URL) "
            "is a 422 saying links are not read (air-gapped machines)"),
    Setting("ARCHIDEKT_API_URL", site_api_url, DEFAULT_ARCHIDEKT_API_URL,
            "Archidekt's API base (tests point it at a local server)"),
    Setting("MOXFIELD_API_URL", site_api_url, DEFAULT_MOXFIELD_API_URL,
            "Moxfield's API base (tests point it at a local server)"),
    Setting("MOXFIELD_USER_AGENT", text, None,
            "the User-Agent Moxfield granted this operator; unset, a Moxfield link is a 422 saying to paste "
            "Moxfield's export (Export, Copy for MTGO)", shown_default="unset"),
    Setting("DECK_URL_CACHE_SECONDS", non_negative_int, DECK_CACHE_SECONDS,
            "how long a deck read from a site is kept, so a popular link costs the site one request "
            "(`0`: never kept)"),
    # requests
    Setting("MAX_CONTENT_LENGTH", positive_int, 1024 * 1024, "request body limit in bytes (413 above it)"),
    Setting("BATCH_LIMIT", positive_int, DEFAULT_BATCH_LIMIT, "decks per batch request"),
    Setting("BATCH_LINE_LIMIT", positive_int, 2 * MAX_LINES,
            "lines of all a batch's decks together, and card entries and problems read from them (422 above either)"),
    Setting("CORS_ORIGINS", origins, ("*",),
            "comma-separated origins whose pages may read `/api/` answers in a browser (`*`: any; empty: none; "
            "the page at `/` is never shared). `*` by default because the API is public and the same for every "
            "caller: it reads no cookie or credential (it never sends `Access-Control-Allow-Credentials`), so "
            "another site's page learns nothing it could not ask for itself; and CORS never stopped a page "
            "from sending a `text/plain` request, only from reading its answer, so what protects the service "
            "from pages that drive their visitors' browsers is the bound on what one request may cost. A "
            "deployment serving one site names its origin here"),
    # operations
    Setting("RATELIMIT", rate_limits, "600/minute",
            "per-client budget (by address) shared by `/api/` and the page's form post; "
            "429 + `Retry-After` beyond it"),
    Setting("RATELIMIT_ENABLED", flag, True, "`0`: no rate limit (tests turn it off unless they count)"),
    Setting("RATELIMIT_STORAGE_URI", storage_uri, None,
            "rate limit storage (a `limits` storage URI); set, it wins over `REDIS_URL`. "
            "`memory://` counts per worker process, so with N workers a client may get up to N "
            "times the budget; a shared storage such as `redis://` makes it exact (if it cannot "
            "be reached, each process counts in memory meanwhile: fail open)",
            shown_default="`REDIS_URL` when set, else `memory://`"),
    Setting("PROXY_FIX_X_FOR", non_negative_int, 0,
            "proxies in front that set `X-Forwarded-For`; without it every client behind a proxy "
            "shares one budget"),
    Setting("METRICS_ENABLED", flag, True, "serve `/metrics`"),
    Setting("REQUEST_LOG", flag, True, "one `edh.request` log line per request"),
    # gunicorn (edh_service/serving/gunicorn_conf.py)
    Setting("HOST", text, "127.0.0.1", "where gunicorn listens (the Docker image sets `0.0.0.0`)",
            scope="gunicorn"),
    Setting("PORT", positive_int, 8000, "gunicorn's port", scope="gunicorn"),
    Setting("WEB_CONCURRENCY", positive_int, None, "gunicorn workers (validation is CPU-bound)",
            scope="gunicorn", shown_default="one per core"),
    Setting("GUNICORN_THREADS", positive_int, 1,
            "threads per gunicorn worker: validation is CPU-bound, so more threads only share "
            "the worker's GIL (1 measured ~15% more decks/s and a lower p99 than 2); idle "
            "keep-alive connections wait in the worker's poller either way", scope="gunicorn"),
    Setting("REQUEST_DEADLINE", positive_float, 30.0,
            "seconds a client has, from its first byte, to send a whole request (head and body "
            "together); each worker's poller receives it meanwhile, holding no thread, and "
            "answers 408 and closes past it (edh_service/serving/worker.py)", scope="gunicorn"),
    Setting("REQUEST_HEAD_DEADLINE", positive_float, 5.0,
            "seconds a client has, from its first byte, to send the request line and headers (a client "
            "sends them in one packet; a socket that dribbles them holds a place in the worker meanwhile): "
            "408 and closed past it", scope="gunicorn"),
    Setting("CLIENT_TIMEOUT", positive_int, 10,
            "seconds one read may wait where a worker's thread still reads the socket itself "
            "(TLS or HTTP/2 in gunicorn, which the poller does not buffer) before the connection "
            "is closed",
            scope="gunicorn"),
    Setting("ACCESS_LOG", text, "-", "gunicorn access log: `-` stdout, empty to turn it off",
            scope="gunicorn"),
    Setting("LOG_LEVEL", text, "info", "gunicorn's log level", scope="gunicorn"),
    Setting("LOG_FORMAT", text, "json",
            "the app's log lines under gunicorn: `json` (with request ids, for a log collector) "
            "or `text` (`make run` sets it, for a terminal)", scope="gunicorn"),
)

BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}


def from_environment(environ: Mapping[str, str], names: Iterable[str] | None = None) -> dict[str, Any]:
    """The settings present in `environ` (all, or those in `names`), typed.

    Raises ConfigError listing every malformed variable at once.
    """
    wanted = [BY_NAME[name] for name in names] if names is not None else SETTINGS
    values, problems = {}, []
    for setting in wanted:
        if setting.name not in environ:
            continue
        raw = environ[setting.name]
        try:
            values[setting.name] = setting.read(raw)
        except ValueError as error:
            problems.append(f"{setting.name}={raw!r} is malformed ({error})")
    if problems:
        raise ConfigError("bad configuration: " + "; ".join(problems))
    return values


def defaults(scope: str = "app") -> dict[str, Any]:
    """Every setting of `scope` at its default."""
    return {setting.name: setting.default for setting in SETTINGS if setting.scope == scope}


def setting(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """One setting from the environment (os.environ by default), else its default."""
    environ = os.environ if environ is None else environ
    return from_environment(environ, [name]).get(name, BY_NAME[name].default)


def store_settings(values: Mapping[str, Any]) -> StoreSettings:
    """The card store's settings from the table's values (app.config, or the names a command
    read); a name missing from `values` is unset (card_data's default)."""
    return StoreSettings(
        Path(values.get("CARD_DB") or DEFAULT_CARD_DB),
        api_url=values.get("SCRYFALL_API_URL") or DEFAULT_API_URL,
        offline=bool(values.get("CARD_DATA_OFFLINE")),
        user_agent=values.get("USER_AGENT") or None,
        redis_url=values.get("REDIS_URL") or None,
        shared_dir=values.get("CARD_DATA_SHARED_DIR") or None,
        name_languages=values.get("CARD_NAME_LANGUAGES"),
    )


def name_sources(values: Mapping[str, Any]) -> NameSources:
    """The names table's sources from the table's values (CARD_NAME_LANGUAGES,
    CARD_NAMES_FILE, CARD_NAMES_REFRESH_SECONDS); a name missing from `values` is its default."""
    refresh = values.get("CARD_NAMES_REFRESH_SECONDS")
    return NameSources(
        languages=values.get("CARD_NAME_LANGUAGES"),
        names_file=values.get("CARD_NAMES_FILE") or None,
        refresh_seconds=WEEK_SECONDS if refresh is None else refresh,
    )


def bracket_sources(values: Mapping[str, Any], **overrides: Any) -> BracketSources:
    """The synced lists' sources from the table's values (SCRYFALL_API_URL, SPELLBOOK_URL,
    MASS_LAND_DENIAL_FILE, COMBOS_FILE, PAUPER_COMMANDERS_FILE, USER_AGENT, LIST_SHRINK_ALLOWED);
    keyword overrides that are not None win."""
    chosen: dict[str, Any] = {
        "api_url": values.get("SCRYFALL_API_URL") or DEFAULT_API_URL,
        "spellbook_url": values.get("SPELLBOOK_URL") or DEFAULT_SPELLBOOK_URL,
        "mass_land_denial_file": values.get("MASS_LAND_DENIAL_FILE") or None,
        "combos_file": values.get("COMBOS_FILE") or None,
        "user_agent": values.get("USER_AGENT") or None,
        "pauper_commanders_file": values.get("PAUPER_COMMANDERS_FILE") or None,
        "allow_shrink": bool(values.get("LIST_SHRINK_ALLOWED")),
    }
    chosen.update({key: value for key, value in overrides.items() if value is not None})
    return BracketSources(**chosen)


def deck_site_settings(values: Mapping[str, Any]) -> DeckSiteSettings:
    """The deck sites' settings from the table's values (DECK_URLS, ARCHIDEKT_API_URL,
    MOXFIELD_API_URL, MOXFIELD_USER_AGENT, DECK_URL_CACHE_SECONDS, USER_AGENT)."""
    cache = values.get("DECK_URL_CACHE_SECONDS")
    return DeckSiteSettings(
        enabled=values.get("DECK_URLS", True) is not False,
        archidekt_api_url=values.get("ARCHIDEKT_API_URL") or DEFAULT_ARCHIDEKT_API_URL,
        moxfield_api_url=values.get("MOXFIELD_API_URL") or DEFAULT_MOXFIELD_API_URL,
        moxfield_user_agent=values.get("MOXFIELD_USER_AGENT") or None,
        user_agent=values.get("USER_AGENT") or None,
        cache_seconds=DECK_CACHE_SECONDS if cache is None else cache,
    )


def markdown_table() -> str:
    """The configuration table (docs/configuration.md), generated from SETTINGS."""
    rows = ["| variable | type | default | meaning |", "|---|---|---|---|"]
    for item in SETTINGS:
        rows.append(f"| `{item.name}` | {item.type_name} | {item.show_default()} | {item.meaning} |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    """`python -m edh_service.config`: the configuration table; with NAME, that setting's value as
    read from the environment, in JSON (the Makefile asks for CARD_DATA_OFFLINE this way)."""
    import json
    import sys

    if not argv:
        print(markdown_table())
        return 0
    try:
        print(json.dumps(setting(argv[0])))
    except ConfigError as error:
        print(f"edh_service: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
