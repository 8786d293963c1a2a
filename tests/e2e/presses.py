"""Pressing Roll, Flip or Re-roll as a person rolls again. The page takes a second press within
QUIET_MS of the last that rolled for a double tap's and ignores it (py/app/roll_guard.py), so a
test that rolls twice in a row waits that long between its presses, as no hand is quicker."""

from __future__ import annotations

from playwright.sync_api import Locator, Page

QUIET_MS = 400


def rested(page: Page) -> None:
    """Wait until QUIET_MS have gone since this page's last press_roll (none yet: at once)."""
    page.wait_for_function("quiet => !(performance.now() - window.__pressed < quiet)",
                           arg=QUIET_MS + 20)


def press_roll(page: Page, target: Locator | None = None, key: str = "",
               rolls: bool = True) -> None:
    """Press the main button (or `target`: Re-roll; with `key`, that key in the box `target`),
    never within QUIET_MS of this page's last such press that rolled. One the rules will refuse
    (`rolls` False) rolls nothing, so the next press need not wait for it."""
    rested(page)
    target = target or page.locator("#roll")
    if key:
        target.press(key)
    else:
        target.click()
    if rolls:
        pressed(page)


def pressed(page: Page) -> None:
    """A press that rolled was just made (by the keyboard, say): the next waits for it."""
    page.evaluate("window.__pressed = performance.now()")
