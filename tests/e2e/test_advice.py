"""The spend advisor on a phone (issue 37 point 4): under the odds of the systems that spend
points, a table of what each more Luck (or Insurance) buys, drawn again as the form changes,
each chance exact one tap away, no more rows than a picked character can pay for, readable at
375 px in light and dark."""

from __future__ import annotations

from fractions import Fraction

import pytest
import skillcheck
from app.result_html import chance_words, percent
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from test_page import fill, labelled, open_form
from test_page_layout import MIN_TARGET, WCAG_AA
from test_table import new_character, pick, pool_sheet


def advisor(page: Page, word: str = "Luck"):
    return page.get_by_role("table", name=f"What more {word} buys")


def successes(page: Page, word: str = "Luck") -> list[Fraction]:
    """The first chance of each row (the chance of success), exactly as the page holds it."""
    cells = advisor(page, word).locator("tr.advice-row td:nth-of-type(1)")
    return [Fraction(value) for value in cells.evaluate_all(
        "cells => cells.map(c => c.dataset.fraction)")]


def expected(request: dict, field: str, most: int) -> list[Fraction]:
    return [Fraction(skillcheck.odds({**request, field: n})["success"]) for n in range(most + 1)]


@pytest.mark.parametrize(("system", "word", "field", "request_"), [
    ("pool", "Luck", "luck", {"trait": 5, "skill": 7, "dr": 4}),
    ("swift", "Luck", "luck", {"trait": 5, "skill": 6}),
    ("fluke", "Insurance", "insurance", {"dice_count": 3}),
])
def test_the_advisor_stands_under_the_odds_where_points_are_spent(app, system, word, field,
                                                                   request_):
    form = open_form(app, system)
    fill(form, word, 3)
    table = advisor(app, word)
    expect(table).to_be_visible()
    expect(table.get_by_role("row")).to_have_count(1 + 4)  # the heads, then 0 … 3 (open: none)
    assert successes(app, word) == expected({"system": system, **request_}, field, 3)


@pytest.mark.parametrize(("system", "mode"), [("flip", "unopposed"), ("flip", "team"),
                                              ("passages", None)])
def test_no_advisor_where_nothing_is_spent(app, system, mode):
    open_form(app, system, mode)
    expect(app.locator("#odds .odds-list")).to_be_visible()
    expect(app.locator("#advice")).to_be_hidden()
    expect(app.get_by_role("table", name="What more Luck buys")).to_have_count(0)


def test_changing_luck_changes_the_rows_as_you_type(app):
    form = open_form(app, "pool")
    fill(form, "Bonus", 1)
    fill(form, "Luck", 2)
    table = advisor(app)
    rows = table.get_by_role("button")
    expect(rows).to_have_text(["0 Luck", "1 Luck", "2 Luck"])
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 4, "bonus": 1}
    assert successes(app) == expected(request, "luck", 2)
    expect(app.locator("#advice .advice-verdict")).to_contain_text("Every row keeps Bonus 1")

    fill(form, "Luck", 6)
    expect(rows).to_have_count(7)
    assert successes(app) == expected(request, "luck", 6)
    fill(form, "DR", 2)
    expect(table.locator("td").first).to_have_text(
        percent(expected({**request, "dr": 2}, "luck", 0)[0]))
    assert successes(app) == expected({**request, "dr": 2}, "luck", 6)


def test_a_tapped_row_says_its_chances_exactly_and_stays_open(app):
    form = open_form(app, "pool")
    fill(form, "Luck", 3)
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 4, "luck": 2}
    p = Fraction(skillcheck.odds(request)["success"])
    words = advisor(app).get_by_text(f"Any success: {chance_words(p)}")
    expect(words).to_be_hidden()
    button = advisor(app).get_by_role("button", name="2 Luck")
    box = button.bounding_box()
    assert box["width"] >= MIN_TARGET and box["height"] >= MIN_TARGET
    button.tap()
    expect(words).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    fill(form, "Luck", 4)  # drawn again: the row the player opened stays open
    expect(advisor(app).get_by_role("button")).to_have_count(5)
    expect(words).to_be_visible()
    advisor(app).locator('tr[data-points="2"] td').first.tap()  # the row itself shuts it
    expect(words).to_be_hidden()


def test_a_picked_character_holding_2_luck_gets_rows_up_to_2(app):
    form = open_form(app, "pool")
    new_character(app, "Vex", luck=2, sheet=pool_sheet)
    pick(app, "Lockpicking")
    expect(labelled(form, "Luck")).to_have_value("2")
    expect(advisor(app).get_by_role("button")).to_have_text(["0 Luck", "1 Luck", "2 Luck"])
    fill(form, "Luck", 1)
    expect(advisor(app).get_by_role("button")).to_have_text(["0 Luck", "1 Luck"])


@pytest.mark.parametrize(("scheme", "width"), [("light", 375), ("dark", 375), ("light", 320)])
def test_ten_rows_of_the_largest_pool_read_on_a_phone(app, scheme, width):
    app.emulate_media(color_scheme=scheme)
    try:
        app.set_viewport_size({"width": width, "height": 812})
        form = open_form(app, "pool")
        # Skill 1 against DR 9: every chance under 0.1 %, the widest figures ("<0.1 %").
        for label, value in (("Trait", 10), ("Skill", 1), ("DR", 9), ("Bonus", 3),
                             ("Luck", 30)):
            fill(form, label, value)
        table = advisor(app)
        expect(table.get_by_role("button")).to_have_count(10)  # 0 … 9: ten rows at most
        table.get_by_role("button", name="9 Luck").tap()  # an open row's long numbers too
        expect(table.locator("#advice-exact-9")).to_be_visible()
        assert app.evaluate("document.documentElement.scrollWidth") <= width
        right = table.evaluate("t => t.getBoundingClientRect().right")
        assert right <= width
        sizes = table.get_by_role("button").evaluate_all(
            "buttons => buttons.map(b => [b.offsetWidth, b.offsetHeight])")
        assert len(sizes) == 10 and min(min(size) for size in sizes) >= MIN_TARGET, sizes
        found = Axe().run(app, context="#advice", options=WCAG_AA)
        assert found.violations_count == 0, found.generate_report()
    finally:
        app.emulate_media(color_scheme="light")
        app.set_viewport_size({"width": 375, "height": 812})
