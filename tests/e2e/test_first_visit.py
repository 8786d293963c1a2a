"""A first visit over mobile data: the download's progress bar, and the snapshot left off.

Chromium's own network throttling (DevTools protocol) stands in for a phone's mobile data. Each
test uses a fresh context: no cache, no service worker, as a player's first visit.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from ready import wait_ready

import build

READY_MS = 120_000
CONTROLLED = "navigator.serviceWorker.controller !== null"

# Every 50 ms while Python loads: the bar, the status beside it and the roll button.
SAMPLE = """
window.bootSamples = [];
const timer = setInterval(() => {
  const bar = document.getElementById("boot-bar");
  if (!bar) return;
  if (document.documentElement.dataset.ready === "true") return clearInterval(timer);
  window.bootSamples.push({
    shown: !document.getElementById("boot").hidden, value: bar.value, max: bar.max,
    status: document.getElementById("boot-status").textContent.trim(),
    button: document.getElementById("roll").textContent.trim(),
  });
}, 50);
"""


ARRIVALS = """() => Object.fromEntries(performance.getEntriesByType("resource")
  .map((entry) => [entry.name.split("/").pop(), [entry.startTime, entry.responseEnd]]))"""


def throttle(context: BrowserContext, page: Page, mbps: float | None, latency_ms: int = 20):
    """Limit the page's download rate (None: no limit), as DevTools' network throttling does."""
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    rate = -1 if mbps is None else mbps * 1e6 / 8
    session.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0 if mbps is None else latency_ms,
        "downloadThroughput": rate, "uploadThroughput": rate})
    return session


def test_the_download_shows_its_progress_and_the_form_is_usable_meanwhile(fresh_context,
                                                                         app_url):
    fresh_context.add_init_script(SAMPLE)
    page = fresh_context.new_page()
    throttle(fresh_context, page, mbps=40)  # about 4 s for the runtime and the snapshot
    # Not waiting for DOMContentLoaded: the page is watched while it loads (and one CI run's
    # goto once stalled there past Playwright's 30 s on this link, for no cause found).
    page.goto(app_url + "#system=flip", wait_until="commit")
    status = page.locator("#boot-status")
    expect(status).to_have_text("Downloading the rules…", timeout=60_000)
    bar = page.get_by_role("progressbar", name="Downloading the rules…")
    expect(bar).to_be_visible()
    expect(page.locator("#roll")).to_have_text("Loading the rules…")
    expect(page.locator("#roll")).to_be_disabled()
    rank = page.locator("#form-flip-unopposed").get_by_label(re.compile(r"^Rank\b"))
    rank.fill("4")  # while the runtime is still arriving
    wait_ready(page, READY_MS)

    samples = [s for s in page.evaluate("window.bootSamples") if s["shown"]]
    values = [s["value"] for s in samples]
    assert len(set(values)) >= 3, f"the bar hardly moved: {values}"
    assert values == sorted(values), "the bar went backwards"
    assert values[0] < samples[0]["max"] / 2
    downloading = [s for s in samples if s["value"] < s["max"]]
    assert downloading and all(s["status"] == "Downloading the rules…" for s in downloading)
    assert all(s["button"] == "Loading the rules…" for s in downloading)
    # Ready: the bar is full and out of the way, the button names the system's action.
    assert page.evaluate("[boot.hidden, document.getElementById('boot-bar').value"
                         " === document.getElementById('boot-bar').max]") == [True, True]
    expect(page.get_by_role("button", name="Flip", exact=True)).to_be_enabled()
    expect(rank).to_have_value("4")


@pytest.mark.parametrize(("mbps", "latency_ms"), [(2, 150), (8, 60)],
                         ids=["Slow 4G, 2 Mbit/s", "Fast 4G, 8 Mbit/s"])
def test_a_first_visit_on_mobile_data_starts_without_the_snapshot(mbps, latency_ms,
                                                                  fresh_context, app_url):
    page = fresh_context.new_page()
    notes: list[str] = []
    page.on("console", lambda message: notes.append(message.text))
    session = throttle(fresh_context, page, mbps=mbps, latency_ms=latency_ms)
    page.goto(app_url, wait_until="commit")
    page.wait_for_function("document.documentElement.dataset.boot", timeout=READY_MS)
    session.send("Network.emulateNetworkConditions", {  # decided: the rest may come fast
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_ready(page, READY_MS)
    assert page.evaluate("document.documentElement.dataset.boot") == "normal"
    assert [note for note in notes if "a first visit on a link under 20 Mbit/s" in note]
    assert float(page.evaluate("document.documentElement.dataset.link")) < 20
    assert not page.evaluate("performance.getEntriesByType('resource')"
                             ".filter(e => e.name.endsWith('.snapshot.gz')).length")
    # the app's archive waited for the runtime's big files, not to share the slow link with them
    times = page.evaluate(ARRIVALS)
    counted = build.counted_downloads(build.ROOT)
    assert times["sources.zip"][0] >= max(times[name][1] for name in counted)


def test_later_visits_use_the_cached_snapshot_even_on_a_slow_link(fresh_context, app_url):
    page = fresh_context.new_page()
    page.goto(app_url)
    page.wait_for_function(CONTROLLED, timeout=READY_MS)  # the worker has cached the snapshot
    throttle(fresh_context, page, mbps=2, latency_ms=150)
    page.reload()
    wait_ready(page, READY_MS)
    assert page.evaluate("document.documentElement.dataset.boot") == "snapshot"
    expect(page.locator("#boot")).to_be_hidden()


# runtime-downloads.mjs on responses whose bodies the test feeds: when afterArrival's job runs
# (the app's archive, on a slow first visit), as each big file arrives or fails. `failing`: that
# file's request fails instead. What happened, in order.
AFTER_ARRIVAL = """async (failing) => {
  const { startDownloads } = await import("./static/js/runtime-downloads.mjs");
  const bodies = {};
  const realFetch = globalThis.fetch;
  globalThis.fetch = (url) => {
    const name = String(url).split("/").pop();
    if (name === failing) return Promise.reject(new TypeError("offline"));
    const body = new ReadableStream({ start(controller) { bodies[name] = controller; } });
    return Promise.resolve(new Response(body));
  };
  const happened = [];
  const downloads = startDownloads(new URL("static/vendor/pyodide/", location.href).href);
  globalThis.fetch = realFetch;
  const job = downloads.afterArrival(() => { happened.push("job"); return "its result"; });
  const settle = () => new Promise((done) => setTimeout(done, 50));
  await settle();
  for (const name of ["python_stdlib.zip", "pyodide.asm.wasm"]) {
    if (!bodies[name]) continue;
    bodies[name].enqueue(new Uint8Array(1000));
    await settle();
    happened.push(`${name} half`);
    bodies[name].close();
    await settle();
    happened.push(`${name} in`);
  }
  happened.push(await job);
  downloads.afterArrival(() => happened.push("a job asked for later"));
  return happened;
}"""


def test_the_apps_archive_is_asked_for_once_the_runtimes_files_are_in(fresh_context, app_url):
    """On a slow first visit the app's archive follows the runtime's big files on the link: its
    job runs as the last of them arrives (or fails), in the task that counts it. Waiting on a
    promise instead, it ran behind the runtime's start: 1.6 s later on Slow 4G with the CPU 4×
    slower (docs/performance.md)."""
    page = fresh_context.new_page()
    page.goto(app_url + "manifest.webmanifest")  # this origin; no worker, no runtime started
    assert page.evaluate(AFTER_ARRIVAL, None) == [
        "python_stdlib.zip half", "python_stdlib.zip in", "pyodide.asm.wasm half", "job",
        "pyodide.asm.wasm in", "its result", "a job asked for later"]
    assert page.evaluate(AFTER_ARRIVAL, "pyodide.asm.wasm") == [
        "python_stdlib.zip half", "job", "python_stdlib.zip in", "its result",
        "a job asked for later"]


# runtime-downloads.mjs's reports to a listener that throws and to one that comes late: the
# error is reported as an event listener's would be, and the counting goes on.
TOLD = """async () => {
  const { startDownloads, whenDownloading } = await import("./static/js/runtime-downloads.mjs");
  const reported = [];
  addEventListener("error", (event) => { reported.push(event.message); event.preventDefault(); });
  whenDownloading(() => { throw new Error("the bar broke"); });
  const bodies = {};
  const realFetch = globalThis.fetch;
  globalThis.fetch = (url) => {
    const name = String(url).split("/").pop();
    const body = new ReadableStream({ start(controller) { bodies[name] = controller; } });
    return Promise.resolve(new Response(body));
  };
  const downloads = startDownloads(new URL("static/vendor/pyodide/", location.href).href);
  globalThis.fetch = realFetch;
  const arrived = downloads.afterArrival(() => "arrived");
  await new Promise((done) => setTimeout(done, 50));
  for (const controller of Object.values(bodies)) {
    controller.enqueue(new Uint8Array(1000));
    controller.close();
  }
  const job = await arrived;
  const late = [];
  whenDownloading((report) => late.push(report));
  const broke = reported.length > 0 && reported.every((m) => /the bar broke/.test(m));
  return { job, late, reported: broke };
}"""


def test_a_report_reaches_a_late_listener_and_a_listener_that_throws_stops_nothing(
        fresh_context, app_url):
    """The page's bar runs once the parse is done, after the downloads began (and on a fast
    link, after they ended): it hears the latest report when it listens. A listener's error
    is reported, and the downloads go on to arrive."""
    page = fresh_context.new_page()
    page.goto(app_url + "manifest.webmanifest")  # this origin; no worker, no runtime started
    told = page.evaluate(TOLD)
    assert told["job"] == "arrived"
    assert told["late"] == [{"received": 2000, "snapshot": True, "arriving": 0}]
    assert told["reported"]
