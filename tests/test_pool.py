"""Seed 002's d10 pool: the rulebook's lockpicking table, every ruling's edge, exact odds."""

from __future__ import annotations

import itertools
import time
from fractions import Fraction
from functools import partial

import contract_checks as contract
import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from skillcheck import SYSTEMS, InvalidRequest, odds, resolve

pool = partial(dict, system="pool")  # pool(trait=5, skill=7, dr=3) is a request


def reference(dice, skill, dr, bonus=0, luck=0) -> dict:
    """The contract's pool rulings read plainly, written apart from the engine to check it."""
    natural = sum(face <= skill for face in dice)
    costs = sorted(face - skill for face in dice if face > skill)

    def cost(n):  # the cheapest n failing dice made to succeed
        return sum(costs[:n])

    by_bonus = max(n for n in range(len(costs) + 1) if cost(n) <= bonus)
    bought, luck_used = by_bonus, 0
    if dr is not None and natural + by_bonus < dr and cost(dr - natural) <= bonus + luck:
        bought, luck_used = dr - natural, cost(dr - natural) - bonus
    successes = natural + bought
    judged = {"natural_successes": natural, "successes": successes,
              "bonus_used": cost(bought) - luck_used, "luck_used": luck_used}
    if dr is None:
        return {"outcome": "secret", **judged, "ios": None}
    ios = successes - dr + 1 if successes >= dr else successes - dr
    if len(dice) == 10 and skill == 10 and dice.count(10) >= 3:
        outcome = "flubbed"
    elif natural < dr and ios == 1:  # points just met the DR (ruled 2026-12-02)
        outcome = "barely"
    elif ios > 0:
        outcome = {1: "basic", 2: "success"}.get(ios, "critical")
    else:
        outcome = "disaster" if ios <= -3 else "failure"
    return {"outcome": outcome, **judged, "ios": ios}


# The rulebook's example: "pick a lock that has a difficulty of 4 ... 7 or under in accordance with
# the Lockpicking Skill", Dexterity 1 to 10: (Dexterity, success, IoS); None is "n/a".
LOCKPICKING = [(1, False, None), (2, False, None), (3, False, None), (4, False, -1),
               (5, True, 1), (6, True, 1), (7, True, 2), (8, False, -1), (9, True, 2),
               (10, True, 3)]


def lock_dice(dexterity: int, successes: int) -> list[int]:
    """A roll with exactly `successes` dice of 7 or under."""
    good = itertools.cycle([3, 7, 1, 5])
    bad = itertools.cycle([8, 10, 9])
    return [next(good) if i < successes else next(bad) for i in range(dexterity)]


@pytest.mark.parametrize(("dexterity", "success", "ios"), LOCKPICKING)
def test_lockpicking_table(dexterity, success, ios):
    request = pool(trait=dexterity, skill=7, dr=4)
    if ios is None:
        result = resolve(request)
        assert result["outcome"] == "too difficult" and result["dice"] == []
        assert result["ios"] is None
        return
    matches = []
    for successes in range(dexterity + 1):
        result = resolve({**request, "dice": lock_dice(dexterity, successes)})
        assert result["natural_successes"] == result["successes"] == successes
        if (result["success"], result["ios"]) == (success, ios):
            matches.append(successes)
    assert len(matches) == 1  # each row of the table is exactly one number of successes


def test_ios_counts_from_meeting_the_dr():
    # "Meeting the DR exact is an IoS of 1. Rolling 5 successes for a DR of 4 gives you an IoS of 2"
    assert resolve(pool(trait=5, skill=7, dr=4, dice=[1, 2, 3, 4, 9]))["ios"] == 1
    assert resolve(pool(trait=5, skill=7, dr=4, dice=[1, 2, 3, 4, 5]))["ios"] == 2


@pytest.mark.parametrize(("dice", "outcome", "ios"), [
    ([1, 1, 1, 1, 1, 1], "critical", 4),
    ([1, 1, 1, 1, 1, 9], "critical", 3),
    ([1, 1, 1, 1, 9, 9], "success", 2),
    ([1, 1, 1, 9, 9, 9], "basic", 1),
    ([1, 1, 9, 9, 9, 9], "failure", -1),
    ([1, 9, 9, 9, 9, 9], "failure", -2),
    ([9, 9, 9, 9, 9, 9], "disaster", -3),
])
def test_degrees_by_ios(dice, outcome, ios):
    result = resolve(pool(trait=6, skill=5, dr=3, dice=dice))
    assert (result["outcome"], result["ios"], result["success"]) == (outcome, ios, ios > 0)


