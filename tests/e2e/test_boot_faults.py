"""A page that cannot start says why, by the roll button, and starts once it can (issue 34, 4-6).

Each case is a new visitor (a fresh browser context: no storage, cache or service worker) in
Chromium and in Firefox, driven through tests/e2e/engines.py. The network's faults come from the
site itself (faults.py: a download broken off or stalled half-way, a connection refused, a file
answering 404), which, unlike request interception, keeps the browser's HTTP cache on: a Retry
shows what was kept. Browsers without IndexedDB are made by a script run before the page's own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from conftest import PHONE
from engines import Chromium, Engine, EngineError, launch
from faults import FaultyServer
from playwright.sync_api import Error as PlaywrightError
from test_engines import BOOT_TIMEOUT_S, LOG, READY, press, roll

ENGINES = ("chromium", "firefox")
WASM = "static/vendor/pyodide/pyodide.asm.wasm"
STDLIB = "static/vendor/pyodide/python_stdlib.zip"
AT_ONCE_S = 5  # a refused or broken download, or a missing file, is said by then
STALLED_S = 20  # nothing arriving is said by then (the page waits 15 s for a byte)
# The page's alerts (role=alert) that show, in one string.
ALERTS = """() => [...document.querySelectorAll("[role=alert]")]
  .filter((el) => el.getClientRects().length).map((el) => el.textContent.trim())
  .filter(Boolean).join(" | ")"""


@pytest.fixture(scope="module", params=ENGINES)
def engine_name(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def firefox(engine_name: str) -> Iterator[Engine | None]:
    if engine_name != "firefox":
        yield None
        return
    try:
        engine = launch("firefox")
    except EngineError as error:  # never skipped: the run stops and says how to install
        pytest.exit(f"firefox: {error}", returncode=1)
    yield engine
    engine.close()


@pytest.fixture(autouse=True)
def stays_on_this_machine(firefox: Engine | None) -> Iterator[None]:
    """Firefox's pages ask nothing beyond 127.0.0.1 (conftest watches Chromium's)."""
    before = len(firefox.outside()) if firefox else 0
    yield
    assert firefox is None or firefox.outside()[before:] == []


@pytest.fixture
def visitor(engine_name: str, firefox: Engine | None,
            new_context) -> Callable[..., Engine]:
    """visitor(before=None): a new visitor's phone-sized page in this engine; `before`, a JS
    function's source, runs in each of its pages before the page's own scripts."""
    def make(before: str | None = None) -> Engine:
        if firefox is not None:
            firefox.fresh(before)
            return firefox
        context = new_context(**PHONE)
        if before:
            context.add_init_script(f"({before})()")
        return Chromium(context.new_page())
    return make


@pytest.fixture(scope="module")
def site(dist) -> Iterator[FaultyServer]:
    server = FaultyServer(dist).start()
    yield server
    server.heal()
    server.close()


@pytest.fixture
def faulty(site: FaultyServer) -> Iterator[FaultyServer]:
    """The site, healed after the test, with this test's answers only."""
    site.answered.clear()
    yield site
    site.heal()


def alerts(engine: Engine, timeout: float, wanted: str) -> str:
    """The page's alerts once they say `wanted`; AssertionError with what they said if not."""
    try:
        return engine.wait(f"() => ({ALERTS})().includes({wanted!r}) && ({ALERTS})()",
                           timeout=timeout, message=f"an alert saying {wanted!r}")
    except AssertionError:
        raise AssertionError(f"{engine.name}: no {wanted!r} in {timeout} s; alerts: "
                             f"{engine.call(ALERTS)!r}") from None


def ready_after_retry(engine: Engine) -> None:
    """Wait for the page Retry reloads to be ready (a call during the reload may fail)."""
    deadline = time.monotonic() + BOOT_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            if engine.call(READY):
                return
        except (EngineError, PlaywrightError):
            pass  # the old page is going
        time.sleep(0.2)
    raise AssertionError(f"{engine.name}: not ready {BOOT_TIMEOUT_S} s after Retry")


def boot(engine: Engine, url: str) -> None:
    engine.goto(url)
    engine.wait(READY, timeout=BOOT_TIMEOUT_S, message="the page to be ready")
    assert engine.call(ALERTS) == ""


# ---- point 6: downloads cut off or stalled, files missing -----------------------------------

def test_a_download_broken_off_is_said_at_once_and_retry_downloads_only_the_rest(visitor,
                                                                              faulty):
    engine = visitor()
    faulty.fail(WASM, "cut")
    engine.goto(faulty.url)
    said = alerts(engine, AT_ONCE_S, "The download broke off")
    assert WASM in said and "press Retry" in said
    assert engine.call("() => document.getElementById('roll').textContent") == \
        "Could not load the rules"
    faulty.fail("", "refused")  # the site still down: Retry keeps the page and says so
    press(engine, "Retry")
    alerts(engine, AT_ONCE_S, "Still no connection")
    faulty.heal()
    press(engine, "Retry")
    ready_after_retry(engine)
    assert engine.call(ALERTS) == ""
    # the standard library had arrived whole: the browser's cache kept it (asked again only
    # whether it changed); the wasm, cut off, came again. Counted up to the service worker,
    # whose precache then revalidates every file by design (and, in a test profile's
    # memory-only cache, Firefox holds no wasm that large to revalidate)
    assert faulty.served("python_stdlib.zip", until="sw.js") == [200, 304]
    assert [answer for answer in faulty.served("pyodide.asm.wasm", until="sw.js")
            if answer != "cut"] == [200]
    roll(engine)


