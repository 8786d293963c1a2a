// The start-up snapshot as its pages that are not zeros (tools/snapshot/make_snapshot.mjs,
// withoutZeroPages), read from a stream and restored into the runtime's memory.
//
// Pyodide, given the whole snapshot (31.5 MB, 19 of them zeros), copies all of it into the wasm
// memory and keeps it among its options for as long as the page is open: 31.5 MB held for
// nothing (the page's JavaScript heap after a start: 44.7 MB with it, 13.3 without).
// Here the runtime gets the snapshot's header alone (pyodide-hooks.mjs, restoring: the private
// hooks this takes are fenced there), and its restore copies the 12.8 MB of pages with spread()
// while Pyodide's restore still checks the header (its build, its magic number) and reads the
// state. The memory between the pages is read and cleared where the runtime's instantiation left
// something other than zeros, so it ends as Pyodide's copy would leave it. As fast as that copy (reading memory never touched costs about
// what writing it does: docs/performance.md).

import { chunks } from "./runtime-downloads.mjs";

// The snapshot from a stream of its pages: the number of runs of them and each run's (offset,
// length), in order, then the pages, all read as they arrive. Every run must lie inside the
// snapshot, after the one before it, and the stream must be exactly the manifest's pages_bytes
// long. { runs: [[offset, length], …], pages, size: the snapshot's bytes with its zeros }, where
// `pages` are the stream's own chunks, in order: gathered into one buffer first, the 12.8 MB
// were copied twice and held twice (docs/performance.md). (Exported for tests/e2e/test_startup.py.)
export async function place(stream, name, entry) {
  const input = exactly(stream, entry.pages_bytes, name);
  const count = new DataView((await input.read(4)).buffer).getUint32(0, true);
  if (4 + count * 8 > entry.pages_bytes) throw new Error(`${name}: no table of its pages`);
  const table = new DataView((await input.read(count * 8)).buffer);
  const runs = [];
  let end = 0;
  let total = 0;
  for (let run = 0; run < count; run++) {
    const offset = table.getUint32(run * 8, true);
    const length = table.getUint32(run * 8 + 4, true);
    if (offset < end || offset + length > entry.raw_bytes) {
      throw new Error(`${name}: pages out of place`);
    }
    runs.push([offset, length]);
    end = offset + length;
    total += length;
  }
  if (4 + count * 8 + total !== entry.pages_bytes) {
    throw new Error(`${name}: its table does not account for its pages`);
  }
  const pages = await input.parts(total);
  await input.end();
  return { runs, pages, size: entry.raw_bytes };
}

// The snapshot's first `length` bytes, if its first run of pages holds them; else null.
export function leading({ runs, pages }, length) {
  if (!runs.length || runs[0][0] !== 0 || runs[0][1] < length) return null;
  return reader(pages).take(new Uint8Array(length));
}

// The pages into `memory`, the snapshot's first `skip` bytes (its header) left out, and zeros
// between them: what the memory holds there already is read, and cleared if it is not zeros.
// (Exported for tests/e2e/test_startup.py.)
export function spread(memory, { runs, pages, size }, skip) {
  const source = reader(pages);
  let end = skip;
  for (const [offset, length] of runs) {
    zeros(memory, end - skip, offset - skip);
    const start = Math.max(offset, skip);
    const kept = Math.max(0, offset + length - start);
    source.take(null, length - kept); // the header's bytes
    source.take(memory.subarray(start - skip, start - skip + kept));
    end = Math.max(end, offset + length);
  }
  zeros(memory, end - skip, size - skip);
}

// Bytes taken in order from `parts` (Uint8Arrays): take(target) fills target and returns it;
// take(null, length) passes over `length` bytes.
function reader(parts) {
  let index = 0;
  let at = 0;
  return {
    take(target, length = target.length) {
      for (let filled = 0; filled < length;) {
        const part = parts[index];
        const step = Math.min(part.length - at, length - filled);
        target?.set(part.subarray(at, at + step), filled);
        filled += step;
        at += step;
        if (at === part.length) [index, at] = [index + 1, 0];
      }
      return target;
    },
  };
}

// memory[start:stop] as zeros, written only if it is not: read four bytes at a time, except at
// unaligned ends.
function zeros(memory, start, stop) {
  if (stop <= start) return;
  const first = Math.min(stop, Math.ceil((memory.byteOffset + start) / 4) * 4 - memory.byteOffset);
  const last = Math.max(first, Math.floor((memory.byteOffset + stop) / 4) * 4 - memory.byteOffset);
  const words = new Uint32Array(memory.buffer, memory.byteOffset + first, (last - first) / 4);
  const clear = memory.subarray(start, first).some((byte) => byte)
    || memory.subarray(last, stop).some((byte) => byte) || !allZero(words);
  if (clear) memory.fill(0, start, stop);
}

function allZero(words) {
  for (let i = 0; i < words.length; i++) if (words[i] !== 0) return false;
  return true;
}

// A stream read in exact amounts, which must come to `size` bytes in all, no more, no fewer: each
// amount as the parts of the stream's chunks that hold it (views: nothing copied), or copied into
// one array (read). Not through a BYOB reader, though Chromium's and Firefox's bodies offer one
// that reads straight into the pages (16 ms against 28 to place them): in Chromium 156 a body from
// Cache Storage read that way sometimes never came (5 starts in 164, each soon after the service
// worker installed; none in 400 read from chunks; docs/performance.md).
function exactly(stream, size, name) {
  const source = chunks(stream);
  let chunk = new Uint8Array(0);
  let taken = 0;
  const short = () => new Error(`${name}: not ${size} bytes`);
  async function parts(length) {
    if (taken + length > size) throw short();
    const found = [];
    for (let filled = 0; filled < length;) {
      if (!chunk.length) {
        const next = await source.next();
        if (next.done) throw short();
        chunk = next.value;
      }
      const part = chunk.subarray(0, length - filled);
      found.push(part);
      filled += part.length;
      chunk = chunk.subarray(part.length);
    }
    taken += length;
    return found;
  }
  return {
    parts,
    read: async (length) => reader(await parts(length)).take(new Uint8Array(length)),
    async end() {
      if (taken !== size || chunk.length || !(await source.next()).done) throw short();
    },
  };
}
