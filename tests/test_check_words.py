"""How a check is named and summed up for players: no engine field names, the character and
skill when known, Luck offered set apart from Luck spent."""

from __future__ import annotations

import random
import re

import pytest
import skillcheck
from app.check_words import kind_of, set_in, summary, system_name, title

REQUESTS = [
    {"system": "flip", "rank": 2, "aspect": 3, "difficulty": "average", "skill": "Athletics"},
    {"system": "flip", "mode": "aspect", "aspect": 3, "dtn": 16, "flip": 1, "shift": -1},
    {"system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 3},
     "opponent": {"rank": 4, "aspect": 1, "specialization": True}},
    {"system": "flip", "mode": "team", "difficulty": "hard", "primary": {"rank": 2, "aspect": 3},
     "secondaries": [{"rank": 1, "aspect": 1}, {"rank": 2, "aspect": 0}]},
    {"system": "pool", "trait": 6, "skill": 5, "dr": 2, "bonus": 1, "luck": 3},
    {"system": "pool", "trait": 6, "skill": 5, "secret": True},
    {"system": "swift", "trait": 5, "skill": 6, "luck": 2},
    {"system": "fluke", "dice_count": 3, "penalty": 2, "plan": 1, "insurance": 1},
    {"system": "passages", "base": 40, "contested": True},
]
ENGINE_NAMES = re.compile(r"\b(dice_count|dtn|dr|mode|initiator \(|secondaries|take7|luck_used|"
                          r"gm_\w+|difficulty average)\b")


@pytest.mark.parametrize("request_", REQUESTS)
def test_a_summary_uses_the_players_words_never_the_engines_field_names(request_):
    result = skillcheck.resolve(request_, random.Random(3))
    said = summary(result["request"], result)
    assert said and not ENGINE_NAMES.search(said), said
    assert "_" not in said


@pytest.mark.parametrize(("request_", "said"), [
    (REQUESTS[0], "rank 2, aspect 3 vs DTN 12"),
    (REQUESTS[1], "aspect 3, flip +1, shift -1 vs DTN 16"),
    (REQUESTS[2], "Initiator rank 2, aspect 3 vs Opponent rank 4, aspect 1, specialization"),
    (REQUESTS[3], "Primary rank 2, aspect 3, 2 helpers vs DTN 15"),
    (REQUESTS[7], "3 dice, Penalty +2, Plan +1, Insurance 1"),
    (REQUESTS[8], "Base 40, contested"),
])
def test_each_system_sums_up_in_a_line(request_, said):
    assert summary(skillcheck.resolve(request_, random.Random(1))["request"]) == said


@pytest.mark.parametrize(("values", "said"), [
    ({"flip": 0, "shift": 0, "specialization": False, "advanced": False, "take7": False}, ""),
    ({"flip": 1, "shift": 0, "take7": True}, "flip +1, takes a 7"),
    ({"flip": 0, "shift": -1, "specialization": True, "cards": ["7H"]},
     "shift -1, specialization, own cards"),
])
def test_a_folded_side_says_what_is_set_in_it(values, said):
    assert set_in("flip", values) == said


def test_luck_offered_is_told_apart_from_luck_spent():
    result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 3,
                                 "dice": [8, 8, 9, 1, 2]})
    assert result["luck_used"] == 1
    assert summary(result["request"], result) == "Trait 5, Skill 7, DR 3, Luck 3 offered (1 spent)"
    assert summary(result["request"]) == "Trait 5, Skill 7, DR 3, Luck 3"


def test_a_title_names_the_character_the_skill_and_the_system():
    pool = {"system": "pool", "trait": 5, "skill": 7, "dr": 3}
    assert title(pool) == "d10 pool"
    assert title(pool, "Mara", "Stealth") == "Mara · Stealth (d10 pool)"
    assert title(pool, "Mara") == "Mara (d10 pool)"
    assert title(REQUESTS[0]) == "Athletics (Card flip)"  # a flip names its seed skill
    assert title(REQUESTS[0], "Mara", "Athletics") == "Mara · Athletics (Card flip)"
    assert title(REQUESTS[2]) == "Card flip, opposed"
    assert kind_of("flip", "unopposed") == "Card flip"
    assert system_name("nonsense") == "nonsense"
