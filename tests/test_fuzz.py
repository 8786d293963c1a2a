"""Hostile input, beyond what the system tests already throw: the engine answers or refuses naming
exactly the field that was spoiled, whole random documents only ever give a replayable result or
InvalidRequest, what a player can type in any number box of any form reaches the engine as a
refusal beside that box, and the CLI never prints a traceback.

Already covered elsewhere and not repeated here: junk in sampled top-level fields and junk whole
documents (test_request.py), junk at any path of a flip request (test_flip.py), junk replay links
(test_links.py), damaged storage (test_log_model.py).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from app import forms
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skillcheck import SYSTEMS, InvalidRequest, odds, resolve
from skillcheck.__main__ import main as cli_main

from tools.page_macros import expand

ROOT = Path(__file__).resolve().parents[1]
FUZZ = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# One plain, valid request per system and mode; their echoes name every field the engine reads.
EXAMPLES = {
    "flip unopposed": {"system": "flip", "rank": 2, "aspect": 3, "dtn": 12},
    "flip aspect": {"system": "flip", "mode": "aspect", "aspect": 3, "difficulty": "hard"},
    "flip opposed": {"system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 3},
                     "opponent": {"rank": 1, "aspect": 2}},
    "flip team": {"system": "flip", "mode": "team", "dtn": 12, "primary": {"rank": 2, "aspect": 3},
                  "secondaries": [{"rank": 1, "aspect": 2}, {"rank": 0, "aspect": 1}]},
    "pool": {"system": "pool", "trait": 5, "skill": 7, "dr": 4},
    "swift": {"system": "swift", "trait": 5, "skill": 6},
    "fluke": {"system": "fluke", "dice_count": 3},
    "passages": {"system": "passages", "base": 50},
}
SIDES = ("initiator", "opponent", "primary", "secondaries")

SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(-(10**30), 10**30)
           | st.floats(allow_nan=True) | st.text(max_size=8))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)


# --- every system × every field -----------------------------------------------------------------

def leaves(tree, prefix: str = ""):
    """(dotted path, value) of each field of a request; a list of sides is walked, a draw is not."""
    for key, value in (enumerate(tree) if isinstance(tree, list) else tree.items()):
        where = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) or (isinstance(value, list) and value
                                       and isinstance(value[0], dict)):
            yield from leaves(value, where)
        else:
            yield where, value


def field_paths(name: str) -> list[tuple[str, object]]:
    """Every field the engine read for this example (with its valid value), the seed, and every
    field the system describes, at the top and in each side, whether this mode reads it or not."""
    example = EXAMPLES[name]
    echoed = dict(leaves(resolve({**example, "seed": 1})["request"]))
    described = [spec["name"] for spec in SYSTEMS[example["system"]]["fields"]]
    sides = [side for side, _ in leaves(example) if side.split(".")[0] in SIDES]
    parents = {""} | {side.rsplit(".", 1)[0] for side in sides}
    extra = {f"{parent}.{field}" if parent else field for parent in parents for field in described}
    return sorted(echoed.items()) + [(path, None) for path in sorted(extra | {"seed"})
                                     if path not in echoed]


def put(request: dict, path: str, value) -> dict:
    """A copy of `request` with the field at dotted `path` set to `value`."""
    changed = copy.deepcopy(request)
    *parents, last = path.split(".")
    target = changed
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    target[last] = value
    return changed


def wrong_for(valid) -> st.SearchStrategy:
    """JSON that no reader may accept where `valid` belongs: another type, or an integer beyond
    any field's range. None (left out) is not wrong: many fields have defaults."""
    if isinstance(valid, bool):
        return JSON.filter(lambda v: v is not None and not isinstance(v, bool))
    if isinstance(valid, int):
        return JSON.filter(lambda v: v is not None and (isinstance(v, bool) or not isinstance(
            v, int))) | st.integers(min_value=2**64) | st.integers(max_value=-(2**64))
    if isinstance(valid, str):
        return JSON.filter(lambda v: v is not None and not isinstance(v, str))
    return JSON.filter(lambda v: v is not None and not isinstance(v, list))


