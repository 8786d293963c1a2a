"""Build-time macros for index.html, so that each repeated form piece is written once.

The page ships static forms (they must show before Python boots), and the card-flip side and the
number stepper stand in it a dozen times each. build.py expands these macros when it copies
index.html into dist/; the browser only ever sees plain HTML.

Syntax (strict, one macro a line, nothing else on that line):

    <sc-NAME attr="value" flag></sc-NAME>

Values are pasted as written (write entities as HTML would; no `"`, `<` or `>`); a flag has no
value. The expansion keeps the macro line's indentation. Macros:

    sc-number     id name label hint min max value [inputmode] [aspect-hint] [disabled] [data-*]
                  a number field with −/+ stepper; disabled and data-* go on the <input>, in order
    sc-check      id name label hint                      a checkbox with its label and hint
    sc-field      id name label [hint] (min max | maxlength) [wide]
                  a plain box without a stepper: a whole number from min to max, or a text of at
                  most maxlength characters; the hint, when given, describes the box
    sc-own-draw   id name of=cards|dice hint              "Enter my own cards/dice" box
    sc-difficulty id [secret]                             the flip difficulty list and its DTN box
    sc-side       id name [skill] [take7]                 one side of a card flip; ids `{id}-rank`,
                  names `{name}.rank` (`rank` when name is empty)
    sc-team-helper id name                                a team flip helper: its fieldset, a side
                  with Take a 7, and its remove button (name `secondaries.0` → list `secondaries`)

An unknown macro, a missing or unknown attribute, or a malformed macro line is a MacroError.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MACRO_LINE = re.compile(r"^(?P<indent>[ \t]*)<(?P<tag>sc-[a-z-]+)(?P<attrs>(?:\s[^<>]*)?)>"
                        r"</(?P=tag)>[ \t]*$")
ATTRIBUTE = re.compile(r'\s+(?P<name>[a-z][a-z0-9-]*)(?:="(?P<value>[^"<>]*)")?')
PASSED_ON = re.compile(r"^(disabled|data-[a-z0-9-]+)$")  # sc-number hands these to its <input>

DIFFICULTIES = (("extremely easy", 5), ("very easy", 7), ("easy", 9), ("average", 12),
                ("hard", 15), ("very hard", 18), ("near impossible", 21), ("impossible", 25))
DEFAULT_DIFFICULTY = "average"


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

    def passed_on(self) -> str:
        """The attributes PASSED_ON allows, as HTML, in the order they were written."""
        out = []
        for name, value in self.pairs.items():
            if name not in self.read and PASSED_ON.match(name):
                self.read.add(name)
                out.append(f" {name}" if value is None else f' {name}="{value}"')
        return "".join(out)

    def done(self) -> None:
        unknown = [name for name in self.pairs if name not in self.read]
        if unknown:
            raise MacroError(f"<{self.tag}> has no attribute {', '.join(unknown)}")


def number(a: Attrs) -> list[str]:
    ident = a["id"]
    aspect = a.flag("aspect-hint")
    span = f' <span class="aspect-hint" id="{ident}-aspect" aria-hidden="true"></span>'
    inputmode = a.get("inputmode")
    inputmode = f' inputmode="{inputmode}"' if inputmode else ""
    return [
        '<div class="field num">',
        f'  <label for="{ident}">{a["label"]}{span if aspect else ""} <small class="hint" '
        f'id="{ident}-hint" aria-hidden="true">{a["hint"]}</small></label>',
        '  <div class="stepper">',
        '    <button type="button" class="step" data-step="-1" tabindex="-1" '
        'aria-hidden="true">−</button>',
        f'    <input id="{ident}" name="{a["name"]}" type="number"'
        f'{inputmode} min="{a["min"]}" max="{a["max"]}" '
        f'step="1" value="{a["value"]}" aria-describedby="{ident}-hint'
        f'{f" {ident}-aspect" if aspect else ""}"{a.passed_on()}>',
        '    <button type="button" class="step" data-step="1" tabindex="-1" '
        'aria-hidden="true">+</button>',
        '  </div>',
        '</div>',
    ]


def check(a: Attrs) -> list[str]:
    ident = a["id"]
    return [
        '<div class="field check">',
        f'  <input id="{ident}" name="{a["name"]}" type="checkbox" '
        f'aria-describedby="{ident}-hint">',
        f'  <label for="{ident}"><span class="label-text">{a["label"]}</span> <small class="hint" '
        f'id="{ident}-hint" aria-hidden="true">{a["hint"]}</small></label>',
        '</div>',
    ]


def plain_field(a: Attrs) -> list[str]:
    ident, label, hint = a["id"], a["label"], a.get("hint")
    maxlength = a.get("maxlength")
    kind = (f'type="text" maxlength="{maxlength}" autocomplete="off"' if maxlength is not None
            else f'type="number" inputmode="numeric" min="{a["min"]}" max="{a["max"]}" step="1"')
    small = (f' <small class="hint" id="{ident}-hint" aria-hidden="true">{hint}</small>'
             if hint is not None else "")
    described = f' aria-describedby="{ident}-hint"' if hint is not None else ""
    classes = f'field{"" if maxlength is not None else " num"}{" wide" if a.flag("wide") else ""}'
    return [
        f'<div class="{classes}">',
        f'  <label for="{ident}">{label}{small}</label>',
        f'  <input id="{ident}" name="{a["name"]}" {kind}{described}>',
        '</div>',
    ]


OWN_DRAW = {"cards": 'autocomplete="off" autocapitalize="characters" spellcheck="false" '
                     'placeholder="7H KS"',
            "dice": 'inputmode="numeric" autocomplete="off" spellcheck="false"'}


def own_draw(a: Attrs) -> list[str]:
    ident, of = a["id"], a["of"]
    if of not in OWN_DRAW:
        raise MacroError(f"<{a.tag}> of= is one of {', '.join(OWN_DRAW)}, not {of!r}")
    return [
        '<details class="own-draw">',
        f'  <summary>Enter my own {of}</summary>',
        '  <div class="field wide">',
        f'    <label for="{ident}">My {of} <small class="hint" id="{ident}-hint" '
        f'aria-hidden="true">{a["hint"]}</small></label>',
        f'    <input id="{ident}" name="{a["name"]}" type="text" aria-describedby="{ident}-hint" '
        f'data-kind="list" {OWN_DRAW[of]}>',
        '  </div>',
        '</details>',
    ]


def difficulty(a: Attrs) -> list[str]:
    ident, secret = a["id"], a.flag("secret")
    off = ' data-off-when="secret"' if secret else ""
    options = [f'    <option value="{name}" data-value="{dtn}"'
               f'{" selected" if name == DEFAULT_DIFFICULTY else ""}>{name.capitalize()} '
               f'({dtn}+)</option>' for name, dtn in DIFFICULTIES]
    dtn = {"id": f"{ident}-dtn", "name": "dtn", "label": "DTN", "hint": "Difficulty Target Number",
           "inputmode": "numeric", "min": "0", "max": "100", "value": "12", "disabled": None,
           "data-off-when": "difficulty secret" if secret else "difficulty"}
    return [
        '<div class="field wide">',
        f'  <label for="{ident}-difficulty">Difficulty</label>',
        f'  <select id="{ident}-difficulty" name="difficulty" data-fills="dtn"'
        f'{off}>',
        '    <option value="">A number (DTN below)</option>',
        *options,
        '  </select>',
        '</div>',
        *_call(number, "sc-number", dtn),
    ]


def side(a: Attrs) -> list[str]:
    ident, prefix = a["id"], a["name"]
    skill, take7 = a.flag("skill"), a.flag("take7")

    def field(key: str) -> dict[str, str]:
        return {"id": f"{ident}-{key}", "name": f"{prefix}.{key}" if prefix else key}

    lines = [
        '<div class="field wide">',
        f'  <label for="{ident}-skill">Skill</label>',
        f'  <select id="{ident}-skill" name="{field("skill")["name"]}" data-skill-picker>',
        '    <option value="">Any skill</option>',
        '  </select>',
        '</div>',
    ] if skill else []
    for key, label, hint, low, high, start, more in (
            ("rank", "Rank", "cards to flip", 0, 52, 2, {"inputmode": "numeric"}),
            ("aspect", "Aspect", "added to the card", -20, 50, 3, {"aspect-hint": None}),
            ("flip", "Flip modifier", "cards ±", -52, 52, 0, {}),
            ("shift", "Shift", "total ±", -50, 50, 0, {})):
        lines += _call(number, "sc-number", {**field(key), "label": label, "hint": hint,
                                             **more, "min": str(low), "max": str(high),
                                             "value": str(start)})
    spec = field("specialization")
    lines += [
        '<div class="field wide">',
        f'  <label for="{spec["id"]}">Specialization</label>',
        f'  <select id="{spec["id"]}" name="{spec["name"]}" data-kind="flag" '
        'data-specializations>',
        '    <option value="">None</option>',
        '    <option value="yes">Yes, one applies (flip+1)</option>',
        '  </select>',
        '</div>',
    ]
    checks = [("advanced", "Advanced skill", "Craft, Knowledge, Profession…"),
              ("familiarity", "Familiarity", "lets an Advanced skill flip at rank 0")]
    if take7:
        checks.append(("take7", "Take a 7", "no cards: count a 7"))
    for key, label, hint in checks:
        lines += _call(check, "sc-check", {**field(key), "label": label, "hint": hint})
    return lines + _call(own_draw, "sc-own-draw", {**field("cards"), "of": "cards",
                                                   "hint": "rank then suit, like 7H 10S QD"})


def team_helper(a: Attrs) -> list[str]:
    ident, name = a["id"], a["name"]
    inner = _call(side, "sc-side", {"id": ident, "name": name, "take7": None})
    return [
        f'<fieldset class="helper" data-repeat-item="{name.split(".")[0]}">',
        '  <legend>Helper <span class="repeat-number">1</span></legend>',
        '  <div class="grid">',
        *("    " + line for line in inner),
        '  </div>',
        '  <button type="button" class="tool danger remove-helper" data-remove-item>'
        'Remove this helper</button>',
        '</fieldset>',
    ]


MACROS: dict[str, Callable[[Attrs], list[str]]] = {
    "sc-number": number, "sc-check": check, "sc-field": plain_field, "sc-own-draw": own_draw,
    "sc-difficulty": difficulty, "sc-side": side, "sc-team-helper": team_helper,
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
