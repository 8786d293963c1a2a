"""Build-time macros for index.html: the forms' boxes drawn from the rules and the editor's rows.

The page ships static forms (they must show before Python boots). Every number in them — each
box's limits and starting value, the difficulty ladder, how many helpers a team flip takes —
and each box's label and hint come from the engine's own field descriptions
(`skillcheck.SYSTEMS`: a spec's `form`, see py/skillcheck/request.py); the character editor's
boxes come from its declaration in py/app/character_form.py, whose limits characters.py checks.
index.html keeps the page's chrome and says with a macro where each generated part goes;
build.py expands them when it copies index.html into dist/, so the browser only sees plain HTML.

Syntax (strict, one macro a line, nothing else on that line):

    <sc-NAME attr="value" flag></sc-NAME>

Values are pasted as written (write entities as HTML would; no `"`, `<` or `>`); a flag has no
value. The expansion keeps the macro line's indentation. Macros:

    sc-form       system legend              a system's form: every field it shows, numbers
                                             then switches, then its own-draw box; ids
                                             `{system}-{name}`; in the <template> it waits
                                             in until first shown (py/app/dom.py)
    sc-field      id field [hint]            one field of the engine ("flip.take7"), named as the
                                             engine names it; hint= says it another way there
    sc-own-draw   id system                  the system's "Enter my own cards/dice" box
    sc-difficulty id [secret]                the flip's difficulty list and its DTN box
    sc-side       id name [skill] [take7]    one side of a card flip; ids `{id}-rank`, names
                  [fold]                     `{name}.rank` (`rank` when name is empty); fold:
                                             all but skill, rank and aspect under "More"
    sc-team-helpers id                       a team flip's helpers: one to start, the engine's
                                             most, their template and the add button
    sc-editor     part                       the character editor's boxes: `character`,
                                             a part of fixed boxes ("aspects"), or a group
                                             of rows ("pool_traits")
    sc-picker                                the systems' chips, from their records
                                             (py/app/systems/), the first one ticked
    sc-modes                                 for each system with kinds of check, their picker
    sc-forms                                 every system's forms: its record's own, in these
                                             macros, or else its sc-form
    sc-sheets                                the editor's part for each system's sheet

systems_css() is the style sheet that shows the form the pickers choose (build.py writes it
as static/css/systems.css).

An unknown macro, a missing or unknown attribute, or a malformed macro line is a MacroError.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

from app.character_form import CHARACTER, FIXED, GROUPS
from app.editor_boxes import Box, Fixed
from app.sheet_fields import MOST_SKILLS
from app.systems import PAGES, SHEETS
from skillcheck import SYSTEMS

MACRO_LINE = re.compile(r"^(?P<indent>[ \t]*)<(?P<tag>sc-[a-z-]+)(?P<attrs>(?:\s[^<>]*)?)>"
                        r"</(?P=tag)>[ \t]*$")
ATTRIBUTE = re.compile(r'\s+(?P<name>[a-z][a-z0-9-]*)(?:="(?P<value>[^"<>]*)")?')
SIDE_NUMBERS = ("rank", "aspect", "flip", "shift")  # a side's number boxes, in the page's order
SIDE_CHECKS = ("advanced", "familiarity")
FOLDED_SAID = "modifiers, own cards"  # what "More" holds, while nothing in it is set


class MacroError(ValueError):
    """index.html uses a macro wrongly; the message names the line and what is wrong."""


class Attrs:
    """A macro's attributes, read once each, so that a misspelt one is caught, not ignored."""

    def __init__(self, tag: str, pairs: dict[str, str | None]) -> None:
        self.tag = tag
        self.pairs = pairs
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> str:
        if name not in self.pairs:
            raise MacroError(f"<{self.tag}> needs {name}=\"…\"")
        value = self.pairs[name]
        if value is None:
            raise MacroError(f"<{self.tag}> {name} needs a value")
        self.read.add(name)
        return value

    def get(self, name: str) -> str | None:
        return self[name] if name in self.pairs else None

    def flag(self, name: str) -> bool:
        if name in self.pairs and self.pairs[name] is not None:
            raise MacroError(f"<{self.tag}> {name} is a flag: write it without a value")
        self.read.add(name)
        return name in self.pairs

    def done(self) -> None:
        unknown = [name for name in self.pairs if name not in self.read]
        if unknown:
            raise MacroError(f"<{self.tag}> has no attribute {', '.join(unknown)}")


