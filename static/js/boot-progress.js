// The page's start, said by the roll button: the runtime's download as a progress bar of the bytes
// received (runtime-downloads.mjs reports them, whenDownloading), then that it is
// starting; the roll button says what it waits for until the glue enables it. The build writes
// the files' sizes onto the bar (data-runtime-bytes, data-snapshot-bytes); a visit served by the
// service worker downloads nothing, and the bar stays hidden.
//
// And what stopped the start, if anything did (boot-trouble.mjs): a file the page needs that did
// not come (no connection, cut off, an HTTP error: said at once), nothing arriving for STALL_MS
// while something is on its way, or an error nothing handled. The sentence by the roll button is
// an alert; Retry reloads the page once the site answers again, and what the browser has cached
// by then is not downloaded again. A module script before PyScript's (modules run in document
// order): its watch of the page's fetches is in place before PyScript's first one.

import { fileOf, resumed, stopped, whenStopped } from "./boot-trouble.mjs";
import { whenDownloading } from "./runtime-downloads.mjs";

const box = document.getElementById("boot");
const bar = document.getElementById("boot-bar");
const status = document.getElementById("boot-status");
const amount = document.getElementById("boot-amount");
const problem = document.getElementById("boot-stopped");
const retry = document.getElementById("boot-retry");
const roll = document.getElementById("roll");
const root = document.documentElement;
const waiting = roll.textContent;
let phase = "";
let last = null; // the last download report

const STALL_MS = 15_000; // no byte for this long, with something on its way: stalled
const TICK_MS = 1000;
const BUSY_MS = 3 * TICK_MS; // a tick this late: the main thread was busy, so the page is working
const ANSWER_MS = 10_000; // Retry's wait for the site to answer

const ready = () => root.dataset.ready === "true";
const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

// Phase changes only: the status is a live region, the amount beside it is not.
function show(text, button) {
  if (phase === text) return;
  phase = text;
  status.querySelector("label").textContent = text;
  roll.textContent = button;
}

function render(detail) {
  const total = Number(bar.dataset.runtimeBytes || 0)
    + (detail.snapshot ? Number(bar.dataset.snapshotBytes || 0) : 0);
  if (ready() || !total) return;
  box.hidden = false;
  bar.max = total;
  bar.value = Math.min(detail.received, total);
  amount.textContent = `${megabytes(bar.value)} of ${megabytes(total)} MB`;
  if (root.dataset.stopped) return;
  if (detail.received >= total) show("Setting up the rules…", "Almost ready…");
  else show("Downloading the rules…", "Loading the rules…");
}

// ---- what stopped the start, in a player's words ----------------------------------------------

const CHECK = "Check your connection, then press Retry.";

function sentence({ kind, file, status: code }) {
  const where = file ? ` (${file}${code ? `: error ${code}` : ""})` : "";
  if (kind === "lost") return `The download broke off${where}: the connection was lost. ${CHECK}`;
  if (kind === "missing") {
    return `A file this page needs could not be loaded${where}. ${CHECK} If it keeps failing, `
      + "the site itself is broken: tell whoever runs it.";
  }
  if (kind === "stalled") {
    return `The download has stalled: nothing has arrived for ${STALL_MS / 1000} seconds. ${CHECK}`;
  }
  return "The rules could not start: a file did not load, or something went wrong while the "
    + `page loaded. ${CHECK} If it happens again, the details are in the browser's console.`;
}

whenStopped((what) => {
  if (what === null) { // a stall is over
    delete root.dataset.stopped;
    problem.textContent = "";
    retry.hidden = true;
    phase = "";
    roll.textContent = waiting;
    if (last) render(last);
    return;
  }
  if (what.detail) console.error(`Skill Check could not start: ${what.detail}`);
  root.dataset.stopped = what.kind;
  show(what.kind === "failed" ? "Stopped" : "Download stopped", "Could not load the rules");
  problem.textContent = sentence(what);
  retry.hidden = false;
  retry.disabled = false;
});

