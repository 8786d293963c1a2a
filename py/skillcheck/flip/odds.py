"""Exact odds of a card flip, by counting hands, never by listing them.

Each side's kept card comes from exact.deck_extreme (C(4v, n) / C(52, n)); totals are that
shifted by aspect and shifts; opposed sides are independent decks; a team is a mixture over how
many secondaries succeed. `keep`, `cards` and `seed` are ignored: the player keeps the best card.
"""

from __future__ import annotations

from fractions import Fraction

from ..exact import deck_extreme, shifted, tally
from ..system import odds_from
from . import rules

Dist = dict[int, Fraction]


def totals(side: rules.Side, team_flip: int = 0) -> Dist:
    """The distribution of one side's total (before any shift from the team)."""
    bonus = side.aspect + side.shift
    if side.take7:
        return {7 + bonus: Fraction(1)}  # "assumed to have flipped a card with a face value of 7"
    count, keep_low = rules.cards_needed(side.n(team_flip))
    return shifted(deck_extreme(count, keep_low), bonus)


def _add(into: dict, key, p: Fraction) -> None:
    into[key] = into.get(key, Fraction(0)) + p


def _judged(dist: Dist, dtn: int) -> dict[str, Fraction]:
    return tally(dist.items(), lambda total: rules.judge(total, dtn))


def _with_totals(dist: Dist, dtn: int | None) -> dict:
    if dtn is None:
        return {"outcomes": {"secret": Fraction(1)}, "success": None, "totals": dist}
    return odds_from(_judged(dist, dtn), rules.WINNERS) | {"totals": dist}


def _opposed(check: rules.Check) -> dict:
    initiator, opponent = check.sides
    mine, theirs = totals(initiator), totals(opponent)
    pairs = (((total, rival), p * q) for total, p in mine.items() for rival, q in theirs.items())
    return odds_from(tally(pairs, lambda pair: rules.opposed_winner(
        pair[0], initiator.aspect, pair[1], opponent.aspect)[0]), rules.WINNERS)


def _team(check: rules.Check) -> dict:
    """The primary's total and outcome, mixed over how many secondaries succeed and whether one
    failed badly (which, with the GM's switch, raises the DTN)."""
    primary, *helpers = check.sides
    target = rules.secondary_dtn(check.dtn)
    mix: dict[tuple[int, bool], Fraction] = {(0, False): Fraction(1)}
    for side in helpers:
        dist = totals(side)
        win = sum((p for t, p in dist.items() if t >= target), Fraction(0))
        # Only the GM's switch makes a bad failure differ from a plain one.
        bad = _judged(dist, target).get("bad failure", 0) if check.gm_raise else 0
        nxt: dict[tuple[int, bool], Fraction] = {}
        for (successes, badly), p in mix.items():
            _add(nxt, (successes + 1, badly), p * win)
            _add(nxt, (successes, badly), p * (1 - win - bad))
            if bad:
                _add(nxt, (successes, True), p * bad)
        mix = nxt
    by_flip: dict[int, Dist] = {}  # the primary's totals with and without the team's flip+1
    by_dtn: dict[int, Dist] = {}  # the primary's totals against each DTN (raised or not)
    for (successes, badly), chance in mix.items():
        flip, shift = rules.team_bonus(rules.grants([True] * successes
                                                    + [False] * (len(helpers) - successes)))
        if flip not in by_flip:
            by_flip[flip] = totals(primary, flip)
        against = by_dtn.setdefault(rules.raised_dtn(check.dtn, badly, check.gm_raise), {})
        for total, p in by_flip[flip].items():
            _add(against, total + shift, chance * p)
    judged = [((total, dtn), p) for dtn, dist in by_dtn.items() for total, p in dist.items()]
    return (odds_from(tally(judged, lambda seen: rules.judge(*seen)), rules.WINNERS)
            | {"totals": tally(judged, lambda seen: seen[0])})


def odds(request: dict) -> dict:
    check = rules.read(request)
    if check.mode == "opposed":
        return _opposed(check)
    if check.mode == "team":
        return _team(check)
    return _with_totals(totals(check.sides[0]), check.dtn)
