"""The loader's unpacker for the app's archive (static/js/python-sources.mjs), run under CPython.

The page runs the same Python inside Pyodide, on the archive's bytes. It must write exactly what
the archive holds, and refuse (so that the page falls back to Pyodide's unpackArchive) whatever
it does not read, before it writes anything."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

import build
from tools.bytecode import pyscript_package

SCRIPT = build.ROOT / "static" / "js" / "python-sources.mjs"


class JsBytes:
    """What the page hands the unpacker: a JS Uint8Array, as Pyodide proxies it."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def to_bytes(self) -> bytes:
        return self.data


@pytest.fixture
def unpack(tmp_path, monkeypatch):
    """The unpacker as the page defines it, run in an empty working directory."""
    source = re.search(r"const UNPACK = `(.*?)`;", SCRIPT.read_text(encoding="utf-8"), re.S)
    code = source.group(1).replace("\\\\", "\\")  # the JS template literal's escapes
    namespace: dict = {}
    exec(compile(code, str(SCRIPT), "exec"), namespace)  # noqa: S102 - our own file
    monkeypatch.chdir(tmp_path)
    return lambda data: namespace["unpack"](JsBytes(data))


def tree(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()}


def archive(files: dict[str, bytes], method=zipfile.ZIP_DEFLATED, comment=b"") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as packed:
        for name, data in files.items():
            packed.writestr(name, data)
        packed.comment = comment
    return buffer.getvalue()


FILES = {"app/__init__.py": b"", "app/ui/dom.py": b"X = 1\n" * 500,
         "app/ui/__pycache__/dom.cpython-314.pyc": bytes(range(256)) * 8,
         "skillcheck/draw.py": "# é\n".encode()}


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_it_writes_exactly_what_the_archive_holds(unpack, tmp_path, method):
    unpack(archive(FILES, method))
    assert tree(tmp_path) == FILES


def test_it_reads_the_archives_the_build_writes(unpack, tmp_path, monkeypatch):
    sources = tmp_path / "src"
    for name, data in FILES.items():
        (sources / name).parent.mkdir(parents=True, exist_ok=True)
        (sources / name).write_bytes(data)
    target = tmp_path / "sources.zip"
    build.write_archive(target, sorted(sources.rglob("*.py")), sources)
    rewritten = pyscript_package.with_sources(target.read_bytes(), {"web.py": "w = 1\n"})
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    unpack(rewritten)
    assert tree(out) == {**{n: d for n, d in FILES.items() if n.endswith(".py")},
                         "pyscript/web.py": b"w = 1\n"}


@pytest.mark.parametrize(("data", "reason"), [
    (archive(FILES, comment=b"a comment"), "no end record"),
    (archive(FILES, zipfile.ZIP_BZIP2), "not an entry this reads"),
    (archive({"../outside.py": b"x"}), "not an entry this reads"),
    (archive({"/etc/outside.py": b"x"}), "not an entry this reads"),
    (b"PK" + bytes(30), "no end record"),
    (b"", "no end record"),
])
def test_what_it_does_not_read_it_refuses_before_writing_anything(unpack, tmp_path, data, reason):
    with pytest.raises(ValueError, match=reason):
        unpack(data)
    assert tree(tmp_path) == {}


def test_an_entry_of_the_wrong_size_is_refused(unpack):
    data = bytearray(archive({"a.py": b"abc"}, zipfile.ZIP_STORED))
    central = data.rindex(b"PK\x01\x02")
    data[central + 24] = 4  # the size the central directory gives: 4, not 3
    with pytest.raises(ValueError, match="not 4 bytes"):
        unpack(bytes(data))


def test_the_bytecode_of_a_module_already_imported_is_not_written(unpack, tmp_path):
    """After a start from the snapshot, the modules it holds are imported already."""
    held = {"json/__init__.py": b"", "json/__pycache__/__init__.cpython-314.pyc": b"json",
            "json/__pycache__/decoder.cpython-314.pyc": b"decoder"}  # both imported here
    new = {"fresh/__pycache__/__init__.cpython-314.pyc": b"fresh",
           "fresh/__pycache__/json.cpython-314.pyc": b"not the json package"}
    unpack(archive({**held, **new}))
    assert tree(tmp_path) == {"json/__init__.py": b"", **new}
