"""What the player last typed into each check form, kept across reloads: phones reload tabs left
in the background, and a form back at its defaults under a character's name changes the check
without anyone seeing it. Kept per form (each system, each card-flip mode), with the system and
mode shown last, which a page opened without a #system link shows again; and each form's pick
"From the sheet" (sheet_pick.py), so the skill a roll is made with is still named after a reload.

A convenience, not a record: storage is read back field by field and whatever is odd — not our
document, a name that is not a plain field name, a value that is not short text or a tick — is
dropped without a word, so a stale or hostile value never stops the page starting. Names pass a
strict pattern before the page looks a control up by them.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace

from .sheet_pick import Pick
from .storage import EnvelopeError, dump, envelope, parse

KEY = "skillcheck.forms"
KIND = "forms"
LONGEST = 64_000  # characters of the whole document
LONGEST_VALUE = 200  # characters of one box's text
MOST_FORMS = 20
MOST_FIELDS = 400  # per form: a team flip with eight helpers has about a hundred
NAME = re.compile(r"[a-z]{1,20}")  # a system or a mode
FORM_KEY = re.compile(r"[a-z]{1,20}(?:/[a-z]{1,20})?")  # a system, or a system/its mode
SEGMENT = r"[a-z][a-z0-9_]{0,39}"
# A control's name: "trait", "initiator.take7", "secondaries.3.rank" — never quotes or brackets.
FIELD = re.compile(rf"{SEGMENT}(?:\.(?:[0-9]{{1,2}}|{SEGMENT})){{0,2}}")
LARGEST = 1_000_000  # a number a pick filled in, either way: ranks, scores, Luck are far below

Value = str | bool


def form_key(system: str, mode: str | None) -> str:
    return f"{system}/{mode}" if mode else system


@dataclass(frozen=True)
class FormMemory:
    """The forms as the player left them: `values[form_key]` maps a control's name to its text
    (or tick); `last` is the (system, mode) on screen last, `modes[system]` that system's mode
    when it was last shown (the card flip's), `picks[form_key]` the pick that last filled it."""

    last: tuple[str, str | None] | None = None
    values: dict[str, dict[str, Value]] = field(default_factory=dict)
    modes: dict[str, str] = field(default_factory=dict)
    picks: dict[str, Pick] = field(default_factory=dict)

    def of(self, system: str, mode: str | None) -> dict[str, Value]:
        return self.values.get(form_key(system, mode), {})

    def pick_of(self, system: str, mode: str | None) -> Pick | None:
        return self.picks.get(form_key(system, mode))

    def remember(self, system: str, mode: str | None, values: dict[str, object],
                 pick: Pick | None = None) -> FormMemory:
        """This memory with the form of `system` and `mode` holding `values`, filled by `pick`
        (None: by none), shown last."""
        return replace(self.picked(system, mode, pick), last=(system, mode),
                       values={**self.values, form_key(system, mode): _fields(values)},
                       modes={**self.modes, **({system: mode} if mode else {})})

    def picked(self, system: str, mode: str | None, pick: Pick | None) -> FormMemory:
        """This memory with `pick` (None: none) as what last filled the form of `system`, `mode`."""
        key = form_key(system, mode)
        picks = {k: v for k, v in self.picks.items() if k != key}
        return replace(self, picks={**picks, key: pick} if pick else picks)

    def dump(self) -> str:
        last = {"system": self.last[0], "mode": self.last[1]} if self.last else None
        # stored under "shown", as every kept form since the first has been
        return dump(envelope(KIND, shown=last, values=self.values, modes=self.modes,
                             picks={key: asdict(pick) for key, pick in self.picks.items()}))


def read(text: object) -> FormMemory:
    """What storage holds, checked; an empty memory when it holds nothing usable."""
    try:
        data = parse(text, KIND, LONGEST)
    except EnvelopeError:
        return FormMemory()
    values = data.get("values")
    forms = list(values.items())[:MOST_FORMS] if isinstance(values, dict) else []
    modes = data.get("modes")
    picks = data.get("picks")
    return FormMemory(last=_last(data.get("shown")), values={
        key: _fields(fields) for key, fields in forms
        if _is_form_key(key) and isinstance(fields, dict)},
        modes={system: mode for system, mode in (
            list(modes.items())[:MOST_FORMS] if isinstance(modes, dict) else [])
            if _is_name(system) and _is_name(mode)},
        picks={key: pick for key, pick in (
            (key, _pick(raw)) for key, raw in (
                list(picks.items())[:MOST_FORMS] if isinstance(picks, dict) else [])
            if _is_form_key(key)) if pick is not None})


def _last(raw: object) -> tuple[str, str | None] | None:
    if not isinstance(raw, dict):
        return None
    system, mode = raw.get("system"), raw.get("mode")
    if not _is_name(system):
        return None
    return system, mode if _is_name(mode) else None


def _is_name(value: object) -> bool:
    return isinstance(value, str) and bool(NAME.fullmatch(value))


def _is_form_key(value: object) -> bool:
    return isinstance(value, str) and bool(FORM_KEY.fullmatch(value))


def _pick(raw: object) -> Pick | None:
    """A stored pick read back whole or not at all: one missing a field it filled in would
    name its skill over numbers it never put there."""
    if not isinstance(raw, dict):
        return None
    character, name, skill = raw.get("character"), raw.get("name"), raw.get("skill")
    fields, side = raw.get("fields"), raw.get("side", "")
    whole = (isinstance(character, int) and not isinstance(character, bool) and character > 0
             and _is_text(name) and _is_text(skill) and (side == "" or _is_name(side))
             and isinstance(fields, dict) and 0 < len(fields) <= MOST_FIELDS
             and all(isinstance(key, str) and FIELD.fullmatch(key) and _is_filled(value)
                     for key, value in fields.items()))
    return Pick(character, name, skill, dict(fields), side) if whole else None


def _is_text(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= LONGEST_VALUE


def _is_filled(value: object) -> bool:
    """A value a pick fills in: a tick, a whole number, or short text (a skill's name)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) <= LARGEST
    return isinstance(value, str) and len(value) <= LONGEST_VALUE


def _fields(fields: dict) -> dict[str, Value]:
    """The usable part of one form's values: plain field names, short text or ticks."""
    return {name: value for name, value in list(fields.items())[:MOST_FIELDS]
            if isinstance(name, str) and FIELD.fullmatch(name)
            and (isinstance(value, bool) or isinstance(value, str) and len(value) <= LONGEST_VALUE)}


def opening(route: dict[str, str], memory: FormMemory) -> tuple[str, str | None] | None:
    """The system and mode a page opens on: a link's #system (and its mode) wins; without one,
    the form shown last; None for the page's first form. static/js/early-form.js makes the same
    choice before Python has loaded, so the form shown from the first paint stays."""
    if "system" in route:
        return route["system"], route.get("mode")
    return memory.last
