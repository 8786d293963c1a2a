"""Start-up and interaction timings of Skill Check against a bare PyScript page on the same runtime.

    python3 benchmarks/startup.py [--runs N] [--budget S] [--dist DIR] [--no-experiments] [--record]
    python3 benchmarks/startup.py --engines chromium,firefox,webkit [--runs N] [--record]
    python3 benchmarks/startup.py --throttled none fast4g slow4g [--before DIR] [--runs N] ...

Builds the app (build.py, with its snapshot) and a bare page (one <script type="py"> that marks
itself ready) from the same vendored runtime, then measures both in Debian's Chromium, A and B
alternating in every round, nothing outside 127.0.0.1 resolvable and no request routing (routing
turns off the HTTP cache):

  paint     first frame with the app's whole form laid out, and the first contentful paint
  cold      html[data-ready] in a new context: empty cache, no service worker
  warm      the same after a reload in a persistent profile (HTTP cache and service worker);
            also the bare page booting from the app's snapshot: the floor for this runtime
  offline   the app reloaded with the network off (service worker only)
  click     roll button → result in the DOM → next frame, for each system, on a booted page
  odds      input change → odds in the DOM, with the longest frame gap meanwhile
  transfer  bytes of a first visit (service worker precache included), as sent and as gzip

Experiments (variants of the same two pages, cold): main thread vs worker, a snapshot for the bare
page, modulepreload/preload hints, precompressed runtime files; the app without its snapshot, with
no bytecode either, with a preload hint for the snapshot; and the import time of each module
the snapshot holds, on a cold interpreter. Prints medians with min–max and ratios against the
bare page; --record writes them into docs/performance.md. Starts
no round of loads that would end after --budget seconds (540), so a run stays under 10 minutes
even on a busy machine (with fewer rounds).

--engines: cold loads of the bare page, the app without its snapshot (the normal boot: every
iPhone, and any start that falls back) and the app as built, in each engine named, page and engine
taking turns in every round, timed from inside the page (benchmarks/engines.py): ready, and the
first roll straight after it; ratios against the bare page in the same engine.
--throttled measures a phone on mobile data instead: for each named profile (DevTools' Fast 4G
and Slow 4G network presets with the CPU 4× slower, or none), a first visit and a repeat visit of
the app and of the bare page (and, with experiments, of the app never taking its snapshot on a
first visit; with --before DIR, of that earlier build too), each in a new context, served gzip,
A/B alternating; --budget applies per profile. Each ratio to the bare page comes with a 90 %
interval from resampling the rounds.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from contextlib import ExitStack
from datetime import UTC, datetime
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engines  # noqa: E402
from rounds import in_turn, ratio_text  # noqa: E402

import build  # noqa: E402
from tools import browsers  # noqa: E402
from tools.snapshot import preload  # noqa: E402
from tools.stdlib import trim  # noqa: E402

OUT = ROOT / "benchmarks" / "out"
DOC = ROOT / "docs" / "performance.md"
SYSTEMS = ("flip", "pool", "swift", "fluke", "passages")
TIMEOUT_MS = 90_000
FAST_LINK = "const FAST_LINK_MBPS = 20;"  # the loader's threshold (never_on_first_visits)
SETTLE = 1.0  # s before each cold load, for the last page's background work (code caching)

BARE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare</title><link rel="icon" href="data:,">
{head}<link rel="stylesheet" href="static/vendor/pyscript/core.css">
<script type="module" src="static/vendor/pyscript/core.js"></script></head>
<body><p>Bare PyScript page.</p>
<script type="py" {attributes}config='{config}'>
from pyscript import document
document.documentElement.dataset.ready = "true"
</script></body></html>
"""
HINTS = """<link rel="modulepreload" href="static/vendor/pyodide/pyodide.mjs">
<link rel="modulepreload" href="static/vendor/pyodide/pyodide.asm.mjs">
<link rel="preload" href="static/vendor/pyodide/pyodide.asm.wasm" as="fetch" crossorigin>
<link rel="preload" href="static/vendor/pyodide/python_stdlib.zip" as="fetch" crossorigin>
<link rel="preload" href="static/vendor/pyodide/pyodide-lock.json" as="fetch" crossorigin>
"""
IMPORTS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>imports</title><link rel="icon" href="data:,">
<script type="module" src="static/vendor/pyscript/core.js"></script></head><body>
<script type="py" config="pyscript.json">
import json, time
from pyscript import document
took = {{}}
for name in {names}:
    start = time.perf_counter()
    __import__(name)
    took[name] = (time.perf_counter() - start) * 1000
