"""The party at a glance (the GM's side, issue 37 point 3): one check the GM sets — a system, a
skill, a difficulty — and every chosen character's exact chances of it, side by side, best
first, with the numbers each came from.

A row's request is what "From the sheet" would put in the player's form (the record's `fill`)
with the GM's difficulty (the record's `gm_sets`); a Basic skill missing from a card flip sheet is
tried unskilled where the record's `unskilled` says so. Its odds are `skillcheck.odds` of that
request, the very function the odds panel calls, so the fractions are the same; with the points
the request offers (Luck), the chance without them too, as the roll bar says it. `Chances`
keeps each request's odds, so a table drawn again for the same inputs works nothing out again.

Pure Python (no browser): the GM's panel (party_panel.py) draws the rows with party_html.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import skillcheck
from skillcheck import SYSTEMS, InvalidRequest
from skillcheck.registry import REGISTRY

from .character_form import pick_options
from .check_words import summary
from .systems import PAGES, SHEETS, Reveal, points_offered


@dataclass(frozen=True)
class Row:
    """One character's chances: `fields` are what their sheet fills (what a tap puts in the
    player's form), `request` those with the GM's difficulty; `odds` its skillcheck.odds and
    `bare` the same offering no points (`points`: how the offered ones are said, "Luck 3", or
    ""). A character who cannot make the check has no odds, and `why` says why."""

    id: int
    name: str
    skill: str  # the name picked, as the sheet spells it
    fields: dict | None = None
    request: dict | None = None
    odds: dict | None = None
    bare: dict | None = None
    points: str = ""
    unskilled: bool = False  # not on the sheet: tried at rank 0, as the rules let anyone
    why: str = ""

    @property
    def success(self) -> Fraction:
        """The chance of success with the points offered."""
        return Fraction(self.odds["success"])

    @property
    def alone(self) -> Fraction:
        """The dice's own chance of success, without the points: the number shown big."""
        return Fraction(self.bare["success"])

    @property
    def numbers(self) -> str:
        """The inputs the chance came from: "Trait 5, Skill 7, DR 4, Luck 3"."""
        return summary(self.request)


class Chances:
    """Each request's odds (or the rules' refusal), worked out once: a table drawn again with
    the same inputs takes them from here. Only the last table's are kept (`rows` keeps them),
    so a long evening does not pile up odds no row shows any more."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple[dict, dict, str] | InvalidRequest] = {}
        self.used: dict[str, tuple[dict, dict, str] | InvalidRequest] = {}
        self.worked = 0  # how many requests were worked out: what the tests count

    def of(self, request: dict) -> tuple[dict, dict, str]:
        """(odds, the same offering no points, how the points are said); InvalidRequest."""
        key = json.dumps(request, sort_keys=True)
        found = self.used.get(key) or self.kept.get(key)
        if found is None:
            self.worked += 1
            try:
                found = _worked_out(request)
            except InvalidRequest as error:
                found = error
        self.used[key] = found
        if isinstance(found, InvalidRequest):
            raise found
        return found

    def settle(self) -> None:
        """A table is drawn: keep what it used, drop the rest."""
        self.kept, self.used = self.used, {}


def _worked_out(request: dict) -> tuple[dict, dict, str]:
    odds = skillcheck.odds(request)
    offered = points_offered(request)
    bare = skillcheck.odds({**request, offered[0]: 0}) if offered else odds
    return odds, bare, offered[1] if offered else ""


def box(system: str) -> Reveal | None:
    """The difficulty box the GM fills for `system`, or None where the sheet alone decides."""
    return PAGES[system].gm_sets


def is_switch(system: str) -> bool:
    """Whether the GM's difficulty is a switch (ticked or not) rather than a typed value."""
    found = box(system)
    return found is not None and REGISTRY[system].spec(found.field).describe()["kind"] == "flag"


