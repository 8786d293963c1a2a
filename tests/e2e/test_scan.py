"""Scan a code (issue 38 point 2): on a 375×812 phone, "Scan a code" in the header reads a QR code
from the camera (a canvas stream standing in for it, tests/e2e/camera.py) and opens a link to
this page, so a roll shown as a QR on one phone is opened on another, offline, and offered for
its table log. Chromium has no BarcodeDetector here, so these scans go through the vendored
jsQR, fetched only when the scanner first needs it; a browser's BarcodeDetector is used where it
reads QR codes (stubbed). Any other code is named and scanning goes on; a camera refused or
missing says what to do instead; closing the dialog stops the camera, always."""

from __future__ import annotations

import re

import skillcheck
from app import gm_links, links, scanned
from app.log_codes import code_links, sharable
from camera import STUB, code_picture, png_picture
from conftest import PHONE
from evenings import evening
from playwright.sync_api import Locator, Page, expect
from ready import wait_ready
from test_offline import wait_controlled
from test_page import labelled
from test_qr_dialog import LABEL
from test_table import boot_at, lockpicking_roll, log_panel

READER_ASKED = ("() => performance.getEntriesByType('resource')"
                ".some(entry => entry.name.endsWith('/jsqr/jsQR.js'))")
LIVE = "() => window.__camera.live()"
ROLL = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 3,
                           "dice": [6, 3, 7, 1, 9]})


def scan_dialog(page: Page) -> Locator:
    return page.get_by_role("dialog", name="Scan a code")


def start_scan(page: Page) -> Locator:
    """Press "Scan a code" with the camera showing nothing yet; the dialog, open."""
    page.evaluate("() => window.__camera.show(null)")
    page.get_by_role("banner").get_by_role("button", name="Scan a code").click()
    dialog = scan_dialog(page)
    expect(dialog).to_be_visible()
    return dialog


def point(page: Page, picture: dict) -> None:
    """The camera, once on, pointed at `picture` (camera.py's)."""
    page.wait_for_function(LIVE)
    page.evaluate("shown => window.__camera.show(shown)", picture)


def scan(page: Page, picture: dict) -> Locator:
    dialog = start_scan(page)
    point(page, picture)
    return dialog


def camera_on(page: Page) -> Page:
    page.evaluate(STUB)
    return page


def roll_link(app_url: str, name: str = "Mara") -> str:
    return links.share_url(app_url, ROLL, "2026-11-29T18:00:00Z", who={"name": name})


def test_a_roll_shown_on_one_phone_is_scanned_in_page_on_another_offline(app, new_context,
                                                                         app_url):
    lockpicking_roll(app, "Mara", luck=3, dr=2, dice="6 3 7 1 9")
    app.locator("#result-tools").get_by_role("button", name="Show QR").click()
    code = app.get_by_role("dialog", name=LABEL).get_by_role("img", name=LABEL)
    expect(code).to_be_visible()
    picture = png_picture(code.screenshot())  # the code as page A draws it, not the link in it

    context = new_context(**PHONE)
    context.add_init_script(f"({STUB})()")
    friend = boot_at(context.new_page(), app_url)
    wait_controlled(friend)  # the page is cached: from here the other phone needs no network
    context.set_offline(True)
    assert friend.evaluate(READER_ASKED) is False  # no boot loads the reader
    dialog = start_scan(friend)
    expect(dialog.get_by_role("status")).to_have_text(scanned.LOOKING)
    expect(dialog.get_by_label("The camera’s picture")).to_be_visible()
    point(friend, {"width": 1, "height": 1, "gray": "AA=="})  # a dark room
    assert friend.evaluate("window.__camera.asked") == [
        {"video": {"facingMode": {"ideal": "environment"}}, "audio": False}]  # the rear camera

    point(friend, picture)  # at A's code
    expect(dialog).to_be_hidden()
    assert friend.evaluate(LIVE) == 0  # the camera stopped with the dialog
    assert friend.evaluate(READER_ASKED) is True  # jsQR, from the worker's cache
    assert re.search(r"#r=2\.", friend.url), friend.url
    expect(friend.locator("#result .result-title")).to_have_text("Mara · Lockpicking (d10 pool)")
    expect(friend.locator("#result .source.replay")).to_contain_text("Replay of a roll from")
    friend.get_by_role("button", name="Add to the table log").click()
    expect(friend.locator("#add-status")).to_have_text("Mara’s roll is in the table log.")


def test_a_code_that_is_no_skill_check_link_is_named_and_scanning_goes_on(app, app_url):
    before = app.url
    dialog = scan(camera_on(app), code_picture("https://example.com/menu"))
    status = dialog.get_by_role("status")
    expect(status).to_have_text(f"{scanned.NOT_OURS}: it is a link to example.com.")
    point(app, code_picture("<b>Free drinks</b>"))
    expect(status).to_have_text(f"{scanned.NOT_OURS}: it holds the text “<b>Free drinks</b>”.")
    expect(dialog.locator("b")).to_have_count(0)  # the code's text, never markup
    assert app.url == before  # nothing was opened
    point(app, code_picture(roll_link(app_url, "Ines")))
    expect(dialog).to_be_hidden()
    expect(app.locator("#result .result-title")).to_have_text("Ines (d10 pool)")