document.documentElement.dataset.imports = json.dumps(took)
document.documentElement.dataset.ready = "true"
</script></body></html>
"""
RUNTIME = {"interpreter": "static/vendor/pyodide/pyodide.mjs"}
SNAPSHOT = {"interpreter": build.SNAPSHOT_LOADER}
SNAPSHOT_PAGE = "with-snapshot/"  # the bare page from the app's snapshot, under the bare site

# In every page: when data-ready appears, and the first frame with the whole form laid out.
MARKS = """
(() => {
  const marks = (window.startupMarks = { ready: null, form: null });
  new MutationObserver(() => {
    const ready = document.documentElement?.dataset.ready === "true";
    if (marks.ready === null && ready) marks.ready = performance.now();
  }).observe(document, { attributes: true, attributeFilter: ["data-ready"], subtree: true });
  const formDone = () => {
    const form = document.querySelector("form#check");
    return form && form.nextElementSibling && form.getBoundingClientRect().height > 0;
  };
  requestAnimationFrame(function frame(time) {
    if (formDone()) marks.form = time;
    else if (!document.querySelector("form#check") && document.readyState === "complete") return;
    else requestAnimationFrame(frame);
  });
})();
"""
CONTROLLED = "navigator.serviceWorker.controller !== null"
MARKS_READY = "window.startupMarks && window.startupMarks.ready !== null"
READ_MARKS = """() => ({
  ...window.startupMarks,
  fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
  boot: document.documentElement.dataset.boot ?? null,
  link: document.documentElement.dataset.link ?? null,
  // What arrived before ready, as sent (gzip): not the service worker's precache, which starts
  // at ready and which the server cannot tell apart.
  bytes: performance.getEntries().filter((entry) => entry.transferSize !== undefined
    && entry.responseEnd <= window.startupMarks.ready)
    .reduce((sum, entry) => sum + entry.transferSize, 0),
})"""

# A roll on a booted app: click, the result's last change, the frame after it.
CLICK = """async (system) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  document.querySelector(`#pick-${system}`).click();
  for (let i = 0; i < 3; i++) await frame();
  return (TIME_ROLL)(5000);
}""".replace("TIME_ROLL", engines.TIME_ROLL)

# An input change on a booted app: when the odds change, and the frames meanwhile.
ODDS = """async (system) => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  document.querySelector(`#pick-${system}`).click();
  for (let i = 0; i < 3; i++) await frame();
  const inputs = document.querySelectorAll(`.sysform[data-system="${system}"] input[type=number]`);
  const input = [...inputs].find((element) => element.offsetParent !== null && !element.disabled);
  const odds = document.querySelector("#odds");
  const frames = [];
  let running = true;
  requestAnimationFrame(function tick(time) {
    frames.push(time);
    if (running) requestAnimationFrame(tick);
  });
  const idleStart = performance.now();
  while (performance.now() - idleStart < 300) await frame();
  let last = null;
  const watch = new MutationObserver(() => { last = performance.now(); });
  watch.observe(odds, { childList: true, subtree: true, characterData: true, attributes: true });
  const start = performance.now();
  input.value = String(Number(input.value) + 1);
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
  const blocked = performance.now() - start;
  const limit = start + 3000;
  while (last === null && performance.now() < limit) await frame();
  for (let i = 0; i < 4; i++) await frame();
  running = false;
  watch.disconnect();
  const longest = (from, to) => {
    const seen = frames.filter((time) => time >= from && time <= to);
    return Math.max(...seen.slice(1).map((time, i) => time - seen[i]));
  };
  return last === null ? null : { dom: last - start, blocked, gap: longest(start - 20, Infinity),
                                   idle: longest(idleStart, start) };
}"""


# --- the sites ---------------------------------------------------------------------------------

def bare_page(config: dict, head: str = "", worker: bool = False) -> str:
    return BARE.format(head=head, attributes="worker " if worker else "",
                       config=json.dumps(config))


def make_sites(dist: Path | None) -> dict[str, Path]:
    """The app, its variants and the bare pages, under benchmarks/out/."""
    shutil.rmtree(OUT / "sites", ignore_errors=True)
    app = OUT / "sites" / "app"
    if dist:
        shutil.copytree(dist, app)
    else:
        build.vendor()
        build.build(out=app)
    if not (app / "static" / "snapshot" / "snapshot.json").is_file():
        raise SystemExit("startup.py: the build made no snapshot (see build.py's message)")
    bare = OUT / "sites" / "bare"
    # The baseline keeps Pyodide's whole standard library; the app's build trims its own copy.
    shutil.copytree(build.vendor(), bare / "static" / "vendor")
    # The bare page booting from the app's snapshot needs the runtime files that snapshot was
    # made against (its trimmed standard library): a folder of its own.
    for folder in ("static/js", "static/snapshot", "static/vendor", "py"):
        shutil.copytree(app / folder, bare / SNAPSHOT_PAGE / folder)  # py: the loader unpacks it
    pages = {"index.html": bare_page(RUNTIME), "worker.html": bare_page(RUNTIME, worker=True),
             "hints.html": bare_page(RUNTIME, head=HINTS),
             f"{SNAPSHOT_PAGE}index.html": bare_page(SNAPSHOT)}
    for name, html in pages.items():
        (bare / name).write_text(html, encoding="utf-8")
    for path in (bare / "static" / "vendor").rglob("*"):  # for the precompressed server
        if path.is_file():
            path.with_name(path.name + ".gz").write_bytes(gzip.compress(path.read_bytes(), 9))
    return {"app": app, "bare": bare, "app-nosnap": app_variant(app, "app-nosnap", unsnapshotted),
            "app-preload": app_variant(app, "app-preload", snapshot_preloaded),
            "app-source": app_variant(app, "app-source", source_only),
            "app-never-first": app_variant(app, "app-never-first", never_on_first_visits)}


def app_variant(app: Path, name: str, edit) -> Path:
    """A copy of the app whose pyscript.json `edit` changed, with its service worker rebuilt."""
    site = Path(shutil.copytree(app, OUT / "sites" / name, ignore=shutil.ignore_patterns("sw.js")))
    config = json.loads((site / "pyscript.json").read_text(encoding="utf-8"))
    edit(site, config)
    (site / "pyscript.json").write_text(json.dumps(config, indent=1) + "\n")
    build.write_service_worker(site, (ROOT / build.SW_TEMPLATE).read_text(encoding="utf-8"))
    return site


def without_snapshot(site: Path) -> None:
    """The loader finds no snapshot and boots the normal way, as on every iPhone."""
    shutil.rmtree(site / build.SNAPSHOT_MANIFEST.rpartition("/")[0])


def unsnapshotted(site: Path, config: dict) -> None:
    """Boot the normal way; and a page that times importing each module the snapshot holds (the
    glue's other modules wire the page's DOM as they are imported: they cannot be timed alone)."""
    without_snapshot(site)
    with zipfile.ZipFile(site / build.PY_ARCHIVE) as archive:
        sources = {name: archive.read(name).decode() for name in archive.namelist()
                   if name.endswith(".py")}
    names = preload.pure_modules(sources)
    (site / "imports.html").write_text(IMPORTS.format(names=names), encoding="utf-8")


def source_only(site: Path, config: dict) -> None:
    """Boot the normal way with no bytecode at all, as the app did before build.py compiled the
    app's modules and the standard library's: every import compiles its module first. The same
    modules of the library, as Pyodide ships them."""
    without_snapshot(site)
    archive = site / build.PY_ARCHIVE
    with zipfile.ZipFile(archive) as packed:
        sources = [(info, packed.read(info)) for info in packed.infolist()
                   if info.filename.endswith(".py")]
    with zipfile.ZipFile(archive, "w", compresslevel=9) as packed:
        for info, body in sources:
            packed.writestr(info, body)
    stdlib = site / build.STDLIB
    with zipfile.ZipFile(ROOT / build.STDLIB) as whole, zipfile.ZipFile(stdlib) as shipped:
        names = [trim.source_path(name) for name in shipped.namelist()]
        files = [(whole.getinfo(name), whole.read(name)) for name in names]
    with zipfile.ZipFile(stdlib, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as packed:
        for info, body in files:
            packed.writestr(info, body)


def snapshot_preloaded(site: Path, config: dict) -> None:
    """Start the snapshot's download while the page parses, not once PyScript asks for it."""
    index = site / "index.html"
    hints = "".join(f'<link rel="preload" href="static/snapshot/{name}" as="fetch" crossorigin>\n'
                    for name in ("snapshot.json", "pyodide.snapshot.gz"))
    index.write_text(index.read_text(encoding="utf-8").replace("</head>", hints + "</head>", 1),
                     encoding="utf-8")


