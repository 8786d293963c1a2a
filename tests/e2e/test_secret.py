"""Secret difficulties on a phone: the odds become the chance of each total, the player announces
the total or successes, the GM types the difficulty and the same draw is judged (never rolled
again), and the log keeps the check, its reveal and whatever Luck the reveal spent."""

from __future__ import annotations

import re
from fractions import Fraction

import skillcheck
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_page import error_beside, fill, labelled, open_form, result_images
from test_table import (
    LOG_ENTRIES,
    bar_tool,
    log_size,
    new_character,
    pick,
    pool_sheet,
    roll,
    stock,
    stored_log,
)

FLIP = {"system": "flip", "rank": 2, "aspect": 3}
POOL = {"system": "pool", "trait": 5, "skill": 7, "bonus": 0}


def chart(page: Page, odds: dict) -> None:
    """Wait until the odds panel's chart has one bar per possible total, at the engine's odds."""
    wanted = {int(total): Fraction(p) for total, p in odds["totals"].items()}
    bars = page.locator("#odds .chart li")
    expect(bars).to_have_count(len(wanted))
    shown = {int(bars.nth(i).get_attribute("data-total")):
             Fraction(bars.nth(i).get_attribute("data-fraction")) for i in range(bars.count())}
    assert shown == wanted
    expect(page.locator("#odds .odds-row")).to_have_count(0)


def reveal(page: Page, label: str, typed: str) -> None:
    page.get_by_label(label).fill(typed)
    page.get_by_role("button", name="GM: reveal").click()


def test_a_secret_flip_is_announced_then_the_gm_reveals_it_on_the_same_cards(app):
    form = open_form(app, "flip", "unopposed")
    fill(form, "Secret difficulty", True)
    expect(labelled(form, "Difficulty")).to_be_disabled()
    chart(app, skillcheck.odds({**FLIP, "secret": True}))
    fill(form, "My cards", "JC 10S")
    roll(app)
    secret = skillcheck.resolve({**FLIP, "secret": True, "cards": ["JC", "10S"]})
    expect(app.locator("#result .headline")).to_contain_text("Secret")
    expect(app.locator("#result .announce")).to_contain_text(f"Total {secret['total']}")
    cards = result_images(app)

    reveal(app, "GM: DTN or difficulty", "15")
    revealed = skillcheck.resolve({**FLIP, "dtn": 15, "cards": ["JC", "10S"]})
    expect(app.locator("#result .headline")).to_contain_text(revealed["outcome"],
                                                             ignore_case=True)
    expect(app.locator("#result .note")).to_have_text(
        "Revealed by the GM: DTN 15, judged on the same draw.")
    assert result_images(app) == cards
    expect(app.get_by_role("button", name="GM: reveal")).to_be_hidden()
    app.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log'))"
                          ".entries.some(e => e.kind === 'reveal')")
    entries = stored_log(app)["entries"]
    assert [e["kind"] for e in entries] == ["check", "reveal"]
    assert entries[1]["reveals"] == entries[0]["id"]
    assert entries[1]["outcome"] == revealed["outcome"]
    log = app.locator(LOG_ENTRIES)
    expect(log.first).to_contain_text(f"Revealed: {revealed['outcome']}", ignore_case=True)
    expect(log.nth(1)).to_contain_text("Secret")

    app.reload()  # later, from the log: the same secret, judged against another difficulty
    wait_ready(app)
    log.nth(1).click()
    expect(app.locator("#result .announce")).to_contain_text(f"Total {secret['total']}")
    reveal(app, "GM: DTN or difficulty", "Very Easy")
    easy = skillcheck.resolve({**FLIP, "difficulty": "very easy", "cards": ["JC", "10S"]})
    expect(app.locator("#result .headline")).to_contain_text(easy["outcome"], ignore_case=True)
    expect(app.locator("#result .note")).to_have_text(  # judged now: not "shown again"
        "Revealed by the GM: difficulty very easy, judged on the same draw.")
    expect(app.locator("#result")).not_to_contain_text("Nothing was rolled again")
    app.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log'))"
                          ".entries.length === 3")
    last = stored_log(app)["entries"][-1]
    assert last["kind"] == "reveal" and last["reveals"] == entries[0]["id"]
    assert last["request"]["difficulty"] == "very easy"


def test_the_gms_reveal_is_final_and_its_verdict_is_in_view_on_a_phone(app):
    """After the reveal no other card can be kept (that would re-judge against the revealed DTN
    and drop the GM's note), and the verdict's headline is on screen, not above it."""
    form = open_form(app, "flip", "unopposed")
    fill(form, "Secret difficulty", True)
    fill(form, "My cards", "JC 10S")
    roll(app)
    expect(app.get_by_role("button", name="Keep the Ten of Spades instead")).to_be_visible()
    reveal(app, "GM: DTN or difficulty", "15")
    expect(app.locator("#result .note")).to_have_text(
        "Revealed by the GM: DTN 15, judged on the same draw.")
    expect(app.locator("#result .keep-this")).to_have_count(0)
    expect(app.locator("#result")).not_to_contain_text("Tap another card")
    expect(app.locator("#result .headline")).to_be_in_viewport(ratio=0.9)  # sub-pixel scroll
    app.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log'))"
                          ".entries.length === 2")
    assert [e["kind"] for e in stored_log(app)["entries"]] == ["check", "reveal"]


