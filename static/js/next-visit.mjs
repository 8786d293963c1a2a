// The second visit as quick as every later one. Chromium keeps a script's and a WebAssembly
// module's compiled code beside the Cache Storage entry they were loaded from, once that code has
// run (a module's once its busiest functions were optimized and about 2 s more have passed: V8's
// caching timeout). A first visit loads the runtime from the network, so the next visit, the first
// one from the service worker's cache, compiled the runtime's 9.6 MB of WebAssembly and 1.25 MB of
// JavaScript afresh: about a quarter of its start (docs/performance.md). So once the worker has
// cached this build, a first visit boots the runtime once more in a Web Worker, from that cache,
// keeps it running until its code has been kept, and stops it. The page is ready meanwhile.
//
// Only in browsers that start later visits from the snapshot (WebAssembly stack switching:
// Chromium); and not on a visit that read the runtime from the worker's cache itself, whose own
// run keeps the code. <html data-next-visit>: "warming", then "warmed" or "not warmed" (the
// console says why).
import { keeps } from "./runtime-downloads.mjs";

const RUNTIME = new URL("../vendor/pyodide/", import.meta.url).href;
const WORKER = new URL("./next-visit-worker.mjs", import.meta.url);
const WASM = "pyodide.asm.wasm";
const KEEP_MS = 3000; // after the runtime is up: V8 keeps a module's code 2 s after it optimizes

export function warmNextVisit() {
  const root = document.documentElement;
  const readHere = (root.dataset.cached ?? "").split(" ").includes(WASM);
  if (!("Suspending" in WebAssembly) || readHere || !globalThis.Worker) return;
  root.dataset.nextVisit = "warming";
  warm().then(
    () => { root.dataset.nextVisit = "warmed"; },
    (error) => {
      root.dataset.nextVisit = "not warmed";
      console.info(`Skill Check: the next visit compiles the runtime afresh (${error.message}).`);
    },
  );
}

async function warm() {
  await controlled();
  if (!(await keeps(WASM, RUNTIME))) throw new Error("the service worker keeps no runtime of this build");
  await idle();
  await bootInWorker();
}

// Once the service worker serves this page (its first install takes it over once it has cached
// the whole build), the worker below is served from that cache too.
function controlled() {
  const container = navigator.serviceWorker;
  if (container.controller) return Promise.resolve();
  return new Promise((resolve) => {
    container.addEventListener("controllerchange", () => resolve(), { once: true });
  });
}

function idle() {
  return new Promise((resolve) => {
    if (globalThis.requestIdleCallback) requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 0);
  });
}

function bootInWorker() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { type: "module", name: "Skill Check: the next visit" });
    const stop = (settle) => { worker.terminate(); settle(); };
    worker.onmessage = ({ data }) => {
      if (data?.up) setTimeout(() => stop(resolve), KEEP_MS);
      else stop(() => reject(new Error(data?.error ?? "the worker said nothing")));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      stop(() => reject(new Error(event.message || "the worker did not start")));
    };
  });
}
