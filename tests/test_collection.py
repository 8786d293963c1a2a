"""Two tabs of one browser share one storage: no tab drops the other's log entries, characters or
spends (issue 13, part 1). Each tab is a RollLog and a Roster on the same MemoryStorage."""

from __future__ import annotations

import json

import pytest
import skillcheck
from app.characters import CHARACTERS_KEY, Roster, SpendError
from app.log_model import LOG_KEY, RollLog
from app.storage import MemoryStorage
from hypothesis import given, settings
from hypothesis import strategies as st


def passages(roll: int) -> dict:
    return skillcheck.resolve({"system": "passages", "base": 50, "dice": [roll]})


def insured(points: int) -> dict:
    """A fluke check that spends 2 XP per point of insurance."""
    return skillcheck.resolve({"system": "fluke", "dice_count": 3, "insurance": points,
                               "dice": [4, 5, 6]})


def stored_rolls(store: MemoryStorage) -> list[int]:
    return [e["request"]["dice"][0] for e in json.loads(store.data[LOG_KEY])["entries"]]


@pytest.fixture
def store():
    return MemoryStorage()


def test_rolls_in_two_tabs_are_all_kept(store):
    a, b = RollLog(store), RollLog(store)
    a.record_check(passages(1))
    a.record_check(passages(2))
    b.record_check(passages(3))
    assert stored_rolls(store) == [1, 2, 3]
    a.record_check(passages(4))
    assert stored_rolls(store) == [1, 2, 3, 4]
    assert len({e["id"] for e in a.entries()}) == 4


def test_an_open_tab_takes_in_the_others_entries_when_told(store):
    a, b = RollLog(store), RollLog(store)
    b.record_check(passages(7))
    assert len(a) == 0 and a.refresh() and len(a) == 1
    assert a.refresh() is False  # nothing new since


def test_a_card_kept_in_one_tab_amends_its_entry_without_dropping_the_others(store):
    a, b = RollLog(store), RollLog(store)
    flip = skillcheck.resolve({"system": "flip", "rank": 2, "aspect": 1, "dtn": 9,
                               "cards": ["2H", "KS"]})
    entry, _ = a.record_check(flip)
    b.record_check(passages(5))
    kept = skillcheck.resolve({**flip["request"], "keep": 0})
    a.amend_check(entry["id"], kept)
    entries = json.loads(store.data[LOG_KEY])["entries"]
    assert [e["id"] for e in entries] == [entry["id"], entry["id"] + 1]
    assert entries[0]["request"]["keep"] == 0


def test_clearing_in_one_tab_clears_what_both_logged(store):
    a, b = RollLog(store), RollLog(store)
    a.record_check(passages(1))
    b.record_check(passages(2))
    a.clear()
    assert stored_rolls(store) == []
    b.record_check(passages(3))
    assert stored_rolls(store) == [3]


def test_characters_saved_in_two_tabs_are_both_kept(store):
    a, b = Roster(store), Roster(store)
    a.create("Ana")
    b.create("Ben")
    assert sorted(c["name"] for c in Roster(store).all()) == ["Ana", "Ben"]
    with pytest.raises(ValueError, match="already called ana"):
        b.create("ana")  # the name is checked against what storage holds now


def test_spends_in_two_tabs_both_count_and_both_are_logged(store):
    first = Roster(store).create("Mara", xp=100)[0]
    a, b = Roster(store), Roster(store)
    log_a, log_b = RollLog(store), RollLog(store)
    for roster, log in ((a, log_a), (b, log_b)):
        _, record, _ = roster.spend(first["id"], insured(5))
        log.record_spend(record)
    assert Roster(store).get(first["id"])["xp"] == 80
    spends = [e for e in json.loads(store.data[LOG_KEY])["entries"] if e["kind"] == "spend"]
    assert [(e["before"], e["after"]) for e in spends] == [(100, 90), (90, 80)]


def test_a_spend_is_checked_against_the_stock_stored_now(store):
    first = Roster(store).create("Mara", xp=10)[0]
    a, b = Roster(store), Roster(store)
    a.spend(first["id"], insured(5))
    with pytest.raises(SpendError, match="has only 0 XP"):
        b.spend(first["id"], insured(5))  # b's copy still says 10


def test_an_undo_gives_a_spend_back_once_whichever_tab_asks(store):
    first = Roster(store).create("Mara", xp=100)[0]
    a, b = Roster(store), Roster(store)
    a.spend(first["id"], insured(5))
    a.undo(first["id"])
    with pytest.raises(SpendError, match="no spend to undo"):
        b.undo(first["id"])
    assert Roster(store).get(first["id"])["xp"] == 100


def test_an_edit_in_one_tab_keeps_a_character_the_other_added(store):
    a, b = Roster(store), Roster(store)
    ana, _ = a.create("Ana", luck=2)
    b.create("Ben")
    a.rename(ana["id"], "Anna")
    assert sorted(c["name"] for c in Roster(store).all()) == ["Anna", "Ben"]
    a.delete(ana["id"])
    assert [c["name"] for c in Roster(store).all()] == ["Ben"]
    assert json.loads(store.data[CHARACTERS_KEY])["next_id"] == 3


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ab"), st.integers(1, 100)), max_size=20))
def test_any_interleaving_of_two_tabs_keeps_every_roll(moves):
    store = MemoryStorage()
    tabs = {"a": RollLog(store), "b": RollLog(store)}
    for tab, roll in moves:
        tabs[tab].record_check(passages(roll))
    saved = json.loads(store.data[LOG_KEY])["entries"] if moves else []
    assert [e["request"]["dice"][0] for e in saved] == [roll for _, roll in moves]
    assert len({e["id"] for e in saved}) == len(saved)