# ---- the engine's fields -------------------------------------------------------------------------

def described(system: str, name: str) -> dict:
    """The engine's description of a field its form shows; MacroError if there is none."""
    if system not in SYSTEMS:
        raise MacroError(f"no system {system!r} (known: {', '.join(SYSTEMS)})")
    for spec in SYSTEMS[system]["fields"]:
        if spec["name"] == name:
            if "form" not in spec:
                raise MacroError(f"{system}.{name} is not shown on a form")
            return spec
    raise MacroError(f"{system} has no field {name!r}")


def on_form(system: str) -> list[dict]:
    """The fields a system's form shows, as the engine lists them: numbers first, then switches."""
    fields = [spec for spec in SYSTEMS[system]["fields"] if "form" in spec]
    return sorted(fields, key=lambda spec: spec["kind"] != "whole")


def box(spec: dict, ident: str, name: str, hint: str | None = None, *,
        aspect_hint: bool = False, start: object = None, disabled: bool = False,
        off_when: str | None = None) -> list[str]:
    """A field as the engine describes it: a number box with its stepper, or a checkbox."""
    form = spec["form"]
    hint = form["hint"] if hint is None else hint
    if spec["kind"] == "flag":
        return check_box(ident, name, form["label"], hint)
    if spec["kind"] == "hex":
        return code_box(ident, name, form["label"], hint, form.get("on_when", ""))
    if spec["kind"] != "whole":
        raise MacroError(f"{name} is a {spec['kind']}: only numbers and switches are boxes")
    start = form["start"] if start is None else start
    if start is None:
        raise MacroError(f"{name} has no starting value")
    off_when = form["off_when"] if off_when is None else off_when
    return number_box(ident, name, form["label"], hint, spec["min"], spec["max"], start,
                      aspect_hint=aspect_hint, disabled=disabled, off_when=off_when)


# ---- HTML pieces ---------------------------------------------------------------------------------

def _hint(ident: str, hint: str) -> str:
    return f' <small class="hint" id="{ident}-hint" aria-hidden="true">{escape(hint)}</small>'


def number_box(ident: str, name: str, label: str, hint: str, lo: int, hi: int, start: int, *,
               aspect_hint: bool = False, disabled: bool = False, off_when: str = "") -> list[str]:
    """A number box with −/+ steppers. A phone's numeric keypad has no minus sign, so only a box
    that takes no negative number asks for it."""
    span = f' <span class="aspect-hint" id="{ident}-aspect" aria-hidden="true"></span>'
    inputmode = ' inputmode="numeric"' if lo >= 0 else ""
    described_by = f"{ident}-hint{f' {ident}-aspect' if aspect_hint else ''}"
    more = (" disabled" if disabled else "") + (f' data-off-when="{off_when}"' if off_when else "")
    return [
        '<div class="field num">',
        f'  <label for="{ident}">{escape(label)}{span if aspect_hint else ""}'
        f'{_hint(ident, hint)}</label>',
        '  <div class="stepper">',
        '    <button type="button" class="step" data-step="-1" tabindex="-1" '
        'aria-hidden="true">−</button>',
        f'    <input id="{ident}" name="{name}" type="number"{inputmode} min="{lo}" max="{hi}" '
        f'step="1" value="{start}" aria-describedby="{described_by}"{more}>',
        '    <button type="button" class="step" data-step="1" tabindex="-1" '
        'aria-hidden="true">+</button>',
        '  </div>',
        '</div>',
    ]


def code_box(ident: str, name: str, label: str, hint: str, on_when: str) -> list[str]:
    """A code typed from another screen (the GM's): plain text, never corrected or capitalised,
    out of sight and out of the request until its switch is set (data-on-when)."""
    more = f' data-on-when="{on_when}" disabled' if on_when else ""
    return [
        f'<div class="field wide code"{" hidden" if on_when else ""}>',
        f'  <label for="{ident}">{escape(label)}{_hint(ident, hint)}</label>',
        f'  <input id="{ident}" name="{name}" type="text" data-kind="hex" autocomplete="off" '
        f'autocapitalize="off" spellcheck="false" aria-describedby="{ident}-hint"{more}>',
        '</div>',
    ]


