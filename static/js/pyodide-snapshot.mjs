// Boots Pyodide from the build's memory snapshot when it fits, else boots it the normal way.
//
// PyScript's `interpreter` option points here instead of at pyodide.mjs. A snapshot skips the
// interpreter's start-up and the app's imports. It is only used when it is certainly right:
// stack switching in this browser (snapshots need it for run_sync), made by this very runtime
// version, its SHA-256 matches the one the build wrote beside it (or, read from the copy the
// service worker keeps unpacked, its length: the worker made that copy from a file it verified),
// its pages all land inside it, in order, and the last start from it in this browser did not stop
// short (below). Anything else boots normally, with one console note saying why. So does a
// first visit on a link under 20 Mbit/s (below): there the snapshot's download costs more than
// the start it saves. On a first visit the runtime's big files start downloading at once
// (runtime-downloads.mjs), counted for the page's progress bar. The snapshot comes as its pages
// that are not zeros, and only those are copied into the runtime's memory (snapshot-pages.mjs).
// The private Pyodide hooks a start from it takes are all in pyodide-hooks.mjs, for the pinned
// Pyodide only: with any other, the console warns and the page boots normally. So does a page
// opened with ?snapshot=off (benchmarks/snapshot_ab.py compares the two ways).
import { loadPyodide as loadRuntime, version } from "../vendor/pyodide/pyodide.mjs";
import { stopped } from "./boot-trouble.mjs";
import { hooksFit, restoring, Unfit } from "./pyodide-hooks.mjs";
import { fetchSources, writeSources } from "./python-sources.mjs";
import { cached, startDownloads } from "./runtime-downloads.mjs";
import { place } from "./snapshot-pages.mjs";

export { version };

// PyScript passes this module's own folder as indexURL; the runtime's files live elsewhere.
const RUNTIME = new URL("../vendor/pyodide/", import.meta.url).href;
const MANIFEST = new URL("../snapshot/snapshot.json", import.meta.url);
// The app's Python, unpacked by this loader (python-sources.mjs): build.py's PY_ARCHIVE.
const SOURCES = new URL("../../py/sources.zip", import.meta.url);

// A start from the snapshot is marked in localStorage until the page is ready, or is left.
// A mark still there at the next start means the last one stopped short: in Chromium that is
// the tab crashing (in sessions where its sampling heap profiler is on, 13 of 30 starts from the
// snapshot died here, 0 of 30 normal ones), so for a day this browser starts the normal way.
const UNFINISHED = "skillcheck.snapshot-start";
const NORMAL_FOR_MS = 24 * 60 * 60 * 1000;

// A snapshot froze random's state: reseed it (with no argument, from os.urandom). Its path
// finders list the build's file system, and a restore adds a second "" to sys.path: make both
// match a normal boot. (Not importlib.invalidate_caches(): it imports importlib.metadata.)
const AFTER_RESTORE = `
import random, sys
random.seed()
sys.path_importer_cache.clear()
if sys.path[:2] == ["", ""]:
    del sys.path[0]
`;

// A first visit downloads the snapshot (4.8 MB gzip) besides the runtime (5.4 MB). Since the
// normal boot stopped compiling the standard library, the snapshot saves a phone (the CPU 4×
// slower) about 2 s of start, which its download costs on a link of about 20 Mbit/s: below that
// (as the runtime's own download measures it) the first visit boots the normal way. On Fast 4G
// (9 Mbit/s) that is 2.4 s sooner, on Slow 4G (1.6) about 15 s (docs/performance.md). Once the
// service worker serves the page, it has the snapshot cached (it precaches it after the first
// start): later visits use it whatever the link. A browser asking to save data never does.
const FAST_LINK_MBPS = 20;

let started = null;

// Each stage of the start, as a User Timing mark ("skillcheck runtime: …"): in the browser's
// performance panel, and listed by the tests for a page that never becomes ready
// (tests/e2e/ready.py), with the glue's own marks after them.
const stage = (name) => performance.mark(`skillcheck runtime: ${name}`);