def never_on_first_visits(site: Path, config: dict) -> None:
    """The loader never taking the snapshot on a first visit, however fast the link: the
    service worker's precache brings it for the next visit."""
    loader = site / build.SNAPSHOT_LOADER
    text = loader.read_text(encoding="utf-8")
    if FAST_LINK not in text:
        raise SystemExit(f"startup.py: {build.SNAPSHOT_LOADER} no longer has {FAST_LINK!r}")
    loader.write_text(text.replace(FAST_LINK, "const FAST_LINK_MBPS = Infinity;"),
                      encoding="utf-8")


class Isolated(build.Handler):
    """Adds the headers a worker needs for DOM access (SharedArrayBuffer)."""

    def end_headers(self) -> None:
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


class Precompressed(build.Handler):
    """Serves FILE.gz with Content-Encoding: gzip where it exists, as a tuned static host would."""

    def send_head(self):
        path = Path(self.translate_path(urlsplit(self.path).path))
        packed = path.with_name(path.name + ".gz")
        if not packed.is_file() or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().send_head()
        body = open(packed, "rb")  # noqa: SIM115 - the base class's copyfile closes it
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(packed.stat().st_size))
        self.end_headers()
        return body


class Gzipping(build.Handler):
    """Sends each file gzip -6 to a browser that accepts it, as most static hosts do (files
    already compressed, .gz .zip .png, as they are), with Last-Modified for revalidation."""

    packed: dict[Path, bytes] = {}

    def send_head(self):
        path = Path(self.translate_path(urlsplit(self.path).path))
        path = path / "index.html" if path.is_dir() else path
        if (not path.is_file() or path.suffix in (".gz", ".zip", ".png")
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        modified = int(path.stat().st_mtime)
        since = self.headers.get("If-Modified-Since")
        if since and parsedate_to_datetime(since).timestamp() >= modified:
            self.send_response(304)
            self.end_headers()
            return None
        if path not in self.packed:
            self.packed[path] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(self.packed[path])))
        self.send_header("Last-Modified", formatdate(modified, usegmt=True))
        self.end_headers()
        return io.BytesIO(self.packed[path])


