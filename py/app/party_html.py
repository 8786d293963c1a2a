"""The party's chances as the GM's side draws them: a caption saying the check, then a row per
character — the name, the chance of success big (and with Luck, as the roll bar says it), the
outcome bar the result shows (landed_html.outcome_bar) with each outcome's chance in words, the
numbers it came from — each a
button that fills the player's form for that character. Those who cannot make the check
follow, saying why. Escaped HTML, pure, so CPython tests read it.
"""

from __future__ import annotations

from html import escape

from .check_words import system_name
from .landed_html import outcome_bar, shares_said
from .party import Row
from .result_html import chances_said
from .systems import PAGES


def caption(system: str, skill: str, asked: dict) -> str:
    """The check the table is for: "Lockpicking (d10 pool) vs DR 4", "Athletics (Card flip)
    vs hard", "Stealth (Passages), contested"."""
    found = PAGES[system].gm_sets
    check = f"{PAGES[system].pick.spelled.get(skill, skill)} ({system_name(system)})"
    value = asked.get(found.field) if found else None
    if found is None or value is False:
        return check
    if value is True:
        return f"{check}, {found.label.lower()}"
    return f"{check} vs {asked.get('difficulty') or f'{found.label.split()[0]} {value}'}"


def party_html(rows: list[Row], system: str, skill: str, asked: dict) -> str:
    """The table: its caption, best chance first, then those who cannot make the check."""
    head = (f'<p class="party-caption" id="party-caption">{escape(caption(system, skill, asked))}'
            '<span class="hint"> · best chance first</span></p>')
    items = "".join(_row_html(row, system, index) for index, row in enumerate(rows))
    return f'{head}<ol class="party-rows" aria-labelledby="party-caption">{items}</ol>'


def _row_html(row: Row, system: str, index: int) -> str:
    name = escape(row.name)
    if row.odds is None:
        return (f'<li class="party-row cannot"><p class="party-name">{name}</p>'
                f'<p class="party-why">{escape(row.why)}</p></li>')
    ident = f"party-{index}"
    first, more = chances_said(row.odds, row.bare, row.points)
    described = [f"{ident}-chance", f"{ident}-degrees", f"{ident}-numbers"]
    unskilled = ""
    if row.unskilled:  # not on the sheet: the rules let anyone try it at rank 0
        unskilled = f' <span class="party-mark" id="{ident}-mark">unskilled</span>'
        described.append(f"{ident}-mark")
    skill = PAGES[system].pick.spelled.get(row.skill, row.skill)
    return (f'<li class="party-row"><button type="button" class="party-roll" '
            f'data-character="{row.id}" aria-label="{escape(f"Roll for {row.name}: {skill}")}" '
            f'aria-describedby="{" ".join(described)}">'
            f'<span class="party-name">{name}{unskilled}</span>'
            f'<span class="party-chance" id="{ident}-chance"><strong>{escape(first)}</strong> '
            f'<span>to succeed{escape(f" · {more}" if more else "")}</span></span>'
            f'{outcome_bar(system, row.bare)}'
            f'<span class="party-degrees" id="{ident}-degrees">'
            f'{escape(shares_said(system, row.bare))}</span>'
            f'<span class="party-numbers" id="{ident}-numbers">{escape(row.numbers)}</span>'
            '</button></li>')
