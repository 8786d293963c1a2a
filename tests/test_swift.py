"""Seed 002's Swift edition: 2d10 under Trait + Skill, the rulebook's example rolls, exact odds."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import partial

import contract_checks as contract
import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st
from skillcheck import SYSTEMS, InvalidRequest, odds, resolve

ROLLS = list(itertools.product(range(1, 11), repeat=2))
swift = partial(dict, system="swift")  # swift(trait=6, skill=8) is a request


def reference(dice, trait, skill, bonus=0, luck=0) -> dict:
    """The contract's Swift rulings read plainly, written apart from the engine to check it."""
    target, natural = trait + skill, sum(dice)
    bonus_used = min(bonus, natural - 2)
    roll = natural - bonus_used
    luck_used = roll - target if target < roll <= target + luck else 0
    roll -= luck_used
    ios = target - roll + 1 if roll <= target else target - roll
    if natural > target and ios == 1:  # points just met the target (ruled 2026-12-02)
        outcome = "barely"
    elif ios > 0:
        outcome = {1: "basic", 2: "success"}.get(ios, "critical")
    else:
        outcome = "disaster" if ios <= -3 else "failure"
    return {"outcome": outcome, "target": target, "natural_roll": natural, "roll": roll,
            "ios": ios, "bonus_used": bonus_used, "luck_used": luck_used}


# "Example Rolls": Trait, Skill, Target Roll, Success, IoS.
EXAMPLES = [(4, 4, 8, True, 2), (7, 5, 12, False, -2), (6, 8, 14, True, 4), (9, 6, 15, True, 1)]


@pytest.mark.parametrize(("trait", "skill", "target", "success", "ios"), EXAMPLES)
def test_example_rolls(trait, skill, target, success, ios):
    found = {}
    for dice in ROLLS:
        result = resolve(swift(trait=trait, skill=skill, dice=list(dice)))
        assert result["target"] == target
        if (result["success"], result["ios"]) == (success, ios):
            found[result["roll"]] = dice
    assert len(found) == 1  # each example row is exactly one 2d10 total


def test_matching_the_target_succeeds():
    # "If the target is matched or rolled under, it is a success."
    result = resolve(swift(trait=4, skill=4, dice=[3, 5]))
    assert (result["roll"], result["success"], result["ios"], result["outcome"]) == (
        8, True, 1, "basic")
    over = resolve(swift(trait=4, skill=4, dice=[4, 5]))
    assert (over["success"], over["ios"], over["outcome"]) == (False, -1, "failure")


def test_disaster_three_over():
    result = resolve(swift(trait=4, skill=4, dice=[5, 6]))
    assert (result["ios"], result["outcome"]) == (-3, "disaster")


def test_bonus_always_lowers_the_roll():
    result = resolve(swift(trait=5, skill=5, bonus=3, dice=[2, 4]))
    assert (result["natural_roll"], result["roll"], result["bonus_used"]) == (6, 3, 3)
    assert (result["ios"], result["outcome"]) == (8, "critical")


def test_no_die_goes_below_one():
    assert resolve(swift(trait=1, skill=1, bonus=5, dice=[1, 1]))["bonus_used"] == 0
    result = resolve(swift(trait=1, skill=1, bonus=5, dice=[1, 3]))
    assert (result["roll"], result["bonus_used"], result["outcome"]) == (2, 2, "barely")


# Target 8, natural roll 11: each point lowers the roll by one.
LADDER = [(0, -3, "disaster"), (1, -2, "failure"), (2, -1, "failure"), (3, 1, "barely"),
          (4, 2, "success"), (5, 3, "critical")]


@pytest.mark.parametrize(("points", "ios", "outcome"), LADDER)
def test_points_reach_every_degree(points, ios, outcome):
    # Barely only when the points just reach the target; past it, the final IoS (2026-12-02).
    by_bonus = resolve(swift(trait=4, skill=4, bonus=points, dice=[6, 5]))
    by_luck = resolve(swift(trait=4, skill=4, luck=5, luck_spend=points, dice=[6, 5]))
    assert (by_bonus["ios"], by_bonus["outcome"], by_bonus["bonus_used"]) == (ios, outcome, points)
    assert (by_luck["ios"], by_luck["outcome"], by_luck["luck_used"]) == (ios, outcome, points)


