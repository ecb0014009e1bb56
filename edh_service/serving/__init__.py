"""Production serving: connection bookkeeping, the per-client rate limit, observability
(request ids, logs, /metrics), every answer's headers, gunicorn's buffering worker; and
the two programs gunicorn loads, its config (gunicorn_conf) and the WSGI entry (wsgi).

May import: edh_service's base modules, card_data and validator. The two entries may
import the factory (they are programs: nothing imports them); the rest never api, web,
cli or the factory.
"""
