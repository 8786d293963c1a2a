"""Luck chosen after the roll, on a phone: the player rolls, sees the offers, taps one; the same
dice are judged again, the log entry is amended (not duplicated), the character pays, undo gives
it back. Seed 002: "The same applies if the player wants to spend any Luck Points on the roll"."""

from __future__ import annotations

import re
from fractions import Fraction

import skillcheck
from app import result_html
from playwright.sync_api import expect
from test_page import fill, open_form
from test_table import LOG_ENTRIES, bar_tool, lockpicking_roll, roll, stock, stored_log

DICE = [1, 2, 9, 9, 3]  # Lockpicking 7 against DR 3: three natural successes, IoS 1 (basic)


def test_luck_is_offered_after_the_roll_and_spent_on_the_same_dice(app):
    lockpicking_roll(app, "Vex", luck=5, dr=3, dice=" ".join(map(str, DICE)))
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 5, "dice": DICE}
    shown = skillcheck.resolve(request)
    assert (shown["outcome"], shown["luck_used"]) == ("basic", 0)
    assert shown["luck_offers"] == [{"luck_spend": 2, "outcome": "success"},
                                    {"luck_spend": 4, "outcome": "critical"}]
    result = app.locator("#result")
    expect(result.locator(".headline")).to_contain_text("Basic Success")
    offers = result.get_by_role("group", name="Spend Luck on these dice?")
    # Each offer names the outcome as the headline will ("Basic Success" now).
    expect(offers.get_by_role("button")).to_have_text(["Spend 2 Luck → Success (IoS 2)",
                                                       "Spend 4 Luck → Critical Success"])
    expect(stock(app)).to_have_text("Luck 5 · XP 0")
    before = stored_log(app)["entries"]
    rolled = max((e for e in before if e["kind"] == "check"), key=lambda e: e["id"])
    assert rolled["outcome"] == "basic"

    offers.get_by_role("button", name="Spend 4 Luck → Critical Success", exact=True).click()
    chosen = skillcheck.resolve({**request, "luck_spend": 4})
    expect(result.locator(".headline")).to_contain_text("Critical Success")
    expect(result.locator('[data-fact="luck_used"] dd')).to_have_text("4")
    expect(result.get_by_role("group", name="Spend Luck on these dice?")).to_have_count(0)
    expect(stock(app)).to_have_text("Luck 1 · XP 0")
    app.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log')).entries"
                          ".some(e => e.kind === 'spend')")
    log = stored_log(app)["entries"]
    assert len(log) == len(before) + 1  # the check amended in place, plus the spend
    amended = next(e for e in log if e["id"] == rolled["id"])
    assert amended["outcome"] == "critical" and amended["request"] == chosen["request"]
    assert amended["time"] == rolled["time"]
    spend = next(e for e in log if e["kind"] == "spend" and e.get("check") == rolled["id"])
    assert (spend["before"], spend["after"]) == (5, 1)
    expect(app.locator(LOG_ENTRIES).first).to_contain_text("Critical", ignore_case=True)

    bar_tool(app, "Undo last spend (4 Luck)").click()
    expect(stock(app)).to_have_text("Luck 5 · XP 0")
    expect(bar_tool(app, re.compile("^Undo last spend"))).to_be_hidden()
    # The Luck given back, the roll no longer keeps what it bought: the dice as first judged,
    # in the result, its offers open again, and in the log.
    expect(app.locator("#who-status")).to_have_text(
        "Undone: Vex got 4 Luck back (1 → 5). The roll it paid for is judged without it: "
        "Basic Success.")
    expect(result.locator(".headline")).to_contain_text("Basic Success")
    expect(result.locator('[data-fact="luck_used"] dd')).to_have_text("0")
    expect(offers.get_by_role("button")).to_have_count(2)
    expect(app.locator(LOG_ENTRIES).first).to_contain_text("Basic", ignore_case=True)
    undone = next(e for e in stored_log(app)["entries"] if e["id"] == rolled["id"])
    assert (undone["outcome"], undone["request"]) == ("basic", shown["request"])


def test_a_roll_shown_again_from_the_log_offers_no_luck(app):
    form = open_form(app, "pool")
    fill(form, "Trait", 5)
    fill(form, "Skill", 7)
    fill(form, "DR", 3)
    fill(form, "Luck", 5)
    fill(form, "My dice", " ".join(map(str, DICE)))
    roll(app)
    expect(app.locator("#result .luck-offer")).to_have_count(2)
    app.locator(LOG_ENTRIES).first.click()
    expect(app.locator("#result .source")).to_be_visible()
    expect(app.locator("#result .luck-offer")).to_have_count(0)


def test_points_are_said_plainly_on_a_phone(app):
    """Issue 35.8: the bar's chance says what only Luck reaches; an offer after a first spend
    names the extra cost and the total; Luck alone is never said as "0 of 0 Bonus"."""
    form = open_form(app, "pool")
    fill(form, "Trait", 5)
    fill(form, "Skill", 7)
    fill(form, "DR", 3)
    fill(form, "Luck", 5)
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 3}
    bare = skillcheck.odds({**request, "luck": 0})["success"]
    with_luck = skillcheck.odds({**request, "luck": 5})["success"]
    expect(app.locator("#roll-chance")).to_have_text(
        f"{percent(bare)} to succeed · {percent(with_luck)} with Luck 5")
    fill(form, "My dice", " ".join(map(str, DICE)))
    roll(app)
    result = app.locator("#result")
    offers = result.get_by_role("group", name="Spend Luck on these dice?")
    offers.get_by_role("button", name="Spend 2 Luck → Success (IoS 2)", exact=True).click()
    expect(result.locator(".headline")).to_contain_text("Success (IoS 2)")
    expect(offers.get_by_role("button")).to_have_text(
        ["2 more Luck → Critical Success (4 in all)"])
    expect(result.locator(".explain")).to_contain_text("Spent 2 Luck to lower")
    expect(result.locator(".explain")).not_to_contain_text("Bonus")


def percent(fraction: str) -> str:
    return result_html.percent(Fraction(fraction))