def test_a_stalled_download_is_said_and_retry_starts_the_page(visitor, faulty):
    engine = visitor()
    faulty.fail(STDLIB, "stalled")
    engine.goto(faulty.url)
    said = alerts(engine, STALLED_S + 10, "The download has stalled")
    assert faulty.stalled_at is not None
    assert time.monotonic() - faulty.stalled_at <= STALLED_S
    assert "nothing has arrived for 15 seconds" in said
    faulty.heal(stalled_too=False)  # released at teardown: its end would be news to the page
    press(engine, "Retry")
    ready_after_retry(engine)
    assert engine.call(ALERTS) == ""


@pytest.mark.parametrize("file", ["pyscript.json", "static/vendor/pyscript/core.js",
                                  "py/main.py"])
def test_a_file_missing_on_the_site_is_named_and_retry_starts_the_page(visitor, faulty, file):
    engine = visitor()
    faulty.fail(file, "missing")
    engine.goto(faulty.url)
    said = alerts(engine, AT_ONCE_S, "A file this page needs could not be loaded")
    assert file in said and "the site itself is broken" in said
    faulty.heal()
    press(engine, "Retry")
    ready_after_retry(engine)
    assert engine.call(ALERTS) == ""


# ---- point 5: no IndexedDB -----------------------------------------------------------------

NO_INDEXEDDB = {
    "missing": """() => Object.defineProperty(globalThis, "indexedDB", {
        value: undefined, configurable: true })""",
    "refused": """() => Object.defineProperty(globalThis, "indexedDB", { configurable: true,
        get() { throw new DOMException("The operation is insecure.", "SecurityError"); } })""",
    "open throws": """() => { IDBFactory.prototype.open = function () {
        throw new DOMException("blocked by policy", "SecurityError"); }; }""",
    "open fails": """() => { IDBFactory.prototype.open = function () {
        const request = {};
        setTimeout(() => { request.error = new DOMException("failed", "UnknownError");
          request.onerror?.({ type: "error", target: request, preventDefault() {} }); });
        return request; }; }""",
}


@pytest.mark.parametrize("how", NO_INDEXEDDB)
def test_without_indexeddb_the_page_starts_and_keeps_the_log(visitor, app_url, how):
    engine = visitor(NO_INDEXEDDB[how])
    boot(engine, app_url)
    assert engine.call("() => document.getElementById('log-status').textContent") == ""
    roll(engine)
    engine.reload()
    engine.wait(READY, timeout=BOOT_TIMEOUT_S, message="ready after the reload")
    assert len(engine.call(LOG)) == 1  # localStorage kept it: nothing was in IndexedDB


def test_without_indexeddb_or_local_storage_the_page_starts_and_says_nothing_is_kept(
        visitor, app_url):
    no_storage = NO_INDEXEDDB["refused"].replace('"indexedDB"', '"localStorage"')
    engine = visitor(f"() => {{ ({NO_INDEXEDDB['refused']})(); ({no_storage})(); }}")
    boot(engine, app_url)
    status = engine.call("() => document.getElementById('log-status').textContent")
    assert "does not let the page save anything here" in status
    engine.click(engine.find("() => document.getElementById('roll')"))  # roll() reads storage
    engine.wait("() => !!document.querySelector('#result .outcome')", timeout=60,
                message="a result with no storage at all")


# ---- point 4: stored values of any depth --------------------------------------------------

# Every key the page reads at its start, nested 10,000 or 100,000 deep.
DEEP = {"skillcheck.log": 10_000, "skillcheck.characters": 100_000, "skillcheck.forms": 100_000,
        "skillcheck.picked": 10_000, "skillcheck.snapshot-start": 100_000}
STORE_DEEP = """(deep) => { for (const [key, levels] of Object.entries(deep)) {
    localStorage.setItem(key, "[".repeat(levels) + "]".repeat(levels)); } }"""
BACKED_UP = """(key, levels) => Object.keys(localStorage)
  .filter((name) => name.startsWith(key + ".corrupt-"))
  .map((name) => localStorage.getItem(name) === "[".repeat(levels) + "]".repeat(levels))"""


def test_stored_values_nested_deep_are_backed_up_and_the_page_starts(visitor, app_url):
    engine = visitor()
    engine.goto(app_url + "static/css/app.css")  # the site's origin, no page started
    engine.call(STORE_DEEP, DEEP)
    boot(engine, app_url)
    for panel in ("log-status", "who-status"):
        said = engine.call(f"() => document.getElementById('{panel}').textContent")
        assert "could not be read (it nests lists and objects more than 100 levels deep)" in said
        assert "the original was kept under the key" in said
    for key in ("skillcheck.log", "skillcheck.characters"):
        assert engine.call(BACKED_UP, key, DEEP[key]) == [True]
    roll(engine)
