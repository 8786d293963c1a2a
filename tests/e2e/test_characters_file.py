"""Moving saved characters to another browser: "Export characters" downloads them as a file and
"Import characters" merges one in — new characters added, a same-named one replaced only after a
question, a bad file refused in the bar's status with nothing changed. Driven by labels and roles
on a phone."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from ready import wait_ready
from test_page import fill, open_form
from test_table import HOSTILE, bar_tool, new_character, open_more, pick, pool_sheet, roll, stock

KEY = "skillcheck.characters"


def who(page: Page) -> Locator:
    return page.locator("#who")


def files(page: Page) -> Locator:
    """The character bar's export and import, unfolded (they sit under a summary line, behind
    More on a phone with a character picked)."""
    open_more(page)
    tools = who(page).locator("details.who-files")
    if tools.get_attribute("open") is None:
        tools.get_by_text("Move characters to another device", exact=True).click()
    return tools


def status(page: Page) -> Locator:
    return who(page).get_by_role("status")


def names(page: Page) -> list[str]:
    return page.get_by_label("Character", exact=True).locator("option").all_inner_texts()


def chosen(page: Page) -> Locator:
    return page.get_by_label("Character", exact=True).locator("option:checked")


def stored(page: Page) -> str | None:
    return page.evaluate(f"localStorage.getItem('{KEY}')")


def export(page: Page, folder: Path) -> Path:
    """Press "Export characters" and keep the downloaded file."""
    with page.expect_download() as download:
        files(page).get_by_role("button", name="Export characters").click()
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    return path


def import_file(page: Page, path: Path) -> None:
    files(page).get_by_label("Import characters").set_input_files(path)


def test_characters_go_to_another_browser_by_file(app, fresh_context, boot, app_url, tmp_path):
    export_button = files(app).get_by_role("button", name="Export characters")
    expect(export_button).to_be_disabled()  # nothing to export yet
    new_character(app, "Vex", luck=2, notes="Owes <b>money</b>.", sheet=pool_sheet)
    new_character(app, "Mara", xp=4)
    expect(export_button).to_be_enabled()
    export_button.focus()  # the file picker is next in the keyboard order
    app.keyboard.press("Tab")
    expect(files(app).get_by_label("Import characters")).to_be_focused()

    exported = export(app, tmp_path)
    assert re.fullmatch(r"skillcheck-characters-\d{4}-\d\d-\d\d\.json", exported.name)
    expect(status(app)).to_have_text(f"Exported 2 characters as {exported.name}.")
    assert exported.read_text(encoding="utf-8") == stored(app)

    other = boot(fresh_context.new_page(), app_url)  # another phone: its own characters
    new_character(other, "Zed", luck=9)
    import_file(other, exported)
    expect(status(other)).to_have_text("Imported 2 characters.")
    expect(status(other)).not_to_have_class(re.compile("problem"))
    assert names(other) == ["No character", "Mara", "Vex", "Zed"]
    expect(chosen(other)).to_have_text("Zed")  # the pick is kept
    other.reload()
    wait_ready(other)
    assert names(other) == ["No character", "Mara", "Vex", "Zed"]
    form = open_form(other, "pool")
    other.get_by_label("Character", exact=True).select_option(label="Vex")
    expect(stock(other)).to_have_text("Luck 2 · XP 0")
    pick(other, "Lockpicking")
    expect(form.get_by_label(re.compile(r"^Skill\b"))).to_have_value("7")
    bar_tool(other, "Edit character").click()
    expect(other.get_by_role("dialog").get_by_label("Notes")).to_have_value("Owes <b>money</b>.")


def test_a_same_named_character_is_replaced_only_when_the_player_says_yes(app, tmp_path):
    form = open_form(app, "pool")
    new_character(app, "Vex", luck=2, sheet=pool_sheet)
    pick(app, "Lockpicking")
    fill(form, "DR", 3)
    fill(form, "My dice", "8 8 9 1 2")
    roll(app)  # spends 1 Luck: an undo is pending
    undo = bar_tool(app, re.compile("^Undo last spend"))
    expect(undo).to_be_visible()
    exported = export(app, tmp_path)

    bar_tool(app, "Edit character").click()
    dialog = app.get_by_role("dialog", name="Edit Vex")
    dialog.get_by_role("textbox", name="Name", exact=True).fill("VEX")
    dialog.get_by_label(re.compile(r"^Luck\b")).fill("0")
    dialog.get_by_role("button", name="Save").click()
    new_character(app, "Ash")
    before = stored(app)

    import_file(app, exported)
    question = app.get_by_role("dialog")
    expect(question).to_contain_text("Import 1 character? It replaces VEX, the character here "
                                     "with the same name")
    question.get_by_role("button", name="Cancel").click()
    expect(question).to_be_hidden()
    assert stored(app) == before
    assert names(app) == ["No character", "Ash", "VEX"]

    import_file(app, exported)  # the same file again, and this time yes
    question.get_by_role("button", name="Import and replace").click()
    expect(status(app)).to_have_text("Imported 1 character (1 replaced).")
    assert names(app) == ["No character", "Ash", "Vex"]
    expect(chosen(app)).to_have_text("Ash")
    app.get_by_label("Character", exact=True).select_option(label="Vex")
    expect(stock(app)).to_have_text("Luck 1 · XP 0")
    expect(undo).to_be_hidden()  # the undo came from the exported copy: not applied here
    assert [c["last_spend"] for c in json.loads(stored(app))["characters"]] == [None, None]


def as_file(*characters, **changes) -> str:
    return json.dumps({"version": 1, "kind": KEY, "next_id": 9, "characters": list(characters),
                       **changes})


def test_a_bad_file_is_refused_in_the_status_and_changes_nothing(app, tmp_path):
    new_character(app, "Vex", luck=2)
    before = stored(app)
    bad = {
        "not json.json": ("{characters: oops", "it is not valid JSON"),
        "log.json": (json.dumps({"version": 1, "kind": "skillcheck.log", "next_id": 1,
                                 "entries": []}), "it is not a Skill Check file of the right kind"),
        "newer.json": (as_file({"id": 1, "name": "Ash"}, version=2),
                       "it was saved by a newer version of Skill Check (format 2)"),
        "edited.json": (as_file({"id": 1, "name": "Ash"}, {"id": 2, "name": "Vex", "luck": -3}),
                        "character 2 (Vex), luck: must be a whole number from 0 to 1000"),
    }
    for name, (text, words) in bad.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        import_file(app, tmp_path / name)
        expect(status(app)).to_have_text(f"This file could not be imported: {words}. Your "
                                         "characters were not changed.")
        expect(status(app)).to_have_class(re.compile(r"\bproblem\b"))
        expect(app.get_by_role("dialog")).to_have_count(0)
        assert stored(app) == before
        assert names(app) == ["No character", "Vex"]

    hostile = tmp_path / "hostile.json"  # a name holding markup arrives as text and runs nothing
    hostile.write_text(as_file({"id": 1, "name": HOSTILE, "notes": "<iframe src=x></iframe>"}))
    import_file(app, hostile)
    expect(status(app)).to_have_text("Imported 1 character.")
    expect(status(app)).not_to_have_class(re.compile("problem"))
    assert names(app) == ["No character", HOSTILE, "Vex"]
    assert app.evaluate("document.querySelectorAll('img[src=x], iframe').length") == 0
