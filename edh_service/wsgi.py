"""WSGI entry point: `gunicorn --config python:edh_service.gunicorn_conf edh_service.wsgi:app` (make run, Docker)."""

from edh_service.api import create_app

# Configuration comes from the environment (CARD_DB, SCRYFALL_API_URL, CARD_DATA_OFFLINE...).
app = create_app()
