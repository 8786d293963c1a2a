"""Exact odds against plain enumeration, for the heaviest requests the contract's limits allow.

    PYTHONPATH=py python3 benchmarks/odds.py

skillcheck.odds counts (dynamic programmes, binomials, hand counts); plain enumeration visits
every equally likely roll or deal and judges it. Enumerating everything is astronomically slow
(10**10 pool rolls, 6**20 fluke rolls, ~10**20 pairs of 10-card hands), so enumeration is timed
on an evenly spread sample — every (space // N)-th draw in enumeration order, N of them — and
that time is scaled up to the whole space. Decoding the sampled draws is left out of the timing,
which flatters enumeration. A few sampled draws are replayed through resolve() to show the
enumerator judges the same request.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb, perm

from skillcheck import fluke as fluke_system
from skillcheck import odds, resolve
from skillcheck import pool as pool_system
from skillcheck.draw import DECK, card_value
from skillcheck.flip.rules import grants, judge, opposed_winner, secondary_dtn, team_bonus

TARGET_RATIO = 50
REPLAYED = 30


@dataclass(frozen=True)
class Case:
    name: str
    request: dict
    space: int  # equally likely draws a plain enumeration visits
    draw_at: Callable[[int], object]  # the index-th draw in enumeration order
    outcome: Callable[[object], str]  # the request's outcome for one draw
    forced: Callable[[object], dict]  # the request with that draw filled in, for resolve()
    sample: int


def digits(index: int, base: int, count: int) -> list[int]:
    """The index-th roll of `count` dice with faces 1..base, in itertools.product order."""
    out = []
    for _ in range(count):
        index, digit = divmod(index, base)
        out.append(digit + 1)
    return out[::-1]


def combination(index: int, n: int, k: int) -> list[int]:
    """The index-th k-subset of range(n), in itertools.combinations order."""
    out, start = [], 0
    for left in range(k, 0, -1):
        while index >= comb(n - start - 1, left - 1):
            index -= comb(n - start - 1, left - 1)
            start += 1
        out.append(start)
        start += 1
    return out


def arrangement(index: int, n: int, k: int) -> list[int]:
    """The index-th ordered draw of k cards from range(n), in itertools.permutations order."""
    left, out = list(range(n)), []
    for i in range(k):
        place, index = divmod(index, perm(n - i - 1, k - i - 1))
        out.append(left.pop(place))
    return out


def values(hand) -> list[int]:
    return [card_value(DECK[c]) for c in hand]


def pool_case() -> Case:
    request = {"system": "pool", "trait": 10, "skill": 1, "dr": 9, "bonus": 20, "luck": 100}
    checked = pool_system.read(request)

    def outcome(dice):
        natural = sum(face <= checked.skill for face in dice)
        successes = natural + len(pool_system.spend(dice, checked).bought)
        if checked.flub_possible and dice.count(10) >= 3:
            return "flubbed"
        return pool_system.degree(pool_system.increments(successes, checked.dr),
                                  natural < checked.dr <= successes)

    return Case("pool: 10d10, bonus 20, luck 100", request, 10**10,
                lambda i: digits(i, 10, 10), outcome, lambda d: {**request, "dice": d}, 100_000)


def fluke_case() -> Case:
    request = {"system": "fluke", "dice_count": 20, "base": 40, "penalty": 5, "plan": 3,
               "insurance": 5}
    check = fluke_system.read(request)

    def outcome(dice):
        return fluke_system.judge(check, dice.count(1), sum(d for d in dice if d > 1))[0]

    return Case("fluke: 20d6, insurance 5", request, 6**20, lambda i: digits(i, 6, 20), outcome,
                lambda d: {**request, "dice": d}, 100_000)


def team_case() -> Case:
    primary = {"rank": 5, "aspect": 3, "shift": 1}
    helpers = [{"rank": 2 + i % 4, "aspect": 1 + i % 3} for i in range(8)]
    dtn = 15
    request = {"system": "flip", "mode": "team", "dtn": dtn, "primary": primary,
               "secondaries": helpers}
    # The primary's deal is ordered: its first 5 cards, plus a 6th if the team grants flip+1.
    sizes = [perm(52, primary["rank"] + 1)] + [comb(52, h["rank"]) for h in helpers]
    space = 1
    for size in sizes:
        space *= size

    def draw_at(index):
        parts = []
        for size in reversed(sizes):
            index, part = divmod(index, size)
            parts.append(part)
        first, *rest = parts[::-1]
        return ([arrangement(first, 52, primary["rank"] + 1)]
                + [combination(p, 52, h["rank"]) for p, h in zip(rest, helpers, strict=True)])

    def judged(deal):
        lead, *hands = deal
        target = secondary_dtn(dtn)
        made = [max(values(hand)) + h["aspect"] >= target
                for hand, h in zip(hands, helpers, strict=True)]
        flip, shift = team_bonus(grants(made))
        kept = max(values(lead[:primary["rank"] + flip]))
        return judge(kept + primary["aspect"] + primary["shift"] + shift, dtn), flip

    def forced(deal):
        lead, *hands = deal
        flip = judged(deal)[1]
        return {**request,
                "primary": {**primary, "cards": [DECK[c] for c in lead[:primary["rank"] + flip]]},
                "secondaries": [{**h, "cards": [DECK[c] for c in hand]}
                                for hand, h in zip(hands, helpers, strict=True)]}

    return Case("flip: team, 8 secondaries", request, space, draw_at,
                lambda deal: judged(deal)[0], forced, 20_000)


def opposed_case() -> Case:
    initiator = {"rank": 10, "aspect": 4}
    opponent = {"rank": 9, "aspect": 5, "specialization": True, "shift": -1}
    request = {"system": "flip", "mode": "opposed", "initiator": initiator, "opponent": opponent}
    hands = comb(52, 10)

    def draw_at(index):
        mine, theirs = divmod(index, hands)
        return combination(mine, 52, 10), combination(theirs, 52, 10)

    def outcome(deal):
        mine, theirs = deal
        total = max(values(mine)) + initiator["aspect"]
        rival = max(values(theirs)) + opponent["aspect"] + opponent["shift"]
        return opposed_winner(total, initiator["aspect"], rival, opponent["aspect"])[0]

    def forced(deal):
        mine, theirs = deal
        return {**request, "initiator": {**initiator, "cards": [DECK[c] for c in mine]},
                "opponent": {**opponent, "cards": [DECK[c] for c in theirs]}}

    return Case("flip: opposed, 10 cards a side", request, hands * hands, draw_at, outcome,
                forced, 50_000)


def best_of(runs: int, action: Callable[[], object]) -> float:
    """The fastest of a few runs, in seconds (the least disturbed by other work)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def enumeration_time(case: Case) -> float:
    """Seconds to judge every draw in the space, scaled up from an evenly spread sample."""
    step = case.space // case.sample
    deals = [case.draw_at(i * step) for i in range(case.sample)]
    exact = odds(case.request)["outcomes"]
    for deal in deals[:REPLAYED]:
        assert resolve(case.forced(deal))["outcome"] == case.outcome(deal), case.name
    start = time.perf_counter()
    seen = {case.outcome(deal) for deal in deals}
    elapsed = time.perf_counter() - start
    assert seen <= set(exact), (case.name, seen, exact)
    return elapsed * case.space / case.sample


