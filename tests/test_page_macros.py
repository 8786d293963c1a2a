"""tools/page_macros.py: the forms drawn from the engine's field specs and the editor's
declaration, the macros' errors, and build.py shipping the expanded page."""

from __future__ import annotations

import copy
import hashlib
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
import skillcheck
from app.character_form import GROUPS
from app.characters import ASPECTS, LONGEST_NAME, LONGEST_NOTES, MOST_LUCK, MOST_SKILLS, MOST_XP
from skillcheck.skills import ASPECT_NAMES

import build
from tools import page_macros
from tools.page_macros import MACROS, MacroError, expand

ROOT = Path(__file__).resolve().parents[1]
SOURCE = (ROOT / "index.html").read_text(encoding="utf-8")
PAGE = expand(SOURCE)


class Controls(HTMLParser):
    """Every input, select and textarea with its attributes, the text of the label naming it,
    whether it stands in a <template> of a repeated group (not counting the one each check form
    waits in until first shown), and the system its form is for (data-system)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.controls: list[dict] = []
        self.labels: dict[str, str] = {}
        self.label: list | None = None
        self.templates: list[bool] = []  # each open <template>: a repeated group's?
        self.systems: list[str | None] = []
        self.feed(html)
        for control in self.controls:
            control["label"] = self.labels.get(control.get("id"), "")

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "template":
            self.templates.append("sysform-later" not in (a.get("class") or "").split())
        if tag == "fieldset":
            self.systems.append(a.get("data-system") or (self.systems or [None])[-1])
        if tag in ("input", "select", "textarea"):
            self.controls.append({"tag": tag, "template": any(self.templates),
                                  "system": (self.systems or [None])[-1], **a})
        if tag == "label":
            self.label = [a.get("for"), ""]

    def handle_endtag(self, tag):
        if tag == "template":
            self.templates.pop()
        if tag == "fieldset":
            self.systems.pop()
        if tag == "label" and self.label is not None:
            self.labels[self.label[0]] = " ".join(self.label[1].split())
            self.label = None

    def handle_data(self, data):
        if self.label is not None:
            self.label[1] += data

    def by_name(self) -> dict[str, dict]:
        return {c["name"]: c for c in self.controls if "name" in c}


def fields_of(system: str) -> dict[str, dict]:
    return {spec["name"]: spec for spec in skillcheck.SYSTEMS[system]["fields"]}


# --- a system's boxes are the engine's fields -------------------------------------------------

def test_a_number_box_is_the_stepper_field_the_engine_describes():
    assert expand('  <sc-field id="pool-dr" field="pool.dr"></sc-field>\n') == (
        '  <div class="field num">\n'
        '    <label for="pool-dr">DR <small class="hint" id="pool-dr-hint" aria-hidden="true">'
        'Difficulty Rating: successes needed, 1–10</small></label>\n'
        '    <div class="stepper">\n'
        '      <button type="button" class="step" data-step="-1" tabindex="-1" '
        'aria-hidden="true">−</button>\n'
        '      <input id="pool-dr" name="dr" type="number" inputmode="numeric" min="1" max="10" '
        'step="1" value="4" aria-describedby="pool-dr-hint" data-off-when="secret">\n'
        '      <button type="button" class="step" data-step="1" tabindex="-1" '
        'aria-hidden="true">+</button>\n'
        '    </div>\n'
        '  </div>\n')


def test_a_switch_is_a_checkbox_before_its_label_and_a_hint_can_say_it_another_way():
    assert expand('<sc-field id="c" field="flip.take7"></sc-field>\n') == (
        '<div class="field check">\n'
        '  <input id="c" name="take7" type="checkbox" aria-describedby="c-hint">\n'
        '  <label for="c"><span class="label-text">Take a 7</span> <small class="hint" '
        'id="c-hint" aria-hidden="true">no cards: count a 7</small></label>\n'
        '</div>\n')
    html = expand('<sc-field id="a" field="flip.aspect" hint="cards and bonus"></sc-field>\n')
    assert Controls(html).labels == {"a": "Aspect cards and bonus"}
    assert 'min="-20" max="50" step="1" value="3"' in html
    assert "inputmode" not in html  # a phone's numeric keypad has no minus sign


@pytest.mark.parametrize("system", ["pool", "swift", "fluke", "passages"])
def test_a_systems_boxes_hold_the_engines_limits_starts_labels_and_hints(system):
    html = expand(f'<sc-form system="{system}" legend="L"></sc-form>\n')
    assert html.startswith(f'<template class="sysform-later" data-system="{system}">\n'
                           f'  <fieldset class="sysform" id="form-{system}" '
                           f'data-system="{system}">\n    <legend>L</legend>\n'
                           '    <div class="grid">\n')
    controls = Controls(html).controls
    shown = [spec for spec in skillcheck.SYSTEMS[system]["fields"] if "form" in spec]
    draw = controls.pop()
    assert draw["name"] == "dice" and draw["data-kind"] == "list"
    assert sorted(c["name"] for c in controls) == sorted(spec["name"] for spec in shown)
    kinds = [fields_of(system)[c["name"]]["kind"] for c in controls]
    assert kinds == sorted(kinds, key=lambda kind: kind != "whole")  # numbers, then switches
    for control in controls:
        spec = fields_of(system)[control["name"]]
        form = spec["form"]
        assert control["id"] == f"{system}-{spec['name']}"
        assert control["label"] == f"{form['label']} {form['hint']}"
        if spec["kind"] == "whole":
            assert (int(control["min"]), int(control["max"])) == (spec["min"], spec["max"])
            assert int(control["value"]) == form["start"]
            assert spec["min"] <= form["start"] <= spec["max"]
            assert control.get("data-off-when", "") == form["off_when"]
        elif spec["kind"] == "hex":  # the GM's code: text, out of the request until it is on
            assert (control["type"], control["data-kind"]) == ("text", "hex")
            assert control["data-on-when"] == form["on_when"] and "disabled" in control
        else:
            assert control["type"] == "checkbox"


@pytest.mark.parametrize("system", sorted(skillcheck.SYSTEMS))
def test_the_own_draw_box_is_the_one_the_engine_describes(system):
    draw = skillcheck.SYSTEMS[system]["draw"]
    html = expand(f'<sc-own-draw id="d" system="{system}"></sc-own-draw>\n')
    assert f"<summary>Enter my own {draw['label']}</summary>" in html
    assert Controls(html).controls[0]["name"] == draw["label"] == (
        "cards" if system == "flip" else "dice")
    assert Controls(html).labels == {"d": f"My {draw['label']} {draw['hint']}"}
    assert ('placeholder="7H KS"' in html) is (system == "flip")


def test_a_systems_fields_end_with_its_own_draw_box():
    html = expand('<sc-form system="fluke" legend="L"></sc-form>\n')
    assert html.index('name="challenge"') < html.index('<details class="own-draw">')
    assert Controls(html).controls[-1]["id"] == "fluke-dice"
    assert "values 1–6, like 6 4 1" in html


@pytest.fixture
def engine(monkeypatch) -> dict:
    """A copy of the engine's descriptions the page is drawn from, to change."""
    systems = copy.deepcopy(skillcheck.SYSTEMS)
    monkeypatch.setattr(page_macros, "SYSTEMS", systems)
    return systems


