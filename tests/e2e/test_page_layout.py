"""How the page sits on a phone and a desktop: fillable before Python, touch targets, columns,
light and dark with good contrast (axe-core's WCAG 2 AA rules), and motion only when welcome."""

from __future__ import annotations

import re

import pytest
import skillcheck
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from presses import press_roll
from ready import wait_ready
from test_page import FORM_IDS, fill, open_form

MIN_TARGET = 44  # px: the page's promise for anything a thumb presses
WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


def test_the_form_can_be_filled_while_python_loads(fresh_context, app_url):
    page = fresh_context.new_page()
    held = []  # the interpreter's wasm waits until the form has been used
    page.route("**/*.wasm", lambda route: held.append(route))
    page.goto(app_url + "#system=flip", wait_until="domcontentloaded")
    expect(page.locator("#roll")).to_be_disabled()
    expect(page.locator("#roll")).to_have_text(re.compile(r"^Loading the rules"))
    rank = page.locator("#form-flip-unopposed").get_by_label(re.compile(r"^Rank\b"))
    rank.fill("4")
    page.get_by_role("radio", name="Opposed", exact=True).check()  # the pickers work too
    expect(page.locator("#form-flip-opposed")).to_be_visible()
    page.get_by_role("radio", name="Unopposed", exact=True).check()
    for _ in range(600):  # a busy machine may not have asked for it yet; it cannot finish without
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page asked for no wasm: is Python loading some other way?"
    for route in held:
        route.continue_()
    page.unroute("**/*.wasm")
    wait_ready(page)
    expect(page.get_by_role("button", name="Flip", exact=True)).to_be_enabled()
    expect(rank).to_have_value("4")  # booting kept what the player typed
    odds = skillcheck.odds({"system": "flip", "rank": 4, "aspect": 3, "difficulty": "average"})
    expect(page.locator("#odds .odds-success")).to_have_attribute("data-fraction", odds["success"])


def visible_targets(page: Page, form_id: str) -> list[dict]:
    """Box of every visible control a thumb aims at: in the pickers, the shown form, the button
    and the chips beside it, the result's card choices and tools, the odds' rows, the spend
    advisor's rows and the log's buttons (its ×). A tick box counts by its whole labelled row."""
    return page.evaluate(
        """formId => {
            const seen = [...document.querySelectorAll(
                `.picker .chip, .modes .segment, #${formId} input:not([type=checkbox]),
                 #${formId} select, #${formId} button, #${formId} summary,
                 #${formId} .field.check label, #roll, .roll-chip, #result .keep-this,
                 #result-tools button, #odds summary, #advice button, .log-panel button`)];
            return seen.filter(el => el.getClientRects().length && getComputedStyle(el).visibility
                               !== 'hidden')
                       .map(el => { const r = el.getBoundingClientRect();
                                    return {what: el.outerHTML.slice(0, 90), w: r.width,
                                            h: r.height}; });
        }""", form_id)


@pytest.mark.parametrize(("system", "mode"), list(FORM_IDS), ids=lambda v: str(v))
def test_on_a_phone_every_target_is_big_enough_and_nothing_scrolls_sideways(booted, system,
                                                                            mode):
    form = open_form(booted, system, mode)
    for details in form.locator("details").all():
        details.evaluate("d => d.open = true")
    press_roll(booted)
    booted.locator("#result .outcome").wait_for()
    small = [t for t in visible_targets(booted, FORM_IDS[system, mode])
             if t["w"] < MIN_TARGET or t["h"] < MIN_TARGET]
    assert not small, small
    width = booted.evaluate("document.documentElement.scrollWidth")
    assert width <= booted.viewport_size["width"]


def test_on_a_desktop_the_form_and_the_result_stand_side_by_side(desktop, app_url):
    desktop.goto(app_url + "#system=flip&mode=opposed")
    wait_ready(desktop)
    press_roll(desktop, desktop.get_by_role("button", name="Flip", exact=True))
    boxes = desktop.evaluate("""() => Object.fromEntries(["#check", ".result-panel", ".odds-panel"]
        .map(s => [s, document.querySelector(s).getBoundingClientRect().toJSON()]))""")
    form, result, odds = boxes["#check"], boxes[".result-panel"], boxes[".odds-panel"]
    assert result["x"] >= form["x"] + form["width"]
    assert result["y"] == form["y"]
    assert odds["x"] == result["x"] and odds["y"] > result["y"] + result["height"]