// The page's one runtime, started at most once: while the page still parses when its head runs
// start-runtime.js (build.py puts it there), else when PyScript asks for it.
export function startRuntime() {
  if (!started) {
    started = start();
    // PyScript awaits it, and stops; the page says so (unless it said what failed already).
    started.catch((error) => stopped({ kind: "failed", detail: firstLine(error) }));
  }
  return started;
}

// PyScript's call. It passes this module's own folder as indexURL (the runtime's files live
// elsewhere) and its output streams, which are attached once the runtime is up: the same as
// passing them to Pyodide's loadPyodide, which attaches them as its last step. Anything else
// (packages, a lock file) this loader would not pass on: it says so rather than drop it.
export async function loadPyodide({ indexURL, stdout, stderr, ...others } = {}) {
  const ignored = Object.keys(others);
  if (ignored.length) throw new Error(`pyodide-snapshot.mjs does not pass on ${ignored.join(", ")}`);
  const pyodide = await startRuntime();
  pyodide.setStdout({ batched: stdout });
  pyodide.setStderr({ batched: stderr });
  return pyodide;
}

async function start() {
  const downloads = startDownloads(RUNTIME);
  // On a first visit over a slow link the app's archive (0.4 MB) waits for the runtime's big
  // files: it would share the link with them and hold the runtime's start back by as long as it
  // takes to download (2 s on Slow 4G), and it is needed only once the runtime is up. It
  // downloads while the runtime starts instead. On a fast link, or from the worker's cache, it
  // is fetched as soon as the link is known: waiting could only put it in the runtime's way.
  const sources = downloads.linkMbps().then((mbps) => (mbps !== null && mbps < FAST_LINK_MBPS
    ? downloads.afterArrival(() => fetchSources(SOURCES)) : fetchSources(SOURCES)));
  sources.catch(() => {}); // awaited once the runtime is up; no unhandled rejection meanwhile
  try {
    const pyodide = await boot({ indexURL: RUNTIME }, downloads);
    stage("up");
    writeSources(pyodide, await sources);
    stage("sources written");
    return pyodide;
  } finally {
    downloads.stop(); // every big download has started by now; the clones count on
  }
}

async function boot(settings, downloads) {
  let reason;
  let marked = false;
  try {
    hooksFit(version);
    if (new URLSearchParams(globalThis.location?.search).get("snapshot") === "off") {
      throw new Error("asked to, by ?snapshot=off");
    }
    if (stoppedShortLately()) throw new Error("the last start from it stopped short");
    const entry = await usableSnapshot();
    if (globalThis.navigator?.connection?.saveData) throw new Error("the player saves data");
    const link = await downloads.linkMbps();
    markLink(link);
    if (link !== null && link < FAST_LINK_MBPS) {
      throw new Error(`a first visit on a link under ${FAST_LINK_MBPS} Mbit/s (${link.toFixed(1)})`);
    }
    downloads.snapshot = new URL(entry.file, MANIFEST).href;
    const snapshot = fetchSnapshot(entry);
    snapshot.catch(() => {}); // handled below once loadRuntime awaits it; no unhandled rejection
    marked = markStart();
    stage("starting from the snapshot");
    const pyodide = await loadRuntime({ ...settings, ...restoring(snapshot, settings.indexURL) });
    pyodide.runPython(AFTER_RESTORE);
    markBoot("snapshot");
    return pyodide;
  } catch (error) {
    reason = error;
    if (marked) stored(UNFINISHED, null); // not starting from it after all
  }
  (reason instanceof Unfit ? console.warn : console.info)(
    `Skill Check: starting without the snapshot (${firstLine(reason)}).`);
  stage("starting without the snapshot");
  downloads.snapshot = null;
  markBoot("normal");
  return loadRuntime(settings);
}

