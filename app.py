"""The service's wiring at the repository root: `create_app()` and the WSGI `app`
(`flask --app app run`, `gunicorn app:app`). Everything else is in edh_service/; the
installed package serves the same app as `edh_service.serving.wsgi:app`.
"""

from edh_service.factory import create_app
from edh_service.serving.wsgi import app

__all__ = ["app", "create_app"]
