"""Seed 004, Passages (Nerth LAWS of Engagement): percentile roll-under, Double Up/Down bands."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .draw import Draw
from .request import Flag, Form, Whole, no_secret
from .system import System, odds_from

BASE = Whole("base", "Skill base", 1, 100)
CONTESTED = Flag("contested", "Contested (use the Core)")
PRACTICE = Flag("practice", "Practice (no roll)")
OUTCOMES = ("double down", "success", "double up", "blown", "critical fail")
WINNERS = ("double down", "success", "double up")
FACES = 100  # a percentile roll: 1..100, where 100 is "00"


@dataclass(frozen=True)
class Check:
    """A Passages request, checked, with the bands it is judged by."""

    base: int
    contested: bool
    practice: bool

    @property
    def value(self) -> int:
        # "checks under Contest using the Core value, not the Base Value" — Core = ⌊base / 5⌋
        # (32 → 6).
        return self.base // 5 if self.contested else self.base

    @property
    def du(self) -> int:
        # "determine the DU (Double Up) to be 52 and the Double Down (DD) to be 13" (base 26).
        return 2 * self.value

    @property
    def dd(self) -> int:
        return self.value // 2

    def echo(self, dice: list[int]) -> dict:
        """The request as checked, with its roll (none for practice), so it replays."""
        return ({"system": "passages", "base": self.base, "contested": self.contested,
                 "practice": self.practice} | ({} if self.practice else {"dice": dice}))


def read(request: dict) -> Check:
    no_secret(request)
    return Check(BASE.read(request), CONTESTED.read(request), PRACTICE.read(request))


def judge(check: Check, roll: int) -> str:
    """The outcome of one percentile roll (100 is "00")."""
    if roll == FACES:
        return "critical fail"  # "A roll of precisely 100% means the Action fails."
    if roll > check.du:
        return "blown"  # "A roll higher than the Double Up value. The Action Fails."
    if roll > check.value:
        return "double up"  # "higher than the Skill BASE and lower than double the Skill BASE"
    if roll > check.dd:
        return "success"  # "equal to or less than Skill BASE and more than 1/2(Skill BASE)"
    return "double down"  # "equal to or less than 1/2 Skills BASE value"


def resolve(request: dict, draw: Draw) -> dict:
    check = read(request)
    value, du, dd = check.value, check.du, check.dd
    kind = f"Core {value} (⌊{check.base} / 5⌋)" if check.contested else f"Base {value}"
    explain = [f"{kind}: Double Up {du}, Double Down {dd}."]
    if check.practice:
        # "A player may 'practice' any skill ... they will automatically succeed."
        outcome, dice, roll = "success", [], None
        explain.append("Practice: no roll is needed, the skill succeeds.")
    else:
        dice = draw.dice(1, FACES, request.get("dice"), "dice")
        roll = dice[0]
        outcome = judge(check, roll)
        shown = "00 (100)" if roll == FACES else str(roll)
        explain.append(f"Rolled {shown} against {value}: {outcome}.")
    return {"system": "passages", "outcome": outcome, "success": outcome in WINNERS,
            "dice": dice, "roll": roll, "value": value, "du": du, "dd": dd,
            "explain": explain, "request": check.echo(dice)}


def odds(request: dict) -> dict:
    check = read(request)
    if check.practice:
        return odds_from({"success": Fraction(1)}, WINNERS)
    # Each band is a run of consecutive rolls 1..99 (100 is the critical fail), so its chance is
    # its width out of 100: the same as judging every roll, three times as fast.
    top, value, du, dd = FACES - 1, check.value, check.du, check.dd
    counts = {
        "double down": min(dd, top),
        "success": min(value, top) - min(dd, top),
        "double up": min(du, top) - min(value, top),
        "blown": top - min(du, top),
        "critical fail": 1,
    }
    answer = odds_from({name: Fraction(n, FACES) for name, n in counts.items() if n}, WINNERS)
    if check.value == 0:
        # "checks under Contest using the Core value": ⌊base / 5⌋ is 0 for a base of 1 to 4.
        answer["notes"] = {"base": f"Contested, a base of {check.base} has Core 0: every "
                                   "roll is blown (100 a critical fail)."}
    return answer


SYSTEM = System(
    name="passages", label="Passages", seed="004", button="Roll",
    outcomes=OUTCOMES, winners=WINNERS, resolve=resolve, odds=odds,
    fields=(BASE.shown("the skill’s base value", 50, label="Base"),
            CONTESTED.shown("roll against the Core (base ÷ 5)", label="Contested"),
            PRACTICE.shown("no roll: it succeeds", label="Practice")),
    draw=Form("dice", "one value 1–100 (00 is 100)"),
)
