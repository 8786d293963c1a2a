"""Under a result's headline: the chance of success it was rolled at, and a compact bar of every
outcome's share of its odds, in the rulebook's order, with a mark where this draw landed — so the
player reads what happened and how likely it was in one glance, without scrolling to the odds.

Pure, so CPython tests read it: the odds are the same exact ones the odds panel shows, worked out
again from the result's own request with its draw left out (a roll shown from the log or a link
has no form to take them from). Points offered (Luck, Insurance) are said as the roll bar says
them: the dice's own chance first, then the chance with the points.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

import skillcheck
from skillcheck import InvalidRequest

from .log_model import strip_draw
from .result_html import chances_said, percent
from .systems import outcome_name, points_offered

GAP = 0.6  # per cent of the bar left between two outcomes, so each share reads as its own


def chances(request: dict) -> tuple[dict, dict, str] | None:
    """(the odds the request was rolled at, the same offering no points, how the points are
    said or ""), or None when no chance of success is known: a secret difficulty not yet
    revealed. A GM's reveal keeps its request marked secret, so the mark is dropped here."""
    asked = {**strip_draw(request), "secret": False} if "secret" in request else strip_draw(
        request)
    try:
        odds = skillcheck.odds(asked)
        offered = points_offered(asked)
        bare = skillcheck.odds({**asked, offered[0]: 0}) if offered else odds
    except InvalidRequest:
        return None
    if odds.get("success") is None:
        return None
    return odds, bare, offered[1] if offered else ""


def had_text(odds: dict, bare: dict, points: str) -> str:
    """"it had 52 % to succeed · 99 % with Luck 3", as the roll bar said it before the roll."""
    first, more = chances_said(odds, bare, points)
    return f"it had {first} to succeed" + (f" · {more}" if more else "")


def landed_html(result: dict) -> str:
    """The chance line and the outcome bar for `result`, or "" when no chance is known."""
    found = chances(result["request"])
    if found is None:
        return ""
    odds, bare, points = found
    return (f'<div class="landed"><p class="had" data-fraction="{Fraction(bare["success"])}">'
            f"{escape(had_text(odds, bare, points))}</p>"
            f'{outcome_bar(result["system"], bare, result["outcome"])}</div>')


def shares_said(system: str, odds: dict) -> str:
    """Every outcome's share of `odds` in the rulebook's order and words: "Critical Success
    9.5 %, Success (IoS 2) 24.1 %, …" (the bar's label, and the party table's line)."""
    shares = {name: Fraction(p) for name, p in odds["outcomes"].items()}
    return ", ".join(f"{outcome_name(system, name)} {percent(shares[name])}".replace(
        " %", "\u00a0%") for name in skillcheck.SYSTEMS[system]["outcomes"] if shares.get(name))


def outcome_bar(system: str, odds: dict, landed: str | None = None) -> str:
    """A compact bar of every outcome's share of `odds`, in the rulebook's order, winners
    green; with `landed`, that outcome marked as where a roll fell. Its label says each share
    in words (and the roll's outcome). The GM's party table draws one per character."""
    description = skillcheck.SYSTEMS[system]
    shares = {name: Fraction(p) for name, p in odds["outcomes"].items()}
    order = [name for name in description["outcomes"] if shares.get(name)]
    winners = set(description.get("winners", ()))
    segments, marks, start = [], "", 0.0
    room = 100 - GAP * (len(order) - 1)
    for name in order:
        width = float(shares[name]) * room
        here = name == landed
        classes = f'{"good" if name in winners else "bad"}{" landed" * here}'
        segments.append(f'<rect class="{classes}" x="{start:.3f}" width="{width:.3f}" '
                        'height="6" rx="1"/>')
        if here:
            middle = start + width / 2
            marks = (f'<path class="landed-mark" d="M{middle - 2:.3f} 0 L{middle + 2:.3f} 0 '
                     f'L{middle:.3f} 3 Z"/>')
        start += width + GAP
    label = f"Chances: {shares_said(system, odds)}." + (
        f" This roll: {outcome_name(system, landed)}." if landed else "")
    return (f'<svg class="outcome-bar" viewBox="0 -1 100 11" preserveAspectRatio="none" '
            f'role="img" aria-label="{escape(label)}"><g transform="translate(0 4)">'
            f'{"".join(segments)}</g>{marks}</svg>')
