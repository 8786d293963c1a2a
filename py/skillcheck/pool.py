"""Seed 002: a pool of d10s rolled under the skill against a Difficulty Rating (DR).

Also home to what the Swift edition (swift.py) shares with it: the field specs, the IoS rule and the
named degrees of success.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb

from .commitment import COMMITMENT, GM_CODE, Seal, read_seal
from .draw import Draw, check_dice
from .errors import InvalidRequest
from .exact import tally
from .request import Flag, Form, Whole, read_list
from .system import System, odds_from

TRAIT = Whole("trait", "Trait", 1, 10)
SKILL = Whole("skill", "Skill", 1, 10)
DR = Whole("dr", "DR", 1, 10)
BONUS = Whole("bonus", "Bonus", 0, 100, 0)
LUCK = Whole("luck", "Luck", 0, 100, 0)
# Luck the player chooses to spend after seeing the dice (absent: only to reach the DR).
LUCK_SPEND = Whole("luck_spend", "Luck spent after the roll", 0, 100, None)
SECRET = Flag("secret", "Secret DR")
FACES = 10
DEGREES = ("critical", "success", "basic", "barely", "failure", "disaster")
WINNERS = ("critical", "success", "basic", "barely")
OUTCOMES = (*DEGREES, "flubbed", "too difficult", "secret")


def increments(have: int, need: int) -> int:
    """IoS: "Meeting the DR exact is an IoS of 1. Rolling 5 successes for a DR of 4 gives you an
    IoS of 2" — and short of it, the (negative) shortfall."""
    return have - need + 1 if have >= need else have - need


def degree(ios: int, short_without_points: bool) -> str:
    """The named degree of a judged check; it succeeded iff IoS ≥ 1.

    `short_without_points`: the natural roll alone misses the DR (or Swift's target). Such a
    success is barely only when the points just meet it (IoS 1); points that buy more go by the
    final IoS like any other success ("The same applies if the player wants to spend any Luck
    Points on the roll"), so bonus or Luck can buy a Critical (contract, ruled 2026-12-02).
    """
    if ios >= 1:
        if short_without_points and ios == 1:
            # "Barely Succeeding - the number of success dice does not meet the task's difficulty
            # rating unless bonus points are used."
            return "barely"
        if ios >= 3:
            return "critical"  # "Critical Success - the Increment of Success is a 3 or higher."
        # "Basic Success - the Increment of Success is a 1." (IoS 2 has no name in the text.)
        return "basic" if ios == 1 else "success"
    return "disaster" if ios <= -3 else "failure"  # "Disaster - the Increment of Success was a -3"


def read_luck_spend(request: dict, luck: int) -> int | None:
    """The Luck the player chose to spend after the roll, at most the Luck offered."""
    chosen = LUCK_SPEND.read(request)
    if chosen is not None and chosen > luck:
        raise InvalidRequest("luck_spend", f"must be at most luck ({luck})")
    return chosen


def luck_offers(outcome_with: Callable[[int], str], outcome: str,
                spends: Iterable[int]) -> list[dict]:
    """"The same applies if the player wants to spend any Luck Points on the roll": seeing the
    dice, the player may spend Luck. For each degree better than `outcome` that one of `spends`
    reaches, the fewest points that reach it (`outcome_with(n)`: the degree of the same draw with
    n Luck spent to the best effect), best last. `spends`, rising, are the Luck within reach
    where the result can change — every other spend does what the one below it does."""
    offers, best = [], DEGREES.index(outcome)
    for spend_ in spends:
        reached = outcome_with(spend_)
        if DEGREES.index(reached) < best:
            best = DEGREES.index(reached)
            offers.append({"luck_spend": spend_, "outcome": reached})
    return offers