def serve(stack: ExitStack, root: Path, handler: type = build.Handler) -> str:
    return server(stack, root, handler).url


def server(stack: ExitStack, root: Path, handler: type = build.Handler) -> build.Server:
    served = build.Server(root)
    served.RequestHandlerClass = handler
    stack.callback(served.close)
    return served.start()


# --- measuring ---------------------------------------------------------------------------------

def launch_args() -> dict:
    chromium = browsers.find_chromium()
    if chromium is None:
        raise SystemExit("startup.py: no Chromium (apt-get install chromium, or set CHROMIUM_PATH)")
    return {**browsers.chromium_launch_args(chromium), "headless": True}  # the tests' browser


def boot(page: Page, url: str | None = None, timeout: int = TIMEOUT_MS) -> dict:
    """Open url (or reload) and wait for data-ready; the page's own marks, in ms from navigation."""
    if url is None:
        page.reload(wait_until="commit", timeout=timeout)
    else:
        page.goto(url, wait_until="commit", timeout=timeout)
    page.wait_for_function(MARKS_READY, timeout=timeout, polling=50)
    return page.evaluate(READ_MARKS)


def cold(browser: Browser, url: str) -> dict:
    context = browser.new_context()
    context.add_init_script(MARKS)
    try:
        return boot(context.new_page(), url)
    finally:
        context.close()


def imports(browser: Browser, url: str) -> dict[str, float]:
    """ms to import each app module on a cold interpreter, in the order the page imports them."""
    context = browser.new_context()
    context.add_init_script(MARKS)
    try:
        page = context.new_page()
        boot(page, url)
        return json.loads(page.evaluate("document.documentElement.dataset.imports"))
    finally:
        context.close()


def persistent(stack: ExitStack, playwright, url: str, worker: bool,
               profile: str | None = None) -> Page:
    """A page in a profile of its own (or in `profile`), booted once (and controlled by its
    service worker), then reloaded; its browser closes with `stack`."""
    if profile is None:
        profile = stack.enter_context(tempfile.TemporaryDirectory(prefix="startup-profile-"))
    context = playwright.chromium.launch_persistent_context(profile, **launch_args())
    stack.callback(context.close)
    context.add_init_script(MARKS)
    page = context.new_page()
    boot(page, url)
    if worker:
        page.wait_for_function(CONTROLLED, timeout=TIMEOUT_MS)
    boot(page)  # the first reload fills the code caches
    return page


def offline(page: Page) -> dict:
    context: BrowserContext = page.context
    context.set_offline(True)
    try:
        return boot(page)
    finally:
        context.set_offline(False)


def interactions(page: Page, runs: int) -> dict[str, list]:
    """click-<system> and odds-<system> results on one booted app page (first run discarded)."""
    found: dict[str, list] = {}
    for system in SYSTEMS:
        for kind, script in (("click", CLICK), ("odds", ODDS)):
            found[f"{kind} {system}"] = [page.evaluate(script, system) for _ in range(runs + 1)][1:]
    return found


