"""The static server for a build: dist/ at / or at a sub-path, on 127.0.0.1, with the MIME types
the runtime needs. Standard library only; `build.py serve`, the tests, the benchmarks and
tools/screenshots.py all serve a build through it."""

from __future__ import annotations

import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit


class Handler(SimpleHTTPRequestHandler):
    """Serves `server.directory` under `server.prefix` ("" for the root, else "/sub-path")."""

    extensions_map = {"": "application/octet-stream", ".html": "text/html", ".css": "text/css",
                      ".js": "text/javascript", ".mjs": "text/javascript",
                      ".json": "application/json", ".wasm": "application/wasm",
                      ".webmanifest": "application/manifest+json", ".png": "image/png",
                      ".svg": "image/svg+xml", ".zip": "application/zip", ".py": "text/plain",
                      ".gz": "application/gzip"}

    def __init__(self, request, client_address, server):
        super().__init__(request, client_address, server, directory=str(server.directory))

    def send_head(self):
        prefix = self.server.prefix
        path = urlsplit(self.path).path
        if path != prefix and not path.startswith(prefix + "/"):
            self.send_error(404, f"this server only serves {prefix}/")
            return None
        return super().send_head()

    def translate_path(self, path: str) -> str:
        return super().translate_path(path[len(self.server.prefix):] or "/")

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")  # revalidate: a rebuild is seen at once
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        if self.server.verbose:
            super().log_message(format, *args)


class Server(ThreadingHTTPServer):
    """A dist/ server on 127.0.0.1; its `directory` may be swapped to serve another build."""

    daemon_threads = True

    def __init__(self, directory: Path, port: int = 0, prefix: str = "/", verbose: bool = False):
        self.directory = Path(directory)
        self.prefix = "/" + prefix.strip("/") if prefix.strip("/") else ""
        self.verbose = verbose
        super().__init__(("127.0.0.1", port), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{self.prefix}/"

    def start(self) -> Server:
        """Serve in a background thread (tests); stop with close()."""
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def close(self) -> None:
        self.shutdown()
        self.server_close()

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser hung up: not news
            super().handle_error(request, client_address)
