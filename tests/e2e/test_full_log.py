"""A big log near the browser's real quota keeps saving (issue 13, part 4): when a save fails for
quota, the oldest entries are dropped until the new one fits, and the player is told how many."""

from __future__ import annotations

import json

import skillcheck
from app import log_model
from app.storage import MemoryStorage
from playwright.sync_api import expect
from ready import opened_with_log

TEAM = {"system": "flip", "mode": "team", "dtn": 15, "primary": {"rank": 3, "aspect": 2},
        "secondaries": [{"rank": 2, "aspect": 1} for _ in range(8)]}

# Fill what is left of this origin's real quota with one more key, to the last character that fits.
FILL_THE_REST = """() => {
  let lo = 0, hi = 12_000_000;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try { localStorage.setItem("filler", "x".repeat(mid)); lo = mid; }
    catch (error) { hi = mid - 1; }
  }
  localStorage.setItem("filler", "x".repeat(lo));
  return lo;
}"""


def stored_entries(page) -> list[dict]:
    return json.loads(page.evaluate("localStorage.getItem('skillcheck.log')"))["entries"]


def test_a_log_at_the_quota_drops_its_oldest_so_the_new_roll_is_saved(fresh_context, app_url):
    log = log_model.RollLog(MemoryStorage())
    for seed in range(40):  # team flips of 8 helpers: ~1,500 characters an entry
        log.record_check(skillcheck.resolve({**TEAM, "seed": seed}))
    page = opened_with_log(fresh_context, app_url + "#system=passages", log.export_json())
    expect(page.locator("#log-list > li")).to_have_count(40)
    assert page.evaluate(FILL_THE_REST) > 1_000_000  # the browser's own quota, now reached
    oldest = stored_entries(page)[0]["id"]

    page.get_by_role("button", name="Roll", exact=True).click()
    page.wait_for_function("JSON.parse(localStorage.getItem('skillcheck.log'))"
                           ".entries.at(-1).system === 'passages'")
    status = page.locator("#log-status")
    expect(status).to_contain_text("Browser storage is full: the oldest")
    expect(status).to_contain_text("Export the roll log now")
    dropped = int(status.inner_text().split("the oldest ")[1].split()[0])
    entries = stored_entries(page)
    assert entries[-1]["system"] == "passages" and entries[0]["id"] == oldest + dropped
    assert len(entries) == 41 - dropped
    expect(page.locator("#log-list > li")).to_have_count(41 - dropped)
    expect(page.locator("#log-export")).to_be_enabled()
