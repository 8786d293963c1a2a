"""Focus follows the roll (issue 35, point 7), on a phone (375 × 812, the roll bar fixed at the
bottom) and a desktop (1280 × 800, the bar at the foot of the form's column): after a roll the
new headline is on screen and clear of the bar, focus stays on what the player pressed (Roll, Re-
roll, the box they pressed Enter in), a Tab never stops under the bar, and a result redrawn in
place (another card kept, Luck taken) keeps focus inside it rather than dropping it to <body>."""

from __future__ import annotations

import re

import pytest
from conftest import DESKTOP, PHONE
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from presses import press_roll
from ready import wait_ready
from test_page import fill, labelled, open_form
from test_table import lockpicking_roll, roll

# Where an element is against the roll bar: wholly on screen, and not under the bar (the
# element's box and the bar's overlap in neither direction). None: the element is in the bar.
PLACE = """selector => {
  const el = selector ? document.querySelector(selector) : document.activeElement;
  const bar = document.querySelector(".action");
  if (bar.contains(el)) return null;
  const r = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
  const under = r.bottom > b.top + 0.5 && r.top < b.bottom - 0.5
                && r.right > b.left && r.left < b.right;
  const shown = r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1;
  return {name: el.id || el.getAttribute("aria-label") || el.textContent.trim().slice(0, 40),
          inForm: document.getElementById("check").contains(el),
          box: [r.top, r.bottom, r.left, r.right].map(Math.round),
          bar: [b.top, b.bottom, b.left, b.right].map(Math.round), clear: shown && !under};
}"""


def place(page: Page, selector: str | None = None) -> dict | None:
    """Where `selector`'s element (else the focused one) is against the bar (PLACE)."""
    return page.evaluate(PLACE, selector)


def comes_clear(page: Page, selector: str | None = None) -> None:
    """Wait for the page's own scroll to leave the element wholly on screen, clear of the bar."""
    try:
        page.wait_for_function(f"s => ({PLACE})(s)?.clear", arg=selector, timeout=5_000)
    except PlaywrightTimeout:
        raise AssertionError(f"not clear of the roll bar: {place(page, selector)}") from None


def focused(page: Page) -> str:
    """What has focus, in words: its id, else its accessible label, else its tag."""
    return page.evaluate("""() => { const el = document.activeElement;
        return el.id || el.getAttribute("aria-label") || el.tagName; }""")


def focus_in_result(page: Page) -> None:
    """Focus is inside the result panel's #result, not dropped to <body>."""
    page.wait_for_function("() => document.getElementById('result')"
                           ".contains(document.activeElement)", timeout=5_000)


@pytest.fixture(params=["phone", "desktop"])
def still(request) -> Page:
    """The reset shared page of each size, its scrolls instant, so what is on screen can be read
    as soon as the page has scrolled."""
    page = request.getfixturevalue("app" if request.param == "phone" else "desktop_app")
    page.emulate_media(reduced_motion="reduce")
    yield page
    page.emulate_media(reduced_motion="no-preference")


def tall_team(page: Page) -> Locator:
    """A team flip of a primary and four helpers: its result is taller than the screen."""
    form = open_form(page, "flip", "team")
    for _ in range(3):
        form.get_by_role("button", name="Add a helper").click()
    return form


def test_a_roll_from_the_foot_of_the_page_shows_a_tall_results_headline(still):
    tall_team(still)
    roll(still)
    assert still.evaluate("""() => document.querySelector(".result-panel")
        .getBoundingClientRect().height > innerHeight"""), "the result fits: not a tall one"
    still.evaluate("scrollTo(0, document.body.scrollHeight)")  # down at the log
    press_roll(still, still.locator("#roll"), key="Enter")  # by keyboard, on the focused button
    expect(still.locator("#log-list > li")).to_have_count(2)
    comes_clear(still, "#result .headline")
    assert focused(still) == "roll"  # Enter or Space rolls again; the bar is always on screen

    still.evaluate("scrollTo(0, document.querySelector('.result-panel').offsetTop + 400)")
    press_roll(still, still.locator("#roll"), key=" ")  # inside the panel, its top gone by
    expect(still.locator("#log-list > li")).to_have_count(3)
    comes_clear(still, "#result .headline")
    assert focused(still) == "roll"


def test_re_roll_keeps_focus_and_the_headline_and_re_roll_are_clear_of_the_bar(still):
    """Re-roll stays focused; it is on screen with the headline where the screen holds both."""
    form = open_form(still, "flip", "unopposed")
    fill(form, "Rank", 3)
    roll(still)
    comes_clear(still, "#result .headline")
    assert focused(still) == "roll"
    still.evaluate("scrollTo(0, 0)")
    again = still.get_by_role("button", name=re.compile(r"^Re-roll "))
    again.focus()  # a keyboard user Tabbed to it, under the result
    comes_clear(still)
    press_roll(still, again, key="Enter")
    expect(still.locator("#log-list > li")).to_have_count(2)
    comes_clear(still, "#result .headline")
    expect(again).to_be_focused()  # Enter rolls again from here
    if still.evaluate(BOTH_FIT):  # else the headline comes first, Re-roll below it
        comes_clear(still)
    assert still.viewport_size["width"] < 740 or still.evaluate(BOTH_FIT)  # the desktop's do


