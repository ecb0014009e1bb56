"""gunicorn settings for `make run`, the Docker image and an installed package:

    gunicorn --config python:edh_service.serving.gunicorn_conf edh_service.serving.wsgi:app

The environment tunes them (HOST, PORT, WEB_CONCURRENCY, GUNICORN_THREADS, ACCESS_LOG,
LOG_LEVEL, LOG_FORMAT: see config.SETTINGS). The whole environment is checked here, in
the master, before any worker starts: a bad value stops gunicorn with one line naming it.
"""

import errno
import logging
import multiprocessing
import os
import socket
import struct
from pathlib import Path

from gunicorn.workers import gthread

# Imported by name: a module-level `config` would be read as gunicorn's own setting.
from edh_service.config import ConfigError, defaults, from_environment
from edh_service.first_start import no_card_data_hint
from edh_service.serving.log_text import escape_handlers

try:
    SETTINGS = {**defaults("app"), **defaults("gunicorn"), **from_environment(os.environ)}
except ConfigError as error:
    raise SystemExit(f"edh_service: {error}") from None

bind = f"{SETTINGS['HOST']}:{SETTINGS['PORT']}"
workers = SETTINGS["WEB_CONCURRENCY"] or multiprocessing.cpu_count()
# gthread keeps idle client connections alive in its poller. One thread per worker by
# default (GUNICORN_THREADS): validation is CPU-bound, and two threads in one worker only take
# turns with the GIL (measured: 2 workers x 1 thread served ~15% more decks/s, with a lower
# p99 under a mixed load, than 2 x 2). A client too slow to send its request is for the
# proxy in front to absorb (deploy/haproxy.cfg buffers requests), and without one the worker
# class buffers each request in its poller before a thread sees it (REQUEST_DEADLINE).
worker_class = "edh_service.serving.worker.BufferingWorker"
# gthread hands every new connection to a worker thread at once, which then waits up to this
# long for its first bytes before parking it in the poller. gunicorn 27 fixes it at 5 s and
# offers no setting: with one thread, a connection opened and left silent (a browser's
# speculative preconnect) stopped its worker for 5 s. A client sends its request right after
# the handshake, so a short wait loses nothing: a later request is read when it arrives.
gthread.DEFAULT_WORKER_DATA_TIMEOUT = FIRST_BYTES_WAIT = 0.25
threads = SETTINGS["GUNICORN_THREADS"]
timeout = 30
graceful_timeout = 10
keepalive = 5
# Only the deployment decides the URL prefix (SCRIPT_NAME in gunicorn's environment): gunicorn
# takes SCRIPT_NAME and PATH_INFO headers from forwarded_allow_ips (loopback by default), so a
# local client's `SCRIPT_NAME: /x` rewrote every URL the page links to (or was a 500 when the
# path did not start with it). No header sets them; underscored headers are dropped.
forwarder_headers = ""
# No preload: each worker opens its own SQLite connections and runs its own sync thread
# (a file lock elects one syncer, see runtime.py); threads started before fork would die.
preload_app = False
# gunicornc is not used, and several instances (tests, the benchmark) would share ~/.gunicorn.
control_socket_disable = True

loglevel = SETTINGS["LOG_LEVEL"]
accesslog = SETTINGS["ACCESS_LOG"] or None
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(B)sB %(M)sms id=%({x-request-id}o)s'
# Prometheus multiprocess mode: every worker writes its counters to files in this directory
# and /metrics sums them, whichever worker answers. Set before any worker imports
# prometheus_client (no preload), so the workers inherit it; on_starting empties it.
# SIGTERM is graceful (gunicorn's default): workers stop accepting, finish the requests in
# flight within graceful_timeout, and the master exits 0.
OWN_METRICS_DIR = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    import tempfile

    OWN_METRICS_DIR = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="edh-metrics-")


def when_ready(server):
    """Give every listening socket a receive timeout (SO_RCVTIMEO) of CLIENT_TIMEOUT seconds.

    gthread reads a request in the worker's thread with blocking reads and no timeout: a
    client that sends half its headers and stalls (or vanishes without a FIN) held that
    thread until TCP gave up, hours later, and with one thread a worker every other
    connection of that worker waited too (two such sockets froze both workers). Accepted
    sockets inherit the option (Linux), and it holds in blocking mode, so each read of a
    request now gives up after CLIENT_TIMEOUT seconds without data and gunicorn closes the
    connection. Idle keep-alive connections are not affected: they wait in the poller.
    """
    timeout = struct.pack("ll", SETTINGS["CLIENT_TIMEOUT"], 0)
    for listener in server.LISTENERS:
        listener.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeout)
    logging.getLogger("gunicorn.error").addFilter(QuietClientTimeouts())
    escape_handlers(server.log.error_log, server.log.access_log)


class QuietClientTimeouts(logging.Filter):
    """gunicorn logs a read that timed out (EAGAIN) as "Socket error processing request."
    with a traceback; for a client that stopped sending, one plain info line is enough."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, OSError) and error.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
            record.msg, record.args, record.exc_info, record.exc_text = (
                "client sent nothing for %s s in the middle of a request: connection closed",
                (SETTINGS["CLIENT_TIMEOUT"],), None, None)
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def post_fork(server, worker):
    """Send the app's own loggers (app, runtime, card_data, edh.request) to stderr as JSON
    lines with the request id (LOG_FORMAT=json, the default), or to gunicorn's error log in
    its own format (LOG_FORMAT=text), so "card data sync failed: ..." shows up either way.
    Every format escapes the control characters a client sent (log_text.py)."""
    escape_handlers(server.log.error_log, server.log.access_log)
    if SETTINGS["LOG_FORMAT"].lower() == "json":
        from edh_service.serving import observability

        observability.configure_logging(server.log.error_log.level)
        return
    root = logging.getLogger()
    for handler in server.log.error_log.handlers:
        root.addHandler(handler)
    root.setLevel(server.log.error_log.level)


def pre_request(worker, req):
    """Let the app close a connection whose refused body is too big to drain (connections.py)."""
    from edh_service.serving import connections

    connections.remember_request(req)


def child_exit(server, worker):
    """A dead worker's files must not pile up in the multiprocess metrics: its live gauges go,
    its counters and histograms are added into one file per kind (metrics_files.py)."""
    from edh_service.serving.metrics_files import retire_worker

    try:
        retire_worker(worker.pid)
    except (OSError, RuntimeError, ValueError) as error:  # a damaged file: the totals stay as they were
        server.log.warning("could not fold the metrics of worker %s: %s", worker.pid, error)


def on_exit(server):
    """Remove the metrics directory this config made (an operator's own is left alone)."""
    if OWN_METRICS_DIR:
        import shutil

        shutil.rmtree(OWN_METRICS_DIR, ignore_errors=True)


def on_starting(server):
    """Say where the card data is and whether it is there, once, before the workers start."""
    metrics_dir = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    metrics_dir.mkdir(parents=True, exist_ok=True)
    for stale in metrics_dir.glob("*.db"):  # a previous run's counters would be summed in
        stale.unlink()
    db = Path(SETTINGS["CARD_DB"]).resolve()
    if db.is_file():
        server.log.info("card data: %s", db)
    elif SETTINGS["CARD_DATA_OFFLINE"]:
        server.log.warning("card data: %s", no_card_data_hint(db, offline=True))
    else:
        server.log.warning("card data: no store at %s yet: answering 503 with Retry-After while a "
                           "background sync fetches it from Scryfall (if Scryfall cannot be reached, "
                           "the log says how to load card data without it)", db)
