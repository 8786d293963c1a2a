// The runtime's big files: asked for at once, and on a first visit counted as they arrive (for
// the page's progress bar) and timed (is the link fast enough to download the snapshot too?).
//
// startDownloads(runtime) fetches pyodide.asm.wasm and python_stdlib.zip right away and, until
// stop(), hands those very responses to the runtime when it asks for them, so nothing is fetched
// twice. Even from the service worker's cache, the wasm takes longer to arrive (and compile as
// it does) than anything the runtime does before it asks. On a first visit each is counted
// through a clone: the runtime gets the original response, with the URL the browser's
// WebAssembly code cache is keyed by. Progress goes to whoever listens (whenDownloading, below),
// as { received, snapshot: counted in or not, arriving }; downloads.afterArrival(job)
// runs job once both have arrived. A page the service worker controls reads the standard library
// from the worker's cache itself (cached, below), and afterArrival runs its job at once.
// Either file failing (no connection, cut off, an HTTP error) is said at once (boot-trouble.mjs):
// without it the runtime never starts.

import { fileOf, stopped } from "./boot-trouble.mjs";

// The bytes a response's headers promise (0: they do not say, or it comes compressed, when they
// count the compressed ones). Firefox ends a body the connection broke off short of that without
// an error: it has to be compared.
function sent(response) {
  if (response.headers.get("Content-Encoding")) return 0;
  return Number(response.headers.get("Content-Length")) || 0;
}

// build.py reads this line for the download bar's total (counted_downloads): keep it one line.
const FILES = ["pyodide.asm.wasm", "python_stdlib.zip"];
// The SHA-256 in this build of each file read from the worker's cache (cached, below): build.py
// writes them here (write_runtime_revisions). Not the wasm's, which is always asked of the worker:
// Chromium keeps a WebAssembly module's compiled code only with a response the worker gave, and
// uses it at the next start; read from Cache Storage, every visit compiled it afresh
// (docs/performance.md, "The second visit, and a player's real next visit").
const REVISIONS = {};
// The header the service worker stores with each file it verified: its SHA-256 (sw-template.js).
const REVISION = "X-Skillcheck-Revision";

// What the service worker cached for `url`, read from Cache Storage directly instead of through
// the worker, whose answer costs the page's main thread a copy of its own (12.8 MB of snapshot:
// about 15 ms straight from the cache, 55–80 through the worker), and only if the worker stored it
// as `revision`, this build's: an older build's cache may still be there, under the same URL.
// Else undefined, and the caller asks the worker. Every file read this way is listed in
// <html data-cached>, for tests and anyone curious.
export async function cached(url, revision) {
  if (!revision || !globalThis.navigator?.serviceWorker?.controller) return undefined;
  try {
    const hit = await caches.match(url);
    if (hit?.headers.get(REVISION) !== revision) return undefined;
    const root = document.documentElement;
    root.dataset.cached = [root.dataset.cached, url.split("/").pop()].filter(Boolean).join(" ");
    return hit;
  } catch {
    return undefined; // no Cache Storage for this page (a private window, say)
  }
}

// Timed: a zip already, so what arrives is what was sent (a host's gzip does not shrink it), and
// it shares the link with the wasm, which downloads beside it: the link is about twice its rate.
// Timed from the request to its last byte (or to PATIENCE_MS, with what has come by then), by
// the main thread, which may be busy while chunks queue up (PyScript and the runtime start
// meanwhile): that can only make the rate come out lower, and timing the whole file (1.7 MB, not
// its first 512 KB) keeps such a pause a small part of the time on a fast link.
const TIMED = "python_stdlib.zip";
const PATIENCE_MS = 2000;

// A stream's chunks, read through a reader: WebKit's ReadableStream (every iPhone) is not
// async-iterable, so `for await (… of stream)` throws there.
export async function* chunks(stream) {
  const reader = stream.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
  } finally {
    reader.releaseLock();
  }
}

// The latest progress report, and who hears them (the page's bar, boot-progress.js). That listener
// is a module of the page's, run only once the parse is done, and the downloads start in the
// head: on a fast link every byte can have come by then (a busy phone's parse, or a host on the
// local network), so a late listener hears the latest report at once.
// A listener's error is reported as an event listener's would be, and the counting goes on.
let latest = null;
const listeners = new Set();
const tell = (listener) => {
  try {
    listener(latest);
  } catch (error) {
    reportError(error);
  }
};

