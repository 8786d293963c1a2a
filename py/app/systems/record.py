"""What the page knows about one rule system, in one record beside its rules module: how its
picker chip looks, what its outcomes are called, what it is drawn with, its character sheet and
what a pick fills, the stock it spends, what a secret check reveals and announces.

A record is checked when it is made: a piece missing or at odds with the rules module fails at
import, naming the system and the piece (MissingPiece), never later at the table.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field

from skillcheck.registry import REGISTRY

from ..editor_boxes import Fixed, Group
from ..forms import WHOLE

SHAPES = ("d6", "d10", "d100")  # the dice the page draws (py/app/pieces_svg.py)
# Inputs a check's summary never says (py/app/check_words.py): the draw, the kind of check,
# the difficulty (said apart, after "vs").
UNSAID = frozenset({"mode", "keep", "dtn"})


class MissingPiece(LookupError):
    """A system's record lacks a piece, or holds one its rules module does not back."""

    def __init__(self, system: str, piece: str, why: str):
        super().__init__(f"the {system!r} system's page record (py/app/systems/{system}.py): "
                         f"{piece} {why}")
        self.system = system
        self.piece = piece


@dataclass(frozen=True)
class Resource:
    """A stock a system spends: how a request offers it and how a result reports it."""

    stock: str  # the character's field: "luck" or "xp"
    field: str  # the request field that offers it
    cost: int  # stock per point of that field
    spent: str  # the result field that says how much was spent
    label: str
    most: int  # the most a character can hold


@dataclass(frozen=True)
class Points:
    """What the spend advisor beside the odds counts, one more per row from 0: the request
    field a player chooses how much of to offer (`field`), what a row calls one of it
    (`word`: "Luck"), and the other point fields every row keeps as the form holds them
    (`held`: the d10 pool's Bonus, tied to the skill, is not the player's choice before a
    roll; Luck is — so its rows count Luck, with Bonus as typed)."""

    field: str
    word: str
    held: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reveal:
    """The GM's difficulty, typed in: to judge a secret check's draw (`reveal`), or to set one
    check for the whole party (`gm_sets`). What the box is called, what it takes, the request
    field it fills (a number, or a switch the box ticks), and whether a word of the difficulty
    ladder fills "difficulty" instead."""

    label: str
    hint: str
    field: str
    by_word: bool = False

    def typed(self, text: str) -> dict | None:
        """What the GM typed → the request fields it fills: {"dtn": 15}, {"difficulty":
        "hard"}, {"dr": 4}; text that is no number goes through as typed, for the rules to
        name; None when nothing is typed."""
        text = " ".join(str(text).split())
        if not text:
            return None
        if WHOLE.fullmatch(text):
            return {self.field: int(text)}
        return {"difficulty": text.lower()} if self.by_word else {self.field: text}


@dataclass(frozen=True)
class Sheet:
    """A system's part of a character: its key in `character["sheets"]`, what the player calls
    it, the editor's summary line, how a stored sheet is read (a FieldError names a bad field),
    and the editor's parts, in order."""

    key: str
    words: str
    summary: str
    read: Callable[[dict, str], dict]
    parts: tuple[Group | Fixed, ...]


