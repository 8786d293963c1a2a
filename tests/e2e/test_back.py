"""Back with a dialog open, on a phone: the address goes to another view (the GM's side, the
player's check) and the dialog left open over it would describe what is no longer shown. The
dialog is closed as Escape closes it; the character editor holding edits asks first, and a no
keeps the editor, the view and the address."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect
from test_gm import commit
from test_table import bar_tool

GM_SIDE = "The GM’s side"
CHECK = "#system=flip&mode=unopposed"  # the check the shared page opens on, at its own address


def side_link(page: Page, name: str) -> Locator:
    return page.get_by_role("navigation", name="Sides of the table").get_by_role("link", name=name)


def expect_side(page: Page, gm: bool) -> None:
    """The GM's side shown and the player's check hidden, or the other way round: by id, as an
    open modal dialog takes the rest of the page out of the roles."""
    shown, hidden = page.locator("#gm-view"), page.locator("main.app")
    if not gm:
        shown, hidden = hidden, shown
    expect(shown).to_be_visible()
    expect(hidden).to_be_hidden()


def editing_after_the_gm_side(page: Page) -> Locator:
    """The player back from the GM's side by its link (Back would return there), typing a new
    character's name in the editor: the editor."""
    side_link(page, "GM").click()
    expect(page.get_by_role("heading", name=GM_SIDE)).to_be_visible()
    side_link(page, "Player").click()
    page.wait_for_function("check => location.hash === check", arg=CHECK)
    bar_tool(page, "New character").click()
    editor = page.get_by_role("dialog", name="New character")
    editor.get_by_label("Name", exact=True).fill("Vex")
    return editor


def test_back_from_the_gm_side_closes_its_qr_code_and_shows_the_check(app):
    side_link(app, "GM").click()
    code = commit(app, "d10 pool", "3", "The vault door")
    app.go_back()
    expect(code).to_be_hidden()
    expect_side(app, gm=False)
    assert app.evaluate("location.hash") == CHECK


def test_back_asks_before_dropping_the_editors_edits_and_a_no_stays(app):
    editor = editing_after_the_gm_side(app)
    app.go_back()
    question = app.get_by_role("dialog", name="Drop this new character? Nothing is saved.")
    expect(question).to_be_visible()
    question.get_by_role("button", name="Cancel").click()
    expect(question).to_be_hidden()
    expect(editor).to_be_visible()
    expect(editor.get_by_label("Name", exact=True)).to_have_value("Vex")
    expect_side(app, gm=False)
    assert app.evaluate("location.hash") == CHECK


def test_back_and_drop_changes_closes_the_editor_and_goes_back(app):
    editor = editing_after_the_gm_side(app)
    app.go_back()
    app.get_by_role("dialog", name="Drop this new character? Nothing is saved.").get_by_role(
        "button", name="Drop changes").click()
    expect(editor).to_be_hidden()
    expect_side(app, gm=True)
    assert app.evaluate("location.hash") == "#gm"