@dataclass(frozen=True)
class Check:
    """A d10 pool request, checked."""

    trait: int
    skill: int
    dr: int | None  # None: the GM keeps it secret
    bonus: int
    luck: int
    luck_spend: int | None = None  # chosen after the roll; None: only to reach the DR
    secret: bool = False  # asked as a secret roll (kept when the GM reveals the DR)
    seal: Seal | None = None  # the GM's commitment to the secret DR, and its proof once revealed

    @property
    def flub_possible(self) -> bool:
        # "Flubbed - this happens if a character has a Trait score of 10 and a Skill score of 10"
        return self.trait == 10 and self.skill == 10

    @property
    def too_difficult(self) -> bool:
        # Lockpicking table: Dexterity 1-3 against a difficulty of 4 — "task is too difficult".
        return self.dr is not None and self.trait < self.dr

    def degree_of(self, natural: int, successes: int) -> str:
        """The degree of `successes` (after points) against the DR, `natural` of them unaided."""
        return degree(increments(successes, self.dr), natural < self.dr)

    def echo(self, dice: list[int]) -> dict:
        """The request as checked, with its roll, so it replays to the same result."""
        chosen = {} if self.luck_spend is None else {"luck_spend": self.luck_spend}
        return {"system": "pool", "trait": self.trait, "skill": self.skill, "bonus": self.bonus,
                "luck": self.luck, "secret": self.secret, **chosen,
                **({} if self.dr is None else {"dr": self.dr}),
                **(self.seal.echo() if self.seal else {}), "dice": dice}

    def sealed(self, result: dict) -> dict:
        """A result with what the GM's commitment says: verified on a matching reveal."""
        if self.seal is None:
            return result
        said = self.seal.explain(f"DR {self.dr}")
        return result | self.seal.result() | {"explain": result["explain"] + said}


def read(request: dict) -> Check:
    trait, skill = TRAIT.read(request), SKILL.read(request)
    # "sometimes the Gamemaster may opt to keep this a secret"
    secret = SECRET.read(request)
    dr = None if secret and request.get("dr") is None else DR.read(request)
    luck = LUCK.read(request)
    chosen = read_luck_spend(request, luck)
    if chosen is not None and dr is None:
        raise InvalidRequest("luck_spend",
                             "the DR is secret: Luck is chosen once the GM reveals it")
    return Check(trait, skill, dr, BONUS.read(request), luck, chosen, secret,
                 read_seal(request, "pool", dr, secret))


@dataclass(frozen=True)
class Spend:
    """Which dice the points turn into successes, and what that costs."""

    bought: tuple[int, ...]  # indices into the roll
    bonus_used: int
    luck_used: int


def spend(dice: list[int], pool: Check) -> Spend:
    """Spend bonus (and maybe luck) points on a roll, one increment lowering one die by 1.

    "a +1 bonus to a skill can change one die by one increment" and "The same applies if the
    player wants to spend any Luck Points on the roll." Bonus points buy as many successes as they
    can, cheapest first; luck only when, with the bonus, it reaches the DR, and then the fewest.
    """
    failing = sorted((face - pool.skill, i) for i, face in enumerate(dice) if face > pool.skill)
    costs = [cost for cost, _ in failing]
    if pool.luck_spend is not None:  # the player's choice: as many dice as bonus and it buy
        bought, spent = _cheapest(costs, pool.bonus + pool.luck_spend)
        bonus_used = min(spent, pool.bonus)
        return Spend(tuple(i for _, i in failing[:bought]), bonus_used, spent - bonus_used)
    by_bonus, spent = _cheapest(costs, pool.bonus)
    short = 0 if pool.dr is None else pool.dr - (len(dice) - len(costs))
    needed = sum(costs[:max(short, 0)])  # the cheapest way to reach the DR
    if short > by_bonus and needed <= pool.bonus + pool.luck:
        return Spend(tuple(i for _, i in failing[:short]), pool.bonus, needed - pool.bonus)
    return Spend(tuple(i for _, i in failing[:by_bonus]), spent, 0)


def _cheapest(costs: list[int], points: int) -> tuple[int, int]:
    """(dice bought, points spent): the cheapest dice first, as many as `points` pay for."""
    bought, spent = 0, 0
    while bought < len(costs) and spent + costs[bought] <= points:
        spent += costs[bought]
        bought += 1
    return bought, spent


def resolve(request: dict, draw: Draw) -> dict:
    pool = read(request)
    if pool.too_difficult:
        return pool.sealed(_too_difficult(request, pool))
    dice = draw.dice(pool.trait, FACES, request.get("dice"), "dice")
    return pool.sealed({"system": "pool", **judge(pool, dice), "request": pool.echo(dice)})