def test_a_number_changed_in_the_engine_changes_the_page(engine):
    trait = next(spec for spec in engine["pool"]["fields"] if spec["name"] == "trait")
    trait.update(max=12, form={**trait["form"], "start": 9, "hint": "new"})
    controls = Controls(expand('<sc-form system="pool" legend="L"></sc-form>\n')).by_name()
    assert (controls["trait"]["max"], controls["trait"]["value"]) == ("12", "9")
    assert controls["trait"]["label"] == "Trait new"


# --- the card flip ------------------------------------------------------------------------------

@pytest.mark.parametrize("secret", [False, True])
def test_the_difficulty_list_is_the_engines_ladder_and_fills_the_dtn_box(secret):
    html = expand(f'<sc-difficulty id="f"{" secret" if secret else ""}></sc-difficulty>\n')
    controls = Controls(html)
    assert [(c["id"], c["name"]) for c in controls.controls] == [("f-difficulty", "difficulty"),
                                                                ("f-dtn", "dtn")]
    ladder = skillcheck.SYSTEMS["flip"]["ladder"]
    offered = re.findall(r'<option value="([a-z ]+)" data-value="(\d+)"', html)
    assert offered == [(step["name"], str(step["dtn"])) for step in ladder]
    assert '<option value="average" data-value="12" selected>Average (12+)</option>' in html
    assert ('data-fills="dtn" data-off-when="secret">' in html) is secret
    dtn = controls.by_name()["dtn"]
    assert (dtn["min"], dtn["max"], dtn["value"]) == ("0", "100", "12")
    off = "difficulty secret" if secret else "difficulty"
    assert f'aria-describedby="f-dtn-hint" disabled data-off-when="{off}">' in html


