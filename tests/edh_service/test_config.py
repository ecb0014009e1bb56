"""The one settings table: typed readers, loud refusals, one CARD_DB default, the
configuration page (docs/configuration.md) generated from it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from edh_service.cli import results, validate
from edh_service import config
from edh_service.factory import create_app
from scripts.gen_docs import committed
from tests.support.cli_runs import ROOT


def test_configuration_page_table_is_the_settings_table():
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert committed(page, "settings") == config.markdown_table(), "run `python -m scripts.gen_docs`"


def test_every_setting_is_documented_once():
    names = [setting.name for setting in config.SETTINGS]
    assert len(names) == len(set(names))
    assert all(setting.meaning and setting.type_name for setting in config.SETTINGS)


@pytest.mark.parametrize(("raw", "expected"), (
    ("1", True), ("true", True), ("YES", True), (" on ", True),
    ("0", False), ("false", False), ("No", False), ("off", False), ("", False),
))
def test_flag_reads_the_usual_words(raw, expected):
    assert config.flag(raw) is expected


@pytest.mark.parametrize("raw", ("maybe", "2", "enabled"))
def test_flag_refuses_anything_else(raw):
    with pytest.raises(ValueError):
        config.flag(raw)


def test_every_bad_variable_is_named_at_once():
    with pytest.raises(config.ConfigError) as caught:
        config.from_environment({"PORT": "eighty", "CARD_DATA_OFFLINE": "maybe", "BATCH_LIMIT": "0",
                                 "SYNC_BACKOFF_CAP": "-1", "CARD_DB": "/ok.sqlite3"})
    message = str(caught.value)
    assert "PORT='eighty' is malformed (expected a whole number)" in message
    assert "CARD_DATA_OFFLINE='maybe'" in message
    assert "BATCH_LIMIT='0' is malformed (expected a whole number above 0)" in message
    assert "SYNC_BACKOFF_CAP='-1'" in message
    assert "CARD_DB" not in message


@pytest.mark.parametrize(("raw", "why"), (
    ("bogus", "expected limits such as 10/second;600/minute"),
    ("10/fortnight", "expected limits such as 10/second;600/minute"),
    ("10/second;", "expected limits such as 10/second;600/minute"),
    ("", "expected limits such as 10/second;600/minute"),
    ("0/second", "every limit must allow at least 1 request (RATELIMIT_ENABLED=0 turns the limit off)"),
    ("10/second;0/minute", "every limit must allow at least 1 request (RATELIMIT_ENABLED=0 turns the limit off)"),
    ("10/0 seconds", "a window of 0 seconds (or minutes...) counts nothing; write 10/second"),
    ("600/minute;10 per 00 second", "a window of 0 seconds (or minutes...) counts nothing; write 10/second"),
))
def test_a_rate_limit_that_cannot_be_counted_is_refused(raw, why):
    with pytest.raises(config.ConfigError) as caught:
        config.from_environment({"RATELIMIT": raw})
    assert str(caught.value) == f"bad configuration: RATELIMIT={raw!r} is malformed ({why})"


@pytest.mark.parametrize("raw", ("600/minute", "10/second;600/minute", "10 per second, 600/minute", "5/2 seconds"))
def test_a_rate_limit_is_kept_as_written(raw):
    assert config.from_environment({"RATELIMIT": raw}) == {"RATELIMIT": raw}


@pytest.mark.parametrize(("name", "raw"), (
    ("REDIS_URL", "localhost:6379"), ("REDIS_URL", "http://redis:6379"),
    ("RATELIMIT_STORAGE_URI", "bogus://x"), ("RATELIMIT_STORAGE_URI", "redis"),
    ("RATELIMIT_STORAGE_URI", "unix:///run/redis.sock"),  # limits spells it redis+unix://
))
def test_a_storage_nobody_could_connect_to_is_refused(name, raw):
    with pytest.raises(config.ConfigError, match=f"{name}={raw!r} is malformed \\(expected "):
        config.from_environment({name: raw})


@pytest.mark.parametrize(("name", "raw"), (
    ("REDIS_URL", "redis://127.0.0.1:6379/0"), ("REDIS_URL", "rediss://cache:6380"),
    ("REDIS_URL", "unix:///run/redis.sock"), ("REDIS_URL", ""),
    ("RATELIMIT_STORAGE_URI", "memory://"), ("RATELIMIT_STORAGE_URI", "redis+unix:///run/redis.sock"),
    ("RATELIMIT_STORAGE_URI", "memcached://127.0.0.1:11211"), ("RATELIMIT_STORAGE_URI", ""),
))
def test_a_storage_url_is_kept_as_written(name, raw):
    assert config.from_environment({name: raw}) == {name: raw}


def test_a_unix_socket_redis_url_is_handed_to_limits_in_its_spelling():
    from edh_service.serving.ratelimit import limit_storage_uri

    settings = {"RATELIMIT_STORAGE_URI": None, "REDIS_URL": "unix:///run/redis.sock"}
    assert limit_storage_uri(settings) == "redis+unix:///run/redis.sock"
    assert limit_storage_uri({**settings, "REDIS_URL": "redis://r:6379"}) == "redis://r:6379"
    assert limit_storage_uri({**settings, "RATELIMIT_STORAGE_URI": "memory://"}) == "memory://"


def test_create_app_refuses_a_bad_environment(monkeypatch):
    monkeypatch.setenv("CARD_DATA_SYNC", "sometimes")
    with pytest.raises(config.ConfigError, match="CARD_DATA_SYNC='sometimes'"):
        create_app()


def test_card_db_default_is_the_same_for_the_service_and_the_cli(monkeypatch):
    monkeypatch.delenv("CARD_DB", raising=False)
    app = create_app({"TESTING": True, "CARD_DATA_OFFLINE": True})
    assert app.config["CARD_DB"] == config.DEFAULT_CARD_DB == "instance/cards.sqlite3"
    assert validate.build_parser().parse_args(["x"]).card_db == app.config["CARD_DB"]


def test_cli_refuses_a_bad_flag_with_one_line(monkeypatch, capsys):
    monkeypatch.setenv("CARD_DATA_OFFLINE", "perhaps")
    assert validate.main(["deck.txt"]) == results.EXIT_USAGE
    err = capsys.readouterr().err
    assert "CARD_DATA_OFFLINE='perhaps' is malformed" in err and "Traceback" not in err


def gunicorn_refusal(tmp_path, **settings: str) -> str:
    """Start gunicorn with `settings`; it must stop before any worker starts, without a
    traceback. Its stderr."""
    env = {**os.environ, **settings, "CARD_DATA_OFFLINE": "1", "CARD_DB": str(tmp_path / "c.sqlite3")}
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", "python:edh_service.serving.gunicorn_conf", "edh_service.serving.wsgi:app"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "Booting worker" not in done.stderr
    return done.stderr


def test_gunicorn_refuses_a_bad_value_before_any_worker_starts(tmp_path):
    stderr = gunicorn_refusal(tmp_path, PORT="eighty")
    assert "edh_service: bad configuration: PORT='eighty' is malformed (expected a whole number)" in stderr


def test_gunicorn_refuses_a_rate_limit_it_cannot_count_before_any_worker_starts(tmp_path):
    """A RATELIMIT typo used to pass the master's check and crash every worker at boot
    with limits' traceback ("Worker failed to boot")."""
    stderr = gunicorn_refusal(tmp_path, RATELIMIT="10/fortnight")
    assert "edh_service: bad configuration: RATELIMIT='10/fortnight' is malformed" in stderr



