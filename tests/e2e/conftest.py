"""Browser fixtures: Debian's Chromium, the built site on 127.0.0.1, booted pages to share.

Nothing outside this machine is reachable (--host-resolver-rules), and any request a page makes to
another host fails the test that was running. `context.route` is avoided on purpose: it turns off
the HTTP cache and slows the 9.6 MB wasm; requests are recorded passively instead.

Chromium starts through tools/chromium/launch (tools/browsers.py's chromium_launch_args): its heap
profiler, which crashes renderers running Pyodide, is off, and its log goes to a file. A renderer
crash is still recorded with what Chromium and the kernel said (tests/e2e/crashes.py) and listed at
the end of the run; a shared page that crashed is booted again for the next test. Contexts live as
long as the fixture that made them (session or module), so only a handful of renderers are alive
at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request
from ready import CONSOLES, wait_ready

import build
from crashes import Crashes, SharedPage
from tools import browsers

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
PHONE = {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "is_mobile": False, "has_touch": False,
           "device_scale_factor": 1}
CRASHES = pytest.StashKey[Crashes]()


# --- the site ----------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site: build.py test's fresh dist/, else a build of the current sources."""
    given = os.environ.get("SKILLCHECK_DIST")
    if given:
        return Path(given)
    build.vendor()
    return build.build(out=tmp_path_factory.mktemp("site") / "dist")


@pytest.fixture(scope="session")
def serve_dist(dist: Path) -> Iterator[Callable[..., build.Server]]:
    """Start another server (own port, optional sub-path) that the test may stop or repoint."""
    servers: list[build.Server] = []

    def start(directory: Path = dist, prefix: str = "/") -> build.Server:
        servers.append(build.Server(directory, prefix=prefix).start())
        return servers[-1]

    yield start
    for server in servers:
        if server.socket.fileno() != -1:
            server.close()


@pytest.fixture(scope="session")
def app_url(serve_dist: Callable[..., build.Server]) -> str:
    """The served dist/ root, e.g. http://127.0.0.1:PORT/."""
    return serve_dist().url


@pytest.fixture(scope="session")
def base_url(app_url: str) -> str:
    return app_url


# --- the browser -------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def chromium_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where every Chromium this session writes its log (stderr, renderers' included)."""
    return tmp_path_factory.mktemp("chromium") / "chromium.log"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict, chromium_log: Path) -> dict:
    chromium = browsers.find_chromium()
    if chromium is None:
        pytest.exit("no Chromium: `apt-get install chromium`, or set CHROMIUM_PATH", returncode=1)
    return {**browser_type_launch_args, **browsers.chromium_launch_args(chromium, log=chromium_log)}


@pytest.fixture(scope="session")
def crashes(request: pytest.FixtureRequest, chromium_log: Path) -> Crashes:
    """Renderer crashes of this session; listed at the end of the run (pytest_terminal_summary)."""
    request.config.stash[CRASHES] = Crashes(chromium_log)
    return request.config.stash[CRASHES]


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if CRASHES in config.stash and (lines := config.stash[CRASHES].report()):
        terminalreporter.section("Chromium renderer crashes")
        for line in lines:
            terminalreporter.line(line)


class OutsideRequests:
    """Every request a watched context makes to a host other than this machine."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def watch(self, context: BrowserContext) -> BrowserContext:
        context.on("request", self._seen)
        return context

    def _seen(self, request: Request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            self.urls.append(request.url)


@pytest.fixture(scope="session")
def outside() -> OutsideRequests:
    return OutsideRequests()


@pytest.fixture(autouse=True)
def no_outside_requests(outside: OutsideRequests) -> Iterator[None]:
    """Fails the running test if any page asked for anything beyond 127.0.0.1 meanwhile."""
    before = len(outside.urls)
    yield
    if made := outside.urls[before:]:
        pytest.fail(f"requests left this machine: {made}")


@pytest.fixture(scope="session")
def watch(outside: OutsideRequests, crashes: Crashes) -> Callable[[BrowserContext], BrowserContext]:
    """watch(context): its requests beyond 127.0.0.1, its renderer crashes and its pages' last
    console lines (for a page that is never ready: tests/e2e/ready.py) are recorded."""
    return lambda context: CONSOLES.watch(crashes.watch(outside.watch(context)))


@pytest.fixture
def new_context(new_context: Callable[..., BrowserContext], watch):
    """pytest-playwright's factory (so `context` and `page` too), watched."""
    return lambda **kwargs: watch(new_context(**kwargs))


@pytest.fixture
def fresh_context(new_context: Callable[..., BrowserContext]) -> BrowserContext:
    """A new, empty phone-sized context: no storage, no service worker, no cache."""
    return new_context(**PHONE)


def _contexts(browser: Browser, options: dict, watch) -> Iterator[Callable[..., BrowserContext]]:
    """make(**options): a watched context, phone-sized unless told, closed when the scope ends."""
    contexts: list[BrowserContext] = []

    def make(**kwargs) -> BrowserContext:
        contexts.append(watch(browser.new_context(**{**options, **PHONE, **kwargs})))
        return contexts[-1]

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def session_contexts(browser: Browser, browser_context_args: dict, watch):
    yield from _contexts(browser, browser_context_args, watch)


@pytest.fixture(scope="module")
def module_contexts(browser: Browser, browser_context_args: dict, watch):
    yield from _contexts(browser, browser_context_args, watch)


def _boot(page: Page, url: str) -> Page:
    """Open `url` and wait until the glue has wired everything (<html data-ready="true">)."""
    page.goto(url)
    return wait_ready(page)


@pytest.fixture(scope="session")
def boot() -> Callable[[Page, str], Page]:
    """boot(page, url): open url and wait for the page's data-ready."""
    return _boot


@pytest.fixture(scope="session")
def shared_phone(session_contexts, app_url: str, crashes: Crashes) -> SharedPage:
    return SharedPage(session_contexts, app_url, crashes, _boot)


@pytest.fixture(scope="session")
def shared_desktop(session_contexts, app_url: str, crashes: Crashes) -> SharedPage:
    return SharedPage(session_contexts, app_url, crashes, _boot, **DESKTOP)


@pytest.fixture
def booted(shared_phone: SharedPage) -> Page:
    """One phone-sized page, booted once and shared by the page tests."""
    return shared_phone.get()


@pytest.fixture
def desktop(shared_desktop: SharedPage) -> Page:
    """One desktop-sized page, booted once and shared."""
    return shared_desktop.get()


def _reset(page: Page) -> Page:
    """A shared page, reset: empty storage (nothing the last test left pending is written into
    it afterwards), reloaded at the flip system.

    A reload in the same tab keeps the compiled wasm warm (~2.5 s); a new navigation does not.
    """
    page.evaluate("""() => {
        dispatchEvent(new Event("pagehide"));  // the last test's pending log write, done now:
        localStorage.clear();                   // else the reload's pagehide writes it after this
        sessionStorage.clear();
        history.replaceState(null, "", "#system=flip");
    }""")
    page.reload()
    return wait_ready(page)


@pytest.fixture
def app(booted: Page) -> Page:
    """The shared phone page, reset (_reset)."""
    return _reset(booted)


@pytest.fixture
def desktop_app(desktop: Page) -> Page:
    """The shared desktop page, reset (_reset)."""
    return _reset(desktop)