def test_the_dtn_box_starts_at_the_difficulty_the_engine_starts_at(engine):
    difficulty = next(s for s in engine["flip"]["fields"] if s["name"] == "difficulty")
    difficulty["form"] = {**difficulty["form"], "start": "hard"}
    html = expand('<sc-difficulty id="f"></sc-difficulty>\n')
    assert '<option value="hard" data-value="15" selected>' in html
    assert Controls(html).by_name()["dtn"]["value"] == "15"


@pytest.mark.parametrize(("flags", "first", "last"), [
    ("skill", ["skill"], ["familiarity", "cards"]),
    ("skill take7", ["skill"], ["familiarity", "take7", "cards"]),
    ("take7", [], ["familiarity", "take7", "cards"]),
])
def test_side_holds_a_whole_card_flip_side(flags, first, last):
    html = expand(f'<sc-side id="flip-team-primary" name="primary" {flags}></sc-side>\n')
    keys = [*first, "rank", "aspect", "flip", "shift", "specialization", "advanced", *last]
    controls = Controls(html).controls
    assert [(c["id"], c["name"]) for c in controls] == [
        (f"flip-team-primary-{key}", f"primary.{key}") for key in keys]
    assert 'id="flip-team-primary-aspect-aspect"' in html  # the chosen aspect's name shows there
    for control in controls:
        spec = fields_of("flip").get(control["name"].split(".")[-1], {})
        if spec.get("kind") == "whole":
            assert (int(control["min"]), int(control["max"]), int(control["value"])) == (
                spec["min"], spec["max"], spec["form"]["start"])


def test_side_without_a_name_prefix_names_its_fields_plainly():
    html = expand('<sc-side id="flip-unopposed" name="" skill></sc-side>\n')
    assert [c["name"] for c in Controls(html).controls] == [
        "skill", "rank", "aspect", "flip", "shift", "specialization", "advanced", "familiarity",
        "cards"]


def test_team_helpers_start_at_one_up_to_the_engines_most_with_a_template_like_it():
    html = expand('    <sc-team-helpers id="t"></sc-team-helpers>\n')
    most = skillcheck.SYSTEMS["flip"]["max_secondaries"]
    lines = html.splitlines()
    assert lines[0] == f'    <div class="helpers" data-repeat="secondaries" data-max="{most}" ' \
                       'data-start="1">'
    assert lines[1] == '      <fieldset class="helper" data-repeat-item="secondaries">'
    shown, template = html.split('<template id="secondaries-template">')
    shown_item = shown[shown.index("<fieldset"):shown.rindex("</fieldset>")]
    assert shown_item in template  # a helper added later is the one the page starts with
    assert ("t-secondaries-0-take7", "secondaries.0.take7") in [
        (c["id"], c["name"]) for c in Controls(html).controls]
    assert lines[-1] == ('    <button type="button" class="tool add-helper" '
                         'data-add-item="secondaries">Add a helper</button>')
    assert 'Remove<span class="vh"> this helper</span>' in html  # heard whole, seen short
    assert html.count('<details class="more" data-saves-room>') == 2  # shown, and its template


