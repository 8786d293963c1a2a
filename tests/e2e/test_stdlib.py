"""The build ships a trimmed standard library: every module the app's sources import is in it,
it is much smaller than Pyodide's, modules nothing imports are not, those a page's start imports
come as bytecode (a normal boot compiles none of them), and everything that counts or caches the
runtime's files follows the trimmed file. (The suite's other browser tests boot and roll on this
very build, from the snapshot and the normal way.)"""

from __future__ import annotations

import ast
import json
import re
import zipfile
from pathlib import Path

from test_trust import run_python

import build
from tools.snapshot.preload import imported_names, module_name
from tools.stdlib import trim

ROOT = Path(__file__).resolve().parents[2]
# As in WebKit (every iPhone): no stack switching, so the page boots the normal way.
NO_STACK_SWITCHING = "delete WebAssembly.Suspending;"
# Every module imported so far from the standard library's zip, by the kind of file it came from.
IMPORTED_FROM_THE_ZIP = f"""
import json, sys
found = {{".py": [], ".pyc": []}}
for name, module in list(sys.modules.items()):
    path = getattr(module, "__file__", None) or ""
    spec = getattr(module, "__spec__", None)
    frozen = getattr(spec, "origin", None) == "frozen"  # in the interpreter itself
    if path.startswith({trim.MOUNTED_AT!r}) and not frozen:
        found[path[path.rindex("."):]].append(name)
json.dumps(found)
"""


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
    # Less than 0.6× as sources alone; the bytecode of what a start imports is about twice its
    # source's size.
    assert (dist / build.STDLIB).stat().st_size < 0.75 * (ROOT / build.STDLIB).stat().st_size
    assert len(shipped) < 0.5 * len(modules(ROOT / build.STDLIB))
    assert {"asyncio", "zipfile", "encodings.utf_8", "encodings.cp437", "pyodide.code"} <= shipped
    for absent in ("pydoc", "unittest", "multiprocessing", "xmlrpc.client", "tkinter",
                   "encodings.cp1252", "_pyrepl.main", "wsgiref"):
        assert absent not in shipped
    assert "pydoc" in modules(ROOT / build.STDLIB)  # the vendored copy stays whole


def test_the_download_bar_and_the_precache_follow_the_trimmed_file(dist):
    size = sum((dist / "static" / "vendor" / "pyodide" / name).stat().st_size
               for name in build.counted_downloads(dist))
    page = (dist / "index.html").read_text(encoding="utf-8")
    assert re.search(rf'data-runtime-bytes="{size}"', page)
    _, entries = build.read_precache(dist)
    digest = build._digest((dist / build.STDLIB).read_bytes())
    assert [f"./{build.STDLIB}", digest] in entries


def test_a_normal_boot_compiles_no_standard_module(fresh_context, app_url, boot):
    """Pyodide's own start, PyScript's and the app's imports all come from bytecode: compiling
    them was most of a normal boot's Python work (docs/performance.md)."""
    fresh_context.add_init_script(NO_STACK_SWITCHING)
    page = boot(fresh_context.new_page(), app_url)
    assert page.evaluate("document.documentElement.dataset.boot") == "normal"
    imported = json.loads(run_python(page, IMPORTED_FROM_THE_ZIP))
    assert {"asyncio", "json", "fractions", "pyodide.ffi"} <= set(imported[".pyc"])
    assert imported[".py"] == []
