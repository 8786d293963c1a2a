// node compile.mjs RUNTIME ARCHIVE: rewrites the zip ARCHIVE with each module's bytecode beside it
// (compile.py), compiled by the Pyodide in the folder RUNTIME, so that its Python can use it.
import { readFileSync, writeFileSync } from "node:fs";
import { loadRuntime } from "./runtime.mjs";

const [runtime, archive] = process.argv.slice(2);
if (!runtime || !archive) {
  console.error("usage: node compile.mjs RUNTIME ARCHIVE");
  process.exit(2);
}
const pyodide = await loadRuntime(runtime);
pyodide.FS.writeFile("/tmp/sources.zip", readFileSync(archive));
const namespace = pyodide.toPy({});
pyodide.runPython(readFileSync(new URL("compile.py", import.meta.url), "utf8"), {
  globals: namespace,
});
namespace.get("main")("/tmp/sources.zip", "/tmp/compiled.zip");
writeFileSync(archive, pyodide.FS.readFile("/tmp/compiled.zip"));