# Each form after a roll, with one field made wrong so an error message is on show too.
AXE_FORMS = [("flip", "team", "Primary", "Rank"), ("pool", None, None, "Skill"),
             ("fluke", None, None, "Dice to roll"), ("passages", None, None, "Base")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_light_and_dark_pass_the_wcag_aa_checks(booted, scheme):
    booted.emulate_media(color_scheme=scheme)
    try:
        for system, mode, group, label in AXE_FORMS:
            form = open_form(booted, system, mode)
            press_roll(booted)
            booted.locator("#result .outcome").wait_for()
            booted.wait_for_timeout(700)  # let the flip and tumble finish before colours count
            fill(form.get_by_role("group", name=group) if group else form, label, 999)
            booted.locator("#odds .problem").wait_for()
            found = Axe().run(booted, options=WCAG_AA)
            assert found.violations_count == 0, found.generate_report()
    finally:
        booted.emulate_media(color_scheme="light")


# Each text of an unkept card against the paper under it, through every opacity above it: a
# filter that is not a shadow changes colours in ways no computed style tells, so it is named.
DIM_CARD_CONTRAST = """() => {
    const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = c => c.map(v => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
                      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
                              return (hi + 0.05) / (lo + 0.05); };
    const behind = rgb(getComputedStyle(document.querySelector('.result-panel')).backgroundColor);
    return [...document.querySelectorAll('#result .card.dim text')].map(text => {
        let alpha = 1;
        const filters = [];
        for (let el = text; el !== document.body; el = el.parentElement) {
            const style = getComputedStyle(el);
            alpha *= Number(style.opacity);
            const bare = style.filter.replace(/rgba?\\([^)]*\\)/g, '');
            if (!/^(none|drop-shadow\\([^)]*\\)\\s*)+$/.test(bare)) filters.push(style.filter);
        }
        const under = text.classList.contains('court-letter') ? '.court' : '.paper';
        const mix = c => c.map((v, i) => alpha * v + (1 - alpha) * behind[i]);
        const ink = mix(rgb(getComputedStyle(text).fill));
        const paper = mix(rgb(getComputedStyle(text.closest('svg').querySelector(under)).fill));
        return {text: text.textContent, ratio: ratio(ink, paper), filters};
    });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_an_unkept_card_reads_at_4_5_to_1(booted, scheme):
    booted.emulate_media(color_scheme=scheme)
    try:
        form = open_form(booted, "flip", "unopposed")
        fill(form, "Rank", 5)
        for _ in range(20):  # five cards flipped, one kept: the rest are dimmed
            press_roll(booted)
            if booted.locator("#result .card.dim").count():
                break
        booted.wait_for_timeout(700)  # let the flip finish before colours count
        texts = booted.evaluate(DIM_CARD_CONTRAST)
        assert texts, "no unkept card on show"
        poor = [t for t in texts if t["ratio"] < 4.5 or t["filters"]]
        assert not poor, poor
    finally:
        booted.emulate_media(color_scheme="light")


def test_the_dr_box_says_what_its_number_is_and_its_range(booted):
    """The d10 pool's DR box, heard or read, is the successes needed, within the rules' range."""
    form = open_form(booted, "pool")
    dr = skillcheck.pool.DR
    expect(form.get_by_role("spinbutton", name="DR", exact=True)).to_have_accessible_description(
        re.compile(rf"successes needed, {dr.lo}–{dr.hi}$"))


def test_dark_follows_the_system(booted):
    booted.emulate_media(color_scheme="dark")
    try:
        background = booted.evaluate("getComputedStyle(document.body).backgroundColor")
        channels = [int(c) for c in background[background.index("(") + 1:-1].split(",")[:3]]
        assert max(channels) < 60, background
    finally:
        booted.emulate_media(color_scheme="light")


def test_cards_turn_over_unless_the_player_asks_for_less_motion(booted):
    open_form(booted, "flip", "unopposed")
    animation = ("() => getComputedStyle(document.querySelector('#result .card-inner'))"
                 ".animationName")
    press_roll(booted)
    assert booted.evaluate(animation) == "turn-over"
    booted.emulate_media(reduced_motion="reduce")
    try:
        press_roll(booted)
        assert booted.evaluate(animation) == "none"
    finally:
        booted.emulate_media(reduced_motion="no-preference")
