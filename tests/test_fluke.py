"""Seed 003's d6 pool: the guard and the wizard, flukes, challenges, insurance, exact odds."""

from __future__ import annotations

import itertools
from functools import partial

import contract_checks as contract
import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st
from skillcheck import SYSTEMS, InvalidRequest, odds, resolve

fluke = partial(dict, system="fluke")  # fluke(dice_count=3) is a request


def reference(ones_rolled, above_one, count, target, challenge=False, insurance=0) -> str:
    """The contract's fluke rulings read plainly, from the ones rolled and the other dice's sum."""
    insured = min(ones_rolled, insurance)
    ones, total = ones_rolled - insured, above_one + insured
    if challenge:
        return "success" if ones == 0 and total >= 8 else "failure"
    if ones >= count / 2:
        return "fluke"
    return "success" if total > target else "failure"


def judge_roll(roll, target, challenge=False, insurance=0) -> str:
    return reference(roll.count(1), sum(d for d in roll if d > 1), len(roll), target, challenge,
                     insurance)


def test_the_guard():
    # "chooses a base of 10 with no penalties ... reduce the difficulty by 3 ... target number is 7"
    result = resolve(fluke(dice_count=3, base=10, penalty=0, plan=3, dice=[2, 3, 3]))
    assert (result["target"], result["total"], result["outcome"]) == (7, 8, "success")


def test_the_wizard_challenge():
    # "The player rolls his 2 intelligence dice and comes up with a 6 and a 4."
    result = resolve(fluke(dice_count=2, challenge=True, dice=[6, 4]))
    assert (result["target"], result["total"], result["outcome"]) == (8, 10, "success")


def test_total_must_be_greater_than_the_target():
    # "If the total is greater then the action is successful, if not the action fails."
    equal = resolve(fluke(dice_count=2, plan=3, dice=[3, 4]))
    assert (equal["total"], equal["target"], equal["outcome"]) == (7, 7, "failure")
    assert resolve(fluke(dice_count=2, plan=3, dice=[3, 5]))["outcome"] == "success"


def test_ones_are_left_out_of_the_total():
    result = resolve(fluke(dice_count=4, dice=[1, 6, 6, 5]))
    assert (result["ones"], result["total"], result["outcome"]) == (1, 17, "success")


@pytest.mark.parametrize(("dice", "outcome"), [
    ([1], "fluke"), ([1, 6], "fluke"), ([1, 6, 6], "success"), ([1, 1, 6], "fluke"),
    ([1, 1, 6, 6], "fluke"), ([1, 6, 6, 6], "success"), ([1, 1, 6, 6, 6], "success"),
])
def test_fluke_at_half_the_dice(dice, outcome):
    # "If at least half of the dice are ones, then the action is a fluke"
    assert resolve(fluke(dice_count=len(dice), base=0, dice=dice))["outcome"] == outcome


def test_insurance_with_no_ones_is_still_spent():
    # "After the skill test all the insurance is lost, even if it wasn't needed."
    result = resolve(fluke(dice_count=3, insurance=2, dice=[3, 4, 5]))
    assert (result["insured"], result["ones"], result["total"], result["xp_spent"]) == (0, 0, 12, 4)


def test_an_insured_one_adds_one_to_the_total():
    # "Any dice that are ignored also count toward the dice total."
    result = resolve(fluke(dice_count=2, base=6, insurance=1, dice=[1, 6]))
    assert (result["ones"], result["insured"], result["total"], result["outcome"]) == (
        0, 1, 7, "success")
    assert resolve(fluke(dice_count=2, base=6, dice=[1, 6]))["outcome"] == "fluke"


def test_insurance_covers_only_its_points():
    result = resolve(fluke(dice_count=4, insurance=1, dice=[1, 1, 1, 6]))
    assert (result["ones"], result["insured"], result["outcome"]) == (2, 1, "fluke")
    assert resolve(fluke(dice_count=4, insurance=2, dice=[1, 1, 1, 6]))["outcome"] == "failure"


@pytest.mark.parametrize(("dice", "insurance", "outcome"), [
    ([4, 4], 0, "success"), ([3, 4], 0, "failure"), ([1, 6, 6], 0, "failure"),
    ([1, 4, 3], 1, "success"), ([1, 1], 0, "failure"), ([1, 1], 2, "failure"),
])
def test_challenge(dice, insurance, outcome):
    # "If any ones are rolled or the total is less than 8, the action fails."
    request = fluke(dice_count=len(dice), base=-50, plan=20, challenge=True, insurance=insurance,
                    dice=dice)
    result = resolve(request)
    assert (result["target"], result["outcome"]) == (8, outcome)


