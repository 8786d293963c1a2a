"""build.py without a browser: vendoring by glob, dist/ layout, precache list, server, icons."""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import urlopen

import pytest
from app import qr_html, scanned

import build
from tools import browsers, icons, page_macros

PAGE = """<!doctype html><html><head>
<link rel="manifest" href="manifest.webmanifest">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="static/vendor/pyscript/core.css">
<script type="module" src="static/vendor/pyscript/core.js"></script>
</head><body><a href="https://example.org/rules">a link, not a fetch</a>
<script type="py" src="py/main.py" config="pyscript.json"></script></body></html>"""


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.fixture
def src(tmp_path: Path) -> Path:
    """A small source tree with a (fake) vendored runtime."""
    root = tmp_path / "src"
    write(root / "index.html", PAGE)
    write(root / "manifest.webmanifest", "{}")
    write(root / build.SW_TEMPLATE, (build.ROOT / build.SW_TEMPLATE).read_text())
    write(root / "static/vendor/.stamp", "x")
    write(root / "static/vendor/pyscript/core.js", "export {};")
    write(root / "static/vendor/pyscript/core.css", "")
    write(root / "static/vendor/pyodide/pyodide.mjs", "export {};")
    write(root / build.QRCODE_MODULE, "export {};")
    write(root / build.JSQR_MODULE, "self.jsQR = () => null;")
    write(root / "static/.notes", "never shipped")
    write(root / "py/skillcheck/__init__.py", "RULES = 1\n")
    write(root / "py/skillcheck/__pycache__/__init__.cpython-311.pyc", b"\0")
    write(root / "py/main.py", "import skillcheck\n")
    write(root / "py/tools/other.py", "not part of the app\n")
    return root


def shipped(dist: Path) -> set[str]:
    return {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}


def test_build_ships_the_page_static_files_and_the_app_python_only(src, tmp_path):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    assert shipped(dist) == {
        "index.html", "manifest.webmanifest", "pyscript.json", "sw.js", "_headers",
        "static/vendor/pyscript/core.js", "static/vendor/pyscript/core.css",
        "static/vendor/pyodide/pyodide.mjs", build.QRCODE_MODULE, build.JSQR_MODULE,
        "py/sources.zip", "py/main.py", build.SYSTEMS_CSS}
    assert (dist / build.SYSTEMS_CSS).read_text() == page_macros.systems_css()
    config = json.loads((dist / "pyscript.json").read_text())
    assert config == {"interpreter": "static/vendor/pyodide/pyodide.mjs",
                      "files": {"py/sources.zip": "./*"}}
    with zipfile.ZipFile(dist / "py/sources.zip") as archive:
        assert archive.namelist() == ["skillcheck/__init__.py"]
        assert archive.read("skillcheck/__init__.py") == b"RULES = 1\n"


def test_precache_lists_every_file_with_its_sha256(src, tmp_path):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    version, entries = build.read_precache(dist)
    listed = dict(entries)
    assert set(listed) == {"./"} | {f"./{name}" for name in shipped(dist) - {"sw.js", "_headers"}}
    for url, digest in listed.items():
        path = dist / ("index.html" if url == "./" else url[2:])
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    assert len(version) == 16


def test_the_worker_keeps_unpacked_only_what_the_snapshot_manifest_names(src, tmp_path):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    assert build.unpacked_entries(dist) == []  # no snapshot: nothing to unpack
    assert 'const UNPACKED = [];' in (dist / "sw.js").read_text()
    manifest = {"file": "pyodide.snapshot.gz", "unpacked": "pyodide.snapshot", "raw_bytes": 8}
    write(dist / "static/snapshot/snapshot.json", json.dumps(manifest))
    assert build.unpacked_entries(dist) == [
        ["./static/snapshot/pyodide.snapshot.gz", "./static/snapshot/pyodide.snapshot"]]
    del manifest["unpacked"]  # a manifest from before: the page unpacks the file itself
    write(dist / "static/snapshot/snapshot.json", json.dumps(manifest))
    assert build.unpacked_entries(dist) == []


def test_a_worker_template_without_its_placeholders_fails_the_build(src, tmp_path):
    template = (src / build.SW_TEMPLATE).read_text()
    write(src / build.SW_TEMPLATE, template.replace('"__UNPACKED__"', "[]"))
    with pytest.raises(build.BuildError, match='lost its line const UNPACKED = "__UNPACKED__";'):
        build.build(src, tmp_path / "dist", snapshot=False)


