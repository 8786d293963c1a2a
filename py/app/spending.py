"""A check and what it costs a character, as one change of the characters and the roll log.

Each function here is one such change, run under the cross-tab lock (browser.change, see
shared.py): the stock is read as storage holds it now, and the spend is taken and logged in the
same step. So a screen claims only a spend that was saved, with its log entry, and a refused
spend changes nothing. A check that spends nothing is logged after it is shown, as any other
roll (log_panel.record).

Pure Python: the roster and the log are handed in, and so is how a check is judged and logged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import skillcheck

from .characters import Roster, SpendError, already_spent, capped_text, within_limits
from .links import MissingDraw, replay
from .log_model import RollLog, counts
from .systems import outcome_name
from .tonight import judged_bare

Logged = tuple[dict, list[str]]  # a log entry and the warnings its save gave


@dataclass
class Judged:
    """A check as this step judged it, and what the step saved of it."""

    result: dict
    entry: dict | None = None  # its log entry, when this step wrote it
    record: dict | None = None  # what it took from the character (characters.apply_result)
    note: str | None = None  # for the player, beside the result
    warnings: list[str] = field(default_factory=list)


def judge(roster: Roster, log: RollLog, character_id: int, request: dict,
          judged: Callable[[dict], dict], log_it: Callable[[dict], Logged]) -> Judged:
    """`request` judged (`judged`: drawn now, or a draw judged again) for the character as
    stored now, offering no more Luck or Insurance than they have left (the note says so when
    that is less than `request` offered). When it spends, it is logged (`log_it`) and paid in
    this step; SpendError when the character is no longer saved."""
    roster.refresh()
    character = roster.get(character_id)
    if character is None:
        raise SpendError("That character is no longer saved here.")
    capped = within_limits(character, request)
    out = Judged(judged(capped), note=capped_text(character, request, capped))
    if already_spent(out.result):
        out.entry, logged = log_it(out.result)
        _, out.record, paid = roster.spend(character_id, out.result)
        out.warnings = logged + paid + log.record_spend(out.record, out.entry["id"])[1]
    return out


def choose(roster: Roster, log: RollLog, character_id: int, result: dict, already: int,
           log_it: Callable[[dict], Logged]) -> Judged:
    """The player's choice on the dice shown (Luck spent after the roll): `result`, the same
    draw judged again, takes what it spends beyond the `already` the shown check took, from the
    character as stored now — SpendError, and nothing changed, when they no longer have it —
    and then the shown check's log entry is amended (`log_it`)."""
    _, record, paid = roster.spend(character_id, result, already)
    entry, logged = log_it(result)
    out = Judged(result, entry, record, warnings=paid + logged)
    if record is not None:
        out.warnings += log.record_spend(record, entry["id"])[1]
    return out


@dataclass
class Undone:
    """A character's last spend given back ("Undo last spend"), as this step saved it."""

    record: dict  # the undo record (characters.undo_spend)
    entry: dict | None = None  # the roll it paid for, judged again without it: its entry
    result: dict | None = None  # and that judgement
    warnings: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """What the player is told: what came back, and what the roll stands at now."""
        if self.result is None:
            return self.record["text"]
        outcome = outcome_name(self.result["system"], self.result["outcome"])
        return f"{self.record['text']} The roll it paid for is judged without it: {outcome}."


def undo(roster: Roster, log: RollLog, character_id: int) -> Undone:
    """The character's last spend, as stored now, given back and logged in one step. A roll it
    paid for that still counts is judged again on its draw without it (`judged_without`), its
    log entry amended: no roll keeps what its points bought once they are given back. A spend
    no judgement can take out is refused (SpendError), and nothing changes."""
    log.refresh()
    spend = log.newest_spend(character_id)
    check = spend and spend["check"] is not None and log.get(spend["check"])
    undone = {e["undoes"] for e in log.items() if e["kind"] == "undo"}
    paid_for = (check if check and check["kind"] in ("check", "reveal") and counts(check)
                and spend["id"] not in undone else None)
    result = judged_without(paid_for["request"], spend["amount"]) if paid_for else None
    if paid_for and result is None:
        raise SpendError(f"That spend is part of the roll it paid for ({paid_for['summary']}) "
                         "and cannot be taken out of it alone: withdraw the roll with its "
                         "Undo, or change the stock in Edit character.")
    _, record, warnings = roster.undo(character_id)
    out = Undone(record, result=result, warnings=warnings)
    if paid_for:
        out.entry, amended = log.amend_check(paid_for["id"], result)
        out.warnings += amended
    out.warnings += log.record_undo(record)[1]
    return out


def judged_without(request: dict, amount: int) -> dict | None:
    """The logged check `request` judged again on its own draw with its last `amount` of points
    given back: as it stood before its last Luck choice (as first judged, or an earlier offer),
    else with no points offered at all — the first of those that spends exactly `amount` less.
    None when none does, or when the rules can no longer judge it."""
    try:
        target = already_spent(replay(request)) - amount
        first = {key: value for key, value in request.items() if key != "luck_spend"}
        judged = replay(first)
        tries = [judged, *(replay({**first, "luck_spend": offer["luck_spend"]})
                           for offer in judged.get("luck_offers") or []),
                 replay(judged_bare(request))]
    except (skillcheck.InvalidRequest, MissingDraw):
        return None
    return next((result for result in tries if already_spent(result) == target), None)


@dataclass
class Withdrawn:
    """A roll taken back with Undo, as this step saved it: its entry marked withdrawn and what
    was given back, in the player's words."""

    entry: dict
    given: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def withdraw(roster: Roster, log: RollLog, check_id: int) -> Withdrawn:
    """The roll `check_id` withdrawn and every spend it made that was not given back yet given
    back, each logged as an undo of that spend, in one step. WithdrawError (log_model), and
    nothing changed, when the roll no longer counts; a character deleted since gets nothing."""
    entry, spends, warnings = log.withdraw(check_id)
    out = Withdrawn(entry, warnings=warnings)
    for spend in spends:
        newest = log.newest_spend(spend["character"])
        record, saved = roster.give_back(spend, newest is not None and newest["id"] == spend["id"])
        out.warnings += saved
        if record is None:
            out.given.append(f"{spend['name']} is no longer saved here: nothing was given back.")
            continue
        out.given.append(record["text"])
        if record["amount"]:
            out.warnings += log.record_undo(record, spend["id"])[1]
    return out
