"""PyScript's own Python package, as PyScript writes it at every start, so that its bytecode can
ship in the app's archive.

Before the page's script runs, PyScript (core-*.js) writes the `pyscript` package into the working
directory as source, and the page imports it from there: 30 KB compiled on every start (about
25 ms; 75–110 ms with a phone's 4× slower CPU), in every engine and on either boot path. The build
compiles exactly those sources (tools/bytecode/compile.mjs) and ships only their unchecked-hash
`pyscript/__pycache__/NAME.TAG.pyc`: the archive is unpacked into the same directory before
PyScript writes its files, which leave the cache in place. Standard library only.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

PACKAGE = "pyscript"
# In the bundle the package is an object literal: {pyscript:{"__init__.py":"...",...}}, each
# source a JSON string.
OPENING = "{" + PACKAGE + ":{"
SOURCE = re.compile(r'"([A-Za-z_]\w*\.py)":("(?:[^"\\]|\\.)*")')


def sources(bundle: str) -> dict[str, str]:
    """{file name: source} of the package `bundle` writes; {} when it holds none in this form (a
    PyScript release laid out otherwise): the page then compiles it, as before."""
    start = bundle.find(OPENING)
    if start < 0:
        return {}
    found, at = {}, start + len(OPENING)
    while (match := SOURCE.match(bundle, at)) is not None:
        try:
            found[match[1]] = json.loads(match[2])
        except json.JSONDecodeError:
            return {}
        at = match.end()
        if bundle[at:at + 1] != ",":
            break
        at += 1
    return found if bundle[at:at + 2] == "}}" and "__init__.py" in found else {}


def sources_in(vendored: Path) -> dict[str, str]:
    """The package as the vendored PyScript (its core-*.js chunks) writes it."""
    for chunk in sorted(vendored.glob("core-*.js")):
        if found := sources(chunk.read_text(encoding="utf-8")):
            return found
    return {}


def with_sources(archive: bytes, package: dict[str, str]) -> bytes:
    """`archive` with the package's sources added, to be compiled with the app's."""
    return _rewrite(archive, add={f"{PACKAGE}/{name}": source.encode()
                                  for name, source in sorted(package.items())})


def without_sources(archive: bytes, package: dict[str, str]) -> bytes:
    """`archive` without the package's sources again (PyScript writes them): its bytecode stays."""
    return _rewrite(archive, drop={f"{PACKAGE}/{name}" for name in package})


def _rewrite(archive: bytes, add: dict[str, bytes] | None = None,
             drop: set[str] = frozenset()) -> bytes:
    """The same bytes for the same input: fixed dates and modes, and every file compressed as
    build.write_archive does (a ZipInfo read back carries no level: zlib's default, not 9)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(archive)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if info.filename not in drop:
                target.writestr(info, source.read(info), compresslevel=9)
        for name, body in (add or {}).items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, body, compresslevel=9)
    return out.getvalue()
