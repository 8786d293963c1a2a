"""A roll shown as a QR code and read by another phone (issue 38 point 1, issue 37 point 5): on a
375×812 phone "Show QR" draws the replay link with the vendored library, loaded only then; the
test decodes the picture on screen with zxing-cpp (never the link from the page's text) and
opens what it read on a second phone, offline, which shows the same roll."""

from __future__ import annotations

import io
import json
import re

import zxingcpp
from conftest import PHONE
from PIL import Image
from playwright.sync_api import Locator, Page, expect
from ready import wait_ready
from test_offline import SW_TIMEOUT_MS, wait_controlled
from test_table import boot_at, lockpicking_roll, log_panel

LABEL = "QR code of Mara’s roll"
LIBRARY_ASKED = ("() => performance.getEntriesByType('resource')"
                 ".some(entry => entry.name.endsWith('/qrcode.mjs'))")


def read_qr(code: Locator) -> zxingcpp.Result:
    """The one QR code in a screenshot of `code`, as a camera would read it."""
    expect(code).to_be_visible()
    picture = Image.open(io.BytesIO(code.screenshot()))
    found = zxingcpp.read_barcodes(picture, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1, f"{len(found)} QR codes read"
    return found[0]


def dice(page: Page) -> list[str]:
    """The result's dice, by their text alternatives."""
    return [die.get_attribute("aria-label") for die in page.locator("#result .die").all()]


def shown_qr(page: Page) -> tuple[str, Locator]:
    """What the open QR dialog's code holds, read from its picture, and the dialog; closed."""
    dialog = page.get_by_role("dialog", name=LABEL)
    code = dialog.get_by_role("img", name=LABEL)
    read = read_qr(code)
    assert read.ec_level == "M"
    assert int(code.get_attribute("data-version")) <= 10
    box = code.bounding_box()
    assert box["width"] >= 300, box  # large: nearly the phone's width
    return read.text, dialog


def test_show_qr_is_read_by_another_phone_offline_as_the_same_roll(app, new_context, app_url):
    assert app.evaluate(LIBRARY_ASKED) is False  # no boot loads the QR library
    lockpicking_roll(app, "Mara", luck=3, dr=2, dice="6 3 7 1 9")
    assert app.evaluate(LIBRARY_ASKED) is False
    rolled = dice(app)
    assert [re.search(r"showing (\d+)", die)[1] for die in rolled] == ["6", "3", "7", "1", "9"]

    app.locator("#result-tools").get_by_role("button", name="Show QR").click()
    link, dialog = shown_qr(app)
    assert app.evaluate(LIBRARY_ASKED) is True
    expect(dialog.locator("#qr-caption")).to_have_text(
        "Mara · Lockpicking (d10 pool): Critical Success (IoS 3) — 6 3 7 1 9")
    assert link.startswith(app_url) and re.search(r"#r=2\.[A-Za-z0-9_-]+$", link), link
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    log_panel(app).locator("[data-entry]").first.click()  # the roll again, from the log
    app.locator("#result-tools").get_by_role("button", name="Show QR").click()
    assert shown_qr(app)[0] == link  # the log entry's code is the same roll
    app.keyboard.press("Escape")
    expect(app.get_by_role("dialog", name=LABEL)).to_be_hidden()

    context = new_context(**PHONE)
    friend = boot_at(context.new_page(), app_url)
    wait_controlled(friend)  # the page is cached: the other phone needs no network from here
    context.set_offline(True)
    replay = context.new_page()
    replay.goto(link)
    wait_ready(replay, SW_TIMEOUT_MS)
    banner = replay.locator("#result .source.replay")
    expect(banner).to_contain_text("Replay of a roll from")
    result = replay.locator("#result")
    expect(result).to_contain_text("Critical Success")
    assert dice(replay) == rolled


def test_a_roll_read_from_another_phone_joins_its_table_log_once(app, new_context, app_url):
    """Issue 38.2: the friend's phone opens the link it read from the QR (offline), adds the
    roll to its table log as Mara's, from another phone; two tabs adding it make one entry, and
    the log's Whose filter tells the table's rolls from the phone's own."""
    lockpicking_roll(app, "Mara", luck=3, dr=2, dice="6 3 7 1 9")
    app.locator("#result-tools").get_by_role("button", name="Show QR").click()
    link, dialog = shown_qr(app)
    dialog.get_by_role("button", name="Close").click()

    context = new_context(**PHONE)
    friend = boot_at(context.new_page(), app_url)
    wait_controlled(friend)
    context.set_offline(True)
    tabs = []
    for _ in range(2):  # both show the offer before either takes it
        tab = context.new_page()
        tab.goto(link)
        wait_ready(tab, SW_TIMEOUT_MS)
        expect(tab.locator("#result .result-title")).to_have_text(
            "Mara · Lockpicking (d10 pool)")
        tabs.append(tab)
    for tab, said in zip(tabs, ("Mara’s roll is in the table log.",
                                "Mara’s roll is in the table log already."), strict=True):
        tab.get_by_role("button", name="Add to the table log").click()
        expect(tab.locator("#add-status")).to_have_text(said)
        expect(tab.get_by_role("button", name="Add to the table log")).to_be_hidden()
    stored = json.loads(friend.evaluate("localStorage.getItem('skillcheck.log')"))["entries"]
    assert [(e["name"], e.get("shared")) for e in stored] == [("Mara", True)]

    friend.reload()
    wait_ready(friend, SW_TIMEOUT_MS)
    entry = log_panel(friend).locator("[data-entry]")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("From another phone")
    expect(entry).to_contain_text("Mara · Lockpicking (d10 pool)")
    whose = friend.get_by_label("Whose")
    whose.select_option(label="Mine")
    expect(entry).to_have_count(0)
    whose.select_option(label="The table")
    expect(entry).to_have_count(1)
    tabs[0].goto(link)  # opened again: already there, nothing to add
    wait_ready(tabs[0], SW_TIMEOUT_MS)
    expect(tabs[0].get_by_role("button", name="Add to the table log")).to_be_hidden()
