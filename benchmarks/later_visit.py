"""A player coming back another day: the next visit in a browser started afresh.

    python3 benchmarks/later_visit.py [--runs N] [--dist DIR] [--before DIR]

startup.py's repeat visit is a reload in the same tab, and the browser process still holds what the
first visit compiled: a runtime booted once more in a Web Worker on the first visit made that
reload a fifth faster, and a later visit after a restart no faster at all (docs/performance.md).
A player's next visit usually starts a new browser process. Each round, for the app (and
--before's build) and the bare PyScript page, in turn: in a new profile, a first visit (the app
until its service worker controls it), a reload and SETTLE_S of play; the browser quits, starts
again on that profile and opens the page: the "later" visit, timed (ms from navigation to
ready); then a reload in that browser ("later, reloaded"). Unthrottled, served gzip. Prints
medians (min–max) and ratios to the bare page, with a 90 % interval from resampling the rounds.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT)]

import startup  # noqa: E402
from rounds import in_turn, ratio_text  # noqa: E402

# After the first visit's reload, as a player goes on playing: V8 keeps a WebAssembly module's
# code some seconds after it optimized its busiest functions (2 s after the last, by default).
SETTLE_S = 10


def later(playwright, url: str, worker: bool) -> dict[str, float]:
    """One player's later visit, and its reload, in a browser started again on their profile."""
    with tempfile.TemporaryDirectory(prefix="later-visit-") as profile:
        with ExitStack() as first:  # the first visit and its reload; the browser quits after
            startup.persistent(first, playwright, url, worker, profile)
            time.sleep(SETTLE_S)
        context = playwright.chromium.launch_persistent_context(profile, **startup.launch_args())
        try:
            context.add_init_script(startup.MARKS)
            page = context.pages[0] if context.pages else context.new_page()
            visit = startup.boot(page, url)["ready"]
            return {"later": visit, "later, reloaded": startup.boot(page)["ready"]}
        finally:
            context.close()


def run(runs: int, dist: Path | None, before: Path | None) -> dict[tuple[str, str], list[float]]:
    """(kind of visit, page) → ms to ready in each round."""
    sites = startup.make_sites(dist)
    samples: dict[tuple[str, str], list[float]] = {}
    with sync_playwright() as playwright, ExitStack() as stack:
        pages = {"app": startup.server(stack, sites["app"], startup.Gzipping).url,
                 "bare": startup.server(stack, sites["bare"], startup.Gzipping).url}
        if before:
            pages["app before"] = startup.server(stack, before, startup.Gzipping).url
        for round_ in range(runs):
            print(f"round {round_ + 1}/{runs}", flush=True)
            for name in in_turn(list(pages), round_):
                for kind, ms in later(playwright, pages[name], name != "bare").items():
                    samples.setdefault((kind, name), []).append(ms)
    return samples


def report(samples: dict[tuple[str, str], list[float]]) -> str:
    load = os.getloadavg()[0]
    lines = [f"Skill Check, a later visit in a browser started again; {startup.machine()}",
             f"load average (1 min) at the end: {load:.1f}", "",
             f"{'measure':28} {'median (min–max)':>34}   ratio (90 % interval)"]
    for (kind, page), values in samples.items():
        ratio = "" if page == "bare" else ratio_text(values, samples[kind, "bare"])
        lines.append(f"{kind + ' ' + page:28} {startup.spread(values):>34}   {ratio}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dist", type=Path, help="measure this build instead of building")
    parser.add_argument("--before", type=Path, help="also this earlier build")
    args = parser.parse_args()
    print(report(run(args.runs, args.dist, args.before)))


if __name__ == "__main__":
    main()
