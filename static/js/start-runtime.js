// Starts the Python runtime as soon as the parser reaches this, near the top of the page's head,
// not once PyScript's core has loaded and asks for it, several requests later: the snapshot's
// read or the runtime's downloads, and its start, then overlap the page's parse and PyScript's
// own start. A classic script that imports the loader, not a module script: in Chromium an async
// module runs only near the end of the parse, which takes 100–200 ms here (more on a phone), and
// a classic script after the style sheets would wait for them (docs/performance.md). build.py
// puts it before the style sheets, with modulepreload links for what the loader imports, only
// when pyscript.json's interpreter is the loader.
import("./pyodide-snapshot.mjs")
  .then((loader) => loader.startRuntime())
  .catch(() => {}); // PyScript imports the loader too, and shows why if it cannot
