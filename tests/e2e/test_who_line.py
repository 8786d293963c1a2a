"""Issue 35.11, the picked character at a glance on a phone: the bar over the form is one compact
line (the name, the Luck and XP left, the skill the form holds from the sheet, and "More" for the
rarer tools), every control in it a full touch target, and what a spend did still said under it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_page import fill, labelled, open_form
from test_table import bar_tool, new_character, pick, pool_sheet, roll, stock

PHONES = {"375": {"width": 375, "height": 812}, "390": {"width": 390, "height": 844}}
LINE = 56  # px: the tallest a one-line bar may be (a 44 px control and a little room)


@pytest.fixture(scope="module", params=list(PHONES))
def phone(request, module_contexts, app_url) -> Page:
    """A phone with Mara saved (Luck 3, XP 10, Lockpicking on her d10 pool sheet) and picked."""
    page = module_contexts(viewport=PHONES[request.param]).new_page()
    page.goto(app_url + "#system=pool")
    wait_ready(page)
    new_character(page, "Mara", luck=3, xp=10, sheet=pool_sheet)
    return page


# The visible controls in the bar whose box is under 44 px either way, by id or words.
SMALL = """els => els.filter(el => el.getClientRects().length)
    .map(el => [el.id || el.textContent.trim(), el.getBoundingClientRect()])
    .filter(([, r]) => r.width < 44 || r.height < 44).map(([name]) => name)"""
CONTROLS = "#who :is(button, select, input:not([type=file]), summary, label.file-button)"


def test_the_picked_characters_bar_is_one_line_of_name_stock_and_skill(phone):
    form = open_form(phone, "pool")
    pick(phone, "Lockpicking")
    expect(labelled(form, "Skill")).to_have_value("7")
    bar = phone.locator("#who").bounding_box()
    assert bar["height"] <= LINE
    name, sheet = phone.get_by_label("Character", exact=True), phone.get_by_label("From the sheet")
    expect(name.locator("option:checked")).to_have_text("Mara")
    expect(sheet.locator("option:checked")).to_have_text("Lockpicking")  # the skill in use
    expect(stock(phone)).to_have_text("Luck 3 · XP 10")
    for shown in (name, sheet, stock(phone)):
        box = shown.bounding_box()
        assert bar["y"] <= box["y"] and box["y"] + box["height"] <= bar["y"] + bar["height"]
        assert box["x"] >= bar["x"] and box["x"] + box["width"] <= bar["x"] + bar["width"]
    assert phone.locator(CONTROLS).evaluate_all(SMALL) == []

    labelled(form, "Skill").fill("5")  # the form no longer holds what the pick filled in
    expect(sheet).to_have_value("")
    pick(phone, "Lockpicking")  # the same skill again fills the form again
    expect(labelled(form, "Skill")).to_have_value("7")
    expect(sheet.locator("option:checked")).to_have_text("Lockpicking")


def test_more_opens_the_rarer_tools_in_place_and_escape_closes_them(phone):
    more = phone.get_by_role("button", name="More for Mara")
    expect(more).to_have_attribute("aria-expanded", "false")
    edit = phone.get_by_role("button", name="Edit character")
    expect(edit).to_be_hidden()
    assert more.bounding_box()["width"] >= 44 and more.bounding_box()["height"] >= 44
    more.click()
    expect(more).to_have_attribute("aria-expanded", "true")
    for tool in ("Edit character", "New character"):
        expect(phone.get_by_role("button", name=tool)).to_be_visible()
    expect(phone.get_by_text("Move characters to another device", exact=True)).to_be_visible()
    assert phone.locator(CONTROLS).evaluate_all(SMALL) == []

    edit.click()
    editor = phone.get_by_role("dialog", name="Edit Mara")
    expect(editor).to_be_visible()
    phone.keyboard.press("Escape")  # nothing changed: it closes, focus back on Edit
    expect(editor).to_be_hidden()
    expect(edit).to_be_focused()
    phone.keyboard.press("Escape")  # and once more: the tools fold away, focus on More
    expect(more).to_have_attribute("aria-expanded", "false")
    expect(edit).to_be_hidden()
    expect(more).to_be_focused()
    assert phone.locator("#who").bounding_box()["height"] <= LINE


# How tall the status line is drawn under the character list (0: not under it, or not drawn).
UNDER_THE_LINE = """() => { const box = id => document.getElementById(id).getBoundingClientRect(),
    said = box("who-status"), line = box("who-character");
    return said.top >= line.bottom - 1 ? said.height : 0; }"""


def test_a_spend_is_said_under_the_line_until_the_next_pick(phone):
    form = open_form(phone, "pool")
    pick(phone, "Lockpicking")
    fill(form, "DR", 3)  # two successes, and the Luck offered turns an 8 into the third
    fill(form, "Luck", 1)
    fill(form, "My dice", "8 8 9 1 2")
    roll(phone)
    expect(stock(phone)).to_have_text("Luck 2 · XP 10")
    status = phone.locator("#who-status")
    expect(status).to_have_text("Mara spent 1 Luck (3 → 2).")
    assert phone.evaluate(UNDER_THE_LINE) >= 16  # shown whole, a line of its own

    pick(phone, "Lockpicking")  # its sentence is read out, not shown: the bar is one line again
    assert phone.locator("#who").bounding_box()["height"] <= LINE
    bar_tool(phone, "Undo last spend").click()  # and the undo's sentence, under it again
    expect(stock(phone)).to_have_text("Luck 3 · XP 10")
    expect(status).to_contain_text("Mara got 1 Luck")
    assert phone.evaluate(UNDER_THE_LINE) >= 16


def test_an_unsaved_edit_is_still_offered_back_under_the_line(phone):
    bar_tool(phone, "Edit character").click()
    phone.get_by_role("dialog", name="Edit Mara").get_by_label("Notes").fill("Owes Vex.")
    phone.reload()  # the edit is kept as a draft, and offered back in the bar
    wait_ready(phone)
    offer = phone.get_by_role("group", name=re.compile("unsaved changes to Mara"))
    expect(offer).to_be_visible()
    more = phone.get_by_role("button", name="More for Mara")
    expect(more).to_have_attribute("aria-expanded", "false")
    line, shown = more.bounding_box(), offer.bounding_box()
    assert shown["y"] >= line["y"] + line["height"]
    offer.get_by_role("button", name="Discard").click()
    expect(offer).to_be_hidden()
    assert phone.locator("#who").bounding_box()["height"] <= LINE
