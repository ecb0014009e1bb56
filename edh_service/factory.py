"""create_app(): configuration, card data, the API, the page, error handling, observability.

Wiring only: each concern lives in its own module and installs itself with `init_app` or
a blueprint, as in Flask's tutorial (flaskr).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Mapping

from flask import Flask

from card_data.settings import default_user_agent
from edh_service import card_extension, config, house_profiles
from edh_service.api import views as api, errors, openapi
from edh_service.i18n import app as i18n
from edh_service.serving import http_hooks, observability, ratelimit
from edh_service.web import views as web
from edh_service.serving.connections import DRAIN_FACTOR, DrainUnreadBodies
from edh_service.api.json_codec import OrjsonProvider


class ServiceFlask(Flask):
    """Flask, with each hook's and view's sync check made once: Flask asks
    inspect.iscoroutinefunction of every hook on every request (seven a request here), and
    every function this app registers is plain `def`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._synced: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Flask's answer for `func`, remembered (hooks and views are registered once)."""
        synced = self._synced.get(func)
        if synced is None:
            synced = self._synced[func] = super().ensure_sync(func)
        return synced


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the service: the settings' defaults, then the environment (or, in tests, the
    test mapping instead of the environment)."""
    app = ServiceFlask(__name__, static_folder="web/static", template_folder="web/templates")
    app.config.from_mapping(config.defaults())
    if test_config is None:
        app.config.update(config.from_environment(os.environ))
    else:
        # Tests that count requests turn the rate limit on explicitly.
        app.config["RATELIMIT_ENABLED"] = not test_config.get("TESTING", False)
        app.config.update(test_config)
    app.config["USER_AGENT"] = app.config["USER_AGENT"] or default_user_agent()
    app.json = OrjsonProvider(app)  # orjson; keys in the API's documented order: valid, format, commanders...

    card_extension.init_app(app)
    i18n.init_app(app)  # the answer's language: Flask-Babel over edh_service/i18n's catalogs
    # The operator's house rules profiles (HOUSE_RULES_DIR), read now: a broken one is logged.
    app.extensions[house_profiles.EXTENSION] = house_profiles.Profiles(app.config["HOUSE_RULES_DIR"])
    app.register_blueprint(api.bp)
    app.add_url_rule("/healthz", view_func=api.healthz)
    app.add_url_rule("/readyz", view_func=api.readyz)
    errors.init_app(app)
    http_hooks.init_app(app)  # a streamed body over the limit refused; nosniff, CORS
    app.register_blueprint(openapi.bp)
    app.register_blueprint(web.bp)  # the paste-and-validate page at /
    observability.init_app(app)  # request ids, JSON request logs, /metrics
    # After observability's hooks, so a 429 carries a request id; its fallbacks are counted there.
    ratelimit.init_app(app, on_fallback=observability.metrics_of(app).limit_fallbacks.inc)
    app.wsgi_app = DrainUnreadBodies(app.wsgi_app, lambda: DRAIN_FACTOR * int(app.config["MAX_CONTENT_LENGTH"] or 0))  # type: ignore[method-assign]
    return app
