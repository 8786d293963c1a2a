"""Passages on the page (seed 004; rules in py/skillcheck/passages.py): its chip, outcome words
from the best roll to the worst, and the sheet of skill bases.
"""

from __future__ import annotations

from skillcheck.registry import REGISTRY

from ..editor_boxes import NAME, Group, number
from ..sheet_fields import named
from ..sheet_fields import number as numbers
from .record import Reveal, Sheet, SystemPage

BASE = REGISTRY["passages"].spec("base")


def read_sheet(value: dict, field: str) -> dict:
    return {"skills": named(value.get("skills"), f"{field}.skills", numbers(BASE))}


def fill(character: dict, sheet: dict, name: str) -> dict | None:
    """base, from a skill."""
    base = sheet.get("skills", {}).get(name)
    return None if base is None else {"base": base}


SHEET = Sheet("passages", "Passages sheet", "Passages sheet: skill bases", read_sheet, (
    Group("skills", "Skills", "base", "skill", (
        NAME, number("base", "Base", "the skill’s base value", BASE))),
))

PAGE = SystemPage(
    id="passages",
    icon=('<path d="M13 2.5l9.5 8-2 8.2-7.5 5-7.5-5-2-8.2z"/>'
          '<text x="13" y="16.5" text-anchor="middle">%</text>'),
    outcomes={  # seed 004, from the best roll to the worst
        "double down": ("Double Down", "At or under half the base: wildly successful."),
        "success": ("Skills Success", "At or under the base: it works as intended."),
        "double up": ("Double Up", "Over the base, up to double it: it partly succeeds, with "
                      "consequences."),
        "blown": ("Blown Roll", "Over double the base: it fails, with adverse consequences."),
        "critical fail": ("Critical Fail", "A roll of 100 (00): it fails, with adverse "
                          "consequences."),
    },
    said={"base": "Base {}", "contested": "contested", "practice": "practice"},
    sheet=SHEET,
    fill=fill,
    gm_sets=Reveal("Contested", "the GM's call: roll against the Core (base ÷ 5)",
                   "contested"),
    drawn_with="d100",
    deciding=("roll {roll} vs {value}",),
    adjust={"": ("base",)},
)
