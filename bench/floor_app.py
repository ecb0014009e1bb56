"""The floor for bench_http: a Flask app that answers POST /api/v1/validate with a fixed
JSON body (the real report's bytes, from the file BENCH_FLOOR_BODY), after reading the
request body. bench_http serves it under the very gunicorn settings the service runs
with, in the same run, so "decks/s as a share of the floor" compares like with like.
Only the benchmark starts it."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, Response, request

app = Flask(__name__)
BODY = Path(os.environ["BENCH_FLOOR_BODY"]).read_bytes()


@app.post("/api/v1/validate")
def validate() -> Response:
    """The fixed body, after the request's own has been read as the service reads it."""
    request.get_json()
    return Response(BODY, mimetype="application/json")


@app.get("/readyz")
def readyz() -> Response:
    """Ready at once: there is nothing to load."""
    return Response(b'{"status":"ready"}', mimetype="application/json")