def test_the_hooks_adapter_gets_the_pinned_pyodide_version(src, tmp_path):
    """One source for the version the private hooks are for: package-lock.json's pin."""
    hooks = (build.ROOT / build.PYODIDE_HOOKS).read_text()
    assert hooks.count(build.NO_PIN) == 1  # unbuilt, it fits no runtime
    write(src / build.PYODIDE_HOOKS, hooks)
    write(src / "package-lock.json", json.dumps(
        {"packages": {"node_modules/pyodide": {"version": "1.2.3"}}}))
    built = (build.build(src, tmp_path / "dist", snapshot=False) / build.PYODIDE_HOOKS).read_text()
    assert 'const PINNED = "1.2.3";' in built and build.NO_PIN not in built
    assert build.pinned_pyodide() == json.loads(
        (build.ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    write(src / build.PYODIDE_HOOKS, hooks.replace(build.NO_PIN, 'const PINNED = "9";'))
    with pytest.raises(build.BuildError, match="lost its line"):
        build.build(src, tmp_path / "again", snapshot=False)


def test_cache_version_changes_with_any_file_and_only_then(src, tmp_path):
    first, _ = build.read_precache(build.build(src, tmp_path / "a", snapshot=False))
    again, _ = build.read_precache(build.build(src, tmp_path / "b", snapshot=False))
    write(src / "py/skillcheck/__init__.py", "RULES = 2\n")
    changed, _ = build.read_precache(build.build(src, tmp_path / "c", snapshot=False))
    assert first == again != changed


def test_a_rebuild_replaces_dist_whole(src, tmp_path):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    write(dist / "left-over.txt", "from an older build")
    build.build(src, dist, snapshot=False)
    assert not (dist / "left-over.txt").exists()
    assert not dist.with_name("dist.partial").exists()


@pytest.mark.parametrize(("tag", "reason"), [
    ('<script src="/static/app.js"></script>', "not a relative URL"),
    ('<link rel="stylesheet" href="https://cdn.example/x.css">', "not a relative URL"),
    ('<link rel="stylesheet" href="//cdn.example/x.css">', "not a relative URL"),
    ('<img src="static/icons/missing.png">', "not in the build"),
    ('<script type="py" src="py/main.py" config="other.json"></script>', "not in the build"),
])
def test_page_urls_must_be_relative_and_built(src, tmp_path, tag, reason):
    write(src / "index.html", PAGE.replace("</body>", tag + "</body>"))
    with pytest.raises(build.BuildError, match=reason):
        build.build(src, tmp_path / "dist", snapshot=False)


@pytest.mark.parametrize(("module", "looked_up", "why"), [
    (build.QRCODE_MODULE, qr_html.LIBRARY, "to draw a QR code"),
    (build.JSQR_MODULE, scanned.READER, "to read a QR code"),
])
def test_the_libraries_the_app_imports_on_first_use_must_be_built(src, tmp_path, module,
                                                                  looked_up, why):
    assert looked_up == module  # where the page looks, vendor puts it
    (src / module).unlink()
    with pytest.raises(build.BuildError, match=f"imports {why}, is not in the build"):
        build.build(src, tmp_path / "dist", snapshot=False)


def test_build_says_what_is_missing(src, tmp_path):
    (src / "static/vendor/.stamp").unlink()
    with pytest.raises(build.BuildError, match="build.py vendor"):
        build.build(src, tmp_path / "dist", snapshot=False)
    (src / "index.html").unlink()
    with pytest.raises(build.BuildError, match="index.html is missing"):
        build.build(src, tmp_path / "dist", snapshot=False)


# --- vendor ----------------------------------------------------------------------------------

@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """A source tree whose node_modules npm ci already filled (fake packages, hashed names)."""
    root = tmp_path / "src"
    lock = write(root / "package-lock.json", '{"lockfileVersion": 3}')
    write(root / "node_modules/.skillcheck-lock", build._digest(lock.read_bytes()))
    dist = root / "node_modules/@pyscript/core/dist"
    write(dist / "core.js", 'export{a}from"./core-Ab12.js";')
    for name in ("core-Ab12.js", "error-X1.js", "deprecations-manager-Q.js", "donkey-D.js",
                 "py-editor-E.js", "py-game-G.js", "py-terminal-T.js", "toml-1.js", "toml-2.js"):
        write(dist / name, 'import{b}from"./core-Ab12.js";')
    for name in ("core.css", "core.js.map", "py-Zz.js", "codemirror-C.js", "service-worker.js"):
        write(dist / name, "")
    pyodide = root / "node_modules/pyodide"
    for name in build.PYODIDE_FILES:
        write(pyodide / name, name)
    write(pyodide / "pyodide-lock.json", json.dumps({"info": {"version": "1"},
                                                     "packages": {"numpy": {}}}))
    write(pyodide / "pyodide.js", "the classic script: unused")
    for name in ("qrcode.js", "qrcode.mjs", "qrcode_UTF8.mjs", "qrcode.d.ts"):
        write(root / "node_modules/qrcode-generator/dist" / name, name)
    for name in ("jsQR.js", "index.d.ts", "decoder/decoder.d.ts"):
        write(root / "node_modules/jsqr/dist" / name, name)
    return root


def test_vendor_copies_exactly_the_requested_runtime_files(installed):
    out = build.vendor(installed)
    assert sorted(p.name for p in (out / "pyscript").iterdir()) == [
        "core-Ab12.js", "core.css", "core.js", "deprecations-manager-Q.js", "donkey-D.js",
        "error-X1.js", "py-editor-E.js", "py-game-G.js", "py-terminal-T.js", "toml-1.js",
        "toml-2.js"]
    assert sorted(p.name for p in (out / "pyodide").iterdir()) == sorted(
        [*build.PYODIDE_FILES, "pyodide-lock.json"])
    assert [p.name for p in (out / "qrcode").iterdir()] == ["qrcode.mjs"]  # the ES module only
    assert [p.name for p in (out / "jsqr").iterdir()] == ["jsQR.js"]  # the bundle, no types
    lock = json.loads((out / "pyodide/pyodide-lock.json").read_text())
    assert lock == {"info": {"version": "1"}, "packages": {}}


def test_vendor_is_skipped_while_the_lock_is_unchanged(installed):
    out = build.vendor(installed)
    write(out / "pyscript/core.js", "kept")
    build.vendor(installed)
    assert (out / "pyscript/core.js").read_text() == "kept"


def test_vendor_refuses_a_chunk_it_would_leave_behind(installed):
    write(installed / "node_modules/@pyscript/core/dist/donkey-D.js", 'import"./new-chunk-N.js";')
    with pytest.raises(build.BuildError, match="new-chunk-N.js"):
        build.vendor(installed)


def test_vendor_names_a_file_a_package_no_longer_has(installed):
    (installed / "node_modules/qrcode-generator/dist/qrcode.mjs").unlink()
    with pytest.raises(build.BuildError, match="qrcode-generator/dist has no qrcode.mjs"):
        build.vendor(installed)


def test_vendor_names_a_pattern_that_no_longer_matches(installed):
    (installed / "node_modules/@pyscript/core/dist/py-game-G.js").unlink()
    with pytest.raises(build.BuildError, match="py-game-"):
        build.vendor(installed)


# --- serve -----------------------------------------------------------------------------------

@pytest.fixture
def site(src, tmp_path):
    return build.build(src, tmp_path / "dist", snapshot=False)


def fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urlopen(url) as response:
            return response.status, response.headers.get_content_type(), response.read()
    except HTTPError as error:
        return error.code, "", b""


def test_server_types_and_sub_path(site, tmp_path):
    write(site / "x.wasm", b"\0asm")
    write(site / "x.webmanifest", "{}")
    server = build.Server(site, prefix="/skillcheck/").start()
    try:
        base = server.url
        assert base.endswith("/skillcheck/")
        assert fetch(base + "static/vendor/pyodide/pyodide.mjs")[1] == "text/javascript"
        assert fetch(base + "x.wasm")[1] == "application/wasm"
        assert fetch(base + "x.webmanifest")[1] == "application/manifest+json"
        assert fetch(base)[2] == (site / "index.html").read_bytes()
        assert fetch(base[: -len("skillcheck/")] + "index.html")[0] == 404
        assert fetch(base[:-1])[2] == (site / "index.html").read_bytes()  # /skillcheck redirects
        other = write(tmp_path / "other/index.html", "another build")
        server.directory = other.parent
        assert fetch(base)[2] == b"another build"
    finally:
        server.close()


# --- icons -----------------------------------------------------------------------------------

def pixels(data: bytes) -> list[bytes]:
    """Rows of an unfiltered 8-bit RGBA PNG as written by tools/icons.png."""
    width, height = icons.png_size(data)
    idat = b"".join(data[i + 8:i + 8 + struct.unpack(">I", data[i:i + 4])[0]]
                    for i in _chunks(data) if data[i + 4:i + 8] == b"IDAT")
    raw = zlib.decompress(idat)
    stride = 1 + 4 * width
    assert len(raw) == stride * height
    return [raw[r * stride + 1:(r + 1) * stride] for r in range(height)]


def _chunks(data: bytes):
    at = 8
    while at < len(data):
        yield at
        at += 12 + struct.unpack(">I", data[at:at + 4])[0]


def test_png_round_trips():
    rows = [[(255, 0, 0, 255), (0, 255, 0, 128)], [(0, 0, 255, 0), (1, 2, 3, 4)]]
    data = icons.png(rows)
    assert icons.png_size(data) == (2, 2)
    assert pixels(data) == [bytes([255, 0, 0, 255, 0, 255, 0, 128]),
                            bytes([0, 0, 255, 0, 1, 2, 3, 4])]
    with pytest.raises(ValueError):
        icons.png_size(b"GIF89a" + data)


def test_committed_icons_are_what_build_py_draws():
    folder = icons.OUT
    for name, (size, _, _) in icons.ICONS.items():
        assert icons.png_size((folder / name).read_bytes()) == (size, size), name
    assert (folder / "apple-touch-icon.png").read_bytes() == icons.draw_icon(*icons.ICONS[
        "apple-touch-icon.png"])
    assert (folder / "icon.svg").read_text() == icons.svg_icon()


def test_icons_are_a_glyph_not_a_blank_square():
    rows = pixels((build.ROOT / "static/icons/icon-192.png").read_bytes())
    colours = {row[i:i + 4] for row in rows for i in range(0, len(row), 4)}
    assert bytes([0, 0, 0, 0]) in colours  # rounded corners are transparent
    for colour in (icons.THEME, icons.CARD, icons.SUIT, icons.DIE, icons.PIP):
        assert bytes([*colour, 255]) in colours


def test_maskable_icons_keep_the_glyph_in_the_safe_zone():
    rows = pixels((build.ROOT / "static/icons/maskable-192.png").read_bytes())
    theme = bytes([*icons.THEME, 255])
    for y, row in enumerate(rows):
        for x in range(192):
            if row[4 * x:4 * x + 4] != theme:  # anything drawn lies within 40% of the centre
                assert (x + 0.5 - 96) ** 2 + (y + 0.5 - 96) ** 2 <= (0.4 * 192) ** 2


# --- test ------------------------------------------------------------------------------------

def test_chromium_path_from_the_environment_comes_first(tmp_path, monkeypatch):
    chromium = write(tmp_path / "my-chromium", "#!/bin/sh\n")
    chromium.chmod(0o755)
    monkeypatch.setenv("CHROMIUM_PATH", str(chromium))
    assert browsers.find_chromium() == str(chromium)


def test_no_chromium_anywhere_is_reported_as_none(tmp_path, monkeypatch):
    monkeypatch.delenv("CHROMIUM_PATH", raising=False)
    monkeypatch.setattr(browsers, "CHROMIUM_PATHS", (str(tmp_path / "no-chromium"),))
    assert browsers.find_chromium(python="/bin/false") is None  # nor a Playwright to ask


def test_an_engine_from_the_environment_comes_first(tmp_path, monkeypatch):
    firefox = write(tmp_path / "my-firefox", "#!/bin/sh\n")
    firefox.chmod(0o755)
    monkeypatch.setenv("FIREFOX_PATH", str(firefox))
    assert browsers.find_engines()[0]["firefox"] == str(firefox)


def test_a_missing_engine_stops_the_test_run_with_the_line_that_installs_it(tmp_path, monkeypatch):
    for variable, _, _ in build.ENGINE_PROGRAMS.values():
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setitem(build.ENGINE_PROGRAMS, "xvfb",
                        ("XVFB", (str(tmp_path / "no-xvfb"),), "xvfb"))
    for step in ("ensure_venv", "vendor", "build"):
        monkeypatch.setattr(build, step, lambda *args, **kwargs: "python3")
    monkeypatch.setattr(build, "needs", lambda python, args: "browsers")
    monkeypatch.setattr(build, "find_chromium", lambda python: "/bin/true")
    ran = []
    monkeypatch.setattr(build.subprocess, "run", lambda *args, **kwargs: ran.append(args))
    with pytest.raises(build.BuildError, match=r"`apt-get install xvfb` \(or set XVFB\)"):
        build.test([])
    assert ran == []  # no pytest run that would skip the engine


@pytest.mark.parametrize(("needed", "steps"), [(None, []), ("vendor", ["vendor"])])
def test_a_run_without_browser_tests_needs_no_build_nor_browser(monkeypatch, needed, steps):
    monkeypatch.setattr(build, "ensure_venv", lambda: "venv-python")
    monkeypatch.setattr(build, "needs", lambda python, args: needed)
    done = []
    for step in ("vendor", "build", "find_chromium", "find_engines"):
        monkeypatch.setattr(build, step, lambda *args, step=step, **kwargs: (
            done.append(step) if step in steps else pytest.fail(step)))
    ran = []
    monkeypatch.setattr(build.subprocess, "run", lambda command, **kwargs: ran.append(command)
                        or subprocess.CompletedProcess(command, 0))
    assert build.test(["-m", "not e2e"]) == 0
    assert ran == [["venv-python", "-m", "pytest", "-m", "not e2e"]] and done == steps


@pytest.mark.parametrize(("args", "needed"), [
    ([], "browsers"), (["-m", "not e2e"], "vendor"), (["test_rules.py"], None),
    (["test_page.py"], "browsers"), (["test_qr.py"], "vendor"),
    (["-k", "no_such_test"], "browsers"),  # nothing collected: in doubt, everything
])
def test_what_a_run_needs_is_told_by_what_pytest_would_run(tmp_path, args, needed):
    write(tmp_path / "pytest.ini", "[pytest]\nmarkers =\n    e2e: a browser test\n"
          "    vendored: reads the vendored files\n")
    write(tmp_path / "test_rules.py", "def test_rule():\n    pass\n")
    write(tmp_path / "test_page.py",
          "import pytest\n\n@pytest.mark.e2e\ndef test_page():\n    pass\n")
    write(tmp_path / "test_qr.py",
          "import pytest\n\n@pytest.mark.vendored\ndef test_qr():\n    pass\n")
    assert build.needs(sys.executable, args, src=tmp_path) == needed


def launched(tmp_path, args: list[str], log: Path | None = None) -> subprocess.CompletedProcess:
    """Run tools/chromium/launch with a stand-in Chromium that prints its arguments, one a line."""
    echo = write(tmp_path / "chromium", "#!/bin/sh\nprintf '%s\\n' \"$@\"\necho to-stderr >&2\n")
    echo.chmod(0o755)
    options = browsers.chromium_launch_args(str(echo), log=log)
    return subprocess.run([options["executable_path"], *args], env=options["env"],
                          capture_output=True, text=True, check=True)


def test_the_launcher_joins_every_disabled_feature_list_and_turns_the_heap_profiler_off(tmp_path):
    rules = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
    shown = launched(tmp_path, ["--a", "--disable-features=X,Y", rules, "--disable-features=Z",
                                "--b"])
    assert shown.stdout.splitlines() == [
        "--a", rules, "--b", "--disable-features=HeapProfilerReporting,X,Y,Z"]
    assert shown.stderr == "to-stderr\n"


def test_the_launcher_appends_chromiums_log_and_stderr_to_the_given_file(tmp_path):
    log = write(tmp_path / "chromium.log", "earlier\n")
    shown = launched(tmp_path, ["--a"], log=log)
    assert shown.stdout.splitlines() == [
        "--enable-logging=stderr", "--a", "--disable-features=HeapProfilerReporting"]
    assert shown.stderr == "" and log.read_text() == "earlier\nto-stderr\n"


def test_the_download_bar_gets_the_sizes_the_loader_counts(tmp_path):
    dist = tmp_path / "dist"
    write(dist / "index.html", '<p><progress id="boot-bar" max="1"></progress></p>')
    build.write_download_sizes(dist)  # no loader: nothing counts the bytes, no totals
    assert "data-runtime-bytes" not in (dist / "index.html").read_text()
    loader = 'const FILES = ["pyodide.asm.wasm", "python_stdlib.zip"];\n'
    write(dist / build.RUNTIME_DOWNLOADS, loader)
    write(dist / "static/vendor/pyodide/pyodide.asm.wasm", b"w" * 300)
    write(dist / "static/vendor/pyodide/python_stdlib.zip", b"z" * 40)
    write(dist / "static/vendor/pyodide/pyodide.asm.mjs", b"not counted")
    build.write_download_sizes(dist)
    assert 'data-runtime-bytes="340" max="1"' in (dist / "index.html").read_text()
    assert "data-snapshot-bytes" not in (dist / "index.html").read_text()
    write(dist / "index.html", '<progress id="boot-bar"></progress>')
    write(dist / "static/snapshot/snapshot.json", json.dumps({"file": "s.gz"}))
    write(dist / "static/snapshot/s.gz", b"s" * 7)
    build.write_download_sizes(dist)
    assert 'data-snapshot-bytes="7"' in (dist / "index.html").read_text()


def test_the_download_bar_counts_what_the_loaders_files_line_names(tmp_path):
    assert build.counted_downloads(build.ROOT) == ("pyodide.asm.wasm", "python_stdlib.zip")
    write(tmp_path / build.RUNTIME_DOWNLOADS, 'const FILES = ["pyodide.asm.wasm"];\n')
    assert build.counted_downloads(tmp_path) == ("pyodide.asm.wasm",)
    write(tmp_path / build.RUNTIME_DOWNLOADS, 'const FILES = names();\n')
    with pytest.raises(build.BuildError, match="lost its line const FILES"):
        build.counted_downloads(tmp_path)


def test_with_the_loader_the_page_starts_the_runtime_from_its_head(src, tmp_path):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    build.start_runtime_early(dist)
    assert json.loads((dist / "pyscript.json").read_text()) == {
        "interpreter": build.INTERPRETER}  # the loader unpacks the archive, not PyScript
    html = (dist / "index.html").read_text()
    head = html[:html.index("</head>")]
    assert head.endswith(build.preload_tags())
    assert head.count('rel="modulepreload"') == len(build.RUNTIME_MODULES)
    # the starter is an async classic script, before the first style sheet: among the first
    # files the page asks for
    starter = head.index(f'<script async src="{build.RUNTIME_STARTER}"></script>')
    assert starter < head.index('<link rel="stylesheet"')
    assert head.index('<link rel="icon"') < starter
    for module in (*build.RUNTIME_MODULES, build.RUNTIME_STARTER):  # they exist, and ship
        assert (build.ROOT / module).is_file() or module.startswith("static/vendor/")


def test_the_runtime_is_started_before_a_style_sheet_or_not_at_all(src, tmp_path):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    page = dist / "index.html"
    page.write_text(page.read_text().replace('<link rel="stylesheet"', '<link rel="preload"'))
    with pytest.raises(build.BuildError, match="no style sheet in its <head>"):
        build.start_runtime_early(dist)


@pytest.mark.parametrize("files", [{build.PY_ARCHIVE: "./lib/*"}, None])
def test_the_loader_refuses_files_it_would_not_unpack(src, tmp_path, files):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    config = {"interpreter": build.INTERPRETER, **({"files": files} if files else {})}
    write(dist / "pyscript.json", json.dumps(config))
    with pytest.raises(build.BuildError, match="unpacks py/sources.zip alone"):
        build.start_runtime_early(dist)


def test_the_loader_learns_the_revision_of_each_runtime_file_it_reads_from_the_cache(tmp_path):
    """The standard library's; not the wasm's, which the page asks of the worker (its code
    cache stays with the worker's response)."""
    dist = tmp_path / "dist"
    write(dist / build.RUNTIME_DOWNLOADS, "const FILES = [];\nconst REVISIONS = {};\n")
    write(dist / "static/vendor/pyodide/pyodide.asm.wasm", b"wasm")
    write(dist / "static/vendor/pyodide/python_stdlib.zip", b"zip")
    build.write_runtime_revisions(dist)
    revisions = {"python_stdlib.zip": hashlib.sha256(b"zip").hexdigest()}
    assert (dist / build.RUNTIME_DOWNLOADS).read_text() == \
        f"const FILES = [];\nconst REVISIONS = {json.dumps(revisions)};\n"
    with pytest.raises(build.BuildError, match="lost its line const REVISIONS = {};"):
        build.write_runtime_revisions(dist)  # written already: no line left to fill
    (dist / build.RUNTIME_DOWNLOADS).unlink()
    build.write_runtime_revisions(dist)  # a build without the loader has nothing to tell it


def test_the_loader_and_the_worker_name_the_same_revision_header():
    line = 'const REVISION = "X-Skillcheck-Revision";'
    assert line in (build.ROOT / build.RUNTIME_DOWNLOADS).read_text(encoding="utf-8")
    assert line in (build.ROOT / build.SW_TEMPLATE).read_text(encoding="utf-8")
