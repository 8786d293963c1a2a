"""Booting from the build's Pyodide memory snapshot, and booting without it when it cannot be used.

The loader (static/js/pyodide-snapshot.mjs) says which way it booted in <html data-boot>. A probe
page beside the app, on the same pyscript.json and snapshot, shows what a snapshot freezes:
`random`'s state must be fresh on every load, and the default draw must still come from
crypto.getRandomValues. Timings are measured in benchmarks/startup.py, not here.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import shutil
import struct
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from ready import wait_ready

import build

SNAPSHOT = Path("static/snapshot")
PROBE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>probe</title><link rel="icon" href="data:,">
<script type="module" src="static/vendor/pyscript/core.js"></script></head>
<body><button id="draw" type="button">draw</button><output id="dice"></output>
<script type="py" config="pyscript.json">
import random
from pyscript import document, when
import skillcheck

root = document.documentElement
root.dataset.random = repr(random.random())

@when("click", "#draw")
def draw(event):
    result = skillcheck.resolve({"system": "pool", "trait": 10, "skill": 5, "dr": 3})
    document.querySelector("#dice").textContent = " ".join(map(str, result["dice"]))

root.dataset.ready = "true"
</script></body></html>
"""
COUNT_RANDOM_CALLS = """
window.randomCalls = 0;
const real = crypto.getRandomValues.bind(crypto);
crypto.getRandomValues = (array) => { window.randomCalls += 1; return real(array); };
"""


@pytest.fixture(scope="module")
def snapshot(dist: Path) -> dict:
    """The build's snapshot manifest; without a Node 24+ the build could make none."""
    manifest = dist / SNAPSHOT / "snapshot.json"
    if not manifest.is_file():
        if build.snapshot_node() is None:
            pytest.skip("no Node 24+ here, so the build made no snapshot")
        pytest.fail("a Node 24+ is here but the build made no snapshot")
    return json.loads(manifest.read_text(encoding="utf-8"))


def site_copy(dist: Path, tmp_path: Path) -> Path:
    """A copy of the built site that a test may break without touching the shared one."""
    return Path(shutil.copytree(dist, tmp_path / "site"))


def boot_path(page: Page) -> str:
    return page.evaluate("document.documentElement.dataset.boot")


def stages(page: Page, prefix: str = "skillcheck runtime: ") -> list[str]:
    """The start's stages the page marked (User Timing), in order."""
    return page.evaluate("""prefix => performance.getEntriesByType("mark").map((mark) => mark.name)
        .filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length))""",
                         prefix)


def spread(pages: bytes, size: int, page: int = 4096) -> tuple[bytes, list[tuple[int, int]]]:
    """The snapshot from its pages that are not zeros, and their runs, read here independently of
    tools/snapshot/make_snapshot.mjs and the loader: how many runs, then (offset, length) of each
    run, then the pages, u32 little-endian."""
    (count,) = struct.unpack_from("<I", pages)
    runs = [struct.unpack_from("<II", pages, 4 + 8 * run) for run in range(count)]
    memory, at = bytearray(size), 4 + 8 * count
    for offset, length in runs:
        memory[offset:offset + length] = pages[at:at + length]
        at += length
    assert at == len(pages) and len(memory) == size
    return bytes(memory), runs


def test_the_build_ships_a_verified_precached_snapshot(dist: Path, snapshot: dict):
    packed = (dist / SNAPSHOT / snapshot["file"]).read_bytes()
    assert hashlib.sha256(packed).hexdigest() == snapshot["sha256"]
    pages = gzip.decompress(packed)
    assert len(pages) == snapshot["pages_bytes"] < snapshot["raw_bytes"] / 2
    memory, runs = spread(pages, snapshot["raw_bytes"])
    # only the pages that are not all zeros, in runs as long as they can be, in order
    kept = [start for start in range(0, len(memory), 4096)
            if memory[start:start + 4096].strip(b"\0")]
    assert [start for offset, length in runs for start in range(offset, offset + length, 4096)] \
        == kept
    ends = [offset + length for offset, length in runs]
    assert all(end < start for end, (start, _) in zip(ends[:-1], runs[1:], strict=True))
    assert {"skillcheck", "skillcheck.draw"} <= set(snapshot["modules"])
    config = json.loads((dist / "pyscript.json").read_text(encoding="utf-8"))
    assert config["interpreter"] == build.SNAPSHOT_LOADER
    _, precache = build.read_precache(dist)
    urls = {url for url, _ in precache}
    assert {f"./{SNAPSHOT}/snapshot.json", f"./{SNAPSHOT}/{snapshot['file']}",
            f"./{build.SNAPSHOT_LOADER}"} <= urls


