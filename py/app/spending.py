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

from .characters import Roster, SpendError, already_spent, capped_text, within_limits
from .log_model import RollLog

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


def undo(roster: Roster, log: RollLog, character_id: int) -> tuple[dict, list[str]]:
    """The character's last spend, as stored now, given back and logged in one step."""
    _, record, warnings = roster.undo(character_id)
    return record, warnings + log.record_undo(record)[1]


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
