"""What a screen reader hears of a roll (issue 35, point 10), on the phone: one sentence of at most
25 words in a live region of its own, for a roll in every system and mode, another card kept, a
Luck spend and a log entry tapped — the same words again read out again — while the result panel
is read only when the player goes to it, and a refused roll says nothing new there."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect
from presses import press_roll
from test_page import fill, labelled, open_form
from test_table import LOG_ENTRIES, lockpicking_roll
from test_trust import FORMS, open_system, roll

ONE_SENTENCE = re.compile(r"^[^.!?]+\.$")
# Every text the region held, in order: a roll read as the last was is still a change.
RECORD = """() => { window.__spoken = [];
  const region = document.getElementById("spoken");
  new MutationObserver(() => window.__spoken.push(region.textContent))
    .observe(region, {childList: true, characterData: true, subtree: true}); }"""


def spoken(page: Page) -> Locator:
    """The live region a screen reader reads a roll from: a polite status of its own."""
    region = page.get_by_role("status").and_(page.locator("[aria-live=polite]")).and_(
        page.locator("[aria-atomic=true]"))
    expect(region).to_have_count(1)
    return region


def sentence(page: Page) -> str:
    """The sentence read out once it is set: one, of at most 25 words."""
    region = spoken(page)
    expect(region).to_have_text(ONE_SENTENCE)
    text = region.text_content()
    assert len(text.split()) <= 25, text
    return text


def not_live(page: Page) -> None:
    """The result panel is no live region, and holds none: it is read when the player goes."""
    panel = page.get_by_role("region", name="Result")
    assert panel.locator("#result").evaluate(
        "el => [el.getAttribute('aria-live'), el.getAttribute('role'),"
        " el.querySelectorAll('[aria-live], [role=status], [role=alert]').length]") == [
        None, None, 0]


@pytest.mark.parametrize(("system", "mode"), FORMS)
def test_a_roll_in_each_system_is_read_out_in_one_sentence(booted, system, mode):
    open_system(booted, system, mode)
    roll(booted)
    said = sentence(booted)
    outcome = booted.locator("#result .headline strong").inner_text()
    assert f": {outcome}" in said  # the outcome as the headline names it, after who and what
    draw = r"kept (the lowest, )?\w+ of \w+|took a 7" if system == "flip" else r"\b(dice|die) \d+"
    assert re.search(draw, said), said
    not_live(booted)


def test_a_card_kept_a_luck_spend_and_a_log_tap_are_each_read_out(app):
    app.evaluate(RECORD)
    form = open_form(app, "flip", "unopposed")
    fill(form, "My cards", "JC 10S")
    roll(app)
    assert sentence(app) == "Card flip: Success, total 14 vs DTN 12 — kept Jack of Clubs."
    app.get_by_role("button", name="Keep the Ten of Spades instead").click()
    expect(spoken(app)).to_have_text("Card flip: Success, total 13 vs DTN 12 — kept Ten of "
                                     "Spades.")

    lockpicking_roll(app, "Vex", luck=5, dr=3, dice="1 2 9 9 3")
    expect(spoken(app)).to_have_text("Vex, Lockpicking: Basic Success, IoS 1 — dice 1 2 9 9 3.")
    app.get_by_role("button", name="Spend 4 Luck → Critical Success", exact=True).click()
    amended = "Vex, Lockpicking: Critical Success, IoS 3, 4 Luck spent — dice 1 2 9 9 3."
    expect(spoken(app)).to_have_text(amended)

    again = f"Shown again: {amended}"
    for times in (1, 2):  # the same entry twice: the same words, read out each time
        app.locator(LOG_ENTRIES).first.click()
        app.wait_for_function("([said, n]) => window.__spoken.filter(t => t === said)"
                              ".length === n", arg=[again, times])
    heard = app.evaluate("window.__spoken")
    assert heard[-4:] == ["", again, "", again]
    assert sentence(app) == again
    not_live(app)


def test_a_refused_roll_is_said_beside_its_box_not_read_out_as_a_roll(app):
    form = open_form(app, "pool")
    fill(form, "My dice", "1 2 3 4 5")
    roll(app)
    said = sentence(app)
    app.evaluate(RECORD)
    fill(form, "My dice", "1 2 3 4 11")
    press_roll(app, rolls=False)
    expect(labelled(form, "My dice")).to_have_attribute("aria-invalid", "true")
    assert app.evaluate("window.__spoken") == []
    expect(spoken(app)).to_have_text(said)
