"""The spend advisor (py/app/advice.py): its rows against a plain enumeration of every roll, its
properties for any request, each row the odds of its own request, and how the page draws it."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from fractions import Fraction

import pytest
import skillcheck
from app import advice, result_html, systems
from app.systems import MissingPiece, Points
from hypothesis import given, settings
from hypothesis import strategies as st

# ---- the rulings read plainly, judged over every roll ---------------------------------------


def pool_degree(dice, skill, dr, bonus, luck) -> str:
    """Seed 002's d10 pool as the contract rules it: bonus buys the cheapest dice it can, Luck
    only the fewest that reach the DR; degrees by the final IoS, Barely when points just met it."""
    natural = sum(face <= skill for face in dice)
    costs = sorted(face - skill for face in dice if face > skill)
    by_bonus = max(n for n in range(len(costs) + 1) if sum(costs[:n]) <= bonus)
    successes = natural + by_bonus
    if successes < dr and sum(costs[:dr - natural]) <= bonus + luck:
        successes = dr
    ios = successes - dr + 1 if successes >= dr else successes - dr
    if len(dice) == 10 and skill == 10 and dice.count(10) >= 3:
        return "flubbed"
    if ios >= 1:
        return ("barely" if natural < dr and ios == 1 else
                "critical" if ios >= 3 else "success" if ios == 2 else "basic")
    return "disaster" if ios <= -3 else "failure"


def swift_degree(dice, trait, skill, bonus, luck) -> str:
    target, natural = trait + skill, sum(dice)
    roll = natural - min(bonus, natural - 2)
    if roll > target and roll - target <= luck:
        roll = target
    ios = target - roll + 1 if roll <= target else target - roll
    if ios >= 1:
        return ("barely" if natural > target and ios == 1 else
                "critical" if ios >= 3 else "success" if ios == 2 else "basic")
    return "disaster" if ios <= -3 else "failure"


def fluke_outcome(dice, target, insurance) -> str:
    ones = dice.count(1)
    insured = min(ones, insurance)
    if 2 * (ones - insured) >= len(dice):
        return "fluke"
    return "success" if sum(d for d in dice if d > 1) + insured > target else "failure"


def enumerated(rolls, judge) -> dict[str, Fraction]:
    rolls = list(rolls)
    counts: dict[str, int] = {}
    for roll in rolls:
        outcome = judge(roll)
        counts[outcome] = counts.get(outcome, 0) + 1
    return {name: Fraction(n, len(rolls)) for name, n in counts.items()}


def columns(chances: dict[str, Fraction], winners: tuple[str, ...]) -> tuple[Fraction, ...]:
    """Any success, then each better degree or better, the best last: the advisor's columns."""
    def at_least(k: int) -> Fraction:
        return sum((chances.get(name, Fraction(0)) for name in winners[:k]), Fraction(0))
    return (at_least(len(winners)), *(at_least(k) for k in range(len(winners) - 1, 0, -1)))


POOL_WINNERS = ("critical", "success", "basic", "barely")


@pytest.mark.parametrize(("trait", "skill", "dr", "bonus", "luck"), [
    (3, 5, 2, 0, 6), (3, 6, 3, 2, 9), (4, 4, 3, 1, 12), (4, 7, 4, 3, 5), (2, 1, 2, 4, 9),
])
def test_pool_rows_are_every_roll_counted(trait, skill, dr, bonus, luck):
    request = {"system": "pool", "trait": trait, "skill": skill, "dr": dr, "bonus": bonus,
               "luck": luck}
    found = advice.advise(request)
    assert [row.points for row in found.rows] == list(range(min(luck, 9) + 1))
    for row in found.rows:
        counted = enumerated(itertools.product(range(1, 11), repeat=trait),
                             lambda dice, n=row.points: pool_degree(dice, skill, dr, bonus, n))
        assert (row.success, *row.better) == columns(counted, POOL_WINNERS)


@pytest.mark.parametrize(("trait", "skill", "bonus", "luck"), [(3, 4, 0, 9), (5, 6, 2, 7),
                                                              (1, 1, 1, 20)])
def test_swift_rows_are_every_roll_counted(trait, skill, bonus, luck):
    found = advice.advise({"system": "swift", "trait": trait, "skill": skill, "bonus": bonus,
                           "luck": luck})
    assert len(found.rows) == min(luck, 9) + 1
    for row in found.rows:
        counted = enumerated(
            itertools.product(range(1, 11), repeat=2),
            lambda dice, n=row.points: swift_degree(dice, trait, skill, bonus, n))
        assert (row.success, *row.better) == columns(counted, POOL_WINNERS)


@pytest.mark.parametrize(("count", "plan", "insurance"), [(2, 7, 3), (4, 0, 6), (5, 3, 9)])
def test_fluke_rows_are_every_roll_counted(count, plan, insurance):
    found = advice.advise({"system": "fluke", "dice_count": count, "plan": plan,
                           "insurance": insurance})
    assert found.degrees == ()
    for row in found.rows:
        counted = enumerated(itertools.product(range(1, 7), repeat=count),
                             lambda dice, n=row.points: fluke_outcome(dice, 10 - plan, n))
        assert (row.success, *row.better) == (counted.get("success", Fraction(0)),)


# ---- for any request ------------------------------------------------------------------------

