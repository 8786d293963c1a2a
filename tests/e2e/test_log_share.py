"""The whole evening at once (issue 38.3): page A's 200 rolls shown as a sequence of QR codes,
each decoded from its picture with zxing-cpp (never read from the page's text) and opened on
another phone, offline, which merges them into its table log once, keeping its own rolls; and
on a phone, the log sent as a file (Chromium has no share sheet: the download) and imported."""

from __future__ import annotations

import json
import re

from app import links
from conftest import PHONE
from evenings import evening, stored
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_offline import SW_TIMEOUT_MS, wait_controlled
from test_page import open_form
from test_qr_dialog import read_qr
from test_table import boot_at, log_panel, roll, stored_log

LABEL = "QR codes of the roll log"


def with_log(page: Page, text: str) -> None:
    page.evaluate("text => localStorage.setItem('skillcheck.log', text)", text)
    page.reload()
    wait_ready(page)


def share_group(page: Page):
    panel = log_panel(page)
    panel.get_by_text("Share the log", exact=True).click()
    return panel


def read_codes(page: Page) -> list[str]:
    """Every code of the open sequence, read from its picture, turned by Next and the keys."""
    dialog = page.get_by_role("dialog", name=LABEL)
    step = dialog.locator("#qr-step")
    expect(step).to_have_text(re.compile(r"^Code 1 of \d+$"))
    count = int(step.inner_text().rsplit(" ", 1)[1])
    read = []
    for n in range(1, count + 1):
        expect(step).to_have_text(f"Code {n} of {count}")
        code = dialog.get_by_role("img", name=f"{LABEL}: code {n} of {count}")
        found = read_qr(code)
        assert found.ec_level == "M" and int(code.get_attribute("data-version")) <= 15
        read.append(found.text)
        if n % 2:
            dialog.get_by_role("button", name="Next").click()
        else:
            page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Code 1 of {count}")  # round again, for a code missed
    dialog.get_by_role("button", name="Close").click()
    return read


def test_two_hundred_rolls_pass_as_qr_codes_and_merge_once_offline(app, new_context, app_url):
    sent = evening(200)
    with_log(app, stored(sent))
    panel = share_group(app)
    whole = panel.get_by_role("radio", name=re.compile("^The whole log"))
    expect(whole).to_be_visible()
    whole.check()
    expect(panel.locator("#log-share-all")).to_have_text("The whole log (200 rolls)")
    panel.get_by_role("button", name="Show as QR codes").click()
    codes = read_codes(app)
    print(f"\n200 rolls in {len(codes)} codes")
    assert len(codes) <= 12 and len(set(codes)) == len(codes)
    assert all(code.startswith(app_url) and "#log=1." in code for code in codes)

    context = new_context(**PHONE)
    friend = boot_at(context.new_page(), app_url)
    open_form(friend, "swift")
    roll(friend)
    roll(friend)
    held = sent.items()[5]  # one of A's rolls, added here before from its replay link
    friend.goto(links.share_url(app_url, {"request": held["request"],
                                          "outcome": held["outcome"]}, held["time"],
                                who={"name": held["name"], "skill": held.get("skill")}))
    wait_ready(friend)
    friend.get_by_role("button", name="Add to the table log").click()
    expect(friend.locator("#add-status")).to_contain_text("is in the table log")
    own = [e for e in stored_log(friend)["entries"] if "shared" not in e]
    assert len(own) == 2
    wait_controlled(friend)
    context.set_offline(True)

    tab = context.new_page()  # the camera app opens the first code's link
    tab.goto(codes[0])
    wait_ready(tab, SW_TIMEOUT_MS)
    status = log_panel(tab).locator("#log-status")
    for n, code in enumerate(codes[1:], 2):  # the rest scanned in the page: location.hash set
        expect(status).to_have_text(f"Log from another phone: {n - 1} of {len(codes)} codes "
                                    "read — show the next.")
        tab.evaluate("link => { location.hash = new URL(link).hash; }", code)
    expect(status).to_have_text("199 rolls added from another phone, 1 already here.")
    assert tab.evaluate("location.hash").startswith("#system=")
    entries = stored_log(tab)["entries"]
    assert [e for e in entries if "shared" not in e] == own  # its own rolls, untouched
    shared = [e for e in entries if "shared" in e]
    assert sorted((e["time"], json.dumps(e["request"], sort_keys=True), e["name"])
                  for e in shared) == sorted(
        (e["time"], json.dumps(e["request"], sort_keys=True), e["name"]) for e in sent.items())
    expect(log_panel(tab)).to_contain_text("Showing the newest 50 of 202 entries.")

    for code in codes:  # the whole sequence again: nothing new
        tab.evaluate("link => { location.hash = new URL(link).hash; }", code)
    expect(status).to_have_text("0 rolls added from another phone, 200 already here.")
    assert len(stored_log(tab)["entries"]) == 202


def test_a_damaged_code_is_a_sentence_and_the_page_keeps_working(app):
    app.evaluate("() => { location.hash = '#log=1.AbCdEfGh.1.2.999'; }")
    status = log_panel(app).locator("#log-status")
    expect(status).to_contain_text("This code of a shared log is damaged")
    expect(status).to_have_class(re.compile("problem"))
    assert app.evaluate("localStorage.getItem('skillcheck.log-codes')") is None
    open_form(app, "swift")
    roll(app)


def test_on_a_phone_the_log_goes_as_a_file_and_merges_on_import(new_context, app_url, tmp_path):
    phone = boot_at(new_context(**PHONE).new_page(), app_url)
    with_log(phone, stored(evening(30)))
    panel = share_group(phone)
    expect(panel.locator("#log-share-tonight")).to_have_text("Tonight’s rolls (30 rolls)")
    with phone.expect_download() as download:
        panel.get_by_role("button", name="Send as a file").click()
    name = download.value.suggested_filename
    assert re.fullmatch(r"skillcheck-rolls-\d{4}-\d\d-\d\d\.json", name)
    expect(panel.locator("#log-share-status")).to_contain_text(
        f"Saved tonight’s 30 rolls as {name}")
    sent = tmp_path / name
    download.value.save_as(sent)

    other = boot_at(new_context(**PHONE).new_page(), app_url)
    open_form(other, "swift")
    roll(other)
    mine = stored_log(other)["entries"]
    for said in ("30 rolls added from another phone, 0 already here.",
                 "0 rolls added from another phone, 30 already here."):
        log_panel(other).get_by_label("Import").set_input_files(sent)
        expect(log_panel(other).locator("#log-status")).to_have_text(said)
        expect(other.get_by_role("dialog")).to_have_count(0)  # a merge asks nothing
    entries = stored_log(other)["entries"]
    assert entries[:1] == mine and len(entries) == 31
    assert all(e.get("shared") for e in entries[1:])


def test_where_the_browser_shares_files_the_share_sheet_gets_the_file(new_context, app_url):
    context = new_context(**PHONE)
    context.add_init_script("""navigator.canShare = (data) => !!(data && data.files);
        navigator.share = async (data) => { window.sharedFiles = data.files.map(f => f.name); };""")
    phone = boot_at(context.new_page(), app_url)
    with_log(phone, stored(evening(5)))
    panel = share_group(phone)
    panel.get_by_role("button", name="Send as a file").click()
    expect(panel.locator("#log-share-status")).to_contain_text("Sent tonight’s 5 rolls as")
    assert re.fullmatch(r"skillcheck-rolls-.*\.json", phone.evaluate("sharedFiles")[0])