def test_the_link_shown_already_is_opened_again(app, app_url):
    """Setting location.hash to what it holds is no hashchange: the page is told all the same."""
    link = roll_link(app_url)
    app.goto(link)
    wait_ready(app)
    app.evaluate("() => { window.__opened = 0; addEventListener('hashchange', () => "
                 "{ window.__opened += 1; }); }")
    scan(camera_on(app), code_picture(link))
    expect(scan_dialog(app)).to_be_hidden()
    app.wait_for_function("() => window.__opened === 1")
    assert app.url == link
    expect(app.locator("#result .source.replay")).to_contain_text("Replay of a roll from")


def test_a_browsers_barcode_detector_is_used_where_it_reads_qr_codes(app, app_url):
    camera_on(app).evaluate("""link => { window.__detected = 0;
      window.BarcodeDetector = class {
        static async getSupportedFormats() { return ["qr_code", "ean_13"]; }
        constructor(options) { window.__formats = options.formats; }
        async detect(video) { window.__detected += 1;
          return window.__camera.picture && video.videoWidth
            ? [{ rawValue: link, format: "qr_code" }] : []; }
      }; }""", roll_link(app_url))
    scan(app, code_picture("no matter: the stub detects the link"))
    expect(scan_dialog(app)).to_be_hidden()
    expect(app.locator("#result .result-title")).to_have_text("Mara (d10 pool)")
    assert app.evaluate("[window.__formats, window.__detected > 0]") == [["qr_code"], True]
    assert app.evaluate(READER_ASKED) is False  # jsQR never fetched


def test_a_detector_without_qr_codes_falls_back_on_jsqr(app, app_url):
    camera_on(app).evaluate("""() => { window.BarcodeDetector = class {
        static async getSupportedFormats() { return ["ean_13"]; } }; }""")
    scan(app, code_picture(roll_link(app_url)))
    expect(scan_dialog(app)).to_be_hidden()
    assert app.evaluate(READER_ASKED) is True


def test_a_camera_refused_says_so_and_what_to_do_instead(app):
    camera_on(app).evaluate("() => { window.__camera.refuse = 'NotAllowedError'; }")
    dialog = start_scan(app)
    expect(dialog.get_by_role("status")).to_have_text(scanned.camera_problem("NotAllowedError"))
    expect(dialog.get_by_label("The camera’s picture")).to_be_hidden()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


def test_without_a_camera_api_the_button_says_why(app):
    camera_on(app).evaluate(
        "() => Object.defineProperty(navigator, 'mediaDevices', { value: undefined })")
    dialog = start_scan(app)
    expect(dialog.get_by_role("status")).to_have_text(scanned.NO_CAMERA)
    assert "camera app" in scanned.NO_CAMERA
    app.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_closing_stops_the_camera_by_close_escape_or_leaving(app):
    camera_on(app)
    scan_button = app.get_by_role("banner").get_by_role("button", name="Scan a code")
    for close in ("Close", "Escape", "hidden"):
        dialog = start_scan(app)
        app.wait_for_function(LIVE)
        if close == "Close":
            dialog.get_by_role("button", name="Close").click()
        elif close == "Escape":
            app.keyboard.press("Escape")
        else:  # the phone switched to another app
            app.evaluate("""() => { Object.defineProperty(document, 'hidden',
                { value: true, configurable: true });
              document.dispatchEvent(new Event('visibilitychange'));
              delete document.hidden; }""")
        expect(dialog).to_be_hidden()
        app.wait_for_function("() => window.__camera.live() === 0")
        expect(scan_button).to_be_focused()  # back where the player was
    assert app.evaluate("window.__camera.streams.length") == 3


def test_a_camera_granted_after_the_dialog_closed_is_stopped_at_once(app):
    camera_on(app).evaluate("""() => { const ask = navigator.mediaDevices.getUserMedia;
      navigator.mediaDevices.getUserMedia = c => new Promise(granted =>
        window.__grant = () => granted(ask(c))); }""")
    dialog = start_scan(app)
    app.wait_for_function("() => window.__grant")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    app.evaluate("window.__grant()")
    app.wait_for_function("() => window.__camera.streams.length === 1")
    app.wait_for_function("() => window.__camera.live() === 0")


def test_a_gms_code_goes_into_a_secret_roll_and_a_logs_codes_are_read_in_turn(app, app_url):
    """The GM's commitment scanned in the page fills the secret roll's code; a shared log's codes
    are read one after another without closing the scanner, each once, until the last."""
    sealed = skillcheck.commit("pool", 4, "0" * 32)
    scan(camera_on(app), code_picture(app_url + gm_links.commit_fragment(
        "pool", sealed["commitment"])))
    expect(scan_dialog(app)).to_be_hidden()
    form = app.locator("#form-pool")
    expect(labelled(form, "Secret DR")).to_be_checked()
    expect(labelled(form, "GM's code")).to_have_value(re.compile(
        "^" + gm_links.code_of(sealed["commitment"])))

    codes = code_links(app_url, sharable(evening(60).items()))
    assert len(codes) >= 3
    dialog = scan(app, code_picture(codes[1]))
    status = dialog.get_by_role("status")
    expect(status).to_have_text(f"Code 2 of {len(codes)} read, {len(codes) - 1} more to go: "
                                "point at the next.")
    for n, code in enumerate(codes[2:], 3):
        point(app, code_picture(code))
        expect(status).to_contain_text(f"Code {n} of {len(codes)} read")
    expect(dialog).to_be_visible()
    point(app, code_picture(codes[0]))
    expect(dialog).to_be_hidden()
    expect(log_panel(app).locator("#log-status")).to_have_text(
        "60 rolls added from another phone, 0 already here.")
