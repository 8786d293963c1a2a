"""What a player types in the character editor outlives a reload (issue 35, point 11): phones
kill and reload tabs left in the background. The page offers the draft back in plain words —
Restore or Discard — says when its character was changed since, and a save in one tab takes
the offer away in every tab."""

from __future__ import annotations

import json
import re

import test_two_tabs
from playwright.sync_api import Locator, Page, expect
from ready import wait_ready
from test_page import fill, labelled, open_form
from test_table import bar_tool, named_row, new_character, roll, sheet_part

DRAFT = "skillcheck.draft"
tabs = test_two_tabs.tabs  # two pages of one new, empty profile, both ready


def offer(scope: Page | Locator, words: str) -> Locator:
    """The offer of a kept draft, by its opening words."""
    return scope.get_by_role("group", name=re.compile(rf"^You have {re.escape(words)}"))


def any_offer(scope: Page | Locator) -> Locator:
    return scope.get_by_role("group", name=re.compile(r"^You have"))


def reload(page: Page) -> Page:
    page.reload()
    return wait_ready(page)


def stored(page: Page, key: str):
    text = page.evaluate("key => localStorage.getItem(key)", key)
    return None if text is None else json.loads(text)


def edit(page: Page, name: str) -> Locator:
    bar_tool(page, "Edit character").click()
    return page.get_by_role("dialog", name=f"Edit {name}")


def test_a_new_character_typed_then_reloaded_is_offered_back_and_restored(app):
    bar_tool(app, "New character").click()
    editor = app.get_by_role("dialog", name="New character")
    editor.get_by_label("Name", exact=True).fill("Ana")
    labelled(editor, "Luck").fill("4")
    row = named_row(sheet_part(editor, "Passages sheet"), "Add a skill", "Skill 1", "Climb")
    labelled(row, "Base").fill("40")

    reload(app)  # at once: nothing is waited for after the last key
    expect(editor).to_be_hidden()
    kept = offer(app, "an unsaved new character, Ana, from")
    expect(kept).to_be_visible()
    kept.get_by_role("button", name="Restore").click()
    expect(editor).to_be_visible()
    expect(kept).to_be_hidden()
    expect(editor.get_by_role("textbox", name="Name", exact=True)).to_have_value("Ana")
    expect(labelled(editor, "Luck")).to_have_value("4")
    row = sheet_part(editor, "Passages sheet").get_by_role("group", name="Skill 1")
    expect(row.get_by_label("Name")).to_have_value("Climb")
    expect(labelled(row, "Base")).to_have_value("40")
    editor.get_by_role("button", name="Save").click()
    expect(editor).to_be_hidden()
    expect(app.get_by_label("Character", exact=True).locator("option:checked")).to_have_text(
        "Ana")
    ana = stored(app, "skillcheck.characters")["characters"][0]
    assert (ana["luck"], ana["sheets"]["passages"]["skills"]) == (4, {"Climb": 40})
    assert stored(app, DRAFT) is None

    reload(app)
    expect(app.get_by_label("Character", exact=True)).to_be_enabled()
    expect(any_offer(app)).to_have_count(0)


def test_a_discarded_draft_is_gone_and_the_character_stays_as_saved(app):
    new_character(app, "Mara", luck=3)
    editor = edit(app, "Mara")
    labelled(editor, "Luck").fill("7")
    reload(app)
    kept = offer(app, "unsaved changes to Mara from")
    expect(kept).to_be_visible()
    expect(kept).not_to_contain_text("changed since")
    kept.get_by_role("button", name="Discard").click()
    expect(kept).to_be_hidden()
    assert stored(app, DRAFT) is None

    reload(app)
    expect(app.get_by_label("Character", exact=True)).to_be_enabled()
    expect(any_offer(app)).to_have_count(0)
    editor = edit(app, "Mara")
    expect(labelled(editor, "Luck")).to_have_value("3")
    expect(any_offer(editor)).to_have_count(0)


def test_the_editor_opened_on_a_kept_draft_offers_it_and_typing_replaces_it(app):
    new_character(app, "Mara", luck=3)
    labelled(edit(app, "Mara"), "Luck").fill("7")
    reload(app)
    bar_tool(app, "New character").click()
    editor = app.get_by_role("dialog", name="New character")
    inside = offer(editor, "unsaved changes to Mara from")
    expect(inside).to_be_visible()
    editor.get_by_role("textbox", name="Name", exact=True).fill("Ben")  # one draft at a time
    expect(inside).to_be_hidden()
    assert stored(app, DRAFT)["values"]["name"] == "Ben"

    reload(app)
    mara = edit(app, "Mara")
    inside = offer(mara, "an unsaved new character, Ben, from")
    expect(inside).to_be_visible()
    inside.get_by_role("button", name="Restore").click()  # from inside the open editor
    expect(editor).to_be_visible()
    expect(editor.get_by_role("textbox", name="Name", exact=True)).to_have_value("Ben")
    expect(inside).to_be_hidden()
    editor.get_by_role("button", name="Cancel").click()
    app.get_by_role("dialog", name="Drop this new character? Nothing is saved.").get_by_role(
        "button", name="Drop changes").click()
    expect(editor).to_be_hidden()
    assert stored(app, DRAFT) is None
    expect(any_offer(app)).to_have_count(0)
    assert [c["name"] for c in stored(app, "skillcheck.characters")["characters"]] == ["Mara"]


