"""Passages on a phone, as players type it: "00" in My dice is 100, and a contested base of 1–4
(Core 0) is named beside the Base box before anything is rolled."""

from __future__ import annotations

from playwright.sync_api import expect
from presses import press_roll
from test_page import fill, labelled, open_form


def test_a_core_of_zero_is_named_beside_the_base_before_the_roll(booted):
    form = open_form(booted, "passages")
    fill(form, "Base", 4)
    fill(form, "Contested", True)
    note = form.locator("#passages-base-note")
    expect(note).to_have_text("Contested, a base of 4 has Core 0: every roll is blown (100 a "
                              "critical fail).")
    expect(labelled(form, "Base")).to_have_attribute("aria-describedby",
                                                     "passages-base-note passages-base-hint")
    fill(form, "Base", 5)
    expect(note).to_have_count(0)


def test_double_ought_in_my_dice_rolls_a_hundred(booted):
    form = open_form(booted, "passages")
    fill(form, "Base", 40)
    fill(form, "My dice", "00")
    press_roll(booted, booted.get_by_role("button", name="Roll", exact=True))
    expect(booted.locator("#result .headline")).to_contain_text("Critical Fail")
    expect(booted.locator("#result .roll-total")).to_contain_text("100")
