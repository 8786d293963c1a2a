"""A roll log a person can read on a phone (issue 17, point 6): entries say who rolled what in
the player's words, Luck offered apart from Luck spent, times to the second, two short lines
each; the log can be searched and narrowed to a character, one entry deleted, and the entry
shown in the result is marked."""

from __future__ import annotations

import re

import skillcheck
from app import log_model
from app.storage import MemoryStorage
from playwright.sync_api import Page, expect
from ready import opened_with_log
from test_page import fill, open_form
from test_table import log_panel, new_character, pick, pool_sheet, roll, stored_log

LOG_ENTRIES = "#log-list .log-entry"
# The engine's field names as the log used to print them: "dice_count 3", "dtn 12, difficulty
# average", "mode opposed, initiator (rank 2, aspect 3)", "luck 3" (offered, read as spent).
ENGINE_WORDS = re.compile(r"dice_count|\bdtn\b|\bdr\b|difficulty|\bmode\b|initiator \(|"
                          r"secondaries|\bluck \d")


def heights(page: Page) -> list[float]:
    return page.locator(LOG_ENTRIES).evaluate_all(
        "els => els.map(el => el.getBoundingClientRect().height)")


def test_entries_say_who_rolled_what_in_two_short_lines(app):
    form = open_form(app, "pool")
    new_character(app, "Mara", luck=3, sheet=pool_sheet)
    pick(app, "Lockpicking")
    fill(form, "Luck", 3)
    fill(form, "DR", 3)
    fill(form, "My dice", "8 8 9 1 2")  # two successes: one Luck makes the third
    roll(app)
    app.get_by_label("Character", exact=True).select_option("")
    form = open_form(app, "fluke")
    fill(form, "My dice", "6 4 5")
    roll(app)
    form = open_form(app, "flip", "opposed")
    roll(app)

    entries = app.locator(LOG_ENTRIES)
    pool = entries.nth(2)
    expect(pool).to_contain_text("Mara · Lockpicking (d10 pool)")
    expect(pool).to_contain_text("Trait 5, Skill 7, DR 3, Luck 3 offered (1 spent)")
    expect(pool).to_contain_text("8 8 9 1 2")
    expect(entries.nth(1)).to_contain_text("3 dice · 6 4 5")
    expect(entries.nth(0)).to_contain_text("Initiator rank 2, aspect 3 vs Opponent rank 2")
    for text in entries.all_inner_texts():
        assert not ENGINE_WORDS.search(text), text
        assert re.search(r"\d{1,2}:\d\d:\d\d", text), f"no seconds in {text!r}"
    tall = heights(app)
    print(f"\nentry heights at 375 px: {tall}")
    # An entry was 93 px; now a plain one is two lines, and one naming a character and its
    # Luck no more than four.
    assert tall[1] <= 46 and tall[2] <= 80, tall
    app.set_viewport_size({"width": 320, "height": 700})
    try:
        narrow = heights(app)
        print(f"at 320 px: {narrow}")
        assert narrow[1] <= 46, narrow  # still two lines at the narrowest phone
    finally:
        app.set_viewport_size({"width": 375, "height": 812})


def test_search_and_character_filter_narrow_the_log(app):
    form = open_form(app, "passages")
    new_character(app, "Bo")
    roll(app)
    app.get_by_label("Character", exact=True).select_option("")
    roll(app)
    open_form(app, "fluke")
    roll(app)
    panel = log_panel(app)
    rolled_by = panel.get_by_label("Rolled by")
    expect(rolled_by.locator("option")).to_have_text(["Everyone", "Bo"])
    rolled_by.select_option("Bo")
    expect(app.locator(LOG_ENTRIES)).to_have_count(1)
    expect(app.locator(LOG_ENTRIES)).to_contain_text("Bo (Passages")
    expect(panel).to_contain_text("1 matching entry.")
    rolled_by.select_option("")
    panel.get_by_label("Search").fill("passages")
    expect(app.locator(LOG_ENTRIES)).to_have_count(2)
    panel.get_by_label("Search").fill("3 DICE")
    expect(app.locator(LOG_ENTRIES)).to_have_count(1)
    panel.get_by_label("Search").fill("nothing like this")
    expect(app.locator(LOG_ENTRIES)).to_have_count(0)
    expect(panel).to_contain_text("No entries match.")
    panel.get_by_label("Search").fill("")
    expect(app.locator(LOG_ENTRIES)).to_have_count(3)
    assert form.is_hidden()  # the filters never touched the form


def test_one_entry_is_deleted_after_a_question_and_the_shown_one_is_marked(app):
    open_form(app, "passages")
    for _ in range(3):
        roll(app)
    entries = app.locator(LOG_ENTRIES)
    expect(entries.nth(0)).to_have_attribute("aria-current", "true")  # the roll just shown
    expect(app.locator(f"{LOG_ENTRIES}[aria-current]")).to_have_count(1)
    entries.nth(2).click()
    expect(entries.nth(2)).to_have_attribute("aria-current", "true")
    expect(app.locator(f"{LOG_ENTRIES}[aria-current]")).to_have_count(1)

    ids = [e["id"] for e in stored_log(app)["entries"]]
    log_panel(app).get_by_role("button", name=re.compile(r"^Delete this entry")).nth(1).click()
    dialog = app.get_by_role("dialog")
    expect(dialog).to_contain_text("Delete this entry (Passages")
    dialog.get_by_role("button", name="Cancel").click()
    expect(entries).to_have_count(3)
    log_panel(app).get_by_role("button", name=re.compile(r"^Delete this entry")).nth(1).click()
    dialog.get_by_role("button", name="Delete").click()
    expect(entries).to_have_count(2)
    assert [e["id"] for e in stored_log(app)["entries"]] == [ids[0], ids[2]]
    expect(log_panel(app)).to_contain_text("2 entries.")


def test_an_entry_logged_under_the_old_degree_ruling_says_both(fresh_context, app_url):
    """A Barely the old ruling logged (points lifted the roll to IoS 3) keeps its word in the
    stored log and says, when the log is opened, what the current rules make of it."""
    log = log_model.RollLog(MemoryStorage())
    result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 5, "dr": 2, "bonus": 6,
                                 "dice": [6, 6, 6, 1, 9]})
    log.record_check({**result, "outcome": "barely"})  # as the old ruling stored it
    page = opened_with_log(fresh_context, app_url + "#system=pool", log.export_json())
    entry = log_panel(page).locator(LOG_ENTRIES).first
    expect(entry).to_contain_text("logged as Barely Succeeding; Critical Success under the "
                                  "current rules")
    assert stored_log(page)["entries"][0]["outcome"] == "barely"
    # the newest entry, shown again after the reload: judged today's way, saying what was logged
    expect(entry).to_have_attribute("aria-current", "true")
    result = page.locator("#result")
    expect(result.locator("[data-outcome]")).to_have_attribute("data-outcome", "critical")
    expect(result).to_contain_text("Logged as Barely Succeeding; Critical Success under the "
                                   "current rules.")
