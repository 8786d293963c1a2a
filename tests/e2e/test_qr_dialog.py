"""A roll shown as a QR code and read by another phone (issue 38 point 1, issue 37 point 5): on a
375×812 phone "Show QR" draws the replay link with the vendored library, loaded only then; the
test decodes the picture on screen with zxing-cpp (never the link from the page's text) and
opens what it read on a second phone, offline, which shows the same roll."""

from __future__ import annotations

import io
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