def check_box(ident: str, name: str, label: str, hint: str = "") -> list[str]:
    described_by = f' aria-describedby="{ident}-hint"' if hint else ""
    return [
        '<div class="field check">',
        f'  <input id="{ident}" name="{name}" type="checkbox"{described_by}>',
        f'  <label for="{ident}"><span class="label-text">{escape(label)}</span>'
        f'{_hint(ident, hint) if hint else ""}</label>',
        '</div>',
    ]


def plain_box(ident: str, name: str, editor: Box) -> list[str]:
    """A box without a stepper: a whole number from lo to hi, or a text of at most `longest`
    characters; the hint, when there is one, describes the box."""
    if editor.kind == "text":
        kind = f'type="text" maxlength="{editor.longest}" autocomplete="off"'
    else:
        kind = (f'type="number" inputmode="numeric" min="{editor.lo}" max="{editor.hi}" '
                'step="1"')
    described_by = f' aria-describedby="{ident}-hint"' if editor.hint else ""
    classes = f'field{"" if editor.kind == "text" else " num"}{" wide" if editor.wide else ""}'
    return [
        f'<div class="{classes}">',
        f'  <label for="{ident}">{escape(editor.label)}'
        f'{_hint(ident, editor.hint) if editor.hint else ""}</label>',
        f'  <input id="{ident}" name="{name}" {kind}{described_by}>',
        '</div>',
    ]


def editor_box(ident: str, name: str, editor: Box) -> list[str]:
    """One control of the character editor, as character_form declares it."""
    if editor.kind == "check":
        return check_box(ident, name, editor.label)
    if editor.kind in ("skill", "trait"):  # the page fills the list (characters_panel)
        return ['<div class="field wide">',
                f'  <label for="{ident}">{escape(editor.label)}</label>',
                f'  <select id="{ident}" name="{name}" data-{editor.kind}s>',
                f'    <option value="">Choose a {editor.kind}</option>',
                '  </select>',
                '</div>']
    if editor.kind == "notes":
        return ['<div class="field wide">',
                f'  <label for="{ident}">{escape(editor.label)}</label>',
                f'  <textarea id="{ident}" name="{name}" rows="3" maxlength="{editor.longest}">'
                '</textarea>',
                '</div>']
    return plain_box(ident, name, editor)


OWN_DRAW = {"cards": 'autocomplete="off" autocapitalize="characters" spellcheck="false" '
                     'placeholder="7H KS"',
            "dice": 'inputmode="numeric" autocomplete="off" spellcheck="false"'}


def own_draw_box(system: str, ident: str, name: str | None = None) -> list[str]:
    """The box for a draw made at the table, as the engine describes it (its label is the
    request field: cards or dice); `name` when the draw belongs to a side."""
    if "draw" not in SYSTEMS.get(system, {}):
        raise MacroError(f"{system!r} is not a system that draws (known: {', '.join(SYSTEMS)})")
    draw = SYSTEMS[system]["draw"]
    of, hint = draw["label"], draw["hint"]
    if of not in OWN_DRAW:
        raise MacroError(f"{system}'s draw is {of!r}: a page box takes {' or '.join(OWN_DRAW)}")
    name = of if name is None else name
    return [
        '<details class="own-draw">',
        f'  <summary>Enter my own {of}</summary>',
        '  <div class="field wide">',
        f'    <label for="{ident}">My {of}{_hint(ident, hint)}</label>',
        f'    <input id="{ident}" name="{name}" type="text" aria-describedby="{ident}-hint" '
        f'data-kind="list" {OWN_DRAW[of]}>',
        '  </div>',
        '</details>',
    ]


