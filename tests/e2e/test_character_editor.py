"""The character editor and what a pick fills (issue 17, point 10), on a phone: the sheet's
specialization is chosen with its skill, an opposed flip's pick fills the side the player
chooses, and the bar never speaks of a difficulty an opposed flip does not have."""

from __future__ import annotations

import json

from playwright.sync_api import expect
from ready import wait_ready
from test_page import labelled, open_form
from test_table import (
    add_row,
    bar_tool,
    flip_sheet,
    named_row,
    new_character,
    pick,
    roll,
    sheet_part,
    stored_log,
)

STATUS = "#who-status"


def test_a_saved_specialization_is_chosen_with_its_skill_and_named(app):
    form = open_form(app, "flip", "unopposed")
    new_character(app, "Mara", sheet=flip_sheet)  # Athletics, specialized in Climbing
    pick(app, "Athletics")
    expect(labelled(form, "Skill")).to_have_value("Athletics")
    expect(labelled(form, "Specialization")).to_have_value("Climbing")
    expect(app.locator(STATUS)).to_contain_text("Specialization: Climbing (flip+1)")
    roll(app)
    entry = stored_log(app)["entries"][-1]
    assert entry["request"]["specialization"] is True and entry["skill"] == "Athletics"

    pick(app, "Knowledge: History")  # no specialization on the sheet: none chosen, none said
    expect(labelled(form, "Specialization")).to_have_value("")
    expect(app.locator(STATUS)).not_to_contain_text("Specialization")


def test_an_opposed_pick_fills_the_acting_side_or_the_one_chosen(app):
    form = open_form(app, "flip", "opposed")
    new_character(app, "Mara", sheet=flip_sheet)
    initiator = form.get_by_role("group", name="Initiator")
    opponent = form.get_by_role("group", name="Opponent")
    side = app.get_by_label("Sheet fills")
    expect(side).to_be_visible()
    expect(side.locator("option:checked")).to_have_text("Initiator (acting side)")
    pick(app, "Athletics")
    expect(labelled(initiator, "Rank")).to_have_value("3")
    expect(labelled(initiator, "Skill")).to_have_value("Athletics")
    expect(labelled(opponent, "Skill")).to_have_value("")
    expect(app.locator(STATUS)).to_contain_text("on the initiator’s side")

    side.select_option(label="Opponent")
    pick(app, "Knowledge: History")
    expect(labelled(opponent, "Skill")).to_have_value("Knowledge")
    expect(labelled(opponent, "Rank")).to_have_value("0")
    expect(labelled(opponent, "Aspect")).to_have_value("2")
    expect(labelled(initiator, "Skill")).to_have_value("Athletics")  # left as it was
    expect(app.locator(STATUS)).to_contain_text("on the opponent’s side")
    roll(app)
    entry = stored_log(app)["entries"][-1]
    assert entry["request"]["opponent"]["rank"] == 0
    assert entry["request"]["initiator"]["rank"] == 3

    open_form(app, "flip", "unopposed")  # no sides to choose
    expect(side).to_be_hidden()


def test_an_opposed_pick_says_nothing_of_a_difficulty(app):
    open_form(app, "flip", "opposed")
    new_character(app, "Mara", sheet=flip_sheet)
    pick(app, "Athletics")
    status = app.locator(STATUS)
    expect(status).to_contain_text("Mara: Athletics is in the form")
    expect(status).to_contain_text("Fill in the opponent’s side.")
    expect(status).not_to_contain_text("difficulty")
    open_form(app, "flip", "unopposed")  # an unopposed flip has one
    pick(app, "Athletics")
    expect(status).to_contain_text("The GM sets the difficulty")


def test_escape_and_cancel_ask_before_dropping_edits_and_not_when_nothing_changed(app):
    new_character(app, "Mara", sheet=flip_sheet)
    bar_tool(app, "Edit character").click()
    editor = app.get_by_role("dialog", name="Edit Mara")
    app.keyboard.press("Escape")  # nothing changed: closes at once
    expect(editor).to_be_hidden()
    expect(app.locator("#confirm")).to_be_hidden()

    bar_tool(app, "Edit character").click()
    add_row(sheet_part(editor, "Passages sheet"), "Add a skill", "Skill 1")  # empty: no edit
    app.keyboard.press("Escape")
    expect(editor).to_be_hidden()

    bar_tool(app, "Edit character").click()
    editor.get_by_label("Name", exact=True).fill("Mara the Bold")
    app.keyboard.press("Escape")
    question = app.get_by_role("dialog", name="Drop your changes? Mara stays as saved.")
    expect(question).to_be_visible()
    question.get_by_role("button", name="Cancel").click()  # keep editing
    expect(question).to_be_hidden()
    expect(editor).to_be_visible()
    expect(editor.get_by_label("Name", exact=True)).to_have_value("Mara the Bold")

    editor.get_by_role("button", name="Cancel").click()
    expect(question).to_be_visible()
    question.get_by_role("button", name="Drop changes").click()
    expect(editor).to_be_hidden()
    expect(app.get_by_label("Character", exact=True).locator("option:checked")).to_have_text(
        "Mara")

    bar_tool(app, "New character").click()
    fresh = app.get_by_role("dialog", name="New character")
    app.keyboard.press("Escape")  # nothing typed: nothing to ask about
    expect(fresh).to_be_hidden()
    bar_tool(app, "New character").click()
    labelled(fresh, "Luck").fill("2")
    app.keyboard.press("Escape")
    question = app.get_by_role("dialog", name="Drop this new character? Nothing is saved.")
    question.get_by_role("button", name="Drop changes").click()
    expect(fresh).to_be_hidden()
    expect(app.get_by_label("Character", exact=True).locator("option")).to_have_count(2)


