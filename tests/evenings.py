"""A realistic evening at a table, made by the page's own log code under CPython: a stored roll
log of card flips (mostly unopposed, some opposed and team flips) rolled for four characters and
their skills, a roll every few minutes. The shared log's tests measure and send it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import skillcheck
from app.log_model import LOG_KEY, RollLog
from app.storage import MemoryStorage

PEOPLE = (("Mara", "Stealth"), ("Rook", "Athletics"), ("Vex", "Thievery"),
          ("Dot", "Notice [SP]"), ("Bram", None))
START = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def flip(rng: random.Random) -> dict:
    side = lambda: {"rank": rng.randint(0, 4), "aspect": rng.randint(1, 5)}  # noqa: E731
    kind = rng.random()
    if kind < 0.6:
        return {"system": "flip", **side(),
                "difficulty": rng.choice(["average", "hard", "easy", "very hard"])}
    if kind < 0.85:
        return {"system": "flip", "mode": "opposed", "initiator": side(), "opponent": side()}
    return {"system": "flip", "mode": "team", "dtn": 15, "primary": side(),
            "secondaries": [side() for _ in range(rng.randint(1, 3))]}


def evening(size: int, seed: int = 7) -> RollLog:
    """A log of `size` flips, one every 20 s to 3 min from 19:00 UTC on 4 December 2026."""
    rng = random.Random(seed)
    moment = [START]

    def clock() -> datetime:
        moment[0] += timedelta(seconds=rng.randint(20, 180))
        return moment[0]
    log = RollLog(MemoryStorage(), clock=clock)
    for _ in range(size):
        name, skill = rng.choice(PEOPLE)
        log.record_check(skillcheck.resolve(flip(rng), rng),
                         who={"name": name, **({"skill": skill} if skill else {})})
    return log


def stored(log: RollLog) -> str:
    """The log's text as localStorage holds it."""
    return log._slot.storage.get(LOG_KEY)
