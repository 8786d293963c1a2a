"""Luck chosen after the roll (d10 pool and Swift): the offers, and `luck_spend` replaying them.

Seed 002: "If a player has any + bonuses tied to the skill, they can use these to "help" achieve
successes ... The same applies if the player wants to spend any Luck Points on the roll." The
player looks at the dice, then decides; the engine lists what each spend would make of them.
"""

from __future__ import annotations

import pytest
from contract_checks import check_result
from hypothesis import given, settings
from hypothesis import strategies as st
from skillcheck import InvalidRequest, odds, resolve
from skillcheck.pool import DEGREES


def pool(**fields) -> dict:
    return {"system": "pool", **fields}


def swift(**fields) -> dict:
    return {"system": "swift", **fields}


def test_a_basic_pool_success_is_offered_more_luck_for_success_and_critical():
    # Skill 5, DR 2: 1 and 2 succeed naturally (IoS 1, basic); the 7 costs 2, the 9 costs 4.
    basic = resolve(pool(trait=4, skill=5, dr=2, luck=6, dice=[1, 2, 7, 9]))
    assert (basic["outcome"], basic["luck_used"]) == ("basic", 0)
    assert basic["luck_offers"] == [{"luck_spend": 2, "outcome": "success"},
                                    {"luck_spend": 6, "outcome": "critical"}]
    critical = resolve({**basic["request"], "luck_spend": 6})
    assert (critical["outcome"], critical["luck_used"], critical["successes"]) == (
        "critical", 6, 4)
    assert critical["dice"] == basic["dice"] and critical["luck_offers"] == []
    assert critical["request"]["luck_spend"] == 6
    check_result(critical, critical["request"])
    # Five points buy the 7 (2) but not the 9 as well (4 more): two are spent, three kept.
    five = resolve({**basic["request"], "luck_spend": 5})
    assert (five["outcome"], five["luck_used"]) == ("success", 2)
    assert "The player chose to spend 5 Luck after the roll; 2 of it could lower a die far " \
           "enough." in five["explain"]


def test_a_pool_disaster_is_offered_a_plain_failure():
    # "Disaster - the Increment of Success was a -3": 1 success of DR 4. Three Luck lower the 5
    # to the skill: IoS −2, a failure; the DR itself (14 points) is out of reach of 4 Luck.
    disaster = resolve(pool(trait=4, skill=2, dr=4, luck=4, dice=[1, 5, 6, 9]))
    assert (disaster["outcome"], disaster["luck_used"]) == ("disaster", 0)
    assert disaster["luck_offers"] == [{"luck_spend": 3, "outcome": "failure"}]
    failure = resolve({**disaster["request"], "luck_spend": 3})
    assert (failure["outcome"], failure["ios"], failure["luck_used"]) == ("failure", -2, 3)


def test_the_default_spends_luck_only_to_reach_the_dr_and_offers_success_and_critical():
    # Luck is spent by default only to meet the DR (barely); seeing the dice, the player may
    # buy more, and a success bought with points goes by its final IoS (ruled 2026-12-02).
    barely = resolve(pool(trait=4, skill=5, dr=2, luck=9, dice=[1, 6, 8, 9]))
    assert (barely["outcome"], barely["luck_used"]) == ("barely", 1)
    assert barely["luck_offers"] == [{"luck_spend": 4, "outcome": "success"},
                                     {"luck_spend": 8, "outcome": "critical"}]
    assert "luck_spend" not in barely["request"]
    assert resolve(pool(trait=4, skill=5, dr=2, dice=[1, 6, 8, 9]))["luck_offers"] == []
    critical = resolve({**barely["request"], "luck_spend": 8})
    assert (critical["outcome"], critical["ios"], critical["luck_used"]) == ("critical", 3, 8)
    check_result(critical, critical["request"])
    # The player may also keep their Luck: a stated spend of 0 spends none.
    kept = resolve({**barely["request"], "luck_spend": 0})
    assert (kept["outcome"], kept["luck_used"]) == ("failure", 0)
    assert kept["luck_offers"] == [{"luck_spend": 1, "outcome": "barely"},
                                   {"luck_spend": 4, "outcome": "success"},
                                   {"luck_spend": 8, "outcome": "critical"}]


def test_secret_flubbed_and_too_difficult_pools_offer_nothing():
    assert resolve(pool(trait=3, skill=5, secret=True, luck=5, dice=[9, 9, 9]))[
        "luck_offers"] == []
    flubbed = resolve(pool(trait=10, skill=10, dr=10, luck=50, dice=[10, 10, 10] + [1] * 7))
    assert (flubbed["outcome"], flubbed["luck_offers"]) == ("flubbed", [])
    assert resolve(pool(trait=2, skill=5, dr=3, luck=5))["luck_offers"] == []