def junk_for(name: str, path: str, valid) -> st.SearchStrategy:
    """What to put at `path`: wrong for its valid value, else any JSON but the field's own
    choices. Hypothesis draws strings from the code under test too: "Disguise" at a rank-0
    helper's skill is no junk but an Advanced skill, rightly refused at that helper's rank."""
    if valid is not None:
        return wrong_for(valid)
    field = path.rsplit(".", 1)[-1]
    choices = [option for spec in SYSTEMS[EXAMPLES[name]["system"]]["fields"]
               if spec["name"] == field for option in spec.get("options", [])]
    return JSON.filter(lambda v: v not in choices)


CASES = [(name, path, valid) for name in EXAMPLES for path, valid in field_paths(name)]


def answer_or_refuse_at(call, request: dict, path: str) -> bool:
    """True if `call` refused: then it must name exactly `path`, the one field that was spoiled."""
    try:
        json.dumps(call(request))
    except InvalidRequest as error:
        assert error.field == path, (path, str(error))
        assert str(error) == f"{path}: {error.reason}" and error.reason
        return True
    return False


@pytest.mark.parametrize(("name", "path", "valid"), CASES,
                         ids=[f"{name}:{path}" for name, path, _ in CASES])
@FUZZ
@given(data=st.data())
def test_junk_in_any_field_of_any_system_is_refused_by_that_field(name, path, valid, data):
    junk = data.draw(junk_for(name, path, valid), label="junk")
    request = put(EXAMPLES[name], path, junk)
    refused = answer_or_refuse_at(resolve, request, path)
    answer_or_refuse_at(odds, request, path)
    if valid is not None and not (path == "dtn" and "difficulty" in EXAMPLES[name]):
        assert refused, f"{path} = {junk!r} was read and accepted"  # (a ladder name sets dtn)


# --- whole random documents shaped like requests ------------------------------------------------

FIELD_NAMES = sorted({spec["name"] for s in SYSTEMS.values() for spec in s["fields"]}
                     | {"mode", "seed", "cards", "dice", "keep", "difficulty"})
PLAUSIBLE = (st.integers(-3, 60) | st.booleans() | st.sampled_from(
    [*SYSTEMS["flip"]["modes"], *(step["name"] for step in SYSTEMS["flip"]["ladder"]),
     *(skill["name"] for skill in SYSTEMS["flip"]["skills"][:3])])
    | st.lists(st.integers(0, 101), max_size=4) | st.just(["7H", "KS"]) | JSON)
SIDE = st.dictionaries(st.sampled_from(SYSTEMS["flip"]["side_fields"]) | st.text(max_size=4),
                       PLAUSIBLE, max_size=6)
DOCUMENTS = st.fixed_dictionaries(
    {"system": st.sampled_from(sorted(SYSTEMS)) | JSON},
    optional={**{name: PLAUSIBLE for name in FIELD_NAMES},
              "initiator": SIDE | JSON, "opponent": SIDE | JSON, "primary": SIDE | JSON,
              "secondaries": st.lists(SIDE | JSON, max_size=9) | JSON,
              "extra": JSON})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS)
def test_any_document_gives_a_replayable_result_or_a_refusal(document):
    try:
        result = resolve(document)
    except InvalidRequest as error:
        assert error.field and str(error) == f"{error.field}: {error.reason}"
    else:
        assert resolve(json.loads(json.dumps(result["request"]))) == result
        odds(result["request"])  # a result's own request is always a valid request
    try:
        json.dumps(odds(document))
    except InvalidRequest as error:
        assert error.field


# --- what a player can type into the forms of index.html ------------------------------------------