def _too_difficult(request: dict, pool: Check) -> dict:
    """Trait below DR: "task is too difficult", nothing is rolled. A secret roll the GM reveals
    with such a DR was rolled already: its dice stay in the result and judge nothing."""
    rolled = request.get("dice") if pool.secret else None
    dice = check_dice(rolled, pool.trait, FACES, "dice") if rolled else []
    if not dice and read_list(request, "dice", "", FACES):
        raise InvalidRequest("dice", "must be empty: no dice are rolled when Trait is below DR")
    said = ("the dice rolled in secret judge nothing" if dice else "no dice are rolled")
    return {"system": "pool", "outcome": "too difficult", "success": False, "dice": dice,
            "adjusted": [], "succeeded": [], "natural_successes": 0, "successes": 0,
            "ios": None, "bonus_used": 0, "luck_used": 0, "luck_offers": [],
            "request": pool.echo(dice),
            "explain": [f"Trait {pool.trait} is below DR {pool.dr}: the task is too difficult,"
                        f" {said}."]}


def judge(pool: Check, dice: list[int]) -> dict:
    """Everything a roll of the pool decides, with the sentences that explain it."""
    natural = sum(face <= pool.skill for face in dice)
    points = spend(dice, pool)
    adjusted = [pool.skill if i in points.bought else face for i, face in enumerate(dice)]
    successes = natural + len(points.bought)
    tens = dice.count(10)
    explain = [
        f"Rolled {len(dice)}d10 (Trait {pool.trait}): {', '.join(map(str, dice))}.",
        # "the skill score determines what the dice must meet or roll under to count as a success"
        f"Skill {pool.skill}: each die of {pool.skill} or less succeeds — {natural} natural"
        f" success{'es' if natural != 1 else ''}.",
        *_explain_points(dice, pool, points, successes),
    ]
    result = {"dice": dice, "adjusted": adjusted,
              "succeeded": [face <= pool.skill for face in adjusted], "natural_successes": natural,
              "successes": successes, "bonus_used": points.bonus_used,
              "luck_used": points.luck_used}
    if pool.dr is None:
        explain.append(f"The DR is secret: the GM judges {_successes(successes)}.")
        if pool.flub_possible and tens >= 3:
            explain.append(f"{tens} natural 10s with Trait 10 and Skill 10: flubbed, whatever"
                           " the DR.")
        return {"outcome": "secret", "success": None, **result, "ios": None, "luck_offers": [],
                "explain": explain}
    ios = increments(successes, pool.dr)
    if pool.flub_possible and tens >= 3:
        # "if that player rolls 3 or more 10s on the dice, the attempt was flubbed"
        outcome, offers = "flubbed", []
        explain.append(f"{tens} natural 10s with Trait 10 and Skill 10: flubbed.")
    else:
        # "If the successes equal or exceed the task's Difficulty Rating, the attempt is a success."
        outcome = pool.degree_of(natural, successes)
        explain.append(f"{_successes(successes)} against DR {pool.dr}: IoS {ios}, {outcome}.")
        offers = luck_offers(lambda n: _degree_with(dice, pool, natural, n), outcome,
                             _buying_spends(dice, pool))
    return {"outcome": outcome, "success": outcome in WINNERS, **result, "ios": ios,
            "luck_offers": offers, "explain": explain}


def _successes(count: int) -> str:
    """"1 success", "3 successes"."""
    return f"{count} success{'es' if count != 1 else ''}"


def _buying_spends(dice: list[int], pool: Check) -> list[int]:
    """The Luck spends (at most the Luck offered) that buy one more die each: the cheapest
    failing dice, in turn, past what the bonus pays for."""
    spends, spent = [], 0
    for cost in sorted(face - pool.skill for face in dice if face > pool.skill):
        spent += cost
        if pool.bonus < spent <= pool.bonus + pool.luck:
            spends.append(spent - pool.bonus)
    return spends


def _degree_with(dice: list[int], pool: Check, natural: int, luck_spend: int) -> str:
    """The degree of the same dice had the player chosen to spend `luck_spend` Luck."""
    chosen = replace(pool, luck_spend=luck_spend)
    return pool.degree_of(natural, natural + len(spend(dice, chosen).bought))


