"""Another character picked over a form filled "From the sheet", on a phone: the next roll is
never made for them with the first character's numbers. The form is filled again from their
sheet, or put back as drawn (and the bar says why) when their sheet lacks the skill; numbers
the player typed stay; and the pick is kept with the form across a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect
from ready import wait_ready
from test_page import fill, labelled, open_form
from test_table import named_row, new_character, pick, pool_sheet, roll, sheet_part

PHONE = {"width": 390, "height": 844}
POOL = ("Trait", "Skill", "Bonus", "Luck", "DR")


def pool_skill(trait: str, score: int, skill: str, rank: int):
    """A d10 pool sheet of one trait and one skill on it, for new_character."""
    def sheet(dialog: Locator) -> None:
        part = sheet_part(dialog, "d10 pool")
        named_row(part, "Add a trait", "Trait 1", trait, score)
        row = named_row(part, "Add a skill", "Skill 1", skill)
        labelled(row, "Trait").select_option(trait)
        labelled(row, "Score").fill(str(rank))
    return sheet


@pytest.fixture(scope="module")
def phone(module_contexts, app_url) -> Page:
    """A phone with three characters saved: Mara (Dexterity 5, Lockpicking 7), Vex
    (Dexterity 3, Lockpicking 4) and Dot (Wits 4, Haggling 6: no Lockpicking), Luck 3, 1 and 2."""
    page = module_contexts(viewport=PHONE).new_page()
    page.goto(app_url + "#system=pool")
    wait_ready(page)
    new_character(page, "Mara", luck=3, sheet=pool_sheet)
    new_character(page, "Vex", luck=1, sheet=pool_skill("Dexterity", 3, "Lockpicking", 4))
    new_character(page, "Dot", luck=2, sheet=pool_skill("Wits", 4, "Haggling", 6))
    return page


def choose(page: Page, name: str) -> None:
    """Pick `name` in the bar's character list, as a player does."""
    page.get_by_label("Character", exact=True).select_option(label=name)


def values(form: Locator) -> dict[str, str]:
    return {label: labelled(form, label).input_value() for label in POOL}


def maras_lockpicking(page: Page) -> Locator:
    """A fresh pool form, filled from Mara's Lockpicking."""
    form = open_form(page, "pool")
    choose(page, "Mara")
    pick(page, "Lockpicking")
    expect(labelled(form, "Skill")).to_have_value("7")
    return form


def test_a_character_with_the_same_skill_gets_the_form_filled_from_their_sheet(phone):
    form = maras_lockpicking(phone)
    choose(phone, "Vex")
    expect(labelled(form, "Skill")).to_have_value("4")
    expect(labelled(form, "Trait")).to_have_value("3")
    expect(labelled(form, "Luck")).to_have_value("1")  # as much as Vex has
    expect(phone.get_by_label("From the sheet").locator("option:checked")).to_have_text(
        "Lockpicking")
    expect(phone.locator("#who-status")).to_contain_text("Vex: Lockpicking is in the form.")
    fill(form, "DR", 2)
    fill(form, "My dice", "8 8 1")
    roll(phone)
    expect(phone.locator("#log-list > li").first).to_contain_text("Vex · Lockpicking (d10 pool)")


def test_a_character_without_the_skill_gets_a_fresh_form_and_is_told_why(phone):
    fresh = values(open_form(phone, "pool"))
    form = maras_lockpicking(phone)
    fill(form, "DR", 3)
    choose(phone, "Dot")
    expect(phone.locator("#who-status")).to_have_text(
        "The form no longer holds Mara’s Lockpicking: choose Dot’s skill From the sheet.")
    for label, value in fresh.items():
        expect(labelled(form, label)).to_have_value(value)
    expect(phone.get_by_label("From the sheet")).to_have_value("")
    choose(phone, "No character")  # nobody: the form stays as it is
    fill(form, "Skill", 6)
    choose(phone, "Vex")
    expect(labelled(form, "Skill")).to_have_value("6")


def test_numbers_the_player_typed_stay_when_another_character_is_picked(phone):
    form = maras_lockpicking(phone)
    fill(form, "DR", 3)  # the GM's part, not the pick's: it stays through a refill
    choose(phone, "Vex")
    expect(labelled(form, "Skill")).to_have_value("4")
    expect(labelled(form, "DR")).to_have_value("3")
    fill(form, "Skill", 9)  # typed over what Vex's sheet filled in: theirs now
    typed = values(form)
    for other in ("Mara", "Dot"):
        choose(phone, other)
        expect(phone.get_by_label("From the sheet")).to_have_value("")
        expect(phone.locator("#who-status")).to_have_text("")
        assert values(form) == typed


def test_the_pick_is_kept_with_its_form_across_a_reload_and_another_system(phone):
    form = maras_lockpicking(phone)
    sheet = phone.get_by_label("From the sheet")
    phone.reload()
    wait_ready(phone)
    expect(sheet.locator("option:checked")).to_have_text("Lockpicking")  # still Mara's
    phone.locator("#pick-flip").check()  # another system and back, as a player moves
    expect(phone.locator("#form-flip-unopposed")).to_be_visible()
    phone.locator("#pick-pool").check()
    expect(form).to_be_visible()
    expect(sheet.locator("option:checked")).to_have_text("Lockpicking")
    choose(phone, "Vex")
    expect(labelled(form, "Skill")).to_have_value("4")
    fill(form, "DR", 2)
    fill(form, "My dice", "8 1 1")
    roll(phone)
    expect(phone.locator("#log-list > li").first).to_contain_text("Vex · Lockpicking (d10 pool)")


def test_a_form_left_with_maras_pick_follows_whoever_was_picked_meanwhile(phone):
    """Another system shown while Vex, then Dot, is picked: back on the d10 pool, its form holds
    the picked character's Lockpicking, or is put back as drawn and says why."""
    form = maras_lockpicking(phone)
    sheet = phone.get_by_label("From the sheet")
    phone.locator("#pick-passages").check()
    choose(phone, "Vex")
    phone.locator("#pick-pool").check()
    expect(labelled(form, "Skill")).to_have_value("4")
    expect(sheet.locator("option:checked")).to_have_text("Lockpicking")
    phone.locator("#pick-passages").check()
    choose(phone, "Dot")
    phone.locator("#pick-pool").check()
    expect(phone.locator("#who-status")).to_have_text(
        "The form no longer holds Vex’s Lockpicking: choose Dot’s skill From the sheet.")
    expect(labelled(form, "Skill")).not_to_have_value("4")


def test_a_reload_after_another_tab_picked_vex_fills_the_form_from_vexs_sheet(phone):
    form = maras_lockpicking(phone)
    vex = phone.get_by_label("Character", exact=True).locator("option", has_text="Vex")
    phone.evaluate("id => localStorage.setItem('skillcheck.picked', id)",  # as that tab does
                   vex.get_attribute("value"))
    phone.reload()
    wait_ready(phone)
    expect(phone.get_by_label("Character", exact=True).locator("option:checked")).to_have_text(
        "Vex")
    expect(labelled(form, "Skill")).to_have_value("4")
    expect(phone.get_by_label("From the sheet").locator("option:checked")).to_have_text(
        "Lockpicking")
