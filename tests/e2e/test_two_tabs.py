"""Two real tabs of one browser (one context: one localStorage) on phone-sized pages: neither drops
the other's rolls, characters or spends, and each redraws what the other saved (issue 13, part 1).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_page import fill, open_form
from test_table import new_character, roll, stock

ENTRIES = "#log-list > li"


@pytest.fixture
def tabs(module_contexts, app_url) -> tuple[Page, Page]:
    """Two tabs of a new, empty browser profile, both ready."""
    context = module_contexts()
    pages = []
    for _ in range(2):
        page = context.new_page()
        page.goto(app_url + "#system=passages")
        wait_ready(page)
        pages.append(page)
    return pages[0], pages[1]


def stored(page: Page, key: str) -> dict:
    return json.loads(page.evaluate("key => localStorage.getItem(key)", key))


def test_rolls_in_two_tabs_are_all_kept_and_each_tab_shows_them(tabs):
    a, b = tabs
    roll(a)
    roll(a)
    roll(b)
    assert len(stored(a, "skillcheck.log")["entries"]) == 3
    expect(a.locator(ENTRIES)).to_have_count(3)  # a redraws b's roll
    roll(a)
    assert len(stored(a, "skillcheck.log")["entries"]) == 4
    expect(b.locator(ENTRIES)).to_have_count(4)
    expect(b.locator("#log-count")).to_have_text("4 entries.")


def test_characters_saved_in_two_tabs_are_both_kept_and_both_listed(tabs):
    a, b = tabs
    new_character(a, "Ana")
    new_character(b, "Ben")
    names = sorted(c["name"] for c in stored(a, "skillcheck.characters")["characters"])
    assert names == ["Ana", "Ben"]
    for page in tabs:
        expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(
            ["No character", "Ana", "Ben"])


def test_two_tabs_spending_xp_of_one_character_both_count(tabs):
    a, b = tabs
    new_character(a, "Mara", xp=100)
    character = b.get_by_label("Character", exact=True)
    expect(character.locator("option")).to_have_count(2)
    character.select_option(label="Mara")
    for page in tabs:
        form = open_form(page, "fluke")
        fill(form, "My dice", "4 5 6")
        fill(form, "Insurance", 5)
    roll(a)
    roll(b)
    a.wait_for_function("JSON.parse(localStorage.getItem('skillcheck.log')).entries"
                        ".filter(e => e.kind === 'spend').length >= 2")
    assert stored(a, "skillcheck.characters")["characters"][0]["xp"] == 80
    spends = [e for e in stored(a, "skillcheck.log")["entries"] if e["kind"] == "spend"]
    assert [(e["before"], e["after"]) for e in spends] == [(100, 90), (90, 80)]
    expect(stock(a)).to_contain_text("XP 80")
    expect(stock(b)).to_contain_text("XP 80")

    a.get_by_role("button", name="Undo last spend").click()
    expect(stock(a)).to_contain_text("XP 90")
    expect(stock(b)).to_contain_text("XP 90")
    expect(b.get_by_role("button", name="Undo last spend")).to_be_hidden()  # given back once
    assert stored(b, "skillcheck.characters")["characters"][0]["xp"] == 90


def test_an_entry_deleted_in_one_tab_is_gone_from_the_other(tabs):
    a, b = tabs
    roll(a)
    roll(a)
    expect(b.locator(ENTRIES)).to_have_count(2)
    newest = stored(a, "skillcheck.log")["entries"][-1]["id"]
    a.get_by_role("button", name=re.compile("^Delete this entry")).first.click()
    a.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(b.locator(ENTRIES)).to_have_count(1)
    assert newest not in [e["id"] for e in stored(b, "skillcheck.log")["entries"]]
    roll(b)  # b's next roll does not bring it back
    expect(a.locator(ENTRIES)).to_have_count(2)
    assert newest not in [e["id"] for e in stored(a, "skillcheck.log")["entries"]]