def test_gunicorn_refuses_a_redis_url_it_cannot_read_before_any_worker_starts(tmp_path):
    stderr = gunicorn_refusal(tmp_path, REDIS_URL="localhost:6379")
    assert "edh_service: bad configuration: REDIS_URL='localhost:6379' is malformed" in stderr


def test_config_command_prints_a_typed_value_or_refuses(monkeypatch, capsys):
    monkeypatch.setenv("CARD_DATA_OFFLINE", "yes")
    assert config.main(["CARD_DATA_OFFLINE"]) == 0
    assert capsys.readouterr().out.strip() == "true"
    monkeypatch.setenv("CARD_DATA_OFFLINE", "yes please")
    assert config.main(["CARD_DATA_OFFLINE"]) == 2
    assert "CARD_DATA_OFFLINE='yes please'" in capsys.readouterr().err


@pytest.mark.parametrize(("raw", "kept"), [
    ("https://archidekt.com/api", True), ("http://127.0.0.1:8080/api", True), ("http://localhost:9/api", True),
    ("http://[::1]:9", True), ("http://archidekt.com/api", False), ("ftp://archidekt.com", False),
    ("archidekt.com/api", False), ("http://10.0.0.1/api", False),
])
def test_a_deck_site_api_is_https_or_loopback_http(raw, kept):
    """Production asks the sites over https only; a test's local server is http on a loopback address."""
    for name in ("ARCHIDEKT_API_URL", "MOXFIELD_API_URL"):
        if kept:
            assert config.from_environment({name: raw}) == {name: raw}
        else:
            with pytest.raises(config.ConfigError, match=f"{name}=.*https://"):
                config.from_environment({name: raw})


def test_deck_site_settings_from_the_table():
    sites = config.deck_site_settings({"DECK_URLS": False, "DECK_URL_CACHE_SECONDS": 0, "MOXFIELD_USER_AGENT": "",
                                       "ARCHIDEKT_API_URL": "https://archidekt.com/api/"})
    assert (sites.enabled, sites.cache_seconds, sites.moxfield_user_agent) == (False, 0, None)
    assert sites.archidekt_api_url == "https://archidekt.com/api"
    assert config.deck_site_settings({}).enabled is True and config.deck_site_settings({}).cache_seconds == 300
