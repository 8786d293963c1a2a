"""Sharing as people share, on a phone (issue 17, point 9): the device's share sheet with the
replay link where there is one, the link copied where there is none, "Copy as text" for chat
apps, and a light haptic tick on a roll, never under reduced motion."""

from __future__ import annotations

import re

import skillcheck
from app import links
from app.systems import outcome_name
from playwright.sync_api import expect
from presses import press_roll
from ready import wait_ready
from test_page import fill
from test_table import lockpicking_roll, roll

# Headless Chromium has no navigator.share: the share path is tested through this stand-in,
# which records what the page gave it (a string in __refuse makes it refuse, as a person
# closing the sheet does, or as a failure would).
FAKE_DEVICE = """
window.__shared = []; window.__ticks = []; window.__refuse = "";
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value(data) {
    window.__shared.push({title: data.title, text: data.text, url: data.url});
    return window.__refuse ? Promise.reject(new DOMException("no", window.__refuse))
                           : Promise.resolve();
}});
Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true, value(pattern) {
    window.__ticks.push(pattern);
    return true;
}});
"""


def test_without_a_share_sheet_the_link_is_copied_and_copy_as_text_gives_a_chat_line(app):
    assert app.evaluate("'share' in navigator") is False  # the fallback is what runs here
    app.context.grant_permissions(["clipboard-read", "clipboard-write"])
    lockpicking_roll(app, "Mara", luck=3, dr=2, dice="6 3 7 1 9")
    result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 2,
                                 "dice": [6, 3, 7, 1, 9]})

    app.get_by_role("button", name="Share").click()
    expect(app.locator("#share-status")).to_have_text("Link copied: paste it to show this roll.")
    link = app.get_by_label("Replay link").input_value()
    assert app.evaluate("navigator.clipboard.readText()") == link

    app.get_by_role("button", name="Copy as text").click()
    expect(app.locator("#share-status")).to_have_text("Text copied: paste it to show this roll.")
    line = app.evaluate("navigator.clipboard.readText()")
    outcome = outcome_name("pool", result["outcome"])  # as the headline says it
    assert outcome == "Critical Success"
    assert line == (f"Mara · Lockpicking (d10 pool): {outcome} (IoS {result['ios']}) — "
                    f"6 3 7 1 9 — {link}")
    expect(app.get_by_label("Text for a chat")).to_have_value(line)
    assert links.open_link(link[link.index("#"):])["result"]["dice"] == [6, 3, 7, 1, 9]

    app.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    app.get_by_role("button", name="Copy as text").click()  # no clipboard: the box is enough
    expect(app.locator("#share-status")).to_have_text(
        "Copy the text from the box to show this roll.")
    expect(app.get_by_label("Text for a chat")).to_have_value(line)


def test_the_share_sheet_gets_the_link_and_a_roll_ticks_unless_motion_is_reduced(
        fresh_context, app_url):
    fresh_context.add_init_script(FAKE_DEVICE)
    page = fresh_context.new_page()
    page.goto(app_url + "#system=passages")
    wait_ready(page)
    fill(page.locator("#form-passages"), "My dice", "40")
    roll(page)
    assert page.evaluate("window.__ticks") == [12]

    page.get_by_role("button", name="Share").click()
    page.wait_for_function("window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["title"] == "Skill Check roll"
    assert shared["text"] == "Passages: Skills Success (roll 40 vs 50) — 40"  # as headlined
    assert re.fullmatch(re.escape(app_url) + r"#r=2\.[A-Za-z0-9_-]+", shared["url"])
    replayed = links.open_link(shared["url"][shared["url"].index("#"):])["result"]
    assert replayed["dice"] == [40]
    expect(page.locator("#share-box")).to_be_hidden()  # the sheet did the sharing

    page.evaluate("window.__refuse = 'AbortError'")  # the player closed the sheet
    page.get_by_role("button", name="Share").click()
    page.wait_for_function("window.__shared.length === 2")
    page.wait_for_timeout(200)
    expect(page.locator("#share-box")).to_be_hidden()
    page.evaluate("window.__refuse = 'NotAllowedError'")  # the sheet failed: the link instead
    page.get_by_role("button", name="Share").click()
    expect(page.get_by_label("Replay link")).to_have_value(shared["url"])

    page.emulate_media(reduced_motion="reduce")
    roll(page)
    assert page.evaluate("window.__ticks") == [12]  # no tick under reduced motion
    page.emulate_media(reduced_motion="no-preference")
    press_roll(page, page.get_by_role("button", name=re.compile("^Re-roll")))
    page.wait_for_function("window.__ticks.length === 2")
