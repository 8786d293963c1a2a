"""Seed 002, Swift edition: 2d10 rolled under Trait + Skill, nudged by bonus and luck points."""

from __future__ import annotations

from dataclasses import dataclass

from .draw import Draw
from .exact import sum_ways, tally
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
from .request import Form, no_secret
from .system import System, odds_from

LOWEST = 2  # no die goes below 1, so no increments take 2d10 under 2


@dataclass(frozen=True)
class Check:
    """A Swift request, checked."""

    trait: int
    skill: int
    bonus: int
    luck: int
    luck_spend: int | None = None  # chosen after the roll; None: only to reach the target

    @property
    def target(self) -> int:
        # "add the Trait and Skill scores together to get the target roll. Roll 2 d10 dice."
        return self.trait + self.skill

    def echo(self, dice: list[int]) -> dict:
        """The request as checked, with its roll, so it replays to the same result."""
        chosen = {} if self.luck_spend is None else {"luck_spend": self.luck_spend}
        return {"system": "swift", "trait": self.trait, "skill": self.skill, "bonus": self.bonus,
                "luck": self.luck, **chosen, "dice": dice}


def read(request: dict) -> Check:
    no_secret(request)
    luck = LUCK.read(request)
    return Check(TRAIT.read(request), SKILL.read(request), BONUS.read(request), luck,
                 read_luck_spend(request, luck))


def points(check: Check, natural: int, luck_spend: int | None) -> tuple[int, int]:
    """(bonus used, luck used) on a natural roll; each point lowers the roll by 1.

    "The same applies if the player wants to spend any Luck Points on the roll": bonus always
    lowers the roll as far as it goes; luck only when it then reaches the target, and the fewest
    — unless the player chose `luck_spend` after the roll: that much, as far as the roll goes.
    """
    bonus_used = min(check.bonus, natural - LOWEST)
    if luck_spend is not None:
        return bonus_used, min(luck_spend, natural - bonus_used - LOWEST)
    gap = natural - bonus_used - check.target
    return bonus_used, gap if 0 < gap <= check.luck else 0


def _degree(natural: int, target: int, bonus_used: int, luck_used: int) -> tuple[str, int, int]:
    """(degree, IoS, roll) of a natural roll lowered by the points used."""
    roll = natural - bonus_used - luck_used
    # "If the target is matched or rolled under, it is a success."
    ios = increments(target, roll)
    return degree(ios, natural > target), ios, roll


def judge(check: Check, natural: int) -> dict:
    """What a natural roll against the target decides, and what more Luck could make of it."""
    target = check.target
    bonus_used, luck_used = points(check, natural, check.luck_spend)
    outcome, ios, roll = _degree(natural, target, bonus_used, luck_used)
    # Each point lowers the roll by one, down to 2: every spend up to that may change the degree.
    offers = luck_offers(
        lambda n: _degree(natural, target, *points(check, natural, n))[0],
        outcome, range(min(check.luck, natural - bonus_used - LOWEST) + 1))
    return {"outcome": outcome, "success": outcome in WINNERS, "target": target,
            "natural_roll": natural, "roll": roll, "ios": ios, "bonus_used": bonus_used,
            "luck_used": luck_used, "luck_offers": offers}


def resolve(request: dict, draw: Draw) -> dict:
    check = read(request)
    dice = draw.dice(2, FACES, request.get("dice"), "dice")
    result = judge(check, sum(dice))
    explain = [f"Target: Trait {check.trait} + Skill {check.skill} = {check.target}.",
               f"Rolled 2d10: {dice[0]} + {dice[1]} = {sum(dice)}."]
    if result["bonus_used"]:
        explain.append(f"Bonus lowers the roll by {result['bonus_used']}"
                       f" to {sum(dice) - result['bonus_used']}.")
    if check.luck_spend is not None:
        explain.append(f"The player chose to spend {check.luck_spend} Luck after the roll: it"
                       f" lowers the roll by {result['luck_used']}.")
    elif result["luck_used"]:
        explain.append(f"{result['luck_used']} Luck lowers it to the target.")
    elif check.luck:
        explain.append("No Luck spent: " + ("it was not needed." if result["success"] else
                                             f"{check.luck} Luck cannot reach the target."))
    explain.append(f"Roll {result['roll']} against target {check.target}: IoS {result['ios']},"
                   f" {result['outcome']}.")
    return {"system": "swift", **result, "dice": dice, "explain": explain,
            "request": check.echo(dice)}


def odds(request: dict) -> dict:
    """Before the roll: `luck_spend`, chosen after seeing the dice, is ignored like a draw."""
    check = read(request)
    sums = sum_ways(range(1, FACES + 1), 2)[2]
    return odds_from(tally(
        sums.items(),
        lambda natural: _degree(natural, check.target, *points(check, natural, None))[0],
        FACES ** 2), WINNERS)


SYSTEM = System(
    name="swift", label="Swift", seed="002", button="Roll",
    outcomes=DEGREES, winners=WINNERS, resolve=resolve, odds=odds,
    fields=(TRAIT.shown("adds to the target", 5), SKILL.shown("target: Trait + Skill", 6),
            BONUS.shown("lowers the roll"), LUCK.shown("only if it succeeds")),
    draw=Form("dice", f"two values 1–{FACES}, like 4 9"),
)
