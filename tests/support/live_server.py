"""Start the service as `make run` does (gunicorn + edh_service/serving/gunicorn_conf.py) on a free loopback
port. Shared by the tests that need a real process and by the HTTP benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from tests.support.cli_runs import NOWHERE

ROOT = Path(__file__).resolve().parents[2]
# As `make run` and the Docker image start it (the config is a module of the package).
GUNICORN_CONFIG = "python:edh_service.serving.gunicorn_conf"
WSGI_APP = "edh_service.serving.wsgi:app"


class ServerFailed(RuntimeError):
    """gunicorn exited or never answered; the message carries its log."""


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(log: Path, *, ready_path: str = "/healthz", app: str = WSGI_APP,
             **environment: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """gunicorn --config python:edh_service.serving.gunicorn_conf edh_service.serving.wsgi:app; yields (base URL, process) once
    ready_path answers 200, and stops it (SIGTERM, then SIGKILL) afterwards.

    `environment` overrides the inherited environment (CARD_DB, WEB_CONCURRENCY...);
    by default two workers, and no rate limit: one loopback client would hit it.
    """
    port = free_port()
    process = spawn(log, port, app=app, **environment)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base + ready_path, process, log)
        yield base, process
    finally:
        stop(process)


def spawn(log: Path, port: int, *, own_group: bool = False, app: str = WSGI_APP,
          **environment: str) -> subprocess.Popen:
    """Start gunicorn on 127.0.0.1:port without waiting (see gunicorn() for the defaults);
    the caller waits with wait_ready() and stops it with stop(). Its output goes to log.
    own_group: in a process group of its own, so that os.killpg() ends master and workers
    at once (a crash), where a SIGKILLed master alone leaves its workers serving.
    app: another WSGI app under the same config (the benchmark's fixed-response floor)."""
    env = server_environment(port, **environment)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # the gunicorn config makes a private one
    with open(log, "ab") as sink:  # a file, not a pipe: nobody reads it while clients run
        return subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", GUNICORN_CONFIG, app],
                                cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                process_group=0 if own_group else None)


def server_environment(port: int, **environment: str) -> dict[str, str]:
    """gunicorn's environment: the inherited one, two workers, no rate limit, and every
    upstream (Scryfall, Commander Spellbook) on a closed local port unless `environment`
    names one: the background sync of a server that is not offline must never reach the
    real hosts (this process's loopback-only guard does not reach a subprocess)."""
    return {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "2",
            "RATELIMIT_ENABLED": "0", "SCRYFALL_API_URL": NOWHERE, "SPELLBOOK_URL": NOWHERE, **environment}


def wait_ready(url: str, process: subprocess.Popen, log: Path, timeout: float = 30.0) -> None:
    """Poll url until it answers 200; raise ServerFailed with gunicorn's log otherwise."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerFailed("gunicorn exited:\n" + log.read_text(errors="replace"))
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise ServerFailed(f"gunicorn did not answer {url}:\n" + log.read_text(errors="replace"))


def stop(process: subprocess.Popen, timeout: float = 20.0) -> None:
    """Graceful stop, then a kill if it hangs."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
