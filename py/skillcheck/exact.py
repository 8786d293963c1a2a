"""Small exact-probability helpers the systems share: distributions as {value: weight}.

Weights are whole numbers of equally likely draws (or Fractions); nothing here rounds, so the odds
the page shows sum to exactly 1.
"""

from __future__ import annotations


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