def transfer(playwright, url: str, root: Path, worker: bool) -> dict:
    """Bytes a first visit fetched from the network (in a new profile, with a disk cache as a
    browser has, until the service worker has precached everything), as sent and as gzip."""
    with tempfile.TemporaryDirectory(prefix="startup-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(profile, **launch_args())
        finished = []
        context.on("requestfinished", lambda request: finished.append(request))
        context.add_init_script(MARKS)
        page = context.new_page()
        boot(page, url)
        if worker:
            page.wait_for_function(CONTROLLED, timeout=TIMEOUT_MS)
        time.sleep(1)
        bodies = [(request.url, request.sizes()["responseBodySize"]) for request in finished]
        context.close()
    fetched = [(url, size) for url, size in bodies if size > 0]
    return {"requests": len(fetched), "sent": sum(size for _, size in fetched),
            "gzip": sum(gzip_size(root / urlsplit(url).path.lstrip("/")) for url, _ in fetched)}


_gzip_sizes: dict[Path, int] = {}


def gzip_size(path: Path) -> int:
    path = path / "index.html" if path.is_dir() else path
    if path not in _gzip_sizes:
        data = path.read_bytes()
        packed = path.suffix in (".gz", ".png", ".zip") and len(data)
        _gzip_sizes[path] = packed or len(gzip.compress(data, 6))
    return _gzip_sizes[path]


# --- the run -----------------------------------------------------------------------------------

def run(runs: int, dist: Path | None, experiments: bool, budget: float) -> dict:
    """Interactions and transfer once, then rounds of loads while another fits in `budget` s."""
    started, load = time.monotonic(), os.getloadavg()[0]
    sites = make_sites(dist)
    samples: dict[str, list[float]] = {}

    def add(name: str, value: float | None) -> None:
        if value is not None:
            samples.setdefault(name, []).append(value)

    with sync_playwright() as playwright, ExitStack() as stack:
        urls = {name: serve(stack, root) for name, root in sites.items()}
        bare = urls["bare"]
        cold_pages = {"app": urls["app"], "bare": bare}
        if experiments:
            isolated = serve(stack, sites["bare"], Isolated)
            cold_pages |= {
                "app without snapshot": urls["app-nosnap"],
                "app, no snapshot or bytecode": urls["app-source"],
                "app + snapshot preload hint": urls["app-preload"],
                "bare + snapshot": bare + SNAPSHOT_PAGE,
                "bare + preload hints": bare + "hints.html",
                "bare, precompressed": serve(stack, sites["bare"], Precompressed),
                "bare main thread (COOP/COEP)": isolated,
                "bare worker (COOP/COEP)": isolated + "worker.html",
            }
        browser = playwright.chromium.launch(**launch_args())
        stack.callback(browser.close)
        warm = {"app": persistent(stack, playwright, urls["app"], True),
                "bare": persistent(stack, playwright, bare, False),
                # the floor of any page on this runtime that boots from a snapshot
                "bare + snapshot": persistent(stack, playwright, bare + SNAPSHOT_PAGE, False)}
        clicks = interactions(warm["app"], runs)
        sizes = {"app": transfer(playwright, urls["app"], sites["app"], True),
                 "bare": transfer(playwright, bare, sites["bare"], False)}
        rounds, took = 0, 0.0
        while rounds < runs and time.monotonic() - started + took < budget:
            rounds += 1
            print(f"round {rounds}/{runs}", flush=True)
            round_started = time.monotonic()
            for name in in_turn(list(cold_pages), rounds):
                time.sleep(SETTLE)
                marks = cold(browser, cold_pages[name])
                add(f"cold {name}", marks["ready"])
                if name in ("app", "bare"):
                    add(f"paint fcp {name}", marks["fcp"])
                    if marks["form"] is not None:  # its frame, once it is painted
                        add(f"paint form {name}", max(marks["form"], marks["fcp"] or 0))
            if experiments:
                for name, ms in imports(browser, urls["app-nosnap"] + "imports.html").items():
                    add(f"import {name}", ms)
            for name, page in warm.items():
                add(f"warm {name}", boot(page)["ready"])
            add("offline app", offline(warm["app"])["ready"])
            took = time.monotonic() - round_started
    return {"samples": samples, "interactions": clicks, "transfer": sizes, "runs": rounds,
            "seconds": round(time.monotonic() - started), "machine": machine(),
            "load": f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end",
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}


# --- a phone on mobile data --------------------------------------------------------------------

# DevTools' network presets (download and upload Mbit/s, round-trip ms); "none" is unthrottled.
PROFILES = {"none": None, "fast4g": (9, 1.5, 60), "slow4g": (1.6, 0.75, 150)}
CPU_SLOWDOWN = 4  # a mid-range phone against this machine's cores, as Lighthouse's mobile preset
THROTTLED_TIMEOUT_MS = 300_000


def throttle(session: CDPSession, profile: str, network: bool = True) -> None:
    """The profile's network (unless `network` is False: unthrottled) and CPU for one page."""
    down, up, latency = PROFILES[profile] if network and PROFILES[profile] else (0, 0, 0)
    session.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency, "downloadThroughput": down * 1e6 / 8 or -1,
        "uploadThroughput": up * 1e6 / 8 or -1})
    session.send("Emulation.setCPUThrottlingRate",
                 {"rate": CPU_SLOWDOWN if PROFILES[profile] else 1})


