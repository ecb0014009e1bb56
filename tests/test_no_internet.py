"""The suite's guard: no test can send a request to a real host, whatever URL it names."""

import pytest
import requests


@pytest.mark.parametrize("url", ["https://api.scryfall.com/bulk-data/oracle-cards",
                                 "https://json.commanderspellbook.com/variants.json.gz"])
def test_real_hosts_do_not_resolve_in_tests(url):
    with pytest.raises(requests.ConnectionError, match="loopback only"):
        requests.get(url, timeout=1)
