"""Imports the app's pure modules inside Pyodide before its memory snapshot is taken.

Runs in the Node-hosted Pyodide of make_snapshot.mjs. A module is pure when neither it nor any
app module it imports (anywhere in its body) imports the browser: `js`, `pyodide`, `pyscript`.
Such imports would freeze references to Node's objects into the snapshot; pure modules freeze
only their own code and data, so the page starts with them already imported.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path, PurePosixPath

BROWSER = frozenset({"js", "pyodide", "pyscript", "polyscript", "_pyodide", "micropip"})


def module_name(path: str) -> str | None:
    """Dotted name of a module file: app/forms.py → app.forms, pkg/__init__.py → pkg."""
    parts = PurePosixPath(path).parts
    if not parts or not parts[-1].endswith(".py"):
        return None
    parts = (*parts[:-1], parts[-1][:-3])
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or None


def imported_names(source: str, name: str, is_package: bool) -> set[str]:
    """Every module name the source imports (absolute, relative ones resolved), and its parents."""
    return names_imported_by(ast.walk(ast.parse(source)), name, is_package)


def names_imported_by(nodes, name: str, is_package: bool) -> set[str]:
    """Every module name the import statements among `nodes` (of module `name`) import, and
    its parents."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(filter(None, [*anchor, base]))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {".".join(n.split(".")[: i + 1]) for n in found for i in range(n.count(".") + 1)}


def pure_modules(sources: dict[str, str]) -> list[str]:
    """Names of the modules (given as {path: source}) that are safe to import before a snapshot."""
    graph = {}
    for path, source in sources.items():
        name = module_name(path)
        if name and not name.endswith("__main__"):
            graph[name] = imported_names(source, name, path.endswith("__init__.py"))
    impure = {name for name, deps in graph.items() if deps & BROWSER}
    changed = True
    while changed:
        changed = False
        for name, deps in graph.items():
            if name not in impure and deps & impure:
                impure.add(name)
                changed = True
    return sorted(set(graph) - impure)


def preload(paths: list[str]) -> list[str]:
    """Import the pure modules among the files at `paths` (relative to the working directory)."""
    sources = {p: Path(p).read_text(encoding="utf-8") for p in paths if p.endswith(".py")}
    names = pure_modules(sources)
    for name in names:
        importlib.import_module(name)
    return names
