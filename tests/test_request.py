"""Field specs read JSON strictly and name the field they reject; junk is only InvalidRequest."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skillcheck import SYSTEMS, InvalidRequest, odds, resolve
from skillcheck.registry import REGISTRY
from skillcheck.request import SEED, Choice, Flag, Form, Whole, as_object, path, read_list

RANK = Whole("rank", "Rank", 0, 52)
SHIFT = Whole("shift", "Shift", -50, 50, 0)
TAKE7 = Flag("take7", "Take a 7")
MODE = Choice("mode", "Mode", ("unopposed", "opposed"), "unopposed")
SIDE = Choice("side", "Side", ("left", "right"))


def refused(spec, obj, prefix="") -> InvalidRequest:
    with pytest.raises(InvalidRequest) as caught:
        spec.read(obj, prefix)
    error = caught.value
    assert str(error) == f"{error.field}: {error.reason}"
    assert isinstance(error, ValueError)
    return error


@pytest.mark.parametrize("value", [0, 17, 52])
def test_whole_reads_whole_numbers_in_range(value):
    assert RANK.read({"rank": value}) == value


@pytest.mark.parametrize("value", [True, False, 2.0, 2.5, "2", [2], {"n": 2}, -1, 53, 10**100,
                                   -(10**100), float("nan"), float("inf")])
def test_whole_refuses_anything_else(value):
    error = refused(RANK, {"rank": value})
    assert (error.field, error.reason) == ("rank", "must be a whole number from 0 to 52")


def test_whole_missing_or_null():
    assert SHIFT.read({}) == 0 and SHIFT.read({"shift": None}) == 0
    for obj in ({}, {"rank": None}):
        assert refused(RANK, obj).reason == "is needed: a whole number from 0 to 52"


def test_nested_fields_are_named_by_path():
    assert path("", "rank") == "rank" and path("initiator", "rank") == "initiator.rank"
    assert str(refused(RANK, {"rank": "x"}, "initiator")).startswith("initiator.rank: ")


@pytest.mark.parametrize(("value", "read"), [(True, True), (False, False), (None, False)])
def test_flag_reads_booleans(value, read):
    assert TAKE7.read({"take7": value}) is read
    assert TAKE7.read({}) is False


@pytest.mark.parametrize("value", [0, 1, "true", "false", [], 1.0])
def test_flag_refuses_anything_else(value):
    assert str(refused(TAKE7, {"take7": value})) == "take7: must be true or false"


def test_choice():
    assert MODE.read({}) == "unopposed" and MODE.read({"mode": "opposed"}) == "opposed"
    assert refused(MODE, {"mode": "Opposed"}).reason == "must be one of unopposed, opposed"
    assert refused(MODE, {"mode": 1}).field == "mode"
    assert refused(SIDE, {}).reason == "is needed: one of left, right"


def test_describe_gives_forms_the_same_limits():
    assert RANK.describe() == {"name": "rank", "label": "Rank", "kind": "whole", "min": 0,
                               "max": 52}
    assert SHIFT.describe()["default"] == 0
    assert TAKE7.describe() == {"name": "take7", "label": "Take a 7", "kind": "flag",
                                "default": False}
    assert MODE.describe()["options"] == ["unopposed", "opposed"]
    json.dumps([spec.describe() for spec in (RANK, SHIFT, TAKE7, MODE, SIDE)])


def test_a_shown_spec_carries_its_form_and_reads_as_before():
    rank = RANK.shown("cards to flip", 2)
    assert rank.form == Form("Rank", "cards to flip", 2) and RANK.form is None
    assert rank == RANK and rank.read({"rank": 7}) == 7  # the same field, read the same way
    assert refused(rank, {"rank": 53}).reason == refused(RANK, {"rank": 53}).reason
    assert rank.describe() == {**RANK.describe(), "form": {
        "label": "Rank", "hint": "cards to flip", "start": 2, "off_when": ""}}
    assert TAKE7.shown("no cards", label="Take 7").describe()["form"]["label"] == "Take 7"
    assert MODE.shown(start="opposed").form.start == "opposed"


def test_a_number_box_starts_at_the_default_unless_told():
    assert SHIFT.shown("total ±").form.start == 0
    assert SHIFT.shown("total ±", 5).form.start == 5
    assert RANK.shown("cards").form.start is None  # no default: the box starts empty
    assert SEED.shown("").form.start is None


@pytest.mark.parametrize(("spec", "start"), [(RANK, 53), (RANK, -1), (RANK, "2"), (RANK, True),
                                             (MODE, "sideways")])
def test_a_form_cannot_start_where_the_rules_refuse(spec, start):
    with pytest.raises(ValueError, match=f"^{spec.name}: a form cannot start at"):
        spec.shown("", start)


def test_seed_limits():
    assert SEED.read({}) is None
    assert SEED.read({"seed": 2**63 - 1}) == 2**63 - 1
    for value in (-1, 2**63, 1.0, True):
        assert refused(SEED, {"seed": value}).field == "seed"


def test_read_list():
    assert read_list({}, "dice", "", 3) is None and read_list({"dice": None}, "dice", "", 3) is None
    assert read_list({"dice": [1, 2]}, "dice", "", 3) == [1, 2]
    with pytest.raises(InvalidRequest, match="^side.dice: must be a list$"):
        read_list({"dice": "12"}, "dice", "side", 3)
    with pytest.raises(InvalidRequest, match="^dice: must hold at most 3 entries$"):
        read_list({"dice": [1] * 4}, "dice", "", 3)


@pytest.mark.parametrize("value", [None, [], "pool", 3, True])
def test_a_request_is_an_object(value):
    with pytest.raises(InvalidRequest, match="^request: "):
        as_object(value, "request")
    with pytest.raises(InvalidRequest, match="^request: "):
        resolve(value)


def test_unknown_fields_are_ignored():
    request = {"system": "passages", "base": 50, "dice": [7], "from_a_newer_page": {"x": [1]}}
    assert resolve(request)["outcome"] == "double down"


# Any JSON at all, in any field of any system, gives a result or an InvalidRequest — nothing else.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12,
)


def plain_request(name: str) -> dict:
    """A request for `name` built from its own field descriptions: defaults, else the minimum."""
    request = {"system": name}
    for spec in SYSTEMS[name]["fields"]:
        if "default" in spec:
            request[spec["name"]] = spec["default"]
        else:
            request[spec["name"]] = spec["min"] if spec["kind"] == "whole" else spec["options"][0]
    return request


def fields_of(name: str) -> list[str]:
    return [spec["name"] for spec in SYSTEMS[name]["fields"]] + [
        "system", "dice", "cards", "keep", "seed", "secret", "dr", "initiator", "secondaries",
        "commitment", "salt"]


def answer_or_refusal(call, request) -> None:
    try:
        json.dumps(call(request))
    except InvalidRequest as error:
        assert str(error).startswith(f"{error.field}: ") and error.field


def test_a_system_gives_the_spec_of_a_field_by_name():
    assert REGISTRY["pool"].spec("trait").hi == 10
    assert REGISTRY["fluke"].spec("insurance").form.label == "Insurance"
    with pytest.raises(KeyError, match="pool has no field 'rank'"):
        REGISTRY["pool"].spec("rank")


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_the_own_draw_box_names_the_field_a_forced_draw_goes_in(name):
    """A form's draw box sends what the engine reads as the draw, and the forms start valid."""
    request = {"system": name, "seed": 3, **{
        spec["name"]: spec["form"]["start"] for spec in SYSTEMS[name]["fields"]
        if spec.get("form", {}).get("start") is not None}}
    drawn = resolve(request)
    key = SYSTEMS[name]["draw"]["label"]
    replayed = resolve({**request, key: drawn[key], "seed": None})
    assert (replayed[key], replayed["outcome"]) == (drawn[key], drawn["outcome"])


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data(), name=st.sampled_from(sorted(SYSTEMS)), junk=st.lists(JSON, max_size=3))
def test_junk_in_any_field_is_only_invalid_request(data, name, junk):
    request = plain_request(name)
    for value in junk:
        request[data.draw(st.sampled_from(fields_of(name)))] = value
    answer_or_refusal(resolve, request)
    answer_or_refusal(odds, request)


