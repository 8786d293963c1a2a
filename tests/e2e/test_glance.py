"""Inputs, odds and result within one glance, on a phone and on both sides of a tablet: Roll and
the chance of success never scroll away, the result is one tap from anywhere in the form, and a
player without characters does not scroll past an empty character bar."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from presses import press_roll
from ready import wait_ready
from test_page import FORM_IDS, labelled, open_form
from test_table import flip_sheet, new_character, pick, roll

SCREENS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 820, "height": 1180},
           "landscape": {"width": 1180, "height": 820}}


@pytest.fixture(scope="module", params=list(SCREENS))
def screen(request, module_contexts, app_url) -> Page:
    """One booted page per screen size, shared by this module's tests. Reduced motion makes the
    page's scrolls instant, so what is on screen can be read right after a tap."""
    page = module_contexts(viewport=SCREENS[request.param], reduced_motion="reduce").new_page()
    page.goto(app_url + "#system=flip")
    wait_ready(page)
    return page


SEEN = """s => { const el = document.querySelector(s), r = el.getBoundingClientRect();
    if (!(r.height > 0 && r.top >= -1 && r.left >= 0 && r.bottom <= innerHeight + 1
          && r.right <= innerWidth)) return false;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return el === top || el.contains(top); }"""  # wholly on screen, and not under the roll bar


# Whether the result's panel, Re-roll and Share included, fits above the phone's fixed bar.
FITS = """() => document.querySelector(".result-panel").getBoundingClientRect().height
    <= innerHeight
       - (parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom) || 0)"""


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is on the screen now, uncovered, without scrolling."""
    return page.evaluate(SEEN, selector)


def comes_into_view(page: Page, selector: str) -> None:
    """Wait for the page's own scroll to bring the element on screen, uncovered."""
    page.wait_for_function(SEEN, arg=selector)


@pytest.mark.parametrize(("system", "mode"), list(FORM_IDS), ids=lambda v: str(v))
def test_roll_and_its_chance_stay_in_view_and_the_result_follows(screen, system, mode):
    form = open_form(screen, system, mode)
    form.locator("input, select").first.focus()  # the first box of the form, in view
    screen.evaluate("document.activeElement.scrollIntoView({block: 'center'})")
    assert in_view(screen, "#roll") and in_view(screen, "#roll-chance")
    chance = screen.locator("#odds .odds-success strong").text_content()
    expect(screen.locator("#roll-chance strong")).to_have_text(chance)

    press_roll(screen)
    headline = screen.locator("#result .headline")
    expect(headline).to_be_visible()
    comes_into_view(screen, "#result .headline")
    # Issue 35.4: the chance it was rolled at and where it landed, on screen with the headline.
    expect(screen.locator("#result .had")).to_have_text(f"it had {chance} to succeed")
    assert in_view(screen, "#result .had") and in_view(screen, "#result .outcome-bar")
    expect(screen.locator("#result .outcome-bar rect.landed")).to_have_count(1)
    if screen.evaluate(FITS):  # the buttons under it too, above the phone's bar
        comes_into_view(screen, "#roll-again")
        assert in_view(screen, "#share") and in_view(screen, "#result .headline")
    assert in_view(screen, "#roll")

    screen.evaluate("scrollTo(0, 0)")  # back to the top of the form: the result is one tap away
    last = screen.locator("#roll-last")
    expect(last).to_contain_text(headline.locator("strong").text_content())
    assert in_view(screen, "#roll-last")
    last.click()
    comes_into_view(screen, "#result-heading")


@pytest.mark.parametrize(("system", "mode"), list(FORM_IDS), ids=lambda v: str(v))
def test_the_number_changed_most_is_stepped_under_the_result_and_rolled(screen, system, mode):
    """Issue 35.5: from reading a result to changing its difficulty (or dice, or bonus) and
    rolling again is no scroll at all: its − and + sit under the headline, Roll in the bar."""
    form = open_form(screen, system, mode)
    press_roll(screen)
    comes_into_view(screen, "#result .headline")
    knobs = screen.get_by_role("group", name="Next roll")
    expect(knobs).to_be_visible()
    step = knobs.locator("[data-adjust-step]:not([disabled])").first
    field = step.get_attribute("data-adjust")
    box = form.locator(f'[name="{field}"]')
    before, scrolled = box.input_value(), screen.evaluate("scrollY")
    assert in_view(screen, "#result .adjust") and in_view(screen, "#result .headline")
    step.click()
    expect(box).not_to_have_value(before)
    shown = knobs.locator(f'output[data-adjust-value="{field}"]')
    if box.evaluate("el => el.tagName") == "SELECT":
        expect(shown).to_have_text(box.evaluate("el => el.options[el.selectedIndex].text"))
    else:
        expect(shown).to_have_text(box.input_value())
    assert in_view(screen, "#roll")
    press_roll(screen)
    screen.wait_for_function("v => { const e = JSON.parse(localStorage.getItem("
                             "'skillcheck.log')).entries.at(-1); return e && e.kind === 'check'"
                             " && String(v[0].split('.').reduce((r, k) => r?.[k], e.request))"
                             " === v[1]; }", arg=[field, box.input_value()])
    assert abs(screen.evaluate("scrollY") - scrolled) <= 422  # half a phone screen at most


