"""The character editor's unsaved draft, kept across a reload: a phone kills or reloads a tab
left in the background, and a player who was typing a character must not lose it.

One draft at a time, under one key: the editor's boxes as it reads them (a control's name → its
text, or a tick), which character it edits (None: a new one), that character as the editor
merges a save against (its stored JSON, `base`: what tells whether it was changed since) and
when it was written. The panel writes it as the player types and removes it on Save, on "Drop
changes", on a close with nothing changed and when the character is deleted.

Read back strictly: a draft that is not our document, too long, or holds one name the editor
has no box for, one value a box cannot hold, or a base that is not a character, is not offered
and is removed (`load`), so a stale or hostile value never stops the page. No browser here.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime

from .character_form import CHARACTER, FIXED, GROUPS
from .characters import LONGEST_NOTES, MERGED, merge_edit, part_of, read_character, with_part
from .editor_boxes import Box
from .sheet_fields import MOST_SKILLS
from .storage import (
    EnvelopeError,
    FieldError,
    Storage,
    dump,
    envelope,
    loads,
    parse,
    read_time,
    stamp,
    utc_now,
    whole,
)

KEY = "skillcheck.draft"
KIND = "draft"
# Characters of the whole draft: an editor holding every row of every sheet, each name at its
# longest, and the character it began from, fits (tests/test_editor_draft.py).
LONGEST = 400_000  # the fullest editor's draft is about 160,000
LONGEST_BASE = 200_000  # characters of the stored character it began from

Value = str | bool

# Every box of the editor by its control's name, but a sheet row's: "luck", "aspects.HS".
_BOXES: dict[str, Box] = {**{box.key: box for box in CHARACTER},
                          **{f"{key}.{box.key}": box for key, (_, fixed) in FIXED.items()
                             for box in fixed.boxes}}

NEW, SAME, CHANGED, DELETED = "new", "same", "changed", "deleted"


class DraftError(ValueError):
    """A stored draft that is not one the editor can take back."""


@dataclass(frozen=True)
class Draft:
    """What the editor held: `values` by control name, the character's id (`editing`, None
    for a new one), the stored JSON of the character as the editor merges against (`base`,
    None for a new one) and `time` (ISO 8601, UTC)."""

    values: dict[str, Value]
    editing: int | None
    base: str | None
    time: str

    def dump(self) -> str:
        return dump(envelope(KIND, values=self.values, editing=self.editing, base=self.base,
                             time=self.time))

    def rows(self) -> dict[str, int]:
        """How many rows each of the editor's groups needs to show the values."""
        rows = dict.fromkeys(GROUPS, 0)
        for name in self.values:
            group, _, rest = name.partition(".")
            if group in GROUPS:
                rows[group] = max(rows[group], int(rest.partition(".")[0]) + 1)
        return rows

    def began_from(self) -> dict | None:
        """The character as the editor began (None for a new one)."""
        return read_character(loads(self.base)) if self.base is not None else None

    def name(self) -> str:
        """Whose draft: the character's saved name, else the name typed ("" for none)."""
        began = self.began_from()
        typed = self.values.get("name")
        return began["name"] if began else (typed.strip() if isinstance(typed, str) else "")


def begun(values: dict[str, object], opened_as: dict | None,
          moment: datetime | None = None) -> Draft:
    """The draft of an editor holding `values` (dom.controls' raw values), editing `opened_as`
    as it merges against (None: a new character), written at `moment` (now)."""
    return Draft({name: value if isinstance(value, bool) else str(value)
                  for name, value in values.items()},
                 opened_as["id"] if opened_as else None,
                 dump(opened_as) if opened_as else None, stamp(moment or utc_now()))


def read(text: object) -> Draft:
    """A stored draft, checked whole; DraftError saying what is wrong otherwise."""
    try:
        data = parse(text, KIND, LONGEST)
        values = data.get("values")
        if not isinstance(values, dict):
            raise DraftError("values: must map the editor's boxes to values")
        for name, value in values.items():
            _check(name, value)
        editing = data.get("editing")
        base = data.get("base")
        if editing is None:
            if base is not None:
                raise DraftError("base: a new character's draft has none")
        else:
            whole(editing, "editing", 1, 2**52)
            if not isinstance(base, str) or len(base) > LONGEST_BASE:
                raise DraftError("base: must be the stored character")
            if read_character(loads(base))["id"] != editing:
                raise DraftError("base: must be the character edited")
        return Draft(dict(values), editing, base, read_time(data.get("time")))
    except DraftError:
        raise
    except (EnvelopeError, FieldError, ValueError, RecursionError) as error:
        raise DraftError(str(error)) from None