def test_the_page_boots_from_the_snapshot(snapshot, fresh_context, app_url, boot):
    page = fresh_context.new_page()
    notes = []
    page.on("console", lambda message: notes.append(message.text))
    boot(page, app_url)
    assert boot_path(page) == "snapshot"
    assert not [note for note in notes if "without the snapshot" in note]
    assert stages(page) == ["starting from the snapshot", f"{snapshot['file']} placed", "up",
                            "sources written"]


def _corrupt(site: Path, entry: dict) -> None:
    path = site / SNAPSHOT / entry["file"]
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _other_runtime(site: Path, entry: dict) -> None:
    (site / SNAPSHOT / "snapshot.json").write_text(json.dumps({**entry, "pyodide": "0.0.1"}))


def _missing(site: Path, entry: dict) -> None:
    (site / SNAPSHOT / entry["file"]).unlink()


@pytest.mark.parametrize(("damage", "reason"), [
    (_corrupt, "checksum mismatch"),
    (_other_runtime, "made by Pyodide 0.0.1"),
    (_missing, "HTTP 404"),
])
def test_an_unusable_snapshot_falls_back_to_a_normal_boot(
        damage, reason, snapshot, dist, tmp_path, serve_dist, fresh_context, boot):
    site = site_copy(dist, tmp_path)
    damage(site, snapshot)
    page = fresh_context.new_page()
    notes, errors = [], []
    page.on("console", lambda message: notes.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    boot(page, serve_dist(site).url)
    assert boot_path(page) == "normal"
    assert [note for note in notes if "without the snapshot" in note and reason in note]
    assert stages(page)[-3:] == ["starting without the snapshot", "up", "sources written"]
    assert errors == []


def _hooks_for(dist: Path, version: str) -> bytes:
    """The build's adapter of Pyodide's private hooks, as if written for another `version`."""
    text = (dist / build.PYODIDE_HOOKS).read_text(encoding="utf-8")
    pin = f"const PINNED = {json.dumps(build.pinned_pyodide())};"
    assert pin in text
    return text.replace(pin, f"const PINNED = {json.dumps(version)};").encode()


@pytest.mark.parametrize(("other", "query", "level", "reason"), [
    ("0.0.1", "", "warning", "its Pyodide hooks are for Pyodide 0.0.1, this runtime is "),
    (None, "?snapshot=off", "info", "asked to, by ?snapshot=off"),
], ids=["hooks for another pyodide", "snapshot off"])
def test_hooks_for_another_pyodide_warn_and_the_page_boots_normally(
        other, query, level, reason, snapshot, dist, fresh_context, app_url, boot):
    """An upgraded (or mismatched) runtime never meets hooks written for another: the console
    warns, and the page starts the normal way. ?snapshot=off takes the same way, with a note."""
    page = fresh_context.new_page()
    if other:
        body = _hooks_for(dist, other)
        page.route(f"**/{build.PYODIDE_HOOKS}", lambda route: route.fulfill(
            body=body, content_type="text/javascript"))
    notes, errors = [], []
    page.on("console", lambda message: notes.append((message.type, message.text)))
    page.on("pageerror", lambda error: errors.append(str(error)))
    boot(page, app_url + query)
    assert boot_path(page) == "normal"
    assert [(kind, text) for kind, text in notes if "without the snapshot" in text] == [
        (level, f"Skill Check: starting without the snapshot ({reason}"
                f"{build.pinned_pyodide() if other else ''}).")]
    assert stages(page)[-3:] == ["starting without the snapshot", "up", "sources written"]
    page.locator("#roll").click()
    expect(page.locator("#result .outcome")).to_be_visible()
    assert errors == []


UNFINISHED = "skillcheck.snapshot-start"
# Before the page's own scripts: leave a start mark `age_ms` old, and note every mark seen later.
MARK_AND_WATCH = """(key, age_ms) => {
  if (age_ms !== null && !sessionStorage.getItem("marked")) {
    localStorage.setItem(key, String(Date.now() - age_ms));
    sessionStorage.setItem("marked", "1");  // only before the first load
  }
  window.marks = [];
  setInterval(() => window.marks.push(localStorage.getItem(key)), 20);
}"""


def start_with_mark(context, url: str, boot, age_ms: int | None) -> tuple[Page, list[str]]:
    context.add_init_script(f"({MARK_AND_WATCH})({json.dumps(UNFINISHED)}, {json.dumps(age_ms)})")
    page = context.new_page()
    notes: list[str] = []
    page.on("console", lambda message: notes.append(message.text))
    return boot(page, url), notes


def test_a_start_from_the_snapshot_is_marked_until_the_page_is_ready(snapshot, fresh_context,
                                                                     app_url, boot):
    page, _ = start_with_mark(fresh_context, app_url, boot, age_ms=None)
    assert boot_path(page) == "snapshot"
    assert any(mark for mark in page.evaluate("window.marks"))  # set while it started
    assert page.evaluate(f"localStorage.getItem('{UNFINISHED}')") is None  # gone once ready


def test_after_a_start_that_stopped_short_the_browser_starts_normally_for_a_day(
        snapshot, fresh_context, app_url, boot):
    # What an "Aw, Snap!" during a start from the snapshot leaves behind: its mark.
    page, notes = start_with_mark(fresh_context, app_url, boot, age_ms=60_000)
    assert boot_path(page) == "normal"
    assert [note for note in notes if "without the snapshot" in note and "stopped short" in note]
    assert page.evaluate(f"localStorage.getItem('{UNFINISHED}')") is not None  # the day runs on
    page.reload()
    wait_ready(page)
    assert boot_path(page) == "normal"


@pytest.mark.parametrize("age_ms", [25 * 60 * 60 * 1000, -48 * 60 * 60 * 1000],
                         ids=["over a day old", "from the future"])
def test_a_stale_mark_is_forgotten(age_ms, snapshot, fresh_context, app_url, boot):
    page, _ = start_with_mark(fresh_context, app_url, boot, age_ms=age_ms)
    assert boot_path(page) == "snapshot"
    assert page.evaluate(f"localStorage.getItem('{UNFINISHED}')") is None


@pytest.fixture(scope="module")
def probes(snapshot, dist, tmp_path_factory, serve_dist, module_contexts, boot) -> list[Page]:
    """The probe page loaded twice, each in a new context counting crypto.getRandomValues."""
    site = site_copy(dist, tmp_path_factory.mktemp("probe"))
    (site / "probe.html").write_text(PROBE, encoding="utf-8")
    url = serve_dist(site).url + "probe.html"
    pages = []
    for _ in range(2):
        context = module_contexts()
        context.add_init_script(COUNT_RANDOM_CALLS)
        pages.append(boot(context.new_page(), url))
    return pages


def test_random_is_reseeded_on_every_load(probes):
    assert [boot_path(page) for page in probes] == ["snapshot", "snapshot"]
    first, second = (page.evaluate("document.documentElement.dataset.random") for page in probes)
    assert first != second


def test_the_default_draw_comes_from_crypto_get_random_values(probes):
    draws = []
    for page in probes:
        before = page.evaluate("window.randomCalls")
        page.click("#draw")
        page.wait_for_function("document.querySelector('#dice').textContent !== ''")
        assert page.evaluate("window.randomCalls") > before
        draws.append(page.text_content("#dice"))
    assert draws[0] != draws[1]  # ten d10 each: equal once in 10**10


def test_the_runtime_starts_from_the_pages_head_without_waiting_for_pyscript(fresh_context,
                                                                              app_url):
    """build.start_runtime_early: the loader fetches the app's archive and the runtime while the
    page is parsed. With PyScript's core never arriving, nothing else could have asked."""
    page = fresh_context.new_page()
    page.route("**/static/vendor/pyscript/core.js", lambda route: route.abort())
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.removeprefix(app_url)))
    page.goto(app_url)
    page.wait_for_function("performance.getEntriesByType('resource').some("
                           "(entry) => entry.name.endsWith('/py/sources.zip'))")
    assert {build.PY_ARCHIVE, "static/vendor/pyodide/pyodide.asm.wasm"} <= set(asked)
    assert not any(url.startswith("static/vendor/pyscript/core-") for url in asked)


