"""tools/bytecode/compile.py under CPython: the archive keeps its sources and gains bytecode that
Python uses without looking at the sources' timestamps (the browser's unpacking resets them)."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tools.bytecode.compile import with_bytecode

SOURCES = {"pkg/__init__.py": b"", "pkg/answer.py": b'"""A module."""\nVALUE = 42\n',
           "pkg/data.txt": b"not Python"}


def archive(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as packed:
        for name, body in files.items():
            packed.writestr(zipfile.ZipInfo(name), body)
    return out.getvalue()


def test_each_module_gets_its_bytecode_and_every_file_stays():
    with zipfile.ZipFile(io.BytesIO(with_bytecode(archive(SOURCES)))) as packed:
        names = packed.namelist()
        assert {name: packed.read(name) for name in SOURCES} == SOURCES
    pycs = [importlib.util.cache_from_source(name) for name in SOURCES if name.endswith(".py")]
    assert sorted(names) == sorted([*SOURCES, *pycs])


def test_the_same_sources_give_the_same_bytes():
    assert with_bytecode(archive(SOURCES)) == with_bytecode(archive(SOURCES))


def test_the_bytecode_is_used_whatever_the_sources_timestamps(tmp_path: Path):
    """Unchecked-hash .pyc (PEP 552): an import neither compares nor recompiles. The source is
    changed after unpacking, so a module that says 42 can only have come from the bytecode."""
    with zipfile.ZipFile(io.BytesIO(with_bytecode(archive(SOURCES)))) as packed:
        packed.extractall(tmp_path)
        flags = int.from_bytes(packed.read(importlib.util.cache_from_source(
            "pkg/answer.py"))[4:8], "little")
    assert flags == 0b01  # hash-based, check_source off
    source = tmp_path / "pkg" / "answer.py"
    source.write_bytes(b"VALUE = 0\n")
    os.utime(source, (2_000_000_000, 2_000_000_000))
    found = subprocess.run([sys.executable, "-c", "import pkg.answer; print(pkg.answer.VALUE)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "42"