def repeat_item(css: str, group: str, noun: str, inner: list[str], narrow: bool = False
                ) -> list[str]:
    """One block of a list the player adds to and removes from (dom.py: data-repeat); a
    `narrow` one's button says "Remove", and "this helper" only to a screen reader."""
    this = f'<span class="vh"> this {noun}</span>' if narrow else f" this {noun}"
    return [
        f'<fieldset class="{css}" data-repeat-item="{group}">',
        f'  <legend>{noun.capitalize()} <span class="repeat-number">1</span></legend>',
        '  <div class="grid">',
        *("    " + line for line in inner),
        '  </div>',
        '  <button type="button" class="tool danger remove-helper" data-remove-item>'
        f'Remove{this}</button>',
        '</fieldset>',
    ]


def repeat(css: str, group: str, noun: str, most: int, start: int, item: list[str]) -> list[str]:
    """A list of blocks: `start` of them shown, at most `most`, more made from the template."""
    opening = f'<div class="{css}" data-repeat="{group}" data-max="{most}" data-start="{start}">'
    shown_items = ["  " + line for _ in range(start) for line in item]
    return [
        *([opening, *shown_items, "</div>"] if shown_items else [opening + "</div>"]),
        f'<template id="{group}-template">',
        *("  " + line for line in item),
        '</template>',
        f'<button type="button" class="tool add-helper" data-add-item="{group}">Add a {noun}'
        '</button>',
    ]


# ---- the macros ----------------------------------------------------------------------------------

def system_form(a: Attrs) -> list[str]:
    return specs_form(a["system"], a["legend"])


def specs_form(system: str, legend: str) -> list[str]:
    """A system's one form, drawn from its field specs."""
    if system not in SYSTEMS:
        raise MacroError(f"no system {system!r} (known: {', '.join(SYSTEMS)})")
    inner = [*(line for spec in on_form(system)
               for line in box(spec, f"{system}-{spec['name']}", spec["name"])),
             *own_draw_box(system, f"{system}-{SYSTEMS[system]['draw']['label']}")]
    return [f'<template class="sysform-later" data-system="{system}">',
            f'  <fieldset class="sysform" id="form-{system}" data-system="{system}">',
            f'    <legend>{legend}</legend>',
            '    <div class="grid">',
            *("      " + line for line in inner),
            '    </div>',
            '  </fieldset>',
            '</template>']


def field(a: Attrs) -> list[str]:
    system, dot, name = a["field"].partition(".")
    if not dot:
        raise MacroError(f"<{a.tag}> field= is SYSTEM.NAME, like flip.take7")
    return box(described(system, name), a["id"], name, a.get("hint"))


def own_draw(a: Attrs) -> list[str]:
    return own_draw_box(a["system"], a["id"])


def difficulty(a: Attrs) -> list[str]:
    ident, secret = a["id"], a.flag("secret")
    chosen = described("flip", "difficulty")["form"]["start"]
    ladder = {step["name"]: step["dtn"] for step in SYSTEMS["flip"]["ladder"]}
    off = ' data-off-when="secret"' if secret else ""
    options = [f'    <option value="{name}" data-value="{dtn}"'
               f'{" selected" if name == chosen else ""}>{name.capitalize()} ({dtn}+)</option>'
               for name, dtn in ladder.items()]
    return [
        '<div class="field wide">',
        f'  <label for="{ident}-difficulty">{described("flip", "difficulty")["form"]["label"]}'
        '</label>',
        f'  <select id="{ident}-difficulty" name="difficulty" data-fills="dtn"{off}>',
        '    <option value="">A number (DTN below)</option>',
        *options,
        '  </select>',
        '</div>',
        # the DTN box starts at the difficulty chosen, and is off while a difficulty is chosen
        *box(described("flip", "dtn"), f"{ident}-dtn", "dtn", start=ladder[chosen],
             disabled=True, off_when="difficulty secret" if secret else "difficulty"),
    ]


