"""Every system and mode driven on the phone and on the desktop page: the odds shown before the
roll, the result after it, and the cards and dice drawn — each checked against the engine run
here under CPython with the same request and the same draw."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction

import pytest
import skillcheck
from app import forms
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from presses import press_roll
from ready import wait_ready
from skillcheck.draw import card_name

# --- driving the page by its labels and roles (test_page_layout.py uses these too) -------------

FORM_IDS = {("flip", "unopposed"): "form-flip-unopposed", ("flip", "aspect"): "form-flip-aspect",
            ("flip", "opposed"): "form-flip-opposed", ("flip", "team"): "form-flip-team",
            ("pool", None): "form-pool", ("swift", None): "form-swift",
            ("fluke", None): "form-fluke", ("passages", None): "form-passages"}


def open_form(page: Page, system: str, mode: str | None = None) -> Locator:
    """Open a system by its link, as a GM's bookmark does: the glue shows it with a fresh form."""
    page.evaluate("fragment => { location.hash = '#reset'; location.hash = fragment; }",
                  forms.fragment(system, mode))
    form = page.locator(f"#{FORM_IDS[system, mode]}")
    expect(form).to_be_visible()
    expect(page.locator("#result .placeholder")).to_be_visible()
    return form


def labelled(scope: Locator, label: str) -> Locator:
    """The control whose label starts with `label` (labels may go on with a hint: "Skill (HS)")."""
    return scope.get_by_label(re.compile(rf"^{re.escape(label)}\b"))


def fill(scope: Locator, label: str, value) -> None:
    """Set the control labelled `label`: text for boxes, True/False for ticks, an option for
    selects (by value); a control inside a side's "More" or "Enter my own …" opens each closed
    disclosure it is in first, by its summary, as a player would."""
    control = labelled(scope, label)
    closed = control.locator("xpath=ancestor::details[not(@open)]/summary")
    while closed.count():
        closed.first.click()
    kind = control.evaluate("el => el.tagName === 'SELECT' ? 'select' : el.type")
    if kind == "checkbox":
        control.set_checked(value)
    elif kind == "select":
        control.select_option(value)
    else:
        control.fill(str(value))


def wait_for_odds(page: Page, odds: dict) -> dict[str, Fraction]:
    """Wait until the odds panel shows exactly `odds` (the engine's), and return what it shows."""
    expected = json.dumps(sorted(odds["outcomes"].items()), separators=(",", ":"))
    try:
        page.wait_for_function(
            """expected => JSON.stringify([...document.querySelectorAll("#odds .odds-row")]
                .map(row => [row.dataset.outcome, row.dataset.fraction]).sort()) === expected""",
            arg=expected, timeout=10_000)
    except PlaywrightTimeout:
        raise AssertionError(f"odds never became {expected}; the panel shows: "
                             f"{page.locator('#odds').inner_text()!r}") from None
    rows = page.locator("#odds .odds-row")
    return {rows.nth(i).get_attribute("data-outcome"): Fraction(rows.nth(i).get_attribute(
        "data-fraction")) for i in range(rows.count())}


def result_images(page: Page) -> list[str]:
    images = page.locator("#result [role=img]:not(.outcome-bar)")
    return [images.nth(i).get_attribute("aria-label") for i in range(images.count())]


def explain_lines(page: Page) -> list[str]:
    """The result's numbered explanation, read as shown: under "Why" (an opposed or team
    flip's, closed on a phone), opened first."""
    why = page.locator("#result details.why:not([open]) > summary")
    if why.count():
        why.click()
    return page.locator("#result .explain li").all_inner_texts()


# --- every system and mode ----------------------------------------------------------------------



def expected_images(result: dict) -> list[str]:
    """What each role=img should say, written from the engine's result, not from the renderer."""
    system = result["system"]
    if system == "flip":
        sides = ([result] if "cards" in result else
                 [result[k] for k in ("initiator", "opponent", "primary") if k in result]
                 + result.get("secondaries", []))
        labels = []
        for side in sides:
            for i, code in enumerate(side["cards"]):
                kept = ", kept" + (" (the lowest must be kept)" if side["keep_low"] else "")
                labels.append(card_name(code) + (kept if i == side["kept"] else ""))
        return labels
    if system == "passages":
        tens, units = divmod(result["roll"] % 100, 10)
        return [f"tens die showing {tens}0", f"units die showing {units}"]
    if system == "fluke":
        insured, labels = result["insured"], []
        for face in result["dice"]:
            if face == 1 and insured:
                insured -= 1
                labels.append("d6 showing 1, an insured one")
            else:
                labels.append("d6 showing 1, a one" if face == 1 else f"d6 showing {face}")
        return labels
    if system == "pool":
        skill = result["request"]["skill"]
        return [f"d10 showing {face}" + (f", lowered to {now}" if now != face else "")
                + (", a success" if now <= skill else ", not a success")
                for face, now in zip(result["dice"], result["adjusted"], strict=True)]
    return [f"d10 showing {face}" for face in result["dice"]]


