"""Seed 003: a d6 pool summed without its ones against 10 ± modifiers; flukes and insurance."""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import comb

from .draw import Draw
from .exact import sum_ways, tally
from .request import Flag, Form, Whole, no_secret
from .system import System, odds_from

DICE_COUNT = Whole("dice_count", "Dice count", 1, 20)
BASE = Whole("base", "Base", -100, 100, 10)
PENALTY = Whole("penalty", "Penalty", -100, 100, 0)
PLAN = Whole("plan", "Plan", -100, 100, 0)
CHALLENGE = Flag("challenge", "Challenge")
INSURANCE = Whole("insurance", "Insurance", 0, 20, 0)
OUTCOMES = ("success", "failure", "fluke")
WINNERS = ("success",)
FACES = 6
CHALLENGE_TARGET = 8  # "The player must make an attribute roll against the target number 8."
XP_PER_POINT = 2  # "2 experience points is enough to protect against a single one that is rolled."


@dataclass(frozen=True)
class Check:
    """A d6 pool request, checked."""

    count: int
    base: int
    penalty: int
    plan: int
    challenge: bool
    insurance: int

    @property
    def target(self) -> int:
        if self.challenge:
            return CHALLENGE_TARGET
        # "chooses a base of 10 with no penalties ... reduce the difficulty by 3. This means the
        # actual target number is 7."
        return self.base + self.penalty - self.plan

    def echo(self, dice: list[int]) -> dict:
        """The request as checked, with its roll, so it replays to the same result."""
        return {"system": "fluke", "dice_count": self.count, "base": self.base,
                "penalty": self.penalty, "plan": self.plan, "challenge": self.challenge,
                "insurance": self.insurance, "dice": dice}


def read(request: dict) -> Check:
    no_secret(request)
    return Check(DICE_COUNT.read(request), BASE.read(request), PENALTY.read(request),
                 PLAN.read(request), CHALLENGE.read(request), INSURANCE.read(request))


def judge(check: Check, ones_rolled: int, above_one: int) -> tuple[str, int, int, int]:
    """(outcome, uninsured ones, insured ones, total) from the ones rolled and the others' sum."""
    # "he may ignore a single one per point of insurance. Any dice that are ignored also count
    # toward the dice total."
    insured = min(check.insurance, ones_rolled)
    ones = ones_rolled - insured
    total = above_one + insured
    if check.challenge:
        # "If any ones are rolled or the total is less than 8, the action fails."
        won = ones == 0 and total >= CHALLENGE_TARGET
    elif 2 * ones >= check.count:
        # "If at least half of the dice are ones, then the action is a fluke"
        return "fluke", ones, insured, total
    else:
        # "compare the total of the dice, ignoring ones, to the difficulty. If the total is greater
        # then the action is successful, if not the action fails."
        won = total > check.target
    return ("success" if won else "failure"), ones, insured, total


def _ones(count: int) -> str:
    """"1 uninsured one", "2 uninsured ones"."""
    return f"{count} uninsured one{'s' if count != 1 else ''}"


def resolve(request: dict, draw: Draw) -> dict:
    check = read(request)
    dice = draw.dice(check.count, FACES, request.get("dice"), "dice")
    outcome, ones, insured, total = judge(check, dice.count(1), sum(d for d in dice if d > 1))
    target = check.target
    xp = XP_PER_POINT * check.insurance
    if check.challenge:
        explain = [f"Challenge: target {target}; any uninsured 1 or a total under {target} fails."]
    else:
        explain = [f"Target: base {check.base} + penalty {check.penalty} − plan {check.plan}"
                   f" = {target}."]
    explain.append(f"Rolled {check.count}d6: {', '.join(map(str, dice))}.")
    if check.insurance:
        # "After the skill test all the insurance is lost, even if it wasn't needed."
        explain.append(f"Insurance {check.insurance} ({xp} XP, all spent) ignores {insured}"
                       f" one{'s' if insured != 1 else ''}, each adding 1 to the total.")
    if outcome == "fluke":
        dice_word = "die" if check.count == 1 else "dice"
        explain.append(f"{_ones(ones)} out of {check.count} {dice_word}: at least half, a fluke.")
    elif check.challenge:
        explain.append(f"{_ones(ones)}, total {total} against {target}: {outcome}.")
    else:
        relation = "greater than" if total > target else "not greater than"
        explain.append(f"Total {total} is {relation} {target}: {outcome}.")
    return {"system": "fluke", "outcome": outcome, "success": outcome == "success", "dice": dice,
            "ones": ones, "insured": insured, "total": total, "target": target, "xp_spent": xp,
            "explain": explain, "request": check.echo(dice)}


def odds(request: dict) -> dict:
    check = read(request)
    return _judged_odds(check, rolls(check.count))


def rolls(count: int) -> list[tuple[tuple[int, int], int]]:
    """Over the 6**n rolls: j ones in C(n, j) places, the other dice summing over faces 2..6 —
    each (ones rolled, sum of the others) with its number of rolls."""
    rest = sum_ways(range(2, FACES + 1), count)
    return [((ones_rolled, above_one), comb(count, ones_rolled) * ways)
            for ones_rolled in range(count + 1)
            for above_one, ways in rest[count - ones_rolled].items()]


def _judged_odds(check: Check, kinds: list[tuple[tuple[int, int], int]]) -> dict:
    return odds_from(tally(kinds, lambda roll: judge(check, *roll)[0], FACES ** check.count),
                     WINNERS)


def insurance_ladder(request: dict, most: int) -> list[dict]:
    """odds(request) with insurance 0, 1, … `most`: the rolls counted once, judged per row."""
    check = read({**request, "insurance": most})
    kinds = rolls(check.count)
    return [_judged_odds(replace(check, insurance=n), kinds) for n in range(most + 1)]


SYSTEM = System(
    name="fluke", label="d6 pool", seed="003", button="Roll",
    outcomes=OUTCOMES, winners=WINNERS, resolve=resolve, odds=odds,
    fields=(DICE_COUNT.shown("the stat or skill", 3, label="Dice to roll"),
            BASE.shown(f"usually {BASE.default}"), PENALTY.shown("raises the target"),
            PLAN.shown("a good plan lowers it"),
            CHALLENGE.shown(f"target {CHALLENGE_TARGET}, any one fails"),
            INSURANCE.shown(f"{XP_PER_POINT} XP per one ignored")),
    draw=Form("dice", f"values 1–{FACES}, like 6 4 1"),
    ladders={"insurance": insurance_ladder},
)