class Forms(HTMLParser):
    """Each system form of the page: its system, mode and controls as the page starts them
    (name, kind, value, disabled), without the <template> copies of a repeated group (each form
    is a <template> itself, made live when first shown). A select starts at its selected option,
    else its first."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, dict] = {}
        self.current: dict | None = None
        self.select: dict | None = None
        self.depth = self.in_template = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.in_template += tag == "template"
        if tag == "fieldset":
            self.depth += 1
            if "sysform" in (a.get("class") or "").split():
                self.current = {"system": a["data-system"], "mode": a.get("data-mode"),
                                "controls": [], "depth": self.depth,
                                "templates": self.in_template}
                self.forms[a["id"]] = self.current
        if tag == "option" and self.select is not None and (
                self.select["value"] is None or "selected" in a):
            self.select["value"] = a.get("value", "")
        if (self.current is None or self.in_template > self.current["templates"]
                or "name" not in a):
            return
        if tag == "input":
            kind = a.get("data-kind") or a.get("type", "text")
            value = "checked" in a if kind == "checkbox" else a.get("value", "")
            self.current["controls"].append({"name": a["name"], "kind": kind, "value": value,
                                             "disabled": "disabled" in a})
        elif tag == "select":
            self.select = {"name": a["name"], "kind": a.get("data-kind") or "select-one",
                           "value": None, "disabled": "disabled" in a}
            self.current["controls"].append(self.select)

    def handle_endtag(self, tag):
        self.in_template -= tag == "template"
        if tag == "select":
            self.select = None
        if tag == "fieldset":
            if self.current is not None and self.depth == self.current["depth"]:
                self.current = None
            self.depth -= 1


def page_forms() -> dict[str, dict]:
    parser = Forms()
    parser.feed(expand((ROOT / "index.html").read_text(encoding="utf-8")))  # as dist/ has it
    return parser.forms


FORMS = page_forms()
NUMBER_BOXES = [(form_id, control["name"]) for form_id, form in FORMS.items()
                for control in form["controls"]
                if control["kind"] == "number" and not control["disabled"]]
TYPED = (st.sampled_from(["", " ", "-", "e", "1e3", "-0", "+7", "0x10", "٣", "½", "NaN",
                          "Infinity", "9" * 400, "-1", "-99999", "2.5", "<script>", "1 2"])
         | st.integers(-(10**40), 10**40).map(str) | st.text(max_size=12))


def typed_request(form: dict, box: str, text: str) -> dict:
    """The request the page builds from the form as it starts, with `text` typed in `box`."""
    controls = [(c["name"], c["kind"], text if c["name"] == box else c["value"])
                for c in form["controls"] if not c["disabled"]]
    return forms.request_from(form["system"], form["mode"], controls)


def test_the_page_has_number_boxes_in_every_form():
    assert {form_id for form_id, _ in NUMBER_BOXES} == set(FORMS) and len(FORMS) == 8
    for form in FORMS.values():
        resolve(typed_request(form, "", ""))  # each form as it starts is a valid request


@pytest.mark.parametrize(("form_id", "box"), NUMBER_BOXES,
                         ids=[f"{f}:{b}" for f, b in NUMBER_BOXES])
@FUZZ
@given(text=TYPED)
def test_anything_typed_in_a_number_box_is_refused_beside_that_box(form_id, box, text):
    request = typed_request(FORMS[form_id], box, text)
    for call in (resolve, odds):
        try:
            call(request)
        except InvalidRequest as error:
            names = {c["name"] for c in FORMS[form_id]["controls"]}
            assert error.field in names, f"{error} names no box of {form_id}"
            if not re.fullmatch(r"\s*[+-]?\d+\s*", text):
                assert error.field == box, str(error)
        else:
            assert re.fullmatch(r"\s*[+-]?\d+\s*", text) or (not text.strip() and any(
                spec["name"] == box.rsplit(".", 1)[-1] and "default" in spec
                for spec in SYSTEMS[FORMS[form_id]["system"]]["fields"]))


# --- the CLI --------------------------------------------------------------------------------------

def run_cli(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    """The CLI in this process (a subprocess per example would take minutes): stdin decoded as
    UTF-8, strictly, as `python -m skillcheck` does on a UTF-8 system."""
    out, err = io.StringIO(), io.StringIO()
    stream = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    with (contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
          _stdin(stream)):
        code = cli_main(argv)
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def _stdin(stream):
    import sys

    saved, sys.stdin = sys.stdin, stream
    try:
        yield
    finally:
        sys.stdin = saved


STDIN = (DOCUMENTS.map(lambda d: json.dumps(d).encode()) | JSON.map(lambda v: json.dumps(
    v).encode()) | st.binary(max_size=64) | st.text(max_size=40).map(str.encode)
         | st.sampled_from([b"[" * 50_000, b'{"system": "pool", "trait": 1e999}',
                            b'{"system": "passages", "base": -Infinity}', b"\xef\xbb\xbf{}"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command=st.sampled_from(["resolve", "odds"]), stdin=STDIN)
def test_the_cli_prints_one_json_object_or_one_error_line(command, stdin):
    code, out, err = run_cli([command], stdin)
    if code == 0:
        assert err == "" and len(out.splitlines()) == 1
        assert isinstance(json.loads(out), dict)
    else:
        assert code == 2 and out == ""
        assert len(err.splitlines()) == 1 and err.startswith("error: "), err
        assert "Traceback" not in err
