"""exact.tally, the one loop every system's odds go through: exact, in order, nothing lost."""

import itertools
from collections import Counter
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from skillcheck.exact import sum_ways, tally


def test_two_dice_against_seven_match_listing_every_roll():
    rolls = list(itertools.product(range(1, 7), repeat=2))
    listed = Counter("high" if a + b > 7 else "low" for a, b in rolls)
    counted = tally(sum_ways(range(1, 7), 2)[2].items(),
                    lambda total: "high" if total > 7 else "low", 36)
    assert counted == {name: Fraction(n, 36) for name, n in listed.items()}
    assert sum(counted.values()) == 1


def test_verdicts_come_in_the_order_first_met_and_those_without_chance_are_left_out():
    ways = [(5, 0), (1, 2), (4, 1), (2, 0), (3, 1)]
    counted = tally(ways, lambda x: "never" if x == 5 else ("odd" if x % 2 else "even"), 4)
    assert list(counted.items()) == [("odd", Fraction(3, 4)), ("even", Fraction(1, 4))]


def test_chances_may_be_fractions_out_of_one():
    assert tally([("a", Fraction(1, 3)), ("b", Fraction(1, 6)), ("a", Fraction(1, 2))],
                 str.upper) == {"A": Fraction(5, 6), "B": Fraction(1, 6)}


@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(0, 9))), st.integers(1, 7))
def test_each_verdict_gets_the_sum_of_its_draws_ways(ways, modulus):
    expected = Counter()
    for draw, weight in ways:
        expected[draw % modulus] += weight
    total = max(sum(expected.values()), 1)
    assert tally(ways, lambda draw: draw % modulus, total) == {
        verdict: Fraction(n, total) for verdict, n in expected.items() if n}
