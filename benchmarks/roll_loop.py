"""The loop a player repeats all evening — read the result, change a number, roll again — measured
in pixels on a phone and a tablet, per system and mode (issue 35, points 4–6).

    python3 benchmarks/roll_loop.py [--dist DIR] [--no-build]

Builds the app (unless --no-build), serves it on 127.0.0.1 and, in Debian's Chromium with reduced
motion (the page's own scrolls are then instant), rolls each system and mode once (a team flip
with 3 helpers) on a phone (390×844), a tablet (820×1180) and a tablet turned (1180×820). For each:

  together  whether the headline, the chance it had and the outcome bar are all on screen, as the
            page leaves them after the roll
  knob      the scroll from there to the knob that steps the number changed most (under the
            result) and back to Roll: 0 when both are on screen
  form box  the same to that number's own box in the form (the way without knobs), for comparison
  height    the page height of form plus result (the form with its pickers and character bar)

Pixels, not times: the same build gives the same figures on any machine, busy or not.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "py"), str(ROOT)]

import startup  # noqa: E402
from app.adjust_html import adjusted  # noqa: E402

import build  # noqa: E402

SCREENS = {"phone": (390, 844), "tablet": (820, 1180), "landscape": (1180, 820)}
FORMS = [("flip", "unopposed"), ("flip", "aspect"), ("flip", "opposed"), ("flip", "team"),
         ("pool", None), ("swift", None), ("fluke", None), ("passages", None)]
HELPERS = 3  # a team flip's helpers, as the issue measures it
BUDGETS = {"knob": 422, "opposed": 1688, "team": 2532}  # half a phone screen; 2 and 3 screens

# How far the view must scroll to show the element whole, above the phone's fixed roll bar.
DISTANCE = """s => { const el = document.querySelector(s); if (!el) return null;
    const r = el.getBoundingClientRect(), pad = parseFloat(getComputedStyle(
        document.documentElement).scrollPaddingBottom) || 0, room = innerHeight - pad;
    if (el.closest(".roll-bar, .roll-row")) return 0;
    return r.top < 0 ? -r.top : r.bottom > room ? r.bottom - room : 0; }"""
TOGETHER = """() => ["#result .headline", "#result .had", "#result .outcome-bar"].every(s => {
    const el = document.querySelector(s), r = el && el.getBoundingClientRect();
    return r && r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1; })"""
HEIGHT = """() => document.querySelector("#check").getBoundingClientRect().height
    + document.querySelector(".result-panel").getBoundingClientRect().height"""


def measure(page: Page, url: str, system: str, mode: str | None) -> dict:
    fragment = f"#system={system}" + (f"&mode={mode}" if mode else "")
    page.evaluate("f => { location.hash = '#reset'; location.hash = f; }", fragment)
    page.wait_for_selector("#result .placeholder")
    if mode == "team":
        for _ in range(HELPERS - 1):
            page.get_by_role("button", name="Add a helper").click()
    page.wait_for_timeout(300)  # the odds of the form as it now is
    page.locator("#roll").click()
    page.wait_for_selector("#result .headline")
    page.wait_for_timeout(400)  # the page's own scroll to the result
    field = adjusted(system, mode)[0]
    form = f'.sysform[data-system="{system}"]' + (f'[data-mode="{mode}"]' if mode else "")
    return {
        "together": page.evaluate(TOGETHER),
        "knob": (page.evaluate(DISTANCE, f'#result [data-adjust="{field}"]') or 0)
        + page.evaluate(DISTANCE, "#roll"),
        "form box": page.evaluate(DISTANCE, f'{form} [name="{field}"]')
        + page.evaluate(DISTANCE, "#roll"),
        "height": round(page.evaluate(HEIGHT)),
        "field": field,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the app as built")
    parser.add_argument("--no-build", action="store_true", help="measure --dist as it is")
    args = parser.parse_args()
    if not args.no_build:
        build.build(out=args.dist)
    rows = []
    with sync_playwright() as playwright, ExitStack() as stack:
        url = startup.serve(stack, args.dist)
        browser = playwright.chromium.launch(**startup.launch_args())
        stack.callback(browser.close)
        for screen, (width, height) in SCREENS.items():
            page = browser.new_context(viewport={"width": width, "height": height},
                                       reduced_motion="reduce", is_mobile=width < 740,
                                       has_touch=True).new_page()
            page.goto(url + "#system=flip")
            page.wait_for_selector("html[data-ready]", state="attached", timeout=120_000)
            for system, mode in FORMS:
                rows.append((screen, system, mode, measure(page, url, system, mode)))
            page.context.close()
    print(f"{'screen':10} {'check':22} {'together':>8} {'knob px':>8} {'form box px':>12} "
          f"{'form+result px':>15}  stepped")
    for screen, system, mode, row in rows:
        check = system + (f" {mode}" if mode else "")
        budget = BUDGETS.get(mode or "") if screen == "phone" else None
        over = f" (over {budget})" if budget and row["height"] > budget else (
            f" (≤ {budget})" if budget else "")
        print(f"{screen:10} {check:22} {'yes' if row['together'] else 'NO':>8} "
              f"{row['knob']:8.0f} {row['form box']:12.0f} {row['height']:15}{over:14} "
              f"{row['field']}")
    worst = max(row["knob"] for *_, row in rows)
    print(f"\nworst scroll to the knob and back to Roll: {worst:.0f} px "
          f"(goal ≤ {BUDGETS['knob']}); headline, chance and bar together in "
          f"{sum(row['together'] for *_, row in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