def side(a: Attrs) -> list[str]:
    ident, prefix = a["id"], a["name"]
    skill, take7, fold = a.flag("skill"), a.flag("take7"), a.flag("fold")

    def control(key: str) -> tuple[str, str]:
        return f"{ident}-{key}", f"{prefix}.{key}" if prefix else key

    lines = [
        '<div class="field wide">',
        f'  <label for="{ident}-skill">Skill</label>',
        f'  <select id="{ident}-skill" name="{control("skill")[1]}" data-skill-picker>',
        '    <option value="">Any skill</option>',
        '  </select>',
        '</div>',
    ] if skill else []
    for key in SIDE_NUMBERS[:2]:
        lines += box(described("flip", key), *control(key), aspect_hint=key == "aspect")
    more = []
    for key in SIDE_NUMBERS[2:]:
        more += box(described("flip", key), *control(key))
    spec_id, spec_name = control("specialization")
    more += [
        '<div class="field wide">',
        f'  <label for="{spec_id}">Specialization</label>',
        f'  <select id="{spec_id}" name="{spec_name}" data-kind="flag" data-specializations>',
        '    <option value="">None</option>',
        '    <option value="yes">Yes, one applies (flip+1)</option>',
        '  </select>',
        '</div>',
    ]
    for key in (*SIDE_CHECKS, *(("take7",) if take7 else ())):
        more += box(described("flip", key), *control(key))
    more += own_draw_box("flip", *control("cards"))
    return lines + (folded(more) if fold else more)


def folded(inner: list[str]) -> list[str]:
    """A side's rarely changed boxes under "More", whose summary the page keeps saying what
    is set in them (dom.py, say_folded): closed, they still count (data-saves-room)."""
    return ['<details class="more" data-saves-room>',
            f'  <summary>More <span class="more-said">· {FOLDED_SAID}</span></summary>',
            '  <div class="grid">',
            *("    " + line for line in inner),
            '  </div>',
            '</details>']


def team_helpers(a: Attrs) -> list[str]:
    group = "secondaries"
    ident = f"{a['id']}-{group}-0"
    inner = _call(side, "sc-side", {"id": ident, "name": f"{group}.0", "take7": None,
                                    "fold": None})
    return repeat("helpers", group, "helper", SYSTEMS["flip"]["max_secondaries"], 1,
                  repeat_item("helper", group, "helper", inner, narrow=True))


def editor(a: Attrs) -> list[str]:
    part = a["part"]
    if part == "character":
        return [line for b in CHARACTER for line in editor_box(f"ce-{b.key}", b.key, b)]
    if part in FIXED:
        return fixed_boxes(part, FIXED[part][1])
    if part not in GROUPS:
        raise MacroError(f"<{a.tag}> part= is character or one of "
                         f"{', '.join((*FIXED, *GROUPS))}, not {part!r}")
    return rows(part)


def fixed_boxes(key: str, fixed: Fixed) -> list[str]:
    return [line for b in fixed.boxes
            for line in editor_box(f"ce-{key}-{b.key}", f"{key}.{b.key}", b)]


def rows(part: str) -> list[str]:
    group = GROUPS[part]
    inner = [line for b in group.boxes
             for line in editor_box(f"ce-{part}-0-{b.key}", f"{part}.0.{b.key}", b)]
    return repeat("rows", part, group.noun, MOST_SKILLS, 0,
                  repeat_item("row", part, group.noun, inner))


# ---- the systems, from their records ------------------------------------------------------------

def picker(a: Attrs) -> list[str]:
    return [f'<label class="chip{" wraps" if page.chip_wraps else ""}"><input type="radio" '
            f'name="system" id="pick-{system}" value="{system}"{" checked" if i == 0 else ""}>'
            f'<svg class="chip-icon" viewBox="0 0 26 26" aria-hidden="true">{page.icon}</svg>'
            f'<span>{escape(SYSTEMS[system]["label"])}</span></label>'
            for i, (system, page) in enumerate(PAGES.items())]


def modes(a: Attrs) -> list[str]:
    lines = []
    for system, page in PAGES.items():
        if not page.modes:
            continue
        legend = next(spec for spec in SYSTEMS[system]["fields"] if spec["name"] == "mode")
        lines += [f'<fieldset class="modes" data-system="{system}">',
                  f'  <legend class="vh">{escape(legend["label"])}</legend>',
                  '  <div class="segments">',
                  *(f'    <label class="segment"><input type="radio" name="mode" '
                    f'id="mode-{mode}" value="{mode}"{" checked" if i == 0 else ""}>'
                    f'<span>{escape(mode.capitalize())}</span></label>'
                    for i, mode in enumerate(page.modes)),
                  '  </div>',
                  '</fieldset>']
    return lines


