// Makes the Pyodide memory snapshot the page boots from: node make_snapshot.mjs DIST
//
// Loads the runtime vendored in DIST (the very files the browser will load, so the snapshot's
// build id matches), writes the app's Python files where PyScript will put them, imports the
// pure ones (preload.py), and writes DIST/static/snapshot/pyodide.snapshot.gz with snapshot.json
// beside it (SHA-256 of the gzip file, runtime version, imported modules). Pyodide's private
// hooks it takes are DIST's static/js/pyodide-hooks.mjs's: with a runtime other than the pinned
// one it stops, saying so. Needs Node 24 or newer: snapshots made by Node 20 break run_sync in
// the browser.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const MIN_NODE = 24;

function fail(message) {
  console.error(`make_snapshot: ${message}`);
  process.exit(1);
}

// The [files] of pyscript.json as [source path in DIST, destination under the working dir]; a
// destination ending in "/*" is a folder to unpack an archive into, as PyScript does.
function appFiles(dist) {
  const { files = {} } = JSON.parse(readFileSync(join(dist, "pyscript.json"), "utf8"));
  return Object.entries(files).map(([from, to]) => {
    if (to.endsWith("/*")) return [join(dist, from), to];
    const target = to.endsWith("/") ? to + posix.basename(from) : to;
    return [join(dist, from), posix.normalize(target)];
  });
}

// Put the app's files where PyScript will, archives unpacked by the runtime's own unpackArchive
// (so the modules that unpacking imports are in the snapshot, ready for the page's own). Returns
// the paths written, relative to the working directory.
function writeAppFiles(pyodide, dist) {
  const home = pyodide.FS.cwd();
  const paths = [];
  for (const [source, target] of appFiles(dist)) {
    if (target.endsWith("/*")) {
      const folder = posix.resolve(home, target.slice(0, -1));
      const format = source.slice(source.lastIndexOf(".") + 1);
      pyodide.unpackArchive(new Uint8Array(readFileSync(source)), format, { extractDir: folder });
      paths.push(...listFiles(pyodide.FS, folder, home));
    } else {
      const path = posix.resolve(home, target);
      pyodide.FS.mkdirTree(posix.dirname(path));
      pyodide.FS.writeFile(path, readFileSync(source));
      paths.push(target);
    }
  }
  return paths;
}

function listFiles(fs, folder, home) {
  return fs.readdir(folder).filter((name) => name !== "." && name !== "..").flatMap((name) => {
    const path = posix.join(folder, name);
    return fs.isDir(fs.stat(path).mode) ? listFiles(fs, path, home) : [posix.relative(home, path)];
  });
}

// The snapshot without its 4 KB pages of zeros: most of the runtime's memory is heap it never
// touched, or freed and zeroed (below), and 19 of its 31.5 MB are such pages. First the number of
// runs of the other pages, then one (offset, length) pair of byte counts per run, then the pages
// in order, all u32 little-endian. A page unpacks 12.8 MB instead of 31.5 on its main thread, the
// service worker keeps that much, and the loader (static/js/pyodide-snapshot.mjs, place) copies
// each run into its place in zeros as it arrives: the table comes first so that it can.
const PAGE = 4096;

function withoutZeroPages(raw) {
  const zeros = Buffer.alloc(PAGE);
  const pages = [];
  const runs = [];
  for (let offset = 0; offset < raw.length; offset += PAGE) {
    const length = Math.min(PAGE, raw.length - offset);
    const page = Buffer.from(raw.buffer, raw.byteOffset + offset, length);
    if (page.equals(zeros.subarray(0, page.length))) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === offset) last[1] += page.length;
    else runs.push([offset, page.length]);
    pages.push(page);
  }
  const table = Buffer.alloc(4 + runs.length * 8);
  table.writeUInt32LE(runs.length, 0);
  runs.forEach(([start, length], run) => {
    table.writeUInt32LE(start, 4 + run * 8);
    table.writeUInt32LE(length, 8 + run * 8);
  });
  return Buffer.concat([table, ...pages]);
}

async function main() {
  const [dist] = process.argv.slice(2);
  if (!dist) fail("usage: node make_snapshot.mjs DIST");
  const major = Number(process.versions.node.split(".")[0]);
  if (major < MIN_NODE) fail(`needs Node ${MIN_NODE}+, this is ${process.versions.node}`);

  const runtime = join(dist, "static", "vendor", "pyodide");
  const { loadPyodide, version } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
  // Pyodide's private hooks, as the built page takes them, for the pinned Pyodide only.
  const hooks = join(dist, "static", "js", "pyodide-hooks.mjs");
  const { hooksFit, MAKING_SNAPSHOT, zeroFreeMemory } = await import(pathToFileURL(hooks).href);
  hooksFit(version);
  const pyodide = await loadPyodide({ indexURL: runtime + "/", ...MAKING_SNAPSHOT });

  const paths = writeAppFiles(pyodide, dist);
  const preload = readFileSync(new URL("preload.py", import.meta.url), "utf8");
  const namespace = pyodide.toPy({});
  pyodide.runPython(preload, { globals: namespace });
  const modules = namespace.get("preload")(pyodide.toPy(paths)).toJs();

  zeroFreeMemory(pyodide);
  const raw = pyodide.makeMemorySnapshot();
  const pages = withoutZeroPages(raw);
  const packed = gzipSync(pages, { level: 9 });
  const out = join(dist, "static", "snapshot");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "pyodide.snapshot.gz"), packed);
  const entry = {
    file: "pyodide.snapshot.gz",
    // Where the service worker keeps it unpacked (sw-template.js): a URL no server has.
    unpacked: "pyodide.snapshot.pages",
    sha256: createHash("sha256").update(packed).digest("hex"),
    pyodide: version,
    bytes: packed.length,
    pages_bytes: pages.length, // unpacked: the pages that are not zeros, and where they go
    raw_bytes: raw.length, // the snapshot itself, once its pages are back in place
    modules,
  };
  writeFileSync(join(out, "snapshot.json"), JSON.stringify(entry, null, 2) + "\n");
  console.log(JSON.stringify({ ...entry, modules: modules.length }));
}

main().catch((error) => fail(error.stack || String(error)));
