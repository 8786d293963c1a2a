"""The party at a glance on the GM's phone (issue 37 point 3): three saved characters, one check
the GM sets; each character's chance as skillcheck.odds gives it, best first; a bad DR named
beside its box; a tap on a row opens the player's form filled for that character."""

from __future__ import annotations

import re
from fractions import Fraction

import skillcheck
from app.characters import CHARACTERS_KEY, Roster
from app.result_html import percent
from app.storage import MemoryStorage
from playwright.sync_api import Page, expect
from ready import wait_ready
from test_page import labelled

LOCK = {"trait": "Dexterity", "bonus": 0}
PARTY = {  # name → (Luck, Dexterity, Lockpicking), and a card flip sheet for two of them
    "Mara": (3, 5, 7), "Vex": (0, 6, 4), "Ana": (0, 3, 9)}


def party_document() -> str:
    storage = MemoryStorage()
    roster = Roster(storage)
    for name, (luck, dexterity, score) in PARTY.items():
        flip = ({"aspects": {"HS": 3}, "skills": {"Athletics": {
            "rank": 2, "specialization": "", "familiarity": False}}} if name != "Vex"
            else {"aspects": {"HS": 2}, "skills": {}})
        roster.create(name, notes="", luck=luck, xp=0, sheets={
            "pool": {"traits": {"Dexterity": dexterity},
                     "skills": {"Lockpicking": {**LOCK, "score": score}}},
            "flip": flip})
    return storage.get(CHARACTERS_KEY)


def at_the_gms_side(app: Page) -> Page:
    app.evaluate("""([key, value]) => {
        localStorage.setItem(key, value);
        history.replaceState(null, "", "#gm");
    }""", [CHARACTERS_KEY, party_document()])
    app.reload()
    return wait_ready(app)


def expected_pool(dr: int) -> list[tuple[str, str, str]]:
    """(name, the dice's own percent, with Luck or "") best first, from skillcheck.odds."""
    rows = []
    for name, (luck, dexterity, score) in PARTY.items():
        request = {"system": "pool", "trait": dexterity, "skill": score, "bonus": 0,
                   "luck": luck, "dr": dr}
        alone = Fraction(skillcheck.odds({**request, "luck": 0})["success"])
        full = Fraction(skillcheck.odds(request)["success"])
        rows.append((-alone, -full, name, percent(alone),
                     f"{percent(full)} with Luck {luck}" if full != alone else ""))
    return [(name, shown, more) for *_, name, shown, more in sorted(rows)]


def test_the_gm_reads_the_partys_chances_and_taps_one_into_the_form(app):
    gm = at_the_gms_side(app)
    side = gm.get_by_role("region", name="The party’s chances")
    expect(side.get_by_label("All")).to_be_checked()
    for name in PARTY:
        expect(side.get_by_label(name, exact=True)).to_be_checked()
    side.get_by_label("System").select_option(label="d10 pool")
    side.get_by_label("Skill").select_option(label="Lockpicking")
    difficulty = labelled(side, "DR")
    expect(difficulty).to_have_value("4")  # as the player's form starts

    difficulty.fill("11")
    expect(difficulty).to_have_attribute("aria-invalid", "true")
    expect(side).to_contain_text("must be a whole number from 1 to 10", ignore_case=True)
    expect(side.get_by_role("button", name=re.compile("^Roll for"))).to_have_count(0)

    difficulty.fill("3")
    expect(difficulty).not_to_have_attribute("aria-invalid", "true")
    want = expected_pool(3)
    buttons = side.get_by_role("button", name=re.compile("^Roll for"))
    expect(buttons).to_have_text([re.compile(rf"^{name}") for name, _, _ in want])
    expect(side.get_by_role("list", name=re.compile("Lockpicking \\(d10 pool\\) vs DR 3")))\
        .to_be_visible()
    for button, (name, shown, more) in zip(buttons.all(), want, strict=True):
        expect(button).to_have_accessible_name(f"Roll for {name}: Lockpicking")
        expect(button.locator("strong")).to_have_text(shown)
        expect(button.locator(".party-degrees")).to_contain_text(
            re.compile(r"Basic Success [\d.]+\s%"))
        if more:
            expect(button).to_contain_text(more)
        assert button.bounding_box()["height"] >= 44

    side.get_by_label("Vex", exact=True).uncheck()  # one fewer, the rest in the same order
    expect(side.get_by_label("All")).not_to_be_checked()
    expect(buttons).to_have_text([re.compile(rf"^{name}") for name, _, _ in want
                                  if name != "Vex"])

    side.get_by_role("button", name="Roll for Mara: Lockpicking").click()
    expect(gm.get_by_role("main", name="The GM’s side")).to_be_hidden()
    gm.wait_for_function("() => location.hash === '#system=pool'")
    form = gm.locator("#form-pool")
    luck, dexterity, score = PARTY["Mara"]
    for label, value in (("Trait", dexterity), ("Skill", score), ("Bonus", 0), ("Luck", luck),
                         ("DR", 3)):
        expect(labelled(form, label)).to_have_value(str(value))
    expect(gm.get_by_label("Character", exact=True)).to_have_value(re.compile(r"\d"))
    expect(gm.get_by_label("Character", exact=True).locator("option:checked"))\
        .to_have_text("Mara")
    expect(gm.locator("#who-status")).to_have_text(
        "Mara: Lockpicking is in the form. The difficulty is the one the GM set on the party "
        "table.")  # not "The GM sets the difficulty": on the GM's own phone the GM just did

    gm.go_back()  # the GM's side again, as it was left
    expect(side.get_by_role("button", name="Roll for Mara: Lockpicking")).to_be_visible()


def test_a_basic_skill_off_the_sheet_is_tried_unskilled_and_fills_rank_0(app):
    gm = at_the_gms_side(app)
    side = gm.get_by_role("region", name="The party’s chances")
    side.get_by_label("System").select_option(label="Card flip")
    side.get_by_label("Skill").select_option(label="Athletics")
    labelled(side, "DTN or difficulty").fill("hard")
    vex = side.get_by_role("button", name="Roll for Vex: Athletics")
    expect(vex).to_contain_text("unskilled")
    expect(side.get_by_role("button", name=re.compile("^Roll for")).last).to_have_accessible_name(
        "Roll for Vex: Athletics")  # two cards, keeping the low: the worst chance
    request = {"system": "flip", "rank": 0, "aspect": 2, "advanced": False,
               "familiarity": False, "specialization": False, "difficulty": "hard"}
    expect(vex.locator("strong")).to_have_text(
        percent(Fraction(skillcheck.odds(request)["success"])))
    vex.click()
    form = gm.locator("#form-flip-unopposed")
    expect(labelled(form, "Rank")).to_have_value("0")
    expect(labelled(form, "Aspect")).to_have_value("2")
    expect(form.get_by_label("Difficulty", exact=True)).to_have_value("hard")
