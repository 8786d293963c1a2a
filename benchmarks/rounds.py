"""How the benchmarks take their rounds and judge them: the pages' order in each round, and each
ratio between two pages with the interval the rounds allow."""

from __future__ import annotations

import random
import statistics


def in_turn(names: list[str], round_: int) -> list[str]:
    """The pages in this round's order: each takes each place in turn, so that none is always
    measured first (on a cold machine) or last (after the others warmed it)."""
    turn = round_ % len(names)
    return names[turn:] + names[:turn]


def ratio_interval(values: list[float], against: list[float]) -> tuple[float, float]:
    """A 90 % interval for median(values) ÷ median(against), from resampling the rounds: on a
    shared machine a ratio moves by a few hundredths between runs of the same build, and a
    goal's verdict should say when it is within that. Lists of the same length are taken as
    measured in the same rounds, in order, and a round's two samples are drawn together."""
    rng = random.Random(0)  # the same samples, the same interval
    paired = len(values) == len(against)
    ratios = []
    for _ in range(2000):
        picks = [rng.randrange(len(values)) for _ in values]
        others = picks if paired else [rng.randrange(len(against)) for _ in against]
        ratios.append(statistics.median(values[i] for i in picks)
                      / statistics.median(against[i] for i in others))
    ratios.sort()
    return ratios[len(ratios) // 20], ratios[len(ratios) * 19 // 20 - 1]


def ratio_text(values: list[float], against: list[float]) -> str:
    """"0.35× bare (0.33–0.37)": the ratio of the medians to the bare page's, and its 90 %
    interval."""
    low, high = ratio_interval(values, against)
    return (f"{statistics.median(values) / statistics.median(against):.2f}× bare "
            f"({low:.2f}–{high:.2f})")