def visits(browser: Browser, served: build.Server, profile: str, worker: bool) -> dict:
    """A first visit and then a repeat one (a reload) in a new context, throttled: ms to ready
    of each; of the first, the bytes that arrived before it was ready, how it booted and the
    link's estimate it chose by. The app's service worker precaches in the background while a
    player plays: that wait is not throttled."""
    context = browser.new_context()
    context.add_init_script(MARKS)
    try:
        page = context.new_page()
        session = context.new_cdp_session(page)
        session.send("Network.enable")
        throttle(session, profile)
        first = boot(page, served.url, THROTTLED_TIMEOUT_MS)
        if worker:
            throttle(session, profile, network=False)
            page.wait_for_function(CONTROLLED, timeout=THROTTLED_TIMEOUT_MS)
            throttle(session, profile)
        repeat = boot(page, None, THROTTLED_TIMEOUT_MS)["ready"]
        return {"first": first["ready"], "repeat": repeat, "bytes": first["bytes"],
                "boot": first["boot"] or "normal",
                "link": None if first["link"] is None else float(first["link"])}
    finally:
        context.close()


def run_throttled(profiles: list[str], runs: int, dist: Path | None, experiments: bool,
                  budget: float, before: Path | None = None) -> dict:
    """For each profile, rounds of first and repeat visits of the app and the bare page (and,
    with experiments, the app never taking its snapshot on a first visit; and the build `before`,
    an earlier one), each served gzip, while another round fits in `budget` s (per profile)."""
    load = os.getloadavg()[0]
    sites = make_sites(dist)
    samples: dict[str, list[float]] = {}
    with sync_playwright() as playwright, ExitStack() as stack:
        servers = {"app": server(stack, sites["app"], Gzipping),
                   "bare": server(stack, sites["bare"], Gzipping)}
        if experiments:
            servers["app, never on a first visit"] = server(stack, sites["app-never-first"],
                                                             Gzipping)
        if before:
            servers["app before"] = server(stack, before, Gzipping)
        browser = playwright.chromium.launch(**launch_args())
        stack.callback(browser.close)
        rounds = {}
        for profile in profiles:
            started, took, rounds[profile] = time.monotonic(), 0.0, 0
            while rounds[profile] < runs and time.monotonic() - started + took < budget:
                rounds[profile] += 1
                print(f"{profile}: round {rounds[profile]}/{runs}", flush=True)
                round_started = time.monotonic()
                for name in in_turn(list(servers), rounds[profile]):
                    time.sleep(SETTLE)
                    found = visits(browser, servers[name], profile, worker=name != "bare")
                    for key, value in found.items():
                        samples.setdefault(f"{profile} {key} {name}", []).append(value)
                took = time.monotonic() - round_started
    return {"samples": samples, "rounds": rounds, "machine": machine(),
            "load": f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end",
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}


def report_throttled(result: dict) -> str:
    samples = result["samples"]
    median = {name: statistics.median(values) for name, values in samples.items()
              if name.split(" ")[1] in ("first", "repeat", "bytes")}
    rounds = ", ".join(f"{profile} {n}" for profile, n in result["rounds"].items())
    lines = [f"Skill Check start-up on mobile data, {result['date']}, rounds: {rounds}; CPU "
             f"{CPU_SLOWDOWN}× slower when throttled, files served gzip, A/B alternating",
             result["machine"], f"load average (1 min): {result['load']}", "",
             f"{'measure':44} {'median (min–max)':>34}   ratio (90 % interval)"]
    for name in samples:
        profile, kind, page = name.split(" ", 2)
        against = f"{profile} {kind} bare"
        if kind == "boot":  # how each first visit booted, and the link's estimates
            text = ", ".join(f"{path} {n}" for path, n in sorted(Counter(samples[name]).items()))
            links = [mbps for mbps in samples.get(f"{profile} link {page}", []) if mbps is not None]
            if links:
                text += f"; link {min(links):.1f}–{max(links):.1f} Mbit/s"
            lines.append(f"{name:44} {text:>34}")
            continue
        if kind == "link":
            continue
        if kind == "bytes":
            values = samples[name]
            text = (f"{statistics.median(values) / 1e6:7.2f} MB ({min(values) / 1e6:.2f}–"
                    f"{max(values) / 1e6:.2f}, n={len(values)})")
        else:
            text = spread(samples[name])
        if page == "bare":
            ratio = ""
        elif kind == "bytes":
            ratio = f"{median[name] / median[against]:.2f}× bare"
        else:
            ratio = ratio_text(samples[name], samples[against])
        lines.append(f"{name:44} {text:>34}   {ratio}")
    return "\n".join(lines)


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text()
                .splitlines() if line.startswith("model name")), platform.processor())
    chromium = launch_args()["env"]["SKILLCHECK_CHROMIUM"]
    version = subprocess.run([chromium, "--version"], capture_output=True, text=True).stdout
    return (f"{platform.system()} {platform.release()}, {os.cpu_count()} cores ({cpu}), "
            f"Python {platform.python_version()}, {version.strip() or chromium}")


