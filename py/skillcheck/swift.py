"""Seed 002, Swift edition: 2d10 rolled under Trait + Skill, nudged by bonus and luck points."""

from __future__ import annotations

from fractions import Fraction

from .draw import Draw
from .exact import sum_ways
from .pool import BONUS, DEGREES, FACES, LUCK, SKILL, TRAIT, WINNERS, degree, increments
from .request import no_secret
from .system import System, odds_from

LOWEST = 2  # no die goes below 1, so no increments take 2d10 under 2


def points(natural: int, target: int, bonus: int, luck: int) -> tuple[int, int]:
    """(bonus used, luck used) on a natural roll; each point lowers the roll by 1.

    "The same applies if the player wants to spend any Luck Points on the roll": bonus always
    lowers the roll as far as it goes; luck only when it then reaches the target, and the fewest.
    """
    bonus_used = min(bonus, natural - LOWEST)
    gap = natural - bonus_used - target
    return bonus_used, gap if 0 < gap <= luck else 0


def judge(natural: int, target: int, bonus: int, luck: int) -> dict:
    """What a natural roll against the target decides."""
    bonus_used, luck_used = points(natural, target, bonus, luck)
    roll = natural - bonus_used - luck_used
    # "If the target is matched or rolled under, it is a success."
    ios = increments(target, roll)
    outcome = degree(ios, natural > target >= roll)
    return {"outcome": outcome, "success": outcome in WINNERS, "target": target,
            "natural_roll": natural, "roll": roll, "ios": ios, "bonus_used": bonus_used,
            "luck_used": luck_used}


def _read(request: dict) -> tuple[int, int, int, int]:
    no_secret(request)
    return TRAIT.read(request), SKILL.read(request), BONUS.read(request), LUCK.read(request)


def resolve(request: dict, draw: Draw) -> dict:
    trait, skill, bonus, luck = _read(request)
    # "add the Trait and Skill scores together to get the target roll. Roll 2 d10 dice."
    target = trait + skill
    dice = draw.dice(2, FACES, request.get("dice"), "dice")
    result = judge(sum(dice), target, bonus, luck)
    explain = [f"Target: Trait {trait} + Skill {skill} = {target}.",
               f"Rolled 2d10: {dice[0]} + {dice[1]} = {sum(dice)}."]
    if result["bonus_used"]:
        explain.append(f"Bonus lowers the roll by {result['bonus_used']}"
                       f" to {sum(dice) - result['bonus_used']}.")
    if result["luck_used"]:
        explain.append(f"{result['luck_used']} Luck lowers it to the target.")
    elif luck:
        explain.append("No Luck spent: " + ("it was not needed." if result["success"] else
                                             f"{luck} Luck cannot reach the target."))
    explain.append(f"Roll {result['roll']} against target {target}: IoS {result['ios']},"
                   f" {result['outcome']}.")
    checked = {"system": "swift", "trait": trait, "skill": skill, "bonus": bonus, "luck": luck,
               "dice": dice}
    return {"system": "swift", **result, "dice": dice, "explain": explain, "request": checked}


def odds(request: dict) -> dict:
    trait, skill, bonus, luck = _read(request)
    sums = sum_ways(range(1, FACES + 1), 2)[2]
    counts: dict[str, int] = {}
    for natural, ways in sums.items():
        name = judge(natural, trait + skill, bonus, luck)["outcome"]
        counts[name] = counts.get(name, 0) + ways
    return odds_from({name: Fraction(n, FACES ** 2) for name, n in counts.items()}, WINNERS)


SYSTEM = System(
    name="swift", label="d10 Swift (2d10)", seed="002", button="Roll",
    outcomes=DEGREES, winners=WINNERS, resolve=resolve, odds=odds,
    fields=(TRAIT, SKILL, BONUS, LUCK),
)
