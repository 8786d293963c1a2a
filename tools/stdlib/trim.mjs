// Repacks DIST's python_stdlib.zip with only what the page can import (trim.py):
//   node trim.mjs DIST REPORT
// Boots the runtime vendored in DIST under Node, unpacks the app's archive with the runtime's own
// unpackArchive as PyScript does, imports the app's browser-free modules as the snapshot maker
// does, and hands trim.py what the interpreter imported meanwhile, the app's sources and the
// runtime's JavaScript. Writes REPORT (JSON: sizes, the modules kept, those shipped as bytecode,
// those seen imported) and prints its sizes.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRuntime } from "../bytecode/runtime.mjs";

const [dist, report] = process.argv.slice(2);
if (!dist || !report) {
  console.error("usage: node trim.mjs DIST REPORT");
  process.exit(2);
}
const runtime = join(dist, "static", "vendor", "pyodide");
const stdlibPath = join(runtime, "python_stdlib.zip");
const pyodide = await loadRuntime(runtime, { _sysExecutable: "./this.program" });

const tools = new URL("../", import.meta.url);
for (const file of ["snapshot/preload.py", "stdlib/trim.py", "bytecode/compile.py"]) {
  pyodide.FS.mkdirTree("/tmp/trim/tools/" + file.split("/")[0]);
  pyodide.FS.writeFile("/tmp/trim/tools/" + file, readFileSync(new URL(file, tools)));
}
const { files = {} } = JSON.parse(readFileSync(join(dist, "pyscript.json"), "utf8"));
const app = "/tmp/trim/app";
pyodide.FS.mkdirTree(app);
for (const [from, to] of Object.entries(files)) {
  if (!to.endsWith("/*")) throw new Error(`trim.mjs: ${from} → ${to}: only archives are handled`);
  pyodide.unpackArchive(new Uint8Array(readFileSync(join(dist, from))), "zip", { extractDir: app });
}
pyodide.FS.writeFile(app + "/main.py", readFileSync(join(dist, "py", "main.py"))); // the entry

const scripts = [
  ...readdirSync(join(dist, "static", "vendor", "pyscript")).filter((n) => n.endsWith(".js"))
    .map((n) => join(dist, "static", "vendor", "pyscript", n)),
  join(runtime, "pyodide.mjs"), join(runtime, "pyodide.asm.mjs"),
].map((path) => readFileSync(path, "utf8"));

const namespace = pyodide.toPy({ scripts, stdlib: new Uint8Array(readFileSync(stdlibPath)) });
pyodide.runPython(`
import os, sys
from pathlib import Path
sys.path[:0] = ["/tmp/trim", "${app}"]
from tools.snapshot.preload import pure_modules

os.chdir("${app}")
sources = {p.as_posix(): p.read_bytes() for p in Path(".").rglob("*.py")}
for name in pure_modules({path: body.decode() for path, body in sources.items()}):
    __import__(name)
observed = sorted(sys.modules)
frozen = [name for name, module in sys.modules.items()
          if getattr(getattr(module, "__spec__", None), "origin", None) == "frozen"]
from tools.stdlib.trim import trim
trimmed, kept, compiled = trim(bytes(stdlib), sources, list(scripts), observed, frozen)
`, { globals: namespace });
const trimmed = namespace.get("trimmed").toJs();
const sizes = { bytes_before: readFileSync(stdlibPath).length, bytes: trimmed.length };
const kept = namespace.get("kept").toJs();
const compiled = namespace.get("compiled").toJs();
writeFileSync(stdlibPath, trimmed);
writeFileSync(report, JSON.stringify({
  ...sizes, kept, compiled, observed: namespace.get("observed").toJs(),
}, null, 1));
console.log(JSON.stringify({ ...sizes, modules: kept.length, bytecode: compiled.length }));
