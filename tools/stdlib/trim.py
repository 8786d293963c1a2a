"""Repacks Pyodide's standard library with only the modules the page can import.

`python_stdlib.zip` holds the source of every standard-library module, a fifth of a first visit's
bytes; the app and the runtime import a small part of it. What is kept is the closure, over the
zip's own modules, of every import any kept module makes anywhere (in functions and `try` blocks
too, `importlib.import_module("...")` literals, and codecs named by a string literal, which
`codecs.lookup` imports as `encodings.<name>`), starting from:

- the app's Python sources (its archive and entry script);
- every import statement in the runtime's JavaScript (PyScript ships its own Python package and
  snippets inside its bundle; Pyodide runs snippets from its loader);
- the modules of Pyodide's own Python packages that its JavaScript names (`"pyodide.code"`);
- what the interpreter really imported in trim.mjs (start-up, unpacking the app's archive, the
  app's browser-free modules): modules C code imports by a computed name, such as the codecs of
  the file system and standard streams;
- KEEP, for what neither can see.

DROP names the few modules kept modules import only in functions the page never runs (help(),
process pools); the closure does not enter them.

The modules a page's start imports (those the interpreter was seen to import, the runtime's
JavaScript's, and what their module level imports in turn) are shipped as bytecode alone, as
`python -OO` compiles it: every normal boot (every iPhone) otherwise compiles them from source,
which is most of the runtime's own start (docs/performance.md). The rest stay source: they are
rarely imported, and their bytecode would be about 1.2× the download (without column positions,
tools/bytecode/runtime.mjs).

Run by trim.mjs inside the vendored Pyodide, whose Python parses the library's sources and
compiles its bytecode (the build machine's Python may be older than the runtime's); importable
under CPython for the tests.
"""

from __future__ import annotations

import ast
import io
import re
import tempfile
import zipfile
from functools import partial
from pathlib import Path, PurePosixPath

from tools.bytecode.compile import compiled
from tools.snapshot.preload import imported_names, module_name, names_imported_by

# What the analysis cannot see, each with the reason it is kept.
KEEP = {
    "_sysconfigdata__emscripten_wasm32-emscripten":
        "sysconfig imports it by a name made from sys.platform and the machine at run time",
    "encodings.utf_8_sig": "tokenize names it in a return value, for a source with a byte order "
                           "mark (tracebacks read source lines through it)",
    **dict.fromkeys(
        [f"encodings.utf_{bits}{order}" for bits in (16, 32) for order in ("", "_le", "_be")],
        "json.loads of bytes picks the codec by the byte order (json.detect_encoding returns "
        "its name)"),
    "encodings.latin_1": "the codec of bytes read as text when nothing else fits; tiny",
}

# Modules the closure does not enter, although kept modules import them in functions the page
# never runs, each with the reason. Importing one raises ImportError; the build fails if the
# app, the runtime's JavaScript or the interpreter at start imports one directly.
DROP = {
    "pydoc": "help() and the documentation server: _sitebuiltins imports it inside help(), "
             "for an interactive console; it brings the terminal REPL, http.server and email",
    "multiprocessing": "no processes under Emscripten (os.fork and _multiprocessing are missing)",
    "_pyrepl": "the terminal REPL: site imports it in sys.__interactivehook__, which only an "
               "interactive interpreter runs",
    "urllib.request": "opening URLs over sockets, which the browser has not (pyodide.http fetches "
                      "through JavaScript); pathlib imports it only in Path.as_uri/from_uri",
    "concurrent.futures.process": "ProcessPoolExecutor, imported lazily by concurrent.futures: "
                                  "no processes under Emscripten",
}

# An import statement inside JavaScript text (after its "\n" escapes are undone): at a line's
# start or after a quote, `;` or `>` (a snippet in a string), whatever the indentation.
JS_PYTHON_IMPORT = re.compile(
    r"""(?:^|[;"'`>])[ \t]*"""
    r"""(?:from[ \t]+([\w.]+)[ \t]+import[ \t(]+([\w ,]+)|import[ \t]+([\w., ]+))""", re.M)
# Pyodide's JavaScript calls into its own Python packages by quoted name ("pyodide.code").
RUNTIME_MODULE_NAME = re.compile(r"""["'`](_?pyodide(?:\.\w+)*)["'`]""")
IMPORT_CALLS = frozenset({"import_module", "__import__"})
# Where Pyodide 314 puts the library on sys.path: the bytecode's tracebacks name the same files
# as the source's would (tests/e2e/test_stdlib.py finds no bytecode if a new runtime moves it).
MOUNTED_AT = "/lib/python314.zip/"


