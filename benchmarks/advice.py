"""The spend advisor's time beside the odds panel's, for the heaviest requests, in one run.

    PYTHONPATH=py python3 benchmarks/advice.py [--quick]

The odds panel (app/main.show_odds) works out skillcheck.odds of the request and, when it offers
Luck or Insurance, the same odds without them (the roll bar's "52 % · 99 % with Luck 3"). The
advisor (app/advice.py, drawn by result_html.advice_html) adds ten rows: the odds with 0 … 9
points. Each is timed as the page runs it, the best of a few runs under CPython (Pyodide runs
the same Python some times slower: the ratios carry over, the milliseconds do not). "one by one"
is the advisor as ten calls of skillcheck.odds, what odds_by's one pass over the rolls replaced
for the d10 pool's Luck. (The page then takes the request's own odds and the odds without
points from the advisor's rows, so with it the panel's work is the advisor's column alone.)

The d10 pool's heaviest requests are found first: every skill and DR at Trait 10 over a spread
of bonuses, each timed once (in CPU time); the slowest few are then timed properly. Swift and
the d6 pool (20 dice) are small beside it.

Last, the GM's party table (app/party.py, drawn by party_html.py) for six characters at the
heaviest pool's DR and bonus, Trait 10, skills 1 to 6, each offering 9 Luck: every row's odds
and its odds without Luck worked out anew, and the same table drawn again (each row's odds kept).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import odds as odds_benchmark  # benchmarks/odds.py: this script's folder is first on the path
import skillcheck
from app import advice, party, party_html, result_html
from app.characters import Roster
from app.storage import MemoryStorage

ROWS = advice.MOST_ROWS  # 0 … 9 points
RUNS = 7
BONUSES = (0, 3, 6, 12, 18, 24, 30, 40, 54, 100)


def best_of(runs: int, action: Callable[[], object]) -> float:
    """The fastest of a few runs, in milliseconds (benchmarks/odds.py's, in seconds)."""
    return 1000 * odds_benchmark.best_of(runs, action)


def panel(request: dict, field: str) -> None:
    """What show_odds worked out before the advisor: the odds, and the odds without points."""
    skillcheck.odds(request)
    skillcheck.odds({**request, field: 0})


def advisor(request: dict) -> None:
    result_html.advice_html(advice.advise(request))


def one_by_one(request: dict, field: str) -> None:
    for n in range(ROWS):
        skillcheck.odds({**request, field: n})


def heaviest_pools(quick: bool, keep: int) -> list[dict]:
    """The pool requests (Trait 10, Luck offering ten rows) whose advisor took longest."""
    skills = range(1, 11, 3 if quick else 1)
    drs = range(1, 11, 3 if quick else 1)
    found = []
    for skill in skills:
        for dr in drs:
            for bonus in BONUSES[::3] if quick else BONUSES:
                request = {"system": "pool", "trait": 10, "skill": skill, "dr": dr,
                           "bonus": bonus, "luck": ROWS - 1}
                start = time.process_time()  # CPU time: a busy machine's waits left out
                advisor(request)
                found.append((time.process_time() - start, request))
    found.sort(key=lambda pair: -pair[0])
    return [request for _, request in found[:keep]]


def said(request: dict) -> str:
    return ", ".join(f"{key} {value}" for key, value in request.items() if key != "system")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a coarser search of the pool")
    args = parser.parse_args()
    cases = [(request, "luck") for request in heaviest_pools(args.quick, 4)]
    cases += [({"system": "swift", "trait": 10, "skill": 10, "bonus": 3, "luck": ROWS - 1},
               "luck"),
              ({"system": "fluke", "dice_count": 20, "plan": -30, "insurance": ROWS - 1},
               "insurance")]
    print(f"{'request':58} {'odds panel':>11} {'advisor':>9} {'ratio':>6} {'one by one':>11}")
    worst_panel = worst_advisor = 0.0
    for request, field in cases:
        shown = best_of(RUNS, lambda r=request, f=field: panel(r, f))
        rows = best_of(RUNS, lambda r=request: advisor(r))
        naive = best_of(max(RUNS // 2, 1), lambda r=request, f=field: one_by_one(r, f))
        worst_panel, worst_advisor = max(worst_panel, shown), max(worst_advisor, rows)
        name = f"{request['system']}: {said(request)}"
        print(f"{name:58} {shown:>8.2f} ms {rows:>6.2f} ms {rows / shown:>6.2f}"
              f" {naive:>8.2f} ms")
    print(f"slowest: odds panel {worst_panel:.2f} ms, advisor {worst_advisor:.2f} ms"
          f" ({ROWS} rows); the pool's odds budget is 50 ms (benchmarks/odds.py)")
    party_table(cases[0][0])


def party_table(heaviest: dict) -> None:
    """The GM's table of six at the heaviest pool's DR and bonus: first drawn, then again."""
    roster = Roster(MemoryStorage())
    for score in range(1, 7):
        roster.create(f"Skill {score}", notes="", luck=ROWS - 1, xp=0, sheets={"pool": {
            "traits": {"Dexterity": 10}, "skills": {"Lockpicking": {
                "trait": "Dexterity", "score": score, "bonus": heaviest["bonus"]}}}})
    six, dr = roster.all(), str(heaviest["dr"])

    def draw(kept: party.Chances) -> None:
        rows = party.rows(six, "pool", "Lockpicking", dr, kept)
        party_html.party_html(rows, "pool", "Lockpicking", {"dr": heaviest["dr"]})

    kept = party.Chances()
    fresh = best_of(RUNS, lambda: draw(party.Chances()))
    draw(kept)
    again = best_of(RUNS, lambda: draw(kept))
    print(f"party table, 6 rows (pool: trait 10, skill 1-6, dr {dr}, bonus {heaviest['bonus']}, "
          f"luck {ROWS - 1}): {fresh:.2f} ms drawn anew, {again:.2f} ms drawn again")


if __name__ == "__main__":
    main()
