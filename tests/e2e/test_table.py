"""At the table, on a phone: the roll log (kept across reloads, shown again, filtered, exported
and imported, cleared after a question, fast when long), saved characters filling the form and
spending Luck and XP, one-tap re-roll, and replay links opened in another browser."""

from __future__ import annotations

import json
import random
import re
import time

import skillcheck
from app import links, log_model
from app.storage import MemoryStorage
from playwright.sync_api import Locator, Page, expect
from presses import press_roll
from ready import wait_ready
from test_page import expected_images, explain_lines, fill, labelled, open_form, result_images

LOG_ENTRIES = "#log-list .log-entry"


# --- driving the table features by their labels and roles -----------------------------------------

def boot_at(page: Page, url: str) -> Page:
    page.goto(url)
    wait_ready(page)
    return page


def share(page: Page) -> str:
    """Press Share and wait for the replay link in its box (Share's handler is async)."""
    page.get_by_role("button", name="Share").click()
    link = page.get_by_label("Replay link")
    expect(link).to_have_value(re.compile(r"#r=2\."))
    return link.input_value()


def roll(page: Page) -> None:
    """Press the main button and wait until the roll is in the log (it is written after)."""
    before = log_size(page)
    press_roll(page)
    expect(page.locator("#result .outcome")).to_be_visible()
    page.wait_for_function("n => JSON.parse(localStorage.getItem('skillcheck.log') || "
                           "'{\"entries\": []}').entries.length > n", arg=before)


def log_size(page: Page) -> int:
    return page.evaluate("() => JSON.parse(localStorage.getItem('skillcheck.log') || "
                         "'{\"entries\": []}').entries.length")


def log_panel(page: Page) -> Locator:
    return page.get_by_role("region", name="Roll log")


def entries_text(page: Page) -> list[str]:
    return page.locator("#log-list > li").all_inner_texts()


def stored_log(page: Page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('skillcheck.log')"))


def new_character(page: Page, name: str, *, luck: int = 0, xp: int = 0, notes: str = "",
                  sheet=None) -> None:
    """Make a character in the editor; `sheet(dialog)` fills its sheet rows."""
    bar_tool(page, "New character").click()
    dialog = page.get_by_role("dialog", name="New character")
    dialog.get_by_label("Name", exact=True).fill(name)
    labelled(dialog, "Luck").fill(str(luck))
    labelled(dialog, "XP").fill(str(xp))
    dialog.get_by_label("Notes").fill(notes)
    if sheet:
        sheet(dialog)
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_label("Character", exact=True)).to_have_value(re.compile(r"\d+"))


def sheet_part(dialog: Locator, title: str) -> Locator:
    part = dialog.locator("details.sheet-part").filter(has_text=title)
    part.locator("summary").click()
    return part


def add_row(part: Locator, button: str, legend: str) -> Locator:
    part.get_by_role("button", name=button).click()
    return part.get_by_role("group", name=legend)


def named_row(part: Locator, button: str, legend: str, name: str, score: int | None = None
              ) -> Locator:
    """A row added and given its Name (and Score)."""
    row = add_row(part, button, legend)
    row.get_by_label("Name").fill(name)
    if score is not None:
        labelled(row, "Score").fill(str(score))
    return row


def pool_sheet(dialog: Locator) -> None:
    part = sheet_part(dialog, "d10 pool")
    named_row(part, "Add a trait", "Trait 1", "Dexterity", 5)
    skill = named_row(part, "Add a skill", "Skill 1", "Lockpicking")
    labelled(skill, "Trait").select_option("Dexterity")
    labelled(skill, "Score").fill("7")


def pick(page: Page, name: str) -> None:
    """Choose `name` from the picked character's sheet ("Hard Strength" is listed as "Hard
    Strength (aspect)")."""
    select = page.get_by_label("From the sheet")
    option = select.locator("option").filter(has_text=re.compile(rf"^{re.escape(name)}"))
    select.select_option(option.first.get_attribute("value"))


def lockpicking_roll(page: Page, name: str, *, luck: int, dr: int, dice: str) -> Locator:
    """A d10 pool check rolled for a new character `name` holding pool_sheet's Lockpicking
    (Dexterity 5, score 7), against `dr` with the `dice` given: the pool form."""
    form = open_form(page, "pool")
    new_character(page, name, luck=luck, sheet=pool_sheet)
    pick(page, "Lockpicking")
    fill(form, "DR", dr)
    fill(form, "My dice", dice)
    roll(page)
    return form


