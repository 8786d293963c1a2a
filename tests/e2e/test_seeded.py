"""A seeded page says so and does not travel (issue 13, part 3): while `?seed=` is in force a line
by the roll button says the draws are repeatable, each logged check records the seed and shows a
mark, and a shared link never carries the seed. A seeded roll is marked wherever it goes (issue
34, point 8): its result, its chat line, what Share hands the share sheet, and the roll shown
again from the log or from its link — which says it was seeded, not which seed."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_sharing import FAKE_DEVICE
from test_table import roll, share
from test_trust import WATCH

LINE = "Repeatable draws: seed 42 — not random"
MARK = "Seeded — not random"


@pytest.fixture(scope="module")
def page(module_contexts) -> Page:
    """A phone page whose crypto.getRandomValues calls are counted (window.__trust.random)."""
    context = module_contexts()
    context.add_init_script(WATCH)
    return context.new_page()


def open_at(page: Page, url: str) -> Page:
    page.goto("about:blank")
    page.goto(url)
    wait_ready(page)
    return page


def last_entry(page: Page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('skillcheck.log')"))["entries"][-1]


def test_a_seeded_page_says_so_logs_the_seed_and_shares_without_it(page, app_url):
    open_at(page, app_url + "?seed=42#system=passages")
    calls = page.evaluate("window.__trust.random")
    line = page.locator(".action").get_by_text(LINE)
    expect(line).to_be_visible()
    roll(page)
    assert last_entry(page)["seed"] == 42
    assert page.evaluate("window.__trust.random") == calls
    expect(page.locator("#log-list > li").first).to_contain_text("Seed 42 — not random")
    url = share(page)
    assert "#r=2." in url and "seed" not in url


def test_a_seeded_roll_is_marked_on_its_result_its_text_its_share_and_its_link(page, app_url):
    open_at(page, app_url + "?seed=42#system=passages")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    roll(page)
    result = page.locator("#result")
    expect(result.get_by_text(MARK, exact=True)).to_be_visible()
    expect(page.locator("#spoken")).to_contain_text(re.compile(r"^Seeded, not random: Passages: "))

    page.get_by_role("button", name="Copy as text").click()
    expect(page.get_by_label("Text for a chat")).to_have_value(
        re.compile(rf"^\[{MARK}\] Passages: .+ — {re.escape(app_url)}#r=2\."))
    page.evaluate(FAKE_DEVICE)  # a phone's share sheet, from now on
    page.get_by_role("button", name="Share").click()
    page.wait_for_function("window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["text"].startswith(f"[{MARK}] Passages: ")
    # the page's own address, no ?seed=42 (a "42" may be in the random port: not a test of it)
    assert shared["url"].partition("#")[0] == app_url and "seed" not in shared["url"]

    page.locator("#log-list .log-entry").first.click()  # the log's entry, shown again
    expect(result).to_contain_text("From the log")
    expect(result.get_by_text(MARK, exact=True)).to_be_visible()

    open_at(page, shared["url"])  # the link, opened where nothing is seeded
    expect(page.locator("#seeded")).to_be_hidden()
    expect(result).to_contain_text("Replay of a roll")
    expect(result.get_by_text(MARK, exact=True)).to_be_visible()


@pytest.mark.parametrize("query", ["", "?seed=%D9%A3", "?seed=" + "4" * 30])
def test_an_unseeded_page_shows_no_line_and_logs_no_seed(page, app_url, query):
    open_at(page, app_url + query + "#system=passages")
    page.evaluate("localStorage.clear()")
    expect(page.locator("#seeded")).to_be_attached()
    expect(page.locator("#seeded")).to_be_hidden()
    calls = page.evaluate("window.__trust.random")
    roll(page)
    assert page.evaluate("window.__trust.random") > calls  # drawn at random, not from a seed
    assert "seed" not in last_entry(page)
    expect(page.locator("#log-list .log-seed")).to_have_count(0)
    expect(page.locator("#result .seeded")).to_have_count(0)
