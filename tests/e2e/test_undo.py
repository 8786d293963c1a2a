"""Undo of a roll made by mistake, on a phone (issue 35.3): offered under the result until the
next roll, it keeps the log entry struck through and marked withdrawn, gives back the Luck the
roll spent and says so aloud; a roll shown again from the log offers no Undo."""

from __future__ import annotations

from playwright.sync_api import expect
from test_page import fill, open_form
from test_table import LOG_ENTRIES, bar_tool, lockpicking_roll, roll, stock, stored_log

UNDO = "Undo this roll"


def test_undo_withdraws_the_roll_keeps_it_struck_through_and_gives_the_luck_back(app):
    lockpicking_roll(app, "Vex", luck=5, dr=3, dice="1 2 9 9 3")
    result = app.locator("#result")
    result.get_by_role("button", name="Spend 4 Luck → Critical Success", exact=True).click()
    expect(stock(app)).to_have_text("Luck 1 · XP 0")
    app.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log')).entries"
                          ".some(e => e.kind === 'spend')")

    app.get_by_role("button", name=UNDO).click()
    headline = result.locator(".headline")
    expect(headline).to_contain_text("Critical Success")
    expect(headline).to_contain_text("Withdrawn")
    expect(headline.locator("s")).to_have_text("Critical Success")
    expect(app.locator("#spoken")).to_have_text(  # read out: the roll, then what came back
        "Withdrawn: Vex, Lockpicking: Critical Success, IoS 3 — dice 1 2 9 9 3. "
        "Roll withdrawn: Vex got 4 Luck back (1 → 5).")
    expect(result).to_contain_text("Withdrawn: this roll no longer counts")
    expect(result).to_contain_text("Roll withdrawn: Vex got 4 Luck back (1 → 5).")
    expect(stock(app)).to_have_text("Luck 5 · XP 0")
    expect(app.locator("#who-status")).to_have_text(  # no longer what the roll spent
        "Roll withdrawn: Vex got 4 Luck back (1 → 5).")
    # Nothing more to play on it, and nothing left for "Undo last spend" to give back twice.
    expect(result.locator(".luck-offer")).to_have_count(0)
    expect(app.get_by_role("button", name=UNDO)).to_be_hidden()
    expect(app.locator("#result-heading")).to_be_focused()  # before More is pressed, below
    expect(bar_tool(app, "Undo last spend", exact=False)).to_be_hidden()
    not_shared(app)

    entry = app.locator(LOG_ENTRIES).first
    expect(entry).to_contain_text("Withdrawn: Critical Success")
    expect(app.locator("#log-list > li.withdrawn")).to_have_count(1)
    expect(app.locator("#log-list > li.withdrawn .log-entry")).to_have_attribute(
        "data-entry", entry.get_attribute("data-entry"))
    log = stored_log(app)["entries"]
    check = next(e for e in log if e["kind"] == "check")
    spend = next(e for e in log if e["kind"] == "spend")
    undo = next(e for e in log if e["kind"] == "undo")
    assert "withdrawn" in check and undo["undoes"] == spend["id"]
    assert (undo["before"], undo["after"]) == (1, 5)
    assert [e["kind"] for e in log].count("check") == 1  # never deleted, never doubled

    entry.click()  # shown again from the log: struck through, no Undo
    expect(result.locator(".headline")).to_contain_text("Withdrawn")
    expect(result).to_contain_text("this roll was taken back and no longer counts")
    expect(app.get_by_role("button", name=UNDO)).to_be_hidden()
    not_shared(app)


def not_shared(app) -> None:
    """A withdrawn roll counts nowhere, so it goes nowhere: no Share, Copy as text or Show QR
    (another phone would take its link for a roll that stands), and the page says why."""
    tools = app.locator("#result-tools")
    for name in ("Share", "Copy as text", "Show QR"):
        expect(tools.get_by_role("button", name=name, exact=True)).to_be_hidden()
    said = "A withdrawn roll is not shared: it no longer counts."
    expect(tools.get_by_text(said)).to_be_visible()


def test_undo_is_offered_for_the_newest_roll_only_until_the_next(app):
    form = open_form(app, "pool")
    fill(form, "My dice", "1 2 3 4 5")
    roll(app)
    undo = app.get_by_role("button", name=UNDO)
    expect(undo).to_be_visible()
    fill(form, "My dice", "10 10 10 10 10")
    roll(app)
    expect(undo).to_be_visible()
    app.locator(LOG_ENTRIES).nth(1).click()  # the first roll, shown again
    expect(app.locator("#result .source")).to_be_visible()
    expect(undo).to_be_hidden()
    roll(app)
    undo.click()
    expect(app.locator("#result .headline")).to_contain_text("Withdrawn")
    expect(app.locator("#log-list > li.withdrawn")).to_have_count(1)
    assert [("withdrawn" in e) for e in stored_log(app)["entries"]] == [False, False, True]