def test_swift_offers_lower_the_roll_further():
    # "If the target is matched or rolled under, it is a success": 5 + 5 against 10 is IoS 1.
    basic = resolve(swift(trait=5, skill=5, luck=4, dice=[5, 5]))
    assert basic["luck_offers"] == [{"luck_spend": 1, "outcome": "success"},
                                    {"luck_spend": 2, "outcome": "critical"}]
    critical = resolve({**basic["request"], "luck_spend": 2})
    assert (critical["outcome"], critical["roll"], critical["luck_used"]) == ("critical", 8, 2)
    check_result(critical, critical["request"])
    disaster = resolve(swift(trait=5, skill=5, luck=3, dice=[7, 7]))
    assert (disaster["outcome"], disaster["luck_offers"]) == (
        "disaster", [{"luck_spend": 2, "outcome": "failure"}])
    # Luck that just reaches the target is barely; more buys Success and Critical (2026-12-02).
    barely = resolve(swift(trait=5, skill=5, luck=4, dice=[6, 6]))
    assert (barely["outcome"], barely["luck_used"]) == ("barely", 2)
    assert barely["luck_offers"] == [{"luck_spend": 3, "outcome": "success"},
                                     {"luck_spend": 4, "outcome": "critical"}]
    # No die goes below 1: Luck past a roll of 2 is not spent.
    low = resolve(swift(trait=1, skill=1, luck=9, luck_spend=9, dice=[2, 3]))
    assert (low["roll"], low["luck_used"]) == (2, 3)


@pytest.mark.parametrize("make", [pool, swift])
def test_luck_spend_is_checked_and_ignored_by_odds(make):
    fields = {"trait": 4, "skill": 5, "luck": 3} | ({"dr": 2} if make is pool else {})
    with pytest.raises(InvalidRequest, match=r"^luck_spend: must be at most luck \(3\)"):
        resolve(make(**fields, luck_spend=4))
    with pytest.raises(InvalidRequest, match="^luck_spend: "):
        resolve(make(**fields, luck_spend="2"))
    assert odds(make(**fields, luck_spend=3)) == odds(make(**fields))


def test_a_secret_pool_takes_its_luck_choice_after_the_reveal():
    with pytest.raises(InvalidRequest, match="^luck_spend: the DR is secret"):
        resolve(pool(trait=3, skill=5, secret=True, luck=2, luck_spend=1))


def _better(a: str, b: str) -> bool:
    return DEGREES.index(a) < DEGREES.index(b)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10).flatmap(lambda trait: st.tuples(
    st.just(trait), st.integers(1, 10), st.integers(1, trait), st.integers(0, 6),
    st.integers(0, 30), st.lists(st.integers(1, 10), min_size=trait, max_size=trait))))
def test_each_pool_offer_is_the_fewest_luck_that_reaches_a_better_degree(case):
    trait, skill, dr, bonus, luck, dice = case
    shown = resolve(pool(trait=trait, skill=skill, dr=dr, bonus=bonus, luck=luck, dice=dice))
    _check_offers(shown)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10), st.integers(1, 10), st.integers(0, 6), st.integers(0, 30),
       st.lists(st.integers(1, 10), min_size=2, max_size=2))
def test_each_swift_offer_is_the_fewest_luck_that_reaches_a_better_degree(trait, skill, bonus,
                                                                           luck, dice):
    _check_offers(resolve(swift(trait=trait, skill=skill, bonus=bonus, luck=luck, dice=dice)))


def _check_offers(shown: dict) -> None:
    """Each offer, replayed, gives its degree; one point fewer does not; the offers climb; no
    spend within the Luck reaches a degree better than the best offered."""
    if shown["outcome"] not in DEGREES:
        assert shown["luck_offers"] == []
        return
    luck = shown["request"]["luck"]
    reached = {n: resolve({**shown["request"], "luck_spend": n})["outcome"]
               for n in range(luck + 1)}
    best, expected = shown["outcome"], []
    for n, outcome in reached.items():
        if _better(outcome, best):
            best = outcome
            expected.append({"luck_spend": n, "outcome": outcome})
    assert shown["luck_offers"] == expected
    for offer in shown["luck_offers"]:
        again = resolve({**shown["request"], "luck_spend": offer["luck_spend"]})
        assert again["dice"] == shown["dice"] and again["luck_used"] <= offer["luck_spend"]