def _explain_points(dice: list[int], pool: Check, points: Spend, successes: int) -> list[str]:
    said = []
    if points.bought:
        lowered = ", ".join(f"{dice[i]} to {pool.skill}" for i in sorted(points.bought))
        paid = [*([f"{points.bonus_used} of {pool.bonus} Bonus"] if points.bonus_used else []),
                *([f"{points.luck_used} Luck"] if points.luck_used else [])]
        said.append(f"Spent {' and '.join(paid)} to lower {lowered}.")
    elif pool.bonus and all(face <= pool.skill for face in dice):
        said.append(f"Bonus {pool.bonus} is not needed: every die is a success already.")
    elif pool.bonus:
        said.append(f"Bonus {pool.bonus} is too little to turn a die into a success.")
    if pool.luck_spend is not None:
        said.append(f"The player chose to spend {pool.luck_spend} Luck after the roll"
                    + (f"; {points.luck_used} of it could lower a die far enough."
                       if points.luck_used < pool.luck_spend else "."))
    elif pool.luck and not points.luck_used:
        if pool.dr is None:
            reason = "the DR is secret"
        elif successes >= pool.dr:
            reason = "it was not needed"
        else:
            reason = f"it could not lift the successes to DR {pool.dr}"
        said.append(f"No Luck spent: {reason}.")
    return said


def odds(request: dict) -> dict:
    pool = read(request)
    if pool.too_difficult:
        return odds_from({"too difficult": Fraction(1)}, WINNERS)
    total = FACES ** pool.trait
    ways = success_ways(pool)
    if pool.dr is None:
        totals = tally(ways.items(), lambda counted: counted[1], total)  # the successes
        return {"outcomes": {"secret": Fraction(1)}, "success": None, "totals": totals}

    return _judged_odds(pool, ways)


def _judged_odds(pool: Check, ways: dict[tuple[int, int], int]) -> dict:
    """The odds answer from `ways` (success_ways' count of each (natural, successes))."""
    total = FACES ** pool.trait
    outcomes: dict[str, Fraction] = {}
    ways = dict(ways)
    if pool.flub_possible:
        # Every die succeeds naturally; a roll with three or more 10s is flubbed instead.
        flubbed = sum(comb(10, j) * 9 ** (10 - j) for j in range(3, 11))
        outcomes["flubbed"] = Fraction(flubbed, total)
        ways[(10, 10)] -= flubbed
    outcomes |= tally(ways.items(), lambda counted: pool.degree_of(*counted), total)
    return odds_from(outcomes, WINNERS)


def luck_ladder(request: dict, most: int) -> list[dict]:
    """odds(request) with luck 0, 1, … `most` (the request's own luck ignored), in one pass
    over the rolls: for each kind of roll, what the bonus alone buys and how much Luck would
    lift it to the DR (luck_needed_ways); row n buys the DR wherever that is n or less.
    """
    pool = read({**request, "luck": most})
    if pool.too_difficult or pool.dr is None:  # Luck changes nothing here
        return [odds({**request, "luck": luck}) for luck in range(most + 1)]
    top = FACES - pool.skill
    rows: list[dict[tuple[int, int], int]] = [{} for _ in range(most + 1)]
    for natural in range(pool.trait + 1):
        failing = pool.trait - natural
        if failing and not top:
            continue
        short = max(pool.dr - natural, 0)
        base = comb(pool.trait, natural) * pool.skill ** natural
        for (by_bonus, needed), w in luck_needed_ways(failing, top, short, pool.bonus,
                                                     most).items():
            for luck, ways in enumerate(rows):
                bought = short if needed is not None and needed <= luck else by_bonus
                key = (natural, natural + bought)
                ways[key] = ways.get(key, 0) + base * w
    return [_judged_odds(pool, ways) for ways in rows]


