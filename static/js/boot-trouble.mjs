// What stopped the page from starting, told by whoever saw it first (the runtime's downloads,
// runtime-downloads.mjs; the loader, pyodide-snapshot.mjs; the page's watch, boot-progress.js)
// to the page's message by the roll button (boot-progress.js), which may be listening only
// later: a download cut off in the page's head is told once the body has its message box.
//
// stopped(what) with what = { kind, file?, status?, detail? }:
//   "lost"     a needed file's download failed or broke off (no connection, connection reset)
//   "missing"  a needed file answered an HTTP error (a broken deploy: 404)
//   "stalled"  nothing has arrived for a while, though something is still on its way
//   "failed"   anything else that stopped the start (an error the page did not expect)
// Only the first is told, but a failure after a stall replaces it; a stall is taken back once
// bytes flow again (resumed()).

let first = null;
const listeners = new Set();

export function stopped(what) {
  if (first?.kind === "stalled" ? what.kind === "stalled" : first) return;
  if (document.documentElement.dataset.ready === "true") return;
  first = what;
  performance.mark(`skillcheck runtime: stopped (${what.kind}${what.file ? ` ${what.file}` : ""})`);
  for (const listener of listeners) listener(first);
}

// A stall is over: something arrived after all.
export function resumed() {
  if (first?.kind !== "stalled") return;
  first = null;
  for (const listener of listeners) listener(null);
}

// listener(what) now if something stopped the start already, and at every change; null: going on.
export function whenStopped(listener) {
  listeners.add(listener);
  if (first) listener(first);
}

// The file a URL names, as the site holds it ("py/main.py", "static/vendor/pyodide/…").
export function fileOf(url) {
  const base = new URL(".", location.href).pathname;
  const path = new URL(url, location.href).pathname;
  return path.startsWith(base) ? path.slice(base.length) : path;
}
