"""Does the start-up snapshot pay? The app booting from it against the app's own normal boot.

    python3 benchmarks/snapshot_ab.py [--runs N] [--budget S] [--dist DIR] [--cpu 1 4]

One build, served gzip, opened two ways: as it is (the loader starts from the snapshot) and with
?snapshot=off (the loader's fallback, static/js/pyodide-hooks.mjs: the same trimmed runtime, the
same bytecode, the same service worker and caches, only the snapshot left out). For each CPU
slowdown (Chromium's CPU throttling over CDP; 4× is a mid-range phone), each round opens each
way in a new context, the two taking turns: a first visit (empty cache, network unthrottled, so
the snapshot's download costs next to nothing: its best case; a first visit the loader still
boots normally, having timed the link under 20 Mbit/s on a busy machine, is left out and
counted), then, once the service worker controls the page, a repeat visit (a reload). ms from
navigation to ready; medians with min–max,
and each ratio snapshot ÷ normal with a 90 % interval from resampling the rounds. The snapshot
pays where the ratio's interval lies under 0.85 (a win of 15 % or more, beyond the noise).
Starts no round that would end after --budget seconds (per CPU slowdown).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT)]

import startup  # noqa: E402
from rounds import in_turn, ratio_interval  # noqa: E402

import build  # noqa: E402

WAYS = {"snapshot": "", "normal": "?snapshot=off"}  # how the page is opened: the loader's flag
WINS_BY = 0.15  # what the snapshot must save, beyond the noise, to pay for itself


def visits(browser: Browser, url: str, cpu: float) -> dict[str, float | str]:
    """A first visit and a repeat one (a reload once the service worker controls the page) in a
    new context, the CPU `cpu`× slower: ms to ready of each, and how each booted."""
    context = browser.new_context()
    context.add_init_script(startup.MARKS)
    try:
        page = context.new_page()
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        first = startup.boot(page, url, startup.THROTTLED_TIMEOUT_MS)
        page.wait_for_function(startup.CONTROLLED, timeout=startup.THROTTLED_TIMEOUT_MS)
        repeat = startup.boot(page, None, startup.THROTTLED_TIMEOUT_MS)
        return {"first": first["ready"], "repeat": repeat["ready"],
                "first boot": first["boot"], "repeat boot": repeat["boot"]}
    finally:
        context.close()


def run(runs: int, dist: Path | None, cpus: list[float], budget: float) -> dict:
    """Rounds of both ways at each CPU slowdown, while another round fits in `budget` s."""
    load = os.getloadavg()[0]
    if dist is None:
        build.vendor()
        dist = build.build(out=startup.OUT / "sites" / "snapshot-ab")
    site = dist
    if not (site / build.SNAPSHOT_MANIFEST).is_file():
        raise SystemExit("snapshot_ab.py: the build made no snapshot (see build.py's message)")
    samples: dict[str, list[float]] = {}
    taken: dict[str, int] = {}  # visits made each way, whichever way they booted
    with sync_playwright() as playwright, ExitStack() as stack:
        url = startup.server(stack, site, startup.Gzipping).url
        browser = playwright.chromium.launch(**startup.launch_args())
        stack.callback(browser.close)
        for cpu in cpus:
            started, took, round_ = time.monotonic(), 0.0, 0
            while round_ < runs and time.monotonic() - started + took < budget:
                round_ += 1
                print(f"CPU {cpu:g}×: round {round_}/{runs}", flush=True)
                round_started = time.monotonic()
                for way in in_turn(list(WAYS), round_):
                    time.sleep(startup.SETTLE)
                    found = visits(browser, url + WAYS[way], cpu)
                    for visit in ("first", "repeat"):
                        booted = found[f"{visit} boot"] or "normal"
                        taken[key(cpu, visit, way)] = taken.get(key(cpu, visit, way), 0) + 1
                        if booted == way:  # else the loader chose otherwise: not this way's
                            samples.setdefault(key(cpu, visit, way), []).append(found[visit])
                took = time.monotonic() - round_started
    return {"samples": samples, "taken": taken, "cpus": cpus, "machine": startup.machine(),
            "load": f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end",
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")}


def key(cpu: float, visit: str, way: str) -> str:
    return f"CPU {cpu:g}× {visit} {way}"


def verdict(low: float, high: float) -> str:
    if high < 1 - WINS_BY:
        return f"snapshot wins by ≥ {WINS_BY:.0%}"
    if low > 1:
        return "snapshot loses"
    return f"no win of {WINS_BY:.0%} beyond the noise"


def report(result: dict) -> str:
    samples = result["samples"]
    lines = [f"Skill Check, snapshot boot against the normal boot of the same build; "
             f"{result['date']}", result["machine"], f"load average (1 min): {result['load']}",
             "", f"{'visit':18} {'snapshot':>30} {'normal (?snapshot=off)':>30}   "
             "snapshot ÷ normal (90 % interval)"]
    for cpu in result["cpus"]:
        for visit in ("first", "repeat"):
            snap, normal = samples.get(key(cpu, visit, "snapshot")), samples.get(
                key(cpu, visit, "normal"))
            if not snap or not normal:
                lines.append(f"CPU {cpu:g}× {visit}: too few visits booted each way")
                continue
            low, high = ratio_interval(snap, normal)
            ratio = statistics.median(snap) / statistics.median(normal)
            lines.append(f"{f'CPU {cpu:g}× {visit}':18} {startup.spread(snap):>30} "
                         f"{startup.spread(normal):>30}   {ratio:.2f} ({low:.2f}–{high:.2f}): "
                         f"{verdict(low, high)}")
    left = [f"{name}: {count - len(samples.get(name, []))} of {count}"
            for name, count in result["taken"].items() if len(samples.get(name, [])) < count]
    if left:
        lines += ["", "visits left out, the loader having booted them the other way (a first "
                  "visit it judged on a slow link): " + "; ".join(left)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", type=float, default=600,
                        help="seconds per CPU slowdown: start no round that would end later")
    parser.add_argument("--dist", type=Path, help="measure this build instead of building")
    parser.add_argument("--cpu", type=float, nargs="+", default=[1, startup.CPU_SLOWDOWN],
                        help=f"CPU slowdowns (default 1 {startup.CPU_SLOWDOWN})")
    args = parser.parse_args()
    result = run(args.runs, args.dist, args.cpu, args.budget)
    startup.OUT.mkdir(parents=True, exist_ok=True)
    (startup.OUT / "snapshot_ab.json").write_text(json.dumps(result, indent=1))
    print(report(result))


if __name__ == "__main__":
    main()