# (system, mode, [(group or None, label, value)], the request those controls make)
CASES = [
    ("flip", "unopposed",
     [(None, "Skill", "Athletics"), (None, "Rank", 3), (None, "Aspect", 2), (None, "Shift", 1),
      (None, "Difficulty", "hard"), (None, "My cards", "4d 9S KH")],
     {"system": "flip", "skill": "Athletics", "rank": 3, "aspect": 2, "shift": 1,
      "difficulty": "hard", "cards": ["4D", "9S", "KH"]}),
    ("flip", "aspect",
     [(None, "Aspect", 4), (None, "Flip modifier", -1), (None, "Difficulty", ""),
      (None, "DTN", 10), (None, "My cards", "2C 8H 5S")],
     {"system": "flip", "mode": "aspect", "aspect": 4, "flip": -1, "dtn": 10,
      "cards": ["2C", "8H", "5S"]}),
    ("flip", "opposed",
     [("Initiator", "Rank", 2), ("Initiator", "Aspect", 3), ("Initiator", "My cards", "QS 3H"),
      ("Opponent", "Rank", 1), ("Opponent", "Aspect", 4), ("Opponent", "My cards", "JD")],
     {"system": "flip", "mode": "opposed",
      "initiator": {"rank": 2, "aspect": 3, "cards": ["QS", "3H"]},
      "opponent": {"rank": 1, "aspect": 4, "cards": ["JD"]}}),
    ("flip", "team",
     [("Primary", "Rank", 2), ("Primary", "Aspect", 2), ("Primary", "My cards", "5H 10S 2D"),
      ("Helper 1", "Rank", 1), ("Helper 1", "Aspect", 3), ("Helper 1", "My cards", "9C"),
      ("Helper 2", "Rank", 1), ("Helper 2", "Aspect", 0), ("Helper 2", "My cards", "3S")],
     {"system": "flip", "mode": "team", "difficulty": "average",
      "primary": {"rank": 2, "aspect": 2, "cards": ["5H", "10S", "2D"]},
      "secondaries": [{"rank": 1, "aspect": 3, "cards": ["9C"]},
                      {"rank": 1, "aspect": 0, "cards": ["3S"]}]}),
    ("pool", None,
     [(None, "Trait", 5), (None, "Skill", 6), (None, "DR", 3), (None, "Bonus", 2),
      (None, "Luck", 1), (None, "My dice", "2 7 9 6 10")],
     {"system": "pool", "trait": 5, "skill": 6, "dr": 3, "bonus": 2, "luck": 1,
      "dice": [2, 7, 9, 6, 10]}),
    ("swift", None,
     [(None, "Trait", 6), (None, "Skill", 5), (None, "Bonus", 1), (None, "My dice", "9, 4")],
     {"system": "swift", "trait": 6, "skill": 5, "bonus": 1, "dice": [9, 4]}),
    ("fluke", None,
     [(None, "Dice to roll", 4), (None, "Penalty", 2), (None, "Plan", 3), (None, "Insurance", 1),
      (None, "My dice", "1 6 1 4")],
     {"system": "fluke", "dice_count": 4, "penalty": 2, "plan": 3, "insurance": 1,
      "dice": [1, 6, 1, 4]}),
    ("passages", None,
     [(None, "Base", 36), (None, "Contested", True), (None, "My dice", "7")],
     {"system": "passages", "base": 36, "contested": True, "dice": [7]}),
]
IDS = [f"{system}-{mode}" if mode else system for system, mode, _, _ in CASES]
BUTTON = {"flip": "Flip"}


@pytest.fixture(params=["phone", "desktop"])
def screen(request) -> Page:
    return request.getfixturevalue("booted" if request.param == "phone" else "desktop")


@pytest.mark.parametrize(("system", "mode", "controls", "request_"), CASES, ids=IDS)
def test_each_system_shows_the_engines_odds_then_its_result(screen, system, mode, controls,
                                                            request_):
    form = open_form(screen, system, mode)
    if any(group == "Helper 2" for group, _, _ in controls):
        form.get_by_role("button", name="Add a helper").click()
    for group, label, value in controls:
        scope = form.get_by_role("group", name=group, exact=True) if group else form
        fill(scope, label, value)

    shown = wait_for_odds(screen, skillcheck.odds(request_))
    assert sum(shown.values()) == 1

    press_roll(screen, screen.get_by_role("button", name=BUTTON.get(system, "Roll"), exact=True))
    result = skillcheck.resolve(request_)
    outcome = screen.locator("#result .headline")
    expect(outcome).to_contain_text(result["outcome"], ignore_case=True)
    assert result_images(screen) == expected_images(result)
    assert explain_lines(screen) == result["explain"]
    assert "Traceback" not in screen.locator("body").inner_text()


