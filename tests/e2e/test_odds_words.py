"""The odds speak to players (issue 17, point 7), on a phone: a tapped odds row opens on its
meaning and its chance in words and exactly, by touch or keyboard; the tiers carry the
rulebook's names; DR and IoS are spelled out once; a secret DR's chart gives the GM numbers."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from test_page import fill, open_form
from test_table import roll


def pool(page: Page, **values) -> None:
    form = open_form(page, "pool")
    for label, value in values.items():
        fill(form, label, value)


def row(page: Page, name: str):
    return page.locator("#odds .odds-row").filter(
        has=page.locator(".odds-name", has_text=name))


def test_a_tapped_odds_row_says_the_chance_in_words_and_the_keyboard_opens_one_too(app):
    app.set_viewport_size({"width": 390, "height": 844})
    pool(app, DR=3)
    expect(app.locator("#odds .odds-success strong")).to_have_text("83.7 %")  # DR 3's odds
    names = app.locator("#odds .odds-name")
    expect(names).to_have_text(["Critical Success", "Success (IoS 2)", "Basic Success",
                                "Failure", "Disaster"])
    critical = row(app, "Critical Success")
    words = critical.get_by_text("About 1 in 6 — 16,807 in 100,000.")
    expect(words).to_be_hidden()
    summary = critical.locator("summary")
    assert summary.bounding_box()["height"] >= 44  # a finger's target, not a 22 px line
    summary.tap()
    expect(words).to_be_visible()
    expect(critical.get_by_text("IoS 3 or more")).to_be_visible()

    basic = row(app, "Basic Success")
    basic.locator("summary").press("Enter")  # focus, then the key: no pointer at all
    expect(basic.get_by_text("IoS 1: exactly the DR.")).to_be_visible()
    expect(app.locator("#odds")).to_contain_text("DR — Difficulty Rating: the successes needed.")
    expect(app.locator("#odds")).to_contain_text("IoS — Increment of Success")


def test_a_row_the_player_opened_stays_open_while_the_odds_are_worked_out_again(app):
    """Leaving a box works the odds out anew: on a phone, that is the very tap on a row."""
    app.set_viewport_size({"width": 390, "height": 844})
    form = open_form(app, "pool")
    fill(form, "DR", 3)
    success = app.locator("#odds .odds-success strong")
    expect(success).to_have_text("83.7 %")
    critical = row(app, "Critical Success")
    critical.locator("summary").tap()
    meaning = critical.get_by_text("IoS 3 or more")
    expect(meaning).to_be_visible()
    fill(form, "DR", 2)
    expect(success).not_to_have_text("83.7 %")  # drawn again, for DR 2
    expect(meaning).to_be_visible()
    expect(row(app, "Failure").locator("details")).not_to_have_attribute("open", "")


def test_a_secret_dr_chart_gives_the_gm_numbers_and_at_least_odds(app):
    app.set_viewport_size({"width": 390, "height": 844})
    pool(app, **{"Secret DR": True})
    expect(app.locator("#odds .chart li")).to_have_count(6)  # 0 to 5 successes
    app.get_by_text("Numbers for the GM").tap()
    table = app.get_by_role("table")
    expect(table).to_be_visible()
    three = table.get_by_role("row").filter(has=app.get_by_role("rowheader", name="3",
                                                                    exact=True))
    expect(three.get_by_role("cell")).to_have_text(["30.9 %", "83.7 %"])
    expect(table).to_contain_text("“At least” is the chance of success against a DR")


def test_the_result_headline_names_the_outcome_as_the_odds_do(app):
    app.set_viewport_size({"width": 390, "height": 844})
    pool(app, Trait=5, Skill=7, DR=3, **{"My dice": "1 2 9 9 3"})  # IoS 1: a basic success
    roll(app)
    expect(app.locator("#result .headline strong")).to_have_text("Basic Success")
    expect(row(app, "Basic Success")).to_have_count(1)  # the same words as the odds
    expect(app.locator("#roll-last strong")).to_have_text("Basic Success")
