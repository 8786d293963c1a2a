"""The built site boots in Chromium from its own vendored runtime, with the right MIME types."""

from __future__ import annotations

import fnmatch
import json
import re
import zipfile
from pathlib import Path
from urllib.request import urlopen

import pytest

import build

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def page_requests(module_contexts, app_url, boot):
    """Every response of a first visit with service workers off: what the page itself asks for."""
    context = module_contexts(service_workers="block")
    responses, errors = [], []
    context.on("response", lambda response: responses.append(response))
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    boot(page, app_url)
    return {"responses": responses, "errors": errors, "base": app_url}


def vendored(dist, folder):
    return {p.name for p in (dist / "static" / "vendor" / folder).iterdir()}


def requested(page_requests, folder):
    prefix = f"{page_requests['base']}static/vendor/{folder}/"
    return {r.url[len(prefix):] for r in page_requests["responses"] if r.url.startswith(prefix)}


def test_the_page_boots_without_errors_or_missing_files(page_requests):
    assert [r.url for r in page_requests["responses"] if r.status >= 400] == []
    assert page_requests["errors"] == []


def test_exactly_the_requested_pyodide_files_are_vendored(page_requests, dist):
    assert requested(page_requests, "pyodide") == vendored(dist, "pyodide")


def test_exactly_the_requested_pyscript_files_are_vendored(page_requests, dist):
    # toml-*.js load only with a TOML config; the brief vendors them anyway.
    unused = {name for name in vendored(dist, "pyscript") if fnmatch.fnmatch(name, "toml-*.js")}
    assert requested(page_requests, "pyscript") == vendored(dist, "pyscript") - unused


@pytest.mark.parametrize(("path", "kind"), [
    ("static/vendor/pyodide/pyodide.mjs", "text/javascript"),
    ("static/vendor/pyodide/pyodide.asm.wasm", "application/wasm"),
    ("static/vendor/pyscript/core.js", "text/javascript"),
    ("static/vendor/pyscript/core.css", "text/css"),
    ("manifest.webmanifest", "application/manifest+json"),
    ("pyscript.json", "application/json"),
    ("sw.js", "text/javascript"),
])
def test_served_with_the_type_the_browser_needs(app_url, path, kind):
    with urlopen(app_url + path) as response:
        assert response.headers.get_content_type() == kind


def test_the_loader_knows_the_revisions_the_worker_caches_the_runtime_under(dist):
    loader = (dist / build.RUNTIME_DOWNLOADS).read_text(encoding="utf-8")
    revisions = json.loads(re.search(r"^const REVISIONS = (\{.*\});$", loader, re.M).group(1))
    _, precache = build.read_precache(dist)
    cached = {url.rsplit("/", 1)[-1]: digest for url, digest in precache
              if url.startswith("./static/vendor/pyodide/")}
    assert revisions == {name: cached[name] for name in build.READ_FROM_CACHE}
    assert "pyodide.asm.wasm" not in revisions  # asked of the worker, which keeps its code


def test_the_loader_unpacks_every_python_file_but_the_entry_into_the_working_dir(dist):
    config = json.loads((dist / "pyscript.json").read_text(encoding="utf-8"))
    assert config == {"interpreter": build.SNAPSHOT_LOADER}  # no "files": the loader's own
    loader = (dist / build.SNAPSHOT_LOADER).read_text(encoding="utf-8")
    named = re.search(r'const SOURCES = new URL\("([^"]+)", import.meta.url\);', loader).group(1)
    assert (dist / build.SNAPSHOT_LOADER).parent.joinpath(named).resolve() == \
        (dist / build.PY_ARCHIVE).resolve()
    sources = {p.relative_to(ROOT / "py").as_posix(): p.read_bytes()
               for package in ("skillcheck", "app") for p in (ROOT / "py" / package).rglob("*.py")
               if "__pycache__" not in p.parts}
    with zipfile.ZipFile(dist / "py/sources.zip") as archive:
        assert {name: archive.read(name) for name in archive.namelist()
                if not name.endswith(".pyc")} == sources  # bytecode: tests/e2e/test_bytecode.py
    assert (dist / build.PY_ENTRY).read_bytes() == (ROOT / build.PY_ENTRY).read_bytes()
    shipped = [p.relative_to(dist).as_posix() for p in (dist / "py").rglob("*.py")]
    assert shipped == [build.PY_ENTRY]
    assert (dist / config["interpreter"]).is_file()
