"""A site that fails as a network or a broken deploy does, until the test heals it: build's server
with faults set per path. Unlike a browser's request interception, it can break a download off or
stall it half-way, it leaves the browser's HTTP cache on (so a retry shows what was kept), and it
works the same for every engine.

    server = FaultyServer(dist).start()
    server.fail("static/vendor/pyodide/pyodide.asm.wasm", "cut")
    ...
    server.heal()
    server.served("python_stdlib.zip")  # [200, 304]: what each request for it was answered
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import build

FAULTS = {
    "missing": "answers 404",
    "refused": "closes the connection without an answer",
    "cut": "sends its headers and half its body, then closes the connection",
    "stalled": "sends its headers and half its body, then nothing until healed",
}
HEALED_WAIT_S = 300  # a stalled answer gives up after this long anyway


class FaultyHandler(build.Handler):
    fault: str | None = None

    def do_GET(self):
        self._faulty() or super().do_GET()

    def do_HEAD(self):
        self._faulty() or super().do_HEAD()

    def _faulty(self) -> bool:
        """Answer as the path's fault says; False if it has none (or the site is healed)."""
        fault = self.fault = self.server.faults.get(self._site_path())
        if fault is None:
            return False
        if fault == "missing":
            self.send_error(404)
            return True
        if fault == "refused":
            self.log_request()
            self.close_connection = True
            return True
        file = Path(self.translate_path(self.path))
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(file)))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[:len(body) // 2])
        self.wfile.flush()
        if fault == "stalled":
            self.server.stalled_at = time.monotonic()
            self.server.healed.wait(HEALED_WAIT_S)
        self.close_connection = True
        return True

    def log_request(self, code="-", size="-"):
        """Each answer, recorded: its fault's name, or its status."""
        self.server.answered.append((self._site_path(), self.fault or int(code)))

    def _site_path(self) -> str:
        return urlsplit(self.path).path.removeprefix(self.server.prefix + "/")


class FaultyServer(build.Server):
    """build.Server, with `fail(path, fault)` (a path relative to the site, a fault of FAULTS),
    `heal()`, and a record of what every request was answered."""

    def __init__(self, directory: Path, port: int = 0):
        super().__init__(directory, port)
        self.RequestHandlerClass = FaultyHandler
        self.faults: dict[str, str] = {}
        self.healed = threading.Event()
        self.answered: list[tuple[str, int | str]] = []
        self.stalled_at: float | None = None  # time.monotonic() when a stalled answer stopped

    def fail(self, path: str, fault: str) -> FaultyServer:
        if fault not in FAULTS:
            raise ValueError(f"no fault {fault!r}: one of {', '.join(FAULTS)}")
        self.healed.clear()
        self.faults[path] = fault
        return self

    def heal(self, stalled_too: bool = True) -> None:
        """Answer every later request; with `stalled_too` False, an answer already stalled stays
        stalled (a transfer the connection dropped), so the page's alert stands until Retry."""
        self.faults.clear()
        if stalled_too:
            self.healed.set()
            self.stalled_at = None

    def served(self, name: str, until: str | None = None) -> list[int | str]:
        """How each request for a path ending in `name` was answered, in order: a status, or the
        fault that answered it; with `until`, only those before the first request for that
        path (the page's own start, before "sw.js" and the worker's precache)."""
        answers = []
        for path, answer in self.answered:
            if until is not None and path == until:
                break
            if os.path.basename(path) == name or path == name:
                answers.append(answer)
        return answers