def stock(page: Page) -> Locator:
    return page.locator("#who-stock")


def open_more(page: Page) -> None:
    """On a phone with a character picked, the bar's rarer tools sit behind "More for <name>":
    opened, as a player would, when it is shown and closed (elsewhere they are always out)."""
    more = page.get_by_role("button", name=re.compile("^More for "))
    if more.is_visible() and more.get_attribute("aria-expanded") != "true":
        more.click()


def bar_tool(page: Page, name: str | re.Pattern, **options) -> Locator:
    """A button of the character bar ("Edit character", "Undo last spend (1 Luck)"...), by its
    name, with More opened first where they sit behind it (open_more)."""
    open_more(page)
    return page.get_by_role("button", name=name, **options)


# --- the roll log -----------------------------------------------------------------------------

def test_the_log_keeps_each_roll_newest_first_across_a_reload(app):
    form = open_form(app, "pool")
    fill(form, "My dice", "1 2 3 4 5")
    roll(app)
    fill(form, "My dice", "10 10 10 10 10")
    roll(app)
    form = open_form(app, "flip", "unopposed")
    fill(form, "My cards", "JC 10S")
    roll(app)
    expected = [skillcheck.resolve({"system": "flip", "rank": 2, "aspect": 3,
                                    "difficulty": "average", "cards": ["JC", "10S"]}),
                skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 4,
                                    "dice": [10] * 5}),
                skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 4,
                                    "dice": [1, 2, 3, 4, 5]})]
    shown = entries_text(app)
    assert len(shown) == 3
    for text, result in zip(shown, expected, strict=True):
        assert skillcheck.SYSTEMS[result["system"]]["label"] in text
        assert result["outcome"].lower() in text.lower()
        assert log_model.summarize(result["request"], result) in text
    assert "JC 10S" in shown[0] and "1 2 3 4 5" in shown[2]

    app.reload()
    wait_ready(app)
    expect(app.locator(LOG_ENTRIES)).to_have_count(3)
    assert entries_text(app) == shown
    log_panel(app).get_by_label("Show").select_option(label="d10 pool")
    expect(app.locator(LOG_ENTRIES)).to_have_count(2)
    expect(log_panel(app)).to_contain_text("2 d10 pool entries.")


def test_tapping_an_entry_shows_that_roll_again_and_never_rolls(app):
    form = open_form(app, "flip", "opposed")
    fill(form.get_by_role("group", name="Initiator"), "My cards", "QS 3H")
    fill(form.get_by_role("group", name="Opponent"), "My cards", "JD 5C")
    roll(app)
    first = result_images(app)
    fill(form.get_by_role("group", name="Initiator"), "My cards", "2S 4H")
    roll(app)
    assert result_images(app) != first
    stored = stored_log(app)

    app.locator(LOG_ENTRIES).nth(1).click()
    result = app.locator("#result")
    expect(result).to_contain_text("From the log: a roll from")
    expect(result).to_contain_text("Nothing was rolled again.")
    assert result_images(app) == first
    expect(result.locator(".keep-this").first).to_be_hidden()  # not played again either
    app.wait_for_timeout(300)
    assert stored_log(app) == stored  # showing it wrote nothing


def test_export_then_import_gives_back_exactly_the_same_log(app, tmp_path):
    form = open_form(app, "passages")
    for dice in ("7", "55", "100"):
        fill(form, "My dice", dice)
        roll(app)
    app.evaluate("""() => { window.violations = [];
        document.addEventListener("securitypolicyviolation", e => violations.push(e.blockedURI));
    }""")
    with app.expect_download() as download:
        log_panel(app).get_by_role("button", name="Export").click()
    assert app.evaluate("violations") == []  # a Blob URL download is within the page's CSP
    assert re.fullmatch(r"skillcheck-log-\d{4}-\d\d-\d\d\.json",
                        download.value.suggested_filename)
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    shown = entries_text(app)

    log_panel(app).get_by_role("button", name="Clear…").click()
    app.get_by_role("dialog").get_by_role("button", name="Clear the log").click()
    expect(app.locator(LOG_ENTRIES)).to_have_count(0)
    expect(log_panel(app)).to_contain_text("Nothing rolled yet.")

    log_panel(app).get_by_label("Import").set_input_files(exported)
    expect(log_panel(app)).to_contain_text("Imported 3 entries.")
    assert entries_text(app) == shown
    assert app.evaluate("localStorage.getItem('skillcheck.log')") == exported.read_text()
    with app.expect_download() as again:
        log_panel(app).get_by_role("button", name="Export").click()
    assert again.value.path().read_text(encoding="utf-8") == exported.read_text()