# --- the report --------------------------------------------------------------------------------

def spread(values: list[float]) -> str:
    digits = 1 if statistics.median(values) < 100 else 0
    return (f"{statistics.median(values):7.{digits}f} ms "
            f"({min(values):.{digits}f}–{max(values):.{digits}f}, n={len(values)})")


def report(result: dict) -> str:
    samples, lines = result["samples"], []
    median = {name: statistics.median(values) for name, values in samples.items()}
    lines.append(f"Skill Check start-up, {result['date']}, {result['runs']} rounds of loads, "
                 f"A/B alternating ({result['seconds']} s)")
    lines.append(result["machine"])
    lines.append(f"load average (1 min): {result['load']}")
    lines.append("")
    lines.append(f"{'measure':40} {'median (min–max)':>34}   ratio")
    # The bare page cannot work offline: the app's offline boot is set against its warm one.
    rows = [("paint form app", None), ("paint fcp app", "paint fcp bare"),
            ("paint fcp bare", None), ("cold app", "cold bare"), ("cold bare", None),
            ("warm app", "warm bare"), ("warm bare", None), ("warm bare + snapshot", "warm bare"),
            ("offline app", "warm bare")]
    rows += [(name, "cold bare") for name in samples if name.startswith("cold ")
             and name not in ("cold app", "cold bare")]
    for name, against in rows:
        if name not in samples:
            continue
        ratio = f"{median[name] / median[against]:.2f}× {against}" if against in median else ""
        lines.append(f"{name:40} {spread(samples[name]):>34}   {ratio}")
    imported = [name for name in samples if name.startswith("import ")]
    if imported:
        total = sum(median[name] for name in imported)
        lines.append("")
        lines.append(f"{'import on a cold interpreter (no snapshot)':40} {'median (min–max)':>34}")
        lines += [f"{name:40} {spread(samples[name]):>34}" for name in imported
                  if median[name] >= 1]  # the first module of a package imports the rest
        lines.append(f"{'all app modules':40} {total:7.0f} ms")
    lines.append("")
    lines.append(f"{'interaction (booted app)':40} {'median (min–max)':>34}   detail")
    for name, values in result["interactions"].items():
        done = [value for value in values if value]
        if not done:
            lines.append(f"{name:40} {'no change seen':>34}")
            continue
        key = "frame" if name.startswith("click") else "dom"
        detail = (f"DOM {statistics.median(v['dom'] for v in done):.1f} ms"
                  if key == "frame" else
                  f"handler {statistics.median(v['blocked'] for v in done):.1f} ms, longest "
                  f"frame gap {max(v['gap'] for v in done):.0f} ms (idle before: "
                  f"{max(v['idle'] for v in done):.0f} ms)")
        lines.append(f"{name:40} {spread([v[key] for v in done]):>34}   {detail}")
    lines.append("")
    app, bare = result["transfer"]["app"], result["transfer"]["bare"]
    for name, size in (("app", app), ("bare", bare)):
        lines.append(f"first visit {name:5} {size['requests']:4} requests, "
                     f"{size['sent'] / 1e6:6.2f} MB as sent, {size['gzip'] / 1e6:6.2f} MB as gzip")
    lines.append(f"first visit app / bare (gzip): {app['gzip'] / bare['gzip']:.2f}×")
    return "\n".join(lines)


def record(text: str, block: str) -> None:
    """Replace one results block of docs/performance.md (between its two markers)."""
    begin, end = f"<!-- startup.py {block} -->", f"<!-- end of startup.py {block} -->"
    doc = DOC.read_text(encoding="utf-8")
    head, _, rest = doc.partition(begin)
    _, _, tail = rest.partition(end)
    DOC.write_text(f"{head}{begin}\n```\n{text}\n```\n{end}{tail}", encoding="utf-8")


# --- the same cold loads in each engine ---------------------------------------------------------

ENGINE_PAGES = {"bare": "bare", "app without snapshot": "app-nosnap",
                "app, no snapshot or bytecode": "app-source", "app": "app"}