def start(system: str) -> str:
    """What the difficulty box starts at: the player's form's own start ("average", "4")."""
    found = box(system)
    if found is None or is_switch(system):
        return ""
    specs = {spec["name"]: spec for spec in SYSTEMS[system]["fields"]}
    for name in ("difficulty", found.field) if found.by_word else (found.field,):
        begun = (specs.get(name, {}).get("form") or {}).get("start")
        if begun is not None:
            return str(begun)
    return ""


def difficulty(system: str, typed: str | bool) -> dict:
    """What the GM set → the request fields every row gets: {"dtn": 15}, {"difficulty": "hard"},
    {"dr": 4}, {"contested": True}, or {} where the system takes none. InvalidRequest naming the
    field when it is missing or the rules refuse it."""
    found = box(system)
    if found is None:
        return {}
    if is_switch(system):
        return {found.field: typed is True}
    fields = found.typed("" if isinstance(typed, bool) else typed)
    if fields is None:
        raise InvalidRequest(found.field, f"is needed: {found.hint}")
    for name in fields:
        REGISTRY[system].spec(name).read(fields)
    return fields


def choices(characters: Iterable[dict], system: str) -> list[tuple[str, str]]:
    """(value, label) of what the characters' sheets offer for `system`, each once: their
    skills A to Z, then aspects or stats, marked as such, as "From the sheet" lists them."""
    skills: dict[str, str] = {}
    others: dict[str, str] = {}
    for character in characters:
        own = character["sheets"].get(PAGES[system].sheet_key, {}).get("skills", {})
        for value, label in pick_options(character, system):
            (skills if value in own else others).setdefault(value, label)
    skills = dict(sorted(skills.items(), key=lambda item: item[1].casefold()))
    return [*skills.items(), *((value, label) for value, label in others.items()
                               if value not in skills)]


def rows(characters: Iterable[dict], system: str, skill: str, typed: str | bool,
         chances: Chances | None = None) -> list[Row]:
    """A row per character for the check of `skill` at the GM's difficulty `typed`: those who
    can make it by the dice's own chance of success, best first, then with their points, then
    by name; those who cannot after them, by name. InvalidRequest (the difficulty's field)."""
    asked = difficulty(system, typed)
    chances = chances or Chances()
    made = [_row(character, system, skill, asked, chances) for character in characters]
    chances.settle()
    rolled = sorted((row for row in made if row.odds is not None),
                    key=lambda row: (-row.alone, -row.success, row.name.casefold(), row.id))
    left = sorted((row for row in made if row.odds is None),
                  key=lambda row: (row.name.casefold(), row.id))
    return rolled + left


def _row(character: dict, system: str, skill: str, asked: dict, chances: Chances) -> Row:
    page = PAGES[system]
    sheet = character["sheets"].get(page.sheet_key, {})
    who = {"id": character["id"], "name": character["name"], "skill": skill}
    fields = page.fill(character, sheet, skill)
    unskilled = fields is None and page.unskilled is not None
    if unskilled:
        fields = page.unskilled(character, sheet, skill)
    if fields is None:
        spelled = page.pick.spelled.get(skill, skill)
        return Row(**who, why=f"{spelled} is not on {character['name']}’s "
                              f"{SHEETS[page.sheet_key].words}.")
    request = {"system": system, **fields, **asked}
    try:
        odds, bare, points = chances.of(request)
    except InvalidRequest as error:
        return Row(**who, fields=fields, request=request, unskilled=unskilled,
                   why=f"{_label(system, error.field)}: {error.reason}.")
    return Row(**who, fields=fields, request=request, odds=odds, bare=bare, points=points,
               unskilled=unskilled)


def _label(system: str, field: str) -> str:
    """A request field as the player's form labels it: "rank" → "Rank"."""
    for spec in SYSTEMS[system]["fields"]:
        if spec["name"] == field:
            return (spec.get("form") or {}).get("label") or spec["label"]
    return field
