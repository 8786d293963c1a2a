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

from .characters import LONGEST_NOTES, MOST_LUCK, MOST_XP, pickable
from .editor_boxes import Box, Fixed, Group, text
from .storage import FieldError
from .systems import PAGES, SHEETS

# The editor's parts, from each sheet's record: groups of rows by "{sheet}_{part}"
# ("pool_traits"), each with its sheet's key; parts of fixed boxes by their own key ("aspects").
GROUPS: dict[str, Group] = {f"{key}_{part.part}": part for key, sheet in SHEETS.items()
                            for part in sheet.parts if isinstance(part, Group)}
GROUP_SHEET = {f"{key}_{part.part}": key for key, sheet in SHEETS.items()
               for part in sheet.parts if isinstance(part, Group)}
SKILL_GROUPS = tuple(key for key, group in GROUPS.items()
                     if any(box.kind == "skill" for box in group.boxes))
FIXED: dict[str, tuple[str, Fixed]] = {part.part: (key, part) for key, sheet in SHEETS.items()
                                       for part in sheet.parts if isinstance(part, Fixed)}
CHARACTER = (text("name", "Name", wide=True),
             Box("luck", "Luck", "points to spend", hi=MOST_LUCK),
             Box("xp", "XP", "experience points", hi=MOST_XP),
             Box("notes", "Notes", kind="notes", longest=LONGEST_NOTES, wide=True))
PLAIN = tuple(box.key for box in CHARACTER)


def trait_names(tree: dict) -> list[str]:
    """The traits named in the editor's pool_traits rows, each once, in order: what a pool
    skill's Trait list offers."""
    names = (str(row.get("name") or "").strip() for row in tree.get("pool_traits") or []
             if isinstance(row, dict))
    return list(dict.fromkeys(name for name in names if name))


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
    for key, (sheet, fixed) in FIXED.items():
        values = {k: v for k, v in (tree.get(key) or {}).items() if v is not None}
        if values:
            sheets.setdefault(sheet, {})[fixed.part] = values
            where.update({f"sheets.{sheet}.{fixed.part}.{k}": f"{key}.{k}" for k in values})
    for group, declared in GROUPS.items():
        sheet, part = GROUP_SHEET[group], declared.part
        for i, row in enumerate(tree.get(group) or []):
            if not isinstance(row, dict) or not any(v not in (None, False) for v in row.values()):
                continue
            name_control = f"{group}.{i}.{declared.name_control}"
            name = declared.name_of(row)
            if not name:
                raise FieldError(name_control, "needs a name, or clear the row")
            name = str(name).strip()
            named = sheets.setdefault(sheet, {}).setdefault(part, {})
            if name in named:
                raise FieldError(name_control, f"{name} is listed twice")
            named[name] = declared.row_value(row)
            where[f"sheets.{sheet}.{part}.{name}"] = f"{group}.{i}"
    fields["sheets"] = sheets
    return fields, where


def control_for(path: str, where: dict[str, str]) -> str | None:
    """The editor control an error about `path` belongs beside, or None (show it at the top).

    "sheets.flip.skills.Athletics.rank" → "flip_skills.0.rank"; a whole row's problem goes to
    its name; a one-number row's value problem to that number's box."""
    if path in PLAIN:
        return path
    if path in where and where[path].split(".", 1)[0] in FIXED:
        return where[path]
    for key, prefix in sorted(where.items(), key=lambda item: -len(item[0])):
        group = prefix.split(".", 1)[0]
        if group not in GROUPS:
            continue
        if path == key:
            single = GROUPS[group].single
            if single:
                return f"{prefix}.{single}"
            return f"{prefix}.{GROUPS[group].name_control}"
        if path.startswith(key + "."):
            return f"{prefix}.{path[len(key) + 1:]}"
    return None


# ---- a save another tab's save got in the way of (characters.merge_edit) ----------------------

LONGEST_SHOWN = 120  # characters of the other tab's notes said beside the box


def merged_words(field: str) -> str:
    """What the player calls one of characters.MERGED: "XP", "d10 pool sheet"."""
    if field.startswith("sheets."):
        return SHEETS[field.removeprefix("sheets.")].words
    return next(box.label for box in CHARACTER if box.key == field)


