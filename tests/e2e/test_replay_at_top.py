"""A replay looks like a replay (issue 17, point 3): a shared link opens on the replay at the top
of a 390×844 phone, with the roll's inputs read-only and "Roll this check myself" to start from
them; Roll never rolls under the replay's address; a damaged link says so at the top."""

from __future__ import annotations

import pytest
from conftest import PHONE
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_page import fill, labelled, open_form
from test_table import boot_at, roll, share, stored_log

PHONE_390 = {**PHONE, "viewport": {"width": 390, "height": 844}}
HEIGHT = PHONE_390["viewport"]["height"]


@pytest.fixture
def friend(new_context) -> Page:
    """Another phone, the one the link is sent to."""
    return new_context(**PHONE_390).new_page()


def shared_pool_roll(app: Page) -> str:
    """A d10 pool roll of 8 dice, Skill 5 against DR 3, shared: its replay link."""
    form = open_form(app, "pool")
    for label, value in {"Trait": 8, "Skill": 5, "DR": 3, "Bonus": 2}.items():
        fill(form, label, value)
    fill(form, "My dice", "1 6 3 9 10 2 7 5")
    roll(app)
    return share(app)


def in_view(page: Page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT


def test_a_link_opens_on_the_replay_with_its_inputs_and_roll_leaves_the_replay(app, friend):
    url = shared_pool_roll(app)
    boot_at(friend, url)
    banner = friend.locator("#result .source.replay")
    expect(banner).to_contain_text("Replay of a roll from")
    assert in_view(friend, banner.get_by_text("Replay of a roll from")), "the banner is off-screen"
    inputs = banner.get_by_role("definition")
    shown = dict(zip(banner.get_by_role("term").all_inner_texts(), inputs.all_inner_texts(),
                     strict=True))
    assert shown == {"Trait": "8", "Skill": "5", "DR": "3", "Bonus": "2"}
    expect(banner.get_by_role("button", name="Roll this check myself")).to_be_visible()
    form = friend.locator("#form-pool")
    expect(labelled(form, "Trait")).to_have_value("5")  # the friend's own form, untouched

    friend.locator("#roll").click()  # their own check: the address stops being the replay
    expect(friend.locator("#result .source")).to_have_count(0)
    assert friend.evaluate("location.hash") == "#system=pool"
    friend.wait_for_function("() => localStorage.getItem('skillcheck.log') !== null")
    assert stored_log(friend)["entries"][0]["request"]["trait"] == 5


def test_roll_this_check_myself_fills_the_form_with_the_replays_inputs(app, friend):
    url = shared_pool_roll(app)
    boot_at(friend, url)
    friend.get_by_role("button", name="Roll this check myself").click()
    form = friend.locator("#form-pool")
    for label, value in {"Trait": 8, "Skill": 5, "DR": 3, "Bonus": 2, "Luck": 0}.items():
        expect(labelled(form, label)).to_have_value(str(value))
    expect(labelled(form, "Trait")).to_be_focused()
    assert friend.evaluate("location.hash") == "#system=pool"
    friend.locator("#roll").click()
    friend.wait_for_function("() => localStorage.getItem('skillcheck.log') !== null")
    request = stored_log(friend)["entries"][0]["request"]
    assert {k: request[k] for k in ("trait", "skill", "dr", "bonus")} == {
        "trait": 8, "skill": 5, "dr": 3, "bonus": 2}
    friend.reload()
    wait_ready(friend)
    expect(friend.locator("#result .source.replay")).to_have_count(0)  # not the replay again


def test_a_flip_replay_lists_each_side_and_fills_every_helper(app, friend):
    form = open_form(app, "flip", "team")
    fill(form, "Difficulty", "hard")
    app.get_by_role("button", name="Add a helper").click()
    fill(form.get_by_role("group", name="Primary"), "Rank", 4)
    fill(form.get_by_role("group", name="Helper 2"), "Rank", 3)
    roll(app)
    boot_at(friend, share(app))
    banner = friend.locator("#result .source.replay")
    terms = banner.get_by_role("term").all_inner_texts()
    assert {"Difficulty", "DTN", "Primary · Rank", "Helper 2 · Rank"} <= set(terms)
    friend.get_by_role("button", name="Roll this check myself").click()
    team = friend.locator("#form-flip-team")
    expect(labelled(team, "Difficulty")).to_have_value("hard")
    expect(labelled(team.get_by_role("group", name="Primary"), "Rank")).to_have_value("4")
    expect(labelled(team.get_by_role("group", name="Helper 2"), "Rank")).to_have_value("3")


def test_a_damaged_link_says_so_at_the_top(friend, app_url):
    boot_at(friend, app_url + "#r=1.AAAA-broken")
    problem = friend.locator("#result .problem")
    expect(problem).to_contain_text("damaged")
    assert in_view(friend, problem), "the damaged link's message is off-screen"
    expect(friend.locator("#roll")).to_be_enabled()