def forms(a: Attrs) -> list[str]:
    lines = []
    for system, page in PAGES.items():
        if page.form:
            try:
                lines += expand(page.form).splitlines()
            except MacroError as error:
                raise MacroError(f"py/app/systems/{system}.py's form, {error}") from None
        else:
            lines += specs_form(system, SYSTEMS[system]["label"])
    return lines


def sheets(a: Attrs) -> list[str]:
    lines = []
    for key, sheet in SHEETS.items():
        lines += ['<details class="sheet-part">', f'  <summary>{escape(sheet.summary)}</summary>']
        for part in sheet.parts:
            lines.append(f'  <h3 class="rows-heading">{escape(part.heading)}</h3>')
            if isinstance(part, Fixed):
                lines += [f'  <div class="grid {part.part}">',
                          *("    " + line for line in fixed_boxes(part.part, part)), '  </div>']
            else:
                lines += ("  " + line for line in rows(f"{key}_{part.part}"))
        lines.append('</details>')
    return lines


def systems_css() -> str:
    """Which form shows follows the pickers, before and after Python has loaded: each
    system's modes picker and forms, shown while its chip (and mode) is ticked."""
    shown = []
    rules = []
    for system, page in PAGES.items():
        picked = f".sheet:has(#pick-{system}:checked)"
        if page.modes:
            rules.append(f'{picked} .modes[data-system="{system}"] {{ display: block; }}')
            shown += [f"{picked}:has(#mode-{mode}:checked) #form-{system}-{mode}"
                      for mode in page.modes]
        else:
            shown.append(f"{picked} #form-{system}")
    return ("/* Made by build.py from py/app/systems/ (tools/page_macros.systems_css). */\n"
            + "".join(rule + "\n" for rule in rules)
            + ",\n".join(shown) + " { display: block; }\n")


MACROS: dict[str, Callable[[Attrs], list[str]]] = {
    "sc-form": system_form, "sc-field": field, "sc-own-draw": own_draw,
    "sc-difficulty": difficulty, "sc-side": side, "sc-team-helpers": team_helpers,
    "sc-editor": editor, "sc-picker": picker, "sc-modes": modes, "sc-forms": forms,
    "sc-sheets": sheets,
}


def _call(macro: Callable[[Attrs], list[str]], tag: str, pairs: dict[str, str | None]) -> list[str]:
    attrs = Attrs(tag, pairs)
    lines = macro(attrs)
    attrs.done()
    return lines


def _attributes(text: str) -> dict[str, str | None]:
    pairs, end = [], 0
    for match in ATTRIBUTE.finditer(text):
        if match.start() != end:
            break
        pairs.append((match["name"], match["value"]))
        end = match.end()
    if text[end:].strip():
        raise MacroError(f"cannot read the attributes at {text[end:].strip()!r}")
    names = [name for name, _ in pairs]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise MacroError(f"attribute {', '.join(repeated)} given twice")
    return dict(pairs)


def expand(page: str) -> str:
    """`page` with every macro line replaced by its HTML; any other text is left as it is."""
    out = []
    for number_, line in enumerate(page.splitlines(keepends=True), 1):
        if "<sc-" not in line and "</sc-" not in line:
            out.append(line)
            continue
        try:
            match = MACRO_LINE.match(line.rstrip("\r\n"))
            if match is None:
                raise MacroError("a macro stands alone on its line: <sc-NAME …></sc-NAME>")
            tag = match["tag"]
            if tag not in MACROS:
                raise MacroError(f"unknown macro <{tag}> (known: {', '.join(MACROS)})")
            lines = _call(MACROS[tag], tag, _attributes(match["attrs"]))
        except MacroError as error:
            raise MacroError(f"line {number_}: {error}") from None
        ending = line[len(line.rstrip("\r\n")):] or "\n"
        out.extend(match["indent"] + text + ending for text in lines)
    return "".join(out)