def run_engines(names: list[str], runs: int, dist: Path | None, budget: float) -> dict:
    """Rounds of cold loads while another fits in `budget` s: in each, every engine loads every
    page, the pages in turn taking each place (no order bias)."""
    for name in names:
        if name not in engines.ENGINES or engines.missing(name):
            raise SystemExit(f"startup.py: {engines.missing(name) or f'no engine {name!r}'}")
    started, load = time.monotonic(), os.getloadavg()[0]
    sites = make_sites(dist)
    samples: dict[str, list] = {}
    with ExitStack() as stack:
        served = {}
        for page, site in ENGINE_PAGES.items():
            engines.instrument(sites[site])
            served[page] = engines.serve(stack, sites[site])
        launchers = {name: engines.Launcher(stack, name) for name in names}
        rounds, took = 0, 0.0
        while rounds < runs and time.monotonic() - started + took < budget:
            rounds += 1
            print(f"round {rounds}/{runs}", flush=True)
            round_started = time.monotonic()
            pages = list(ENGINE_PAGES)
            for name, launcher in launchers.items():
                for page in pages[rounds % len(pages):] + pages[:rounds % len(pages)]:
                    time.sleep(SETTLE)
                    marks = launcher.load(*served[page])
                    samples.setdefault(f"{name} {page}", []).append(marks)
            took = time.monotonic() - round_started
    return {"engine samples": samples, "runs": rounds, "engines": names,
            "seconds": round(time.monotonic() - started), "machine": machine(),
            "load": f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end",
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}


def report_engines(result: dict) -> str:
    samples = result["engine samples"]
    lines = [f"Skill Check cold start per engine, {result['date']}, {result['runs']} rounds, "
             f"pages and engines alternating ({result['seconds']} s)", result["machine"],
             f"load average (1 min): {result['load']}", ""]
    for name in result["engines"]:
        engine = next((m["engine"] for m in samples[f"{name} bare"] if m), "no load finished")
        lines += [f"{name}: {engine}",
                  f"  {'page':30} {'ready, median (min–max)':>32} {'ratio':>13}   "
                  f"{'first roll':>10}   boot"]
        bare = [m["ready"] for m in samples[f"{name} bare"] if m]
        for page in ENGINE_PAGES:
            done = [m for m in samples[f"{name} {page}"] if m]
            failed = len(samples[f"{name} {page}"]) - len(done)
            if not done:
                lines.append(f"  {page:30} {'no load finished':>32}")
                continue
            ready = [m["ready"] for m in done]
            ratio = (f"{statistics.median(ready) / statistics.median(bare):.2f}× bare"
                     if bare and page != "bare" else "")
            rolls = [m["roll"] for m in done if m["roll"] is not None]
            roll = f"{statistics.median(rolls):7.0f} ms" if rolls else ""
            boots = sorted({m["boot"] or "normal" for m in done})
            lines.append(f"  {page:30} {spread(ready):>32} {ratio:>13}   {roll:>10}   "
                         f"{'/'.join(boots)}" + (f"  ({failed} timed out)" if failed else ""))
        lines.append("")
    return "\n".join(lines).rstrip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", type=float, default=540,
                        help="seconds: start no round that would end later (default 540)")
    parser.add_argument("--dist", type=Path, help="measure this build instead of building")
    parser.add_argument("--before", type=Path, help="with --throttled: also this earlier build")
    parser.add_argument("--no-experiments", dest="experiments", action="store_false")
    parser.add_argument("--record", action="store_true", help="write into docs/performance.md")
    parser.add_argument("--engines", help="cold loads in these engines instead: "
                        "chromium,firefox,webkit (benchmarks/engines.py)")
    parser.add_argument("--throttled", nargs="+", choices=PROFILES, metavar="PROFILE",
                        help="instead: first and repeat visits on these network profiles "
                             f"({', '.join(PROFILES)}), the CPU {CPU_SLOWDOWN}× slower when "
                             "throttled; --budget then applies to each profile")
    args = parser.parse_args()
    if args.engines:
        result = run_engines(args.engines.split(","), args.runs, args.dist, args.budget)
        name, text = "engines", report_engines(result)
    elif args.throttled:
        result = run_throttled(args.throttled, args.runs, args.dist, args.experiments, args.budget,
                               args.before)
        name, text = "throttled", report_throttled(result)
    if args.engines or args.throttled:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"{name}.json").write_text(json.dumps(result, indent=1))
        print(text)
        if args.record:
            record(text, name)
        return
    result = run(args.runs, args.dist, args.experiments, args.budget)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "startup.json").write_text(json.dumps(result, indent=1))
    text = report(result)
    print(text)
    if args.record:
        record(text, "with experiments" if args.experiments else "results")


if __name__ == "__main__":
    main()
