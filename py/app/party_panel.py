"""The party's chances on the GM's side (issue 37 point 3): the GM ticks characters (all at
first), chooses a system, a skill and a difficulty, and reads every chosen character's exact
chance of it, best first (party.py, drawn by party_html.py); live as anything changes. A tap on
a row opens the player's side with that character's form filled (`play`, handed in by main.py,
which also redraws this when the characters change: in another tab, or here on the player's
side before the GM's is shown again).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from pyscript import web, when
from pyscript.ffi import is_none
from skillcheck import InvalidRequest

from . import dom, party
from .browser import button_clicks, guarded
from .check_words import system_name
from .party_html import party_html
from .session import Session
from .systems import PAGES

session: Session  # handed in by main.py at boot (start), with `play`:
play: Callable[[str, int, str, dict, dict], None]  # (system, character id, skill, fields, asked)
_chances = party.Chances()  # each row's odds, kept while its inputs stay the same
_left_out: set[int] = set()  # the characters the GM unticked (a new one starts ticked)
_shown: list[object] = [None, []]  # the inputs and rows of the table drawn: a tap's row
_drawn: dict[str, str] = {}  # what each element redrawn here holds


def start(booted: Session, play_for: Callable[[str, int, str, dict, dict], None]) -> None:
    global session, play
    session, play = booted, play_for
    web.page["party-system"].innerHTML = "".join(
        f'<option value="{system}">{escape(system_name(system))}</option>' for system in PAGES)
    say_difficulty()
    render()


def say_difficulty() -> None:
    """The difficulty's box as the chosen system calls it (a switch for one that is), starting
    where the player's form starts; a note where the system takes none."""
    system = str(web.page["party-system"].value)
    found, switch = party.box(system), party.is_switch(system)
    web.page["party-difficulty-field"].hidden = found is None or switch
    web.page["party-switch-field"].hidden = not switch
    web.page["party-no-difficulty"].hidden = found is not None
    if found is None:
        return
    web.page["party-switch" if switch else "party-difficulty"].value = party.start(system)
    web.page["party-switch"].checked = False
    label, hint = ("party-switch-label", "party-switch-hint") if switch else (
        "party-difficulty-label", "party-difficulty-hint")
    web.page[label].textContent = found.label
    web.page[hint].textContent = found.hint


def render() -> None:
    """The ticks, the skill list and the table for the characters as stored now."""
    everyone = session.roster.all() if session.roster else []
    web.page["party-empty"].hidden = bool(everyone)
    web.page["party-form"].hidden = not everyone
    _left_out.intersection_update(c["id"] for c in everyone)
    _put("party-characters", "".join(
        f'<label class="party-tick"><input type="checkbox" value="{c["id"]}" checked> '
        f'{escape(c["name"])}</label>' for c in everyone))
    for tick in web.page.find("#party-characters input"):
        tick.checked = int(tick.value) not in _left_out
    ticked = [c for c in everyone if c["id"] not in _left_out]
    every = web.page["party-all"]
    every.checked = bool(everyone) and not _left_out
    every.indeterminate = bool(_left_out) and bool(ticked)
    system = str(web.page["party-system"].value)
    skills = party.choices(ticked, system)
    box = web.page["party-skill"]
    kept = str(box.value)
    _put("party-skill", "".join(f'<option value="{escape(value)}">{escape(label)}</option>'
                                for value, label in skills))
    if any(value == kept for value, _ in skills):
        box.value = kept
    draw(ticked)


def draw(ticked: list[dict]) -> None:
    """The table for the inputs as they are; a difficulty the rules refuse is named beside its
    box, and no table is drawn until it is put right."""
    form = web.page["party-form"]
    dom.clear_errors(form)
    system, skill = str(web.page["party-system"].value), str(web.page["party-skill"].value)
    typed = (web.page["party-switch"].checked is True if party.is_switch(system)
             else str(web.page["party-difficulty"].value))
    if not ticked or not skill:
        _shown[:] = [None, []]
        _put("party-table", "" if form.hidden else '<p class="hint">Tick at least one '
             'character.</p>' if not ticked else '<p class="hint">No skills on these '
             f'characters’ sheets for the {escape(system_name(system))}.</p>')
        return
    try:
        asked = party.difficulty(system, typed)
        rows = party.rows(ticked, system, skill, typed, _chances)
    except InvalidRequest as error:
        dom.show_error(form, "difficulty", error.reason)
        _shown[:] = [None, []]
        _put("party-table", "")
        return
    _shown[:] = [(system, skill, asked), rows]
    _put("party-table", party_html(rows, system, skill, asked))


def _put(ident: str, html: str) -> None:
    """Draw `html` into the element, unless it holds it already: a redraw that changes
    nothing leaves the page be, so a tap begun on a row (the box it left sends "change"
    first) or the focus on a tick is never lost to a copy of itself."""
    if _drawn.get(ident) != html:
        web.page[ident].innerHTML = html
        _drawn[ident] = html


@when("submit", "#party-form")
@guarded
def on_submit(event) -> None:
    event.preventDefault()  # the form goes nowhere: it is live


@when("change", "#party-form")
@guarded
def on_change(event) -> None:
    target = event.target
    if target.id == "party-all":
        everyone = session.roster.all()
        _left_out.clear()
        if not target.checked:
            _left_out.update(c["id"] for c in everyone)
    elif not is_none(target.closest("#party-characters")):
        (_left_out.discard if target.checked else _left_out.add)(int(target.value))
    elif target.id == "party-system":
        say_difficulty()
    render()


@when("input", "#party-difficulty")
@guarded
def on_typed(event) -> None:
    render()


@button_clicks("#party-table")
def on_row(button) -> None:
    """A row tapped: the player's side, with its character's form filled for the check."""
    inputs, rows = _shown
    wanted = button.getAttribute("data-character")
    row = next((row for row in rows if str(row.id) == wanted and row.fields), None)
    if inputs is None or row is None:
        return
    system, skill, asked = inputs
    play(system, row.id, skill, row.fields, asked)