def test_a_folded_side_keeps_skill_rank_and_aspect_out_and_the_rest_under_more():
    html = expand('<sc-side id="s" name="opponent" skill take7 fold></sc-side>\n')
    shown, more = html.split('<details class="more" data-saves-room>')
    assert [c["name"] for c in Controls(shown).controls] == [
        "opponent.skill", "opponent.rank", "opponent.aspect"]
    assert [c["name"] for c in Controls(more).controls] == [
        f"opponent.{key}" for key in ("flip", "shift", "specialization", "advanced",
                                      "familiarity", "take7", "cards")]
    assert "<summary>More <span class=\"more-said\">· modifiers, own cards</span></summary>" in more


# --- the character editor ---------------------------------------------------------------------

def test_the_editors_own_boxes_hold_what_a_character_may():
    controls = Controls(expand('<sc-editor part="character"></sc-editor>\n')).by_name()
    assert list(controls) == ["name", "luck", "xp", "notes"]
    assert controls["name"]["maxlength"] == str(LONGEST_NAME)
    assert (controls["luck"]["min"], controls["luck"]["max"]) == ("0", str(MOST_LUCK))
    assert (controls["xp"]["min"], controls["xp"]["max"]) == ("0", str(MOST_XP))
    assert (controls["notes"]["tag"], controls["notes"]["maxlength"]) == (
        "textarea", str(LONGEST_NOTES))
    assert controls["luck"]["label"] == "Luck points to spend"


# An editor box's number and the request field it fills, so it holds what the engine takes.
FILLS = {"aspects": ("flip", "aspect"), "flip_skills.0.rank": ("flip", "rank"),
         "pool_traits.0.score": ("pool", "trait"), "pool_skills.0.score": ("pool", "skill"),
         "pool_skills.0.bonus": ("pool", "bonus"), "fluke_stats.0.dice": ("fluke", "dice_count"),
         "fluke_skills.0.dice": ("fluke", "dice_count"),
         "passages_skills.0.base": ("passages", "base")}


@pytest.mark.parametrize("part", ["aspects", *GROUPS])
def test_editor_numbers_hold_what_the_engine_takes_in_the_field_they_fill(part):
    controls = Controls(expand(f'<sc-editor part="{part}"></sc-editor>\n')).controls
    numbers = [c for c in controls if c.get("type") == "number"]
    assert numbers
    for control in numbers:
        system, field = FILLS["aspects" if part == "aspects" else control["name"]]
        spec = fields_of(system)[field]
        assert (int(control["min"]), int(control["max"])) == (spec["min"], spec["max"])
    if part == "aspects":
        assert [c["name"] for c in controls] == [f"aspects.{code}" for code in ASPECTS]
        assert [c["label"] for c in controls] == [  # by name where the text spells it, code aside
            f"{ASPECT_NAMES[code]} {code}" if code in ASPECT_NAMES else code for code in ASPECTS]


@pytest.mark.parametrize("group", GROUPS)
def test_a_group_of_rows_is_its_declaration_in_a_template(group):
    html = expand(f'<sc-editor part="{group}"></sc-editor>\n')
    declared = GROUPS[group]
    assert html.startswith(f'<div class="rows" data-repeat="{group}" data-max="{MOST_SKILLS}" '
                           f'data-start="0"></div>\n<template id="{group}-template">\n')
    controls = Controls(html).controls
    assert all(c["template"] for c in controls)
    assert [c["name"] for c in controls] == [f"{group}.0.{box.key}" for box in declared.boxes]
    assert [c["label"] for c in controls] == [
        f"{box.label} {box.hint}".strip() for box in declared.boxes]
    assert f"<legend>{declared.noun.capitalize()} <span" in html
    assert html.endswith(f'data-add-item="{group}">Add a {declared.noun}</button>\n')


