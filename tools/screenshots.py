"""Redraw docs/screenshots/: the built page in Debian's Chromium, one check of each kind.

    python3 tools/screenshots.py [--dist DIR] [--only NAME ...]

Each shot opens a fresh context at a fixed seed (`?seed=N`, so the same cards and dice every time),
with reduced motion (no dealing animation), presses the form's Flip/Roll button with the form as
it starts (or as the shot fills it), and saves the whole page. A shot with a `pick` first saves
MARA in the browser and picks that skill of her sheet for her; an `editor` shot opens her editor
instead of rolling and saves the screen; a `scene` does what it shows (the GM's side) and saves
the screen. Phones are 375 × 812 CSS px at 2×, the desktop 1280 × 800.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "py")]

from app.characters import CHARACTERS_KEY, Roster  # noqa: E402
from app.storage import MemoryStorage  # noqa: E402

from tools import browsers  # noqa: E402
from tools.site_server import Server  # noqa: E402

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
    pick: str = ""  # a skill of MARA's sheet, picked for her before the roll
    editor: str = ""  # the part of her editor to unfold, shown instead of a roll
    scene: Callable[[Page], None] | None = None  # what the shot shows instead of a roll
    party: bool = False  # PARTY saved in the browser first, rather than MARA for a `pick`


# A character with a sheet for the flip and the d10 pool, as the README's "At the table" tells.
MARA = {"luck": 3, "xp": 10, "notes": "Climbs first, asks later.", "sheets": {
    "flip": {"aspects": {"HS": 4, "AI": 2}, "skills": {
        "Athletics": {"rank": 3, "specialization": "Climbing", "familiarity": False}}},
    "pool": {"traits": {"Dexterity": 5, "Wits": 4}, "skills": {
        "Lockpicking": {"trait": "Dexterity", "score": 7, "bonus": 0}}}}}


ATHLETICS = (("flip-unopposed-skill", "Athletics · HS"), ("flip-unopposed-rank", "4"),
             ("flip-unopposed-aspect", "5"), ("flip-unopposed-difficulty", "Hard (15+)"))

def gm_commits(page: Page, code_shown: bool = False) -> None:
    """The GM's side with two secrets, the first revealed; with `code_shown`, the second's code
    as the player is shown it."""
    side = page.get_by_role("region", name="A secret difficulty")
    for difficulty, label in (("3", "Climb the wet wall"), ("4", "Lock on the vault door")):
        side.get_by_label("System").select_option(label="d10 pool")
        side.get_by_label(re.compile("^DR")).fill(difficulty)
        side.get_by_label(re.compile("^What it is for")).fill(label)
        side.get_by_role("button", name="Commit").click()
        dialog = page.get_by_role("dialog", name=f"Code: {label}")
        expect(dialog.locator("svg.qr")).to_be_visible()
        if code_shown and label.startswith("Lock"):
            return
        dialog.get_by_role("button", name="Close").click()
    wall = page.locator("#secrets > li").filter(has_text="Climb the wet wall")
    wall.get_by_role("button", name="Reveal").click()
    page.get_by_role("dialog").get_by_role("button", name="Close").click()
    page.locator("#secrets-heading").evaluate("heading => heading.scrollIntoView()")


def rolls_qr(page: Page) -> None:
    """Mara's Lockpicking (picked for the shot) rolled, and its replay link shown as a QR for
    the phone across the table."""
    page.get_by_role("button", name=re.compile(r"^Roll")).click()
    page.locator("#result-tools").get_by_role("button", name="Show QR").click()
    expect(page.get_by_role("dialog").locator("svg.qr")).to_be_visible()


def tonight(page: Page) -> None:
    """An evening of the table's rolls (Mara's and the d10 pool's own), weighed in Tonight's
    luck under the log."""
    for skill in ("Lockpicking", None, "Lockpicking", None, "Lockpicking", None):
        if skill:
            pick_for_mara(page, skill)
        else:
            page.get_by_label("Character", exact=True).select_option(label="No character")
        page.get_by_role("button", name=re.compile(r"^Roll")).click()
        expect(page.locator("#result .outcome")).to_be_visible()
        page.wait_for_timeout(450)  # past the double tap's quiet window
    button = page.get_by_role("button", name="Tonight’s luck")
    expect(button).to_be_enabled()
    button.click()
    page.locator("#tonight").evaluate("view => view.scrollIntoView({block: 'center'})")


def gm_party(page: Page) -> None:
    """The party's chances of Lockpicking against DR 3, best first."""
    side = page.get_by_role("region", name="The party’s chances")
    side.get_by_label("System").select_option(label="d10 pool")
    side.get_by_label("Skill").select_option(label="Lockpicking")
    side.get_by_label(re.compile("^DR")).fill("3")
    expect(side.get_by_role("button", name=re.compile("^Roll for"))).to_have_count(len(PARTY))
    page.locator("#party-heading").evaluate("heading => heading.scrollIntoView()")


