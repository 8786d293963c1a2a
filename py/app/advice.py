"""The spend advisor, before the roll: what each more point of Luck (or Insurance) buys.

For a system whose record names its `points` (py/app/systems/record.py), one row per point
offered from 0 up to what the request offers — at most MOST_ROWS rows, and no more than a picked
character has (the caller hands in the request within their stock) — each with the exact chance
of success and of each better degree, and the first point that adds nothing to the chance of
success. Every row is `skillcheck.odds` of the request with the point field at that number
(`skillcheck.odds_by` works the d10 pool's Luck out in one pass).

What a point is: the field a player chooses how much of to offer before the roll. The d10 pool
and Swift offer two, Bonus and Luck; the rows count Luck, with Bonus as typed. Bonus belongs to
the skill (the sheet fills it in) and is always spent, so it is no choice at the table, while
Luck is a stock the player decides to offer and pays for; rows that changed meaning with the box
last touched would also leave the player unsure what a row counts. The d6 pool's Fluke Insurance
is its one point (2 XP each, spent whether needed or not).

Pure Python: the page's odds panel (main.show_odds) draws it with result_html.advice_html.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

import skillcheck

from .systems import page_of

MOST_ROWS = 10


@dataclass(frozen=True)
class Row:
    """One number of points: its odds (skillcheck.odds with the field at `points`), the
    chance of success and, column by column, of each better degree or better."""

    points: int
    odds: dict
    success: Fraction
    better: tuple[Fraction, ...]


@dataclass(frozen=True)
class Advice:
    """The advisor's table: what a row counts (`field`, `word`), the system's winning outcomes
    (the best first), the degrees it has a column for after success (each "or better", the
    best last), its rows, and the points whose row first adds nothing to the chance of success
    (None: each row adds to it)."""

    system: str
    field: str
    word: str
    winners: tuple[str, ...]
    degrees: tuple[str, ...]
    rows: tuple[Row, ...]
    stops: int | None
    held: tuple[tuple[str, int], ...]  # the other point fields, as every row holds them

    @property
    def offered(self) -> int:
        return self.rows[-1].points

    def odds_of(self, request: dict) -> dict | None:
        """skillcheck.odds(request) when a row already holds it (the request offers no more
        points than the rows count), so the odds panel need not work it out again; else None."""
        offered = request.get(self.field, 0)
        if isinstance(offered, bool) or not isinstance(offered, int):
            return None
        return self.rows[offered].odds if 0 <= offered < len(self.rows) else None


def advise(request: dict) -> Advice | None:
    """The advisor for `request`, or None where its system spends no points or the chance of
    success is not one number (a secret difficulty). InvalidRequest as skillcheck.odds."""
    page = page_of(request.get("system"))
    points = page.points if page else None
    if points is None:
        return None
    offered = request.get(points.field)
    offered = offered if isinstance(offered, int) and not isinstance(offered, bool) else 0
    answers = skillcheck.odds_by(request, points.field, min(max(offered, 0), MOST_ROWS - 1))
    if answers[0].get("success") is None:
        return None
    winners = tuple(skillcheck.SYSTEMS[page.id]["winners"])  # the best first
    degrees = tuple(reversed(winners[:-1]))
    rows = tuple(_row(n, odds, winners, degrees) for n, odds in enumerate(answers))
    stops = next((row.points for before, row in pairwise(rows)
                  if row.success == before.success), None)
    held = tuple((name, request[name]) for name in points.held
                 if isinstance(request.get(name), int))
    return Advice(page.id, points.field, points.word, winners, degrees, rows, stops, held)


def _row(points: int, odds: dict, winners: tuple[str, ...], degrees: tuple[str, ...]) -> Row:
    chances = {name: Fraction(p) for name, p in odds["outcomes"].items()}

    def at_least(degree: str) -> Fraction:
        return sum((chances.get(name, Fraction(0))
                    for name in winners[:winners.index(degree) + 1]), Fraction(0))

    return Row(points, odds, Fraction(odds["success"]), tuple(at_least(d) for d in degrees))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def verdict(advice: Advice) -> str:
    """Where the next point stops helping, in a sentence under the table."""
    word = advice.word
    if advice.offered == 0:
        return f"Offer {word} to see what each point of it adds."
    if advice.stops is not None:
        return f"A {ordinal(advice.stops)} {word} adds nothing to the chance of success."
    return f"Each {word} up to {advice.offered} adds to the chance of success."