# --- the real page ------------------------------------------------------------------------------

def test_index_html_writes_no_number_of_a_form():
    """Limits, starting values, lengths and list sizes come from the engine and the editor."""
    forms = re.findall(r'<form id="check".*?</form>|<dialog id="character-editor".*?</dialog>',
                       SOURCE, flags=re.S)
    assert len(forms) == 2
    for form in forms:
        assert not re.findall(r'\b(?:min|max|value|maxlength|data-max|data-start)="-?[0-9]',
                              form)


def test_the_page_expands_to_plain_html_with_one_control_per_id():
    assert "<sc-" not in PAGE and "</sc-" not in PAGE
    ids = [c["id"] for c in Controls(PAGE).controls if "id" in c and not c["template"]]
    assert len(ids) == len(set(ids))  # with every check form made live


def test_each_check_form_waits_in_a_template_named_as_it_is():
    """The page and early-form.js find a form not shown yet by its template's data-system and
    data-mode: they must be the form's own."""
    later = re.findall(r'<template class="sysform-later"([^>]*)>\s*<fieldset class="sysform"'
                       r' id="[^"]+"( data-system="[^"]+"(?: data-mode="[^"]+")?)[ >]', PAGE)
    assert all(template == form for template, form in later)
    assert sorted(form for _, form in later) == sorted(
        f' data-system="{system}"' + (f' data-mode="{mode}"' if mode else "")
        for system, description in skillcheck.SYSTEMS.items()
        for mode in description.get("modes") or [None])


SET_ANOTHER_WAY = {"keep": "tapping another card in the result"}


@pytest.mark.parametrize("system", sorted(skillcheck.SYSTEMS))
def test_every_field_the_engine_describes_has_a_labelled_control(system):
    check = PAGE[PAGE.index('<form id="check"'):PAGE.index("</form>")]
    parsed = Controls(check)
    names = {c["name"].rsplit(".", 1)[-1] for c in parsed.controls
             if c["system"] in (system, None) and "name" in c}
    assert set(fields_of(system)) - set(SET_ANOTHER_WAY) <= names
    for control in parsed.controls:
        if control["system"] == system and control["tag"] != "select" and "name" in control:
            assert control["label"] or control["type"] == "radio", control["name"]


def test_every_control_of_a_check_form_is_a_field_its_engine_reads():
    """No control sends a name the engine would silently ignore."""
    check = PAGE[PAGE.index('<form id="check"'):PAGE.index("</form>")]
    controls = [c for c in Controls(check).controls if c["system"] and "name" in c]
    assert controls
    for control in controls:
        known = set(fields_of(control["system"])) | {"cards", "dice"}
        assert control["name"].rsplit(".", 1)[-1] in known, control["name"]


# --- errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "message"), [
    ('<sc-slider id="a"></sc-slider>', r"line 2: unknown macro <sc-slider> \(known: sc-form"),
    ('<sc-field id="a"></sc-field>', r'line 2: <sc-field> needs field="…"'),
    ('<sc-field id="a" field="flip.take7" colour="red"></sc-field>',
     "line 2: <sc-field> has no attribute colour"),
    ('<sc-field id="a" field="take7"></sc-field>', "field= is SYSTEM.NAME, like flip.take7"),
    ('<sc-field id="a" field="flip.nope"></sc-field>', "flip has no field 'nope'"),
    ('<sc-field id="a" field="chess.rank"></sc-field>', "no system 'chess'"),
    ('<sc-field id="a" field="flip.keep"></sc-field>', "flip.keep is not shown on a form"),
    ('<sc-form system="chess" legend="L"></sc-form>', "no system 'chess'"),
    ('<sc-editor part="spells"></sc-editor>', "part= is character or one of aspects, flip_skills"),
    ('<sc-side id="a" name="b" skill="yes"></sc-side>', "skill is a flag: write it without"),
    ('<sc-field id field="flip.take7"></sc-field>', "<sc-field> id needs a value"),
    ('<sc-field id="a" id="b" field="flip.take7"></sc-field>', "id given twice"),
    ('<sc-own-draw id="a" system="chess"></sc-own-draw>', "'chess' is not a system that draws"),
    ('<sc-field id="a" field=flip.take7></sc-field>', "cannot read the attributes"),
    ('<sc-field id="a" field="flip.take7">', "stands alone on its line"),
    ('<p><sc-field id="a" field="flip.take7"></sc-field></p>', "stands alone"),
    ('<sc-field id="a"', "stands alone on its line"),  # attributes on more lines
    ('</sc-field>', "stands alone on its line"),
])
def test_a_wrong_macro_is_named_with_its_line(line, message):
    with pytest.raises(MacroError, match=message):
        expand(f"<p>first</p>\n{line}\n")


