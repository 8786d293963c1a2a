"""The d6 pool on the page (seed 003; rules in py/skillcheck/fluke.py): its chip, outcome words,
the sheet of stats and skills (dice counts), and the XP its Fluke Insurance spends.
"""

from __future__ import annotations

from skillcheck.fluke import XP_PER_POINT
from skillcheck.registry import REGISTRY

from ..editor_boxes import NAME, Group, number
from ..sheet_fields import MOST_XP, named
from ..sheet_fields import number as numbers
from .record import Points, Resource, Reveal, Sheet, SystemPage

DICE = REGISTRY["fluke"].spec("dice_count")
BASE = REGISTRY["fluke"].spec("base")


def read_sheet(value: dict, field: str) -> dict:
    return {"stats": named(value.get("stats"), f"{field}.stats", numbers(DICE)),
            "skills": named(value.get("skills"), f"{field}.skills", numbers(DICE))}


def fill(character: dict, sheet: dict, name: str) -> dict | None:
    """dice_count, from a skill or a stat."""
    count = sheet.get("skills", {}).get(name, sheet.get("stats", {}).get(name))
    return None if count is None else {"dice_count": count}


DICE_BOX = number("dice", "Dice", "dice to roll", DICE)
SHEET = Sheet("fluke", "d6 pool sheet", "d6 pool sheet: stats and skills", read_sheet, (
    Group("stats", "Stats", "dice", "stat", (NAME, DICE_BOX)),
    Group("skills", "Skills", "dice", "skill", (NAME, DICE_BOX)),
))

PAGE = SystemPage(
    id="fluke",
    icon=('<rect x="4" y="4" width="18" height="18" rx="4"/>'
          '<circle class="fill" cx="8.6" cy="8.6" r="1.6"/>'
          '<circle class="fill" cx="13" cy="13" r="1.6"/>'
          '<circle class="fill" cx="17.4" cy="17.4" r="1.6"/>'),
    outcomes={  # seed 003
        "success": ("Success", "The total, ones left out, is greater than the target (a "
                    "challenge: 8 or more and no ones)."),
        "failure": ("Failure", "The total is not greater than the target."),
        "fluke": ("Fluke", "At least half the dice are ones: things go severely wrong."),
    },
    said={"dice_count": "{} dice", "base": "Base {}", "penalty": "Penalty {:+d}",
          "plan": "Plan {:+d}", "challenge": "Challenge", "insurance": "Insurance {}"},
    sheet=SHEET,
    fill=fill,
    gm_sets=Reveal("Base", f"the target before penalties and plans, usually {BASE.default}",
                   "base"),
    drawn_with="d6",
    deciding=("total {total} vs {target}",),
    resource=Resource("xp", "insurance", XP_PER_POINT, "xp_spent", "XP", MOST_XP),
    points=Points("insurance", "Insurance"),
    adjust={"": ("base", "dice_count")},
)