def test_luck_exactly_enough():
    result = resolve(swift(trait=4, skill=4, bonus=1, luck=2, dice=[6, 5]))
    assert (result["roll"], result["bonus_used"], result["luck_used"]) == (8, 1, 2)
    assert (result["ios"], result["outcome"]) == (1, "barely")


def test_luck_one_short_is_not_spent():
    result = resolve(swift(trait=4, skill=4, bonus=1, luck=1, dice=[6, 5]))
    assert (result["roll"], result["bonus_used"], result["luck_used"]) == (10, 1, 0)
    assert (result["ios"], result["outcome"]) == (-2, "failure")


def test_luck_not_needed_when_the_bonus_suffices():
    result = resolve(swift(trait=4, skill=4, bonus=3, luck=9, dice=[6, 5]))
    assert (result["roll"], result["luck_used"], result["outcome"]) == (8, 0, "barely")


def test_secret_is_not_allowed():
    with pytest.raises(InvalidRequest, match="^secret: "):
        resolve(swift(trait=4, skill=4, secret=True))
    with pytest.raises(InvalidRequest, match="^secret: "):
        odds(swift(trait=4, skill=4, secret=True))
    assert resolve(swift(trait=4, skill=4, secret=False, dice=[1, 1]))["success"]


@pytest.mark.parametrize("dice", [[1], [1, 2, 3], [0, 5], [11, 1], [1.0, 2], [True, 2], "12"])
def test_forced_dice_are_checked(dice):
    with pytest.raises(InvalidRequest, match="^dice: "):
        resolve(swift(trait=4, skill=4, dice=dice))


def test_described_for_forms():
    described = SYSTEMS["swift"]
    assert (described["label"], described["seed"]) == ("Swift", "002")
    assert [f["label"] for f in described["fields"]] == ["Trait", "Skill", "Bonus", "Luck"]


@pytest.mark.parametrize(("bonus", "luck"), [(0, 0), (1, 0), (0, 2), (2, 3), (100, 100)])
@pytest.mark.parametrize(("trait", "skill"), [(1, 1), (3, 6), (5, 5), (10, 10), (8, 2)])
def test_odds_match_enumeration(trait, skill, bonus, luck):
    request = swift(trait=trait, skill=skill, bonus=bonus, luck=luck)
    expected = contract.tally(((1, roll) for roll in ROLLS),
                     lambda roll: reference(roll, trait, skill, bonus, luck)["outcome"])
    assert contract.check_odds(request) == expected


@pytest.mark.parametrize("target", range(2, 21))
def test_success_without_points_is_icepool_sum(target):
    trait = min(target - 1, 10)
    answer = odds(swift(trait=trait, skill=target - trait))
    assert Fraction(answer["success"]) == Fraction((2 @ icepool.d10).probability("<=", target))


def test_frequencies_agree_with_odds():
    contract.check_frequencies(swift(trait=5, skill=5, bonus=1, luck=2))


def test_seeds_replay():
    contract.check_seeded(swift(trait=6, skill=3, bonus=1, luck=1))


@given(trait=st.integers(1, 10), skill=st.integers(1, 10), bonus=st.integers(0, 100),
       luck=st.integers(0, 100), dice=st.none() | st.lists(st.integers(1, 10), min_size=2,
                                                            max_size=2))
def test_any_valid_request_gives_a_checked_result(trait, skill, bonus, luck, dice):
    request = swift(trait=trait, skill=skill, bonus=bonus, luck=luck, dice=dice)
    result = resolve(request)
    contract.check_result(result, request)
    expected = reference(result["dice"], trait, skill, bonus, luck)
    assert {key: result[key] for key in expected} == expected


def test_enough_bonus_for_every_roll_makes_every_roll_critical():
    # Target 10: bonus 18 lowers even 10 + 10 to 2, IoS 9 — a Critical, not "barely".
    assert contract.check_odds(swift(trait=5, skill=5, bonus=18)) == {"critical": 1}
    # Bonus 9 leaves 20 at 11 (failure), 19 at 10 (IoS 1: barely), 18 at 9 (IoS 2: success).
    assert contract.check_odds(swift(trait=5, skill=5, bonus=9)) == {
        "critical": Fraction(94, 100), "success": Fraction(3, 100), "barely": Fraction(2, 100),
        "failure": Fraction(1, 100)}