def _with_a_comment(body: bytes) -> bytes:
    """The same archive, with a comment after its end record: a zip the loader's reader leaves
    to the runtime's unpackArchive."""
    return body[:-2] + (7).to_bytes(2, "little") + b"comment"


def test_an_archive_the_loader_does_not_read_is_unpacked_by_the_runtime(dist, fresh_context,
                                                                        app_url, boot):
    body = _with_a_comment((dist / build.PY_ARCHIVE).read_bytes())
    page = fresh_context.new_page()
    page.route(f"**/{build.PY_ARCHIVE}", lambda route: route.fulfill(
        body=body, content_type="application/zip"))
    notes, errors = [], []
    page.on("console", lambda message: notes.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    boot(page, app_url)
    assert [note for note in notes
            if "the runtime unpacks the sources (ValueError: no end record" in note]
    page.locator("#roll").click()  # the app's modules, from the runtime's unpacking
    expect(page.locator("#result .outcome")).to_be_visible()
    assert errors == []


def test_the_loader_refuses_what_pyscript_would_have_it_pass_on(fresh_context, app_url):
    page = fresh_context.new_page()
    page.goto(app_url + "manifest.webmanifest")  # this origin, and no page starting a runtime
    refused = page.evaluate(f"""import("./{build.SNAPSHOT_LOADER}")
        .then((loader) => loader.loadPyodide({{ packages: ["numpy"], stdout: () => {{}} }}))
        .then(() => "started", (error) => error.message)""")
    assert refused == "pyodide-snapshot.mjs does not pass on packages"


# The loader's place() on pages written here: runs (offset, length) and their bytes, `extra`
# bytes more (or fewer) than the table accounts for, delivered as a response's body or in 3-byte
# chunks (runs and the table split across them); then spread() into a memory of sevens. The
# memory, or why it refused.
PLACE = """async ([runs, extra, size, chunked]) => {
  const { place, spread } = await import("./static/js/snapshot-pages.mjs");
  const pages = runs.flatMap(([, length], run) => Array(length).fill(run + 1));
  const head = new DataView(new ArrayBuffer(4 + runs.length * 8));
  head.setUint32(0, runs.length, true);
  runs.forEach(([offset, length], run) => {
    head.setUint32(4 + run * 8, offset, true);
    head.setUint32(8 + run * 8, length, true);
  });
  const whole = [...new Uint8Array(head.buffer), ...pages, ...Array(Math.max(extra, 0)).fill(9)];
  const bytes = new Uint8Array(whole.slice(0, whole.length + Math.min(extra, 0)));
  const stream = chunked
    ? new ReadableStream({ start(controller) {
        for (let at = 0; at < bytes.length; at += 3) controller.enqueue(bytes.slice(at, at + 3));
        controller.close();
      } })
    : new Response(bytes).body;
  const entry = { pages_bytes: head.byteLength + pages.length, raw_bytes: size };
  try {
    const memory = new Uint8Array(size).fill(7);
    spread(memory, await place(stream, "pages", entry), 0);
    return Array.from(memory);
  } catch (error) {
    return error.message;
  }
}"""
LYING_TABLE = """async () => {
  const { place } = await import("./static/js/snapshot-pages.mjs");
  const claims = new Uint8Array([200, 0, 0, 0]); // 200 runs, in 4 bytes of pages in all
  try {
    await place(new Response(claims).body, "pages", { pages_bytes: 4, raw_bytes: 8 });
  } catch (error) {
    return error.message;
  }
}"""


@pytest.mark.parametrize("chunked", [False, True], ids=["body", "3-byte chunks"])
def test_the_loader_puts_each_run_of_pages_in_its_place_and_zeros_between(booted, chunked):
    place = functools.partial(booted.evaluate, PLACE)
    assert place([[[1, 3], [6, 2]], 0, 10, chunked]) == [0, 1, 1, 1, 0, 0, 2, 2, 0, 0]
    assert place([[], 0, 4, chunked]) == [0, 0, 0, 0]
    assert place([[[6, 2], [1, 3]], 0, 10, chunked]) == "pages: pages out of place"  # not in order
    assert place([[[0, 4], [2, 3]], 0, 10, chunked]) == "pages: pages out of place"  # overlapping
    assert place([[[8, 3]], 0, 10, chunked]) == "pages: pages out of place"
    assert place([[[0, 2]], 1, 10, chunked]) == "pages: not 14 bytes"  # a byte too many
    assert place([[[0, 2]], -1, 10, chunked]) == "pages: not 14 bytes"  # a byte short
    assert booted.evaluate(LYING_TABLE) == "pages: no table of its pages"


# Pages as place() gives them: the stream's chunks, here of `part` bytes each.
CHUNKS = """(pages, part) => {
  const parts = [];
  for (let at = 0; at < pages.length; at += part) parts.push(pages.subarray(at, at + part));
  return parts;
}"""
# spread() as the runtime's restore calls it: the snapshot's first `skip` bytes (its header) left
# out, into a memory holding what its instantiation wrote (`written`: offset, byte).
SPREAD = """async ([runs, size, skip, written, part]) => {
  const { spread } = await import("./static/js/snapshot-pages.mjs");
  const pages = (CHUNKS)(
    new Uint8Array(runs.flatMap(([, length], run) => Array(length).fill(run + 1))), part);
  const memory = new Uint8Array(size - skip);
  for (const [offset, byte] of written) memory[offset] = byte;
  spread(memory, { runs, pages, size }, skip);
  return Array.from(memory);
}""".replace("CHUNKS", CHUNKS)


@pytest.mark.parametrize("part", [64, 3, 1], ids=["one chunk", "3-byte chunks", "1-byte chunks"])
def test_the_restore_copies_the_pages_after_the_header_and_clears_what_is_not_zero(booted, part):
    def spread(runs, size, skip, written):
        return booted.evaluate(SPREAD, [runs, size, skip, written, part])

    runs = [[0, 4], [8, 4]]
    assert spread(runs, 16, 4, []) == [0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0]
    assert spread(runs, 16, 2, []) == [1, 1, 0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0]
    # a byte the instantiation wrote where the snapshot has zeros, in a gap and after the pages,
    # at aligned and unaligned places; under a run it is overwritten
    assert spread(runs, 16, 2, [[3, 5], [12, 9], [7, 9]]) == \
        [1, 1, 0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0]
    assert spread(runs, 40, 4, [[30, 1]]) == [0, 0, 0, 0, 2, 2, 2, 2] + [0] * 28
    assert spread([[0, 3], [4, 5], [12, 2]], 16, 0, []) == \
        [1, 1, 1, 0, 2, 2, 2, 2, 2, 0, 0, 0, 3, 3, 0, 0]


# The runtime is given only the snapshot's header, which must open its first run of pages.
HEADER = """async ([runs, part]) => {
  const { restoring } = await import("./static/js/pyodide-hooks.mjs");
  const pages = new Uint8Array(runs.reduce((sum, [, length]) => sum + length, 0));
  const view = new DataView(pages.buffer);
  view.setUint32(0, 0x01020304); // Pyodide's magic number, say
  view.setUint32(4, 16, true); // where Pyodide's header says memory starts
  const runtime = new URL("static/vendor/pyodide/", location.href).href;
  const options = restoring(Promise.resolve({ runs, pages: (CHUNKS)(pages, part), size: 64 }),
                            runtime);
  try {
    return Array.from(await options._loadSnapshot);
  } catch (error) {
    return error.message;
  }
}""".replace("CHUNKS", CHUNKS)


@pytest.mark.parametrize("part", [64, 3], ids=["one chunk", "3-byte chunks"])
def test_the_runtime_gets_the_snapshots_header_alone(booted, part):
    assert booted.evaluate(HEADER, [[[0, 24], [32, 8]], part]) == [1, 2, 3, 4, 16] + [0] * 11
    assert booted.evaluate(HEADER, [[[8, 24]], part]) == \
        "the snapshot's pages do not start with its header"
    assert booted.evaluate(HEADER, [[[0, 12]], part]) == \
        "the snapshot's pages do not start with its header"


def test_the_started_runtime_holds_the_snapshots_header_and_not_the_snapshot(booted):
    """Pyodide keeps the options it was started with for as long as the page is open: given the
    whole snapshot, it held 31.5 MB that were never read again."""
    assert boot_path(booted) == "snapshot"
    held = booted.evaluate("""async () => {
      const loader = await import("./static/js/pyodide-snapshot.mjs");
      const options = (await loader.startRuntime())._api.config; // Pyodide's own, looked into
      return (await options._loadSnapshot).length;
    }""")
    assert 8 <= held < 4096