def test_importing_over_a_log_asks_first(app, tmp_path):
    form = open_form(app, "swift")
    roll(app)
    exported = tmp_path / "one.json"
    exported.write_text(app.evaluate("localStorage.getItem('skillcheck.log')"))
    fill(form, "My dice", "1 2")
    roll(app)
    log_panel(app).get_by_label("Import").set_input_files(exported)
    dialog = app.get_by_role("dialog")
    expect(dialog).to_contain_text("Replace your roll log (2 entries) with this file's 1 entry?")
    dialog.get_by_role("button", name="Cancel").click()
    expect(app.locator(LOG_ENTRIES)).to_have_count(2)
    log_panel(app).get_by_label("Import").set_input_files(exported)
    dialog.get_by_role("button", name="Replace my log").click()
    expect(app.locator(LOG_ENTRIES)).to_have_count(1)


def test_a_bad_file_is_refused_and_the_log_is_left_untouched(app, tmp_path):
    open_form(app, "fluke")
    roll(app)
    before = app.evaluate("localStorage.getItem('skillcheck.log')")
    shown = entries_text(app)
    bad = {"not json.json": "{entries: oops",
           "other.json": json.dumps({"version": 1, "kind": "skillcheck.characters",
                                     "characters": [], "next_id": 1}),
           "edited.json": before.replace('"kind":"check"', '"kind":"cheque"', 1)}
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
        log_panel(app).get_by_label("Import").set_input_files(tmp_path / name)
        status = log_panel(app).get_by_role("status").filter(has_text="could not be imported")
        expect(status).to_contain_text("Your log was not changed.")
        expect(app.get_by_role("dialog")).to_have_count(0)
        assert app.evaluate("localStorage.getItem('skillcheck.log')") == before
        assert entries_text(app) == shown
    expect(log_panel(app)).to_contain_text("entry 1: kind")


def test_clearing_asks_first_and_answers_from_the_keyboard(app):
    open_form(app, "passages")
    roll(app)
    clear = log_panel(app).get_by_role("button", name="Clear…")
    clear.click()
    dialog = app.get_by_role("dialog")
    expect(dialog).to_contain_text("Clear the roll log (1 entry)?")
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    app.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(app.locator(LOG_ENTRIES)).to_have_count(1)
    clear.click()
    app.keyboard.press("Shift+Tab")
    expect(dialog.get_by_role("button", name="Clear the log")).to_be_focused()
    app.keyboard.press("Enter")
    expect(app.locator(LOG_ENTRIES)).to_have_count(0)
    assert stored_log(app)["entries"] == []


def long_log(size: int) -> str:
    """A stored log of `size` real checks, made by the page's own log code under CPython."""
    storage = MemoryStorage()
    log = log_model.RollLog(storage)
    rng = random.Random(1)
    requests = [{"system": "pool", "trait": 5, "skill": 7, "dr": 4},
                {"system": "flip", "rank": 3, "aspect": 2, "difficulty": "hard"},
                {"system": "passages", "base": 40}]
    for i in range(size):
        log.record_check(skillcheck.resolve(requests[i % 3], rng))
    return storage.get(log_model.LOG_KEY)


