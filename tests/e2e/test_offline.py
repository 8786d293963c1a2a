"""Offline and installable: the service worker, the update offer, the manifest, sub-path hosting.

Each test here serves the site on a server of its own, so that it can stop it or point it at
another build without disturbing the shared pages of the other tests.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from ready import wait_ready

import build
from tools import icons

CONTROLLED = "navigator.serviceWorker.controller !== null"
CACHE_NAMES = "caches.keys().then(names => names.filter(n => n.startsWith('skillcheck-')))"
SW_TIMEOUT_MS = 60_000


def wait_controlled(page: Page) -> None:
    """Wait until the service worker has precached everything and controls the page."""
    page.wait_for_function(CONTROLLED, timeout=SW_TIMEOUT_MS)


def roll_passages(page: Page) -> None:
    """Roll the Passages system from the page's own controls; what is read out must change."""
    page.evaluate("location.hash = '#system=passages'")  # the page's own link to a system
    form = page.locator("#form-passages")
    expect(form).to_be_visible()
    form.get_by_label(re.compile(r"^Base\b")).fill("60")
    result = page.get_by_role("status").and_(page.locator("#spoken"))  # the roll's sentence
    before = result.inner_text()
    page.get_by_role("button", name=re.compile(r"^(Roll|Flip)")).click()
    expect(result).not_to_have_text(before)
    expect(result).to_contain_text(re.compile(r"\d"))


def relative(url: str, base: str) -> str:
    """./path of a URL under `base` (query dropped), as the precache list writes it."""
    assert url.startswith(base), f"{url} is not under {base}"
    return "./" + urlsplit(url[len(base):]).path


@pytest.fixture(scope="module")
def first_visit(serve_dist, module_contexts, boot):
    """A phone's first visit on its own server, every request recorded, until the SW controls."""
    server = serve_dist()
    context = module_contexts()
    requests, failures = [], []
    context.on("request", lambda request: requests.append(request.url))
    context.on("response", lambda response: response.status >= 400 and failures.append(
        f"{response.status} {response.url}"))
    page = boot(context.new_page(), server.url)
    wait_controlled(page)
    return SimpleNamespace(server=server, page=page, requests=requests, failures=failures)


def test_first_visit_requests_are_all_precached(first_visit, dist):
    _, entries = build.read_precache(dist)
    precached = {url for url, _ in entries}
    requested = {relative(url, first_visit.server.url) for url in first_visit.requests}
    assert {"./", "./static/vendor/pyodide/pyodide.asm.wasm", "./pyscript.json"} <= requested
    assert requested - precached == {"./sw.js"}  # the worker's own script: the browser keeps it
    assert first_visit.failures == []  # a missing favicon would show here


def test_precache_lists_every_file_with_its_hash(dist):
    _, entries = build.read_precache(dist)
    files = {f"./{p.relative_to(dist).as_posix()}": p for p in dist.rglob("*") if p.is_file()}
    del files["./sw.js"], files["./_headers"]  # the worker's own script; a host's header rules
    assert {url for url, _ in entries} == {"./", *files}
    for later in build.LATER_MODULES:  # imported only when asked, offline too (QR, scanner)
        assert f"./{later[0]}" in files
    for url, digest in entries:
        assert build._digest(files[url if url != "./" else "./index.html"].read_bytes()) == digest


def test_reloads_and_rolls_with_the_server_stopped(first_visit):
    page = first_visit.page
    roll_passages(page)
    expect(page.locator("#log-list .log-entry")).to_have_count(1)  # written once it is shown
    first_visit.server.close()
    page.reload()
    wait_ready(page, SW_TIMEOUT_MS)
    expect(page.locator("#log-list .log-entry")).to_have_count(1)  # the log from before
    roll_passages(page)


SNAPSHOT_READ = """() => performance.getEntriesByType("resource").map((entry) => entry.name)
  .filter((name) => name.includes("/static/snapshot/pyodide.snapshot"))"""
# How often the page asked for the wasm (a request the worker answers; read from its cache
# by the page itself, there would be none).
WASM_ASKED = """() => performance.getEntriesByType("resource")
  .filter((entry) => entry.name.endsWith("/pyodide.asm.wasm")).length"""
# What the page read from the worker's cache itself (runtime-downloads.mjs, cached).
CACHED = "(document.documentElement.dataset.cached ?? '').split(' ').filter(Boolean).sort()"
RUNTIME_FILES = sorted(build.READ_FROM_CACHE)
FORGET_UNPACKED = """async (url) => {
  for (const name of await caches.keys()) await (await caches.open(name)).delete(url);
}"""
# The worker's copy replaced by 8 bytes: not a copy the page can use.
DAMAGE_UNPACKED = """async (url) => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    if (await cache.match(url)) await cache.put(url, new Response(new Uint8Array(8)));
  }
}"""
KEPT_SHA256 = """async (url) => {
  const kept = await (await caches.match(url)).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", kept));
  return [kept.byteLength, Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")];
}"""



