"""The forms kept across reloads: what is kept (each form's pick "From the sheet" too), what a
link changes, and that whatever storage holds — stale, damaged or hostile — reads back as
something harmless."""

from __future__ import annotations

import json

from app.form_memory import (
    LONGEST_VALUE,
    FormMemory,
    form_key,
    opening,
    read,
)
from app.sheet_pick import Pick
from hypothesis import given
from hypothesis import strategies as st


def test_each_form_is_kept_with_the_one_shown_last():
    memory = FormMemory().remember("pool", None, {"trait": "6", "skill": "7", "secret": False})
    memory = memory.remember("flip", "team", {"dtn": "15", "secondaries.1.rank": "2"})
    again = read(memory.dump())
    assert again == memory
    assert again.last == ("flip", "team")
    assert again.of("pool", None) == {"trait": "6", "skill": "7", "secret": False}
    assert again.of("flip", "team")["secondaries.1.rank"] == "2"
    assert again.of("flip", "unopposed") == {} and form_key("flip", "team") == "flip/team"
    assert again.modes == {"flip": "team"}
    assert again.remember("pool", None, {}).modes == {"flip": "team"}  # kept while away


LOCKPICKING = Pick(1, "Mara", "Lockpicking", {"trait": 5, "skill": 7, "bonus": 0, "luck": 2})
ATHLETICS = Pick(2, "Vex", "Athletics", {"opponent.rank": 3, "opponent.skill": "Athletics",
                                         "opponent.specialization": False}, "opponent")


def test_each_forms_pick_is_kept_with_it_and_read_back_the_same():
    memory = FormMemory().remember("pool", None, {"skill": "7"}, LOCKPICKING)
    memory = memory.remember("flip", "opposed", {"opponent.rank": "3"}, ATHLETICS)
    again = read(memory.dump())
    assert again == memory
    assert again.pick_of("pool", None) == LOCKPICKING
    assert again.pick_of("flip", "opposed") == ATHLETICS
    assert again.pick_of("flip", "team") is None
    assert again.remember("flip", "team", {}).pick_of("pool", None) == LOCKPICKING  # kept away
    assert again.remember("pool", None, {"skill": "9"}).pick_of("pool", None) is None
    gone = again.picked("pool", None, None)
    assert gone.pick_of("pool", None) is None and gone.of("pool", None) == {"skill": "7"}
    assert read(gone.dump()).picks == {"flip/opposed": ATHLETICS}


def test_a_stored_pick_is_read_back_whole_or_not_at_all():
    good = {"character": 1, "name": "Mara", "skill": "Lockpicking", "fields": {"skill": 7}}
    broken = [{**good, "character": True}, {**good, "character": 0}, {**good, "name": ""},
              {**good, "skill": ["Lockpicking"]}, {**good, "side": "Opponent"},
              {**good, "fields": {}}, {**good, "fields": {"skill": 7, 'dr"]': 3}},
              {**good, "fields": {"skill": 7, "luck": 10**7}},
              {**good, "fields": {"skill": [7]}}, "Lockpicking"]
    picks = {"pool": good, "flip/../x": good,
             **{f"flip/{chr(97 + i)}": pick for i, pick in enumerate(broken)}}
    memory = read(stored({"picks": picks}))
    assert memory.picks == {"pool": Pick(1, "Mara", "Lockpicking", {"skill": 7})}


def test_a_link_naming_a_system_wins_over_the_form_shown_last():
    memory = FormMemory().remember("flip", "team", {})
    assert opening({}, memory) == ("flip", "team")
    assert opening({"system": "pool"}, memory) == ("pool", None)
    assert opening({"system": "flip", "mode": "opposed"}, memory) == ("flip", "opposed")
    assert opening({"mode": "aspect"}, memory) == ("flip", "team")  # a mode alone names nothing
    assert opening({}, FormMemory()) is None


def stored(body: dict) -> str:
    return json.dumps({"version": 1, "kind": "forms", **body})


def test_odd_names_and_values_are_dropped_one_by_one():
    text = stored({"shown": {"system": 'pool"]', "mode": None}, "values": {
        "pool": {"trait": "6", 'dr"]': "3", "luck": 5, "bonus": ["1"], "skill": "x" * 201,
                 "secret": True, "__proto__": "1", "initiator.rank": "2"},
        "flip/team": {"secondaries.3.rank": "4", "secondaries.300.rank": "4",
                      "a.b.c.d": "1", "gm_raises_dtn": False},
        "pool/../x": {"trait": "9"}, "swift": "not a form"},
        "modes": {"flip": '"]', "pool": 3, '"': "team"}})
    memory = read(text)
    assert memory.last is None and memory.modes == {}
    assert memory.of("pool", None) == {"trait": "6", "secret": True, "initiator.rank": "2"}
    assert memory.of("flip", "team") == {"secondaries.3.rank": "4", "gm_raises_dtn": False}
    assert set(memory.values) == {"pool", "flip/team"}


def test_a_stored_mode_that_is_not_a_name_is_left_out_and_the_system_kept():
    assert read(stored({"shown": {"system": "flip", "mode": "]"}})).last == ("flip", None)


def test_anything_else_in_storage_reads_as_no_memory():
    for text in (None, "", "{", "[]", json.dumps({"version": 2, "kind": "forms"}),
                 json.dumps({"version": 1, "kind": "log"}), "x" * 70_000,
                 stored({"values": "pool"}), stored({"shown": ["pool"]})):
        assert read(text).of("pool", None) == {}
        assert read(text).last is None


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=30))
def test_whatever_json_is_stored_reads_back_as_plain_names_and_short_values(body):
    memory = read(stored({"shown": body, "values": body, "picks": body}))
    for key, fields in memory.values.items():
        assert isinstance(key, str) and '"' not in key and "]" not in key
        for name, value in fields.items():
            assert all(ch.isalnum() or ch in "._" for ch in name)
            assert isinstance(value, bool) or isinstance(value, str) and len(value) <= LONGEST_VALUE
    assert read(memory.dump()) == memory


def test_remembering_keeps_only_what_can_be_read_back():
    memory = FormMemory().remember("pool", None, {"trait": 6, "skill": "7", "luck": None})
    assert memory.of("pool", None) == {"skill": "7"}
