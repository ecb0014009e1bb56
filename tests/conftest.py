"""Fixtures shared by every test package."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch):
    """No test reaches the internet, whatever URL it names: in this process only loopback
    names resolve, so a request to Scryfall's or Commander Spellbook's real host fails at
    once with a resolution error instead of being sent (subprocesses get local URLs). A
    proxy from the environment would resolve the real host itself, past this guard, so
    the proxy variables are cleared too."""
    for variable in PROXY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    real_getaddrinfo = socket.getaddrinfo

    def loopback_only(host, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if name is not None and name not in LOOPBACK_HOSTS and not str(name).startswith("127."):
            raise socket.gaierror(socket.EAI_NONAME, f"tests resolve loopback only, not {name!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", loopback_only)


@pytest.fixture(autouse=True)
def _no_internet_sources(monkeypatch):
    """No test reaches the internet: the bracket lists' default sources point nowhere.

    A test that refreshes them names its own local source (SPELLBOOK_URL, the files);
    one that forgets gets a refused connection on 127.0.0.1, never a request out.
    """
    from edh_service import config

    nowhere = "http://127.0.0.1:9/no-spellbook-in-tests"
    monkeypatch.setenv("SPELLBOOK_URL", nowhere)
    # create_app(test mapping) starts from the table's defaults, not the environment.
    table_defaults = config.defaults
    monkeypatch.setattr(config, "defaults", lambda scope="app": {**table_defaults(scope), "SPELLBOOK_URL": nowhere})
    for name in ("MASS_LAND_DENIAL_FILE", "COMBOS_FILE", "CARD_NAMES_FILE", "CARD_NAME_LANGUAGES"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared (real card data and decklists); skips the test when it is absent."""
    if not (SHARED / "carddata" / "oracle-cards.jsonl.gz").is_file():
        pytest.skip("../shared is absent (a fresh clone): real-data tests skipped")
    return SHARED


@pytest.fixture(scope="session")
def _fixture_db_template(tmp_path_factory) -> Path:
    """A card store built once per session from tests/fixtures/cards.jsonl."""
    from card_data.sync import import_file

    path = tmp_path_factory.mktemp("card-store") / "cards.sqlite3"
    import_file(path, ROOT / "tests" / "fixtures" / "cards.jsonl", updated_at="2026-11-01T00:00:00+00:00")
    return path


@pytest.fixture
def fixture_db(_fixture_db_template, tmp_path) -> Path:
    """A fresh copy of the fixture card store (hand-written cards), safe to write to."""
    path = tmp_path / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, path)
    return path


@pytest.fixture
def scryfall_server():
    """A started local Scryfall-shaped server over the fixture cards (see tests/support/scryfall_server.py)."""
    from tests.support.scryfall_server import fixture_server

    with fixture_server() as server:
        yield server


@pytest.fixture(scope="module")
def live_server(_fixture_db_template, tmp_path_factory):
    """One real gunicorn (2 workers, offline) over a copy of the fixture store for a whole
    module: its base URL (tests/support/live_http.py talks to it)."""
    from tests.support.live_http import gunicorn

    scratch = tmp_path_factory.mktemp("live")
    db = scratch / "cards.sqlite3"
    shutil.copyfile(_fixture_db_template, db)
    with gunicorn(scratch / "gunicorn.log", CARD_DB=str(db)) as (base, _):
        yield base


@pytest.fixture(scope="session")
def formats_db(tmp_path_factory) -> Path:
    """The Commander-family formats' store (tests/support/format_store.py: every legality
    key, the PDH list loaded), built once; nothing may write to it."""
    from tests.support.format_store import format_store

    return format_store(tmp_path_factory.mktemp("formats") / "cards.sqlite3")


@pytest.fixture
def app_config() -> dict:
    """Settings a test module adds to the shared `app` (override this fixture to add some)."""
    return {}


@pytest.fixture
def app(fixture_db, app_config):
    """The service over a fresh copy of the fixture store: offline, no background sync,
    rate limit off (tests/support/apps.py offline_app), plus the module's `app_config`."""
    from tests.support.apps import offline_app

    return offline_app(fixture_db, **app_config)


@pytest.fixture
def client(app):
    """A test client of `app`."""
    return app.test_client()


@pytest.fixture
def redis_server(tmp_path):
    """Debian's redis-server on a free loopback port (see tests/support/redis_server.py); skips
    the test when redis-server is not installed (.ci/run installs it)."""
    from tests.support.redis_server import RedisServer, available

    if not available():
        pytest.skip("Debian's redis-server is not installed (.ci/run installs it)")
    with RedisServer(tmp_path / "redis") as server:
        yield server


def _stale_compiled_engine() -> str | None:
    """A compiled engine in this tree (`make compiled`) older than a source file of it: the
    tests would run yesterday's engine, not the source they read."""
    if not any((ROOT / "validator").rglob("*.so")):
        return None
    # mypyc's one library of every module's code is rebuilt whenever a module changed
    built = [path.stat().st_mtime for path in (ROOT / "validator").glob("compiled__mypyc*.so")]
    sources = [*(ROOT / "validator").rglob("*.py"), ROOT / "edh_service" / "pipeline.py"]
    newer = [path for path in sources if not built or path.stat().st_mtime > max(built)]
    return f"{newer[0].relative_to(ROOT)} changed after `make compiled`" if newer else None


if (stale := _stale_compiled_engine()) is not None:
    pytest.exit(f"{stale}: run `make compiled` again, or `make clean-compiled` for plain Python", returncode=2)