@dataclass(frozen=True)
class Pick:
    """Where a character's pick goes in a system whose form has sides and modes: the side each
    mode fills unless the player chooses (`side_of_mode`), the sides a player may choose
    (`sides`), the mode a skill goes to from a mode that takes none (`skill_mode`), and whether
    a sheet's skill stands for a skill of the seed's list (`seed_skill`: its name → the seed's
    skill or None), which the form's skill list then names, with its specializations; and the
    words for a sheet's name where the rules spell out what it abbreviates (`spelled`: an
    aspect's code → "Hard Strength"), so a player never reads a bare code."""

    side_of_mode: dict[str, str] = field(default_factory=dict)
    sides: dict[str, tuple[str, ...]] = field(default_factory=dict)
    skill_mode: dict[str, str] = field(default_factory=dict)
    seed_skill: Callable[[str], object] | None = None
    spelled: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SystemPage:
    """Everything the page knows about one system; `id` is the rules module's name."""

    id: str
    icon: str  # the picker chip's SVG, inside <svg viewBox="0 0 26 26">
    outcomes: dict[str, tuple[str, str]]  # outcome → (its rulebook name, one line on it)
    said: dict[str, str]  # each number or switch it takes, in a summary: a number's format
    # ("DR {}", "flip {:+d}", "{} dice"), a switch's words when it is on ("takes a 7")
    fill: Callable[[dict, dict, str], dict | None]  # (character, sheet, name) → request fields
    # What the GM sets for one check of the whole party (py/app/party.py), beside what each
    # sheet fills: the flip's DTN or ladder word, the d10 pool's DR; None where the sheet alone
    # decides (Swift's target is Trait + Skill). Every record says, so a new system decides.
    gm_sets: Reveal | None
    sheet: Sheet | None = None  # None: it reads another system's sheet (`reads`)
    # (character, sheet, name) → request fields for a skill not on the sheet that the rules
    # still let anyone try (seed 000: a basic skill unskilled, at rank 0), else None
    unskilled: Callable[[dict, dict, str], dict | None] | None = None
    reads: str = ""  # the sheet key it reads, when not its own
    drawn_with: str | None = None  # the die shape; None: cards, drawn from its sides
    terms: str = ""  # the abbreviations its outcome lines use, spelled out once under the odds
    resource: Resource | None = None
    points: Points | None = None  # the spend advisor's rows (None: no advisor)
    reveal: Reveal | None = None
    totals: tuple[str, str, str] = ("total", "Total", "DTN")  # a secret check's chart: the
    # number announced, its heading, and what it is weighed against
    form: str = ""  # its forms in page macros, hand-laid: one per mode, where it has modes
    chip_wraps: bool = False  # the one chip that may take two lines on the narrowest phones
    pick: Pick = field(default_factory=Pick)
    deciding: tuple[str, ...] = ()  # the number that decided a result, in words: formats over
    # its fields ("IoS {ios}", "total {primary[total]} vs DTN {dtn}"); the first whose fields
    # the result holds is said (py/app/systems/__init__.py: deciding)
    # The numbers a player changes most between two rolls, by mode ("" where it has none),
    # stepped from under the result (py/app/adjust_html.py): the difficulty, then a bonus;
    # none given, none offered.
    adjust: dict[str, tuple[str, ...]] = field(default_factory=dict)
    modes: tuple[str, ...] = field(init=False)  # its kinds of check, from the rules

    def __post_init__(self) -> None:
        rules = REGISTRY.get(self.id)
        if rules is None:
            raise MissingPiece(self.id, "id", "names no system of skillcheck.registry")
        described = rules.describe()
        object.__setattr__(self, "modes", tuple(described.get("modes", ())))
        said = [name for name in described["outcomes"] if name != "secret"]
        unsaid = [name for name in said if not all(self.outcomes.get(name, ("", "")))]
        if unsaid:
            raise MissingPiece(self.id, "outcomes", "needs a name and a meaning for "
                               + ", ".join(unsaid))
        if not self.icon.strip():
            raise MissingPiece(self.id, "icon", "is empty")
        if (self.sheet is None) == (not self.reads):
            raise MissingPiece(self.id, "sheet", "is its own sheet, or reads= another's: one")
        draw = described.get("draw", {}).get("label")
        if (self.drawn_with is None) != (draw == "cards"):
            raise MissingPiece(self.id, "drawn_with", f"must be a die shape for {draw}")
        if self.drawn_with is not None and self.drawn_with not in SHAPES:
            raise MissingPiece(self.id, "drawn_with", f"is one of {', '.join(SHAPES)}")
        fields = {spec["name"] for spec in described["fields"]}
        unsaid = sorted(spec["name"] for spec in described["fields"]
                        if spec["kind"] in ("whole", "flag") and spec["name"] not in UNSAID
                        and spec["name"] not in self.said)
        if unsaid:
            raise MissingPiece(self.id, "said", "needs the words for " + ", ".join(unsaid))
        if self.resource is not None and self.resource.field not in fields:
            raise MissingPiece(self.id, "resource", f"offers {self.resource.field!r}, which the "
                               "rules do not take")
        if self.points is not None:
            numbers = {spec["name"] for spec in described["fields"] if spec["kind"] == "whole"}
            named = (self.points.field, *self.points.held)
            wrong = [name for name in named if name not in numbers]
            if wrong or len(set(named)) != len(named):
                raise MissingPiece(self.id, "points", "names the rules' number fields, each "
                                   "once; not " + ", ".join(wrong or named))
        if (self.reveal is not None) != ("secret" in fields):
            raise MissingPiece(self.id, "reveal", "is needed exactly where the rules keep a "
                               "difficulty secret")
        if self.gm_sets is not None:
            kinds = {spec["name"]: spec["kind"] for spec in described["fields"]}
            if kinds.get(self.gm_sets.field) not in ("whole", "flag") or (
                    self.gm_sets.by_word and kinds.get("difficulty") != "choice"):
                raise MissingPiece(self.id, "gm_sets", "names a number or switch the rules "
                                   "take (and takes ladder words only where the rules do)")
        for words in self.deciding:
            if not named_fields(words):
                raise MissingPiece(self.id, "deciding", f"{words!r} names no result field")
        steppable = {spec["name"] for spec in described["fields"]
                     if spec["kind"] in ("whole", "choice")}
        wrong = sorted({name for names in self.adjust.values() for name in names
                        if name.rsplit(".", 1)[-1] not in steppable})
        if self.adjust and (sorted(self.adjust) != sorted(self.modes or ("",)) or wrong):
            raise MissingPiece(self.id, "adjust", "needs, for each mode, fields the rules "
                               "take as a number or a choice" + (": not " + ", ".join(wrong)
                                                                 if wrong else ""))
        missing = [mode for mode in self.modes if f'data-mode="{mode}"' not in self.form]
        if missing:
            raise MissingPiece(self.id, "form", "needs a form for each mode: "
                               + ", ".join(missing))

    @property
    def sheet_key(self) -> str:
        return self.sheet.key if self.sheet else self.reads


def named_fields(words: str) -> list[str]:
    """The result fields a `deciding` format names ("{primary[total]}" → "primary[total]"), or
    [] when it is no format, or names none, or converts or formats them (they are said plain)."""
    try:
        parsed = [(name, spec, conversion) for _, name, spec, conversion
                  in string.Formatter().parse(words) if name is not None]
    except ValueError:
        return []
    if any(spec or conversion or not re.fullmatch(r"[a-z_]+(\[[a-z_0-9]+\])*", name)
           for name, spec, conversion in parsed):
        return []
    return [name for name, _, _ in parsed]
