"""The card flip drawn: each side's cards, the one kept, and what happened in sentences the
player can check against the rulebook. The rulings themselves live in rules.py, shared with
odds.py."""

from __future__ import annotations

from dataclasses import dataclass

from ..draw import Draw, card_value
from ..errors import InvalidRequest
from ..request import path
from ..skills import BY_NAME
from .rules import (
    KEEP,
    WINNERS,
    Check,
    Side,
    cards_needed,
    grants,
    judge,
    opposed_winner,
    raised_dtn,
    rating_above,
    rating_below,
    rating_of,
    read,
    secondary_dtn,
    team_bonus,
)


def number(x: int) -> str:
    return str(x) if x >= 0 else f"−{-x}"


def signed(x: int) -> str:
    return f"+{x}" if x >= 0 else f"−{-x}"


def face(code: str) -> str:
    """"QH" → "Q (12)", "7H" → "7": the rank, with its value where the rank does not say it."""
    rank, value = code[:-1], card_value(code)
    return rank if rank == str(value) else f"{rank} ({value})"


def said(who: str, text: str) -> str:
    """A sentence about one side: "Primary kept ..." or, with no name, "Kept ..."."""
    return f"{who} {text}" if who else text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Flipped:
    """One side's flip: the cards, which one is kept (None when taking a 7), the team's help."""

    side: Side
    cards: tuple[str, ...]
    kept: int | None
    keep: int | None
    keep_low: bool
    team_flip: int = 0
    team_shift: int = 0

    @property
    def kept_value(self) -> int:
        return 7 if self.kept is None else card_value(self.cards[self.kept])

    @property
    def total(self) -> int:
        """"Chooses one card to keep / Add in associated Aspect / Adds or subtracts any flip
        shifts"."""
        return self.kept_value + self.side.aspect + self.side.shift + self.team_shift

    def result(self, dtn: int | None) -> dict:
        return {"cards": list(self.cards), "kept": self.kept, "kept_value": self.kept_value,
                "keep_low": self.keep_low, "take7": self.side.take7, "total": self.total,
                "dtn": dtn, "margin": None if dtn is None else self.total - dtn}

    def echo(self) -> dict:
        """The side as checked, with its draw filled in, so it replays to the same flip."""
        keep = {} if self.keep is None else {"keep": self.keep}
        return self.side.checked | {"cards": list(self.cards)} | keep


def flip_side(side: Side, draw: Draw, team_flip: int = 0, team_shift: int = 0,
              complete: bool = False) -> Flipped:
    """Flip a freshly shuffled deck for one side and keep the highest, the lowest or the chosen.
    `complete`: the count is the team's to decide, so a forced draw of another length is fitted
    to it (Draw.cards)."""
    keep = KEEP.read(side.obj, side.prefix)
    keep_field, cards_field = path(side.prefix, "keep"), path(side.prefix, "cards")
    if side.take7:
        # "Instead of flipping cards, he is assumed to have flipped a card with a face value of 7."
        if side.obj.get("cards") not in (None, []):
            raise InvalidRequest(cards_field, "no cards are flipped when taking a 7")
        if keep is not None:
            raise InvalidRequest(keep_field, "there is no card to choose when taking a 7")
        return Flipped(side, (), None, None, False, team_flip, team_shift)
    count, keep_low = cards_needed(side.n(team_flip))
    if keep is not None and keep_low:
        raise InvalidRequest(keep_field, "the lowest card is kept when the flip comes to 0 or less")
    if keep is not None and keep >= count:
        raise InvalidRequest(keep_field, f"must be a card index from 0 to {count - 1}")
    cards = draw.cards(count, side.obj.get("cards"), cards_field, complete)
    values = [card_value(code) for code in cards]
    # "He will then choose one of the flipped cards to use (usually the highest)".
    kept = keep if keep is not None else values.index(min(values) if keep_low else max(values))
    return Flipped(side, tuple(cards), kept, keep, keep_low, team_flip, team_shift)


def _skill_lines(side: Side, who: str) -> list[str]:
    if not side.skill:
        return []
    skill = BY_NAME[side.skill]
    aspect = f"{skill.aspect_name} [{skill.aspect}]" if skill.aspect_name else f"[{skill.aspect}]"
    kind = "an Advanced" if skill.advanced else "a Basic"
    return [said(who, f"uses {skill.name}, {kind} skill on {aspect}.")]