def test_target_may_be_negative():
    result = resolve(fluke(dice_count=1, base=-100, penalty=-100, plan=100, dice=[2]))
    assert (result["target"], result["outcome"]) == (-300, "success")


def test_secret_is_not_allowed():
    with pytest.raises(InvalidRequest, match="^secret: "):
        odds(fluke(dice_count=2, secret=True))


@pytest.mark.parametrize(("field", "value"), [("dice_count", 0), ("dice_count", 21),
                                              ("base", 101), ("plan", -101), ("insurance", 21),
                                              ("penalty", 1.5), ("challenge", 1),
                                              ("dice", [1, 2, 7]), ("dice", [1, 2])])
def test_limits(field, value):
    with pytest.raises(InvalidRequest, match=f"^{field}: "):
        resolve({**fluke(dice_count=3), field: value})


def test_described_for_forms():
    described = SYSTEMS["fluke"]
    assert (described["label"], described["seed"]) == ("d6 pool", "003")
    assert [f["label"] for f in described["fields"]] == [
        "Dice count", "Base", "Penalty", "Plan", "Challenge", "Insurance"]


CASES = [(count, target, challenge, insurance)
         for count in (1, 2, 3, 5)
         for target in (-1, 4, 7, 12)
         for challenge in (False, True)
         for insurance in (0, 1, 3)]


@pytest.mark.parametrize(("count", "target", "challenge", "insurance"), CASES)
def test_odds_match_enumeration(count, target, challenge, insurance):
    request = fluke(dice_count=count, base=target, challenge=challenge, insurance=insurance)
    rolls = itertools.product(range(1, 7), repeat=count)
    expected = contract.tally(((1, roll) for roll in rolls),
                     lambda roll: judge_roll(roll, target, challenge, insurance))
    assert contract.check_odds(request) == expected


@pytest.fixture(scope="module")
def d6_tallies():
    """n → {(ones, sum of the other dice): ways}, from icepool's sums of vector-valued dice."""
    die = icepool.d6.map(lambda x: icepool.Vector((1, 0)) if x == 1 else icepool.Vector((0, x)))
    return {n: [(ways, tuple(v)) for v, ways in (n @ die).items()] for n in (8, 13, 20)}


@pytest.mark.parametrize(("count", "target", "challenge", "insurance"), [
    (20, 55, False, 4), (20, 70, False, 0), (13, 30, False, 2), (8, 8, True, 1), (20, 8, True, 20),
])
def test_big_pool_odds_match_icepool(d6_tallies, count, target, challenge, insurance):
    request = fluke(dice_count=count, base=target, challenge=challenge, insurance=insurance)
    expected = contract.tally(d6_tallies[count],
                     lambda v: reference(v[0], v[1], count, target, challenge, insurance))
    assert contract.check_odds(request) == expected


def test_frequencies_agree_with_odds():
    contract.check_frequencies(fluke(dice_count=4, base=10, penalty=2, plan=1, insurance=1))


def test_unseeded_d6s_are_fair():
    contract.check_fair_faces(fluke(dice_count=20), 6, 5_000)


def test_seeds_replay():
    contract.check_seeded(fluke(dice_count=5, plan=2, insurance=1))
    contract.check_seeded(fluke(dice_count=2, challenge=True))


@given(count=st.integers(1, 20), base=st.integers(-100, 100), penalty=st.integers(-100, 100),
       plan=st.integers(-100, 100), challenge=st.booleans(), insurance=st.integers(0, 20),
       data=st.data())
def test_any_valid_request_gives_a_checked_result(count, base, penalty, plan, challenge,
                                                  insurance, data):
    dice = data.draw(st.none() | st.lists(st.integers(1, 6), min_size=count, max_size=count))
    request = fluke(dice_count=count, base=base, penalty=penalty, plan=plan, challenge=challenge,
                    insurance=insurance, dice=dice)
    result = resolve(request)
    contract.check_result(result, request)
    target = 8 if challenge else base + penalty - plan
    assert result["target"] == target and result["xp_spent"] == 2 * insurance
    assert result["ones"] + result["insured"] == result["dice"].count(1)
    assert result["outcome"] == judge_roll(result["dice"], target, challenge, insurance)