def test_bonus_lowers_the_cheapest_failing_dice_first():
    # "a +3 bonus would allow a player to change 1 die by three increments, or they can break it up"
    result = resolve(pool(trait=4, skill=5, dr=2, bonus=3, dice=[9, 6, 7, 1]))
    assert result["adjusted"] == [9, 5, 5, 1]
    # One natural success of DR 2: the points buy past the DR, so the final IoS 2 names it.
    assert (result["bonus_used"], result["successes"], result["outcome"]) == (3, 3, "success")


def test_bonus_leftover_is_not_spent():
    result = resolve(pool(trait=4, skill=5, dr=2, bonus=4, luck=10, dice=[2, 7, 8, 9]))
    assert result["adjusted"] == [2, 5, 8, 9]  # 2 points on the 7; the 8 would need 3 more
    assert (result["bonus_used"], result["luck_used"], result["outcome"]) == (2, 0, "barely")


def test_bonus_too_small_for_any_die():
    result = resolve(pool(trait=3, skill=5, dr=1, bonus=1, dice=[1, 7, 9]))
    assert (result["bonus_used"], result["adjusted"], result["outcome"]) == (0, [1, 7, 9], "basic")
    assert "Bonus 1 is too little to turn a die into a success." in result["explain"]


def test_a_bonus_with_every_die_a_success_is_said_not_needed():
    result = resolve(pool(trait=3, skill=5, dr=1, bonus=1, dice=[1, 2, 5]))
    assert result["bonus_used"] == 0
    assert "Bonus 1 is not needed: every die is a success already." in result["explain"]
    assert not any("too little" in line for line in result["explain"])


# Skill 5, DR 4, one natural success and five 6s (one point each): each point buys a success.
LADDER = [(0, -3, "disaster"), (1, -2, "failure"), (2, -1, "failure"), (3, 1, "barely"),
          (4, 2, "success"), (5, 3, "critical")]


@pytest.mark.parametrize(("points", "ios", "outcome"), LADDER)
def test_points_reach_every_degree(points, ios, outcome):
    # "Barely Succeeding - the number of success dice does not meet the task's difficulty rating
    # unless bonus points are used" — only when the points just meet the DR; points that buy
    # more go by the final IoS (ruled 2026-12-02), bonus and Luck chosen after the roll alike.
    dice = [1, 6, 6, 6, 6, 6]
    by_bonus = resolve(pool(trait=6, skill=5, dr=4, bonus=points, dice=dice))
    by_luck = resolve(pool(trait=6, skill=5, dr=4, luck=5, luck_spend=points, dice=dice))
    assert (by_bonus["ios"], by_bonus["outcome"], by_bonus["bonus_used"]) == (ios, outcome, points)
    assert (by_luck["ios"], by_luck["outcome"], by_luck["luck_used"]) == (ios, outcome, points)
    assert by_bonus["natural_successes"] == by_luck["natural_successes"] == 1


def test_bonus_beyond_the_dr_raises_the_ios_without_barely():
    result = resolve(pool(trait=4, skill=5, dr=2, bonus=1, dice=[1, 2, 6, 9]))
    assert (result["successes"], result["ios"], result["outcome"]) == (3, 2, "success")


def test_luck_exactly_enough():
    result = resolve(pool(trait=4, skill=5, dr=3, bonus=2, luck=3, dice=[2, 7, 8, 9]))
    assert result["adjusted"] == [2, 5, 5, 9]
    assert (result["bonus_used"], result["luck_used"]) == (2, 3)
    assert (result["successes"], result["ios"], result["outcome"]) == (3, 1, "barely")


def test_luck_one_short_is_not_spent():
    result = resolve(pool(trait=4, skill=5, dr=3, bonus=2, luck=2, dice=[2, 7, 8, 9]))
    assert result["adjusted"] == [2, 5, 8, 9]
    assert (result["bonus_used"], result["luck_used"]) == (2, 0)
    assert (result["successes"], result["ios"], result["outcome"]) == (2, -1, "failure")


