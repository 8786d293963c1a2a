"""Seed 000's card flip: the request read into checked sides, and the rulings that resolve and
odds share, so a drawn result and its exact odds can never disagree about the rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..commitment import Seal, read_seal
from ..errors import InvalidRequest
from ..request import Choice, Flag, Whole, as_object, path, read_list
from ..skills import BY_NAME

DECK_SIZE = 52
MAX_SECONDARIES = 8
# "Description  DTN": Extremely Easy 5+ ... Impossible 25+.
LADDER = (("extremely easy", 5), ("very easy", 7), ("easy", 9), ("average", 12), ("hard", 15),
          ("very hard", 18), ("near impossible", 21), ("impossible", 25))
LADDER_DTN = dict(LADDER)
MODES = ("unopposed", "aspect", "opposed", "team")
OUTCOMES = ("great success", "success", "failure", "bad failure", "initiator", "opponent",
            "secret")
WINNERS = ("great success", "success", "initiator")

MODE = Choice("mode", "Kind of flip", MODES, "unopposed")
DTN = Whole("dtn", "Difficulty target number (DTN)", 0, 100, None)
DIFFICULTY = Choice("difficulty", "Difficulty", tuple(LADDER_DTN), None)
SECRET = Flag("secret", "Secret difficulty (the GM judges)")
SKILL = Choice("skill", "Skill", tuple(BY_NAME), None)
RANK = Whole("rank", "Skill rank", 0, 52)
ASPECT = Whole("aspect", "Aspect", -20, 50)
FLIP = Whole("flip", "Flip mod (cards)", -52, 52, 0)
SHIFT = Whole("shift", "Flip shift (added)", -50, 50, 0)
SPECIALIZATION = Flag("specialization", "Specialization (flip+1)")
ADVANCED = Flag("advanced", "Advanced skill")
FAMILIARITY = Flag("familiarity", "Familiarity")
TAKE7 = Flag("take7", "Take a 7")
KEEP = Whole("keep", "Card kept (index)", 0, DECK_SIZE - 1, None)
# The GM's options the text gives: a 7 in an opposed flip "in rare circumstances", and a DTN
# raised "by one category higher" when a helper "fails by enough".
GM_TAKE7 = Flag("gm_allows_take7", "GM allows taking a 7 (rare circumstances)")
GM_RAISE = Flag("gm_raises_dtn", "GM raises the DTN if a helper fails badly")
SIDE_FIELDS = (SKILL, RANK, ASPECT, FLIP, SHIFT, SPECIALIZATION, ADVANCED, FAMILIARITY, TAKE7,
               KEEP)


@dataclass(frozen=True)
class Side:
    """One flipper, checked. `base` is the rank, or the aspect in an aspect check; `obj` is the
    side as sent, kept for its forced `cards` and `keep`, which only resolve reads."""

    prefix: str
    base: int
    aspect: int
    flip: int
    shift: int
    take7: bool
    specialization: bool
    advanced: bool
    skill: str | None
    aspect_check: bool
    checked: dict = field(compare=False)
    obj: dict = field(compare=False)

    def n(self, team_flip: int = 0) -> int:
        """"Flips a number equal to his Skill Rank plus or minus any flip mods"; a specialization
        "gives you an extra card on the flip (flip+1)"."""
        return self.base + self.flip + team_flip + int(self.specialization)


@dataclass(frozen=True)
class Check:
    """A checked request: its mode, DTN (None when secret or opposed) and sides in order —
    (side,), (initiator, opponent) or (primary, *secondaries). `head` is its top-level fields
    as checked."""

    mode: str
    dtn: int | None
    sides: tuple[Side, ...]
    head: dict
    gm_raise: bool = False  # team: a helper's bad failure raises the DTN one rating
    seal: Seal | None = None  # a secret DTN's commitment, and its proof once revealed

    def echo(self, sides: list[dict]) -> dict:
        """The request as checked, each side (in the order of `self.sides`) as flipped, with its
        cards, so it replays to the same result."""
        if self.mode == "opposed":
            initiator, opponent = sides
            return self.head | {"initiator": initiator, "opponent": opponent}
        if self.mode == "team":
            primary, *secondaries = sides
            return self.head | {"primary": primary, "secondaries": secondaries}
        return self.head | sides[0]


def cards_needed(n: int) -> tuple[int, bool]:
    """(cards to flip, keep the lowest?). "A Familiarity allows a character to flip with a skill
    value of 0 (two cards, keeping the low)"; below 0, each card less is one more to flip."""
    return (n, False) if n >= 1 else (2 - n, True)