def test_a_chosen_skill_names_its_aspect_and_offers_its_specializations(booted):
    form = open_form(booted, "flip", "unopposed")
    fill(form, "Skill", "Athletics")
    expect(form.locator(".aspect-hint")).to_have_text("(HS)")
    options = labelled(form, "Specialization").locator("option").all_inner_texts()
    assert "Climbing" in options and "Swimming" in options
    fill(form, "Specialization", "Climbing")
    request = {"system": "flip", "skill": "Athletics", "rank": 2, "aspect": 3,
               "specialization": True, "difficulty": "average"}
    wait_for_odds(booted, skillcheck.odds(request))
    fill(form, "Skill", "Knowledge")  # Advanced: ticks the box; no list of its own
    expect(labelled(form, "Advanced skill")).to_be_checked()


def test_tapping_another_card_keeps_it_and_the_rules_follow(booted):
    form = open_form(booted, "flip", "unopposed")
    fill(form, "Rank", 3)
    fill(form, "Aspect", 2)
    fill(form, "My cards", "2S KH 7D")
    entries = booted.locator("#log-list > li")
    logged = entries.count()
    press_roll(booted)
    request = {"system": "flip", "rank": 3, "aspect": 2, "difficulty": "average",
               "cards": ["2S", "KH", "7D"]}
    assert result_images(booted) == expected_images(skillcheck.resolve(request))
    expect(entries).to_have_count(logged + 1)

    booted.get_by_role("button", name="Keep the Seven of Diamonds instead").click()
    chosen = skillcheck.resolve({**request, "keep": 2})
    assert chosen["kept"] == 2 and chosen["total"] == 9
    expect(booted.locator("#result .headline")).to_contain_text(chosen["outcome"],
                                                                ignore_case=True)
    assert result_images(booted) == expected_images(chosen)
    assert explain_lines(booted) == chosen["explain"]
    expect(booted.get_by_role("button", name="Keep the King of Hearts instead")).to_be_visible()
    # one flip, one log entry: the choice amends it
    expect(entries.first.locator(".log-outcome")).to_have_text(chosen["outcome"],
                                                               ignore_case=True)
    expect(entries).to_have_count(logged + 1)


def test_a_helpers_choice_can_change_the_primarys_flip(booted):
    form = open_form(booted, "flip", "team")
    fill(form.get_by_role("group", name="Primary"), "My cards", "5H 10S 2D")
    fill(form.get_by_role("group", name="Helper 1"), "My cards", "9C 4S")
    press_roll(booted)
    assert result_images(booted)[:3] == ["Five of Hearts", "Ten of Spades, kept", "Two of Diamonds"]
    # 4 + aspect 3 misses the helper's DTN 9: no flip+1, so the primary's two cards are the
    # first two it showed (the engine fits a forced draw the team resized)
    booted.get_by_role("button", name="Keep the Four of Spades instead").click()
    expect(booted.locator("#result .side-result")).to_have_count(2)
    expect(booted.locator("#result .side-result").first.locator("[role=img]")).to_have_count(2)
    images = result_images(booted)
    assert images == ["Five of Hearts", "Ten of Spades, kept", "Nine of Clubs",
                      "Four of Spades, kept"]
    primary = booted.locator("#result .side-result").first.locator("[role=img]")
    cards = [card_code(label) for label in primary.evaluate_all(
        "cards => cards.map(card => card.getAttribute('aria-label'))")]
    replay = skillcheck.resolve({
        "system": "flip", "mode": "team", "difficulty": "average",
        "primary": {"rank": 2, "aspect": 3, "cards": cards},
        "secondaries": [{"rank": 2, "aspect": 3, "cards": ["9C", "4S"], "keep": 1}]})
    assert explain_lines(booted) == replay["explain"]


def card_code(label: str) -> str:
    """"Queen of Hearts, kept" → "QH": the card an image shows."""
    rank, _, suit = label.split(",")[0].partition(" of ")
    return RANK_CODES[rank] + suit[0]


RANK_CODES = {card_name(code)[: -len(" of Spades")]: code[:-1]
              for code in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS",
                           "KS")}


def test_keep_low_offers_no_other_card(booted):
    form = open_form(booted, "flip", "unopposed")
    fill(form, "Rank", 0)
    fill(form, "My cards", "9C 4D")
    press_roll(booted)
    assert result_images(booted) == ["Nine of Clubs",
                                     "Four of Diamonds, kept (the lowest must be kept)"]
    expect(booted.locator("#result .keep-this")).to_have_count(0)