// Retry: the page again, once the site answers (else the browser's offline page would replace
// it). The browser's cache keeps what arrived whole; only the rest is downloaded again.
retry.addEventListener("click", async () => {
  retry.disabled = true;
  let answer = null;
  try {
    answer = await pageFetch(location.href, {
      method: "HEAD", cache: "no-store", signal: AbortSignal.timeout(ANSWER_MS) });
  } catch {
    // no connection yet
  }
  if (answer?.ok) {
    location.reload();
    return;
  }
  problem.textContent = answer ? `The site does not answer yet (error ${answer.status}): press `
    + "Retry in a while." : "Still no connection: press Retry once you are back online.";
  retry.disabled = false;
});

// ---- the watch: the page's fetches, its scripts, errors nobody handled, and silence -----------

// The snapshot's files may fail: the loader starts the normal way without them.
const OPTIONAL = /\/static\/snapshot\//;
const pageFetch = globalThis.fetch;
let fetching = 0;

function watchedFetch(input, init) {
  const response = pageFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : input, location.href);
  if (ready() || url.origin !== location.origin || OPTIONAL.test(url.pathname)) return response;
  fetching += 1;
  response.then((got) => {
    if (!got.ok) stopped({ kind: "missing", file: fileOf(url.href), status: got.status });
  }, (error) => {
    if (error?.name !== "AbortError") stopped({ kind: "lost", file: fileOf(url.href) });
  }).finally(() => {
    fetching -= 1;
    activity();
  });
  return response;
}
globalThis.fetch = watchedFetch;

// PyScript's scripts and the runtime's modules (preloaded by the page's head); not the style
// sheets, the icons or the page's own helpers, which it starts without.
const needed = (element) => (element instanceof HTMLScriptElement && /\/static\/vendor\//.test(element.src))
  || (element instanceof HTMLLinkElement && element.rel === "modulepreload");

function onError(event) {
  const element = event.target;
  if (element instanceof Element) {
    if (needed(element)) stopped({ kind: "missing", file: fileOf(element.src || element.href) });
  } else {
    stopped({ kind: "failed", detail: event.message });
  }
}
const onRejection = ({ reason }) => stopped({ kind: "failed", detail: String(reason?.message ?? reason) });
addEventListener("error", onError, true); // capturing: a script's error does not bubble
addEventListener("unhandledrejection", onRejection);

// Silence: every byte, file, start-up stage or busy spell of the main thread is the page at work.
let lastSign = performance.now();
let lastTick = lastSign;
function activity() {
  lastSign = performance.now();
  resumed();
}
const signs = new PerformanceObserver((list) => {
  if (list.getEntries().some((entry) => !entry.name.startsWith("skillcheck runtime: stopped"))) {
    activity();
  }
});
signs.observe({ entryTypes: ["resource", "mark"] });
document.addEventListener("visibilitychange", activity);
// Something on its way: a download the loader counts, a fetch, or the page's own files.
const onItsWay = () => (last?.arriving ?? 0) > 0 || fetching > 0 || document.readyState !== "complete";
const ticks = setInterval(() => {
  const now = performance.now();
  if (now - lastTick > BUSY_MS) activity();
  lastTick = now;
  if (now - lastSign >= STALL_MS && onItsWay()) stopped({ kind: "stalled" });
}, TICK_MS);

// The downloads' reports, the latest at once: they start in the page's head, before this module
// runs (after the silence's clock above, which hearing one resets).
whenDownloading((report) => {
  last = report;
  activity();
  render(report);
});

const watch = new MutationObserver(() => {
  if (!ready()) return;
  watch.disconnect();
  clearInterval(ticks);
  signs.disconnect();
  removeEventListener("error", onError, true);
  removeEventListener("unhandledrejection", onRejection);
  document.removeEventListener("visibilitychange", activity);
  if (globalThis.fetch === watchedFetch) globalThis.fetch = pageFetch;
  bar.value = bar.max;
  box.hidden = true;
  problem.textContent = "";
  retry.hidden = true;
});
watch.observe(root, { attributes: true, attributeFilter: ["data-ready"] });
