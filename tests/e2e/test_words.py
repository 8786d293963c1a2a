"""Words on a phone (issue 17, point 11): counts agree with their nouns, the team's helpers are
helpers in the explanation too, each system has one name wherever the page says it, and at
320 px no picker's word is clipped."""

from __future__ import annotations

import skillcheck
from playwright.sync_api import expect
from test_page import fill, open_form
from test_table import bar_tool, lockpicking_roll, roll

PICKERS = ".chip span, .segment span"


def test_counts_agree_with_their_nouns_and_helpers_stay_helpers(app):
    form = lockpicking_roll(app, "Vex", luck=2, dr=1, dice="1 9 9 9 9")
    explain = app.locator("#result .explain")
    expect(explain).to_contain_text("1 success against DR 1")
    expect(explain).not_to_contain_text("1 successes")
    fill(form, "DR", 3)
    fill(form, "My dice", "8 8 9 1 2")
    roll(app)
    expect(app.locator("#log-list .log-note").first).to_contain_text("Vex spent 1 Luck (2 → 1).")
    expect(bar_tool(app, "Undo last spend (1 Luck)")).to_be_visible()
    for part in ("#who", "#form-pool", "#result", "#log-list"):
        expect(app.locator(part)).not_to_contain_text("Luck points")

    form = open_form(app, "flip", "team")
    helper = form.get_by_role("group", name="Helper 1")
    fill(helper, "Rank", 1)
    fill(helper, "My cards", "2C")
    roll(app)
    side = app.locator("#result .side-result").filter(has_text="Helper 1")
    expect(side.locator(".side-outcome")).to_contain_text("shift −1")
    expect(app.locator("#result")).not_to_contain_text("shift-1")
    expect(explain).to_contain_text("Helper 1 kept 2")
    expect(explain).not_to_contain_text("Secondary")


def test_each_system_has_one_name_and_no_picker_is_clipped_at_320_px(app):
    for system, described in skillcheck.SYSTEMS.items():
        name = described["label"]
        picker = app.get_by_role("radio", name=name, exact=True)
        expect(picker).to_have_count(1)
        if system != "flip":  # the card flip's forms are named by their kind of flip
            picker.check()
            expect(app.locator(f'.sysform[data-system="{system}"] > legend')).to_have_text(name)
        expect(app.locator("#log-filter option", has_text=name)).to_have_count(1)
    app.set_viewport_size({"width": 320, "height": 700})
    try:
        clipped = app.locator(PICKERS).evaluate_all("""spans => spans.filter(span => {
            const box = span.getBoundingClientRect(), label = span.parentElement
                .getBoundingClientRect();
            return span.scrollWidth > span.clientWidth + 0.5 || box.left < label.left - 0.5
                || box.right > label.right + 0.5;
        }).map(span => span.textContent)""")
        assert clipped == []
        assert app.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        app.set_viewport_size({"width": 375, "height": 812})