def test_a_draft_typed_in_one_tab_is_offered_in_the_other_and_a_save_ends_it(tabs):
    a, b = tabs
    new_character(a, "Mara", luck=3)
    expect(b.get_by_label("Character", exact=True).locator("option")).to_have_count(2)
    editor = edit(a, "Mara")
    editor.get_by_label("Notes").fill("Owes the guild.")
    there = offer(b, "unsaved changes to Mara from")
    expect(there).to_be_visible()  # without a reload: the storage event
    editor.get_by_role("button", name="Save").click()
    expect(editor).to_be_hidden()
    expect(there).to_be_hidden()  # saved in one tab: gone in both

    labelled(edit(a, "Mara"), "Luck").fill("7")
    expect(there).to_be_visible()
    there.get_by_role("button", name="Restore").click()
    theirs = b.get_by_role("dialog", name="Edit Mara")
    expect(labelled(theirs, "Luck")).to_have_value("7")
    expect(theirs.get_by_label("Notes")).to_have_value("Owes the guild.")
    theirs.get_by_role("button", name="Save").click()
    expect(theirs).to_be_hidden()
    assert stored(b, "skillcheck.characters")["characters"][0]["luck"] == 7
    assert stored(b, DRAFT) is None
    reload(a)
    expect(a.get_by_label("Character", exact=True)).to_be_enabled()
    expect(any_offer(a)).to_have_count(0)


def test_a_draft_of_a_character_changed_since_keeps_its_values_over_the_new_ones(tabs):
    a, b = tabs
    new_character(a, "Mara", luck=3)
    editor = edit(a, "Mara")
    editor.get_by_label("Notes").fill("Owes the guild.")
    reload(a)  # the draft is kept; Mara is then changed: b spends 2 of her Luck
    b.get_by_label("Character", exact=True).select_option(label="Mara")
    form = open_form(b, "pool")
    for label, value in {"Trait": 5, "Skill": 7, "DR": 4, "Luck": 3}.items():
        fill(form, label, value)
    fill(form, "My dice", "1 2 9 8 8")  # two natural successes: two Luck lower the 8s to 7s
    roll(b)
    assert stored(b, "skillcheck.characters")["characters"][0]["luck"] == 1

    kept = offer(a, "unsaved changes to Mara from")
    expect(kept).to_contain_text("Mara was changed since: restoring keeps your draft’s values.")
    kept.get_by_role("button", name="Restore").click()
    expect(editor).to_be_visible()
    expect(editor.get_by_label("Notes")).to_have_value("Owes the guild.")  # the draft's
    expect(labelled(editor, "Luck")).to_have_value("1")  # the spend, which the draft left be
    expect(editor.get_by_role("alert")).to_contain_text("Mara was changed since")
    editor.get_by_role("button", name="Save").click()
    expect(editor).to_be_hidden()
    mara = stored(a, "skillcheck.characters")["characters"][0]
    assert (mara["notes"], mara["luck"]) == ("Owes the guild.", 1)


def test_a_draft_of_a_character_deleted_since_is_restored_as_a_new_one(tabs):
    a, b = tabs
    new_character(a, "Mara", luck=3)
    editor = edit(a, "Mara")
    editor.get_by_label("Notes").fill("Owes the guild.")
    expect(offer(b, "unsaved changes to Mara from")).to_be_visible()
    b.get_by_label("Character", exact=True).select_option(label="Mara")
    edit(b, "Mara").get_by_role("button", name="Delete").click()
    b.get_by_role("dialog", name=re.compile("^Delete Mara")).get_by_role(
        "button", name="Delete").click()
    expect(b.get_by_label("Character", exact=True).locator("option")).to_have_count(1)
    assert stored(b, DRAFT) is None  # deleted: its draft goes with it

    editor.get_by_label("Notes").fill("Owes the guild. Paid.")  # a still has her open
    kept = offer(b, "unsaved changes to Mara from")
    expect(kept).to_contain_text(
        "Mara was deleted since: restoring keeps them as a new character.")
    kept.get_by_role("button", name="Restore").click()
    fresh = b.get_by_role("dialog", name="New character")
    expect(fresh.get_by_label("Notes")).to_have_value("Owes the guild. Paid.")
    expect(fresh.get_by_role("textbox", name="Name", exact=True)).to_have_value("Mara")
    expect(fresh.get_by_role("alert")).to_contain_text("Mara was deleted since")
    fresh.get_by_role("button", name="Save").click()
    expect(fresh).to_be_hidden()
    mara = stored(b, "skillcheck.characters")["characters"]
    assert [(c["name"], c["notes"]) for c in mara] == [("Mara", "Owes the guild. Paid.")]