def _count_line(flipped: Flipped, who: str) -> str:
    side = flipped.side
    what = "aspect" if side.aspect_check else "rank"
    if side.take7:
        return said(who, f"took a 7 instead of flipping ({what} {side.base} is at least 1).")
    familiarity = " with a Familiarity" if side.advanced and side.base == 0 else ""
    parts = [f"{what} {number(side.base)}{familiarity}"]
    parts += [f"flip {signed(side.flip)}"] if side.flip else []
    parts += ["specialization +1"] if side.specialization else []
    parts += ["team flip +1"] if flipped.team_flip else []
    count, n = len(flipped.cards), side.n(flipped.team_flip)
    if not flipped.keep_low:
        return said(who, f"flipped {count} card{'s' if count != 1 else ''}: {', '.join(parts)}.")
    shown = number(n) if n >= 0 else f"({number(n)})"
    come = "comes" if len(parts) == 1 else "come"
    return said(who, f"flipped {count} cards, keeping the lowest: {', '.join(parts)} {come} to "
                     f"{number(n)}, so 2 − {shown} = {count}.")


def _side_lines(flipped: Flipped, who: str) -> list[str]:
    cards = [said(who, f"turned up {', '.join(flipped.cards)}.")] if flipped.cards else []
    return _skill_lines(flipped.side, who) + [_count_line(flipped, who)] + cards


def _sum(flipped: Flipped, who: str) -> str:
    """"Kept Q (12) + aspect 3 + shift 1 = 16" (no full stop: the caller judges it)."""
    side = flipped.side
    if flipped.kept is None:
        start = "7"
    else:
        start = ("the chosen " if flipped.keep is not None else "")
        start += face(flipped.cards[flipped.kept])
    terms = [f"aspect {number(side.aspect)}"]
    terms += [f"shift {number(side.shift)}"] if side.shift else []
    terms += [f"team shift {number(flipped.team_shift)}"] if flipped.team_shift else []
    return said(who, f"kept {start} + {' + '.join(terms)} = {number(flipped.total)}")


def _against(dtn: int) -> str:
    """"DTN 16 (hard)": a DTN named by its rating, the highest ladder value at or below it."""
    rating = rating_of(dtn)
    return f"DTN {dtn} ({rating[0]})" if rating else f"DTN {dtn}"


def _level_lines(total: int, dtn: int, outcome: str) -> list[str]:
    if outcome == "great success":
        name, value = rating_above(dtn)
        return [f"Great success: {number(total)} reaches {name} ({value}), the next difficulty "
                f"above DTN {dtn}."]
    if outcome == "bad failure":
        name, value = rating_below(dtn)
        return [f"Bad failure: {number(total)} is below {name} ({value}), the next difficulty "
                f"below {_against(dtn)}."]
    return []


def _judged(flipped: Flipped, who: str, dtn: int) -> tuple[str, list[str]]:
    """The side's outcome against `dtn`, and the sentences that show it."""
    outcome = judge(flipped.total, dtn)
    lines = [f"{_sum(flipped, who)} against {_against(dtn)}: {outcome}."]
    return outcome, lines + _level_lines(flipped.total, dtn, outcome)


def _single(check: Check, draw: Draw) -> dict:
    """Unopposed and aspect flips: one side against the DTN, or a secret DTN the GM keeps."""
    flipped = flip_side(check.sides[0], draw)
    explain = _side_lines(flipped, "")
    if check.dtn is None:
        outcome, success = "secret", None
        explain.append(f"{_sum(flipped, '')}; the DTN is secret, so the GM judges it.")
    else:
        outcome, lines = _judged(flipped, "", check.dtn)
        success = outcome in WINNERS
        explain += lines
    seal = check.seal
    if seal:
        explain += seal.explain(f"DTN {check.dtn}")
    return {"system": "flip", "mode": check.mode, "outcome": outcome, "success": success,
            **flipped.result(check.dtn), **(seal.result() if seal else {}), "explain": explain,
            "request": check.echo([flipped.echo()])}


