"""The character editor's pieces: a box, a group of rows the player adds and removes, a part of
fixed boxes. Each system's record (py/app/systems/) declares its sheet's parts with them;
character_form.py reads the editor's form through them, and the build draws their HTML
(tools/page_macros.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skillcheck.request import Whole

from .sheet_fields import LONGEST_NAME


@dataclass(frozen=True)
class Box:
    """One control of the editor: a number box (lo to hi), a text box or the notes (at most
    `longest` characters), a checkbox, the list of the seed's skills, or the list of the
    traits named on the sheet."""

    key: str
    label: str
    hint: str = ""
    kind: str = "number"  # number | text | notes | check | skill | trait
    lo: int = 0
    hi: int = 0
    longest: int = 0
    wide: bool = False


def number(key: str, label: str, hint: str, spec: Whole) -> Box:
    """A box for a number the engine reads in `spec`'s field, so it holds what that field takes."""
    return Box(key, label, hint, lo=spec.lo, hi=spec.hi)


def text(key: str, label: str, hint: str = "", wide: bool = False) -> Box:
    return Box(key, label, hint, "text", longest=LONGEST_NAME, wide=wide)


NAME = text("name", "Name")


def _named_row(row: dict) -> str | None:
    return row.get("name")


@dataclass(frozen=True)
class Group:
    """Rows the player adds and removes, kept on the sheet as a map of names (`part`): the
    row's control holding the value when the value is one number (`single`; None for a row of
    several fields), what one row is called, its boxes, and for a row of several fields how a
    row becomes a name and a value (`name_of`, `value_of`) and back (`controls_of`)."""

    part: str
    heading: str
    single: str | None
    noun: str
    boxes: tuple[Box, ...]
    name_control: str = "name"
    name_of: Callable[[dict], str | None] = _named_row
    value_of: Callable[[dict], object] | None = None
    controls_of: Callable[[str, object], dict] | None = None

    def row_value(self, row: dict):
        """A filled row's value as the sheet holds it."""
        return self.value_of(row) if self.value_of else row.get(self.single)

    def controls(self, name: str, value) -> dict:
        """A row's controls (by key) showing `name` and `value`."""
        if self.controls_of:
            return self.controls_of(name, value)
        if self.single:
            return {"name": name, self.single: value}
        return {"name": name, **value}


@dataclass(frozen=True)
class Fixed:
    """A part of fixed boxes, one per name the rules list (a flip sheet's aspects): the
    editor's controls are `{part}.{box key}`, a part's key is the page's own."""

    part: str
    heading: str
    boxes: tuple[Box, ...]