BARE = ("sc-picker", "sc-modes", "sc-forms", "sc-sheets")  # drawn from the systems' records


def test_every_macro_says_which_attribute_it_misses():
    for tag in set(MACROS) - set(BARE):
        with pytest.raises(MacroError, match=f"<{tag}> needs "):
            expand(f"<{tag}></{tag}>\n")


@pytest.mark.parametrize("tag", BARE)
def test_a_macro_drawn_from_the_records_takes_no_attribute(tag):
    with pytest.raises(MacroError, match=f"<{tag}> has no attribute system"):
        expand(f'<{tag} system="pool"></{tag}>\n')


def test_other_lines_and_line_endings_are_kept():
    page = ('<p>keep <b>me</b></p>\r\n'
            '  <sc-field id="c" field="flip.secret"></sc-field>\r\n'
            '<p>and me</p>')
    out = expand(page)
    assert out.startswith("<p>keep <b>me</b></p>\r\n  <div class=\"field check\">\r\n")
    assert out.endswith("  </div>\r\n<p>and me</p>")
    assert expand("no macros here\n") == "no macros here\n"


# --- the build ----------------------------------------------------------------------------------

@pytest.fixture
def src(tmp_path: Path) -> Path:
    """The smallest source tree build.build accepts, its page using a macro."""
    files = {
        "index.html": '<!doctype html><html><head></head><body>\n'
                      '  <sc-field id="c" field="flip.take7"></sc-field>\n'
                      '</body></html>\n',
        "manifest.webmanifest": "{}", "static/vendor/.stamp": "x", build.QRCODE_MODULE: "",
        build.JSQR_MODULE: "",
        build.SW_TEMPLATE: (ROOT / build.SW_TEMPLATE).read_text(encoding="utf-8"),
    }
    for name, text in files.items():
        (tmp_path / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / name).write_text(text, encoding="utf-8")
    return tmp_path / "src"


def test_build_ships_the_expanded_page_with_its_policy_and_precache(src, tmp_path):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    page = (dist / "index.html").read_text(encoding="utf-8")
    assert "<sc-" not in page and '<input id="c" name="take7" type="checkbox"' in page
    assert 'http-equiv="Content-Security-Policy"' in page
    digest = hashlib.sha256((dist / "index.html").read_bytes()).hexdigest()
    assert dict(build.read_precache(dist)[1])["./"] == digest


def test_the_build_draws_the_forms_with_the_standard_library_alone():
    """`python3 build.py serve` runs before any venv exists: the build imports only the standard
    library and the repository's own pure Python (-S: no site-packages at all)."""
    probe = ("import sys, build; from tools.page_macros import expand; "
             "expand(open('index.html', encoding='utf-8').read()); "
             "print(sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)"
             " - {'__main__'}))")
    found = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True,
                           check=True, cwd=ROOT).stdout
    assert found.strip() == "['app', 'build', 'skillcheck', 'tools']"


def test_build_stops_on_a_wrong_macro(src, tmp_path):
    (src / "index.html").write_text("<html><head></head><body>\n<sc-nope></sc-nope>\n</body>\n")
    with pytest.raises(build.BuildError, match="index.html: line 2: unknown macro <sc-nope>"):
        build.build(src, tmp_path / "dist", snapshot=False)
