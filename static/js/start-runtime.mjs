// Starts the Python runtime as soon as the browser runs this (Chromium: near the end of the
// parse), not once PyScript's core has loaded and asks for it, several requests later: the
// snapshot's read or the runtime's downloads, and its start, then overlap PyScript's own.
// build.py puts this in the page's head, with modulepreload links for what it imports, only
// when pyscript.json's interpreter is the loader.
import { startRuntime } from "./pyodide-snapshot.mjs";

startRuntime();