def test_luck_stops_at_the_dr():
    result = resolve(pool(trait=4, skill=5, dr=2, bonus=0, luck=50, dice=[7, 8, 9, 10]))
    assert (result["successes"], result["luck_used"], result["adjusted"]) == (2, 5, [5, 5, 9, 10])


def test_luck_not_needed_when_the_bonus_suffices():
    result = resolve(pool(trait=3, skill=5, dr=2, bonus=5, luck=5, dice=[1, 6, 9]))
    assert (result["bonus_used"], result["luck_used"], result["successes"]) == (5, 0, 3)


def test_flubbed_comes_first():
    # "if that player rolls 3 or more 10s on the dice, the attempt was flubbed, or fumbled."
    dice = [10, 10, 10, 1, 2, 3, 4, 5, 6, 7]
    result = resolve(pool(trait=10, skill=10, dr=1, dice=dice))
    assert (result["outcome"], result["success"], result["successes"]) == ("flubbed", False, 10)
    two_tens = resolve(pool(trait=10, skill=10, dr=1, dice=[10, 10, 1, 1, 2, 3, 4, 5, 6, 7]))
    assert two_tens["outcome"] == "critical"
    not_both_ten = resolve(pool(trait=10, skill=9, dr=1, dice=dice))
    assert not_both_ten["outcome"] == "critical"


def test_too_difficult_takes_no_dice():
    result = resolve(pool(trait=3, skill=7, dr=4, dice=[]))
    assert (result["outcome"], result["dice"], result["adjusted"], result["ios"]) == (
        "too difficult", [], [], None)
    contract.check_result(result, pool(trait=3, skill=7, dr=4))
    with pytest.raises(InvalidRequest, match="^dice: "):
        resolve(pool(trait=3, skill=7, dr=4, dice=[1, 2, 3]))
    with pytest.raises(InvalidRequest, match="^dice: "):
        resolve(pool(trait=4, skill=7, dr=4, dice=[]))
    assert odds(pool(trait=3, skill=7, dr=4)) == {"outcomes": {"too difficult": "1"},
                                                  "success": "0"}


def test_missing_dr_is_invalid_unless_secret():
    with pytest.raises(InvalidRequest, match="^dr: "):
        resolve(pool(trait=3, skill=7))
    with pytest.raises(InvalidRequest, match="^secret: "):
        resolve(pool(trait=3, skill=7, secret="yes"))


def test_secret_dr_spends_bonus_but_no_luck_and_the_gm_reveals():
    request = pool(trait=4, skill=5, bonus=2, luck=9, secret=True, dice=[2, 7, 8, 9])
    secret = resolve(request)
    assert (secret["outcome"], secret["success"], secret["ios"]) == ("secret", None, None)
    assert (secret["successes"], secret["bonus_used"], secret["luck_used"]) == (2, 2, 0)
    contract.check_result(secret, request)
    revealed = resolve({**secret["request"], "dr": 3})
    assert revealed["dice"] == secret["dice"]
    assert (revealed["outcome"], revealed["luck_used"], revealed["successes"]) == ("barely", 3, 3)
    assert revealed == resolve({**request, "dr": 3})


def test_a_secret_roll_revealed_above_the_trait_is_too_difficult_and_keeps_its_dice():
    # Lockpicking table: Dexterity 1-3 against a difficulty of 4 — "task is too difficult"; the
    # GM kept the DR secret ("sometimes the Gamemaster may opt to keep this a secret"), so the
    # dice were rolled already: the reveal keeps them and judges nothing.
    secret = resolve(pool(trait=3, skill=7, bonus=1, luck=2, secret=True, dice=[1, 2, 9]))
    revealed = resolve({**secret["request"], "dr": 4})
    assert (revealed["outcome"], revealed["success"], revealed["ios"]) == (
        "too difficult", False, None)
    assert revealed["dice"] == revealed["request"]["dice"] == [1, 2, 9]
    assert (revealed["successes"], revealed["bonus_used"], revealed["luck_used"]) == (0, 0, 0)
    assert resolve(revealed["request"]) == revealed
    contract.check_result(revealed, revealed["request"])
    assert resolve(pool(trait=3, skill=7, secret=True, dr=4))["dice"] == []
    with pytest.raises(InvalidRequest, match="^dice: "):
        resolve(pool(trait=3, skill=7, secret=True, dr=4, dice=[1, 2]))