SHOTS = [  # seeds picked for a spread of outcomes: great success, a fluke, a double up...
    Shot("flip-unopposed", "system=flip&mode=unopposed", seed=5, fill=ATHLETICS),
    Shot("flip-aspect", "system=flip&mode=aspect", seed=2),
    Shot("flip-opposed", "system=flip&mode=opposed", seed=1),
    Shot("flip-team", "system=flip&mode=team", seed=9),
    Shot("pool", "system=pool", seed=4, fill=(("pool-luck", "3"),)),  # Luck offered after it
    Shot("swift", "system=swift", seed=10, fill=(("swift-luck", "3"),)),
    Shot("fluke", "system=fluke", seed=2),
    Shot("passages", "system=passages", seed=5),
    Shot("flip-unopposed-dark", "system=flip&mode=unopposed", seed=7, dark=True, fill=ATHLETICS),
    Shot("pool-dark", "system=pool", seed=7, dark=True),
    Shot("desktop-flip-opposed", "system=flip&mode=opposed", seed=4, desktop=True),
    Shot("character-opposed", "system=flip&mode=opposed", seed=3, pick="Athletics"),
    Shot("character-editor", "system=pool", seed=1, pick="Lockpicking",
         editor="d10 pool and Swift sheet"),
    Shot("gm-secrets", "gm", seed=1, scene=gm_commits),
    Shot("gm-code", "gm", seed=1, scene=lambda page: gm_commits(page, code_shown=True)),
    Shot("roll-qr", "system=pool", seed=4, pick="Lockpicking", scene=rolls_qr),
    Shot("tonight", "system=pool", seed=6, pick="Lockpicking", scene=tonight),
    Shot("gm-party", "gm", seed=1, scene=gm_party, party=True),
]


# The GM's table for the party's chances: Mara, and two more with sheets for the d10 pool.
PARTY = {"Mara": MARA, **{name: {"luck": luck, "xp": 0, "notes": "", "sheets": {"pool": {
    "traits": {"Dexterity": dexterity}, "skills": {"Lockpicking": {
        "trait": "Dexterity", "score": score, "bonus": bonus}}}}}
    for name, luck, dexterity, score, bonus in (("Vex", 0, 6, 4, 1), ("Ana", 2, 3, 9, 0))}}


def characters_document(party: bool = False) -> str:
    """The browser's saved characters holding MARA alone (with `party`, all of PARTY), as the
    page itself writes them."""
    storage = MemoryStorage()
    roster = Roster(storage)
    for name, character in (PARTY if party else {"Mara": MARA}).items():
        roster.create(name, **character)
    return storage.get(CHARACTERS_KEY)


def pick_for_mara(page, skill: str) -> None:
    """Choose Mara in the character bar, then `skill` from her sheet."""
    page.get_by_label("Character", exact=True).select_option(label="Mara")
    sheet = page.get_by_label("From the sheet")
    option = sheet.locator("option").filter(has_text=re.compile(rf"^{re.escape(skill)}"))
    sheet.select_option(option.first.get_attribute("value"))


def open_editor(page, part: str) -> None:
    """Mara's editor with the sheet part `part` unfolded, scrolled to it (on a phone, Edit
    sits behind the bar's More)."""
    more = page.get_by_role("button", name="More for Mara")
    if more.is_visible():
        more.click()
    page.get_by_role("button", name="Edit character").click()
    summary = page.get_by_role("dialog").locator("summary").filter(has_text=part)
    summary.click()
    summary.scroll_into_view_if_needed()


def take(browser, url: str, shot: Shot) -> Path:
    context = browser.new_context(**(DESKTOP if shot.desktop else PHONE), reduced_motion="reduce",
                                  color_scheme="dark" if shot.dark else "light",
                                  service_workers="block")
    try:
        if shot.pick or shot.party:
            context.add_init_script(f"localStorage.setItem({json.dumps(CHARACTERS_KEY)}, "
                                    f"{json.dumps(characters_document(shot.party))})")
        page = context.new_page()
        page.goto(f"{url}?seed={shot.seed}#{shot.route}")
        page.locator("html[data-ready='true']").wait_for(state="attached", timeout=60_000)
        if shot.pick:
            pick_for_mara(page, shot.pick)
        path = OUT / f"{shot.name}.png"
        if shot.editor or shot.scene:
            if shot.editor:
                open_editor(page, shot.editor)
            else:
                shot.scene(page)
            page.screenshot(path=path, animations="disabled")
            return path
        for box_id, value in shot.fill:
            box = page.locator(f"#{box_id}")
            if box.evaluate("element => element.tagName") == "SELECT":
                box.select_option(label=value)
            else:
                box.fill(value)
        page.get_by_role("button", name=re.compile(r"^(Flip|Roll)")).click()
        expect(page.locator("#result")).to_contain_text(re.compile(r"\d"))
        page.wait_for_load_state("networkidle")  # fonts and card faces drawn
        # A screen as tall as the page: the roll bar drawn where it rests, at the foot of the
        # form on a desktop (not stuck over the form, where a full-page shot leaves it).
        tall = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": page.viewport_size["width"], "height": tall})
        page.screenshot(path=path, full_page=True, animations="disabled")
        return path
    finally:
        context.close()


def build_site() -> Path:
    """dist/ as `python3 build.py build` makes it (vendoring first if need be): run, not imported,
    so that nothing under tools/ imports build.py."""
    if subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT).returncode:
        raise SystemExit("screenshots.py: the build failed (its error is above)")
    return ROOT / "dist"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, help="use this build instead of building")
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=[s.name for s in SHOTS],
                        help="draw only these shots")
    args = parser.parse_args(argv)
    dist = args.dist or build_site()
    chromium = browsers.find_chromium()
    if chromium is None:
        raise SystemExit("screenshots.py: no Chromium (apt-get install chromium, or CHROMIUM_PATH)")
    server = Server(dist).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(**browsers.chromium_launch_args(chromium))
            for shot in SHOTS:
                if args.only and shot.name not in args.only:
                    continue
                print(take(browser, server.url, shot).relative_to(ROOT))
            browser.close()
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
