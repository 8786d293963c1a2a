"""Issue 35.6: an opposed or a team flip fits. On a phone the form and its result take at most
two screens (opposed) or three (team of four); on a tablet, where form and result stand side
by side, a team flip's headline lands in view, with Re-roll and Share a scroll away."""

from __future__ import annotations

import pytest
import skillcheck
from playwright.sync_api import Page, expect
from presses import press_roll
from ready import wait_ready
from test_glance import SCREENS, in_view
from test_page import fill, labelled, open_form, wait_for_odds

# The check form (pickers and character bar included) and the result panel, in CSS pixels.
HEIGHTS = """() => ["#check", ".result-panel"]
    .map(s => Math.round(document.querySelector(s).getBoundingClientRect().height))"""
HELPERS = 3


def page_at(module_contexts, app_url: str, screen: str) -> Page:
    page = module_contexts(viewport=SCREENS[screen], reduced_motion="reduce").new_page()
    page.goto(app_url + "?seed=35#system=flip")
    wait_ready(page)
    return page


def fresh_form(page: Page, mode: str, helpers: int = 0):
    """A fresh flip form of `mode`, with so many helpers."""
    form = open_form(page, "flip", mode)
    for _ in range(helpers - 1):
        form.get_by_role("button", name="Add a helper").click()
    expect(form.locator(".helper")).to_have_count(helpers)
    return form


def flip(page: Page) -> None:
    press_roll(page)
    expect(page.locator("#result .headline")).to_be_visible()


@pytest.fixture(scope="module")
def phone(module_contexts, app_url) -> Page:
    return page_at(module_contexts, app_url, "phone")


@pytest.mark.parametrize(("mode", "helpers", "screens"), [("opposed", 0, 2), ("team", HELPERS, 3)])
def test_on_a_phone_the_form_and_its_result_fit_in_so_many_screens(phone, mode, helpers,
                                                                   screens):
    fresh_form(phone, mode, helpers)
    flip(phone)
    form, result = phone.evaluate(HEIGHTS)
    budget = screens * SCREENS["phone"]["height"]
    assert form + result <= budget, f"form {form} + result {result} > {budget} px"


@pytest.mark.parametrize("screen", ["tablet", "landscape"])
def test_on_a_tablet_a_team_flips_headline_lands_in_view(module_contexts, app_url, screen):
    page = page_at(module_contexts, app_url, screen)
    form = fresh_form(page, "team", HELPERS)
    form.get_by_role("button", name="Add a helper").scroll_into_view_if_needed()  # form's foot
    flip(page)
    page.wait_for_timeout(300)  # reduced motion: the page's scroll is instant
    top = page.locator("#result .headline").bounding_box()["y"]
    assert in_view(page, "#result .headline"), f"the headline's top is at {top:.0f} px"
    assert in_view(page, "#roll")
    page.get_by_role("button", name="Re-roll").scroll_into_view_if_needed()
    assert in_view(page, "#roll-again") and in_view(page, "#share")
    assert form.is_visible()


def test_a_closed_more_still_counts_and_says_what_is_set(phone):
    form = fresh_form(phone, "opposed")
    initiator = form.get_by_role("group", name="Initiator", exact=True)
    more = initiator.locator("details.more > summary")
    expect(more).to_have_text("More · modifiers, own cards")
    fill(initiator, "Flip modifier", 1)
    fill(initiator, "Shift", -1)
    more.click()  # closed again: what is set there is said, and still flipped with
    expect(labelled(initiator, "Flip modifier")).to_be_hidden()
    expect(more).to_have_text("More · flip +1, shift -1")
    wait_for_odds(phone, skillcheck.odds({
        "system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 3, "flip": 1,
                                                           "shift": -1},
        "opponent": {"rank": 2, "aspect": 3}}))
    opponent = form.get_by_role("group", name="Opponent", exact=True)
    fill(opponent, "Skill", "Athletics")  # its specializations beside its aspect, not folded
    expect(labelled(opponent, "Specialization")).to_be_visible()
    fill(opponent, "Skill", "")
    expect(labelled(opponent, "Specialization")).to_be_hidden()