@given(JSON)
def test_junk_requests_are_only_invalid_request(junk):
    answer_or_refusal(resolve, junk)
    answer_or_refusal(odds, junk)


@pytest.mark.parametrize("request_", [
    {"system": "pool", "trait": 2, "skill": 5, "dr": 1, "dice": [0, 3]},
    {"system": "passages", "base": 50, "dice": [101]},
    {"system": "swift", "trait": 3, "skill": 4, "dice": [1]},
    {"system": "fluke", "dice_count": 2, "dice": [7, 1]},
    {"system": "flip", "rank": 2, "aspect": 1, "dtn": 12, "cards": ["ZZ", "2H"]},
    {"system": "flip", "mode": "opposed", "initiator": {"rank": 1, "aspect": 0},
     "opponent": {"rank": 2, "aspect": 0, "cards": ["7H", "7H"]}},
    {"system": "flip", "mode": "team", "dtn": 12, "primary": {"rank": 1, "aspect": 1},
     "secondaries": [{"rank": 1, "aspect": 1, "cards": ["7H", "8H"]}]},
])
def test_odds_refuse_a_forced_draw_as_resolve_does(request_):
    with pytest.raises(InvalidRequest) as by_resolve:
        resolve(request_)
    with pytest.raises(InvalidRequest) as by_odds:
        odds(request_)
    assert str(by_odds.value) == str(by_resolve.value)
    assert by_odds.value.field.endswith(("dice", "cards"))


