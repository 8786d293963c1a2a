"""The character editor's draft kept across a reload (issue 35, point 11): what is kept, how a
save since is told apart, and that whatever storage holds under the key — damaged, oversized or
hostile — is never offered, is removed, and never raises."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from app import character_form, forms
from app.characters import LONGEST_NOTES, Roster, edited, read_character
from app.editor_draft import (
    CHANGED,
    DELETED,
    KEY,
    LONGEST,
    NEW,
    SAME,
    Draft,
    DraftError,
    begun,
    forget,
    keep,
    load,
    offer_text,
    on_top,
    read,
    restored_text,
    standing,
)
from app.storage import MemoryStorage, dump
from hypothesis import given
from hypothesis import strategies as st

MOMENT = datetime(2026, 12, 4, 20, 41, 5, tzinfo=UTC)
TYPED = {"name": "Mara", "luck": "4", "xp": "0", "notes": "", "aspects.HS": "3",
         "passages_skills.0.name": "Climb", "passages_skills.0.base": "40",
         "flip_skills.1.skill": "Athletics", "flip_skills.1.familiarity": True}


@pytest.fixture
def store():
    return MemoryStorage()


@pytest.fixture
def mara(store):
    character, _ = Roster(store).create("Mara", luck=3, notes="Smuggler.")
    return character


def test_a_draft_reads_back_as_it_was_written_with_its_rows(store, mara):
    draft = begun(TYPED, mara, MOMENT)
    assert draft.time == "2026-12-04T20:41:05Z" and draft.editing == mara["id"]
    assert keep(store, draft) == store.get(KEY)
    assert load(store) == draft == read(draft.dump())
    assert draft.began_from() == mara and draft.name() == "Mara"
    assert draft.rows()["passages_skills"] == 1 and draft.rows()["flip_skills"] == 2
    assert draft.rows()["pool_traits"] == 0
    forget(store)
    assert store.get(KEY) is None and load(store) is None


def test_a_new_characters_draft_is_named_by_what_was_typed():
    draft = begun({**TYPED, "name": "  Ana "}, None, MOMENT)
    assert (draft.editing, draft.base, draft.name()) == (None, None, "Ana")
    assert offer_text(draft, NEW, "20:41") == (
        "You have an unsaved new character, Ana, from 20:41.")
    nameless = begun({"name": "", "luck": "2"}, None, MOMENT)
    assert offer_text(nameless, NEW, "20:41") == "You have an unsaved new character from 20:41."


def test_a_save_since_is_told_apart_from_a_spend_record_or_nothing(store, mara):
    draft = begun(TYPED, mara, MOMENT)
    assert standing(draft, mara) == SAME
    assert offer_text(draft, SAME, "20:41") == "You have unsaved changes to Mara from 20:41."
    spent = read_character({**mara, "last_spend": {"system": "pool", "amount": 1}})
    assert standing(draft, spent) == SAME  # the editor does not edit a last spend
    changed = edited(mara, luck=1)
    assert standing(draft, changed) == CHANGED
    assert offer_text(draft, CHANGED, "20:41").endswith(
        "Mara was changed since: restoring keeps your draft’s values.")
    assert standing(draft, None) == DELETED
    assert "restoring keeps them as a new character" in offer_text(draft, DELETED, "20:41")
    assert standing(begun(TYPED, None, MOMENT), mara) == NEW


def test_restoring_over_a_save_since_keeps_both_sides_changes_and_names_the_clashes(mara):
    mine = edited(mara, notes="Smuggler, and a liar.")
    view, conflicts = on_top(mara, mine, edited(mara, luck=1))
    assert (view["notes"], view["luck"], conflicts) == ("Smuggler, and a liar.", 1, [])
    view, conflicts = on_top(mara, edited(mara, luck=7), edited(mara, luck=1))
    assert (view["luck"], conflicts) == (7, ["luck"])  # the draft's, the other one marked
    assert "in Luck too" in restored_text("Mara", CHANGED, ["Luck"])
    assert "on top of what was saved" in restored_text("Mara", CHANGED, [])
    assert "as a new character" in restored_text("Mara", DELETED, [])
    assert restored_text("Mara", SAME, []) == ""


def fullest_editor() -> dict[str, object]:
    """Every box of the editor, every row of every sheet, each text at its longest."""
    _, empty = character_form.editor_values(None)
    values: dict[str, object] = {"name": "N" * 60, "luck": "1000", "xp": "1000000",
                                 "notes": "x" * LONGEST_NOTES}
    values.update({name: "5" for name in empty if name.startswith("aspects.")})
    for group, declared in character_form.GROUPS.items():
        for i in range(100):
            for box in declared.boxes:
                long = 49 if box.key == "type" else 60  # "Knowledge: " and its type
                values[f"{group}.{i}.{box.key}"] = {
                    "skill": "Knowledge", "check": True, "trait": "000" + "T" * 57,
                    "text": f"{i:03d}" + "T" * (long - 3)}.get(
                    box.kind, str(1 if box.key == "rank" else box.lo))
    return values


def test_the_fullest_editor_and_its_character_fit():
    values = fullest_editor()
    kinds = ((name, "checkbox" if value is True else "number" if value.isdigit() else "text",
              value)
             for name, value in values.items())
    fields, _ = character_form.character_fields(forms.tree_from(kinds))
    character = read_character({**fields, "id": 7})
    draft = begun(values, character, MOMENT)
    assert len(draft.dump()) < LONGEST / 2
    assert read(draft.dump()) == draft


def body(**changes) -> str:
    document = {"version": 1, "kind": "draft", "values": {"name": "Ana", "luck": "2"},
                "editing": None, "base": None, "time": "2026-12-04T20:41:05Z"}
    return json.dumps({**document, **changes})


BAD = {
    "not JSON": "{not json",
    "not text": None,
    "another kind": body(kind="forms"),
    "a newer version": body(version=2),
    "oversized": body(values={"notes": "x" * LONGEST}),
    "values not a map": body(values=["name", "Ana"]),
    "no such box": body(values={"colour": "red"}),
    "a selector in a name": body(values={'name"],[x': "Ana"}),
    "a row past the last": body(values={"pool_traits.100.name": "Dex"}),
    "a row numbered twice": body(values={"pool_traits.01.name": "Dex"}),
    "a row's unknown box": body(values={"pool_traits.0.colour": "red"}),
    "a tick as text": body(values={"flip_skills.0.familiarity": "yes"}),
    "text as a tick": body(values={"luck": True}),
    "a number as a value": body(values={"luck": 2}),
    "text too long": body(values={"name": "x" * (LONGEST_NOTES + 1)}),
    "a new one's base": body(base="{}"),
    "an id without its base": body(editing=3),
    "an id that is not one": body(editing="3", base="{}"),
    "a base of another character": body(editing=4, base=dump(read_character(
        {"id": 3, "name": "Mara"}))),
    "a base that is no character": body(editing=3, base='{"id": 3}'),
    "a base that is not JSON": body(editing=3, base="{"),
    "no time": body(time=None),
    "a time without its zone": body(time="2026-12-04T20:41:05"),
    "nested too deep": body()[:-1] + ', "x": ' + "[" * 5000 + "]" * 5000 + "}",
}


@pytest.mark.parametrize("text", BAD.values(), ids=BAD.keys())
def test_a_bad_draft_is_never_offered_and_is_removed(store, text):
    with pytest.raises(DraftError):
        read(text)
    store.set("skillcheck.characters", "kept")
    if text is not None:
        store.set(KEY, text)
    assert load(store) is None
    assert store.get(KEY) is None and store.get("skillcheck.characters") == "kept"


def test_a_good_draft_beside_the_bad_ones_reads():
    assert read(body()).values == {"name": "Ana", "luck": "2"}
    mara = read_character({"id": 3, "name": "Mara"})
    assert read(body(editing=3, base=dump(mara))).began_from() == mara


class Refusing(MemoryStorage):
    def get(self, key):
        raise PermissionError("sandboxed")

    def set(self, key, value):
        raise PermissionError("sandboxed")

    def remove(self, key):
        raise PermissionError("sandboxed")


def test_storage_that_refuses_holds_no_draft_and_raises_nothing():
    storage = Refusing()
    assert load(storage) is None
    assert keep(storage, begun(TYPED, None, MOMENT)) is None
    forget(storage)
    full = MemoryStorage(limit=10)
    assert keep(full, begun(TYPED, None, MOMENT)) is None and full.get(KEY) is None


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=24), inner, max_size=4), max_leaves=30)


@given(values=JSON, editing=JSON, base=JSON, time=JSON)
def test_whatever_json_is_stored_reads_as_a_draft_or_is_refused(values, editing, base, time):
    text = body(values=values, editing=editing, base=base, time=time)
    try:
        draft = read(text)
    except DraftError:
        return
    assert isinstance(draft, Draft) and read(draft.dump()) == draft
