"""Seed 004, Passages (Nerth LAWS of Engagement): percentile roll-under, Double Up/Down bands."""

from __future__ import annotations

from fractions import Fraction

from .draw import Draw
from .exact import tally
from .request import Flag, Whole, no_secret
from .system import System, odds_from

BASE = Whole("base", "Skill base", 1, 100)
CONTESTED = Flag("contested", "Contested (use the Core)")
PRACTICE = Flag("practice", "Practice (no roll)")
OUTCOMES = ("double down", "success", "double up", "blown", "critical fail")
WINNERS = ("double down", "success", "double up")
FACES = 100  # a percentile roll: 1..100, where 100 is "00"


def _bands(request: dict) -> tuple[int, int, int, bool, bool]:
    no_secret(request)
    base = BASE.read(request)
    contested = CONTESTED.read(request)
    practice = PRACTICE.read(request)
    # "checks under Contest using the Core value, not the Base Value" — Core = ⌊base / 5⌋ (32 → 6).
    value = base // 5 if contested else base
    # "determine the DU (Double Up) to be 52 and the Double Down (DD) to be 13" for a base of 26.
    return value, 2 * value, value // 2, contested, practice


def band(roll: int, value: int, du: int, dd: int) -> str:
    """The outcome of one percentile roll (100 is "00")."""
    if roll == FACES:
        return "critical fail"  # "A roll of precisely 100% means the Action fails."
    if roll > du:
        return "blown"  # "A roll higher than the Double Up value. The Action Fails."
    if roll > value:
        return "double up"  # "higher than the Skill BASE and lower than double the Skill BASE"
    if roll > dd:
        return "success"  # "equal to or less than Skill BASE and more than 1/2(Skill BASE)"
    return "double down"  # "equal to or less than 1/2 Skills BASE value"


def resolve(request: dict, draw: Draw) -> dict:
    value, du, dd, contested, practice = _bands(request)
    checked = {"system": "passages", "base": request["base"], "contested": contested,
               "practice": practice}
    kind = f"Core {value} (⌊{request['base']} / 5⌋)" if contested else f"Base {value}"
    explain = [f"{kind}: Double Up {du}, Double Down {dd}."]
    if practice:
        # "A player may 'practice' any skill ... they will automatically succeed."
        outcome, dice, roll = "success", [], None
        explain.append("Practice: no roll is needed, the skill succeeds.")
    else:
        dice = draw.dice(1, FACES, request.get("dice"), "dice")
        roll = dice[0]
        outcome = band(roll, value, du, dd)
        shown = "00 (100)" if roll == 100 else str(roll)
        explain.append(f"Rolled {shown} against {value}: {outcome}.")
        checked["dice"] = dice
    return {"system": "passages", "outcome": outcome, "success": outcome in WINNERS,
            "dice": dice, "roll": roll, "value": value, "du": du, "dd": dd,
            "explain": explain, "request": checked}


def odds(request: dict) -> dict:
    value, du, dd, _, practice = _bands(request)
    if practice:
        return odds_from({"success": Fraction(1)}, WINNERS)
    rolls = ((roll, 1) for roll in range(1, FACES + 1))
    answer = odds_from(tally(rolls, lambda roll: band(roll, value, du, dd), FACES), WINNERS)
    if value == 0:
        # "checks under Contest using the Core value": ⌊base / 5⌋ is 0 for a base of 1 to 4.
        answer["notes"] = {"base": f"Contested, a base of {request['base']} has Core 0: every "
                                   "roll is blown (100 a critical fail)."}
    return answer


SYSTEM = System(
    name="passages", label="Passages percentile", seed="004", button="Roll",
    outcomes=OUTCOMES, winners=WINNERS, resolve=resolve, odds=odds,
    fields=(BASE, CONTESTED, PRACTICE),
)