def error_beside(page: Page, control) -> str:
    """The message the page put beside `control`, checked to be wired as its description."""
    expect(control).to_have_attribute("aria-invalid", "true")
    described = control.get_attribute("aria-describedby").split()[0]
    message = page.locator(f"#{described}")
    expect(message).to_be_visible()
    return message.inner_text()


def test_bad_input_is_named_beside_its_field_and_the_odds_say_so(booted):
    form = open_form(booted, "flip", "unopposed")
    rank = labelled(form, "Rank")
    fill(form, "Rank", 60)
    expect(booted.locator("#odds .problem")).to_have_text(
        "Rank: must be a whole number from 0 to 52")
    assert error_beside(booted, rank) == "Must be a whole number from 0 to 52"
    press_roll(booted)
    assert error_beside(booted, rank) == "Must be a whole number from 0 to 52"
    expect(booted.locator("#result .placeholder")).to_be_visible()
    fill(form, "Rank", 2)
    expect(rank).not_to_have_attribute("aria-invalid", "true")
    expect(booted.locator("#odds .odds-row").first).to_be_visible()


def test_nested_fields_are_named_by_their_path(booted):
    form = open_form(booted, "flip", "opposed")
    opponent = form.get_by_role("group", name="Opponent")
    fill(opponent, "Aspect", "2.5")
    assert error_beside(booted, labelled(opponent, "Aspect")) == (
        "Must be a whole number from -20 to 50")
    form = open_form(booted, "flip", "team")
    form.get_by_role("button", name="Add a helper").click()
    helper = form.get_by_role("group", name="Helper 2")
    fill(helper, "Rank", "")
    assert error_beside(booted, labelled(helper, "Rank")).startswith("Is needed")
    expect(booted.locator("#odds .problem")).to_contain_text("Rank: is needed")


def test_rules_errors_land_on_their_field_too(booted):
    form = open_form(booted, "flip", "unopposed")
    fill(form, "Skill", "Knowledge")
    fill(form, "Rank", 0)
    assert error_beside(booted, labelled(form, "Rank")) == (
        "An Advanced skill at rank 0 needs a Familiarity")
    fill(form, "Familiarity", True)
    expect(booted.locator("#odds .odds-row").first).to_be_visible()
    fill(form, "My cards", "7H")
    press_roll(booted)
    assert error_beside(booted, labelled(form, "My cards")) == "Must list exactly 2 cards"


def test_helpers_come_and_go_up_to_the_engines_limit(booted):
    form = open_form(booted, "flip", "team")
    add = form.get_by_role("button", name="Add a helper")
    limit = skillcheck.SYSTEMS["flip"]["max_secondaries"]
    for _ in range(limit - 1):
        add.click()
    expect(form.locator(".helper")).to_have_count(limit)
    expect(add).to_be_disabled()
    form.get_by_role("group", name="Helper 3").get_by_role("button", name="Remove").click()
    expect(add).to_be_enabled()
    legends = form.locator(".helper legend").all_inner_texts()
    assert legends == [f"Helper {i}" for i in range(1, limit)]
    names = form.locator(".helper input[name$='.rank']").evaluate_all(
        "boxes => boxes.map(box => box.name)")
    assert names == [f"secondaries.{i}.rank" for i in range(limit - 1)]
    request = {"system": "flip", "mode": "team", "difficulty": "average",
               "primary": {"rank": 2, "aspect": 3},
               "secondaries": [{"rank": 2, "aspect": 3}] * (limit - 1)}
    wait_for_odds(booted, skillcheck.odds(request))


def test_links_open_a_system_and_choosing_one_updates_the_link(booted):
    open_form(booted, "flip", "opposed")
    expect(booted.get_by_role("radio", name="Opposed", exact=True)).to_be_checked()
    expect(booted.get_by_role("button", name="Flip", exact=True)).to_be_enabled()
    booted.get_by_role("radio", name="Swift").check()
    expect(booted.locator("#form-swift")).to_be_visible()
    expect(booted.get_by_role("button", name="Roll", exact=True)).to_be_enabled()
    assert booted.evaluate("location.hash") == "#system=swift"
    booted.get_by_role("radio", name="Card flip").check()
    booted.get_by_role("radio", name="Team").check()
    assert booted.evaluate("location.hash") == "#system=flip&mode=team"


def test_a_seed_in_the_address_fixes_the_dice(desktop, app_url):
    desktop.goto(app_url + "?seed=7#system=pool")
    wait_ready(desktop)
    rng = random.Random(7)
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 4, "bonus": 0, "luck": 0}
    for _ in range(2):
        press_roll(desktop, desktop.get_by_role("button", name="Roll", exact=True))
        expected = skillcheck.resolve(request, rng)
        expect(desktop.locator("#result [role=img]:not(.outcome-bar)").first).to_have_attribute(
            "aria-label", re.compile(f"^d10 showing {expected['dice'][0]}\\b"))
        assert result_images(desktop) == expected_images(expected)