def test_secret_odds_give_the_successes():
    answer = odds(pool(trait=2, skill=5, bonus=1, luck=7, secret=True))
    assert answer["outcomes"] == {"secret": "1"}
    assert answer["success"] is None
    totals = {int(k): Fraction(p) for k, p in answer["totals"].items()}
    rolls = itertools.product(range(1, 11), repeat=2)
    assert totals == contract.tally(((1, r) for r in rolls),
                           lambda r: reference(r, 5, None, bonus=1)["successes"])


def test_described_for_forms():
    described = SYSTEMS["pool"]
    assert (described["label"], described["seed"], described["button"]) == ("d10 pool", "002",
                                                                             "Roll")
    labels = {f["name"]: f["label"] for f in described["fields"]}
    assert labels["trait"] == "Trait" and labels["skill"] == "Skill" and labels["dr"] == "DR"
    assert labels["bonus"] == "Bonus" and labels["luck"] == "Luck"


# Exact odds against plain enumeration of every roll, each judged by `reference`.
SMALL = [(trait, skill, dr, bonus, luck)
         for trait in (1, 2, 3)
         for skill in (1, 4, 9, 10)
         for dr in range(1, trait + 1)
         for bonus, luck in ((0, 0), (2, 0), (0, 3), (3, 4), (9, 9))]


def enumerated(trait, skill, dr, bonus, luck):
    rolls = itertools.product(range(1, 11), repeat=trait)
    return contract.tally(((1, roll) for roll in rolls),
                 lambda roll: reference(roll, skill, dr, bonus, luck)["outcome"])


@pytest.mark.parametrize(("trait", "skill", "dr", "bonus", "luck"), SMALL)
def test_odds_match_enumeration(trait, skill, dr, bonus, luck):
    request = pool(trait=trait, skill=skill, dr=dr, bonus=bonus, luck=luck)
    assert contract.check_odds(request) == enumerated(trait, skill, dr, bonus, luck)


@pytest.mark.parametrize(("skill", "dr", "bonus", "luck"), [(4, 3, 3, 5), (6, 4, 1, 2),
                                                            (2, 2, 7, 0), (8, 4, 0, 1)])
def test_odds_match_enumeration_of_four_dice(skill, dr, bonus, luck):
    request = pool(trait=4, skill=skill, dr=dr, bonus=bonus, luck=luck)
    assert contract.check_odds(request) == enumerated(4, skill, dr, bonus, luck)


@settings(max_examples=60, deadline=None)
@given(trait=st.integers(1, 3), skill=st.integers(1, 10), dr=st.integers(1, 3),
       bonus=st.integers(0, 30), luck=st.integers(0, 30))
def test_any_small_pool_odds_match_enumeration(trait, skill, dr, bonus, luck):
    request = pool(trait=trait, skill=skill, dr=dr, bonus=bonus, luck=luck)
    expected = ({"too difficult": 1} if trait < dr else
                enumerated(trait, skill, dr, bonus, luck))
    assert contract.check_odds(request) == expected


def test_forced_dice_and_seed_are_ignored_by_odds():
    request = pool(trait=3, skill=4, dr=2, bonus=1)
    assert odds({**request, "dice": [1, 1, 1], "seed": 5}) == odds(request)


@pytest.fixture(scope="module")
def ten_d10():
    """(number of orderings, roll) for every multiset of 10d10, from icepool."""
    return [(ways, roll) for roll, ways in icepool.d10.pool(10).expand().items()]


@pytest.mark.parametrize(("skill", "dr", "bonus", "luck"), [
    (10, 7, 0, 0), (6, 7, 4, 3), (3, 5, 9, 12), (1, 2, 20, 30), (5, 10, 10, 10), (8, 3, 2, 0),
])
def test_ten_dice_odds_match_icepool(ten_d10, skill, dr, bonus, luck):
    request = pool(trait=10, skill=skill, dr=dr, bonus=bonus, luck=luck)
    expected = contract.tally(ten_d10,
                              lambda roll: reference(roll, skill, dr, bonus, luck)["outcome"])
    assert contract.check_odds(request) == expected


