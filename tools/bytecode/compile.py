"""The app's archive again, each module followed by its bytecode, compiled by the runtime itself.

A normal boot (no snapshot: every iPhone, and any start that falls back) would otherwise compile
every app module from its source as it imports it, most of the app's import time under Pyodide
(docs/performance.md). The files are unchecked-hash .pyc (PEP 552): Python uses them without
comparing the source's timestamp, which unpacking the archive in the browser sets anew. Run by
compile.mjs inside the vendored Pyodide, so the bytecode is that Python's; importable under
CPython for the tests.
"""

from __future__ import annotations

import importlib.util
import io
import py_compile
import tempfile
import zipfile
from pathlib import Path


def with_bytecode(archive: bytes) -> bytes:
    """`archive` with __pycache__/NAME.TAG.pyc after each NAME.py, the same for the same input."""
    out = io.BytesIO()
    with (zipfile.ZipFile(io.BytesIO(archive)) as source,
          zipfile.ZipFile(out, "w", compresslevel=9) as target,
          tempfile.TemporaryDirectory() as work):
        for info in source.infolist():
            body = source.read(info)
            target.writestr(info, body)
            if info.filename.endswith(".py"):
                cached = zipfile.ZipInfo(importlib.util.cache_from_source(info.filename),
                                         date_time=info.date_time)
                cached.compress_type, cached.external_attr = info.compress_type, info.external_attr
                target.writestr(cached, compiled(body, info.filename, Path(work)))
    return out.getvalue()


def compiled(source: bytes, name: str, work: Path, optimize: int = -1) -> bytes:
    """Unchecked-hash bytecode of `source`, its tracebacks naming `name`; `optimize` as
    compile()'s (2: as `python -OO`, without docstrings and asserts)."""
    path, pyc = work / "module.py", work / "module.pyc"
    path.write_bytes(source)
    py_compile.compile(str(path), cfile=str(pyc), dfile=name, doraise=True, optimize=optimize,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    return pyc.read_bytes()


def main(source: str, target: str) -> None:
    Path(target).write_bytes(with_bytecode(Path(source).read_bytes()))
