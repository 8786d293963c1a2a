"""The result always says what it is (issue 17, point 5), on a phone: its header names the
system, and the character and skill when a sheet filled the form; Re-roll says what it repeats
and repeats that check whatever form is shown now; an entry tapped in the log says it too."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from presses import press_roll
from test_page import fill, labelled, open_form
from test_table import log_size, new_character, pick, pool_sheet, roll, stored_log

LOG_ENTRIES = "#log-list .log-entry"


def result_title(page: Page):
    return page.locator("#result .result-title")


def test_the_result_and_re_roll_name_the_check_even_under_another_systems_form(app):
    form = open_form(app, "pool")
    new_character(app, "Mara", luck=3, sheet=pool_sheet)
    pick(app, "Lockpicking")
    fill(form, "My dice", "10 10 10 10 10")  # a disaster: five misses against DR 4
    roll(app)
    expect(result_title(app)).to_have_text("Mara · Lockpicking (d10 pool)")
    again = app.get_by_role("button", name="Re-roll Mara · Lockpicking (d10 pool)")
    expect(again).to_be_visible()

    app.get_by_role("radio", name="Passages").check()  # the form now shows another system
    expect(app.locator("#form-passages")).to_be_visible()
    expect(again).to_be_visible()  # still says what it repeats
    before = log_size(app)
    press_roll(app, again)
    expect(result_title(app)).to_have_text("Mara · Lockpicking (d10 pool)")
    expect(app.locator("#result .outcome")).to_have_attribute("data-system", "pool")
    # five d10s, not percentile dice
    expect(app.locator("#result [role=img]:not(.outcome-bar)")).to_have_count(5)
    expect(app.locator("#roll-last")).to_contain_text("d10 pool result")  # the bar's way back
    app.wait_for_function("n => JSON.parse(localStorage.getItem('skillcheck.log'))"
                          ".entries.length > n", arg=before)
    newest = next(e for e in reversed(stored_log(app)["entries"]) if e["kind"] == "check")
    assert (newest["system"], newest.get("name"), newest.get("skill")) == (
        "pool", "Mara", "Lockpicking"), newest
    expect(app.locator("#odds")).not_to_contain_text("Disaster")  # Passages' odds, its words

    open_form(app, "pool")
    pick(app, "Lockpicking")
    fill(app.locator("#form-pool"), "Skill", 6)  # no longer the sheet's skill as it stands
    roll(app)
    expect(result_title(app)).to_have_text("Mara (d10 pool)")
    app.get_by_label("Character", exact=True).select_option("")
    open_form(app, "fluke")
    roll(app)
    expect(result_title(app)).to_have_text("d6 pool")
    expect(app.get_by_role("button", name=re.compile("^Re-roll"))).to_have_text(
        "Re-roll d6 pool")

    open_form(app, "passages")  # an entry tapped names its own check
    app.locator(LOG_ENTRIES).nth(3).click()
    expect(app.locator("#result")).to_contain_text("From the log")
    expect(result_title(app)).to_have_text("Mara · Lockpicking (d10 pool)")
    expect(app.get_by_role("button", name=re.compile("^Re-roll"))).to_have_text(
        "Re-roll Mara · Lockpicking (d10 pool)")
    expect(labelled(app.locator("#form-passages"), "Base")).to_be_visible()
