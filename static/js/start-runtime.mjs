// Starts the Python runtime while the page is still being parsed, not once PyScript's core has
// loaded and asks for it: the snapshot's read or the runtime's downloads, and its start, then
// overlap the parse and PyScript's own start. build.py puts this in the page's head, with
// modulepreload links for what it imports, only when pyscript.json's interpreter is the loader.
import { startRuntime } from "./pyodide-snapshot.mjs";

startRuntime();
