"""Seed 000's skill list as data: every row of the text, and what the engine makes of it."""

import pytest
from skillcheck import SYSTEMS, InvalidRequest, resolve
from skillcheck.skills import ASPECT_NAMES, ASPECTS, BY_NAME, SKILLS

# The rows of the seed's "Skill List" table: name, aspect, type.
TABLE = """
Acrobatics SS Basic | Animal Handling MC Advanced | Appraisal SP Basic | Assessment MC Basic
Athletics HS Basic | Craft AI Advanced | Discipline IE Basic | Disguise PC Advanced
Dueling SS Advanced | First Aid AI Basic | Intimidation PC Basic | Investigation AI Advanced
Knowledge AI Advanced | Language AI Advanced | Notice [IP] IP Basic | Notice [SP] SP Basic
Perform MC Basic | Persuasion MC Basic | Profession AI Advanced | Ride SS Basic
Stealth SS Basic | Survival AI Basic | Thievery SS Advanced
"""
ROWS = [row.strip().rsplit(" ", 2) for row in TABLE.replace("\n", " | ").split("|")
        if row.strip()]


def test_every_row_of_the_table_is_there_in_order():
    assert [(s.name, s.aspect, "Advanced" if s.advanced else "Basic") for s in SKILLS] == [
        tuple(row) for row in ROWS]
    assert len(SKILLS) == 23 == len(BY_NAME)


def test_notice_is_two_skills_on_two_aspects():
    assert BY_NAME["Notice [IP]"].aspect == "IP"
    assert BY_NAME["Notice [SP]"].aspect == "SP"
    assert "Notice" not in BY_NAME


def test_the_advanced_skills_the_text_names_are_advanced():
    # "Craft, Knowledge, and Profession are Advanced Skills that require ... a specific sub-type"
    for name in ("Craft", "Knowledge", "Profession"):
        assert BY_NAME[name].advanced and BY_NAME[name].by_type
        assert BY_NAME[name].specializations == ()
    assert not any(s.by_type for s in SKILLS if s.name not in ("Craft", "Knowledge", "Profession"))


def test_every_skill_is_tied_to_one_of_the_nine_aspects():
    assert len(set(ASPECTS)) == 9 and set(ASPECT_NAMES) <= set(ASPECTS)
    assert {s.aspect for s in SKILLS} <= set(ASPECTS)  # II, Innate Intelligence, ties no skill


def test_only_the_aspects_the_text_spells_out_have_full_names():
    names = {s.aspect: s.aspect_name for s in SKILLS}
    assert names == {"HS": "Hard Strength", "SS": "Soft Strength", "AI": "Acquired Intellect",
                     "SP": None, "MC": None, "IP": None, "IE": None, "PC": None}


def test_specializations_as_the_text_lists_them():
    assert BY_NAME["Athletics"].specializations == (
        "Climbing", "Swimming", "Jumping", "Running", "Lifting", "Individual Sport")
    assert BY_NAME["Thievery"].specializations[-1] == "Gambling"
    assert BY_NAME["Ride"].specializations[1] == "Stagecoach/Wagons"
    assert all(s.specializations for s in SKILLS if not s.by_type)


def test_the_page_gets_the_list_to_build_its_picker():
    listed = SYSTEMS["flip"]["skills"]
    assert [entry["name"] for entry in listed] == [s.name for s in SKILLS]
    assert next(entry for entry in listed if entry["name"] == "Knowledge") == {
        "name": "Knowledge", "aspect": "AI", "aspect_name": "Acquired Intellect",
        "type": "Advanced", "specializations": [], "by_type": True}
    skill_field = next(f for f in SYSTEMS["flip"]["fields"] if f["name"] == "skill")
    assert skill_field["options"] == [s.name for s in SKILLS]


@pytest.mark.parametrize("skill", [s for s in SKILLS if s.advanced], ids=lambda s: s.name)
def test_an_advanced_skill_at_rank_0_needs_a_familiarity(skill):
    request = {"system": "flip", "skill": skill.name, "rank": 0, "aspect": 2, "dtn": 9}
    with pytest.raises(InvalidRequest, match="^rank: an Advanced skill at rank 0 needs a Fam"):
        resolve(request)
    result = resolve({**request, "familiarity": True, "seed": 1})
    assert len(result["cards"]) == 2 and result["keep_low"]


@pytest.mark.parametrize("skill", [s for s in SKILLS if not s.advanced], ids=lambda s: s.name)
def test_a_basic_skill_at_rank_0_flips_unskilled(skill):
    # "0  Unskilled (for Basic Skills) ... A character can try it".
    result = resolve({"system": "flip", "skill": skill.name, "rank": 0, "aspect": 2, "dtn": 9,
                      "seed": 1})
    assert len(result["cards"]) == 2 and result["keep_low"]


@pytest.mark.parametrize("name", ["Knowledge: History", "notice", "Notice", "", 3, ["Ride"]])
def test_an_unknown_skill_is_refused_on_its_field(name):
    with pytest.raises(InvalidRequest, match="^skill: must be one of Acrobatics, "):
        resolve({"system": "flip", "skill": name, "rank": 1, "aspect": 2, "dtn": 9})
    with pytest.raises(InvalidRequest, match="^secondaries.0.skill: "):
        resolve({"system": "flip", "mode": "team", "dtn": 9, "primary": {"rank": 1, "aspect": 1},
                 "secondaries": [{"skill": name, "rank": 1, "aspect": 2}]})