def test_later_visits_read_the_snapshot_the_worker_unpacked(serve_dist, fresh_context, boot,
                                                            dist):
    """The worker keeps the snapshot unpacked, so a later start reads it without gunzipping
    31 MB on the main thread; without that copy (storage was full), it starts from the
    packed one, still from the worker's cache."""
    server = serve_dist()
    page = boot(fresh_context.new_page(), server.url)
    wait_controlled(page)
    manifest = json.loads((dist / "static/snapshot/snapshot.json").read_text())
    unpacked, packed = (f"{server.url}static/snapshot/{manifest[key]}"
                        for key in ("unpacked", "file"))
    pages = gzip.decompress((dist / "static/snapshot" / manifest["file"]).read_bytes())
    assert page.evaluate(KEPT_SHA256, unpacked) == [
        manifest["pages_bytes"], hashlib.sha256(pages).hexdigest()]
    server.close()  # from here on, everything comes from the worker

    page.reload()
    wait_ready(page, SW_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.boot") == "snapshot"
    # read from the worker's cache by the page itself, not asked of the worker (but the wasm)
    assert page.evaluate(CACHED) == sorted([*RUNTIME_FILES, manifest["unpacked"]])
    assert page.evaluate(SNAPSHOT_READ) == []
    assert page.evaluate(WASM_ASKED) == 1  # of the worker, which keeps its compiled code too

    for spoil in (DAMAGE_UNPACKED, FORGET_UNPACKED):
        page.evaluate(spoil, unpacked)
        page.reload()
        wait_ready(page, SW_TIMEOUT_MS)
        assert page.evaluate("document.documentElement.dataset.boot") == "snapshot"
        assert page.evaluate(CACHED) == RUNTIME_FILES
        assert page.evaluate(SNAPSHOT_READ) == [unpacked, packed]
    roll_passages(page)


# The worker's copy of a file as if an older build had cached it: other bytes' revision.
OLDER_REVISION = """async (url) => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const kept = await cache.match(url);
    if (!kept) continue;
    const headers = new Headers(kept.headers);
    headers.set("X-Skillcheck-Revision", "0".repeat(64));
    await cache.put(url, new Response(await kept.arrayBuffer(), { headers }));
  }
}"""


def test_a_cached_file_from_another_build_is_asked_of_the_worker(serve_dist, fresh_context,
                                                                boot):
    """The page reads the standard library straight from the worker's cache only under this
    build's revision: a copy cached under another (an older build's, still there) goes through
    the worker, which answers for its own build."""
    server = serve_dist()
    page = boot(fresh_context.new_page(), server.url)
    wait_controlled(page)
    stdlib = f"{server.url}static/vendor/pyodide/python_stdlib.zip"
    page.evaluate(OLDER_REVISION, stdlib)
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.reload()
    wait_ready(page, SW_TIMEOUT_MS)
    assert "python_stdlib.zip" not in page.evaluate(CACHED)
    assert stdlib in asked
    roll_passages(page)


def test_works_offline_from_a_sub_path(serve_dist, fresh_context, boot):
    server = serve_dist(prefix="/skillcheck/")
    page = boot(fresh_context.new_page(), server.url)
    wait_controlled(page)
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == server.url
    server.close()
    fresh_context.set_offline(True)
    page.reload()
    wait_ready(page, SW_TIMEOUT_MS)
    roll_passages(page)


def next_build(dist: Path, out: Path) -> Path:
    """A copy of `dist` whose page changed: a new deployment (hard links for the big files)."""
    shutil.copytree(dist, out, copy_function=os.link)
    page = out / "index.html"
    html = page.read_text(encoding="utf-8")
    page.unlink()  # never write through a hard link into the first build
    page.write_text(html.replace("</head>", '<meta name="build" content="next"></head>', 1))
    (out / "sw.js").unlink()
    build.write_service_worker(out, (build.ROOT / build.SW_TEMPLATE).read_text(encoding="utf-8"))
    return out


def test_new_build_is_offered_and_replaces_the_old_cache(serve_dist, fresh_context, boot, dist,
                                                         tmp_path):
    server = serve_dist()
    page = boot(fresh_context.new_page(), server.url)
    wait_controlled(page)
    banner = page.locator("#update-banner")
    expect(banner).to_be_hidden()
    old_caches = page.evaluate(CACHE_NAMES)
    assert len(old_caches) == 1

    server.directory = next_build(dist, tmp_path / "next")
    fetched = []
    fresh_context.on("request", lambda request: fetched.append(relative(request.url, server.url)))
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    expect(banner).to_be_visible(timeout=SW_TIMEOUT_MS)
    expect(page.locator("meta[name=build]")).to_have_count(0)  # still the old build, unmixed
    assert set(fetched) <= {"./sw.js", "./", "./index.html"}  # unchanged files were reused

    page.locator("#update-reload").click()
    expect(page.locator("meta[name=build]")).to_have_count(1, timeout=SW_TIMEOUT_MS)
    wait_ready(page, SW_TIMEOUT_MS)
    expect(banner).to_be_hidden()
    new_caches = page.evaluate(CACHE_NAMES)
    version, _ = build.read_precache(server.directory)
    assert len(new_caches) == 1 and new_caches != old_caches and version in new_caches[0]


def test_manifest_names_the_app_and_its_icons_exist(dist):
    manifest = json.loads((dist / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == "Skill Check" and manifest["short_name"]
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    seen = set()
    for icon in manifest["icons"]:
        width, height = icons.png_size((dist / icon["src"]).read_bytes())
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        seen.add((width, icon.get("purpose", "any")))
    assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= seen


def test_chromium_finds_the_page_installable(browser_type, browser_type_launch_args, app_url,
                                             watch, tmp_path):
    # Incognito contexts are never installable: this one test runs in a real profile.
    context = watch(browser_type.launch_persistent_context(
        tmp_path / "profile", **browser_type_launch_args))
    try:
        page = context.new_page()
        page.goto(app_url)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == app_url + "manifest.webmanifest"
        assert manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()
