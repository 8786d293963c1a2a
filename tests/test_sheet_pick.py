"""What picking another character does to a form a pick "From the sheet" filled: filled again
from the new sheet, put back as drawn when it lacks the skill, or left alone."""

from __future__ import annotations

import pytest
from app import character_form, characters, forms
from app.sheet_pick import Pick, Switch, gone_said, switched


def character(id_: int, name: str, sheets: dict) -> dict:
    return characters.read_character({"id": id_, "name": name, "luck": 2, "xp": 0,
                                      "sheets": sheets})


POOL = {"traits": {"Dexterity": 5}, "skills": {"Lockpicking": {"trait": "Dexterity",
                                                               "score": 7}}}
MARA = character(1, "Mara", {"pool": POOL, "flip": {"aspects": {"HS": 4}}})
VEX = character(2, "Vex", {"pool": {"traits": {"Dexterity": 3}, "skills": {
    "Lockpicking": {"trait": "Dexterity", "score": 4}}}})
DOT = character(3, "Dot", {"pool": {"traits": {"Wits": 4}, "skills": {
    "Haggling": {"trait": "Wits", "score": 6}}}})


def picked(who: dict, system: str, mode: str | None, name: str) -> tuple[Pick, dict]:
    """The pick of `who`'s `name`, and the form's request right after it filled the form."""
    shown, values = character_form.form_values(system, mode, name,
                                               characters.fill(who, system, name))
    pick = Pick(who["id"], who["name"], name, character_form.as_request(values))
    controls = [(key, forms.CHECKBOX if isinstance(value, bool) else
                 forms.NUMBER if isinstance(value, int) else "text", value)
                for key, value in values.items()]
    return pick, forms.request_from(system, shown, controls)


def test_a_pick_holds_while_the_form_has_every_value_it_filled_in():
    pick, request = picked(MARA, "pool", None, "Lockpicking")
    assert request == {"system": "pool", "trait": 5, "skill": 7, "bonus": 0, "luck": 2}
    assert pick.holds(request) and pick.holds({**request, "dr": 3})  # the GM's part added
    assert not pick.holds({**request, "skill": 6})
    assert not pick.holds({key: v for key, v in request.items() if key != "bonus"})


@pytest.mark.parametrize(("other", "switch"), [
    (VEX, Switch.REFILL),  # Vex has Lockpicking: the form is filled from Vex's sheet
    (DOT, Switch.RESET),  # Dot has none: Mara's numbers must not be rolled for Dot
    (MARA, Switch.KEEP),  # Mara again: her pick stands
    (None, Switch.KEEP),  # "No character": the form stays as it is
])
def test_another_character_refills_or_resets_a_form_that_still_holds_the_pick(other, switch):
    pick, request = picked(MARA, "pool", None, "Lockpicking")
    assert switched(pick, request, other) is switch


def test_numbers_typed_over_the_pick_and_a_form_no_pick_filled_are_left_alone():
    pick, request = picked(MARA, "pool", None, "Lockpicking")
    typed = {**request, "skill": 9}
    assert switched(pick, typed, VEX) is Switch.KEEP
    assert switched(pick, typed, DOT) is Switch.KEEP
    assert switched(None, request, DOT) is Switch.KEEP


def test_an_aspect_pick_goes_to_a_character_with_that_aspect_only():
    pick, request = picked(MARA, "flip", "unopposed", "HS")
    assert request["mode"] == "aspect" and pick.fields == {"aspect": 4}
    rook = character(4, "Rook", {"flip": {"aspects": {"HS": 2}}})
    assert switched(pick, request, rook) is Switch.REFILL
    assert switched(pick, request, VEX) is Switch.RESET


def test_the_bar_says_whose_skill_the_form_no_longer_holds_in_the_rules_words():
    pick, _ = picked(MARA, "pool", None, "Lockpicking")
    assert gone_said(pick, VEX, "pool") == (
        "The form no longer holds Mara’s Lockpicking: choose Vex’s skill From the sheet.")
    aspect, _ = picked(MARA, "flip", "aspect", "HS")
    assert gone_said(aspect, DOT, "flip") == (
        "The form no longer holds Mara’s Hard Strength: choose Dot’s skill From the sheet.")