def _opposed(check: Check, draw: Draw) -> dict:
    """"Whoever is higher wins", then the higher aspect, then the initiator."""
    mine, theirs = (flip_side(side, draw) for side in check.sides)
    explain = []
    if "gm_allows_take7" in check.head and (mine.side.take7 or theirs.side.take7):
        explain.append("The GM allows taking a 7 in this opposed flip (rare circumstances).")
    for flipped, who in ((mine, "Initiator"), (theirs, "Opponent")):
        explain += _side_lines(flipped, who) + [_sum(flipped, who) + "."]
    outcome, tiebreak = opposed_winner(mine.total, mine.side.aspect, theirs.total,
                                       theirs.side.aspect)
    high, low = sorted((mine.total, theirs.total), reverse=True)
    if tiebreak is None:
        explain.append(f"{number(high)} beats {number(low)}: the {outcome} wins.")
    elif tiebreak == "aspect":
        aspects = sorted((mine.side.aspect, theirs.side.aspect), reverse=True)
        explain.append(f"Tied at {number(high)}; aspect {number(aspects[0])} beats "
                       f"{number(aspects[1])}: the {outcome} wins.")
    else:
        explain.append(f"Tied at {number(high)} and aspects tied at {number(mine.side.aspect)}: "
                       "the initiator wins.")
    return {"system": "flip", "mode": "opposed", "outcome": outcome,
            "success": outcome == "initiator", "tiebreak": tiebreak,
            "margin": mine.total - theirs.total,
            "initiator": mine.result(None), "opponent": theirs.result(None), "explain": explain,
            "request": check.echo([mine.echo(), theirs.echo()])}


def _team(check: Check, draw: Draw) -> dict:
    """"Secondary participants flip with a DTN one level lower ... Then the primary makes his
    flip." The secondaries are drawn first, each from a fresh deck, then the primary."""
    primary, *helpers = check.sides
    target = secondary_dtn(check.dtn)
    explain = []
    if helpers:
        explain.append(f"The helpers flip against DTN {target}, one difficulty below "
                       f"{check.dtn}." if target != check.dtn else
                       f"The helpers flip against DTN {target}: no difficulty is lower.")
    flips = [flip_side(side, draw) for side in helpers]
    judged = [judge(flipped.total, target) for flipped in flips]
    given = grants([outcome in WINNERS for outcome in judged])
    dtn = raised_dtn(check.dtn, "bad failure" in judged, check.gm_raise)
    secondaries = []
    for i, (flipped, outcome, grant) in enumerate(zip(flips, judged, given, strict=True)):
        who = f"Helper {i + 1}"  # as the form names them (the rulebook: secondaries)
        explain += _side_lines(flipped, who)
        explain.append(f"{_sum(flipped, who)} against {_against(target)}: {outcome}, so "
                       f"{grant.replace('+', ' +').replace('-', ' −')} for the primary.")
        if outcome == "bad failure" and not check.gm_raise:
            explain.append(f"{who} failed by enough that the GM may raise the DTN one step.")
        secondaries.append(flipped.result(target) | {
            "outcome": outcome, "success": outcome in WINNERS, "grant": grant})
    team_flip, team_shift = team_bonus(given)
    if helpers:
        help_parts = [f"flip {signed(team_flip)}"] if team_flip else []
        help_parts += [f"shift {signed(team_shift)}"] if team_shift or not team_flip else []
        explain.append(f"The team gives the primary {' and '.join(help_parts)}.")
    if dtn != check.dtn:
        explain.append(f"A helper failed badly, so the GM raises the DTN one category: "
                       f"{check.dtn} → {_against(dtn)}.")
    elif check.gm_raise and "bad failure" in judged:
        explain.append(f"A helper failed badly, but no difficulty is higher than DTN {dtn}.")
    flipped = flip_side(primary, draw, team_flip, team_shift, complete=True)
    outcome, lines = _judged(flipped, "Primary", dtn)
    explain += _side_lines(flipped, "Primary") + lines
    return {"system": "flip", "mode": "team", "outcome": outcome,
            "success": outcome in WINNERS, "dtn": dtn,
            "raised_from": check.dtn if dtn != check.dtn else None,
            "granted": {"flip": team_flip, "shift": team_shift},
            "primary": flipped.result(dtn) | {"outcome": outcome, "success": outcome in WINNERS},
            "secondaries": secondaries, "explain": explain,
            "request": check.echo([flipped.echo(), *(f.echo() for f in flips)])}


RESOLVERS = {"unopposed": _single, "aspect": _single, "opposed": _opposed, "team": _team}


def resolve(request: dict, draw: Draw) -> dict:
    check = read(request)
    return RESOLVERS[check.mode](check, draw)

