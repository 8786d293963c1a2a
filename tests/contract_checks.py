"""Checks every system's results and odds must pass (docs/contract.md), shared by system tests."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from fractions import Fraction
from statistics import NormalDist

from skillcheck import SYSTEMS, odds, resolve
from skillcheck.draw import make_rng

RUNS = 100_000
FAIL_CHANCE = 1e-4


def check_odds(request: dict) -> dict[str, Fraction]:
    """The odds answer is well formed: positive fractions of known outcomes summing to exactly 1,
    and success the sum of the winning ones. Returns the outcome chances as Fractions."""
    answer = odds(request)
    json.dumps(answer)
    system = SYSTEMS[request["system"]]
    chances = {name: Fraction(p) for name, p in answer["outcomes"].items()}
    assert set(chances) <= set(system["outcomes"])
    assert all(p > 0 for p in chances.values())
    assert sum(chances.values()) == 1
    if answer["success"] is not None:
        winners = sum((p for name, p in chances.items() if name in system["winners"]), Fraction(0))
        assert Fraction(answer["success"]) == winners
    return chances


def check_result(result: dict, request: dict) -> None:
    """A result is JSON, names a known outcome, explains itself, and replays to itself."""
    system = SYSTEMS[request["system"]]
    assert json.loads(json.dumps(result)) == result
    assert result["system"] == request["system"]
    assert result["outcome"] in system["outcomes"]
    if result["success"] is not None:
        assert result["success"] == (result["outcome"] in system["winners"])
    assert result["explain"] and all(isinstance(s, str) and s for s in result["explain"])
    assert resolve(result["request"]) == result
    assert resolve(json.loads(json.dumps(result["request"]))) == result


def hoeffding_bound(events: int, runs: int = RUNS, fail_chance: float = FAIL_CHANCE) -> float:
    """How far a frequency may stray from its exact chance.

    Hoeffding: P(|k/n − p| ≥ t) ≤ 2·exp(−2nt²) for each frequency; a union bound over `events`
    frequencies makes the whole comparison fail by chance less than `fail_chance` (once in 10,000
    runs). For 100,000 runs and 6 outcomes t ≈ 0.0077.
    """
    return math.sqrt(math.log(2 * events / fail_chance) / (2 * runs))


def check_frequencies(request: dict, exact: dict | None = None, measure=None,
                      runs: int = RUNS) -> None:
    """`runs` resolves seeded 0..runs−1 land on each outcome (or on each value `measure` reads
    from a result) about as often as the exact chances say: within hoeffding_bound."""
    exact = check_odds(request) if exact is None else exact
    measure = measure or (lambda result: result["outcome"])
    counts = Counter(measure(resolve({**request, "seed": seed})) for seed in range(runs))
    bound = hoeffding_bound(len(exact), runs)
    assert set(counts) <= set(exact)
    for key, p in exact.items():
        assert abs(counts[key] / runs - p) < bound, (key, counts[key] / runs, float(p), bound)


def check_seeded(request: dict) -> None:
    """The same seed gives the same result; the result replays without it."""
    first = resolve({**request, "seed": 12345})
    assert resolve({**request, "seed": 12345}) == first
    check_result(first, request)
    assert "seed" not in first["request"]


def tally(requests, judge) -> dict[str, Fraction]:
    """Exact outcome chances from a plain enumeration: `requests` yields every equally likely
    (weight, draw) and `judge` names its outcome."""
    counts: Counter = Counter()
    total = 0
    for weight, draw in requests:
        counts[judge(draw)] += weight
        total += weight
    return {name: Fraction(n, total) for name, n in counts.items() if n}


def chi_square_critical(df: int, p: float = FAIL_CHANCE) -> float:
    """The chi-square value exceeded with chance p (Wilson–Hilferty; stdlib only)."""
    z = NormalDist().inv_cdf(1 - p)
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def check_fair_faces(request: dict, sides: int, resolves: int) -> None:
    """Unseeded resolves draw from the operating system's source (random.SystemRandom); its faces
    pass a chi-square test of uniformity at p < 1e-4."""
    assert "seed" not in request
    assert isinstance(make_rng(request, None), random.SystemRandom)
    counts = Counter(face for _ in range(resolves) for face in resolve(request)["dice"])
    rolled = sum(counts.values())
    assert set(counts) <= set(range(1, sides + 1))
    expected = rolled / sides
    statistic = sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))
    assert statistic < chi_square_critical(sides - 1), (statistic, counts)