export function whenDownloading(listener) {
  listeners.add(listener);
  if (latest) tell(listener);
}

export function startDownloads(runtime) {
  const realFetch = globalThis.fetch;
  const requested = performance.now();
  let timedBytes = 0;
  let settle;
  const timing = new Promise((resolve) => { settle = resolve; });
  const downloads = {
    received: 0,
    // The snapshot's URL once the loader fetches it (counted too), null if it boots without;
    // until then the page's bar counts it in (if it is left out, the bar jumps forward).
    snapshot: undefined,
    linkMbps: () => timing, // null: nothing was downloaded (a service worker serves the page)
    // The page's fetch again; a wrapper put on top of this one since (boot-progress.js) stays.
    stop() {
      handing = false;
      if (globalThis.fetch === handOver) globalThis.fetch = realFetch;
    },
  };
  // Counted only from the network: a service worker serving the page has everything cached.
  const counted = !globalThis.navigator?.serviceWorker?.controller && globalThis.document;

  // Counted downloads on their way: the page's watch for a stall (boot-progress.js) waits for
  // bytes only while one is.
  let arriving = 0;
  const report = () => {
    latest = { received: downloads.received, snapshot: downloads.snapshot !== null, arriving };
    listeners.forEach(tell);
  };
  const mbps = () => (2 * timedBytes * 8) / 1e6 / ((performance.now() - requested) / 1000);
  async function count(response, timed) {
    if (!response.body) return;
    let bytes = 0;
    for await (const chunk of chunks(response.clone().body)) {
      if (timed) timedBytes += chunk.byteLength;
      bytes += chunk.byteLength;
      downloads.received += chunk.byteLength;
      report();
    }
    if (bytes < sent(response)) throw new Error(`cut off at ${bytes} bytes`);
    if (timed) settle(mbps());
  }
  // A response counted as it arrives, through a clone; done() once it has arrived or failed.
  // A `needed` file's failure is said: its request failing, an HTTP error, or (counted) its body
  // breaking off. The snapshot is not needed: the loader starts without it.
  const watch = (url, response, { timed = false, needed = false, done = () => {} } = {}) => {
    const failed = (what) => needed && stopped({ file: fileOf(url), ...what });
    if (counted) arriving += 1;
    response.then((got) => {
      if (!got.ok) return failed({ kind: "missing", status: got.status });
      return counted && count(got, timed);
    }).catch(() => failed({ kind: "lost" })).finally(() => {
      if (!counted) return;
      arriving -= 1;
      report();
      done();
    });
  };
  // Jobs waiting for FILES to arrive (afterArrival), and how many of them have yet to.
  const waiting = [];
  let unarrived = counted ? FILES.length : 0;
  const arrived = () => {
    unarrived -= 1;
    if (unarrived === 0) waiting.splice(0).forEach((job) => job());
  };
  // job() once FILES have arrived (at once when nothing is counted: the worker's cache has no
  // link to share), run in the very task that counted the last of them; a promise's
  // continuation would run only after the runtime's start, which takes the main thread as soon
  // as the wasm is in (1.6 s later on Slow 4G with the CPU 4× slower). Its result, as a promise.
  downloads.afterArrival = (job) => new Promise((resolve, reject) => {
    const run = () => {
      try {
        resolve(job());
      } catch (error) {
        reject(error);
      }
    };
    if (unarrived > 0) waiting.push(run);
    else run();
  });
  if (counted) {
    setTimeout(() => settle(mbps()), PATIENCE_MS);
    report();
  } else {
    settle(null);
  }

  const early = new Map(FILES.map((name) => {
    const url = new URL(name, runtime).href;
    return [url, cached(url, REVISIONS[name]).then((hit) => hit ?? realFetch(url))];
  }));
  for (const [url, response] of early) {
    watch(url, response, { timed: url.endsWith(`/${TIMED}`), needed: true, done: arrived });
  }
  let handing = true;
  const handOver = (input, init) => {
    if (!handing) return realFetch(input, init);
    const url = new URL(input instanceof Request ? input.url : input, location.href).href;
    const response = early.get(url) ?? realFetch(input, init);
    early.delete(url);
    if (url === downloads.snapshot) watch(url, response);
    return response;
  };
  globalThis.fetch = handOver;
  return downloads;
}
