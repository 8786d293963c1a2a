"""A pick "From the sheet", and what picking another character does to the form it filled.

A pick fills a check form from one character's sheet; a roll is theirs by that skill only while
the form still holds every value the pick filled in. Picking another character must not leave
the first one's numbers in the form for the next roll, unseen: the form is filled again from
the new sheet, or put back as the page draws it when that sheet lacks the skill. Numbers the
player typed over the pick are theirs, and stay.

Pure: the character bar (characters_panel.py) reads the form and carries out what `switched`
decides; form_memory.py keeps each form's pick across reloads.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .characters import pickable
from .forms import value_at
from .systems import PAGES


@dataclass(frozen=True)
class Pick:
    """What one pick filled into one form: whose sheet (`character`, by id, and `name` as it
    was then), the sheet's `skill` (or aspect, or stat), the request `fields` it filled
    ("initiator.rank": 3) and the `side` the player chose for it, where they may choose."""

    character: int
    name: str
    skill: str
    fields: dict[str, object]
    side: str = ""

    def holds(self, request: dict) -> bool:
        """Whether the form's `request` still holds every value this pick filled in."""
        return all(value_at(request, field) == value for field, value in self.fields.items())


class Switch(Enum):
    """What picking another character does to the form."""

    KEEP = "keep"  # nothing: no pick there, the same character, or numbers typed over it
    REFILL = "refill"  # filled again from the new character's sheet, the same skill
    RESET = "reset"  # back as the page draws it: the new sheet has no such skill


def switched(pick: Pick | None, request: dict, character: dict | None) -> Switch:
    """What picking `character` (None: "No character") does to the form `request` shows, which
    `pick` filled (None: none did)."""
    if (character is None or pick is None or pick.character == character["id"]
            or not pick.holds(request)):
        return Switch.KEEP
    if pick.skill in pickable(character, request["system"]):
        return Switch.REFILL
    return Switch.RESET


def gone_said(pick: Pick, character: dict, system: str) -> str:
    """What the bar says when the form went back as drawn because `character` has no such skill."""
    skill = PAGES[system].pick.spelled.get(pick.skill, pick.skill)
    return (f"The form no longer holds {pick.name}’s {skill}: choose {character['name']}’s skill "
            "From the sheet.")
