"""Under a result: the numbers a player changes most between two rolls (the system's record
names them, `SystemPage.adjust`), each with − and + that step the form's own box, so reading a
result, raising the DR and rolling again needs no scroll back up the form. The form stays the
one place a number lives: these only step it, and show what it holds.

Pure, so CPython tests read it; the page reads each box into a `Knob` (dom.knob).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .systems import page_of


@dataclass(frozen=True)
class Knob:
    """One form box as the row shows it: its field, label, value in words, and which ways it
    can still step."""

    field: str
    label: str
    value: str
    down: bool
    up: bool


def adjusted(system: str, mode: str | None) -> tuple[str, ...]:
    """The fields stepped from under a result of this system and mode."""
    page = page_of(system)
    return page.adjust.get(mode or "", ()) if page else ()


def adjust_html(knobs: list[Knob]) -> str:
    """The row of knobs, or "" when there are none."""
    if not knobs:
        return ""

    def button(knob: Knob, step: int) -> str:
        way, sign, can = ("down", "−", knob.down) if step < 0 else ("up", "+", knob.up)
        return (f'<button type="button" class="knob-step" data-adjust="{escape(knob.field)}" '
                f'data-adjust-step="{step}" aria-label="{escape(knob.label)} {way}"'
                f'{"" if can else " disabled"}>{sign}</button>')

    items = "".join(
        f'<div class="knob"><span class="knob-name">{escape(knob.label)}</span>'
        f"{button(knob, -1)}"
        f'<output data-adjust-value="{escape(knob.field)}">{escape(knob.value)}</output>'
        f"{button(knob, 1)}</div>"
        for knob in knobs)
    return ('<div class="adjust" role="group" aria-labelledby="adjust-title">'
            '<p class="adjust-title" id="adjust-title">Next roll</p>'
            f"{items}</div>")
