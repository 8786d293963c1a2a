"""The character editor's form ↔ a character, and a character's pick ↔ the check form's controls.

No browser here. The editor names its controls as rows of groups ("flip_skills.2.rank",
"pool_traits.0.name") because a player adds and removes rows; a character holds maps keyed by
name (characters.py). `character_fields` turns the form's tree into a character's fields and
remembers which row each name came from, so that `control_for` can put an error that
characters.py names by its path ("sheets.flip.skills.Athletics.rank") beside the right box.

The editor's boxes are declared here once, with the limits characters.py checks; the build
draws the editor's HTML from them (tools/page_macros.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from skillcheck.request import Whole

from .characters import (
    ASPECT,
    ASPECTS,
    BASE,
    BONUS,
    DICE,
    LONGEST_NAME,
    LONGEST_NOTES,
    MOST_LUCK,
    MOST_XP,
    RANK,
    SCORE,
    SHEET_OF,
    TRAIT,
    pickable,
    seed_skill,
)
from .storage import FieldError


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


@dataclass(frozen=True)
class Group:
    """A group of rows the player adds and removes: where its rows go on a character, the
    row's control holding the value when the value is one number (None for a row of several
    fields), what one row is called, and its boxes."""

    sheet: str
    part: str
    single: str | None
    noun: str
    boxes: tuple[Box, ...]


NAME = text("name", "Name")
DICE_BOX = number("dice", "Dice", "dice to roll", DICE)  # a stat or a skill of the d6 pool
GROUPS = {
    "flip_skills": Group("flip", "skills", None, "skill", (
        Box("skill", "Skill", kind="skill", wide=True),
        text("type", "Type", "Craft, Knowledge, Profession: which one"),
        number("rank", "Rank", "cards to flip", RANK),
        text("specialization", "Specialization", wide=True),
        Box("familiarity", "Familiarity", kind="check"))),
    "pool_traits": Group("pool", "traits", "score", "trait", (
        NAME, number("score", "Score", "dice in the pool", TRAIT))),
    "pool_skills": Group("pool", "skills", None, "skill", (
        NAME, Box("trait", "Trait", kind="trait"),
        number("score", "Score", "succeeds at or under", SCORE),
        number("bonus", "Bonus", "free increments", BONUS))),
    "fluke_stats": Group("fluke", "stats", "dice", "stat", (NAME, DICE_BOX)),
    "fluke_skills": Group("fluke", "skills", "dice", "skill", (NAME, DICE_BOX)),
    "passages_skills": Group("passages", "skills", "base", "skill", (
        NAME, number("base", "Base", "the skill’s base value", BASE))),
}
CHARACTER = (text("name", "Name", wide=True),
             Box("luck", "Luck", "points to spend", hi=MOST_LUCK),
             Box("xp", "XP", "experience points", hi=MOST_XP),
             Box("notes", "Notes", kind="notes", longest=LONGEST_NOTES, wide=True))
ASPECT_BOXES = tuple(number(code, code, "", ASPECT) for code in ASPECTS)
PLAIN = tuple(box.key for box in CHARACTER)
NAME_CONTROL = {"flip_skills": "skill"}  # the control that names a row, when not "name"


def trait_names(tree: dict) -> list[str]:
    """The traits named in the editor's pool_traits rows, each once, in order: what a pool
    skill's Trait list offers."""
    names = (str(row.get("name") or "").strip() for row in tree.get("pool_traits") or []
             if isinstance(row, dict))
    return list(dict.fromkeys(name for name in names if name))


def _flip_skill_name(row: dict) -> str | None:
    """"Knowledge" + type "History" → "Knowledge: History"; None when no skill is chosen."""
    skill, kind = row.get("skill"), row.get("type")
    if not skill:
        return None
    return f"{skill}: {kind}" if kind else str(skill)


def _row_value(group: str, row: dict):
    if group == "flip_skills":
        return {"rank": row.get("rank"), "specialization": row.get("specialization") or "",
                "familiarity": bool(row.get("familiarity"))}
    if group == "pool_skills":
        return {"trait": row.get("trait"), "score": row.get("score"),
                "bonus": row.get("bonus", 0)}
    return row.get(GROUPS[group].single)


