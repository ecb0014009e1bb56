"""The card-data extension: init_app keeps the repository and the sync in app.extensions;
get_repository and retry_after are the only ways in."""

from __future__ import annotations

import pytest
from flask import Flask

from card_data import CardDataUnavailable, CardRepository
from edh_service import card_extension as cards
from tests.support.apps import offline_app


def test_init_app_keeps_the_repository_and_no_sync_when_offline(app):
    assert isinstance(cards.repository_of(app), CardRepository)
    assert cards.syncer_of(app) is None
    with app.app_context():
        assert cards.get_repository() is cards.repository_of(app)
        assert cards.get_syncer() is None


def test_an_app_without_the_extension_has_no_repository_and_says_when_to_come_back():
    bare = Flask(__name__)
    bare.config["CARD_DATA_RETRY_AFTER"] = 12
    with bare.app_context(), pytest.raises(CardDataUnavailable) as caught:
        cards.get_repository()
    assert caught.value.retry_after == 12


def test_retry_after_before_any_store_is_the_configured_wait(tmp_path):
    app = offline_app(tmp_path / "absent.sqlite3", CARD_DATA_RETRY_AFTER=9)
    with app.app_context():
        # card_data's own "no store yet" figure (60 s) gives way to this process's wait.
        assert cards.retry_after(CardDataUnavailable("no store", retry_after=60)) == 9
        assert cards.retry_after() == 9


def test_retry_after_with_a_store_is_the_errors_own_figure(app):
    with app.app_context():
        # A store is loaded; Scryfall locked a look-up out for 30 s: that figure stands.
        assert cards.retry_after(CardDataUnavailable("429", retry_after=30)) == 30
        assert cards.retry_after(CardDataUnavailable("429", retry_after=0)) == app.config["CARD_DATA_RETRY_AFTER"]
