"""WSGI entry point: `gunicorn --config gunicorn.conf.py wsgi:app` (make run, Docker)."""

from app import create_app

# Configuration comes from the environment (CARD_DB, SCRYFALL_API_URL, CARD_DATA_OFFLINE...).
app = create_app()
