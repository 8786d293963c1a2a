"""The build ships each Python module's bytecode for the vendored runtime, and a normal boot (no
snapshot: every iPhone, and any start that falls back) imports the app from it without compiling.

A probe page beside the app boots the runtime the normal way on the app's own sources archive,
counts every module Python compiles from source while it imports the rules, the pure glue modules
and PyScript's `pyscript.web` (PyScript writes its package as source at every start; the archive
carries its bytecode), and lists them in <html data-compiled>; and which functions' bytecode keeps
column positions (tools/bytecode/runtime.mjs compiles without them) in <html data-columns>.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path, PurePosixPath

import pytest

import build
from tools.bytecode import pyscript_package

PROBE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>probe</title><link rel="icon" href="data:,">
<script type="module" src="static/vendor/pyscript/core.js"></script></head><body>
<script type="py" config="probe.json">
import importlib.machinery
import json

from pyscript import document

compiled = []
compile_source = importlib.machinery.SourceFileLoader.source_to_code


def counted(self, data, path, *args, **kwargs):
    compiled.append(path)
    return compile_source(self, data, path, *args, **kwargs)


importlib.machinery.SourceFileLoader.source_to_code = counted
import app.characters, app.forms, app.links, app.log_model, app.result_html  # noqa: E401
import pyscript.web
import skillcheck


def columns(function) -> bool:  # its bytecode keeps column positions (a traceback's ^^^)
    return any(start is not None for _, _, start, _ in function.__code__.co_positions())


root = document.documentElement
root.dataset.compiled = json.dumps(compiled)
root.dataset.columns = json.dumps([function.__qualname__ for function in (
    counted, skillcheck.odds, app.forms.request_from, json.dumps) if columns(function)])
root.dataset.rules = str(len(skillcheck.SYSTEMS))
root.dataset.ready = "true"
</script></body></html>
"""


def runtime_tag(dist: Path) -> str:
    """The vendored Python's tag in .pyc names: cpython-314 for Python 3.14."""
    lock = json.loads((dist / "static/vendor/pyodide/pyodide-lock.json").read_text("utf-8"))
    major, minor = lock["info"]["python"].split(".")[:2]
    return f"cpython-{major}{minor}"


@pytest.fixture(scope="module")
def compiled(dist: Path) -> bool:
    if build.snapshot_node() is None:
        pytest.skip("no Node 24+ here, so the build shipped the sources without bytecode")
    return True


def test_every_module_ships_with_unchecked_bytecode_for_the_runtime(compiled, dist: Path):
    """Named for the runtime's Python, one magic number (the probe below shows it is the
    runtime's: a wrong one would be compiled again), and never checked against the source."""
    tag = runtime_tag(dist)
    with zipfile.ZipFile(dist / build.PY_ARCHIVE) as archive:
        names = archive.namelist()
        pycs = {name: archive.read(name) for name in names if name.endswith(".pyc")}
    modules = [PurePosixPath(name) for name in names if name.endswith(".py")]
    assert len(modules) > 20
    package = pyscript_package.sources_in(dist / "static/vendor/pyscript")  # bytecode only
    assert len(package) > 10 and not {f"pyscript/{name}" for name in package} & set(names)
    modules += [PurePosixPath("pyscript", name) for name in package]
    assert set(pycs) == {f"{m.parent}/__pycache__/{m.stem}.{tag}.pyc" for m in modules}
    assert len({pyc[:4] for pyc in pycs.values()}) == 1
    assert {int.from_bytes(pyc[4:8], "little") for pyc in pycs.values()} == {0b01}


def test_a_normal_boot_imports_the_app_without_compiling_it(
        compiled, dist, tmp_path, serve_dist, fresh_context, boot):
    site = Path(shutil.copytree(dist, tmp_path / "site"))
    config = {"interpreter": build.INTERPRETER, "files": {build.PY_ARCHIVE: "./*"}}
    (site / "probe.json").write_text(json.dumps(config), encoding="utf-8")
    (site / "probe.html").write_text(PROBE, encoding="utf-8")
    page = boot(fresh_context.new_page(), serve_dist(site).url + "probe.html")
    assert int(page.evaluate("document.documentElement.dataset.rules")) >= 4
    assert json.loads(page.evaluate("document.documentElement.dataset.compiled")) == []
    # Bytecode without column positions, the app's and the library's (a fifth smaller
    # compressed); what the page compiles itself keeps them.
    assert json.loads(page.evaluate("document.documentElement.dataset.columns")) == ["counted"]
