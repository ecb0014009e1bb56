"""The HTTP service as one installed package: the JSON API, the page, schemas, OpenAPI,
configuration, observability and the card-data extension.

    factory.py         create_app(): wiring only
    config.py          every setting (environment variable, type, default, meaning)
    cards.py           card data as a Flask extension: init_app, get_repository, retry_after
    runtime.py         the background sync of the card store
    api.py             the JSON API (/api/v1) and /healthz, /readyz
    errors.py          the one JSON error envelope
    web.py             the paste-and-validate page (templates/, static/)
    schemas.py         request and response schemas (marshmallow)
    openapi.py         /openapi.json and /docs
    observability.py   request ids, JSON logs, /metrics, rate limiting
    service.py         decklist text in, Report out (shared with the CLI)
    wsgi.py            the WSGI `app` gunicorn serves
    gunicorn_conf.py   gunicorn's settings (gunicorn -c python:edh_service.gunicorn_conf)

Importing the package imports nothing else: the CLI uses service.py and schemas.py
without loading Flask, and gunicorn's config runs before prometheus_client is imported.
"""
