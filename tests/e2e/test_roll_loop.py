"""The roll loop at the table (issue 35, points 1 and 2), on the phone: the roll bar's chips go to
what they name and keep the result, and a double tap on Roll, Flip or Re-roll rolls once — by
touch, mouse or Enter held down — while a deliberate roll after it still rolls."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from presses import QUIET_MS
from test_glance import comes_into_view
from test_page import labelled
from test_table import roll

# Every click that reaches Roll or Re-roll, by its time: what the taps below did reach.
RECORD = """() => { window.__taps = [];
  for (const id of ["roll", "roll-again"]) document.getElementById(id).addEventListener(
    "click", event => window.__taps.push(event.timeStamp), true); }"""


def taps(page: Page, count: int) -> list[float]:
    """Wait until `count` clicks have reached a rolling button; their times (ms)."""
    page.wait_for_function("n => window.__taps.length >= n", arg=count)
    return page.evaluate("window.__taps")


def quiet(page: Page) -> None:
    """Wait until a new press is a deliberate one: QUIET_MS after the last that reached a button."""
    page.wait_for_function("t => performance.now() > t", arg=max(taps(page, 1)) + QUIET_MS + 50)


def checks_logged(page: Page) -> int:
    """The checks in the stored log, once every pending write is done (as when the page hides)."""
    page.evaluate("dispatchEvent(new Event('pagehide'))")
    log = json.loads(page.evaluate("localStorage.getItem('skillcheck.log')") or '{"entries": []}')
    return sum(entry["kind"] == "check" for entry in log["entries"])


def double_tap(page: Page, selector: str, gap_ms: int = 120) -> None:
    """Two touches `gap_ms` apart, as a thumb double taps, each on the button where it is then (a
    roll can move Re-roll, drawn under a result of another height). Real touches, sent as
    Playwright's touchscreen sends them, stamped with the times a thumb makes them: finding the
    button again waits for the first roll, which on a busy machine takes longer than a thumb, so
    the second arrives late with its true time, as a tap queued behind a slow roll does."""
    session = page.context.new_cdp_session(page)
    at = None
    for _ in range(2):
        x, y = centre(page, selector)
        at = time.time() if at is None else at + gap_ms / 1000
        for kind, points in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
            session.send("Input.dispatchTouchEvent",
                         {"type": kind, "touchPoints": points, "timestamp": at})
    session.detach()


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.fixture
def still(app: Page) -> Iterator[Page]:
    """The reset phone page, its scrolls instant (over before the second tap) and every press on
    Roll or Re-roll recorded."""
    app.emulate_media(reduced_motion="reduce")
    app.evaluate(RECORD)
    yield app
    app.emulate_media(reduced_motion="no-preference")


def test_the_bars_chips_go_to_what_they_name_and_keep_the_result(app):
    rank = labelled(app.locator("#form-flip-unopposed"), "Rank")
    rank.fill("2")
    roll(app)
    headline = app.locator("#result .headline").text_content()
    address = app.evaluate("location.hash")
    assert address == "#system=flip&mode=unopposed"
    for chip, place in (("#roll-last", "#result-heading"), ("#roll-chance", "#odds-heading")):
        app.evaluate("scrollTo(0, 0)")
        app.locator(chip).tap()
        comes_into_view(app, place)
        expect(app.locator("#result .headline")).to_have_text(headline)
        expect(app.locator("#result .placeholder")).to_have_count(0)
        assert app.evaluate("location.hash") == address
        expect(rank).to_have_value("2")  # the form as it was typed
        expect(app.locator(place)).to_be_focused()  # Tab goes on from there, as after a link
    # Any other place named in the address (an anchor, a typed #) is not a link either.
    app.evaluate("location.hash = '#log-heading'")
    app.wait_for_function("address => location.hash === address", arg=address)
    expect(app.locator("#result .headline")).to_have_text(headline)
    expect(rank).to_have_value("2")
    assert checks_logged(app) == 1


def test_a_double_tap_rolls_once_and_a_deliberate_tap_rolls_again(still):
    page = still
    double_tap(page, "#roll")
    first, second = taps(page, 2)
    assert second - first < QUIET_MS  # both taps came within the quiet, and both reached Roll
    expect(page.locator("#result .outcome")).to_be_visible()
    quiet(page)
    page.touchscreen.tap(*centre(page, "#roll"))  # a deliberate roll: it rolls
    taps(page, 3)
    assert checks_logged(page) == 2

    # Re-roll, the same, on a screen tall enough for the result and Re-roll under it: on a
    # shorter one a roll brings its headline into view first, and Re-roll may go under the bar.
    phone = page.viewport_size
    page.set_viewport_size({"width": phone["width"], "height": 1200})
    try:
        page.evaluate("document.getElementById('roll-again').scrollIntoView({block: 'center'})")
        comes_into_view(page, "#roll-again")
        quiet(page)
        double_tap(page, "#roll-again")
        tapped = taps(page, 5)
    finally:
        page.set_viewport_size(phone)
    assert tapped[4] - tapped[3] < QUIET_MS
    assert checks_logged(page) == 3


def test_a_double_click_or_enter_held_down_rolls_once_and_enter_still_rolls(still):
    page = still
    page.locator("#roll").dblclick()  # a mouse's double click: two clicks
    taps(page, 2)
    assert checks_logged(page) == 1

    rank = labelled(page.locator("#form-flip-unopposed"), "Rank")
    rank.focus()
    quiet(page)
    start = page.evaluate("performance.now()")
    page.keyboard.down("Enter")  # a press in a box submits the form: one roll
    page.wait_for_function("t => performance.now() > t", arg=start + QUIET_MS + 100)
    for _ in range(3):  # held past the keyboard's repeat delay: it repeats, as keys do
        page.keyboard.down("Enter")
    page.keyboard.up("Enter")
    expect(page.locator("#log-list > li")).to_have_count(2)
    assert checks_logged(page) == 2

    start = page.evaluate("performance.now()")
    page.wait_for_function("t => performance.now() > t", arg=start + QUIET_MS + 50)
    rank.press("Enter")  # pressed again, on purpose: rolls again
    expect(page.locator("#log-list > li")).to_have_count(3)
    assert checks_logged(page) == 3
