"""Tonight's luck: where each roll's dice fell among their exact outcomes, and how unusual the
evening's run is under fair dice (issue 38.4).

A roll's place is its mid-rank percentile: the chance of an outcome worse than the one drawn, plus
half the chance of that outcome itself, under the odds of the same check. Points spent after the
dice were seen (Luck, Insurance) are a choice, not the dice's luck: the draw is judged as if none
had been offered. Under fair dice a roll's place has a known distribution (mean one half), so a
run's average place has one too: the chance of a run at least this unlucky (or lucky) is exact
while the sums stay few, and the normal approximation beyond that.

Pure, so CPython tests read it: the log's entries in, numbers and words out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction

import skillcheck
from skillcheck import InvalidRequest

from .links import MissingDraw, replay
from .log_model import counts, strip_draw
from .systems import points_offered

EVENING = timedelta(hours=12)  # what "tonight" holds: the rolls up to 12 h before the newest
EXACT_SUMS = 500  # sums × outcomes worked out exactly for a roll; past it, the normal curve


@dataclass(frozen=True)
class Place:
    """One roll's place: its entry, its mid-rank percentile (0–1) and the distribution of that
    percentile under fair dice ({value: chance})."""

    entry: dict
    place: Fraction
    fair: dict[Fraction, Fraction]


def judged_bare(request: dict) -> dict:
    """The request with no points offered and none chosen after the roll: the dice alone."""
    bare = {k: v for k, v in request.items() if k != "luck_spend"}
    offered = points_offered(bare)
    return {**bare, offered[0]: 0} if offered else bare


def place_of(entry: dict) -> Place | None:
    """A logged roll's place, or None when it has no chance to weigh (a secret difficulty not
    revealed, a check the rules no longer take, a draw lost)."""
    request = judged_bare(entry["request"])
    try:
        outcome = replay(request)["outcome"]
        odds = skillcheck.odds(strip_draw(request))
    except (InvalidRequest, MissingDraw):
        return None
    if odds.get("success") is None:
        return None
    chances = {name: Fraction(p) for name, p in odds["outcomes"].items()}
    best_first = [name for name in skillcheck.SYSTEMS[entry["system"]]["outcomes"]
                  if name in chances]
    fair, below = {}, Fraction(0)
    for name in reversed(best_first):  # worst first
        fair[name] = below + chances[name] / 2
        below += chances[name]
    if outcome not in fair:
        return None
    values: dict[Fraction, Fraction] = {}
    for name, value in fair.items():
        if chances[name]:
            values[value] = values.get(value, Fraction(0)) + chances[name]
    return Place(entry, fair[outcome], values)


def tonight(entries: Iterable[dict]) -> list[dict]:
    """The rolls of the evening that ends with the newest: checks and reveals that count (not
    withdrawn), from the last EVENING, oldest first."""
    rolls = [e for e in entries if counts(e) and e["outcome"] != "secret"]
    if not rolls:
        return []
    newest = max(datetime.fromisoformat(e["time"]) for e in rolls)
    return sorted((e for e in rolls if newest - datetime.fromisoformat(e["time"]) <= EVENING),
                  key=lambda e: e["time"])


def run_chance(places: list[Place]) -> float:
    """Under fair dice, the chance that as many rolls give an average place at least as far
    from one half, on the same side, as these did: P(mean ≤ seen) for a run below one half,
    P(mean ≥ seen) for one above. Exact while the run's possible sums stay few (a short
    evening); past EXACT_SUMS, the normal approximation, good to about a point for the dozens
    of rolls that take it there (tests/test_tonight.py holds it to a simulation)."""
    seen = sum((p.place for p in places), Fraction(0))
    low = seen * 2 <= len(places)
    sums: dict[Fraction, Fraction] = {Fraction(0): Fraction(1)}
    for place in places:
        if len(sums) * len(place.fair) > EXACT_SUMS:
            return _normal(places, seen, low)
        nxt: dict[Fraction, Fraction] = {}
        for total, chance in sums.items():
            for value, p in place.fair.items():
                nxt[total + value] = nxt.get(total + value, Fraction(0)) + chance * p
        sums = nxt
    return float(sum(p for total, p in sums.items() if (total <= seen if low else total >= seen)))


def _normal(places: list[Place], seen: Fraction, low: bool) -> float:
    mean = sum(float(v * p) for place in places for v, p in place.fair.items())
    var = sum(float(sum(v * v * p for v, p in place.fair.items())
                    - sum(v * p for v, p in place.fair.items()) ** 2) for place in places)
    if var == 0:
        return 1.0
    z = (float(seen) - mean) / math.sqrt(var)
    below = 0.5 * math.erfc(-z / math.sqrt(2))
    return below if low else 1 - below


@dataclass(frozen=True)
class Run:
    """Whose rolls (a character's name, or "" for the whole table) and how they ran."""

    who: str
    places: list[Place]
    average: Fraction
    chance: float
    shared: int  # how many came from other phones


def runs(entries: Iterable[dict]) -> list[Run]:
    """Tonight's run for each character named (alphabetical), then the whole table's."""
    places = [p for p in map(place_of, tonight(entries)) if p is not None]
    names = sorted({p.entry.get("name") for p in places if p.entry.get("name")},
                   key=str.casefold)
    groups = [(name, [p for p in places if p.entry.get("name") == name]) for name in names]
    found = []
    for who, group in [*groups, ("", places)]:
        if group:
            average = sum((p.place for p in group), Fraction(0)) / len(group)
            found.append(Run(who, group, average, run_chance(group),
                             sum("shared" in p.entry for p in group)))
    return found


def sentence(run: Run) -> str:
    """One sentence for a screen reader: "Mara's dice ran in the bottom 8 % tonight: a run this
    unlucky happens about 1 evening in 12"."""
    whose = f"{run.who}’s dice" if run.who else "The table’s dice"
    percent = round(run.average * 100)
    low = run.average * 2 <= 1
    side = f"bottom {max(percent, 1)} %" if low else f"top {max(100 - percent, 1)} %"
    if run.average * 2 == 1:
        return f"{whose} ran right on the average tonight, over {_rolls(len(run.places))}."
    often = round(1 / run.chance) if run.chance > 0 else 0
    how = "unlucky" if low else "lucky"
    when = ("about every other evening" if often <= 2 else
            f"about 1 evening in {often:,}" if often else "almost never")
    return f"{whose} ran in the {side} tonight: a run this {how} happens {when}."


def _rolls(count: int) -> str:
    return f"{count} roll{'s' * (count != 1)}"
