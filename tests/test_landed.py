"""Under a result's headline (issue 35.4): the chance it was rolled at and a bar of its outcomes'
shares, with a mark where this draw landed, for every system and mode."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
import skillcheck
from app.landed_html import GAP, chances, landed_html
from app.result_html import percent
from hypothesis import given, settings
from hypothesis import strategies as st

ROLLS = {
    "unopposed": {"system": "flip", "rank": 2, "aspect": 3, "difficulty": "hard"},
    "aspect": {"system": "flip", "mode": "aspect", "aspect": 3, "difficulty": "average"},
    "opposed": {"system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 3},
                "opponent": {"rank": 3, "aspect": 1}},
    "team": {"system": "flip", "mode": "team", "primary": {"rank": 3, "aspect": 2},
             "secondaries": [{"rank": 2, "aspect": 2}] * 3, "difficulty": "hard"},
    "pool": {"system": "pool", "trait": 5, "skill": 7, "dr": 3},
    "swift": {"system": "swift", "trait": 6, "skill": 8, "dr": 1},
    "fluke": {"system": "fluke", "dice_count": 3, "base": 10},
    "passages": {"system": "passages", "base": 45},
}


def widths(html: str) -> list[tuple[str, float, float]]:
    return [(classes, float(x), float(w)) for classes, x, w in re.findall(
        r'<rect class="([^"]*)" x="([\d.]+)" width="([\d.]+)"', html)]


@pytest.mark.parametrize("name", ROLLS)
def test_each_outcome_has_its_share_in_the_rulebooks_order_and_the_draw_is_marked(name):
    result = skillcheck.resolve(ROLLS[name], random.Random(7))
    html = landed_html(result)
    odds = skillcheck.odds(ROLLS[name])
    shares = {k: Fraction(v) for k, v in odds["outcomes"].items() if Fraction(v)}
    order = [o for o in skillcheck.SYSTEMS[result["system"]]["outcomes"] if o in shares]
    drawn = widths(html)
    assert len(drawn) == len(order)
    room = 100 - GAP * (len(order) - 1)
    for (classes, _, width), outcome in zip(drawn, order, strict=True):
        assert width == pytest.approx(float(shares[outcome]) * room, abs=1e-3)
        assert ("landed" in classes) == (outcome == result["outcome"])
    assert drawn[-1][1] + drawn[-1][2] == pytest.approx(100, abs=1e-2)
    assert html.count('class="landed-mark"') == 1
    assert f"it had {percent(Fraction(odds['success']))} to succeed" in html
    assert "This roll: " in html and 'role="img"' in html


def test_points_offered_say_the_dice_own_chance_first_and_the_bar_is_the_dice_own():
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 3,
               "dice": [1, 2, 9, 9, 3]}
    result = skillcheck.resolve(request)
    undrawn = {k: v for k, v in request.items() if k != "dice"}
    with_luck, bare = skillcheck.odds(undrawn), skillcheck.odds({**undrawn, "luck": 0})
    html = landed_html(result)
    assert (f"it had {percent(Fraction(bare['success']))} to succeed · "
            f"{percent(Fraction(with_luck['success']))} with Luck 3") in html
    assert len(widths(html)) == sum(1 for p in bare["outcomes"].values() if Fraction(p))


def test_a_secret_difficulty_has_no_chance_until_the_gm_reveals_it():
    secret = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "secret": True,
                                 "dice": [1, 2, 9, 9, 3]})
    assert landed_html(secret) == "" and chances(secret["request"]) is None
    revealed = skillcheck.resolve({**secret["request"], "dr": 3})
    html = landed_html(revealed)
    odds = skillcheck.odds({"system": "pool", "trait": 5, "skill": 7, "dr": 3})
    assert f"it had {percent(Fraction(odds['success']))} to succeed" in html


@settings(max_examples=60, deadline=None)
@given(trait=st.integers(1, 10), skill=st.integers(1, 10), dr=st.integers(1, 6),
       seed=st.integers(0, 2**32))
def test_the_shares_fill_the_bar_and_only_the_outcome_drawn_is_marked(trait, skill, dr, seed):
    result = skillcheck.resolve({"system": "pool", "trait": trait, "skill": skill, "dr": dr},
                                random.Random(seed))
    drawn = widths(landed_html(result))
    assert sum(w for _, _, w in drawn) + GAP * (len(drawn) - 1) == pytest.approx(100, abs=1e-2)
    assert [c for c, _, _ in drawn if "landed" in c] and sum(
        "landed" in c for c, _, _ in drawn) == 1