def rating_of(dtn: int) -> tuple[str, int] | None:
    """The DTN's own rating: the highest ladder value at or below it. The text's own example is
    "Hard (DTN 16)", so a DTN off the ladder takes the rating under it; under 5 there is none."""
    return next(((name, v) for name, v in reversed(LADDER) if v <= dtn), None)


def rating_above(dtn: int) -> tuple[str, int] | None:
    """The next higher rating: the first ladder value above the DTN, if the ladder has one."""
    return next(((name, v) for name, v in LADDER if v > dtn), None)


def rating_below(dtn: int) -> tuple[str, int] | None:
    """The next lower rating: the ladder value under the DTN's own rating (16 and 15 → 12,
    13 → 9), if the ladder has one."""
    own = rating_of(dtn)
    return None if own is None else next(
        ((name, v) for name, v in reversed(LADDER) if v < own[1]), None)


def judge(total: int, dtn: int) -> str:
    """"Equal or exceed the DTN to succeed"; "if a character would have exceeded the next higher
    difficulty rating, he should get some kind of reward" — and the opposite for failures."""
    if total >= dtn:
        above = rating_above(dtn)
        return "great success" if above and total >= above[1] else "success"
    below = rating_below(dtn)
    return "bad failure" if below and total < below[1] else "failure"


def secondary_dtn(dtn: int) -> int:
    """"Secondary participants flip with a DTN one level lower" (the DTN itself at the bottom)."""
    below = rating_below(dtn)
    return below[1] if below else dtn


def raised_dtn(dtn: int, helpers_failed_badly: bool, gm_raise: bool) -> int:
    """"If someone fails by enough, the GM may decide to increase the DTN by one category
    higher": with the GM's switch on and a helper's bad failure, the next higher rating."""
    above = rating_above(dtn) if gm_raise and helpers_failed_badly else None
    return above[1] if above else dtn


def grants(successes: list[bool]) -> list[str]:
    """What each secondary gives the primary, in order: "The first successful secondary grants a
    (flip+1). Additional successful secondaries grant (shift+1) each." "For every secondary person
    who tries to help but fails the check, there is a (shift-1) penalty.\""""
    given = []
    for success in successes:
        given.append(("shift+1" if "flip+1" in given else "flip+1") if success else "shift-1")
    return given


def team_bonus(given: list[str]) -> tuple[int, int]:
    """The primary's (flip, shift) from the grants."""
    return given.count("flip+1"), given.count("shift+1") - given.count("shift-1")


def opposed_winner(total: int, aspect: int, rival: int, rival_aspect: int
                   ) -> tuple[str, str | None]:
    """(outcome, tiebreak) for the initiator's total against the opponent's: "Whoever is higher
    wins. In the case of a tie, compare the value of the Aspects ... then the character who
    initiated the opposed skill flip wins.\""""
    if total != rival:
        return ("initiator" if total > rival else "opponent"), None
    if aspect != rival_aspect:
        return ("initiator" if aspect > rival_aspect else "opponent"), "aspect"
    return "initiator", "initiator"


def read_side(obj: object, prefix: str, aspect_check: bool = False, opposed: bool = False,
              team_flip: bool = False) -> Side:
    """Check one side's fields. `team_flip`: the primary may gain a flip+1 from the team, so its
    deck must have room for that card too."""
    obj = as_object(obj, prefix or "request")
    aspect = ASPECT.read(obj, prefix)
    values = {"aspect": aspect, "flip": FLIP.read(obj, prefix), "shift": SHIFT.read(obj, prefix),
              "take7": TAKE7.read(obj, prefix)}
    if aspect_check:
        # "handled just like a Skill check with the Aspect determining both the amount of cards
        # and the bonus amount".
        base, skill, flags = aspect, None, dict.fromkeys(("specialization", "advanced"), False)
    else:
        base, skill = RANK.read(obj, prefix), SKILL.read(obj, prefix)
        flags = {spec.name: spec.read(obj, prefix)
                 for spec in (SPECIALIZATION, ADVANCED, FAMILIARITY)}
        values = {"rank": base, **values, **flags} | ({"skill": skill} if skill else {})
    advanced = flags["advanced"] or bool(skill and BY_NAME[skill].advanced)
    if advanced and base == 0 and not flags["familiarity"]:
        # "flip with a skill value of 0 ... which is normally not allowed for Advanced Skills".
        raise InvalidRequest(path(prefix, "rank"),
                             "an Advanced skill at rank 0 needs a Familiarity")
    side = Side(prefix=prefix, base=base, aspect=aspect, flip=values["flip"],
                shift=values["shift"], take7=values["take7"],
                specialization=flags["specialization"], advanced=advanced, skill=skill,
                aspect_check=aspect_check, checked=values, obj=obj)
    _check_take7(side, opposed)
    _check_deck(side, (0, 1) if team_flip else (0,))
    return side