SHEETS = ["Card flip sheet: aspects and skills", "d10 pool and Swift sheet: traits and skills",
          "d6 pool sheet: stats and skills", "Passages sheet: skill bases"]
MARK = """s => { const mark = getComputedStyle(s, '::before');
                 return [mark.content, mark.display, mark.transform]; }"""


def test_each_sheet_section_shows_a_mark_that_turns_and_is_not_read_twice(app):
    bar_tool(app, "New character").click()
    editor = app.get_by_role("dialog", name="New character")
    summaries = editor.locator("details.sheet-part > summary")
    expect(summaries).to_have_text(SHEETS)
    for index, title in enumerate(SHEETS):
        summary = summaries.nth(index)
        content, display, closed = summary.evaluate(MARK)
        assert "▸" in content and display != "none"  # a mark a sighted player sees
        expect(summary).to_have_accessible_name(title)  # and a screen reader does not say
        summary.click()
        expect(summary.locator("xpath=..")).to_have_attribute("open", "")
        assert closed == "none"
        app.wait_for_function(  # the mark turns when the section opens
            "s => getComputedStyle(s, '::before').transform !== 'none'",
            arg=summary.element_handle())


def test_a_skills_trait_is_chosen_from_the_traits_named_above_it(app):
    bar_tool(app, "New character").click()
    editor = app.get_by_role("dialog", name="New character")
    editor.get_by_label("Name", exact=True).fill("Vex")
    part = sheet_part(editor, "d10 pool")
    named_row(part, "Add a trait", "Trait 1", "Dexterity", 5)
    second = named_row(part, "Add a trait", "Trait 2", "Strenght", 3)
    skill = named_row(part, "Add a skill", "Skill 1", "Lockpicking")
    trait = labelled(skill, "Trait")
    expect(trait).to_have_role("combobox")  # a list, not a box to type in
    expect(trait.locator("option")).to_have_text(["Choose a trait", "Dexterity", "Strenght"])
    trait.select_option("Strenght")
    second.get_by_label("Name").fill("Strength")  # a typo mended: the list follows
    expect(trait.locator("option")).to_have_text(["Choose a trait", "Dexterity", "Strength"])
    trait.select_option("Dexterity")
    labelled(skill, "Score").fill("7")
    editor.get_by_role("button", name="Save").click()
    expect(editor).to_be_hidden()
    form = open_form(app, "pool")
    pick(app, "Lockpicking")
    expect(labelled(form, "Trait")).to_have_value("5")


def test_a_sheet_saved_with_other_cases_loads_spelled_as_the_rules_do(app):
    saved = {"version": 1, "kind": "skillcheck.characters", "next_id": 2, "characters": [
        {"id": 1, "name": "Mara", "notes": "", "luck": 0, "xp": 0, "last_spend": None,
         "sheets": {"flip": {"aspects": {"hs": 4}, "skills": {"athletics": {"rank": 3}}},
                    "pool": {"traits": {"Dexterity": 5}, "skills": {
                        "Lockpicking": {"trait": "dexterity", "score": 7, "bonus": 0}}}}}]}
    app.evaluate("s => localStorage.setItem('skillcheck.characters', s)", json.dumps(saved))
    app.reload()
    wait_ready(app)
    app.get_by_label("Character", exact=True).select_option(label="Mara")
    form = open_form(app, "flip", "unopposed")
    pick(app, "Athletics")
    expect(labelled(form, "Skill")).to_have_value("Athletics")
    expect(labelled(form, "Aspect")).to_have_value("4")  # "hs" is the HS aspect
    bar_tool(app, "Edit character").click()
    editor = app.get_by_role("dialog", name="Edit Mara")
    part = sheet_part(editor, "d10 pool")
    expect(labelled(part.get_by_role("group", name="Skill 1"), "Trait")).to_have_value(
        "Dexterity")
