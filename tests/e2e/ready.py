"""Waiting for the page to be ready to roll (<html data-ready="true">), and failing, when it never
is, with what the page had done by then.

A boot that stalls once in a few thousand is otherwise a bare timeout in a CI log: this says whether
the page's main thread still answered, which start-up stages it reached (the loader's and the glue's
User Timing marks), what it had downloaded, and its last console lines.
"""

from __future__ import annotations

from collections import deque

import pytest
from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

READY = "html[data-ready='true']"
BOOT_TIMEOUT_MS = 60_000
ANSWER_MS = 5_000
CONSOLE_LINES = 20

STATE = """() => {
  const ms = (time) => Math.round(time);
  return {
    now: ms(performance.now()),
    readyState: document.readyState,
    html: { ...document.documentElement.dataset },
    controlled: Boolean(navigator.serviceWorker?.controller),
    stages: performance.getEntriesByType("mark").map((m) => `${ms(m.startTime)} ${m.name}`),
    files: performance.getEntriesByType("resource").map(
      (r) => `${ms(r.startTime)}-${ms(r.responseEnd)} ${r.name.split("/").pop()}`),
  };
}"""


class Consoles:
    """The last console lines and page errors of every page opened in a watched context."""

    def __init__(self) -> None:
        self._tails: dict[Page, deque[str]] = {}

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.on("page", self._opened)
        return context

    def _opened(self, page: Page) -> None:
        tail = self._tails[page] = deque(maxlen=CONSOLE_LINES)
        page.on("console", lambda message: tail.append(f"{message.type}: {message.text}"))
        page.on("pageerror", lambda error: tail.append(f"pageerror: {error}"))
        page.on("close", lambda _: self._tails.pop(page, None))

    def tail(self, page: Page) -> list[str] | None:
        """None: the page was not opened in a watched context."""
        found = self._tails.get(page)
        return None if found is None else list(found)


CONSOLES = Consoles()


def wait_ready(page: Page, timeout: float = BOOT_TIMEOUT_MS) -> Page:
    """Wait for <html data-ready="true">; fail with why_not(page) if it does not come in time."""
    try:
        page.locator(READY).wait_for(state="attached", timeout=timeout)
    except PlaywrightTimeoutError:
        pytest.fail(f"the page was not ready in {timeout / 1000:g} s. {why_not(page)}",
                    pytrace=False)
    return page


def why_not(page: Page) -> str:
    """What the page had done: its stages, files and console, or that its main thread is stuck
    (then nothing can be asked of it)."""
    console = CONSOLES.tail(page)
    lines = [f"url: {page.url}"]
    try:
        page.wait_for_function("() => true", timeout=ANSWER_MS)
    except PlaywrightTimeoutError:
        lines.append(f"its main thread did not answer in {ANSWER_MS / 1000:g} s (a loop, or a "
                     "wait that never ends)")
    else:
        state = page.evaluate(STATE)
        lines += [f"{key}: {state[key]}" for key in ("now", "readyState", "html", "controlled")]
        lines += ["stages:", *(f"  {stage}" for stage in state["stages"])]
        lines += ["files:", *(f"  {file}" for file in state["files"])]
    lines += ["console:", *(f"  {line}" for line in console)] if console is not None \
        else ["console: (not recorded: not a watched context)"]
    return "\n".join(lines)


def opened_with_log(context: BrowserContext, url: str, log_json: str) -> Page:
    """A new page of `context` at `url`, ready, holding `log_json` as its stored roll log (put
    there after a first start, then read by a reload, as a log another visit left would be)."""
    page = context.new_page()
    page.goto(url)
    wait_ready(page)
    page.evaluate("raw => localStorage.setItem('skillcheck.log', raw)", log_json)
    page.reload()
    wait_ready(page)
    return page
