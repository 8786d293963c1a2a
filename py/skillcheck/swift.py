"""Seed 002, Swift edition: 2d10 rolled under Trait + Skill, nudged by bonus and luck points."""

from __future__ import annotations

from fractions import Fraction

from .draw import Draw
from .exact import sum_ways
from .pool import (
    BONUS,
    DEGREES,
    FACES,
    LUCK,
    SKILL,
    TRAIT,
    WINNERS,
    degree,
    increments,
    luck_offers,
    read_luck_spend,
)
from .request import no_secret
from .system import System, odds_from

LOWEST = 2  # no die goes below 1, so no increments take 2d10 under 2


def points(natural: int, target: int, bonus: int, luck: int,
           luck_spend: int | None = None) -> tuple[int, int]:
    """(bonus used, luck used) on a natural roll; each point lowers the roll by 1.

    "The same applies if the player wants to spend any Luck Points on the roll": bonus always
    lowers the roll as far as it goes; luck only when it then reaches the target, and the fewest
    — unless the player chose `luck_spend` after the roll: that much, as far as the roll goes.
    """
    bonus_used = min(bonus, natural - LOWEST)
    if luck_spend is not None:
        return bonus_used, min(luck_spend, natural - bonus_used - LOWEST)
    gap = natural - bonus_used - target
    return bonus_used, gap if 0 < gap <= luck else 0


def _degree(natural: int, target: int, bonus_used: int, luck_used: int) -> tuple[str, int, int]:
    """(degree, IoS, roll) of a natural roll lowered by the points used."""
    roll = natural - bonus_used - luck_used
    # "If the target is matched or rolled under, it is a success."
    ios = increments(target, roll)
    return degree(ios, natural > target >= roll), ios, roll


def judge(natural: int, target: int, bonus: int, luck: int,
          luck_spend: int | None = None) -> dict:
    """What a natural roll against the target decides, and what more Luck could make of it."""
    bonus_used, luck_used = points(natural, target, bonus, luck, luck_spend)
    outcome, ios, roll = _degree(natural, target, bonus_used, luck_used)
    # Each point lowers the roll by one, down to 2: every spend up to that may change the degree.
    offers = luck_offers(
        lambda n: _degree(natural, target, *points(natural, target, bonus, luck, n))[0],
        outcome, range(min(luck, natural - bonus_used - LOWEST) + 1))
    return {"outcome": outcome, "success": outcome in WINNERS, "target": target,
            "natural_roll": natural, "roll": roll, "ios": ios, "bonus_used": bonus_used,
            "luck_used": luck_used, "luck_offers": offers}


def _read(request: dict) -> tuple[int, int, int, int, int | None]:
    no_secret(request)
    luck = LUCK.read(request)
    return (TRAIT.read(request), SKILL.read(request), BONUS.read(request), luck,
            read_luck_spend(request, luck))


def resolve(request: dict, draw: Draw) -> dict:
    trait, skill, bonus, luck, luck_spend = _read(request)
    # "add the Trait and Skill scores together to get the target roll. Roll 2 d10 dice."
    target = trait + skill
    dice = draw.dice(2, FACES, request.get("dice"), "dice")
    result = judge(sum(dice), target, bonus, luck, luck_spend)
    explain = [f"Target: Trait {trait} + Skill {skill} = {target}.",
               f"Rolled 2d10: {dice[0]} + {dice[1]} = {sum(dice)}."]
    if result["bonus_used"]:
        explain.append(f"Bonus lowers the roll by {result['bonus_used']}"
                       f" to {sum(dice) - result['bonus_used']}.")
    if luck_spend is not None:
        explain.append(f"The player chose to spend {luck_spend} Luck after the roll: it lowers"
                       f" the roll by {result['luck_used']}.")
    elif result["luck_used"]:
        explain.append(f"{result['luck_used']} Luck lowers it to the target.")
    elif luck:
        explain.append("No Luck spent: " + ("it was not needed." if result["success"] else
                                             f"{luck} Luck cannot reach the target."))
    explain.append(f"Roll {result['roll']} against target {target}: IoS {result['ios']},"
                   f" {result['outcome']}.")
    checked = {"system": "swift", "trait": trait, "skill": skill, "bonus": bonus, "luck": luck,
               **({} if luck_spend is None else {"luck_spend": luck_spend}), "dice": dice}
    return {"system": "swift", **result, "dice": dice, "explain": explain, "request": checked}


def odds(request: dict) -> dict:
    """Before the roll: `luck_spend`, chosen after seeing the dice, is ignored like a draw."""
    trait, skill, bonus, luck, _ = _read(request)
    sums = sum_ways(range(1, FACES + 1), 2)[2]
    counts: dict[str, int] = {}
    for natural, ways in sums.items():
        name = _degree(natural, trait + skill, *points(natural, trait + skill, bonus, luck))[0]
        counts[name] = counts.get(name, 0) + ways
    return odds_from({name: Fraction(n, FACES ** 2) for name, n in counts.items()}, WINNERS)


SYSTEM = System(
    name="swift", label="Swift", seed="002", button="Roll",
    outcomes=DEGREES, winners=WINNERS, resolve=resolve, odds=odds,
    fields=(TRAIT, SKILL, BONUS, LUCK),
)