def module_paths(names: list[str]) -> dict[str, str]:
    """{dotted module name: path in the zip} for every module file among the zip's names, source
    or bytecode."""
    modules = {}
    for path in names:
        name = module_name(source_path(path))
        if name:
            modules[name] = path
    return modules


def source_path(path: str) -> str:
    """The source file a shipped module's bytecode stands for (NAME.pyc → NAME.py); any other
    path as it is."""
    return path.removesuffix("c") if path.endswith(".pyc") else path


def codec_modules(universe: dict[str, str]) -> dict[str, str]:
    """{normalized codec name or alias: encodings module} for the codecs the zip holds."""
    from encodings.aliases import aliases

    codecs = {name.rpartition(".")[2]: name for name in universe
              if name.startswith("encodings.") and name.count(".") == 1}
    codecs.update({alias: codecs[target] for alias, target in aliases.items() if target in codecs})
    return codecs


def normalized(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", text.lower()).strip("_")


def source_imports(source: str | bytes, name: str, is_package: bool,
                   codecs: dict[str, str]) -> set[str]:
    """Modules a source may import when imported itself: its import statements, literal
    import_module/__import__ calls, and the codecs named by a string in a call's arguments
    (`data.decode(name or "cp437")`; tables of names, such as the aliases', are not calls)."""
    tree = ast.parse(source)
    package = name if is_package else name.rpartition(".")[0]
    nodes = list(_run_as_module(tree))
    found = names_imported_by(nodes, name, is_package)
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        called = function.attr if isinstance(function, ast.Attribute) else getattr(
            function, "id", None)
        first = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
        if called in IMPORT_CALLS and isinstance(first, str) and first[:2] != "..":
            found |= _with_parents(package + first if first[:1] == "." else first)
        for argument in (*node.args, *(keyword.value for keyword in node.keywords)):
            for text in _strings(argument):
                if normalized(text) in codecs:
                    found |= _with_parents(codecs[normalized(text)])
    return found


def module_level_imports(source: str | bytes, name: str, is_package: bool) -> set[str]:
    """Modules importing the source imports at once: its import statements outside functions
    (class bodies run) and outside `if __name__ == "__main__":`."""
    tree = ast.parse(source)
    nodes, pending = [], [top for top in tree.body
                          if not (isinstance(top, ast.If) and _is_main_test(top.test))]
    while pending:
        node = pending.pop()
        nodes.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return names_imported_by(nodes, name, is_package)


def _strings(expression: ast.expr):
    """The string constants an argument can evaluate to: itself, or the branches of an `or`,
    `and` or `if`-expression."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        yield expression.value
    elif isinstance(expression, ast.BoolOp):
        for value in expression.values:
            yield from _strings(value)
    elif isinstance(expression, ast.IfExp):
        yield from _strings(expression.body)
        yield from _strings(expression.orelse)


def _run_as_module(tree: ast.Module):
    """The nodes of a module that can run when it is imported: not its `if __name__ ==
    "__main__":` blocks, nor the functions only they call (a command-line `main`, its helpers)."""
    skipped = {id(node) for node in tree.body
               if isinstance(node, ast.If) and _is_main_test(node.test)}
    functions = {node.name: node for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    changed = bool(skipped)
    while changed:
        used = {node.id for top in tree.body if id(top) not in skipped
                for node in ast.walk(top) if isinstance(node, ast.Name)}
        used |= {node.attr for top in tree.body if id(top) not in skipped
                 for node in ast.walk(top) if isinstance(node, ast.Attribute)}
        unused = {id(node) for name, node in functions.items()
                  if name not in used and id(node) not in skipped and _called_from_skipped(
                      name, tree, skipped)}
        skipped |= unused
        changed = bool(unused)
    for top in tree.body:
        if id(top) not in skipped:
            yield from ast.walk(top)


def _called_from_skipped(name: str, tree: ast.Module, skipped: set[int]) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name
               for top in tree.body if id(top) in skipped for node in ast.walk(top))


def _is_main_test(test: ast.expr) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and len(test.comparators) == 1
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def script_imports(text: str) -> set[str]:
    """Module names in the import statements of Python snippets inside JavaScript text."""
    found = set()
    for match in JS_PYTHON_IMPORT.finditer(text.replace("\\n", "\n").replace("\\t", "\t")):
        base, names, plain = match.groups()
        if base:
            found.add(base)
            found.update(f"{base}.{part.strip()}" for part in names.split(",") if part.strip())
        else:
            found.update(part.split()[0] for part in plain.split(",") if part.split())
    return {parent for name in found for parent in _with_parents(name)}


def _with_parents(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[: i + 1]) for i in range(len(parts))}


class TrimError(Exception):
    """The page would import a module DROP leaves out."""


def dropped(name: str) -> bool:
    return any(name == drop or name.startswith(drop + ".") for drop in DROP)


def closure(read, universe: dict[str, str], roots: set[str], imports=None) -> set[str]:
    """Every module of `universe` reachable from `roots` through `imports(source, name,
    is_package)` of reached modules (by default source_imports: every import they may make),
    except DROP's; `read(path)` gives a module's source."""
    imports = imports or partial(source_imports, codecs=codec_modules(universe))
    named = sorted(name for name in roots & universe.keys() if dropped(name))
    if named:
        raise TrimError(f"imported directly, but listed in DROP: {', '.join(named)}")
    kept, pending = set(), sorted(roots & universe.keys())
    while pending:
        name = pending.pop()
        if name in kept or dropped(name):
            continue
        kept.add(name)
        path = universe[name]
        found = imports(read(path), name, path.endswith("__init__.py"))
        pending.extend(sorted((found & universe.keys()) - kept))
    return kept


def roots(app_sources: dict[str, bytes], scripts: list[str], observed: list[str],
          universe: dict[str, str]) -> set[str]:
    """Where the closure starts: the app's imports, the runtime's, Pyodide's own packages, what
    the interpreter was seen to import, and KEEP."""
    found = set(observed) | set(KEEP)
    for path, source in app_sources.items():
        name = module_name(path)
        if name:
            found |= imported_names(source, name, path.endswith("__init__.py"))
    for text in scripts:
        found |= script_imports(text) | {
            name for name in RUNTIME_MODULE_NAME.findall(text) if name in universe}
    return found


def started(read, universe: dict[str, str], app_sources: dict[str, bytes], scripts: list[str],
            observed: list[str]) -> set[str]:
    """The modules a page's start imports: what the interpreter was seen to import, the runtime
    JavaScript's imports, the app's module-level ones, and their module-level imports."""
    found = set(observed)
    for path, source in app_sources.items():
        name = module_name(path)
        if name:
            found |= module_level_imports(source, name, path.endswith("__init__.py"))
    for text in scripts:
        found |= script_imports(text)
    return closure(read, universe, found, imports=module_level_imports)


def repack(stdlib: bytes, kept: set[str], as_bytecode: set[str] = frozenset()) -> bytes:
    """`stdlib` with only the kept modules' files (those `as_bytecode` names as NAME.pyc instead
    of NAME.py), their packages' data files and the folders that hold them; entries in the same
    order, the same bytes for the same input."""
    out = io.BytesIO()
    with (zipfile.ZipFile(io.BytesIO(stdlib)) as source,
          zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target,
          tempfile.TemporaryDirectory() as work):
        universe = module_paths(source.namelist())
        for info in source.infolist():
            name = module_name(info.filename)
            if name is None:  # a folder or data file: kept with the package it belongs to
                folder = PurePosixPath(info.filename.rstrip("/") if info.is_dir()
                                       else info.filename).parent
                package = ".".join(PurePosixPath(info.filename.rstrip("/")).parts
                                   if info.is_dir() else folder.parts)
                keep = package in kept or package.split(".")[0] not in universe
            else:
                keep = name in kept
            if not keep:
                continue
            body = source.read(info)
            if name in as_bytecode:
                body = compiled(body, MOUNTED_AT + info.filename, Path(work), optimize=2)
                info = zipfile.ZipInfo(info.filename + "c", date_time=info.date_time)
            target.writestr(info, body, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return out.getvalue()


def trim(stdlib: bytes, app_sources: dict[str, bytes], scripts: list[str],
         observed: list[str], frozen: list[str] = ()) -> tuple[bytes, list[str], list[str]]:
    """The repacked zip, the sorted names of the modules it keeps, and of those it ships as
    bytecode: the ones a page's start imports, but not those the interpreter holds `frozen`
    (their files only serve tracebacks)."""
    with zipfile.ZipFile(io.BytesIO(stdlib)) as source:
        universe = module_paths(source.namelist())
        kept = closure(source.read, universe, roots(app_sources, scripts, observed, universe))
        at_start = started(source.read, universe, app_sources, scripts, observed) & kept
        at_start -= set(frozen)
    return repack(stdlib, kept, at_start), sorted(kept), sorted(at_start)
