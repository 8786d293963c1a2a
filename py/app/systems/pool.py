"""The d10 pool on the page (seed 002; rules in py/skillcheck/pool.py): its chip, outcome words,
the sheet of traits and skills (the Swift edition reads it too), the Luck it spends, its secret DR.
"""

from __future__ import annotations

from collections.abc import Callable

from skillcheck.registry import REGISTRY

from ..editor_boxes import NAME, Box, Group, number
from ..sheet_fields import MOST_LUCK, fields_of, name, named, spelled_as, within
from ..sheet_fields import number as numbers
from ..storage import FieldError
from .record import Points, Resource, Reveal, Sheet, SystemPage

TRAIT = REGISTRY["pool"].spec("trait")
SCORE = REGISTRY["pool"].spec("skill")
BONUS = REGISTRY["pool"].spec("bonus")
LUCK = Resource("luck", "luck", 1, "luck_used", "Luck", MOST_LUCK)
# The advisor's rows count Luck, the player's choice; Bonus, the skill's, stays as typed.
MORE_LUCK = Points("luck", "Luck", held=("bonus",))
DR_BOX = Reveal("DR", "the successes needed, like 4", "dr")


def _skill(traits: dict) -> Callable[[object, str, str], dict]:
    def read(value: object, field: str, _: str) -> dict:
        value = fields_of(value, field)
        trait = spelled_as(traits)(name(value.get("trait"), f"{field}.trait"))
        if trait not in traits:
            raise FieldError(f"{field}.trait", "must be one of the character's traits")
        return {"trait": trait, "score": within(SCORE, value.get("score"), f"{field}.score"),
                "bonus": within(BONUS, value.get("bonus", 0), f"{field}.bonus")}
    return read


def read_sheet(value: dict, field: str) -> dict:
    traits = named(value.get("traits"), f"{field}.traits", numbers(TRAIT))
    return {"traits": traits,
            "skills": named(value.get("skills"), f"{field}.skills", _skill(traits))}


def fill(character: dict, sheet: dict, skill: str) -> dict | None:
    """trait, skill, bonus, and all the Luck the character has up to what a request offers:
    the engine spends only what the roll needs."""
    entry = sheet.get("skills", {}).get(skill)
    if entry is None:
        return None
    most = REGISTRY["pool"].spec("luck").hi
    return {"trait": sheet["traits"][entry["trait"]], "skill": entry["score"],
            "bonus": entry["bonus"], "luck": min(character["luck"], most)}


def _row_value(row: dict) -> dict:
    return {"trait": row.get("trait"), "score": row.get("score"), "bonus": row.get("bonus", 0)}


SHEET = Sheet("pool", "d10 pool sheet", "d10 pool and Swift sheet: traits and skills",
              read_sheet, (
    Group("traits", "Traits", "score", "trait", (
        NAME, number("score", "Score", "dice in the pool", TRAIT))),
    Group("skills", "Skills", None, "skill", (
        NAME, Box("trait", "Trait", kind="trait"),
        number("score", "Score", "succeeds at or under", SCORE),
        number("bonus", "Bonus", "free increments", BONUS)), value_of=_row_value),
))

SAID = {"trait": "Trait {}", "skill": "Skill {}", "dr": "DR {}", "bonus": "Bonus {}",
        "luck": "Luck {}", "secret": "secret difficulty"}
DECIDING = ("IoS {ios}",)
IOS_TERM = "IoS — Increment of Success: 1 when the {0} is met exactly, 1 more for each {1} beyond."

PAGE = SystemPage(
    id="pool",
    icon='<path d="M13 2.5l9.5 8-2 8.2-7.5 5-7.5-5-2-8.2z"/><path d="M13 6l6 6.5-6 6-6-6z"/>',
    outcomes={
        # seed 002, "Degrees of Success"; IoS 2 has no name there, so it is called by its IoS.
        "critical": ("Critical Success", "IoS 3 or more: two or more successes beyond the DR, "
                     "a slam dunk."),
        "success": ("Success (IoS 2)", "One success beyond the DR; the rulebook gives it no "
                    "name."),
        "basic": ("Basic Success", "IoS 1: exactly the DR. The desired effect, nothing "
                  "spectacular."),
        "barely": ("Barely Succeeding", "The DR is met only with bonus points or Luck."),
        "failure": ("Failure", "IoS −1 or −2: one or two successes short of the DR."),
        "disaster": ("Disaster", "IoS −3 or lower: three or more short. Adverse effects."),
        "flubbed": ("Flubbed", "Trait and Skill 10 and three or more 10s rolled: fumbled."),
        "too difficult": ("Too difficult", "The DR is above the Trait: no roll can make it."),
    },
    said=SAID,
    terms="DR — Difficulty Rating: the successes needed. " + IOS_TERM.format("DR", "success"),
    sheet=SHEET,
    fill=fill,
    drawn_with="d10",
    resource=LUCK,
    points=MORE_LUCK,
    reveal=DR_BOX,
    gm_sets=DR_BOX,
    totals=("number of successes", "Successes", "DR"),
    deciding=DECIDING,
    adjust={"": ("dr", "bonus")},
)
