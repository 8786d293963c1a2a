// Every use of Pyodide's private hooks, in one place, fenced by the version they were written for.
//
// The snapshot rests on parts of Pyodide that are not its public API: loadPyodide's
// `_loadSnapshot` and `createPyodideModule` options, the module's `API.restoreSnapshot` and
// `HEAPU8`, the snapshot header's layout, and (making it, tools/snapshot/make_snapshot.mjs)
// `_makeSnapshot`, `_sysExecutable` and `pyodide._module`'s malloc. Any of them may change in
// any release. So each is used only here, and only with the Pyodide that build.py vendored:
// build.py writes package-lock.json's pin into PINNED below (write_pinned_pyodide). With any
// other runtime, or an unbuilt copy of this file, hooksFit() throws an Unfit error: the loader
// warns in the console and boots the normal way, and make_snapshot.mjs makes no snapshot.

import { leading, spread } from "./snapshot-pages.mjs";

// build.py replaces this line (write_pinned_pyodide): keep it one line.
const PINNED = null;

// Why the hooks cannot be used with this runtime: the loader warns, not just notes, for these.
export class Unfit extends Error {}

// Throws Unfit unless `version` (pyodide.mjs's own) is the one the hooks were written for.
export function hooksFit(version) {
  if (PINNED === null) throw new Unfit("its Pyodide hooks have no pinned version (an unbuilt copy)");
  if (version !== PINNED) {
    throw new Unfit(`its Pyodide hooks are for Pyodide ${PINNED}, this runtime is ${version}`);
  }
}

// loadPyodide's options that start the runtime from `snapshot` (a promise of
// snapshot-pages.mjs's place()): `_loadSnapshot` is only the snapshot's header, and the memory
// is sized by `createPyodideModule`, the runtime's own factory from `runtime` (as Pyodide would
// import it), whose module's restore spreads the pages after the header. Nothing of the snapshot
// is held once it is restored. (Exported for tests/e2e/test_startup.py.)
export function restoring(snapshot, runtime) {
  const factory = import(`${runtime}pyodide.asm.mjs`);
  factory.catch(() => {}); // awaited below, if the snapshot comes; no unhandled rejection meanwhile
  let pending = snapshot;
  return {
    _loadSnapshot: snapshot.then(header),
    async createPyodideModule(settings) {
      const [{ default: create }, placed] = await Promise.all([factory, pending]);
      pending = null;
      settings.INITIAL_MEMORY = placed.size; // as Pyodide sizes it from a whole snapshot
      const module = await create(settings);
      const restore = module.API?.restoreSnapshot;
      if (typeof restore !== "function") throw new Unfit("this runtime restores no snapshot");
      module.API.restoreSnapshot = (head) => {
        module.API.restoreSnapshot = restore;
        const state = restore(head); // checks the header; copies what follows it: nothing
        spread(module.HEAPU8, placed, head.length);
        return state;
      };
      return module;
    },
  };
}

// The snapshot's header, before its memory: from its magic number and the memory's offset,
// Pyodide's layout (a u32 each); it lies in the first run of pages.
function header(placed) {
  const start = leading(placed, 8);
  const at = start ? new DataView(start.buffer).getUint32(4, true) : -1;
  const head = at >= 8 && at % 4 === 0 ? leading(placed, at) : null;
  if (!head) throw new Error("the snapshot's pages do not start with its header");
  return head;
}

// loadPyodide's options for a runtime that will make a snapshot (under Node): a program name as
// in a browser (Node would otherwise name the script, in os.environ["_"]).
export const MAKING_SNAPSHOT = { _makeSnapshot: true, _sysExecutable: "./this.program" };

// Fill every free malloc chunk of the runtime's memory with zeros: what earlier objects left
// there is never read again, and zeros compress (the gzip file shrinks by about a sixth). Memory
// may not grow meanwhile, so malloc fails instead of growing and the snapshot keeps its size.
export function zeroFreeMemory(pyodide) {
  const module = pyodide._module;
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = () => {
    throw new RangeError("no growth while zeroing free memory");
  };
  const held = [];
  try {
    for (let size = 1 << 20; size >= 16; ) {
      const pointer = module._malloc(size);
      if (pointer === 0) {
        size >>= 1;
      } else {
        module.HEAPU8.fill(0, pointer, pointer + size);
        held.push(pointer);
      }
    }
  } finally {
    held.forEach((pointer) => module._free(pointer));
    WebAssembly.Memory.prototype.grow = grow;
  }
}
