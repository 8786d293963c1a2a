"""What the app does before ready on a normal boot (no snapshot: every iPhone), step by step.

    python3 benchmarks/boot_steps.py [--runs N] [--dist DIR] [--before DIR] [--storage new,player]

Loads, in Debian's Chromium, each in a new context (cold: empty cache, no service worker), the
bare PyScript page and the app booting the normal way (its snapshot removed, so its loader boots
Pyodide as on an iPhone: benchmarks/startup.py's "app without snapshot"), A/B alternating in
every round. With --before, a second build of the app (say the base commit's, built into another
folder) takes its turn too, so a change's steps are compared in one run. Each app load starts
with either an empty localStorage ("new") or a player's ("player": 120 logged rolls over every
system, three characters with sheets, one picked, kept forms).

Timed inside the page, in ms from navigation start:
  runtime ready  the `py:ready` event of the page's <script type="py"> (Pyodide started, with
                 py/sources.zip unpacked, by the loader)
  imports        py:ready → main.py's `skillcheck imported` mark (the rules and the glue)
  each step      main.py's boot steps (User Timing measures `skillcheck boot: NAME`)
  boot, rest     what boot() does outside its named steps (the Session, the seed, the ready flag)
  ready          <html data-ready>
  after ready    work deferred past ready, until its `skillcheck after ready` measure ends
Prints medians (min–max) and, with --before, the ratio of each step to the other build's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "py"), str(ROOT)]

import skillcheck  # noqa: E402
import startup  # noqa: E402
from app.characters import CHARACTERS_KEY, Roster  # noqa: E402
from app.log_model import RollLog  # noqa: E402
from app.storage import MemoryStorage  # noqa: E402

OUT = ROOT / "benchmarks" / "out" / "boot_steps"
PREFIX = "skillcheck boot: "
AFTER = "skillcheck after ready"
REQUESTS = [
    {"system": "flip", "rank": 2, "aspect": 3, "difficulty": "hard"},
    {"system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 2},
     "opponent": {"rank": 3, "aspect": 1}},
    {"system": "flip", "mode": "team", "dtn": 15, "primary": {"rank": 2, "aspect": 2},
     "secondaries": [{"rank": 1, "aspect": 2}]},
    {"system": "pool", "trait": 5, "skill": 7, "dr": 4, "bonus": 2},
    {"system": "swift", "trait": 5, "skill": 6},
    {"system": "fluke", "dice_count": 3},
    {"system": "passages", "base": 50},
]
SHEETS = {"flip": {"aspects": {"AI": 3, "HS": 2}, "skills": {"Athletics": {"rank": 2},
                                                             "Stealth": {"rank": 3}}},
          "pool": {"traits": {"Dexterity": 5}, "skills": {"Lockpicking": {"trait": "Dexterity",
                                                                          "score": 7}}},
          "fluke": {"stats": {"Intelligence": 2}, "skills": {"Sneak": 4}},
          "passages": {"skills": {"Lockpicking": 26}}}

# Before the page's scripts: a player's storage (once per context), and when py:ready fires.
WATCH = """(stored) => {
  if (stored && !sessionStorage.getItem("seeded")) {
    for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value);
    sessionStorage.setItem("seeded", "1");
  }
  window.bootSteps = {};
  document.addEventListener("py:ready", () => { window.bootSteps.runtime = performance.now(); },
                            { capture: true, once: true });
}"""
READ = """() => {
  const marks = { ...window.bootSteps, ready: window.startupMarks.ready };
  const imported = performance.getEntriesByName("skillcheck imported")[0];
  if (imported) marks.imported = imported.startTime;
  for (const entry of performance.getEntriesByType("measure")) {
    if (entry.name.startsWith("skillcheck")) marks[entry.name] = entry.duration;
  }
  const after = performance.getEntriesByName("AFTER", "measure")[0];
  if (after) marks.settled = after.startTime + after.duration;
  return marks;
}""".replace("AFTER", AFTER)
SETTLED = f"performance.getEntriesByName({AFTER!r}, 'measure').length > 0"


def player_storage() -> dict[str, str]:
    """A player's localStorage: 120 checks in the log over every system, three characters."""
    store = MemoryStorage()
    log = RollLog(store)
    for seed in range(120):
        request = REQUESTS[seed % len(REQUESTS)]
        log.record_check(skillcheck.resolve({**request, "seed": seed}))
    roster = Roster(store)
    for name in ("Mara", "Tobin", "Ilse"):
        roster.create(name, luck=3, xp=9, notes="", sheets=SHEETS)
    store.set("skillcheck.picked", "1")  # characters_panel.PICKED_KEY (a browser module)
    assert store.get(CHARACTERS_KEY)
    return store.data