# Where each system's forced draw goes, on requests that are valid without it (issue 37: `odds`
# ignores a valid forced draw and refuses an invalid one exactly as `resolve` does).
DRAWN = [
    ({"system": "pool", "trait": 3, "skill": 5, "dr": 2, "bonus": 1, "luck": 2}, ()),
    ({"system": "pool", "trait": 3, "skill": 5, "secret": True}, ()),
    ({"system": "pool", "trait": 2, "skill": 5, "dr": 3}, ()),  # too difficult: no dice
    ({"system": "swift", "trait": 3, "skill": 4, "luck": 2}, ()),
    ({"system": "fluke", "dice_count": 3, "insurance": 1}, ()),
    ({"system": "fluke", "dice_count": 2, "challenge": True}, ()),
    ({"system": "passages", "base": 50}, ()),
    ({"system": "flip", "rank": 2, "aspect": 1, "dtn": 12}, ()),
    ({"system": "flip", "mode": "aspect", "aspect": 2, "dtn": 9}, ()),
    ({"system": "flip", "rank": 0, "aspect": 1, "dtn": 9}, ()),  # keeps the lowest of two
    ({"system": "flip", "mode": "opposed", "initiator": {"rank": 1, "aspect": 0},
      "opponent": {"rank": 2, "aspect": 0}}, ("initiator", "opponent")),
    ({"system": "flip", "mode": "team", "dtn": 12, "primary": {"rank": 1, "aspect": 1},
      "secondaries": [{"rank": 1, "aspect": 1}]}, ("primary", "secondaries.0")),
]
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CODES = [rank + suit for rank in RANKS for suit in "SHDC"]
FACES = st.one_of(st.integers(-1, 101), st.sampled_from([True, 2.0, "3", None]))
CARDS = st.one_of(st.sampled_from(CODES), st.sampled_from(["ZZ", "1H", "7h", 7, None]))


def _with_draw(request: dict, where: str, draw) -> dict:
    """`request` with `draw` put at the side `where` ("" the top, "secondaries.0" ...)."""
    key = "cards" if request["system"] == "flip" else "dice"
    if not where:
        return {**request, key: draw}
    name, _, index = where.partition(".")
    if not index:
        return {**request, name: {**request[name], key: draw}}
    sides = [dict(side) for side in request[name]]
    sides[int(index)][key] = draw
    return {**request, name: sides}


@settings(max_examples=400, deadline=None)
@given(data=st.data(), case=st.sampled_from(DRAWN))
def test_odds_take_a_draw_as_resolve_does(data, case):
    request, sides = case
    where = data.draw(st.sampled_from(sides or ("",)))
    faces = CARDS if request["system"] == "flip" else FACES
    draw = data.draw(st.one_of(st.lists(faces, max_size=4), st.sampled_from(["12", {}, 3])))
    drawn = _with_draw(request, where, draw)
    try:
        resolve(drawn)
    except InvalidRequest as refused:
        with pytest.raises(InvalidRequest) as by_odds:
            odds(drawn)
        assert (by_odds.value.field, str(by_odds.value)) == (refused.field, str(refused))
    else:
        assert odds(drawn) == odds(request)


@pytest.mark.parametrize("request_", [request for request, _ in DRAWN])
def test_odds_of_a_valid_draw_are_the_odds_without_it(request_):
    # The draw a result used, put back in the request (its `request`), changes nothing in the odds.
    for seed in range(5):
        replay = resolve({**request_, "seed": seed})["request"]
        assert odds(replay) == odds(request_)
