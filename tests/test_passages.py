"""Seed 004's Passages: the rulebook's base-26 and lock-picking examples, band edges, exact odds."""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import contract_checks as contract
import pytest
from hypothesis import given
from hypothesis import strategies as st
from skillcheck import SYSTEMS, InvalidRequest, odds, resolve

passages = partial(dict, system="passages")  # passages(base=50) is a request


def reference(roll: int, value: int) -> str:
    """The contract's Passages bands read plainly."""
    if roll == 100:
        return "critical fail"
    if roll > 2 * value:
        return "blown"
    if roll > value:
        return "double up"
    return "success" if 2 * roll > value else "double down"  # roll > ⌊value / 2⌋


def test_base_26_bands():
    # "you determine the DU (Double Up) to be 52 and the Double Down (DD) to be 13"
    result = resolve(passages(base=26, dice=[50]))
    assert (result["value"], result["du"], result["dd"]) == (26, 52, 13)


@pytest.mark.parametrize(("roll", "outcome"), [
    # "a roll of 54 would Fail, a roll of 43 would be a DU Success, a roll of 25 would be a
    # Success, and a roll of 13 would be a DD Success." — and double-ought is a Critical Failure.
    (100, "critical fail"), (54, "blown"), (43, "double up"), (25, "success"), (13, "double down"),
    # "Any other roll above 52 is a BLOWN ROLL ... above 26 and up to 52 ... a Double Up Success.
    # From 26 down to 14, the die roll would be a Skills Success, and 13 or below ... Double Down"
    (53, "blown"), (52, "double up"), (27, "double up"), (26, "success"), (14, "success"),
    (13, "double down"), (1, "double down"), (99, "blown"),
])
def test_base_26_rolls(roll, outcome):
    result = resolve(passages(base=26, dice=[roll]))
    assert (result["roll"], result["outcome"]) == (roll, outcome)
    assert result["success"] == (outcome in ("double down", "success", "double up"))


def test_lock_picking_32():
    # "the Player unlocks the chest with DU partial success at 64, success roll of 32% (DD Wild
    # success at 16%)"
    calm = resolve(passages(base=32, dice=[64]))
    assert (calm["value"], calm["du"], calm["dd"], calm["outcome"]) == (32, 64, 16, "double up")


def test_lock_picking_32_contested():
    # "The Lock Pick Skill Core would be 6, so opening the chest would need a DU success of 12, a
    # Success of 6, and a DD success would be only 3%"
    result = resolve(passages(base=32, contested=True, dice=[12]))
    assert (result["value"], result["du"], result["dd"], result["outcome"]) == (6, 12, 3,
                                                                                "double up")
    assert resolve(passages(base=32, contested=True, dice=[13]))["outcome"] == "blown"
    assert resolve(passages(base=32, contested=True, dice=[3]))["outcome"] == "double down"
    assert resolve(passages(base=32, contested=True, dice=[6]))["outcome"] == "success"


def test_mastered_95_contested():
    # "A Mastered Skill of 95 renders a Core of 19, a noodge over one in six cases."
    request = passages(base=95, contested=True)
    assert resolve({**request, "dice": [19]})["value"] == 19
    chances = contract.check_odds(request)
    at_or_under_core = chances["double down"] + chances["success"]
    assert at_or_under_core == Fraction(19, 100)
    assert Fraction(1, 6) < at_or_under_core < Fraction(1, 5)


def test_practice_needs_no_roll():
    # "A player may 'practice' any skill ... they will automatically succeed"
    result = resolve(passages(base=5, practice=True))
    assert (result["outcome"], result["success"], result["dice"], result["roll"]) == (
        "success", True, [], None)
    contract.check_result(result, passages(base=5, practice=True))
    assert odds(passages(base=5, practice=True)) == {"outcomes": {"success": "1"}, "success": "1"}


def test_double_ought_is_shown_as_00():
    assert "00" in " ".join(resolve(passages(base=26, dice=[100]))["explain"])


@pytest.mark.parametrize(("field", "value"), [("base", 0), ("base", 101), ("base", True),
                                              ("contested", "yes"), ("dice", [0]),
                                              ("dice", [101]), ("dice", [5, 6]), ("dice", 5)])
def test_limits(field, value):
    with pytest.raises(InvalidRequest, match=f"^{field}: "):
        resolve({**passages(base=26), field: value})


def test_described_for_forms():
    assert SYSTEMS["passages"]["seed"] == "004"


@pytest.mark.parametrize("contested", [False, True])
@pytest.mark.parametrize("base", range(1, 101))
def test_odds_match_enumeration(base, contested):
    value = base // 5 if contested else base
    expected = contract.tally(((1, roll) for roll in range(1, 101)),
                              lambda roll: reference(roll, value))
    assert contract.check_odds(passages(base=base, contested=contested)) == expected


def test_frequencies_agree_with_odds():
    contract.check_frequencies(passages(base=40))


def test_unseeded_d100s_are_fair():
    contract.check_fair_faces(passages(base=50), 100, 50_000)


def test_seeds_replay():
    contract.check_seeded(passages(base=60, contested=True))


@given(base=st.integers(1, 100), contested=st.booleans(), practice=st.booleans(),
       dice=st.none() | st.lists(st.integers(1, 100), min_size=1, max_size=1))
def test_any_valid_request_gives_a_checked_result(base, contested, practice, dice):
    request = passages(base=base, contested=contested, practice=practice, dice=dice)
    result = resolve(request)
    contract.check_result(result, request)
    if not practice:
        value = base // 5 if contested else base
        assert result["outcome"] == reference(result["roll"], value)


@pytest.mark.parametrize("base", [1, 4])
def test_contested_at_a_base_under_five_every_roll_is_blown_and_the_odds_say_so(base):
    # "checks under Contest using the Core value, not the Base Value": ⌊base / 5⌋ is 0.
    answer = odds(passages(base=base, contested=True))
    assert answer["outcomes"] == {"blown": "99/100", "critical fail": "1/100"}
    assert answer["notes"] == {"base": f"Contested, a base of {base} has Core 0: every roll is "
                                       "blown (100 a critical fail)."}
    assert resolve(passages(base=base, contested=True, dice=[1]))["outcome"] == "blown"
    assert "notes" not in odds(passages(base=5, contested=True))
    assert "notes" not in odds(passages(base=base))
    assert "notes" not in odds(passages(base=base, contested=True, practice=True))