@pytest.mark.parametrize("mode", ["unopposed", "aspect", "team"])
def test_the_difficulty_the_gm_sets_every_time_comes_first(screen, mode):
    # It sat under Specialization, Advanced, Familiarity and "Enter my own cards".
    form = open_form(screen, "flip", mode)
    first = form.locator("input, select").first
    expect(first).to_have_accessible_name(re.compile("^Difficulty"))
    assert first.bounding_box()["y"] < labelled(form, "Flip modifier").first.bounding_box()["y"]


def test_a_mistake_takes_the_chance_away_until_it_is_mended(screen):
    form = open_form(screen, "pool")
    labelled(form, "Skill").fill("99")  # out of range: refused beside the box
    expect(screen.locator("#roll-chance")).to_be_hidden()
    labelled(form, "Skill").fill("7")
    expect(screen.locator("#roll-chance")).to_be_visible()


def test_from_740_px_the_form_and_the_result_stand_side_by_side(screen):
    boxes = screen.evaluate("""() => Object.fromEntries(["#check", ".result-panel"]
        .map(s => [s, document.querySelector(s).getBoundingClientRect().toJSON()]))""")
    form, result = boxes["#check"], boxes[".result-panel"]
    if screen.viewport_size["width"] >= 740:
        assert result["x"] >= form["x"] + form["width"]
    else:  # one column on a phone: the result under the form
        assert result["y"] >= form["y"] + form["height"]


def test_without_characters_the_character_bar_is_one_row(screen):
    screen.evaluate("localStorage.clear()")
    screen.reload()
    wait_ready(screen)
    who = screen.locator("#who").bounding_box()
    new = screen.get_by_role("button", name="New character").bounding_box()
    pick = screen.get_by_label("Character", exact=True).bounding_box()
    assert abs(new["y"] - pick["y"]) < pick["height"]  # side by side, not stacked
    assert who["height"] <= 150


# The room a <select> leaves its chosen option's words, against their width in its own font.
CLIPPED = """el => { const s = getComputedStyle(el), pen = document.createElement("canvas")
    .getContext("2d"); pen.font = s.font;
    return pen.measureText(el.options[el.selectedIndex].text).width
        > el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }"""


@pytest.mark.parametrize("width", [360, 375])
def test_on_a_small_phone_the_empty_character_list_is_not_clipped(module_contexts, app_url,
                                                                   width):
    page = module_contexts(viewport={"width": width, "height": 740}).new_page()
    page.goto(app_url + "#system=pool")
    wait_ready(page)
    character = page.get_by_label("Character", exact=True)
    expect(character).to_have_value("")  # "No character", beside or over "New character"
    assert not character.evaluate(CLIPPED)


def test_on_a_phone_the_character_bar_lists_read_whole(module_contexts, app_url):
    page = module_contexts(viewport={"width": 375, "height": 740}).new_page()
    page.goto(app_url + "#system=flip&mode=opposed")
    wait_ready(page)
    new_character(page, "Mara", sheet=flip_sheet)
    pick(page, "Athletics")
    lists = page.locator("#who select")
    expect(page.get_by_label("Sheet fills")).to_be_visible()
    assert lists.evaluate_all(f"els => els.filter({CLIPPED}).map(el => el.id)") == []


# How far the page's last panel reaches under the fixed roll bar, scrolled to the end (<= 0: not).
UNDER_BAR = """() => { window.scrollTo(0, document.documentElement.scrollHeight);
    const bar = document.querySelector(".action").getBoundingClientRect().top;
    return Math.max(...[...document.querySelectorAll(".panel")]
        .map(el => el.getBoundingClientRect().bottom)) - bar; }"""


@pytest.mark.parametrize(("width", "query"), [(320, ""), (320, "?seed=3"), (375, "?seed=3")])
def test_a_tall_roll_bar_never_covers_the_end_of_the_page(module_contexts, app_url, width,
                                                          query):
    # An opposed flip's chip names "Card flip, opposed", and a seeded page says so in the bar:
    # the bar at its tallest.
    page = module_contexts(viewport={"width": width, "height": 740},
                           reduced_motion="reduce").new_page()
    page.goto(app_url + query + "#system=flip&mode=opposed")
    wait_ready(page)
    roll(page)
    expect(page.locator("#roll-last")).to_contain_text("opposed")
    assert page.evaluate(UNDER_BAR) <= 0


def test_on_a_320_px_phone_every_stepper_shows_its_number(module_contexts, app_url):
    page = module_contexts(viewport={"width": 320, "height": 640}).new_page()
    page.goto(app_url + "#system=flip")
    wait_ready(page)
    for system, mode in FORM_IDS:  # room for two digits between − and +
        form = open_form(page, system, mode)
        squeezed = form.locator(".stepper input").evaluate_all(
            "els => els.filter(el => el.getClientRects().length)"
            "          .filter(el => { const s = getComputedStyle(el); return el.clientWidth"
            "            - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) < 26; })"
            "          .map(el => el.id)")
        assert not squeezed, (system, mode, squeezed)
