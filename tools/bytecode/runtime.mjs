// The vendored Pyodide under Node, as the build's tools start it to compile bytecode: without
// the column positions Python keeps for a traceback's ^^^ marks (PYTHONNODEBUGRANGES). Line
// numbers stay. The app's bytecode and the standard library's are about a fifth smaller
// compressed, bytes every first visit downloads (docs/performance.md).
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export async function loadRuntime(runtime, options = {}) {
  const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
  return loadPyodide({ indexURL: runtime + "/", ...options, env: { PYTHONNODEBUGRANGES: "1" } });
}
