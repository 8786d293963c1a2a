// The app's Python (py/sources.zip: its modules beside their bytecode, and the bytecode of
// PyScript's own package), fetched as the page starts and unpacked into the runtime's working
// directory before PyScript gets the runtime.
//
// pyscript.json's "files" would do the same once the runtime is up: one request later, and
// through Pyodide's unpackArchive (a temporary file, shutil and zipfile), 35–50 ms of the main
// thread at every start. UNPACK below reads build.py's own archives (stored or deflated
// entries, no zip64, no comment) in 15–30 ms, and leaves out the bytecode of modules imported
// already (those the snapshot holds); anything else it leaves to unpackArchive. Not in
// JavaScript: a DecompressionStream per entry took about 100 ms for the archive's 92 entries.

const UNPACK = `
def unpack(buffer):
    import os, struct, sys, zlib
    data = buffer.to_bytes()
    end = len(data) - 22
    if end < 0 or data[end:end + 4] != b"PK\\x05\\x06":
        raise ValueError("no end record where build.py writes it")
    count, start = struct.unpack_from("<H4xI", data, end + 10)
    entries, folders = [], set()
    for _ in range(count):
        (flags, method, packed, size, name_length, extra_length, comment_length,
         local) = struct.unpack_from("<8xHH8xIIHHH8xI", data, start)
        name = data[start + 46:start + 46 + name_length].decode()
        start += 46 + name_length + extra_length + comment_length
        if flags & 1 or method not in (0, 8) or name.startswith("/") or ".." in name.split("/"):
            raise ValueError(f"{name}: not an entry this reads")
        skip = sum(struct.unpack_from("<HH", data, local + 26))
        entries.append((name, method, size, local + 30 + skip, packed))
        folders.add(os.path.dirname(name))
    for folder in folders - {""}:
        os.makedirs(folder, exist_ok=True)
    for name, method, size, at, packed in entries:
        folder, cached, file = name.rpartition("/__pycache__/")
        module = ".".join([*folder.split("/"), file.split(".")[0]]).removesuffix(".__init__")
        if cached and module in sys.modules:
            continue  # imported already (the snapshot holds it): its bytecode is never read
        body = data[at:at + packed]
        if method:
            body = zlib.decompress(body, -15)
        if len(body) != size:
            raise ValueError(f"{name}: not {size} bytes")
        if not name.endswith("/"):
            with open(name, "wb") as file:
                file.write(body)
unpack
`;

// The archive's bytes.
export async function fetchSources(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// Unpacked under the runtime's working directory, where the app imports them from.
export function writeSources(pyodide, bytes) {
  const unpack = pyodide.runPython(UNPACK);
  try {
    unpack(bytes);
  } catch (error) {
    const why = error.message.trim().split("\n").pop(); // a Python traceback's last line
    console.info(`Skill Check: the runtime unpacks the sources (${why}).`);
    pyodide.unpackArchive(bytes, "zip", { extractDir: "." });
  } finally {
    unpack.destroy();
  }
}