def test_a_long_log_draws_fifty_at_a_time_and_a_roll_does_not_wait_for_the_save(app):
    size = 4000
    app.evaluate("text => localStorage.setItem('skillcheck.log', text)", long_log(size))
    started = time.perf_counter()
    app.reload()
    wait_ready(app)
    boot = time.perf_counter() - started
    expect(app.locator(LOG_ENTRIES)).to_have_count(50)
    expect(log_panel(app)).to_contain_text(f"Showing the newest 50 of {size:,} entries.")
    log_panel(app).get_by_role("button", name="Show more").click()
    expect(app.locator(LOG_ENTRIES)).to_have_count(100)

    # The result is on screen before the log is written: time both from the click.
    timings = app.evaluate("""() => new Promise(done => {
        const start = performance.now();
        const result = document.getElementById("result");
        const seen = {};
        const watch = new MutationObserver(() => {
            if (!seen.result && result.querySelector(".outcome")) {
                seen.result = performance.now() - start;
            }
        });
        watch.observe(result, {childList: true, subtree: true});
        const size = () => JSON.parse(localStorage.getItem("skillcheck.log")).entries.length;
        const before = size();
        document.getElementById("roll").click();
        const poll = () => {
            if (size() <= before) return setTimeout(poll, 5);
            seen.saved = performance.now() - start;
            watch.disconnect();
            done(seen);
        };
        poll();
    })""")
    print(f"\nboot with {size} entries: {boot:.2f} s; result {timings['result']:.0f} ms, "
          f"saved {timings['saved']:.0f} ms after the click")
    assert timings["result"] <= timings["saved"]
    assert timings["result"] < 1000
    expect(app.locator(LOG_ENTRIES)).to_have_count(100)
    assert log_size(app) == size + 1


# --- one-tap re-roll ---------------------------------------------------------------------------

def test_roll_again_repeats_the_request_with_a_new_draw_even_after_a_reload(fresh_context,
                                                                          app_url):
    page = boot_at(fresh_context.new_page(), app_url + "?seed=11#system=pool")
    form = page.locator("#form-pool")
    fill(form, "Trait", 6)
    fill(form, "Skill", 5)
    fill(form, "DR", 2)
    request = {"system": "pool", "trait": 6, "skill": 5, "dr": 2}
    rng = random.Random(11)
    roll(page)
    assert result_images(page) == expected_images(skillcheck.resolve(request, rng))
    press_roll(page, page.get_by_role("button", name="Re-roll"))
    again = skillcheck.resolve(request, rng)
    expect(page.locator("#result [role=img]:not(.outcome-bar)").first).to_have_attribute(
        "aria-label", expected_images(again)[0])
    assert result_images(page) == expected_images(again)
    page.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log'))"
                           ".entries.slice(-2).every(e => e.summary === "
                           "'Trait 6, Skill 5, DR 2')")

    page.reload()
    wait_ready(page)
    fill(page.locator("#form-pool"), "Trait", 3)  # the form changed: Re-roll does not care
    before = log_size(page)
    press_roll(page, page.get_by_role("button", name="Re-roll"))
    expect(page.locator("#result [data-fact=successes]")).to_be_visible()
    assert len(result_images(page)) == 6
    page.wait_for_function("n => JSON.parse(localStorage.getItem('skillcheck.log'))"
                           ".entries.length > n", arg=before)
    assert stored_log(page)["entries"][-1]["summary"] == "Trait 6, Skill 5, DR 2"


# --- saved characters ------------------------------------------------------------------------

def flip_sheet(dialog: Locator) -> None:
    part = sheet_part(dialog, "Card flip sheet")
    labelled(part, "Hard Strength").fill("4")
    labelled(part, "Acquired Intellect").fill("2")
    skill = add_row(part, "Add a skill", "Skill 1")
    skill.get_by_label("Skill", exact=True).select_option("Athletics")
    labelled(skill, "Rank").fill("3")
    skill.get_by_label("Specialization").fill("Climbing")
    skill = add_row(part, "Add a skill", "Skill 2")
    skill.get_by_label("Skill", exact=True).select_option("Knowledge")
    labelled(skill, "Type").fill("History")
    labelled(skill, "Rank").fill("0")
    skill.get_by_label("Familiarity").check()