def sheet_group(field: str) -> str:
    """The editor's first group of the sheet `field` ("sheets.pool" → "pool_traits")."""
    return next(group for group, sheet in GROUP_SHEET.items() if f"sheets.{sheet}" == field)


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
    values.update({f"{key}.{box.key}": "" for key, (_, fixed) in FIXED.items()
                   for box in fixed.boxes})
    rows = {group: 0 for group in GROUPS}
    if character is None:
        values.update(luck=0, xp=0)
        return rows, values
    values.update({key: character[key] for key in PLAIN})
    sheets = character["sheets"]
    for key, (sheet, fixed) in FIXED.items():
        values.update({f"{key}.{k}": v
                       for k, v in sheets.get(sheet, {}).get(fixed.part, {}).items()})
    for group, declared in GROUPS.items():
        part = sheets.get(GROUP_SHEET[group], {}).get(declared.part, {})
        for i, (name, value) in enumerate(part.items()):
            rows[group] = i + 1
            controls = declared.controls(name, value)
            values.update({f"{group}.{i}.{k}": v for k, v in controls.items()})
    return rows, values


# ---- a character's pick → the check form ---------------------------------------------------------

def form_values(system: str, mode: str | None, name: str, fields: dict, side: str = "",
                specialization: str = "") -> tuple[str | None, dict[str, object]]:
    """characters.fill's fields for `name` → (the flip mode to show, or None to keep the one
    shown; {control name: value}). A flip skill also picks itself in the skill list, and in an
    opposed or team flip it fills the initiator's or primary's side, or the `side` of SIDES the
    player chose. The sheet's `specialization` for the skill is chosen in the form's list: by
    its name when the rulebook lists it for the skill, else as one agreed with the GM."""
    page = PAGES[system]
    fields = dict(fields)
    if "mode" in fields:
        mode = fields.pop("mode")
    elif mode in page.pick.skill_mode:
        mode = page.pick.skill_mode[mode]  # a skill goes where skills are flipped
    side = side_for(system, mode, side)
    prefix = f"{side}." if side else ""
    values: dict[str, object] = {}
    seed_skill = page.pick.seed_skill
    skill = seed_skill(name) if seed_skill and mode not in page.pick.skill_mode else None
    if skill is not None:
        values[f"{prefix}skill"] = skill.name
        if specialization:
            fields["specialization"] = specialization_choice(skill, specialization)
    values.update({f"{prefix}{key}": value for key, value in fields.items()})
    return (mode if page.modes else None), values


def side_for(system: str, mode: str | None, chosen: str = "") -> str:
    """The side of the form a pick fills: the `chosen` one where the player may choose
    (Pick.sides), else the mode's own (Pick.side_of_mode); "" for a form without sides."""
    if chosen in sides_offered(system, mode):
        return chosen
    return PAGES[system].pick.side_of_mode.get(mode or "", "")


def sides_offered(system: str, mode: str | None) -> tuple[str, ...]:
    """The sides a player may choose for a pick to fill in this form (Pick.sides)."""
    return PAGES[system].pick.sides.get(mode or "", ())


def saved_specialization(character: dict, system: str, name: str) -> str:
    """The specialization the character's sheet holds for the seed's skill `name`, or ""."""
    page = PAGES[system]
    if page.pick.seed_skill is None:
        return ""
    entry = character["sheets"].get(page.sheet_key, {}).get("skills", {}).get(name)
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
              specialization: str = "", gm_set: bool = False) -> str:
    """What the bar says after a pick filled the form (`mode` the form now shows, `side` the
    one filled): where it went, the specialization chosen, and what is left to set. An
    opposed flip has no difficulty: the other side is what the pick is tested against; a row
    of the GM's party table (`gm_set`) brought the GM's difficulty with it."""
    said = [f"{character['name']}: {PAGES[system].pick.spelled.get(name, name)} is in the form"
            + (f", on the {side}’s side." if side else ".")]
    if specialization:
        said.append(f"Specialization: {specialization} (flip+1); choose None if the GM does "
                    "not allow it.")
    sides = sides_offered(system, mode)
    if sides:
        other = next(s for s in sides if s != side)
        said.append(f"Fill in the {other}’s side.")
    elif gm_set:
        said.append("The difficulty is the one the GM set on the party table.")
    else:
        said.append("The GM sets the difficulty and modifiers.")
    return " ".join(said)


def pick_options(character: dict, system: str) -> list[tuple[str, str]]:
    """(value, label) of what the character can pick for `system`: skills, then aspects or
    stats, each marked as such."""
    sheet = character["sheets"].get(PAGES[system].sheet_key, {})
    marks = {**dict.fromkeys(sheet.get("aspects", {}), " (aspect)"),
             **dict.fromkeys(sheet.get("stats", {}), " (stat)")}
    skills = sheet.get("skills", {})
    names = dict.fromkeys(pickable(character, system))  # a skill and a stat may share a name
    spelled = PAGES[system].pick.spelled
    return [(name, spelled.get(name, name) + ("" if name in skills else marks.get(name, "")))
            for name in names]
