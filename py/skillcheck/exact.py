"""Small exact-probability helpers the systems share: distributions as {value: weight}.

Weights are whole numbers of equally likely draws (or Fractions); nothing here rounds, so the odds
the page shows sum to exactly 1.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from math import comb


def convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """The distribution of x + y for independent x ~ a and y ~ b."""
    out: dict[int, int] = {}
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return out


def sum_ways(faces: range, count: int) -> list[dict[int, int]]:
    """For n = 0..count: in how many ways n dice showing `faces` make each sum."""
    one = dict.fromkeys(faces, 1)
    ways = [{0: 1}]
    for _ in range(count):
        ways.append(convolve(ways[-1], one))
    return ways


def deck_extreme(count: int, low: bool, faces: int = 13, copies: int = 4) -> dict[int, Fraction]:
    """The kept card of `count` dealt from a deck of values 1..faces, `copies` of each.

    Keeping the highest: P(max ≤ v) = C(copies·v, count) / C(deck, count), since every card of a
    hand is then one of the copies·v cards of value ≤ v. Keeping the lowest mirrors it with the
    cards of value ≥ v. No hand is enumerated, so 52 cards cost as little as 2.
    """
    hands = comb(faces * copies, count)

    def within(v: int) -> int:
        """Hands with every card v or lower (keeping the highest) / v or higher (the lowest)."""
        return comb(copies * (faces + 1 - v if low else v), count)

    step = 1 if low else -1
    return {v: Fraction(within(v) - within(v + step), hands)
            for v in range(1, faces + 1) if within(v) != within(v + step)}


def tally(ways: Iterable[tuple[object, int | Fraction]], judge: Callable[[object], Hashable],
          out_of: int = 1) -> dict:
    """The chance of each verdict: `ways` pairs each kind of draw with how many of `out_of`
    equally likely draws it stands for (or with its chance, out of 1); `judge` gives a kind of
    draw its verdict. Verdicts come in the order first met; those with no chance are left out.

    The odds of the card flip, the d10 pool, Swift and the d6 pool are this one loop over each
    system's own space of draws, judged by the same rule its `resolve` uses, so a drawn result
    and its odds cannot disagree. (Passages' bands are runs of rolls: it counts their widths.)
    """
    counts: dict = {}
    for draw, weight in ways:
        verdict = judge(draw)
        counts[verdict] = counts.get(verdict, 0) + weight
    return {verdict: Fraction(n, out_of) for verdict, n in counts.items() if n}


def shifted(dist: dict[int, Fraction], by: int) -> dict[int, Fraction]:
    """The distribution of x + by."""
    return {x + by: p for x, p in dist.items()}
