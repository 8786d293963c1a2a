"""What the page leaves until after ready (issue 18, part 2): the roll log's list is drawn once
the page is ready and idle, as nothing the first roll needs is in it. It must still be drawn with
no roll at all, and a roll tapped the moment the page is ready must be logged after the older
entries, shown as the result, with the list drawn as before."""

from __future__ import annotations

import json

import skillcheck
from app.log_model import RollLog
from app.storage import MemoryStorage
from playwright.sync_api import BrowserContext, Page, expect
from ready import wait_ready
from test_table import LOG_ENTRIES

KEPT = 60  # more than the list draws at first (log_html.PAGE, 50)
PASSAGES = {"system": "passages", "base": 50}
# Before the page's scripts, once per tab: the log a player left behind.
LEFT_BEHIND = """raw => {
  if (!sessionStorage.getItem("seeded")) {
    localStorage.setItem("skillcheck.log", raw);
    sessionStorage.setItem("seeded", "1");
  }
}"""
# As soon as the page is ready: the Roll button, pressed in the same task that sees ready.
ROLL_AT_READY = """() => new Promise((done) => {
  const press = () => { document.querySelector("#roll").click(); done(); };
  if (document.documentElement.dataset.ready === "true") return press();
  new MutationObserver((_, watcher) => {
    if (document.documentElement.dataset.ready === "true") { watcher.disconnect(); press(); }
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-ready"] });
})"""

TODAY = """iso => new Date(iso).toLocaleString([], { hour: "2-digit", minute: "2-digit",
                                                 second: "2-digit" })"""


def kept_log() -> str:
    log = RollLog(MemoryStorage())
    for seed in range(KEPT):
        log.record_check(skillcheck.resolve({**PASSAGES, "seed": seed}))
    return log.export_json()


def opened(fresh_context: BrowserContext, url: str) -> Page:
    fresh_context.add_init_script(f"({LEFT_BEHIND})({json.dumps(kept_log())})")
    page = fresh_context.new_page()
    page.goto(url, wait_until="commit")
    return page


def test_the_log_left_behind_is_drawn_after_ready_with_no_roll(fresh_context, app_url):
    page = opened(fresh_context, app_url + "#system=passages")
    wait_ready(page)
    expect(page.locator(LOG_ENTRIES)).to_have_count(50)
    expect(page.locator("#log-count")).to_have_text(f"Showing the newest 50 of {KEPT} entries.")
    expect(page.get_by_role("button", name="Show more")).to_be_visible()
    expect(page.get_by_role("button", name="Export")).to_be_enabled()
    # the last result, shown again before ready, is marked in the list once it is drawn
    expect(page.locator("#log-list [aria-current='true']")).to_have_count(1)
    # each time in the player's language, as Date.toLocaleString says it (the list keeps one
    # Intl.DateTimeFormat per kind of time instead of making one for each entry)
    when = page.locator("#log-list .log-when").first
    expect(when).to_have_text(page.evaluate(TODAY, when.get_attribute("datetime")))


def test_a_roll_at_ready_is_logged_after_the_older_entries(fresh_context, app_url):
    page = opened(fresh_context, app_url + "#system=passages")
    page.evaluate(ROLL_AT_READY)
    expect(page.locator("#result .outcome")).to_be_visible()
    page.wait_for_function("n => JSON.parse(localStorage.getItem('skillcheck.log'))"
                           ".entries.length === n", arg=KEPT + 1)
    newest = json.loads(page.evaluate("localStorage.getItem('skillcheck.log')"))["entries"][-1]
    expect(page.locator("#log-count")).to_have_text(
        f"Showing the newest 50 of {KEPT + 1} entries.")
    first = page.locator(LOG_ENTRIES).first  # newest first, the roll on screen marked
    expect(first).to_have_attribute("data-entry", str(newest["id"]))
    expect(first).to_have_attribute("aria-current", "true")
    expect(page.locator(LOG_ENTRIES)).to_have_count(50)
    assert newest["system"] == "passages" and newest["id"] > KEPT