def test_a_characters_skill_fills_the_form_and_rolls(app):
    form = open_form(app, "flip", "opposed")
    new_character(app, "Mara", sheet=flip_sheet)
    initiator = form.get_by_role("group", name="Initiator")
    fill(form.get_by_role("group", name="Opponent"), "Rank", 4)
    pick(app, "Athletics")
    expect(labelled(initiator, "Skill")).to_have_value("Athletics")
    expect(labelled(initiator, "Rank")).to_have_value("3")
    expect(labelled(initiator, "Aspect")).to_have_value("4")
    expect(labelled(initiator, "Specialization")).to_have_value("Climbing")  # the sheet's
    expect(labelled(form.get_by_role("group", name="Opponent"), "Rank")).to_have_value("4")
    roll(app)
    entry = stored_log(app)["entries"][-1]
    assert entry["request"]["initiator"]["rank"] == 3
    assert entry["request"]["initiator"]["aspect"] == 4

    pick(app, "Knowledge: History")  # an opposed form keeps its mode; the initiator changes
    expect(labelled(initiator, "Skill")).to_have_value("Knowledge")
    expect(labelled(initiator, "Aspect")).to_have_value("2")
    expect(labelled(initiator, "Familiarity")).to_be_checked()
    expect(labelled(initiator, "Advanced skill")).to_be_checked()
    pick(app, "Hard Strength")  # an aspect, by its name: the aspect check
    expect(app.locator("#who-status")).to_contain_text("Mara: Hard Strength is in the form")
    expect(app.get_by_role("radio", name="Aspect", exact=True)).to_be_checked()
    expect(labelled(app.locator("#form-flip-aspect"), "Aspect")).to_have_value("4")

    app.reload()
    wait_ready(app)
    expect(app.get_by_label("Character", exact=True).locator("option:checked")).to_have_text(
        "Mara")
    bar_tool(app, "Edit character").click()
    dialog = app.get_by_role("dialog", name="Edit Mara")
    part = sheet_part(dialog, "Card flip sheet")
    expect(labelled(part.get_by_role("group", name="Skill 1"), "Specialization")).to_have_value(
        "Climbing")
    dialog.get_by_label("Name", exact=True).fill("Mara the Bold")
    dialog.get_by_role("button", name="Save").click()
    expect(app.get_by_label("Character", exact=True).locator("option:checked")).to_have_text(
        "Mara the Bold")


def test_a_bad_sheet_is_named_beside_its_box_and_nothing_is_saved(app):
    bar_tool(app, "New character").click()
    dialog = app.get_by_role("dialog", name="New character")
    dialog.get_by_label("Name", exact=True).fill("Rook")
    part = sheet_part(dialog, "Card flip sheet")
    skill = add_row(part, "Add a skill", "Skill 1")
    skill.get_by_label("Skill", exact=True).select_option("Athletics")
    labelled(skill, "Rank").fill("70")
    dialog.get_by_role("button", name="Save").click()
    rank = labelled(skill, "Rank")
    expect(rank).to_have_attribute("aria-invalid", "true")
    expect(dialog.get_by_role("alert")).to_have_text("Rank: must be a whole number from 0 to 52")
    dialog.get_by_role("button", name="Cancel").click()
    app.get_by_role("dialog", name="Drop this new character? Nothing is saved.").get_by_role(
        "button", name="Drop changes").click()
    expect(dialog).to_be_hidden()
    assert app.evaluate("localStorage.getItem('skillcheck.characters')") is None