# Whether the screen above the bar holds the result's headline and the Re-roll under it.
BOTH_FIT = """() => { const top = document.querySelector("#result .headline")
    .getBoundingClientRect().top, end = document.getElementById("roll-again")
    .getBoundingClientRect().bottom;
  return end - top + 6 <= innerHeight - 12
    - parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom); }"""


def test_enter_in_a_box_rolls_and_the_box_keeps_focus(still):
    form = open_form(still, "flip", "unopposed")
    rank = labelled(form, "Rank")
    rank.fill("2")
    press_roll(still, rank, key="Enter")
    expect(still.locator("#log-list > li")).to_have_count(1)
    comes_clear(still, "#result .headline")
    expect(rank).to_be_focused()  # the player changes a number and presses Enter again
    chance = still.locator("#odds .odds-success")
    before = chance.get_attribute("data-fraction")
    rank.fill("4")  # the odds follow, and leave the box focused
    expect(chance).not_to_have_attribute("data-fraction", before)
    expect(rank).to_be_focused()


SCREENS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.mark.parametrize(("screen", "query"), [("desktop", ""), ("desktop", "?seed=3"),
                                               ("phone", ""), ("phone", "?seed=3")])
@pytest.mark.parametrize(("system", "mode"), [("flip", "unopposed"), ("pool", None)])
def test_no_tab_stop_of_the_form_is_under_the_roll_bar(module_contexts, app_url, screen, query,
                                                       system, mode):
    """From the first box to Roll, every Tab stop is scrolled wholly on screen and clear of the
    bar: at 1280 px the bar stands over the form's column, and a seeded page's is taller."""
    page = module_contexts(**SCREENS[screen], reduced_motion="reduce").new_page()
    page.goto(app_url + query + "#system=flip")
    wait_ready(page)
    form = open_form(page, system, mode)
    page.get_by_role("radio", name="Card flip").focus()
    page.evaluate("scrollTo(0, 0)")
    stops = []
    for _ in range(80):
        page.keyboard.press("Tab")
        if focused(page) == "roll":
            break
        stops.append(place(page))
    else:
        raise AssertionError(f"Tab never reached Roll: {stops}")
    expect(form).to_be_visible()
    assert sum(1 for stop in stops if stop and stop["inForm"]) > 5, stops  # the form's boxes
    covered = [stop for stop in stops if stop and not stop["clear"]]
    assert not covered, covered


def test_keeping_another_card_keeps_focus_on_the_card_kept(still):
    form = open_form(still, "flip", "unopposed")
    fill(form, "Rank", 3)
    fill(form, "Aspect", 2)
    fill(form, "My cards", "2S KH 7D")
    press_roll(still)
    result = still.locator("#result")
    expect(result.get_by_role("img", name="King of Hearts, kept")).to_be_visible()
    choose = result.get_by_role("button", name="Keep the Seven of Diamonds instead")
    choose.focus()
    choose.press("Enter")
    kept = result.get_by_role("img", name="Seven of Diamonds, kept")
    expect(kept).to_be_focused()  # the result was drawn again: focus is not left on <body>
    comes_clear(still)
    still.keyboard.press("Shift+Tab")  # back to the cards beside it, and another one kept
    expect(result.get_by_role("button", name="Keep the King of Hearts instead")).to_be_focused()
    still.keyboard.press("Enter")
    expect(result.get_by_role("img", name="King of Hearts, kept")).to_be_focused()
    focus_in_result(still)
    still.keyboard.press("Tab")
    expect(result.get_by_role("button", name="Keep the Seven of Diamonds instead")).to_be_focused()
    still.keyboard.press("Shift+Tab")  # a kept card is focused once, never a Tab stop of its own
    expect(result.get_by_role("button", name="Keep the Two of Spades instead")).to_be_focused()


def test_taking_a_luck_offer_keeps_focus_on_the_next_offer_then_the_headline(app):
    lockpicking_roll(app, "Vex", luck=5, dr=3, dice="1 2 9 9 3")
    offers = app.locator("#result").get_by_role("group", name="Spend Luck on these dice?")
    first = offers.get_by_role("button", name="Spend 2 Luck → Success (IoS 2)", exact=True)
    first.focus()
    first.press("Enter")
    expect(app.locator("#result .headline")).to_contain_text("Success (IoS 2)")
    expect(offers.get_by_role("button", name="2 more Luck → Critical Success (4 in all)",
                              exact=True)).to_be_focused()
    comes_clear(app)
    app.keyboard.press("Enter")  # the last offer taken: none is left, the headline has focus
    expect(app.locator("#result .headline")).to_contain_text("Critical Success")
    expect(app.locator("#result .headline")).to_be_focused()
    focus_in_result(app)
    comes_clear(app)
