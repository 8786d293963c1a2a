"""Tonight's luck (issue 38.4): a roll's mid-rank percentile against enumerating its dice, and a
run's chance under fair dice against enumeration (a few rolls) and a simulation (many)."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime
from fractions import Fraction

import pytest
import skillcheck
from app.log_model import RollLog
from app.storage import MemoryStorage
from app.tonight import Place, place_of, run_chance, runs, sentence, tonight
from app.tonight_html import tonight_html
from hypothesis import given, settings
from hypothesis import strategies as st

POOL = {"system": "pool", "trait": 2, "skill": 6, "dr": 1}


def logged(request: dict, time: str = "2026-12-04T20:00:00Z", **fields) -> dict:
    result = skillcheck.resolve(request)
    return {"id": 1, "kind": "check", "time": time, "system": request["system"],
            "summary": "", "outcome": result["outcome"], "success": result["success"],
            "request": result["request"], **fields}


def enumerated_place(request: dict, dice: list[int]) -> Fraction:
    """P(an outcome worse than these dice's) + P(theirs) / 2, over every face of every die."""
    order = list(reversed(skillcheck.SYSTEMS["pool"]["outcomes"]))  # worst first
    drawn = skillcheck.resolve({**request, "dice": dice})["outcome"]
    worse = same = 0
    faces = list(itertools.product(range(1, 11), repeat=request["trait"]))
    for roll in faces:
        outcome = skillcheck.resolve({**request, "dice": list(roll)})["outcome"]
        worse += order.index(outcome) < order.index(drawn)
        same += outcome == drawn
    return Fraction(worse, len(faces)) + Fraction(same, 2 * len(faces))


@pytest.mark.parametrize("dice", [[1, 1], [1, 9], [9, 9], [7, 6], [10, 10]])
def test_a_rolls_place_is_its_mid_rank_among_every_roll_of_its_dice(dice):
    for dr in (1, 2):
        request = {**POOL, "dr": dr}
        assert place_of(logged({**request, "dice": dice})).place == enumerated_place(request,
                                                                                     dice)


def test_luck_spent_after_the_roll_is_a_choice_not_the_dices_luck():
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 3, "dice": [1, 2, 9, 9, 3]}
    plain = place_of(logged(request)).place
    assert place_of(logged({**request, "luck": 4, "luck_spend": 4})).place == plain


def test_a_secret_not_revealed_and_a_withdrawn_roll_are_left_out_of_tonight():
    secret = logged({"system": "pool", "trait": 2, "skill": 6, "secret": True, "dice": [1, 2]})
    assert place_of(secret) is None
    kept = logged({**POOL, "dice": [1, 2]})
    withdrawn = logged({**POOL, "dice": [9, 9]}, withdrawn="2026-12-04T20:01:00Z")
    yesterday = logged({**POOL, "dice": [9, 9]}, time="2026-12-03T07:00:00Z")
    assert tonight([yesterday, secret, withdrawn, kept]) == [kept]


def fair_places(count: int, seed: int) -> list[Place]:
    rng = random.Random(seed)
    requests = [{**POOL, "dr": rng.choice([1, 2])} for _ in range(count)]
    return [place_of(logged({**r, "dice": [rng.randint(1, 10), rng.randint(1, 10)]}))
            for r in requests]


@pytest.mark.parametrize("seed", range(6))
def test_a_short_runs_chance_is_exact_against_enumerating_every_run(seed):
    places = fair_places(3, seed)
    seen = sum(p.place for p in places)
    low = seen * 2 <= len(places)
    total = Fraction(0)
    for values in itertools.product(*(p.fair.items() for p in places)):
        mean = sum(v for v, _ in values)
        if (mean <= seen) if low else (mean >= seen):
            chance = Fraction(1)
            for _, p in values:
                chance *= p
            total += chance
    assert run_chance(places) == pytest.approx(float(total), abs=1e-12)


def test_a_long_runs_chance_matches_a_simulation_of_fair_evenings():
    places = fair_places(40, 11)
    seen = float(sum(p.place for p in places))
    low = seen * 2 <= len(places)
    rng = random.Random(5)
    tables = [(list(p.fair), [float(w) for w in p.fair.values()]) for p in places]
    hits, evenings = 0, 20_000
    for _ in range(evenings):
        total = sum(float(rng.choices(values, weights)[0]) for values, weights in tables)
        hits += (total <= seen + 1e-9) if low else (total >= seen - 1e-9)
    assert run_chance(places) == pytest.approx(hits / evenings, abs=0.015)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10), st.integers(1, 10)), min_size=1, max_size=12))
def test_a_runs_chance_is_a_chance_and_each_place_lies_inside_the_odds(dice):
    places = [place_of(logged({**POOL, "dice": list(d)})) for d in dice]
    chance = run_chance(places)
    assert 0 < chance <= 1
    assert all(0 < p.place < 1 for p in places)


def test_each_character_and_the_table_get_a_run_and_one_sentence():
    log = RollLog(MemoryStorage())
    for dice, name in (([9, 9], "Mara"), ([10, 9], "Mara"), ([1, 1], "Vex")):
        log.record_check(skillcheck.resolve({**POOL, "dice": dice}), who={"name": name})
    found = runs(log.entries())
    assert [run.who for run in found] == ["Mara", "Vex", ""]
    mara = found[0]
    assert mara.average < Fraction(1, 2) and len(mara.places) == 2
    said = sentence(mara)
    assert said.startswith("Mara’s dice ran in the bottom ")
    assert "tonight: a run this unlucky happens about 1 evening in " in said
    assert len(said.split()) <= 25
    assert sentence(found[1]).startswith("Vex’s dice ran in the top ")


def test_the_view_draws_a_dot_per_roll_marks_the_other_phones_and_escapes_names():
    log = RollLog(MemoryStorage(), clock=lambda: datetime(2026, 12, 4, 20, 30, tzinfo=UTC))
    log.record_check(skillcheck.resolve({**POOL, "dice": [9, 9]}), who={"name": "<b>Mara"})
    theirs = skillcheck.resolve({**POOL, "dice": [1, 1]})
    log.add_shared(theirs, "2026-12-04T20:00:00Z", {"name": "<b>Mara"})
    html = tonight_html(runs(log.entries()))
    assert "<b>" not in html and "&lt;b&gt;Mara" in html
    assert html.count("<circle") == 4  # her two rolls, and the table's same two
    assert html.count('class="shared"') == 2 and "1 from other phones" in html
    assert "No roll to weigh" in tonight_html([])