def test_luck_is_spent_capped_at_the_stock_and_undone_once(app):
    form = open_form(app, "pool")
    new_character(app, "Vex", luck=2, sheet=pool_sheet)
    expect(stock(app)).to_have_text("Luck 2 · XP 0")
    luck = labelled(form, "Luck")
    expect(luck).to_have_attribute("max", "2")
    expect(form).to_contain_text("Vex has 2 Luck: at most 2.")
    pick(app, "Lockpicking")
    expect(luck).to_have_value("2")
    expect(labelled(form, "Skill")).to_have_value("7")

    fill(form, "Luck", 3)  # more than Vex has: refused beside the box, nothing rolled
    expect(app.locator("#odds .problem")).to_contain_text("Vex has 2 Luck")
    before = log_size(app)
    press_roll(app)
    expect(luck).to_have_attribute("aria-invalid", "true")
    assert log_size(app) == before

    fill(form, "Luck", 2)
    fill(form, "DR", 3)
    fill(form, "My dice", "8 8 9 1 2")
    roll(app)
    result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 2,
                                 "dice": [8, 8, 9, 1, 2]})
    assert result["luck_used"] == 1
    expect(app.locator("#result .headline")).to_contain_text(result["outcome"], ignore_case=True)
    expect(stock(app)).to_have_text("Luck 1 · XP 0")
    expect(luck).to_have_attribute("max", "1")
    app.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log'))"
                          ".entries.some(e => e.kind === 'spend')")
    note = app.locator("#log-list .log-note").first
    expect(note).to_contain_text("Vex spent 1 Luck (2 → 1).")
    # Where the texts are drawn (a grid cell can shrink to nothing while its text spills over).
    system, summary = (note.locator(part).evaluate(
        "el => { const range = document.createRange(); range.selectNodeContents(el);"
        " const box = range.getBoundingClientRect();"
        " return {left: box.left, right: box.right, top: box.top, bottom: box.bottom}; }")
        for part in (".log-system", ".log-summary"))
    beside = system["right"] <= summary["left"] + 0.5
    above = system["bottom"] <= summary["top"] + 0.5
    assert beside or above, f"the system's name is drawn over the note: {system} {summary}"

    app.reload()  # the stock and the undo survive a reload
    wait_ready(app)
    expect(stock(app)).to_have_text("Luck 1 · XP 0")
    bar_tool(app, "Undo last spend (1 Luck)").click()
    expect(stock(app)).to_have_text("Luck 2 · XP 0")
    expect(bar_tool(app, re.compile("^Undo last spend"))).to_be_hidden()
    expect(app.locator("#log-list .log-note").first).to_contain_text("Undone: Vex got 1")
    spends = [e for e in stored_log(app)["entries"] if e["kind"] in ("spend", "undo")]
    assert [(e["kind"], e["before"], e["after"]) for e in spends] == [("spend", 2, 1),
                                                                     ("undo", 1, 2)]
    assert spends[1]["undoes"] == spends[0]["id"]


def test_xp_buys_insurance_only_as_far_as_it_goes(app):
    form = open_form(app, "fluke")
    new_character(app, "Dot", xp=5)
    insurance = labelled(form, "Insurance")
    expect(insurance).to_have_attribute("max", "2")
    expect(form).to_contain_text("Dot has 5 XP: at most 2, 2 XP each.")
    fill(form, "Dice to roll", 4)
    fill(form, "Insurance", 2)
    fill(form, "My dice", "1 1 5 6")
    roll(app)
    assert skillcheck.resolve({"system": "fluke", "dice_count": 4, "insurance": 2,
                               "dice": [1, 1, 5, 6]})["xp_spent"] == 4
    expect(stock(app)).to_have_text("Luck 0 · XP 1")
    expect(insurance).to_have_attribute("max", "0")
    expect(insurance).to_have_value("0")  # down to what Dot has left: the next roll is not refused
    press_roll(app)
    expect(app.locator("#result .outcome")).to_be_visible()
    expect(insurance).not_to_have_attribute("aria-invalid", "true")
    expect(app.locator("#form-fluke .field-error")).to_have_count(0)
    bar_tool(app, "Undo last spend (4 XP)").click()
    expect(stock(app)).to_have_text("Luck 0 · XP 5")
    app.get_by_label("Character", exact=True).select_option("")  # without a character: as before
    expect(insurance).to_have_attribute("max", "20")
    expect(form.locator(".field-note")).to_have_count(0)


HOSTILE = "<img src=x onerror=alert(1)><script>alert(2)</script><b>"  # 57 of 60 characters


def test_names_and_notes_holding_html_are_shown_as_text_and_run_nothing(app):
    dialogs = []
    app.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    elements = "document.querySelectorAll('img[src=x], b, main script, dialog script').length"
    before = app.evaluate(elements)
    form = open_form(app, "pool")
    new_character(app, HOSTILE, luck=3, notes=HOSTILE + "\n<iframe src=x></iframe>",
                  sheet=pool_sheet)
    picked = app.get_by_label("Character", exact=True).locator("option:checked")
    expect(picked).to_have_text(HOSTILE)
    expect(app.locator("#who-status")).to_have_text(f"Saved {HOSTILE}.")
    expect(form).to_contain_text(f"{HOSTILE} has 3 Luck")
    pick(app, "Lockpicking")
    fill(form, "My dice", "8 8 9 1 2")
    fill(form, "DR", 3)
    roll(app)
    expect(app.locator("#log-list .log-note").first).to_contain_text(f"{HOSTILE} spent 1 Luck")
    bar_tool(app, "Edit character").click()
    expect(app.get_by_role("dialog").get_by_label("Notes")).to_have_value(
        HOSTILE + "\n<iframe src=x></iframe>")
    app.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    app.reload()
    wait_ready(app)
    expect(picked).to_have_text(HOSTILE)
    assert app.evaluate(elements) == before
    assert app.evaluate("document.querySelectorAll('iframe').length") == 0
    assert dialogs == []