def _check_take7(side: Side, opposed: bool) -> None:
    if not side.take7:
        return
    field_name = path(side.prefix, "take7")
    if opposed:
        raise InvalidRequest(field_name, "you may not normally take a 7 in an opposed check "
                                         "(the GM may allow it: gm_allows_take7)")
    if side.base < 1:
        what = "an aspect of at least 1" if side.aspect_check else "at least one rank in the skill"
        raise InvalidRequest(field_name, f"needs {what}")


def _check_deck(side: Side, team_flips: tuple[int, ...]) -> None:
    for team_flip in team_flips:
        count, _ = cards_needed(side.n(team_flip))
        if count > DECK_SIZE:
            blame = "flip" if side.flip else ("aspect" if side.aspect_check else "rank")
            extra = " with the team's flip+1" if team_flip else ""
            raise InvalidRequest(path(side.prefix, blame),
                                 f"needs {count} cards{extra}, but the deck has {DECK_SIZE}")


def read_dtn(request: dict, secret: bool) -> tuple[int | None, dict]:
    """The DTN (None for a secret one) and its echo for the checked request. A difficulty may
    be written in any case and spacing ("Hard", "Very  Easy"), as players type it."""
    typed = request.get("difficulty")
    if isinstance(typed, str):
        request = {**request, "difficulty": " ".join(typed.split()).lower()}
    dtn, name = DTN.read(request), DIFFICULTY.read(request)
    echo = {"secret": True} if secret else {}
    if name is not None:
        if dtn is not None and dtn != LADDER_DTN[name]:
            raise InvalidRequest("difficulty", f"is {name} (DTN {LADDER_DTN[name]}), "
                                               f"but dtn is {dtn}")
        dtn, echo["difficulty"] = LADDER_DTN[name], name
    if dtn is None:
        if not secret:
            raise InvalidRequest("dtn", "is needed: a whole number from 0 to 100, or a difficulty")
        return None, echo
    return dtn, {"dtn": dtn, **echo}


def read(request: dict) -> Check:
    """Check a whole flip request in any of its four modes."""
    mode = MODE.read(request)
    head = {"system": "flip", "mode": mode}
    secret = SECRET.read(request)
    if secret and mode in ("opposed", "team"):
        raise InvalidRequest("secret", "only an unopposed or aspect flip can keep its DTN secret")
    if mode == "opposed":
        read_seal(request, "flip", None, secret)  # refuses a commitment: there is no DTN
        # "You may not normally take a 7 in an opposed check, but the GM may rule that it can be
        # done in rare circumstances".
        allowed = GM_TAKE7.read(request)
        sides = (read_side(request.get("initiator"), "initiator", opposed=not allowed),
                 read_side(request.get("opponent"), "opponent", opposed=not allowed))
        return Check(mode, None, sides, head | ({"gm_allows_take7": True} if allowed else {}))
    dtn, echo = read_dtn(request, secret)
    seal = read_seal(request, "flip", dtn, secret)
    if mode != "team":
        return Check(mode, dtn, (read_side(request, "", aspect_check=mode == "aspect"),),
                     head | echo | (seal.echo() if seal else {}), seal=seal)
    helpers = read_list(request, "secondaries", "", MAX_SECONDARIES) or []
    secondaries = tuple(read_side(obj, f"secondaries.{i}") for i, obj in enumerate(helpers))
    primary = read_side(request.get("primary"), "primary", team_flip=bool(secondaries))
    gm_raise = GM_RAISE.read(request)
    return Check(mode, dtn, (primary, *secondaries),
                 head | echo | ({"gm_raises_dtn": True} if gm_raise else {}), gm_raise)
