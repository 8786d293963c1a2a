"""The build ships a trimmed standard library: every module the app's sources import is in it,
it is much smaller than Pyodide's, modules nothing imports are not, and everything that counts
or caches the runtime's files follows the trimmed file. (The suite's other browser tests boot
and roll on this very build, from the snapshot and the normal way.)"""

from __future__ import annotations

import ast
import re
import zipfile
from pathlib import Path

import build
from tools.snapshot.preload import imported_names, module_name
from tools.stdlib import trim

ROOT = Path(__file__).resolve().parents[2]


def modules(path: Path) -> set[str]:
    with zipfile.ZipFile(path) as packed:
        return set(trim.module_paths(packed.namelist()))


def app_imports() -> set[str]:
    """Every module any of the app's sources imports, anywhere in it (functions, try blocks)."""
    found = set()
    for path in sorted((ROOT / "py").rglob("*.py")):
        relative = path.relative_to(ROOT / "py").as_posix()
        name = module_name(relative)
        source = path.read_text(encoding="utf-8")
        found |= imported_names(source, name, relative.endswith("__init__.py"))
        for node in ast.walk(ast.parse(source)):  # importlib.import_module("...") too
            if (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                    and getattr(node.func, "attr", getattr(node.func, "id", "")) in
                    trim.IMPORT_CALLS):
                found.add(node.args[0].value)
    return found


def test_every_standard_module_the_app_imports_is_shipped(dist):
    whole = modules(ROOT / build.STDLIB)
    needed = app_imports() & whole
    assert {"fractions", "random", "json", "dataclasses"} <= needed  # the analysis sees the app
    assert needed - modules(dist / build.STDLIB) == set()


def test_the_shipped_library_is_much_smaller_and_leaves_out_what_nothing_imports(dist):
    shipped = modules(dist / build.STDLIB)
    assert (dist / build.STDLIB).stat().st_size < 0.6 * (ROOT / build.STDLIB).stat().st_size
    assert {"asyncio", "zipfile", "encodings.utf_8", "encodings.cp437", "pyodide.code"} <= shipped
    for absent in ("pydoc", "unittest", "multiprocessing", "xmlrpc.client", "tkinter",
                   "encodings.cp1252", "_pyrepl.main", "wsgiref"):
        assert absent not in shipped
    assert "pydoc" in modules(ROOT / build.STDLIB)  # the vendored copy stays whole


def test_the_download_bar_and_the_precache_follow_the_trimmed_file(dist):
    size = sum((dist / "static" / "vendor" / "pyodide" / name).stat().st_size
               for name in build.COUNTED_DOWNLOADS)
    page = (dist / "index.html").read_text(encoding="utf-8")
    assert re.search(rf'data-runtime-bytes="{size}"', page)
    _, entries = build.read_precache(dist)
    digest = build._digest((dist / build.STDLIB).read_bytes())
    assert [f"./{build.STDLIB}", digest] in entries
