"""N real gunicorn instances on free loopback ports behind a real HAProxy (Debian's), for
the cluster tests and `python -m bench cluster`.

    with Cluster(tmp_path, stores=[db1, db2, db3], CARD_DATA_OFFLINE="1") as cluster:
        cluster.url                        # HAProxy's frontend
        cluster.kill(0)                    # SIGKILL instance 0 (a crash)
        cluster.wait_state(0, "DOWN")      # HAProxy's health check saw it
        cluster.restart(0)                 # the same port again; wait_state(0, "UP")
        cluster.rolling_restart()          # SIGTERM one at a time, each back UP before the next

HAProxy's config is generated (health checks on /readyz every 200 ms, down after 2 failures,
up after 2 successes; a request that hits a dead instance is retried on another), and its
stats socket tells the tests what it thinks of each instance. Everything stops cleanly
(SIGTERM, then SIGKILL) on exit.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.support.live_server import ServerFailed, free_port, spawn, stop, wait_ready

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
CHECK_INTERVAL_MS = 200
CHECK_FALL = 2  # failed checks in a row that take an instance out


def detection_bound(load_slack: float = 3.0) -> float:
    """Seconds within which HAProxy must mark a killed instance DOWN: CHECK_FALL checks
    CHECK_INTERVAL_MS apart (a dead instance refuses each at once), plus `load_slack` for
    a loaded machine running HAProxy's checks and the test's stats polling late. Still
    below HAProxy's own default checks (inter 2 s, fall 3: at least 4 s), so it shows
    that this config's checks are what took the instance out."""
    return CHECK_FALL * CHECK_INTERVAL_MS / 1000 + load_slack

CONFIG = """\
global
    maxconn 2048
    stats socket {socket} mode 600 level admin

defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    timeout http-request 10s
    # Checks run every {interval} ms, but a busy instance may take longer to answer one:
    # without this the check's timeout is the interval, and a saturated cluster is marked
    # DOWN as a whole (seen under wrk). A dead instance refuses at once anyway.
    timeout check 2s
    # A request sent to an instance that died (refused, reset, no answer) goes to another.
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout
    default-server check inter {interval}ms fastinter {interval}ms downinter {interval}ms fall {fall} rise 2

frontend http
    bind 127.0.0.1:{port}
    default_backend instances

backend instances
    balance roundrobin
    option httpchk GET {check_path}
    http-check expect status 200
    # Buffer small bodies so a POST can be retried on another instance.
    option http-buffer-request
{servers}
"""


def available() -> bool:
    """Whether Debian's haproxy is installed (.ci/run installs it)."""
    return Path(HAPROXY).is_file()


class Cluster:
    """len(stores) gunicorn instances (instance i serves stores[i]) behind one HAProxy."""

    def __init__(self, folder: Path, stores: list[Path], *, check_path: str = "/readyz", **environment: str) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.stores = [Path(store) for store in stores]
        self.check_path = check_path
        self.environment = {"WEB_CONCURRENCY": "1", **environment}
        self.ports = [free_port() for _ in stores]
        self.port = free_port()
        self.socket = self.folder / "haproxy.sock"
        self.instances: list[subprocess.Popen | None] = [None] * len(stores)
        self.haproxy: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """HAProxy's frontend: what clients talk to."""
        return f"http://127.0.0.1:{self.port}"

    def name(self, index: int) -> str:
        return f"app{index + 1}"

    def log(self, index: int) -> Path:
        return self.folder / f"{self.name(index)}.log"

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> "Cluster":
        """Start every instance, wait until each answers, then HAProxy until all are UP."""
        try:
            for index in range(len(self.stores)):
                self._spawn(index)
            for index in range(len(self.stores)):
                self._wait_ready(index)
            self._start_haproxy()
            for index in range(len(self.stores)):
                self.wait_state(index, "UP")
        except BaseException:
            self.stop()
            raise
        return self

    def _spawn(self, index: int) -> None:
        self.instances[index] = spawn(self.log(index), self.ports[index], own_group=True,
                                      CARD_DB=str(self.stores[index]), **self.environment)

    def _wait_ready(self, index: int) -> None:
        wait_ready(f"http://127.0.0.1:{self.ports[index]}{self.check_path}", self.instances[index], self.log(index))

    def _start_haproxy(self) -> None:
        servers = "\n".join(f"    server {self.name(i)} 127.0.0.1:{port}" for i, port in enumerate(self.ports))
        config = self.folder / "haproxy.cfg"
        config.write_text(CONFIG.format(socket=self.socket, interval=CHECK_INTERVAL_MS, fall=CHECK_FALL,
                                        port=self.port, check_path=self.check_path, servers=servers),
                          encoding="utf-8")
        with open(self.folder / "haproxy.log", "ab") as sink:
            self.haproxy = subprocess.Popen([HAPROXY, "-db", "-f", str(config)], stdout=sink, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not self.socket.exists():
            if self.haproxy.poll() is not None or time.monotonic() > deadline:
                raise ServerFailed("haproxy did not start:\n" + (self.folder / "haproxy.log").read_text(errors="replace"))
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop HAProxy and every instance (SIGTERM, then SIGKILL)."""
        if self.haproxy is not None:
            stop(self.haproxy, timeout=5)
            self.haproxy = None
        for index, process in enumerate(self.instances):
            if process is not None:
                stop(process)
                try:  # workers a hung master left behind
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.instances[index] = None

    def __enter__(self) -> "Cluster":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- faults -----------------------------------------------------------------------------

    def kill(self, index: int, sig: int = signal.SIGKILL) -> None:
        """SIGKILL: instance index dies at once, master and workers (its process group), as
        with a crashed host. SIGTERM: gunicorn's graceful stop (the master finishes the
        requests in flight, then exits). Returns once it is gone."""
        process = self.instances[index]
        if sig == signal.SIGKILL:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.send_signal(sig)
        process.wait(timeout=30)
        self.instances[index] = None

    def restart(self, index: int) -> None:
        """Start instance index again on its port; wait until it answers."""
        self._spawn(index)
        self._wait_ready(index)

    def rolling_restart(self) -> None:
        """SIGTERM each instance in turn, start it again, and wait until HAProxy has it UP
        before the next one goes (what a Deployment rollout or `compose up` does)."""
        for index in range(len(self.instances)):
            self.kill(index, signal.SIGTERM)
            self.restart(index)
            self.wait_state(index, "UP")

    # -- what HAProxy thinks ---------------------------------------------------------------

    def stats(self) -> list[dict[str, str]]:
        """HAProxy's stats rows ("show stat") for each instance: status, stot (sessions)..."""
        with socket.socket(socket.AF_UNIX) as connection:
            connection.settimeout(2)
            connection.connect(str(self.socket))
            connection.sendall(b"show stat\n")
            data = b""
            while chunk := connection.recv(65536):
                data += chunk
        rows = csv.DictReader(data.decode().lstrip("# ").splitlines())
        return [row for row in rows if row["pxname"] == "instances" and row["svname"] not in ("FRONTEND", "BACKEND")]

    def states(self) -> dict[str, str]:
        """Each instance's status in HAProxy's stats ("UP", "DOWN", "UP 1/2"...)."""
        return {row["svname"]: row["status"] for row in self.stats()}

    def wait_state(self, index: int, state: str, timeout: float = 20.0) -> float:
        """Wait until HAProxy reports instance index as exactly `state`; the monotonic time it did."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.states().get(self.name(index)) == state:
                return time.monotonic()
            time.sleep(0.02)
        raise ServerFailed(f"HAProxy never reported {self.name(index)} {state}: {self.states()}")

