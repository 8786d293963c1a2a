"""Renderer crashes: the known cause is switched off; any other is recorded, and a shared page
boots again after one."""

from __future__ import annotations

import contextlib
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, BrowserType, Error

from crashes import Crashes, SharedPage

# What a Chromium session that drew the heap profiler gets (nonstable builds: half of them).
PROFILER_ON = ("--enable-features=HeapProfilerReporting:nonstable-probability/1.0/"
               "stable-probability/1.0/renderer-prob-pct/100")


def profiled_renderers(profile: Path) -> int:
    """Renderers of the Chromium using `profile` that it told to profile their heap."""
    def args(pid: str) -> list[bytes]:
        with contextlib.suppress(OSError):
            return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        return []

    def parent(pid: str) -> str:
        with contextlib.suppress(OSError, IndexError):
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
        return "0"

    def ours(pid: str) -> bool:
        while pid not in ("0", "1"):
            if f"--user-data-dir={profile}".encode() in args(pid):
                return True
            pid = parent(pid)
        return False

    return sum(1 for entry in Path("/proc").glob("[0-9]*")
               if {b"--type=renderer", b"--subproc-heap-profiling"} <= set(args(entry.name))
               and ours(entry.name))


def test_the_heap_profiler_stays_off_even_when_chromium_draws_it(
        browser_type: BrowserType, browser_type_launch_args: dict, app_url, boot, tmp_path):
    # Without tools/chromium/launch's switch, about four in ten of these boots die with SIGSEGV.
    args = [*browser_type_launch_args["args"], PROFILER_ON]
    profile = tmp_path / "profile"
    context = browser_type.launch_persistent_context(profile, **{**browser_type_launch_args,
                                                                 "args": args})
    try:
        for _ in range(4):
            page = boot(context.new_page(), app_url)
            assert profiled_renderers(profile) == 0
            assert page.evaluate("document.documentElement.dataset.boot") == "snapshot"
            page.close()
    finally:
        context.close()


def test_a_crash_is_recorded_and_the_shared_page_boots_again(browser: Browser, app_url, boot,
                                                             chromium_log):
    crashes = Crashes(chromium_log)  # a record of its own: this crash is on purpose
    contexts: list[BrowserContext] = []

    def make(**options) -> BrowserContext:
        contexts.append(crashes.watch(browser.new_context(**options)))
        return contexts[-1]

    shared = SharedPage(make, app_url, crashes, boot)
    try:
        first = shared.get()
        assert shared.get() is first and crashes.report() == []
        with first.expect_event("crash", timeout=30_000), contextlib.suppress(Error):
            first.goto("chrome://crash")
        assert crashes.crashed(first)
        again = shared.get()
        assert again is not first and len(contexts) == 2
        assert again.evaluate("document.documentElement.dataset.ready") == "true"
        report = "\n".join(crashes.report())
        assert "1 renderer crash(es)" in report
        assert "test_a_crash_is_recorded_and_the_shared_page_boots_again" in report
        assert "Intentionally crashing" in report  # Chromium's own words, from its log
        assert "MemAvailable" in report and "kernel:" in report
    finally:
        for context in contexts:
            context.close()