def luck_needed_ways(count: int, top: int, short: int, bonus: int, most: int,
                     within: bool = False) -> dict[tuple[int, int | None], int]:
    """Of the top**count ways `count` failing dice (costs 1..top) can fall, how many give each
    (dice the bonus alone buys, Luck that would lift them to the DR) when `short` more successes
    would reach it: None where Luck is never spent (the bonus reaches the DR alone, or nothing
    is short), `most` + 1 where it would take more than `most`. `within`: only Luck `most`
    matters (one request's odds), and a need known to be at most `most` is said as 0.

    The dice are placed face by face in cost order, so what is bought is always a cheapest-first
    prefix. A state is (bought by bonus alone, dice placed, their total cost); it is settled — and
    the dice still to come spread over the dearer faces at once — as soon as the answer is known
    for every Luck up to `most` (see _needed), which keeps the states few however large bonus
    and Luck are.
    """
    if count == 0:
        return {(0, None): 1}
    done: dict[tuple[int, int | None], int] = {}
    states = {(0, 0, 0): 1}
    for cost in range(1, top + 1):
        dearer = top - cost
        nxt: dict[tuple[int, int, int], int] = {}
        for (by_bonus, placed, spent), w in states.items():
            left = count - placed
            for here in range(left + 1) if dearer else (left,):
                placed2, spent2 = placed + here, spent + here * cost
                by_bonus2 = (placed + min(here, (bonus - spent) // cost) if by_bonus == placed
                             else by_bonus)
                ways = w * comb(left, here)
                final = _needed(by_bonus2, placed2, spent2, count - placed2, cost, top, short,
                                bonus, most, within)
                if final is None:
                    key = (by_bonus2, placed2, spent2)
                    nxt[key] = nxt.get(key, 0) + ways
                else:
                    done[final] = done.get(final, 0) + ways * dearer ** (count - placed2)
        states = nxt
    return done


def _needed(by_bonus: int, placed: int, spent: int, left: int, cost: int, top: int, short: int,
            bonus: int, most: int, within: bool) -> tuple[int, int | None] | None:
    """(dice the bonus buys, Luck needed to reach the DR), if decided after placing faces up
    to `cost`, for every Luck up to `most` at once (`within`: for Luck `most` alone)."""
    if by_bonus == placed:  # the bonus has paid for every die so far, and may pay for more
        return (placed + left, None) if spent + left * top <= bonus else None
    if by_bonus >= short:  # the bonus alone reaches the DR: luck stays home
        return by_bonus, None
    if placed >= short:  # the cheapest `short` dice are placed: they cost this much
        return by_bonus, spent - (placed - short) * cost - bonus
    if spent + (short - placed) * (cost + 1) > bonus + most:  # even the cheapest rest is too dear
        return by_bonus, most + 1
    if within and spent + (short - placed) * top <= bonus + most:  # even the dearest rest is not
        return by_bonus, 0
    return None


def success_ways(pool: Check) -> dict[tuple[int, int], int]:
    """Of the 10**trait rolls, how many give each (natural successes, successes after points).

    The natural successes are placed first (C(trait, n) · skill**n ways); the failing dice then go
    through a dynamic programme over their faces in cost order (luck_needed_ways).
    """
    top = FACES - pool.skill  # the dearest failing face costs this much
    ways: dict[tuple[int, int], int] = {}
    for natural in range(pool.trait + 1):
        failing = pool.trait - natural
        if failing and not top:
            continue
        short = 0 if pool.dr is None else max(pool.dr - natural, 0)
        luck = 0 if pool.dr is None else pool.luck
        base = comb(pool.trait, natural) * pool.skill ** natural
        for (by_bonus, needed), w in luck_needed_ways(failing, top, short, pool.bonus, luck,
                                                     within=True).items():
            bought = short if needed is not None and needed <= luck else by_bonus
            key = (natural, natural + bought)
            ways[key] = ways.get(key, 0) + base * w
    return ways


SYSTEM = System(
    name="pool", label="d10 pool", seed="002", button="Roll",
    outcomes=OUTCOMES, winners=WINNERS, resolve=resolve, odds=odds,
    fields=(TRAIT.shown("dice to roll", 5), SKILL.shown("succeeds at or under", 7),
            DR.shown(f"Difficulty Rating: successes needed, {DR.lo}–{DR.hi}", 4, off_when="secret"),
            BONUS.shown("free increments"),
            LUCK.shown("only if it makes the DR"),
            SECRET.shown("the GM keeps the DR and judges the successes"),
            COMMITMENT.shown(GM_CODE, on_when="secret")),
    draw=Form("dice", f"one 1–{FACES} per Trait, like 3 9 10"),
    difficulty=DR.read, difficulty_keys=("dr",),
    ladders={"luck": luck_ladder},
)
