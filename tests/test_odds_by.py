"""skillcheck.odds_by: the odds of one request with a point field at 0, 1, … most, which the
spend advisor shows — the same answers as that many calls of odds, however they are worked out
(the d10 pool's Luck in one pass over the rolls)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from skillcheck import InvalidRequest, odds, odds_by


def one_by_one(request: dict, field: str, most: int) -> list[dict]:
    return [odds({**request, field: n}) for n in range(most + 1)]


@settings(max_examples=150, deadline=None)
@given(trait=st.integers(1, 6), skill=st.integers(1, 10), dr=st.integers(1, 7),
       bonus=st.sampled_from([0, 1, 2, 3, 4, 6, 9, 15, 40]), luck=st.integers(0, 100),
       most=st.integers(0, 12))
def test_the_pools_luck_in_one_pass_is_odds_once_per_luck(trait, skill, dr, bonus, luck, most):
    request = {"system": "pool", "trait": trait, "skill": skill, "dr": dr, "bonus": bonus,
               "luck": luck}
    assert odds_by(request, "luck", most) == one_by_one(request, "luck", most)


@pytest.mark.parametrize("request_", [
    {"system": "pool", "trait": 10, "skill": 10, "dr": 4},  # flubs possible
    {"system": "pool", "trait": 10, "skill": 1, "dr": 9, "bonus": 30},
    {"system": "pool", "trait": 10, "skill": 4, "dr": 10, "bonus": 7},
    {"system": "pool", "trait": 3, "skill": 5, "dr": 4},  # too difficult
    {"system": "pool", "trait": 4, "skill": 5, "secret": True},
])
def test_the_heaviest_pools_and_their_edges(request_):
    assert odds_by(request_, "luck", 10) == one_by_one(request_, "luck", 10)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 12), plan=st.integers(-15, 15), challenge=st.booleans(),
       insurance=st.integers(0, 20), most=st.integers(0, 12))
def test_the_d6_pools_insurance_counted_once_is_odds_once_per_insurance(count, plan, challenge,
                                                                        insurance, most):
    request = {"system": "fluke", "dice_count": count, "plan": plan, "challenge": challenge,
               "insurance": insurance}
    assert odds_by(request, "insurance", most) == one_by_one(request, "insurance", most)


@pytest.mark.parametrize(("request_", "field"), [
    ({"system": "swift", "trait": 4, "skill": 3, "bonus": 2}, "luck"),
    ({"system": "fluke", "dice_count": 20, "plan": -30}, "insurance"),
    ({"system": "pool", "trait": 5, "skill": 6, "dr": 3, "luck": 2}, "bonus"),
])
def test_other_fields_are_odds_once_per_value(request_, field):
    assert odds_by(request_, field, 6) == one_by_one(request_, field, 6)


@pytest.mark.parametrize(("request_", "field", "most", "named"), [
    ({"system": "pool", "trait": 5, "skill": 6, "dr": 3}, "luck", 101, "luck"),
    ({"system": "pool", "trait": 5, "skill": 6, "dr": 3}, "luck", -1, "luck"),
    ({"system": "pool", "trait": 5, "skill": 6, "dr": 3}, "secret", 1, "secret"),
    ({"system": "pool", "trait": 5, "skill": 6, "dr": 3}, "nothing", 1, "nothing"),
    ({"system": "pool", "trait": 0, "skill": 6, "dr": 3}, "luck", 1, "trait"),
    ({"system": "fluke", "dice_count": 2, "dice": [1, 9]}, "insurance", 1, "dice"),
])
def test_a_bad_request_is_refused_naming_the_field(request_, field, most, named):
    with pytest.raises(InvalidRequest) as refused:
        odds_by(request_, field, most)
    assert str(refused.value).startswith(f"{named}:")