def _box(name: str) -> Box | None:
    """The editor's box a control `name` belongs to: "flip_skills.12.rank" is a row's."""
    if name in _BOXES:
        return _BOXES[name]
    group, _, rest = name.partition(".")
    index, _, key = rest.partition(".")
    if group not in GROUPS or not index.isdecimal() or str(int(index)) != index \
            or int(index) >= MOST_SKILLS:
        return None
    return next((box for box in GROUPS[group].boxes if box.key == key), None)


def _check(name: object, value: object) -> None:
    box = _box(name) if isinstance(name, str) else None
    if box is None:
        raise DraftError(f"values: {str(name)[:60]!r} is no box of the editor")
    if not isinstance(value, bool if box.kind == "check" else str):
        raise DraftError(f"values: {name} must be {'a tick' if box.kind == 'check' else 'text'}")
    if isinstance(value, str) and len(value) > LONGEST_NOTES:
        raise DraftError(f"values: {name} must be at most {LONGEST_NOTES:,} characters")


def load(storage: Storage) -> Draft | None:
    """The draft kept in `storage`, or None; one that cannot be read is removed (never an
    error: unreadable storage holds no draft)."""
    try:
        text = storage.get(KEY)
    except Exception:
        return None
    if not isinstance(text, str):
        return None
    try:
        return read(text)
    except DraftError:
        forget(storage)
        return None


def keep(storage: Storage, draft: Draft) -> str | None:
    """Store `draft`: its text, or None when storage refused it (a convenience: no warning)."""
    text = draft.dump()
    try:
        storage.set(KEY, text)
    except Exception:
        return None
    return text


def forget(storage: Storage) -> None:
    with contextlib.suppress(Exception):  # refused: the next load offers it again
        storage.remove(KEY)


# ---- the draft against the characters as stored now ---------------------------------------------

def standing(draft: Draft, stored: dict | None) -> str:
    """NEW (a new character's draft), DELETED (its character is no longer stored), CHANGED
    (stored with other values in what the editor edits than when the draft began) or SAME;
    `stored` is the character as stored now, by the draft's id."""
    if draft.editing is None:
        return NEW
    if stored is None:
        return DELETED
    began = draft.began_from()
    return SAME if all(part_of(began, f) == part_of(stored, f) for f in MERGED) else CHANGED


def offer_text(draft: Draft, state: str, when: str) -> str:
    """The offer of a draft, begun at `when` (the player's local time), in plain words."""
    name = draft.name()
    if state == NEW:
        what = f"an unsaved new character, {name}," if name else "an unsaved new character"
        return f"You have {what} from {when}."
    said = f"You have unsaved changes to {name} from {when}."
    if state == CHANGED:
        return f"{said} {name} was changed since: restoring keeps your draft’s values."
    if state == DELETED:
        return f"{said} {name} was deleted since: restoring keeps them as a new character."
    return said


def on_top(began: dict, mine: dict, stored: dict) -> tuple[dict, list[str]]:
    """What the editor shows when `mine`, an edit of `began`, meets `stored`, a save of the same
    character since: each field only one side changed as that side has it, each field both
    changed (the conflicts, listed) as `mine` has it (characters.merge_edit)."""
    view, conflicts = merge_edit(began, mine, stored)
    for field in conflicts:
        view = with_part(view, field, part_of(mine, field))
    return view, conflicts


def restored_text(name: str, state: str, conflicts: list[str]) -> str:
    """What the editor says after a draft of a character changed or deleted since is restored
    (`conflicts`: the words for what both the draft and the save since changed); "" else."""
    if state == DELETED:
        return f"{name} was deleted since. Save keeps what you typed as a new character."
    if state != CHANGED:
        return ""
    if conflicts:
        return (f"{name} was changed since, in {', '.join(conflicts)} too: the editor holds "
                "your draft’s values, and the saved ones are marked. Nothing is saved yet.")
    return (f"{name} was changed since: the editor holds your draft’s changes on top of what "
            "was saved. Nothing is saved yet.")

