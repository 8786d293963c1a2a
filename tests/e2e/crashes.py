"""Renderer crashes, recorded with what Chromium and the kernel said about them.

A page cannot crash its renderer by itself: a crash is Chromium's, or the machine's (memory, a
signal). The one cause found so far, Chromium's heap profiler on Pyodide's stacks, is switched off
by tools/chromium/launch; should another appear, this record is what explains it.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import BrowserContext, Page

# Lines Chromium writes on every start on a machine without a desktop session: not evidence.
NOISE = re.compile(r"D-?Bus|dbus|UPower|Floss|ScreenSaver|OAuth|drmGetDevices|vkCreateInstance|"
                   r"VK_ERROR|VulkanError|InitializeSandbox|on_device_model|PyScript Ready|cpufreq")
KERNEL = re.compile(r"chrom|oom|out of memory|killed process|traps:|segfault", re.IGNORECASE)
EXCERPT_LINES = 12
BEFORE_LINES = 6


@dataclass(frozen=True)
class Crash:
    when: str
    test: str
    url: str
    mem_available_mb: int | None
    log_offset: int


class Crashes:
    """Every renderer crash of watched contexts, and which pages are gone with one."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.seen: list[Crash] = []
        self._dead: list[Page] = []

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.on("page", lambda page: page.on("crash", self._crashed))
        return context

    def crashed(self, page: Page) -> bool:
        return any(page is dead for dead in self._dead)

    def _crashed(self, page: Page) -> None:
        self._dead.append(page)
        self.seen.append(Crash(when=time.strftime("%H:%M:%S"),
                               test=os.environ.get("PYTEST_CURRENT_TEST", "(between tests)"),
                               url=page.url, mem_available_mb=_mem_available_mb(),
                               log_offset=_size(self.log)))

    def report(self) -> list[str]:
        """Lines for the end of the run: each crash, Chromium's words around it, the kernel's."""
        if not self.seen:
            return []
        lines = [f"{len(self.seen)} renderer crash(es); Chromium's log is {self.log}"]
        for crash in self.seen:
            lines.append(f"{crash.when}  {crash.test}  {crash.url}  "
                         f"MemAvailable {crash.mem_available_mb} MB")
            lines += [f"    chromium: {line}" for line in self._log_near(crash.log_offset)]
        lines += [f"    kernel: {line}" for line in _kernel_lines()]
        return lines

    def _log_near(self, offset: int) -> list[str]:
        """Chromium's own lines from just before the crash was seen and after it, noise left out:
        the few before give the context, the ones after say how the renderer ended."""
        try:
            with self.log.open("rb") as log:
                start = max(0, offset - 4096)
                log.seek(start)
                text = log.read(64 * 1024)
        except OSError as error:
            return [f"(log unreadable: {error})"]
        head = text[:offset - start]
        if start:  # its first line is cut short
            head = head.partition(b"\n")[2]
        kept = _lines(head)[-BEFORE_LINES:] + _lines(text[offset - start:])[:EXCERPT_LINES]
        return kept or ["(nothing but the usual start-up lines)"]


def _lines(text: bytes) -> list[str]:
    return [line for line in text.decode("utf-8", "replace").splitlines()
            if line.strip() and not NOISE.search(line)]


class SharedPage:
    """A booted page that many tests share; booted afresh in a new context if its renderer died."""

    def __init__(self, contexts: Callable[..., BrowserContext], url: str, crashes: Crashes,
                 boot: Callable[[Page, str], Page], **options) -> None:
        self.contexts, self.url, self.crashes, self.boot = contexts, url, crashes, boot
        self.options = options
        self.page: Page | None = None

    def get(self) -> Page:
        if self.page is None or self.crashes.crashed(self.page):
            self.page = self.boot(self.contexts(**self.options).new_page(), self.url)
        return self.page


def _mem_available_mb() -> int | None:
    try:
        meminfo = Path("/proc/meminfo").read_text(encoding="ascii")
    except OSError:
        return None
    found = re.search(r"^MemAvailable:\s+(\d+) kB", meminfo, re.MULTILINE)
    return int(found.group(1)) // 1024 if found else None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _kernel_lines() -> list[str]:
    try:
        shown = subprocess.run(["dmesg"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return [f"(dmesg not run: {error})"]
    if shown.returncode != 0:
        return [f"(dmesg: {shown.stderr.strip() or shown.returncode})"]
    return [line for line in shown.stdout.splitlines() if KERNEL.search(line)][-EXCERPT_LINES:] \
        or ["(no OOM kill, trap or segfault logged)"]
