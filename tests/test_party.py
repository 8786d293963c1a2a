"""The party at a glance (app/party.py, party_html.py): every character's exact chance of one
check the GM sets, as the odds panel would give it for that character's form — the same
fractions as skillcheck.odds, and as plain enumeration of every draw, each resolved — sorted
best first, with those who cannot make it after, saying why."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from html.parser import HTMLParser

import contract_checks as contract
import pytest
import skillcheck
from app import character_form, party, party_html
from app.characters import Roster, fill
from app.landed_html import shares_said
from app.storage import MemoryStorage
from skillcheck import InvalidRequest
from skillcheck.draw import DECK

MARA = {"luck": 3, "xp": 10, "sheets": {
    "flip": {"aspects": {"HS": 2, "AI": 2, "SS": 1}, "skills": {
        "Athletics": {"rank": 2, "specialization": "Climbing", "familiarity": False},
        "Knowledge: History": {"rank": 0, "specialization": "", "familiarity": False}}},
    "pool": {"traits": {"Dexterity": 3, "Wits": 2}, "skills": {
        "Lockpicking": {"trait": "Dexterity", "score": 7, "bonus": 1},
        "Stealth": {"trait": "Wits", "score": 5, "bonus": 0}}},
    "fluke": {"stats": {"Brawn": 2}, "skills": {"Sneak": 3}},
    "passages": {"skills": {"Sneak": 45}}}}
BO = {"luck": 0, "xp": 4, "sheets": {
    "flip": {"aspects": {"HS": 1, "SS": 3, "AI": 4}, "skills": {
        "Knowledge: History": {"rank": 0, "specialization": "", "familiarity": True}}},
    "pool": {"traits": {"Dexterity": 2}, "skills": {
        "Lockpicking": {"trait": "Dexterity", "score": 4, "bonus": 0}}},
    "fluke": {"stats": {"Brawn": 4}, "skills": {"Sneak": 2}},
    "passages": {"skills": {"Sneak": 12}}}}
ANA = {"luck": 12, "xp": 0, "sheets": {
    "flip": {"aspects": {"AI": 5}, "skills": {
        "Athletics": {"rank": 1, "specialization": "", "familiarity": False}}},
    "pool": {"traits": {"Dexterity": 2}, "skills": {
        "Lockpicking": {"trait": "Dexterity", "score": 9, "bonus": 0}}},
    "passages": {"skills": {"Sneak": 90}}}}


@pytest.fixture
def party_of_three() -> list[dict]:
    roster = Roster(MemoryStorage())
    for name, sheet in (("Mara", MARA), ("Bo", BO), ("Ana", ANA)):
        roster.create(name, notes="", **sheet)
    return roster.all()


# ---- brute force: every draw of the request, resolved by the rules ------------------------------

def draws(request: dict):
    """Every equally likely forced draw of `request`, as (weight, the request with it)."""
    system = request["system"]
    if system == "flip":
        n = request["aspect"] if request.get("mode") == "aspect" else request["rank"]
        count = n if n >= 1 else 2 - n
        return ((1, {**request, "cards": list(hand)})
                for hand in itertools.combinations(DECK, count))
    count, faces = {"pool": (request.get("trait"), 10), "swift": (2, 10),
                    "fluke": (request.get("dice_count"), 6), "passages": (1, 100)}[system]
    return ((1, {**request, "dice": list(dice)})
            for dice in itertools.product(range(1, faces + 1), repeat=count))


def enumerated(request: dict) -> dict[str, Fraction]:
    return contract.tally(draws(request), lambda drawn: skillcheck.resolve(drawn)["outcome"])


def chances(odds: dict) -> dict[str, Fraction]:
    return {name: Fraction(p) for name, p in odds["outcomes"].items()}


CHECKS = [  # (system, skill, the GM's difficulty): every system, every kind of box
    ("flip", "Athletics", "hard"),
    ("flip", "Athletics", "9"),
    ("flip", "HS", "average"),
    ("pool", "Lockpicking", "2"),
    ("swift", "Lockpicking", ""),
    ("fluke", "Sneak", "7"),
    ("fluke", "Brawn", "10"),
    ("passages", "Sneak", False),
    ("passages", "Sneak", True),
]


@pytest.mark.parametrize(("system", "skill", "typed"), CHECKS)
def test_each_row_is_the_odds_panels_odds_and_every_draw_counted(party_of_three, system,
                                                                  skill, typed):
    rows = party.rows(party_of_three, system, skill, typed)
    rolled = [row for row in rows if row.odds is not None]
    assert rolled
    for row in rolled:
        assert row.odds == skillcheck.odds(row.request)
        assert chances(row.odds) == enumerated(row.request)
        assert row.success == Fraction(skillcheck.odds(row.request)["success"])


def test_a_row_is_the_sheets_fill_with_the_gms_difficulty(party_of_three):
    mara = next(c for c in party_of_three if c["name"] == "Mara")
    rows = {row.name: row for row in party.rows(party_of_three, "pool", "Lockpicking", "2")}
    assert rows["Mara"].fields == fill(mara, "pool", "Lockpicking")
    assert rows["Mara"].request == {"system": "pool", "trait": 3, "skill": 7, "bonus": 1,
                                    "luck": 3, "dr": 2}
    assert rows["Mara"].numbers == "Trait 3, Skill 7, DR 2, Bonus 1, Luck 3"


def test_points_offered_give_the_chance_without_them_too(party_of_three):
    rows = {row.name: row for row in party.rows(party_of_three, "pool", "Lockpicking", "2")}
    mara, bo = rows["Mara"], rows["Bo"]
    assert mara.points == "Luck 3"
    assert mara.bare == skillcheck.odds({**mara.request, "luck": 0})
    assert mara.alone < mara.success
    assert bo.points == "" and bo.bare == bo.odds  # no Luck: one chance


def test_rows_go_best_first_by_the_dices_own_chance_then_with_points_then_by_name():
    roster = Roster(MemoryStorage())
    sheet = {"traits": {"Dexterity": 3}, "skills": {
        "Lockpicking": {"trait": "Dexterity", "score": 6, "bonus": 0}}}
    for name, luck, score in (("Zed", 0, 6), ("cy", 0, 6), ("Al", 0, 4), ("Bea", 5, 6),
                              ("Dee", 0, 9)):
        roster.create(name, notes="", luck=luck, xp=0, sheets={"pool": {
            **sheet, "skills": {"Lockpicking": {**sheet["skills"]["Lockpicking"],
                                                "score": score}}}})
    rows = party.rows(roster.all(), "pool", "Lockpicking", "2")
    assert [row.name for row in rows] == ["Dee", "Bea", "cy", "Zed", "Al"]
    keys = [(row.alone, row.success) for row in rows]
    assert keys == sorted(keys, reverse=True)
    assert rows[1].alone == rows[2].alone and rows[1].success > rows[2].success


def test_who_cannot_make_the_check_comes_last_saying_why(party_of_three):
    rows = party.rows(party_of_three, "flip", "Knowledge: History", "12")
    assert [(row.name, row.odds is None) for row in rows] == [
        ("Bo", False), ("Ana", True), ("Mara", True)]
    ana, mara = rows[1], rows[2]
    assert ana.why == "Knowledge: History is not on Ana’s card flip sheet."
    assert mara.why == "Rank: an Advanced skill at rank 0 needs a Familiarity."  # no Familiarity
    assert rows[0].request["familiarity"] is True  # Bo has one: two cards, keep the low
    fluke = party.rows(party_of_three, "fluke", "Sneak", "10")
    assert fluke[-1].name == "Ana" and "d6 pool sheet" in fluke[-1].why


def test_a_basic_skill_not_on_a_flip_sheet_is_tried_unskilled_at_rank_0(party_of_three):
    rows = {row.name: row for row in party.rows(party_of_three, "flip", "Athletics", "9")}
    bo = rows["Bo"]
    assert bo.unskilled and not rows["Mara"].unskilled
    assert bo.fields == {"rank": 0, "advanced": False, "familiarity": False,
                         "specialization": False, "aspect": 1}  # Athletics goes with HS
    assert chances(bo.odds) == enumerated(bo.request)  # two cards, the low one kept
    # Only where the record says so: the d10 pool has no such rule.
    pool = {row.name: row for row in party.rows(party_of_three, "pool", "Stealth", "2")}
    assert pool["Bo"].odds is None and not pool["Bo"].unskilled


def test_an_aspect_is_an_aspect_check(party_of_three):
    rows = {row.name: row for row in party.rows(party_of_three, "flip", "HS", "average")}
    assert rows["Mara"].request == {"system": "flip", "mode": "aspect", "aspect": 2,
                                    "difficulty": "average"}
    assert rows["Ana"].odds is None
    assert rows["Ana"].why == "Hard Strength is not on Ana’s card flip sheet."


@pytest.mark.parametrize(("system", "typed", "field"), [
    ("pool", "11", "dr"), ("pool", "", "dr"), ("pool", "four", "dr"), ("pool", "-1", "dr"),
    ("flip", "tricky", "difficulty"), ("flip", "101", "dtn"), ("flip", " ", "dtn"),
    ("fluke", "500", "base"), ("fluke", "", "base"),
])
def test_a_bad_difficulty_is_refused_naming_its_field(party_of_three, system, typed, field):
    with pytest.raises(InvalidRequest) as refused:
        party.rows(party_of_three, system, "Lockpicking", typed)
    assert refused.value.field == field


@pytest.mark.parametrize(("system", "typed", "asked"), [
    ("flip", "  Very   Hard ", {"difficulty": "very hard"}), ("flip", "15", {"dtn": 15}),
    ("pool", " 4 ", {"dr": 4}), ("swift", "anything", {}), ("fluke", "+7", {"base": 7}),
    ("passages", True, {"contested": True}), ("passages", "", {"contested": False}),
])
def test_the_gms_difficulty_as_each_system_takes_it(system, typed, asked):
    assert party.difficulty(system, typed) == asked


def test_each_box_starts_where_the_players_form_starts_and_is_named_as_it_is():
    assert {system: party.start(system) for system in skillcheck.SYSTEMS} == {
        "flip": "average", "pool": "4", "swift": "", "fluke": "10", "passages": ""}
    assert [party.is_switch(system) for system in skillcheck.SYSTEMS] == [
        False, False, False, False, True]
    assert party.box("swift") is None and party.box("pool").label == "DR"


def test_the_skills_offered_are_every_ticked_sheets_once(party_of_three):
    assert party.choices(party_of_three, "flip") == [
        ("Athletics", "Athletics"), ("Knowledge: History", "Knowledge: History"),
        ("AI", "Acquired Intellect (aspect)"), ("HS", "Hard Strength (aspect)"),
        ("SS", "Soft Strength (aspect)")]  # skills A to Z, then as first met
    assert party.choices(party_of_three, "fluke") == [("Sneak", "Sneak"),
                                                      ("Brawn", "Brawn (stat)")]
    assert party.choices(party_of_three[:1], "swift") == [("Lockpicking", "Lockpicking")]
    assert party.choices([], "pool") == []


def test_odds_are_worked_out_once_per_request_and_only_the_last_tables_kept(party_of_three):
    kept = party.Chances()
    party.rows(party_of_three, "pool", "Lockpicking", "2", kept)
    assert kept.worked == 3
    party.rows(party_of_three, "pool", "Lockpicking", "2", kept)  # drawn again: nothing new
    party.rows(party_of_three[::-1], "pool", "Lockpicking", "2", kept)
    assert kept.worked == 3
    party.rows(party_of_three, "pool", "Lockpicking", "3", kept)  # a new DR: each row anew
    assert kept.worked == 6
    assert len(kept.kept) == 3  # the DR 2 table's odds are gone
    party.rows(party_of_three, "flip", "Knowledge: History", "12", kept)
    party.rows(party_of_three, "flip", "Knowledge: History", "12", kept)
    assert kept.worked == 8  # a refusal is kept too (Mara's Familiarity)


# ---- the table as the GM's side draws it --------------------------------------------------------

class Buttons(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.buttons: list[dict] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "button":
            self.buttons.append(attrs)


def test_the_table_names_each_row_and_says_its_chance(party_of_three):
    rows = party.rows(party_of_three, "pool", "Lockpicking", "2")
    asked = party.difficulty("pool", "2")
    html = party_html.party_html(rows, "pool", "Lockpicking", asked)
    parsed = Buttons()
    parsed.feed(html)
    assert [b["aria-label"] for b in parsed.buttons] == [
        f"Roll for {row.name}: Lockpicking" for row in rows]
    assert all(set(b["aria-describedby"].split()) <= parsed.ids for b in parsed.buttons)
    assert "Lockpicking (d10 pool) vs DR 2" in html
    mara = next(row for row in rows if row.name == "Mara")
    said = re.search(r"<strong>([^<]+)</strong> <span>to succeed · ([^<]+)</span>", html)
    assert said.groups() == (f"{float(mara.alone) * 100:.1f} %",
                             f"{float(mara.success) * 100:.1f} % with Luck 3")
    assert html.count('class="outcome-bar"') == 3
    degrees = re.findall(r'<span class="party-degrees" id="party-\d-degrees">([^<]+)</span>',
                         html)  # every outcome's chance, in words, as the bar's label says it
    assert degrees == [shares_said("pool", row.bare) for row in rows]
    assert all("Basic Success " in said and "Failure " in said for said in degrees)


def test_player_text_is_escaped_and_a_row_that_cannot_roll_is_no_button():
    roster = Roster(MemoryStorage())
    roster.create("<b>Vex</b>", notes="", luck=0, xp=0, sheets={"pool": {
        "traits": {"Dexterity": 2}, "skills": {"<i>Pick</i>": {"trait": "Dexterity",
                                                               "score": 4, "bonus": 0}}}})
    roster.create("Nil", notes="", luck=0, xp=0, sheets={})
    rows = party.rows(roster.all(), "pool", "<i>Pick</i>", "1")
    html = party_html.party_html(rows, "pool", "<i>Pick</i>", {"dr": 1})
    assert "<b>" not in html and "<i>" not in html
    assert html.count("<button") == 1 and "not on Nil’s d10 pool sheet" in html


@pytest.mark.parametrize(("system", "skill", "asked", "words"), [
    ("flip", "HS", {"difficulty": "hard"}, "Hard Strength (Card flip) vs hard"),
    ("flip", "Athletics", {"dtn": 12}, "Athletics (Card flip) vs DTN 12"),
    ("swift", "Stealth", {}, "Stealth (Swift)"),
    ("fluke", "Sneak", {"base": 8}, "Sneak (d6 pool) vs Base 8"),
    ("passages", "Sneak", {"contested": True}, "Sneak (Passages), contested"),
    ("passages", "Sneak", {"contested": False}, "Sneak (Passages)"),
])
def test_the_caption_says_the_check(system, skill, asked, words):
    assert party_html.caption(system, skill, asked) == words


def test_a_tapped_row_fills_the_form_as_a_pick_from_the_sheet_would(party_of_three):
    mara = next(c for c in party_of_three if c["name"] == "Mara")
    row = next(row for row in party.rows(party_of_three, "flip", "Athletics", "9")
               if row.name == "Mara")
    assert character_form.form_values("flip", "unopposed", "Athletics", row.fields) == \
        character_form.form_values("flip", "unopposed", "Athletics",
                                   fill(mara, "flip", "Athletics"))