def pool_worst_ms() -> float:
    """The slowest pool odds at trait 10, bonus 100, luck 100, over every skill and DR."""
    return 1000 * max(
        best_of(3, lambda s=skill, d=dr: odds({"system": "pool", "trait": 10, "skill": s,
                                               "dr": d, "bonus": 100, "luck": 100}))
        for skill in range(1, 11) for dr in range(1, 11))


def human(seconds: float) -> str:
    for unit, size in (("years", 3.156e7), ("days", 86400), ("h", 3600), ("s", 1)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds * 1000:.3g} ms"


def main() -> None:
    print("Enumeration is timed on an evenly spread sample of each space, scaled up to all of it.")
    print(f"{'request':34} {'odds':>10} {'enumeration (est.)':>20} {'sample':>8} {'ratio':>10}")
    total_odds = total_enum = 0.0
    for case in (pool_case(), fluke_case(), team_case(), opposed_case()):
        fast = best_of(5, lambda c=case: odds(c.request))
        slow = enumeration_time(case)
        total_odds += fast
        total_enum += slow
        print(f"{case.name:34} {human(fast):>10} {human(slow):>20} {case.sample:>8,}"
              f" {slow / fast:>10.3g}")
    ratio = total_enum / total_odds
    verdict = "meets" if ratio >= TARGET_RATIO else "MISSES"
    print(f"{'overall':34} {human(total_odds):>10} {human(total_enum):>20} {'':>8} {ratio:>10.3g}"
          f"  ({verdict} the {TARGET_RATIO}x target)")
    print()
    print(f"pool odds, trait 10, bonus 100, luck 100: slowest over every skill and DR"
          f" {pool_worst_ms():.2f} ms (budget 50 ms)")


if __name__ == "__main__":
    main()