def requests():
    pool = st.fixed_dictionaries({
        "system": st.just("pool"), "trait": st.integers(1, 10), "skill": st.integers(1, 10),
        "dr": st.integers(1, 10), "bonus": st.integers(0, 30), "luck": st.integers(0, 100)})
    swift = st.fixed_dictionaries({
        "system": st.just("swift"), "trait": st.integers(1, 10), "skill": st.integers(1, 10),
        "bonus": st.integers(0, 30), "luck": st.integers(0, 100)})
    fluke = st.fixed_dictionaries({
        "system": st.just("fluke"), "dice_count": st.integers(1, 12),
        "plan": st.integers(-10, 10), "challenge": st.booleans(),
        "insurance": st.integers(0, 20)})
    return st.one_of(pool, swift, fluke)


@settings(max_examples=80, deadline=None)
@given(requests())
def test_a_point_never_lowers_the_chance_and_the_stop_is_the_first_flat_row(request):
    found = advice.advise(request)
    offered = request[found.field]
    assert len(found.rows) == min(offered, advice.MOST_ROWS - 1) + 1 <= advice.MOST_ROWS
    chances = [row.success for row in found.rows]
    assert chances == sorted(chances)
    flat = [n for n in range(1, len(chances)) if chances[n] == chances[n - 1]]
    assert found.stops == (flat[0] if flat else None)
    if found.stops is not None:
        assert f"A {advice.ordinal(found.stops)} {found.word} adds nothing" in \
            advice.verdict(found)


@settings(max_examples=40, deadline=None)
@given(requests())
def test_each_row_is_the_odds_of_its_own_request(request):
    found = advice.advise(request)
    for row in found.rows:
        own = skillcheck.odds({**request, found.field: row.points})
        assert row.odds == own
        assert row.success == Fraction(own["success"])


@settings(max_examples=30, deadline=None)
@given(requests())
def test_the_odds_panel_takes_the_requests_own_odds_from_its_row(request):
    found = advice.advise(request)
    offered = request[found.field]
    own = found.odds_of(request)
    assert own == (skillcheck.odds(request) if offered < advice.MOST_ROWS else None)


def test_a_picked_characters_stock_caps_the_rows_as_the_request_does():
    # The page hands in the request within the character's stock (characters_panel.within_stock).
    found = advice.advise({"system": "pool", "trait": 5, "skill": 5, "dr": 4, "luck": 2})
    assert [row.points for row in found.rows] == [0, 1, 2]


@pytest.mark.parametrize("request_", [
    {"system": "flip", "rank": 2, "aspect": 3, "dtn": 12},
    {"system": "passages", "base": 40},
    {"system": "pool", "trait": 5, "skill": 6, "secret": True, "luck": 3},
])
def test_no_advisor_where_no_points_are_spent_or_the_chance_is_the_gms(request_):
    assert advice.advise(request_) is None


def test_the_records_name_the_point_fields():
    points = {page.id: page.points for page in systems.PAGES.values() if page.points}
    assert {system: (p.field, p.held) for system, p in points.items()} == {
        "pool": ("luck", ("bonus",)), "swift": ("luck", ("bonus",)), "fluke": ("insurance", ())}


@pytest.mark.parametrize("points", [Points("lucky", "Luck"), Points("luck", "Luck", ("secret",)),
                                    Points("luck", "Luck", ("luck",))])
def test_a_point_field_the_rules_do_not_take_fails_at_import(points):
    with pytest.raises(MissingPiece, match="'pool' system's page record .*: points "):
        replace(systems.PAGES["pool"], points=points)


def test_ordinals():
    assert [advice.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]


# ---- on the page ------------------------------------------------------------------------------

def test_the_table_says_what_more_luck_buys_in_the_rulebooks_names():
    found = advice.advise({"system": "pool", "trait": 4, "skill": 5, "dr": 3, "bonus": 1,
                           "luck": 3})
    html = result_html.advice_html(found, frozenset({2}))
    assert "<caption>What more Luck buys</caption>" in html
    heads = re.findall(r'<th scope="col">(.*?)</th>', html)
    assert [re.sub(r"<[^>]+>", "", head) for head in heads] == [
        "Luck", "Any success", "Basic Success or better", "Success (IoS 2) or better",
        "Critical Success"]
    assert html.count('class="advice-row') == 4
    assert 'id="advice-exact-2">' in html and 'id="advice-exact-1" hidden>' in html
    exact = found.rows[2].success
    assert f'data-fraction="{exact}"' in html
    assert f"{exact.numerator:,} in {exact.denominator:,}" in html
    assert "Every row keeps Bonus 1 as typed." in html


def test_the_verdict_names_the_first_point_that_adds_nothing():
    # Skill 9: a failing die shows 10 and costs 1 Luck; the worst roll of two dice costs 2.
    found = advice.advise({"system": "pool", "trait": 2, "skill": 9, "dr": 2, "luck": 5})
    assert [row.success for row in found.rows[:3]] == [Fraction(81, 100), Fraction(99, 100), 1]
    assert found.stops == 3
    assert advice.verdict(found) == "A 3rd Luck adds nothing to the chance of success."
    assert 'class="advice-row adds-nothing" data-points="3"' in result_html.advice_html(found)


def test_nothing_offered_says_how_to_see_more():
    found = advice.advise({"system": "fluke", "dice_count": 3})
    assert len(found.rows) == 1
    assert advice.verdict(found) == "Offer Insurance to see what each point of it adds."