def test_deleting_a_character_asks_first(app):
    new_character(app, "Gone", luck=1)
    bar_tool(app, "Edit character").click()
    app.get_by_role("dialog", name="Edit Gone").get_by_role("button", name="Delete").click()
    app.get_by_role("dialog", name=re.compile("^Delete Gone")).get_by_role(
        "button", name="Delete").click()
    expect(app.get_by_label("Character", exact=True).locator("option")).to_have_text(
        ["No character"])
    expect(stock(app)).to_have_text("")
    assert json.loads(app.evaluate("localStorage.getItem('skillcheck.characters')"))[
        "characters"] == []


# --- replay links ------------------------------------------------------------------------------

def test_a_shared_link_shows_the_same_roll_in_another_browser_and_never_rolls(app, fresh_context):
    form = open_form(app, "flip", "team")
    fill(form.get_by_role("group", name="Primary"), "My cards", "5H 10S 2D")
    fill(form.get_by_role("group", name="Helper 1"), "My cards", "9C 4S")
    roll(app)
    images = result_images(app)
    explain = explain_lines(app)
    assert explain
    app.context.grant_permissions(["clipboard-read", "clipboard-write"])
    app.get_by_role("button", name="Share").click()
    link = app.get_by_label("Replay link")
    expect(link).to_have_value(re.compile(r"#r=2\."))
    expect(app.locator("#share-status")).to_have_text("Link copied: paste it to show this roll.")
    expect(app.locator(".share-box")).to_contain_text(links.HONESTY)
    url = link.input_value()
    assert app.evaluate("navigator.clipboard.readText()") == url
    assert url.startswith(app.evaluate("location.origin + location.pathname"))
    entry_time = stored_log(app)["entries"][-1]["time"]
    assert links.open_link(url[url.index("#"):])["time"] == entry_time

    other = fresh_context.new_page()
    boot_at(other, url)
    result = other.locator("#result")
    expect(result).to_contain_text("Replay of a roll from")
    expect(result).to_contain_text(links.HONESTY)
    assert result_images(other) == images
    assert explain_lines(other) == explain
    expect(result.locator(".keep-this").first).to_be_hidden()
    expect(other.get_by_role("button", name="Re-roll")).to_be_hidden()
    assert other.evaluate("localStorage.getItem('skillcheck.log')") is None
    assert other.evaluate("location.hash") == url[url.index("#"):]
    other.reload()  # the link stays in the address: reloading shows the roll again
    wait_ready(other)
    expect(result).to_contain_text("Replay of a roll from")
    assert result_images(other) == images
    other.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    other.get_by_role("button", name="Share").click()  # no clipboard: the box is enough
    expect(other.locator("#share-status")).to_have_text(
        "Copy the link from the box to show this roll.")
    expect(other.get_by_label("Replay link")).to_have_value(url)


def test_a_damaged_or_edited_link_says_so_and_the_page_keeps_working(booted):
    result = skillcheck.resolve({"system": "swift", "trait": 5, "skill": 6, "dice": [4, 9]})
    good = links.share_fragment(result, "2026-11-29T17:48:05Z")
    edited = links.share_fragment({**result, "outcome": "critical success"},
                                  "2026-11-29T17:48:05Z")
    cases = {"#r=1.this-is-not-a-link!": "damaged", good[:-6]: "damaged",
             edited: "it was edited", "#r=9.abc": "newer version"}
    for fragment, words in cases.items():
        booted.evaluate("f => { location.hash = f; }", fragment)  # as if pasted in
        problem = booted.locator("#result .problem")
        expect(problem).to_contain_text(words)
        expect(problem).to_contain_text("The page works as usual")
    form = booted.locator(".sysform:visible")
    expect(form).to_have_count(1)
    press_roll(booted)
    expect(booted.locator("#result .outcome")).to_be_visible()