// The snapshot's manifest, once the browser and the runtime version are known to fit it.
async function usableSnapshot() {
  if (!("Suspending" in WebAssembly)) throw new Error("no WebAssembly stack switching");
  if (!globalThis.crypto?.subtle) throw new Error("no crypto.subtle to verify it");
  const response = await fetch(MANIFEST);
  if (!response.ok) throw new Error(`snapshot.json: HTTP ${response.status}`);
  const entry = await response.json();
  if (entry.pyodide !== version) {
    throw new Error(`made by Pyodide ${entry.pyodide}, this is ${version}`);
  }
  return entry;
}

// The snapshot's bytes: the service worker's unpacked copy when it has one (sw-template.js: it
// unpacked it from a copy it verified byte for byte against the build), else the gzipped file,
// unpacked as it arrives and verified. Any failure rejects, and the boot falls back.
async function fetchSnapshot(entry) {
  if (entry.unpacked && globalThis.navigator?.serviceWorker?.controller) {
    try {
      return await fetchUnpacked(entry);
    } catch {
      // not kept unpacked (storage full, or this engine's worker did not): the packed copy
    }
  }
  return fetchPacked(entry);
}

// Read as it arrives, natively unpacked: no gunzip on the main thread. Straight from the
// worker's cache when the copy there was unpacked from this build's packed file (the worker
// stores it with that file's SHA-256).
async function fetchUnpacked(entry) {
  const url = new URL(entry.unpacked, MANIFEST).href;
  const response = (await cached(url, entry.sha256)) ?? (await fetch(url));
  if (!response.ok) throw new Error(`${entry.unpacked}: HTTP ${response.status}`);
  return placed(response.body, entry.unpacked, entry);
}

async function fetchPacked(entry) {
  const response = await fetch(new URL(entry.file, MANIFEST));
  if (!response.ok) throw new Error(`${entry.file}: HTTP ${response.status}`);
  const [packed, unpacked] = response.body.tee();
  const [digest, pages] = await Promise.allSettled([
    sha256(packed),
    placed(unpacked.pipeThrough(new DecompressionStream("gzip")), entry.file, entry),
  ]);
  if (digest.value !== entry.sha256) throw new Error(`${entry.file}: checksum mismatch`);
  if (pages.status === "rejected") throw pages.reason;
  return pages.value;
}

// The snapshot's pages (snapshot-pages.mjs), marked once they have all arrived.
async function placed(stream, name, entry) {
  const pages = await place(stream, name, entry);
  stage(`${name} placed`);
  return pages;
}

async function sha256(stream) {
  const data = await new Response(stream).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function firstLine(error) {
  return error instanceof Error ? error.message.split("\n")[0] : String(error);
}

// A mark from the future (the clock was set back) is as stale as one over a day old.
function stoppedShortLately() {
  const age = Date.now() - Number(stored(UNFINISHED));
  return age >= 0 && age < NORMAL_FOR_MS;
}

// Mark this start until <html data-ready="true"> or the page is left (a crash does neither).
function markStart() {
  if (!stored(UNFINISHED, String(Date.now()))) return false;
  const root = document.documentElement;
  const finished = () => {
    observer.disconnect();
    removeEventListener("pagehide", finished);
    stored(UNFINISHED, null);
  };
  const observer = new MutationObserver(() => root.dataset.ready === "true" && finished());
  observer.observe(root, { attributes: true, attributeFilter: ["data-ready"] });
  addEventListener("pagehide", finished);
  return true;
}

// stored(key): its value or null; stored(key, value): set it (null: remove it), true if done.
// A browser that refuses storage gets null and false: no mark, and the snapshot as usual.
function stored(key, ...value) {
  try {
    if (!value.length) return localStorage.getItem(key);
    if (value[0] === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value[0]);
    return true;
  } catch {
    return value.length ? false : null;
  }
}

// Which path booted, for tests and for anyone curious: <html data-boot="snapshot|normal">.
function markBoot(path) {
  const root = globalThis.document?.documentElement;
  if (root) root.dataset.boot = path;
}

// And the link's estimate a first visit chose by (Mbit/s): <html data-link="9.3">.
function markLink(mbps) {
  const root = globalThis.document?.documentElement;
  if (root && mbps !== null) root.dataset.link = mbps.toFixed(1);
}