def character_fields(tree: dict) -> tuple[dict, dict[str, str]]:
    """The editor's tree (forms.tree_from) → (fields for characters.edited or Roster.create,
    where: {character path: editor row prefix}). Empty rows are left out; a row with values but
    no name, or a name given twice, raises FieldError naming the row's control."""
    fields = {key: tree.get(key) for key in PLAIN}
    fields["name"] = fields["name"] or ""
    fields["notes"] = fields["notes"] or ""
    fields["luck"] = 0 if fields["luck"] is None else fields["luck"]
    fields["xp"] = 0 if fields["xp"] is None else fields["xp"]
    sheets: dict[str, dict] = {}
    where: dict[str, str] = {}
    aspects = {k: v for k, v in (tree.get("aspects") or {}).items() if v is not None}
    if aspects:
        sheets["flip"] = {"aspects": aspects}
        where.update({f"sheets.flip.aspects.{k}": f"aspects.{k}" for k in aspects})
    for group, declared in GROUPS.items():
        sheet, part = declared.sheet, declared.part
        for i, row in enumerate(tree.get(group) or []):
            if not isinstance(row, dict) or not any(v not in (None, False) for v in row.values()):
                continue
            name_control = f"{group}.{i}.{NAME_CONTROL.get(group, 'name')}"
            name = _flip_skill_name(row) if group == "flip_skills" else row.get("name")
            if not name:
                raise FieldError(name_control, "needs a name, or clear the row")
            name = str(name).strip()
            named = sheets.setdefault(sheet, {}).setdefault(part, {})
            if name in named:
                raise FieldError(name_control, f"{name} is listed twice")
            named[name] = _row_value(group, row)
            where[f"sheets.{sheet}.{part}.{name}"] = f"{group}.{i}"
    fields["sheets"] = sheets
    return fields, where


def control_for(path: str, where: dict[str, str]) -> str | None:
    """The editor control an error about `path` belongs beside, or None (show it at the top).

    "sheets.flip.skills.Athletics.rank" → "flip_skills.0.rank"; a whole row's problem goes to
    its name; a one-number row's value problem to that number's box."""
    if path in PLAIN:
        return path
    if path in where and where[path].startswith("aspects."):
        return where[path]
    for key, prefix in sorted(where.items(), key=lambda item: -len(item[0])):
        group = prefix.split(".", 1)[0]
        if group not in GROUPS:
            continue
        if path == key:
            single = GROUPS[group].single
            if single:
                return f"{prefix}.{single}"
            return f"{prefix}.{NAME_CONTROL.get(group, 'name')}"
        if path.startswith(key + "."):
            return f"{prefix}.{path[len(key) + 1:]}"
    return None


# ---- a save another tab's save got in the way of (characters.merge_edit) ----------------------

SHEET_WORDS = {"flip": "card flip sheet", "pool": "d10 pool sheet", "fluke": "d6 pool sheet",
               "passages": "Passages sheet"}
LONGEST_SHOWN = 120  # characters of the other tab's notes said beside the box


def merged_words(field: str) -> str:
    """What the player calls one of characters.MERGED: "XP", "d10 pool sheet"."""
    if field.startswith("sheets."):
        return SHEET_WORDS[field.removeprefix("sheets.")]
    return next(box.label for box in CHARACTER if box.key == field)


def sheet_group(field: str) -> str:
    """The editor's first group of the sheet `field` ("sheets.pool" → "pool_traits")."""
    return next(group for group, declared in GROUPS.items()
                if f"sheets.{declared.sheet}" == field)


def theirs_text(field: str, theirs) -> str:
    """What the other tab saved in `field`, said beside it."""
    if field.startswith("sheets."):
        return "Another tab saved other changes to this sheet."
    if field == "notes":
        shown = theirs if len(theirs) <= LONGEST_SHOWN else theirs[:LONGEST_SHOWN - 1] + "…"
        return f"Another tab saved other notes: “{shown}”." if theirs else (
            "Another tab saved no notes.")
    if field == "name":
        return f"Another tab saved the name “{theirs}”."
    return f"Another tab saved {theirs:,}."


def conflict_text(name: str, fields: list[str]) -> str:
    """Why an editor's save saved nothing: another tab changed the same fields meanwhile."""
    words = ", ".join(merged_words(field) for field in fields)
    return (f"{name} was also changed in another tab while you edited: {words}. Nothing is "
            "saved yet. Save again to keep what you typed, or use the other tab’s where it is "
            "marked.")


def editor_values(character: dict | None) -> tuple[dict[str, int], dict[str, object]]:
    """What the editor shows for `character` (None: a new one): how many rows each group needs,
    and each control's value by name."""
    values: dict[str, object] = {key: "" for key in PLAIN}
    values.update({f"aspects.{a}": "" for a in ASPECTS})
    rows = {group: 0 for group in GROUPS}
    if character is None:
        values.update(luck=0, xp=0)
        return rows, values
    values.update({key: character[key] for key in PLAIN})
    sheets = character["sheets"]
    values.update({f"aspects.{a}": v
                   for a, v in sheets.get("flip", {}).get("aspects", {}).items()})
    for group, declared in GROUPS.items():
        sheet, part, single = declared.sheet, declared.part, declared.single
        for i, (name, value) in enumerate(sheets.get(sheet, {}).get(part, {}).items()):
            rows[group] = i + 1
            prefix = f"{group}.{i}"
            if group == "flip_skills":
                skill, _, kind = name.partition(":")
                values.update({f"{prefix}.skill": skill.strip(), f"{prefix}.type": kind.strip(),
                               **{f"{prefix}.{k}": v for k, v in value.items()}})
                continue
            values[f"{prefix}.name"] = name
            if single:
                values[f"{prefix}.{single}"] = value
            else:
                values.update({f"{prefix}.{k}": v for k, v in value.items()})
    return rows, values


