// Import time of the app's own modules under the vendored Pyodide, from source against from the
// build's bytecode (tools/bytecode/), A and B alternating, each sample in a fresh interpreter:
//
//     node benchmarks/imports.mjs [DIST] [ROUNDS]     (Node 24: tools/snapshot's pinned one)
//
// Imports the modules the snapshot holds (the rules and the browser-free glue: the rest of the
// glue needs a page), after the standard-library modules they use, so that only the app's own
// modules are timed. Prints medians with min–max and the ratio bytecode / source.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const STDLIB = ["dataclasses", "datetime", "fractions", "json", "re", "random", "html", "base64",
  "zlib", "binascii", "copy", "math", "collections.abc", "typing", "functools", "inspect"];

async function sample(dist, kind) {
  const runtime = join(dist, "static", "vendor", "pyodide");
  const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: runtime + "/" });
  pyodide.unpackArchive(new Uint8Array(readFileSync(join(dist, "py", "sources.zip"))), "zip",
    { extractDir: pyodide.FS.cwd() });
  const { modules } = JSON.parse(readFileSync(join(dist, "static", "snapshot", "snapshot.json")));
  return pyodide.runPython(`
import pathlib, sys, time
if ${kind === "source" ? "True" : "False"}:
    for cached in pathlib.Path.cwd().rglob("__pycache__/*.pyc"):
        cached.unlink()
sys.dont_write_bytecode = True
for name in ${JSON.stringify(STDLIB)}:
    __import__(name)
start = time.perf_counter()
for name in ${JSON.stringify(modules)}:
    __import__(name)
(time.perf_counter() - start) * 1000
`);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  if (mode === "--sample") {
    console.log(await sample(rest[0], rest[1]));
    return;
  }
  const here = fileURLToPath(import.meta.url);
  const dist = resolve(mode || join(here, "..", "..", "dist"));
  const rounds = Number(rest[0] || 7);
  const times = { source: [], bytecode: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ["bytecode", "source"] : ["source", "bytecode"];
    for (const kind of order) {
      const out = execFileSync(process.execPath, [here, "--sample", dist, kind], { encoding: "utf8" });
      times[kind].push(Number(out.trim().split("\n").pop()));
    }
  }
  for (const [kind, values] of Object.entries(times)) {
    const shown = values.map((value) => value.toFixed(0));
    console.log(`${kind.padEnd(9)} ${median(values).toFixed(0).padStart(6)} ms  (${shown.join(", ")})`);
  }
  console.log(`bytecode / source: ${(median(times.bytecode) / median(times.source)).toFixed(2)}×`);
}

await main();