def sites(dist: Path, before: Path | None) -> dict[str, Path]:
    shutil.rmtree(OUT, ignore_errors=True)
    made = {}
    for name, source in (("app", dist), ("before", before)):
        if source is None:
            continue
        site = Path(shutil.copytree(source, OUT / name))
        startup.without_snapshot(site)  # the normal boot
        made[name] = site
    bare = OUT / "bare"
    shutil.copytree(dist / "static" / "vendor", bare / "static" / "vendor")
    (bare / "index.html").write_text(startup.bare_page(startup.RUNTIME), encoding="utf-8")
    made["bare"] = bare
    return made


def load(browser, url: str, stored: dict | None) -> dict:
    context = browser.new_context()
    context.add_init_script(startup.MARKS)
    context.add_init_script(f"({WATCH})({json.dumps(stored)})")
    try:
        page = context.new_page()
        startup.boot(page, url)
        if stored is not None:
            with contextlib.suppress(Exception):  # a build that defers nothing: no measure
                page.wait_for_function(SETTLED, timeout=10_000, polling=50)
        return page.evaluate(READ)
    finally:
        context.close()


def steps(marks: dict) -> dict[str, float]:
    """One load's marks as named durations (ms)."""
    out = {"runtime ready": marks["runtime"]}
    if "imported" in marks:
        out["imports"] = marks["imported"] - marks["runtime"]
        named = {key[len(PREFIX):]: value for key, value in marks.items()
                 if key.startswith(PREFIX)}
        out.update(named)
        out["boot, rest"] = marks["ready"] - marks["imported"] - sum(named.values())
        out["ready − runtime ready"] = marks["ready"] - marks["runtime"]
    out["ready"] = marks["ready"]
    out.update({key[len(AFTER) + 2:] + " (after ready)": value for key, value in marks.items()
                if key.startswith(AFTER + ": ")})
    if "settled" in marks:
        out["ready → deferred work done"] = marks["settled"] - marks["ready"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the app as built")
    parser.add_argument("--before", type=Path, help="another build to compare, in the same run")
    parser.add_argument("--storage", default="new,player", help="new, player or both")
    args = parser.parse_args()
    storages = {"new": None, "player": player_storage()}
    wanted = args.storage.split(",")
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    made = sites(args.dist, args.before)
    pages = [("bare", None)] + [(name, kind) for name in ("app", "before") if name in made
                                for kind in wanted]
    samples: dict[tuple, list[dict]] = {page: [] for page in pages}
    with sync_playwright() as playwright, ExitStack() as stack:
        urls = {name: startup.serve(stack, site) for name, site in made.items()}
        browser = playwright.chromium.launch(**startup.launch_args())
        stack.callback(browser.close)
        for run in range(args.runs):
            print(f"round {run + 1}/{args.runs}", flush=True)
            for name, kind in pages[run % len(pages):] + pages[:run % len(pages)]:
                time.sleep(startup.SETTLE)
                marks = load(browser, urls[name], storages.get(kind))
                samples[(name, kind)].append(steps(marks))
    print(f"\nboot steps, normal boot, Chromium, {args.runs} rounds alternating "
          f"({time.monotonic() - started:.0f} s); load average (1 min) {load_before:.1f} at the "
          f"start, {os.getloadavg()[0]:.1f} at the end")
    for kind in wanted:
        print(f"\nstorage: {kind}")
        print(f"  {'step':30} {'app, median (min–max)':>32}" +
              (f" {'before':>32} {'ratio':>7}" if "before" in made else ""))
        rows = samples[("app", kind)]
        for step in rows[0]:
            values = [row[step] for row in rows if step in row]
            line = f"  {step:30} {startup.spread(values):>32}"
            if "before" in made:
                old = [row[step] for row in samples[("before", kind)] if step in row]
                if old:
                    ratio = statistics.median(values) / statistics.median(old)
                    line += f" {startup.spread(old):>32} {ratio:6.2f}×"
                else:
                    line += f" {'—':>32}"
            print(line)
    bare = [row["ready"] for row in samples[("bare", None)]]
    print(f"\nbare page: ready {startup.spread(bare)}, runtime ready "
          f"{startup.spread([row['runtime ready'] for row in samples[('bare', None)]])}")
    for name in ("app", "before"):
        for kind in wanted if name in made else []:
            ready = statistics.median(row["ready"] for row in samples[(name, kind)])
            print(f"{name} ({kind}) ready / bare ready: {ready / statistics.median(bare):.2f}×")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "samples.json").write_text(json.dumps(
        {f"{name} {kind}": rows for (name, kind), rows in samples.items()}, indent=1))


if __name__ == "__main__":
    main()
