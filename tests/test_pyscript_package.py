"""tools/bytecode/pyscript_package.py: PyScript's own package found in its bundle, its sources
added to the app's archive for compiling and taken out again, its bytecode used once PyScript has
written the sources over it."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import io
import json
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from test_bytecode_tool import archive

import build
from tools.bytecode import pyscript_package
from tools.bytecode.compile import with_bytecode

PACKAGE = {"__init__.py": 'from pyscript.util import x\nNAME = "a \\"quoted\\" }} name"\n',
           "util.py": "x = '\\\\'\n"}


def bundle(package: dict[str, str], before: str = "wo(\".\",", after: str = ")") -> str:
    body = ",".join(f"{json.dumps(name)}:{json.dumps(source)}" for name, source in package.items())
    return f"const a=1;{before}{{pyscript:{{{body}}}}}{after};const b=2;"


def test_the_package_is_read_from_the_bundle_as_it_writes_it():
    assert pyscript_package.sources(bundle(PACKAGE)) == PACKAGE


@pytest.mark.parametrize("text", [
    "no package here",
    bundle({"util.py": "x = 1\n"}),  # no __init__.py: not the package PyScript writes
    bundle(PACKAGE).replace('"util.py":', '"util.py" :'),  # laid out otherwise
    bundle(PACKAGE).replace("\\\\", "\\x"),  # not JSON strings
])
def test_a_bundle_laid_out_otherwise_gives_nothing_to_compile(text):
    assert pyscript_package.sources(text) == {}


@pytest.mark.vendored
def test_the_vendored_pyscript_writes_its_package_and_the_build_finds_it():
    vendored = build.ROOT / "static" / "vendor" / "pyscript"
    if not vendored.is_dir():
        pytest.fail("the runtime is not vendored here: run python3 build.py vendor")
    found = pyscript_package.sources_in(vendored)
    assert {"__init__.py", "web.py", "events.py", "ffi.py"} <= set(found)
    assert "from pyscript." in found["__init__.py"]


def test_the_sources_go_in_for_compiling_and_come_out_again():
    app = archive({"app/a.py": b"A = 1\n"})
    added = pyscript_package.with_sources(app, PACKAGE)
    with zipfile.ZipFile(io.BytesIO(added)) as packed:
        assert packed.namelist() == ["app/a.py", "pyscript/__init__.py", "pyscript/util.py"]
        assert packed.read("pyscript/util.py").decode() == PACKAGE["util.py"]
    compiled = with_bytecode(added)
    kept = pyscript_package.without_sources(compiled, PACKAGE)
    with zipfile.ZipFile(io.BytesIO(kept)) as packed:
        names = packed.namelist()
    assert "app/a.py" in names and not {"pyscript/__init__.py", "pyscript/util.py"} & set(names)
    assert {importlib.util.cache_from_source(f"pyscript/{name}") for name in PACKAGE} <= set(names)
    assert pyscript_package.with_sources(app, PACKAGE) == added  # the same bytes every build


def test_python_imports_the_bytecode_after_pyscript_writes_the_sources(tmp_path: Path,
                                                                       monkeypatch):
    """As in the page: the archive is unpacked, then PyScript writes the package's sources."""
    shipped = pyscript_package.without_sources(
        with_bytecode(pyscript_package.with_sources(archive({}), PACKAGE)), PACKAGE)
    zipfile.ZipFile(io.BytesIO(shipped)).extractall(tmp_path)
    for name, source in PACKAGE.items():
        (tmp_path / "pyscript" / name).write_text(source.replace("}} name", "}} source"))
    compiled = []
    original = importlib.machinery.SourceFileLoader.source_to_code
    monkeypatch.setattr(importlib.machinery.SourceFileLoader, "source_to_code",
                        lambda self, *args, **kwargs: compiled.append(args[1])
                        or original(self, *args, **kwargs))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "pyscript", raising=False)
    module = importlib.import_module("pyscript")
    try:
        assert module.NAME == 'a "quoted" }} name' and module.x == "\\"  # the bytecode's own
        assert compiled == []
    finally:
        for name in [name for name in sys.modules if name.split(".")[0] == "pyscript"]:
            del sys.modules[name]


def test_the_rewritten_archive_is_compressed_as_tightly_as_the_build_writes_it():
    body = (build.ROOT / "build.py").read_bytes()  # real source: zlib's levels 6 and 9 differ
    loose = io.BytesIO()
    with zipfile.ZipFile(loose, "w") as packed:
        packed.writestr(zipfile.ZipInfo("app/a.py"), body, zipfile.ZIP_DEFLATED, compresslevel=1)
    tight = zlib.compressobj(9, zlib.DEFLATED, -15)
    expected = len(tight.compress(body) + tight.flush())
    kept = pyscript_package.without_sources(loose.getvalue(), PACKAGE)
    with zipfile.ZipFile(io.BytesIO(kept)) as packed:
        assert packed.getinfo("app/a.py").compress_size == expected
        assert packed.read("app/a.py") == body
