"""tools/page_macros.py: each macro's HTML, its errors, and build.py shipping the expanded page."""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import build
from tools.page_macros import DIFFICULTIES, MACROS, MacroError, expand

ROOT = Path(__file__).resolve().parents[1]


class Controls(HTMLParser):
    """(tag, id, name) of every input and select, and the text of every label, in page order."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.controls: list[tuple[str, str, str]] = []
        self.labels: list[str] = []
        self.label: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("input", "select"):
            self.controls.append((tag, a["id"], a.get("name")))
        if tag == "label":
            self.label = []

    def handle_endtag(self, tag):
        if tag == "label":
            self.labels.append(" ".join("".join(self.label).split()))
            self.label = None

    def handle_data(self, data):
        if self.label is not None:
            self.label.append(data)


# --- what each macro writes -------------------------------------------------------------------

def test_number_is_the_stepper_field_at_the_macro_indentation():
    assert expand('  <sc-number id="pool-dr" name="dr" label="DR" hint="successes needed" '
                  'inputmode="numeric" min="1" max="10" value="4" data-off-when="secret">'
                  '</sc-number>\n') == (
        '  <div class="field num">\n'
        '    <label for="pool-dr">DR <small class="hint" id="pool-dr-hint" aria-hidden="true">'
        'successes needed</small></label>\n'
        '    <div class="stepper">\n'
        '      <button type="button" class="step" data-step="-1" tabindex="-1" '
        'aria-hidden="true">−</button>\n'
        '      <input id="pool-dr" name="dr" type="number" inputmode="numeric" min="1" max="10" '
        'step="1" value="4" aria-describedby="pool-dr-hint" data-off-when="secret">\n'
        '      <button type="button" class="step" data-step="1" tabindex="-1" '
        'aria-hidden="true">+</button>\n'
        '    </div>\n'
        '  </div>\n')


def test_number_aspect_hint_and_passed_on_attributes_in_their_order():
    html = expand('<sc-number id="x" name="n" label="Aspect" hint="h" min="-2" max="5" value="3" '
                  'aspect-hint disabled data-a="1 2"></sc-number>\n')
    assert ('<label for="x">Aspect <span class="aspect-hint" id="x-aspect" aria-hidden="true">'
            '</span> <small') in html
    assert ('<input id="x" name="n" type="number" min="-2" max="5" step="1" value="3" '
            'aria-describedby="x-hint x-aspect" disabled data-a="1 2">') in html


def test_check_is_a_checkbox_before_its_label():
    assert expand('<sc-check id="c" name="take7" label="Take a 7" hint="no cards"></sc-check>\n') \
        == ('<div class="field check">\n'
            '  <input id="c" name="take7" type="checkbox" aria-describedby="c-hint">\n'
            '  <label for="c"><span class="label-text">Take a 7</span> <small class="hint" '
            'id="c-hint" aria-hidden="true">no cards</small></label>\n'
            '</div>\n')



def test_field_is_a_number_box_described_by_its_hint():
    assert expand('  <sc-field id="ce-xp" name="xp" label="XP" hint="experience points" min="0" '
                  'max="1000000"></sc-field>\n') == (
        '  <div class="field num">\n'
        '    <label for="ce-xp">XP <small class="hint" id="ce-xp-hint" aria-hidden="true">'
        'experience points</small></label>\n'
        '    <input id="ce-xp" name="xp" type="number" inputmode="numeric" min="0" max="1000000" '
        'step="1" aria-describedby="ce-xp-hint">\n'
        '  </div>\n')


def test_field_is_a_text_box_without_a_hint_and_can_be_wide():
    assert expand('<sc-field id="n" name="rows.0.name" label="Name" maxlength="60" wide>'
                  '</sc-field>\n') == (
        '<div class="field wide">\n'
        '  <label for="n">Name</label>\n'
        '  <input id="n" name="rows.0.name" type="text" maxlength="60" autocomplete="off">\n'
        '</div>\n')
    html = expand('<sc-field id="t" name="t" label="Trait" hint="one of the traits" '
                  'maxlength="9"></sc-field>\n')
    assert html.startswith('<div class="field">\n')
    assert 'maxlength="9" autocomplete="off" aria-describedby="t-hint">' in html
    assert Controls(html).labels == ["Trait one of the traits"]

@pytest.mark.parametrize(("of", "attributes"), [
    ("cards", 'autocapitalize="characters" spellcheck="false" placeholder="7H KS">'),
    ("dice", 'data-kind="list" inputmode="numeric" autocomplete="off" spellcheck="false">'),
])
def test_own_draw_box_for_cards_or_dice(of, attributes):
    html = expand(f'<sc-own-draw id="d" name="dice" of="{of}" hint="like 3 9"></sc-own-draw>\n')
    assert f"<summary>Enter my own {of}</summary>" in html
    assert Controls(html).labels == [f"My {of} like 3 9"]
    assert html.splitlines()[4].endswith(attributes)


@pytest.mark.parametrize("secret", [False, True])
def test_difficulty_list_fills_the_dtn_box(secret):
    html = expand(f'<sc-difficulty id="f"{" secret" if secret else ""}></sc-difficulty>\n')
    assert Controls(html).controls == [("select", "f-difficulty", "difficulty"),
                                       ("input", "f-dtn", "dtn")]
    assert html.count("<option") == len(DIFFICULTIES) + 1
    assert '<option value="average" data-value="12" selected>Average (12+)</option>' in html
    assert '<option value="near impossible" data-value="21">Near impossible (21+)</option>' in html
    assert ('data-fills="dtn" data-off-when="secret">' in html) is secret
    off = "difficulty secret" if secret else "difficulty"
    assert f'aria-describedby="f-dtn-hint" disabled data-off-when="{off}">' in html


@pytest.mark.parametrize(("flags", "first", "last"), [
    ("skill", ["skill"], ["familiarity", "cards"]),
    ("skill take7", ["skill"], ["familiarity", "take7", "cards"]),
    ("take7", [], ["familiarity", "take7", "cards"]),
])
def test_side_holds_a_whole_card_flip_side(flags, first, last):
    html = expand(f'<sc-side id="flip-team-primary" name="primary" {flags}></sc-side>\n')
    keys = [*first, "rank", "aspect", "flip", "shift", "specialization", "advanced", *last]
    assert [(c[1], c[2]) for c in Controls(html).controls] == [
        (f"flip-team-primary-{key}", f"primary.{key}") for key in keys]
    assert 'id="flip-team-primary-aspect-aspect"' in html  # the chosen aspect's name shows there
    assert "<sc-" not in html


def test_side_without_a_name_prefix_names_its_fields_plainly():
    html = expand('<sc-side id="flip-unopposed" name="" skill></sc-side>\n')
    assert [c[2] for c in Controls(html).controls] == [
        "skill", "rank", "aspect", "flip", "shift", "specialization", "advanced", "familiarity",
        "cards"]


def test_team_helper_wraps_a_side_with_take7_in_its_repeat_item():
    html = expand('    <sc-team-helper id="t-0" name="secondaries.0"></sc-team-helper>\n')
    lines = html.splitlines()
    assert lines[0] == '    <fieldset class="helper" data-repeat-item="secondaries">'
    assert lines[-1] == "    </fieldset>"
    assert lines[3].startswith('        <div class="field num">')  # the side, one level in
    assert ("input", "t-0-take7", "secondaries.0.take7") in Controls(html).controls
    assert "Remove this helper" in html


def test_other_lines_and_line_endings_are_kept():
    page = ('<p>keep <b>me</b></p>\r\n'
            '  <sc-check id="c" name="n" label="L" hint="H"></sc-check>\r\n'
            '<p>and me</p>')
    out = expand(page)
    assert out.startswith("<p>keep <b>me</b></p>\r\n  <div class=\"field check\">\r\n")
    assert out.endswith("  </div>\r\n<p>and me</p>")
    assert expand("no macros here\n") == "no macros here\n"


# --- errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "message"), [
    ('<sc-slider id="a"></sc-slider>', r"line 2: unknown macro <sc-slider> \(known: sc-number"),
    ('<sc-check id="a" name="n" label="L"></sc-check>', r'line 2: <sc-check> needs hint="…"'),
    ('<sc-check id="a" name="n" label="L" hint="H" colour="red"></sc-check>',
     "line 2: <sc-check> has no attribute colour"),
    ('<sc-check id="a" name="n" label="L" hint="H" disabled></sc-check>',
     "line 2: <sc-check> has no attribute disabled"),  # only sc-number passes attributes on
    ('<sc-side id="a" name="b" skill="yes"></sc-side>', "skill is a flag: write it without"),
    ('<sc-check id name="n" label="L" hint="H"></sc-check>', "<sc-check> id needs a value"),
    ('<sc-check id="a" id="b" name="n" label="L" hint="H"></sc-check>', "id given twice"),
    ('<sc-own-draw id="a" name="n" of="coins" hint="H"></sc-own-draw>', "not 'coins'"),
    ('<sc-field id="a" name="n" label="L" min="1"></sc-field>', '<sc-field> needs max="…"'),
    ('<sc-field id="a" name="n" label="L" maxlength="9" min="1"></sc-field>',
     "<sc-field> has no attribute min"),  # a box is a number or a text, not both
    ('<sc-check id="a" name="n" label=L hint="H"></sc-check>', "cannot read the attributes"),
    ('<sc-check id="a" name="n" label="L" hint="H">', "stands alone on its line"),
    ('<p><sc-check id="a" name="n" label="L" hint="H"></sc-check></p>', "stands alone"),
    ('<sc-check id="a" name="n"', "stands alone on its line"),  # attributes on more lines
    ('</sc-check>', "stands alone on its line"),
])
def test_a_wrong_macro_is_named_with_its_line(line, message):
    with pytest.raises(MacroError, match=message):
        expand(f"<p>first</p>\n{line}\n")


def test_every_macro_says_which_attribute_it_misses():
    for tag in MACROS:
        with pytest.raises(MacroError, match=f"<{tag}> needs id="):
            expand(f"<{tag}></{tag}>\n")


# --- the real page and the build --------------------------------------------------------------

def test_the_page_expands_to_plain_html():
    page = expand((ROOT / "index.html").read_text(encoding="utf-8"))
    assert "<sc-" not in page and "</sc-" not in page
    live = re.sub(r"<template.*?</template>", "", page, flags=re.S)
    ids = [c[1] for c in Controls(live).controls]
    assert len(ids) == len(set(ids))  # outside the <template>s, one control per id


@pytest.fixture
def src(tmp_path: Path) -> Path:
    """The smallest source tree build.build accepts, its page using a macro."""
    files = {
        "index.html": '<!doctype html><html><head></head><body>\n'
                      '  <sc-check id="c" name="n" label="L" hint="H"></sc-check>\n'
                      '</body></html>\n',
        "manifest.webmanifest": "{}", "static/vendor/.stamp": "x",
        build.SW_TEMPLATE: (ROOT / build.SW_TEMPLATE).read_text(encoding="utf-8"),
    }
    for name, text in files.items():
        (tmp_path / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / name).write_text(text, encoding="utf-8")
    return tmp_path / "src"


def test_build_ships_the_expanded_page_with_its_policy_and_precache(src, tmp_path):
    dist = build.build(src, tmp_path / "dist", snapshot=False)
    page = (dist / "index.html").read_text(encoding="utf-8")
    assert "<sc-" not in page and '<input id="c" name="n" type="checkbox"' in page
    assert 'http-equiv="Content-Security-Policy"' in page
    digest = hashlib.sha256((dist / "index.html").read_bytes()).hexdigest()
    assert dict(build.read_precache(dist)[1])["./"] == digest


def test_build_stops_on_a_wrong_macro(src, tmp_path):
    (src / "index.html").write_text("<html><head></head><body>\n<sc-nope></sc-nope>\n</body>\n")
    with pytest.raises(build.BuildError, match="index.html: line 2: unknown macro <sc-nope>"):
        build.build(src, tmp_path / "dist", snapshot=False)
