"""A seeded page says so and does not travel (issue 13, part 3): while `?seed=` is in force a line
by the roll button says the draws are repeatable, each logged check records the seed and shows a
mark, and a shared link never carries the seed."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_table import roll, share
from test_trust import WATCH

LINE = "Repeatable draws: seed 42 — not random"


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
    assert "#r=1." in url and "seed" not in url


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