# ---- a character's pick → the check form ---------------------------------------------------------

SIDE_OF_MODE = {"opposed": "initiator", "team": "primary"}  # the side a pick fills unless told
SIDES = {"opposed": ("initiator", "opponent")}  # the sides a player may choose a pick to fill


def form_values(system: str, mode: str | None, name: str, fields: dict, side: str = "",
                specialization: str = "") -> tuple[str | None, dict[str, object]]:
    """characters.fill's fields for `name` → (the flip mode to show, or None to keep the one
    shown; {control name: value}). A flip skill also picks itself in the skill list, and in an
    opposed or team flip it fills the initiator's or primary's side, or the `side` of SIDES the
    player chose. The sheet's `specialization` for the skill is chosen in the form's list: by
    its name when the rulebook lists it for the skill, else as one agreed with the GM."""
    fields = dict(fields)
    if "mode" in fields:
        mode = fields.pop("mode")
    elif system == "flip" and mode == "aspect":
        mode = "unopposed"  # a skill is flipped in an unopposed check unless the GM says else
    side = side_for(system, mode, side)
    prefix = f"{side}." if side else ""
    values: dict[str, object] = {}
    skill = seed_skill(name) if system == "flip" and mode != "aspect" else None
    if skill is not None:
        values[f"{prefix}skill"] = skill.name
        if specialization:
            fields["specialization"] = specialization_choice(skill, specialization)
    values.update({f"{prefix}{key}": value for key, value in fields.items()})
    return (mode if system == "flip" else None), values


def side_for(system: str, mode: str | None, chosen: str = "") -> str:
    """The side of the flip form a pick fills: the `chosen` one where the player may choose
    (SIDES), else the mode's own (SIDE_OF_MODE); "" for a form without sides."""
    if system != "flip":
        return ""
    return chosen if chosen in sides_offered(system, mode) else SIDE_OF_MODE.get(mode, "")


def sides_offered(system: str, mode: str | None) -> tuple[str, ...]:
    """The sides a player may choose for a pick to fill in this form; none outside SIDES."""
    return SIDES.get(mode, ()) if system == "flip" else ()


def saved_specialization(character: dict, system: str, name: str) -> str:
    """The specialization the character's flip sheet holds for the skill `name`, or ""."""
    if system != "flip":
        return ""
    entry = character["sheets"].get("flip", {}).get("skills", {}).get(name)
    return entry["specialization"] if entry else ""


def specialization_choice(skill, specialization: str) -> str:
    """The option of the form's Specialization list a sheet's specialization stands for: the
    rulebook's name for it ("climbing" → "Climbing"), "other" (another, agreed with the GM)
    for a skill with a list, "yes" for one without (dom.apply_skill draws the same options)."""
    for listed in skill.specializations:
        if listed.casefold() == specialization.casefold():
            return listed
    return "other" if skill.specializations else "yes"


def as_request(values: dict[str, object]) -> dict[str, object]:
    """form_values' controls as the request holds them: a chosen specialization is a yes."""
    return {key: bool(value) if _is_specialization(key) else value
            for key, value in values.items()}


def chose_specialization(values: dict[str, object]) -> bool:
    """Whether form_values chose a specialization in the form: the pick's bar names it only
    then (never in an aspect check, which has none)."""
    return any(value for key, value in values.items() if _is_specialization(key))


def _is_specialization(key: str) -> bool:
    return key.rsplit(".", 1)[-1] == "specialization"


def pick_said(character: dict, name: str, system: str, mode: str | None, side: str = "",
              specialization: str = "") -> str:
    """What the bar says after a pick filled the form (`mode` the form now shows, `side` the
    one filled): where it went, the specialization chosen, and what is left to set. An
    opposed flip has no difficulty: the other side is what the pick is tested against."""
    said = [f"{character['name']}: {name} is in the form"
            + (f", on the {side}’s side." if side else ".")]
    if specialization:
        said.append(f"Specialization: {specialization} (flip+1); choose None if the GM does "
                    "not allow it.")
    if system == "flip" and mode == "opposed":
        other = next(s for s in SIDES["opposed"] if s != side)
        said.append(f"Fill in the {other}’s side.")
    else:
        said.append("The GM sets the difficulty and modifiers.")
    return " ".join(said)


def pick_options(character: dict, system: str) -> list[tuple[str, str]]:
    """(value, label) of what the character can pick for `system`: skills, then aspects or
    stats, each marked as such."""
    sheet = character["sheets"].get(SHEET_OF[system], {})
    marks = {**dict.fromkeys(sheet.get("aspects", {}), " (aspect)"),
             **dict.fromkeys(sheet.get("stats", {}), " (stat)")}
    skills = sheet.get("skills", {})
    names = dict.fromkeys(pickable(character, system))  # a skill and a stat may share a name
    return [(name, name + ("" if name in skills else marks.get(name, ""))) for name in names]
