"""Tonight's luck in the log, on a phone (issue 38.4): the evening's rolls weighed against their
exact odds, one sentence said aloud, a dot per roll; a withdrawn roll leaves the count."""

from __future__ import annotations

import json

from app.tonight import runs, sentence
from playwright.sync_api import Page, expect
from test_page import fill, open_form
from test_table import roll


def stored_runs(page: Page):
    page.evaluate("dispatchEvent(new Event('pagehide'))")  # every pending log write, done
    return runs(json.loads(page.evaluate("localStorage.getItem('skillcheck.log')"))["entries"])


def test_tonight_weighs_each_roll_says_one_sentence_and_leaves_a_withdrawn_roll_out(app):
    form = open_form(app, "pool")
    fill(form, "DR", 2)
    for dice in ("10 10 9 9 8", "1 2 9 9 3", "6 10 9 8 10"):
        fill(form, "My dice", dice)
        roll(app)
    tonight = app.get_by_role("button", name="Tonight’s luck")
    tonight.click()
    expect(tonight).to_have_attribute("aria-expanded", "true")
    view = app.get_by_role("region", name="Tonight’s luck")
    table = stored_runs(app)[-1]
    assert len(table.places) == 3 and table.average < 0.5
    said = app.locator("#spoken")  # the page's live region
    expect(said).to_have_text(sentence(table))
    expect(said).to_contain_text("The table’s dice ran in the bottom ")
    assert len(said.text_content().split()) <= 25
    dots = view.get_by_role("img", name="The table’s 3 rolls tonight", exact=False)
    expect(dots.locator("circle")).to_have_count(3)

    app.get_by_role("button", name="Undo this roll").click()  # the last roll withdrawn
    expect(dots.locator("circle")).to_have_count(0)
    expect(view.get_by_role("img", name="The table’s 2 rolls tonight", exact=False)
           .locator("circle")).to_have_count(2)
    assert len(stored_runs(app)[-1].places) == 2
    tonight.click()
    expect(view).to_be_hidden()
