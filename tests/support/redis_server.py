"""Debian's real redis-server on a free loopback port, for tests (and the cluster helper).

    with RedisServer(tmp_path) as redis:      # or the `redis_server` fixture (conftest.py)
        redis.url                             # redis://127.0.0.1:PORT/0
        redis.stop(); redis.start()           # an outage, then Redis back on the same port

No persistence (a restarted server is empty, as a restarted cache would be).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from tests.support.live_server import free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def available() -> bool:
    """Whether Debian's redis-server is installed (.ci/run installs it)."""
    return Path(REDIS_SERVER).is_file()


class RedisServer:
    """One redis-server process bound to 127.0.0.1; start() and stop() as often as needed."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """What REDIS_URL would be."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log(self) -> Path:
        return self.folder / f"redis-{self.port}.log"

    def start(self, timeout: float = 10.0) -> "RedisServer":
        """Start the server and wait until it answers PING."""
        command = [REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                   "--appendonly", "no", "--dir", str(self.folder), "--logfile", str(self.log)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited: {self.log.read_text(errors='replace') if self.log.exists() else ''}")
            if self.ping():
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def ping(self) -> bool:
        """Whether the server answers PING (a raw RESP exchange: no client library involved)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and wait until the port is closed."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> "RedisServer":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