@pytest.mark.parametrize(("trait", "skill", "dr"), [(1, 1, 1), (5, 3, 2), (7, 7, 4), (10, 5, 9)])
def test_success_without_points_is_icepool_count(trait, skill, dr):
    successes = trait @ (icepool.d10 <= skill)
    assert Fraction(odds(pool(trait=trait, skill=skill, dr=dr))["success"]) == Fraction(
        successes.probability(">=", dr))


def test_flubbed_chance_is_icepool_count_of_tens():
    tens = 10 @ (icepool.d10 == 10)
    answer = odds(pool(trait=10, skill=10, dr=5))
    assert Fraction(answer["outcomes"]["flubbed"]) == Fraction(tens.probability(">=", 3))
    assert Fraction(answer["success"]) == 1 - Fraction(answer["outcomes"]["flubbed"])


def test_frequencies_agree_with_odds():
    contract.check_frequencies(pool(trait=6, skill=6, dr=3, bonus=2, luck=3))


def test_secret_frequencies_agree_with_totals():
    request = pool(trait=5, skill=4, bonus=3, secret=True)
    totals = {int(k): Fraction(p) for k, p in odds(request)["totals"].items()}
    contract.check_frequencies(request, totals, lambda result: result["successes"], runs=20_000)


def test_unseeded_d10s_are_fair():
    contract.check_fair_faces(pool(trait=10, skill=5, dr=5), 10, 10_000)


def test_seeds_replay():
    contract.check_seeded(pool(trait=7, skill=5, dr=3, bonus=2, luck=2))
    contract.check_seeded(pool(trait=7, skill=5, secret=True))
    assert resolve(pool(trait=7, skill=5, dr=3, seed=1)) != resolve(pool(trait=7, skill=5, dr=3,
                                                                          seed=2))


def test_heaviest_odds_are_fast():
    """Trait 10 with bonus 100 and luck 100 must answer well under 50 ms (CPython)."""
    for skill in range(1, 11):
        for dr in range(1, 11):
            start = time.perf_counter()
            odds(pool(trait=10, skill=skill, dr=dr, bonus=100, luck=100))
            assert time.perf_counter() - start < 0.05


@st.composite
def pool_requests(draw):
    trait = draw(st.integers(1, 10))
    request = pool(trait=trait, skill=draw(st.integers(1, 10)), bonus=draw(st.integers(0, 100)),
                   luck=draw(st.integers(0, 100)))
    if draw(st.booleans()):
        request["dr"] = draw(st.integers(1, 10))
    else:
        request["secret"] = True
    if trait >= request.get("dr", 0):
        request["dice"] = draw(st.lists(st.integers(1, 10), min_size=trait, max_size=trait))
    return request


@given(pool_requests())
def test_any_valid_request_gives_a_checked_result(request):
    result = resolve(request)
    contract.check_result(result, request)
    if result["outcome"] != "too difficult":
        expected = reference(request["dice"], request["skill"], request.get("dr"),
                             request["bonus"], request["luck"])
        assert {key: result[key] for key in expected} == expected
        pairs = zip(result["adjusted"], result["dice"], strict=True)
        assert all(low <= high for low, high in pairs)
        assert sum(result["dice"]) - sum(result["adjusted"]) == (result["bonus_used"]
                                                                + result["luck_used"])


def test_enough_bonus_for_every_die_makes_every_roll_critical():
    # Skill 1, DR 1: three dice, none dearer than 9 points, so bonus 27 buys all three — IoS 3,
    # a Critical however many succeeded naturally (a roll of no natural success was "barely").
    assert contract.check_odds(pool(trait=3, skill=1, dr=1, bonus=27)) == {"critical": 1}
    # One point less leaves only 10 10 10 a die short: the bonus buys two, IoS 2.
    assert contract.check_odds(pool(trait=3, skill=1, dr=1, bonus=26)) == {
        "critical": Fraction(999, 1000), "success": Fraction(1, 1000)}
