"""The HTTP service as one installed package: the JSON API, the page, schemas, OpenAPI,
configuration, observability, the card-data extension and both command-line programs.

    factory.py          create_app(): wiring only
    config.py           every setting (environment variable, type, default, meaning), and
                        the two card_data settings values built from them
    card_extension.py   card data as a Flask extension: init_app, get_repository, retry_after
    background_sync.py  the background sync of the card store
    api.py              the JSON API (/api/v1) and /healthz, /readyz
    errors.py           the one JSON error envelope
    web.py, charts.py   the paste-and-validate page (templates/, static/) and its charts
    schemas.py          request and response schemas (marshmallow)
    responses.py        the response bodies, built by hand in those schemas' shapes
    openapi.py          /openapi.json and /docs
    observability.py    request ids, JSON logs, /metrics
    ratelimit.py        the per-client request budget and its 429
    http_hooks.py       nosniff, CORS, and the 413 for a streamed body over the limit
    pipeline.py         decklist text in, Report out: parse -> resolve -> check
    decoding.py         a decklist file's bytes -> text
    cli/                `edh-validate` and `cards`
    wsgi.py             the WSGI `app` gunicorn serves
    gunicorn_conf.py    gunicorn's settings (gunicorn -c python:edh_service.serving.gunicorn_conf)
    gunicorn_worker.py, connections.py   the buffering worker and connection handling
    request_framing.py, arrivals.py      where a request ends; who holds the requests arriving

Importing the package imports nothing else: the CLI uses pipeline.py and responses.py
without loading the app, and gunicorn's config runs before prometheus_client is imported.
"""
