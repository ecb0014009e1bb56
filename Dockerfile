# Production image: gunicorn as a non-root user; card data lives on the /data volume.
#   docker build -t edh-validator .
#   docker run -p 8000:8000 -v edh-cards:/data edh-validator
# On a first start with an empty volume the service comes up at once, answers 503 with
# Retry-After, and syncs from Scryfall in the background (one worker does it). Air-gapped:
#   docker run --rm -v edh-cards:/data -v "$PWD/oracle-cards.jsonl.gz:/import.jsonl.gz:ro" \
#     edh-validator cards import /import.jsonl.gz
# Several instances (REDIS_URL, the /shared bulk-file volume): deploy/compose.yaml and
# deploy/kubernetes/, docs/deployment.md.

# The wheel, its engine (validator/) compiled by mypyc and its catalogs to .mo by the package's
# build backend (scripts/build_backend.py): gcc here only, not in the image served.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so a code change does not reinstall them.
COPY requirements.txt ./
RUN pip install -r requirements.txt

# The built wheel alone, no source tree: gunicorn puts its working directory first on the
# path, and a source copy there would run the plain engine instead of the compiled one.
COPY --from=build /wheels /wheels
RUN pip install --no-deps /wheels/*.whl \
    && python -c 'from validator import ENGINE; assert ENGINE == "compiled", ENGINE' \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin app \
    && mkdir -p /data /shared \
    && chown app:app /data /shared

USER app
ENV HOST=0.0.0.0 \
    PORT=8000 \
    CARD_DB=/data/cards.sqlite3
VOLUME ["/data"]
EXPOSE 8000

# Liveness only: /readyz is 503 until card data is there, and a container still syncing
# must not be restarted for it. slim has no curl; Python is there anyway.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"

CMD ["gunicorn", "--config", "python:edh_service.serving.gunicorn_conf", "edh_service.serving.wsgi:app"]
