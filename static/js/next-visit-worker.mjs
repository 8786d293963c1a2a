// The runtime booted in a Web Worker from the service worker's cache, so that the browser keeps
// its compiled code for the next visit (next-visit.mjs says why). It says when the runtime is up
// (or why it is not); the page stops it.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

try {
  await loadPyodide({ indexURL: new URL("../vendor/pyodide/", import.meta.url).href });
  postMessage({ up: true });
} catch (error) {
  postMessage({ error: String(error?.message ?? error).split("\n")[0] });
}