def test_a_difficulty_the_rules_refuse_is_named_beside_the_gms_box(app):
    form = open_form(app, "flip", "aspect")
    fill(form, "Secret difficulty", True)
    roll(app)
    box = app.get_by_label("GM: DTN or difficulty")
    before = log_size(app)
    reveal(app, "GM: DTN or difficulty", "tricky")
    assert re.match(r"^Must be one of .*very hard", error_beside(app, box))
    reveal(app, "GM: DTN or difficulty", "")
    assert error_beside(app, box).startswith("Is needed: a number like 15")
    expect(app.locator("#result .headline")).to_contain_text("Secret")
    app.wait_for_timeout(300)
    assert log_size(app) == before
    reveal(app, "GM: DTN or difficulty", "very hard")
    expect(app.locator("#result .note")).to_contain_text("difficulty very hard")
    expect(box).not_to_have_attribute("aria-invalid", "true")


def test_a_secret_dr_spends_luck_only_when_the_gm_reveals_it(app):
    form = open_form(app, "pool")
    new_character(app, "Vex", luck=2, sheet=pool_sheet)
    pick(app, "Lockpicking")
    fill(form, "Secret DR", True)
    expect(labelled(form, "DR")).to_be_disabled()
    chart(app, skillcheck.odds({**POOL, "luck": 2, "secret": True}))
    fill(form, "My dice", "8 8 9 1 2")
    roll(app)
    secret = skillcheck.resolve({**POOL, "luck": 2, "secret": True, "dice": [8, 8, 9, 1, 2]})
    assert secret["luck_used"] == 0
    expect(app.locator("#result .announce")).to_contain_text(
        f"Successes {secret['successes']}")
    expect(stock(app)).to_have_text("Luck 2 · XP 0")  # nothing spent while the DR is secret

    reveal(app, "GM: DR", "3")
    revealed = skillcheck.resolve({**POOL, "luck": 2, "dr": 3, "dice": [8, 8, 9, 1, 2]})
    expect(app.locator("#result .headline")).to_contain_text(revealed["outcome"],
                                                             ignore_case=True)
    expect(stock(app)).to_have_text(f"Luck {2 - revealed['luck_used']} · XP 0")
    app.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log'))"
                          ".entries.some(e => e.kind === 'spend')")
    entries = stored_log(app)["entries"]
    assert [e["kind"] for e in entries] == ["check", "reveal", "spend"]
    assert entries[2]["check"] == entries[1]["id"] and entries[2]["amount"] == 1

    app.reload()
    wait_ready(app)
    expect(stock(app)).to_have_text("Luck 1 · XP 0")
    expect(app.locator("#log-list > li")).to_have_count(3)


def test_luck_is_offered_once_the_gm_reveals_a_secret_dr_and_the_reveal_stays_revealed(app):
    """The rules: "the DR is secret: Luck is chosen once the GM reveals it". After the reveal
    the dice are offered Luck like any roll's; taken, the reveal entry is amended (not a new
    check), the GM's note stays, and Re-roll still repeats the secret check."""
    form = open_form(app, "pool")
    new_character(app, "Vex", luck=5, sheet=pool_sheet)
    pick(app, "Lockpicking")
    fill(form, "Luck", 5)
    fill(form, "Secret DR", True)
    fill(form, "My dice", "1 2 9 9 3")
    roll(app)
    result = app.locator("#result")
    offers = result.get_by_role("group", name="Spend Luck on these dice?")
    expect(offers).to_have_count(0)  # the DR is secret: nothing to choose against yet

    reveal(app, "GM: DR", "3")
    request = {**POOL, "luck": 5, "dr": 3, "secret": True, "dice": [1, 2, 9, 9, 3]}
    assert skillcheck.resolve(request)["luck_offers"] == [
        {"luck_spend": 2, "outcome": "success"}, {"luck_spend": 4, "outcome": "critical"}]
    expect(result.locator(".headline")).to_contain_text("Basic Success")
    note = "Revealed by the GM: DR 3, judged on the same draw."
    expect(result.locator(".note")).to_have_text(note)
    expect(result).not_to_contain_text("Nothing was rolled again")
    expect(offers.get_by_role("button")).to_have_text(["Spend 2 Luck → Success (IoS 2)",
                                                       "Spend 4 Luck → Critical Success"])
    offers.get_by_role("button", name="Spend 2 Luck → Success (IoS 2)").click()
    expect(result.locator(".headline")).to_contain_text("Success (IoS 2)")
    expect(result.locator(".note").first).to_have_text(note)
    expect(stock(app)).to_have_text("Luck 3 · XP 0")
    expect(app.get_by_role("button", name="Undo this roll")).to_be_hidden()
    expect(app.get_by_role("button", name="GM: reveal")).to_be_hidden()
    app.wait_for_function("() => JSON.parse(localStorage.getItem('skillcheck.log'))"
                          ".entries.some(e => e.kind === 'spend')")
    entries = stored_log(app)["entries"]
    assert [e["kind"] for e in entries] == ["check", "reveal", "spend"]
    assert entries[1]["outcome"] == "success" and entries[1]["request"]["luck_spend"] == 2
    assert entries[2]["check"] == entries[1]["id"] and entries[2]["amount"] == 2
    expect(app.locator(LOG_ENTRIES).first).to_contain_text("Revealed: Success")

    bar_tool(app, "Undo last spend (2 Luck)").click()  # given back: the reveal as first judged
    expect(stock(app)).to_have_text("Luck 5 · XP 0")
    expect(result.locator(".headline")).to_contain_text("Basic Success")
    expect(result.locator(".note").first).to_have_text(note)
    expect(offers.get_by_role("button")).to_have_count(2)

    app.get_by_role("button", name=re.compile("^Re-roll")).click()  # the secret check again
    expect(result.locator(".headline")).to_contain_text("Secret")
