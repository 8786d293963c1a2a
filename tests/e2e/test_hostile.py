"""Nothing that comes from a link, a file or a box can stop the page from becoming ready: the
exact links and file that once left the button waiting ("Loading…") for good (issue 13, part 2)."""

from __future__ import annotations

import re

import pytest
import skillcheck
from app import links, log_model
from app.storage import MemoryStorage
from playwright.sync_api import Page, expect
from presses import press_roll
from ready import wait_ready
from test_page import error_beside, fill, labelled, open_form
from test_table import log_panel, roll


def replay_of(request: dict, outcome: str = "success") -> str:
    return links.share_fragment({"request": request, "outcome": outcome}, "2026-11-29T18:00:00Z")


HOSTILE_ADDRESSES = {
    "system quote": '#system="',
    "mode bracket": '#system=flip&mode="]',
    "replay system quote": replay_of({"system": '"', "rank": 1}),
    "replay mode bracket": replay_of({"system": "flip", "mode": '"]', "rank": 1}),
    "5,000-digit version": "#r=" + "9" * 5000 + ".AAAA",
    "5,000-digit seed": "?seed=" + "9" * 5000 + "#system=pool",
}


@pytest.fixture(scope="module")
def tab(module_contexts) -> dict:
    """One phone page of its own, whose page and console errors are recorded."""
    page = module_contexts().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on("console", lambda m: m.type == "error" and errors.append(f"console: {m.text}"))
    return {"page": page, "errors": errors}


def open_fresh(tab: dict, url: str) -> Page:
    """A new load of `url` (not a fragment change), with the error record emptied."""
    page = tab["page"]
    page.goto("about:blank")
    tab["errors"].clear()
    page.goto(url)
    wait_ready(page)
    return page


@pytest.mark.parametrize("name", HOSTILE_ADDRESSES)
def test_a_hostile_address_still_gives_a_page_ready_to_roll(tab, app_url, name):
    page = open_fresh(tab, app_url + HOSTILE_ADDRESSES[name])
    expect(page.locator("#roll")).to_be_enabled()
    expect(page.locator("#roll")).not_to_have_text(re.compile("Loading|Waiting"))
    expect(page.locator("#form-error")).to_be_empty()
    roll(page)
    assert tab["errors"] == []


def test_an_imported_log_with_a_request_nested_deep_is_refused_and_the_page_reloads(
        tab, app_url, tmp_path):
    page = open_fresh(tab, app_url)
    page.evaluate("localStorage.clear()")
    log = log_model.RollLog(MemoryStorage())
    log.record_check(skillcheck.resolve({"system": "passages", "base": 40, "dice": [12]}))
    text = log.export_json().replace('"dice":[12]', '"dice":[12],"x":' + "[" * 50 + "]" * 50)
    assert len(text) < log_model.LONGEST_ENTRY
    (tmp_path / "deep.json").write_text(text)
    log_panel(page).get_by_label("Import").set_input_files(tmp_path / "deep.json")
    expect(page.locator("#log-status")).to_contain_text("must not nest more than")
    page = open_fresh(tab, app_url)
    expect(page.locator("#roll")).to_be_enabled()
    assert tab["errors"] == []


@pytest.mark.parametrize(("panel", "label", "status"), [
    ("Roll log", "Import", "#log-status"), (None, "Import characters", "#who-status"),
], ids=["log", "characters"])
def test_a_file_nested_100000_deep_is_refused_with_its_reason(fresh_context, boot, app_url,
                                                               tmp_path, panel, label, status):
    """Once a Pyodide "Cannot enter a promising task" in the console, and nothing on the page."""
    page = boot(fresh_context.new_page(), app_url)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    scope = log_panel(page) if panel else page
    if not panel:
        page.get_by_text("Move characters to another device", exact=True).click()
    scope.get_by_label(label, exact=True).set_input_files(tmp_path / "deep.json")
    expect(page.locator(status)).to_contain_text("more than 100 levels deep")
    roll(page)
    assert errors == []


def test_a_stored_request_nested_deep_is_set_aside_and_the_rest_of_the_log_loads(tab, app_url):
    log = log_model.RollLog(MemoryStorage())
    for roll_ in (12, 77):
        log.record_check(skillcheck.resolve({"system": "passages", "base": 40, "dice": [roll_]}))
    raw = log.export_json().replace('"dice":[12]', '"dice":[12],"x":' + "[" * 50 + "]" * 50)
    page = open_fresh(tab, app_url)
    page.evaluate("raw => localStorage.setItem('skillcheck.log', raw)", raw)
    page = open_fresh(tab, app_url)
    expect(page.locator("#log-status")).to_contain_text("1 unreadable item")
    expect(page.locator("#log-list > li")).to_have_count(1)
    expect(page.locator("#roll")).to_be_enabled()
    assert tab["errors"] == []


def test_a_5000_digit_number_in_my_dice_or_the_reveal_box_is_named_beside_it(tab, app_url):
    page = open_fresh(tab, app_url)
    form = open_form(page, "passages")
    fill(form, "My dice", "9" * 5000)
    press_roll(page)
    assert "whole number" in error_beside(page, labelled(form, "My dice"))

    form = open_form(page, "pool")
    fill(form, "Secret DR", True)
    fill(form, "My dice", "2 9 5 1 3")
    press_roll(page)
    reveal = page.get_by_label("GM: DR")
    reveal.fill("9" * 5000)
    page.get_by_role("button", name="GM: reveal").click()
    assert "whole number" in error_beside(page, reveal)
    expect(page.locator("#form-error")).to_be_empty()
    assert tab["errors"] == []
