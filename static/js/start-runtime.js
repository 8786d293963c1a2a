// Starts the Python runtime from the top of the page's head, as soon as this arrives, not once
// PyScript's core has loaded and asks for it, several requests later: the snapshot's read or the
// runtime's downloads, and its start, then overlap the page's parse and PyScript's own start.
// An async classic script that imports the loader, before the style sheets (asked for among the
// page's first files): an async module ran only near the end of the parse in Chromium, and a
// parser-blocking script made a player's next visit (a browser started again) slower
// (docs/performance.md). build.py puts it there, with modulepreload links for what the loader
// imports, only when pyscript.json's interpreter is the loader.
import("./pyodide-snapshot.mjs")
  .then((loader) => loader.startRuntime())
  .catch(() => {}); // PyScript imports the loader too, and shows why if it cannot
