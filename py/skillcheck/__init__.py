"""Skill Check's rules: resolve a skill check of four tabletop systems, or give its exact odds.

    resolve(request, rng=None) -> result dict       odds(request) -> {"outcomes", "success", ...}
    odds_by(request, field, most) -> [odds with field 0, 1, … most]   (what each point buys)
    commit(system, difficulty, salt=None) -> {"commitment", "salt"}   (the GM's secret difficulty)
    difficulty(request) -> int       (that difficulty as the commitment hashes it: "hard" → 15)

Both speak the JSON shape of docs/contract.md and raise only InvalidRequest. Pure Python, standard
library only, the same under CPython and Pyodide.
"""

from __future__ import annotations

import random
from fractions import Fraction

from .commitment import seal
from .draw import Draw, make_rng
from .errors import InvalidRequest
from .registry import REGISTRY
from .request import Choice, Whole, as_object

__all__ = ["InvalidRequest", "SYSTEMS", "commit", "difficulty", "odds", "odds_by", "resolve"]

SYSTEMS: dict[str, dict] = {name: system.describe() for name, system in REGISTRY.items()}
SYSTEM = Choice("system", "System", tuple(REGISTRY))


# The systems whose GM may keep the difficulty secret, and so commit to it.
SECRET_SYSTEM = Choice("system", "System", tuple(
    name for name, system in REGISTRY.items() if system.difficulty))


def _system(request: object):
    request = as_object(request, "request")
    return request, REGISTRY[SYSTEM.read(request)]


def resolve(request: dict, rng: random.Random | None = None) -> dict:
    """Perform one check: draw from `rng`, else from the request's `seed`, else the OS's source."""
    request, system = _system(request)
    return system.resolve(request, Draw(make_rng(request, rng)))


def odds(request: dict) -> dict:
    """The exact chance of every outcome of `request`, as fraction strings that sum to 1.

    The odds never use a forced draw, but a request carrying one is refused as `resolve` would
    refuse it (pool `dice: [0, 3]`): one request, one verdict, wherever it is sent.
    """
    request, system = _system(request)
    if _carries_draw(request):
        system.resolve(request, Draw(random.Random(0)))  # only to check the draw
    answer = system.odds(request)
    return {key: _as_strings(value) for key, value in answer.items()}


def odds_by(request: dict, field: str, most: int) -> list[dict]:
    """odds(request) with the number `field` set to 0, 1, … `most` in turn: what each more point
    of Luck (or Insurance) buys. The same answers as that many calls of `odds`, worked out in one
    pass where the system has a faster way (its `ladders`). InvalidRequest on `field` when the
    system takes no such number or `most` is outside its limits."""
    request, system = _system(request)
    spec = next((spec for spec in system.fields
                 if spec.name == field and isinstance(spec, Whole)), None)
    if spec is None:
        raise InvalidRequest(str(field), f"is not a number the {system.name} system takes")
    spec.read({field: most})
    if _carries_draw(request):
        system.resolve({**request, field: most}, Draw(random.Random(0)))  # only to check it
    ladder = system.ladders.get(field)
    answers = (ladder(request, most) if ladder else
               [system.odds({**request, field: n}) for n in range(most + 1)])
    return [{key: _as_strings(value) for key, value in answer.items()} for answer in answers]


def commit(system: str, difficulty: int | str, salt: str | None = None) -> dict:
    """The GM's commitment to a secret difficulty, before the roll: `difficulty` as the reveal
    will carry it (the flip's DTN or ladder name, the pool's DR), `salt` 32 hex digits (tests)
    or else 16 fresh bytes from `secrets`. The GM keeps the salt; the player gets the commitment."""
    keys = REGISTRY[SECRET_SYSTEM.read({"system": system})].difficulty_keys
    key = keys[-1] if isinstance(difficulty, str) else keys[0]
    return commit_request({"system": system, key: difficulty, "salt": salt})


def difficulty(request: object) -> int:
    """A secret-capable system's difficulty as a reveal carries it ({"system": "flip",
    "difficulty": "hard"}), in the canonical form its commitment hashes: the number (15)."""
    request = as_object(request, "request")
    return REGISTRY[SECRET_SYSTEM.read(request)].difficulty(request)


def commit_request(request: object) -> dict:
    """`commit` for the CLI's request: {"system", "dtn" | "difficulty" | "dr", "salt"?}."""
    request = as_object(request, "request")
    return seal(request.get("system"), difficulty(request), request.get("salt"))


DRAW_KEYS = ("cards", "dice", "keep")


def _carries_draw(request: dict) -> bool:
    """Whether the request, or a side in it (initiator, secondaries.0 ...), holds a draw."""
    sides = [request]
    for value in request.values():
        sides += value if isinstance(value, list) else [value]
    return any(isinstance(side, dict) and any(key in side for key in DRAW_KEYS)
               for side in sides)


def _as_strings(value):
    """Fractions → "p/q" strings; zero-chance entries of a distribution are left out."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(k): str(p) for k, p in value.items() if p}
    return value
