"""The suite's guard: no test can send a request to a real host, whatever URL it names."""

import os
import socket

import pytest
import requests

from tests.conftest import PROXY_VARIABLES

REAL_URLS = ["https://api.scryfall.com/bulk-data/oracle-cards",
             "https://json.commanderspellbook.com/variants.json.gz"]


@pytest.mark.parametrize("url", REAL_URLS)
def test_real_hosts_do_not_resolve_in_tests(url, monkeypatch):
    """Refused at name resolution: no socket is even asked to connect."""
    connects = []
    real_connect = socket.socket.connect
    monkeypatch.setattr(socket.socket, "connect", lambda sock, address: (connects.append(address),
                                                                        real_connect(sock, address))[1])
    with pytest.raises(requests.ConnectionError, match="loopback only"):
        requests.get(url, timeout=1)
    assert connects == []


def test_no_proxy_from_the_environment_can_carry_a_request_out():
    """requests would hand the URL to an HTTP(S)_PROXY, which resolves the host itself."""
    assert all(variable not in os.environ for variable in PROXY_VARIABLES)
    assert requests.utils.get_environ_proxies(REAL_URLS[0]) == {}


def test_servers_the_tests_start_get_local_upstreams_only(monkeypatch):
    """A gunicorn a test starts is a subprocess, past this process's resolver guard: its
    Scryfall and Spellbook URLs are a closed local port unless the test names its own."""
    from urllib.parse import urlsplit

    from tests.support.live_server import server_environment

    monkeypatch.setenv("SCRYFALL_API_URL", REAL_URLS[0])  # even one left in the environment
    env = server_environment(8000)
    for name in ("SCRYFALL_API_URL", "SPELLBOOK_URL"):
        assert urlsplit(env[name]).hostname == "127.0.0.1", name
    assert server_environment(8000, SCRYFALL_API_URL="http://127.0.0.1:5/")["SCRYFALL_API_URL"] == "http://127.0.0.1:5/"
