"""What the local upstream servers of the tests share (scryfall_server.py, site_server.py):
a threading HTTP server on a free loopback port, served from a daemon thread, whose
handler class reads the server's state object, and started and stopped like a context."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class QuietServer(ThreadingHTTPServer):
    """Clients that time out hang up mid-answer; that is the test working, not an error."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


class LocalServer:
    """start() / stop() / `with` for a state object served by `handler` (a
    BaseHTTPRequestHandler subclass reading it as its `state_attribute`)."""

    handler: type[BaseHTTPRequestHandler]
    state_attribute: str
    _httpd: QuietServer | None = None

    def start(self):
        """Listen on 127.0.0.1 on a free port and serve in a daemon thread."""
        handler = type("Handler", (self.handler,), {self.state_attribute: self})
        self._httpd = QuietServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The loopback port it listens on."""
        return self._httpd.server_address[1]
