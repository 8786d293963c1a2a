"""Redraw docs/screenshots/: the built page in Debian's Chromium, one check of each kind.

    python3 tools/screenshots.py [--dist DIR]

Each shot opens a fresh context at a fixed seed (`?seed=N`, so the same cards and dice every time),
with reduced motion (no dealing animation), presses the form's Flip/Roll button with the form as
it starts, and saves the whole page. Phones are 375 × 812 CSS px at 2×, the desktop 1280 × 800.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from tools import browsers  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PHONE = {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}


@dataclass(frozen=True)
class Shot:
    name: str
    route: str  # the fragment: system and mode
    seed: int
    dark: bool = False
    desktop: bool = False
    fill: tuple[tuple[str, str], ...] = ()  # (box id, value): a choice for a list, else typed


ATHLETICS = (("flip-unopposed-skill", "Athletics · HS"), ("flip-unopposed-rank", "4"),
             ("flip-unopposed-aspect", "5"), ("flip-unopposed-difficulty", "Hard (15+)"))

SHOTS = [  # seeds picked for a spread of outcomes: great success, a fluke, a double up...
    Shot("flip-unopposed", "system=flip&mode=unopposed", seed=5, fill=ATHLETICS),
    Shot("flip-aspect", "system=flip&mode=aspect", seed=2),
    Shot("flip-opposed", "system=flip&mode=opposed", seed=1),
    Shot("flip-team", "system=flip&mode=team", seed=9),
    Shot("pool", "system=pool", seed=2),
    Shot("swift", "system=swift", seed=2),
    Shot("fluke", "system=fluke", seed=2),
    Shot("passages", "system=passages", seed=5),
    Shot("flip-unopposed-dark", "system=flip&mode=unopposed", seed=7, dark=True, fill=ATHLETICS),
    Shot("pool-dark", "system=pool", seed=7, dark=True),
    Shot("desktop-flip-opposed", "system=flip&mode=opposed", seed=4, desktop=True),
]


def take(browser, url: str, shot: Shot) -> Path:
    context = browser.new_context(**(DESKTOP if shot.desktop else PHONE), reduced_motion="reduce",
                                  color_scheme="dark" if shot.dark else "light",
                                  service_workers="block")
    try:
        page = context.new_page()
        page.goto(f"{url}?seed={shot.seed}#{shot.route}")
        page.locator("html[data-ready='true']").wait_for(state="attached", timeout=60_000)
        for box_id, value in shot.fill:
            box = page.locator(f"#{box_id}")
            if box.evaluate("element => element.tagName") == "SELECT":
                box.select_option(label=value)
            else:
                box.fill(value)
        page.get_by_role("button", name=re.compile(r"^(Flip|Roll)")).click()
        expect(page.locator("#result")).to_contain_text(re.compile(r"\d"))
        page.wait_for_load_state("networkidle")  # fonts and card faces drawn
        path = OUT / f"{shot.name}.png"
        page.screenshot(path=path, full_page=True, animations="disabled")
        return path
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, help="use this build instead of building")
    args = parser.parse_args(argv)
    if args.dist is None:
        build.vendor()
    dist = args.dist or build.build()
    chromium = browsers.find_chromium()
    if chromium is None:
        raise SystemExit("screenshots.py: no Chromium (apt-get install chromium, or CHROMIUM_PATH)")
    server = build.Server(dist).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(**browsers.chromium_launch_args(chromium))
            for shot in SHOTS:
                print(take(browser, server.url, shot).relative_to(ROOT))
            browser.close()
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
