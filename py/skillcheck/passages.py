"""Seed 004, Passages (Nerth LAWS of Engagement): percentile roll-under, Double Up/Down bands."""

from __future__ import annotations

from fractions import Fraction

from .draw import Draw
from .request import Flag, Whole, no_secret
from .system import System, odds_from

BASE = Whole("base", "Skill base", 1, 100)
CONTESTED = Flag("contested", "Contested (use the Core)")
PRACTICE = Flag("practice", "Practice (no roll)")
OUTCOMES = ("double down", "success", "double up", "blown", "critical fail")
WINNERS = ("double down", "success", "double up")


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
    if roll == 100:
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
        dice = draw.dice(1, 100, request.get("dice"), "dice")
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
    # Each band is a run of consecutive rolls 1..99 (100 is the critical fail), so its chance is
    # its width out of 100.
    top = 99
    counts = {
        "double down": min(dd, top),
        "success": min(value, top) - min(dd, top),
        "double up": min(du, top) - min(value, top),
        "blown": top - min(du, top),
        "critical fail": 1,
    }
    outcomes = {name: Fraction(n, 100) for name, n in counts.items() if n}
    answer = odds_from(outcomes, WINNERS)
    if value == 0:
        # "checks under Contest using the Core value": ⌊base / 5⌋ is 0 for a base of 1 to 4.
        answer["notes"] = {"base": f"Contested, a base of {request['base']} has Core 0: every "
                                   "roll is blown (100 a critical fail)."}
    return answer


SYSTEM = System(
    name="passages", label="Passages", seed="004", button="Roll",
    outcomes=OUTCOMES, winners=WINNERS, resolve=resolve, odds=odds,
    fields=(BASE, CONTESTED, PRACTICE),
)
