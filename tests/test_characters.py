"""Saved characters: CRUD, sheet checks, the fields they fill, Luck and XP spends with undo,
export to a file and a strict import merged into another browser's characters."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
import skillcheck
from app.characters import (
    ASPECTS,
    CHARACTERS_KEY,
    LONGEST_FILE,
    MOST_CHARACTERS,
    CharactersFileError,
    EditConflict,
    Roster,
    SpendError,
    affordable,
    already_spent,
    apply_result,
    capped_text,
    edited,
    fill,
    import_question,
    import_summary,
    limits,
    merge_edit,
    pickable,
    read_character,
    read_file,
    spend_problem,
    undo_spend,
    with_sheet,
    within_limits,
)
from app.log_model import RollLog
from app.storage import FieldError, MemoryStorage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FLIP = {"aspects": {"AI": 3, "HS": 2, "SS": -1},
        "skills": {"Athletics": {"rank": 2, "specialization": "Climbing"},
                   "Knowledge: History": {"rank": 0, "familiarity": True},
                   "Dueling": {"rank": 1},
                   "Stealth": {"rank": 3}}}
POOL = {"traits": {"Dexterity": 5, "Wits": 3},
        "skills": {"Lockpicking": {"trait": "Dexterity", "score": 7, "bonus": 1},
                   "Bluff": {"trait": "Wits", "score": 4}}}
FLUKE = {"stats": {"Intelligence": 2}, "skills": {"Sneak": 4}}
PASSAGES = {"skills": {"Lockpicking": 26}}


class QuotaExceededError(Exception):
    pass


@pytest.fixture
def store():
    return MemoryStorage()


@pytest.fixture
def roster(store):
    return Roster(store)


@pytest.fixture
def mara(roster):
    character, _ = roster.create("Mara", luck=3, xp=9, notes="Smuggler.\n<b>not bold</b>",
                                 sheets={"flip": FLIP, "pool": POOL, "fluke": FLUKE,
                                         "passages": PASSAGES})
    return character


# ---- create, rename, edit, delete ----------------------------------------------------------------


def test_create_checks_and_keeps_every_field(roster, store, mara):
    assert mara["id"] == 1 and mara["name"] == "Mara" and (mara["luck"], mara["xp"]) == (3, 9)
    assert mara["notes"] == "Smuggler.\n<b>not bold</b>"  # plain text, kept as typed
    flip = mara["sheets"]["flip"]
    assert flip["skills"]["Athletics"] == {"rank": 2, "specialization": "Climbing",
                                           "familiarity": False}
    assert mara["sheets"]["pool"]["skills"]["Bluff"]["bonus"] == 0
    assert Roster(store).all() == [mara]
    assert json.loads(store.data[CHARACTERS_KEY])["version"] == 1


def test_names_are_trimmed_plain_unique_lines(roster, mara):
    other, _ = roster.create("  Ash  ")
    assert other["name"] == "Ash" and other["id"] == 2
    assert [c["name"] for c in roster.all()] == ["Ash", "Mara"]
    for bad, words in [("", "must not be empty"), ("   ", "must not be empty"),
                       ("a\nb", "control characters"), ("x" * 61, "at most 60"),
                       (7, "must be text"), ("MARA", "already called")]:
        with pytest.raises(FieldError, match=words) as caught:
            roster.create(bad)
        assert caught.value.field == "name"
    assert len(roster.all()) == 2


def test_rename_and_delete_persist(roster, store, mara):
    renamed, warnings = roster.rename(mara["id"], "Mara Voss")
    assert renamed["name"] == "Mara Voss" and warnings == []
    assert renamed["sheets"] == mara["sheets"]
    ash, _ = roster.create("Ash")
    with pytest.raises(FieldError, match="already called"):
        roster.rename(ash["id"], "mara voss")
    with pytest.raises(FieldError, match="no such character"):
        roster.rename(99, "Nobody")
    assert [c["name"] for c in Roster(store).all()] == ["Ash", "Mara Voss"]
    assert roster.delete(ash["id"]) == []
    assert [c["name"] for c in Roster(store).all()] == ["Mara Voss"]
    assert roster.get(ash["id"]) is None


def test_edits_go_through_the_same_checks(roster, store, mara):
    richer = edited(mara, luck=7, notes="Owes money.")
    assert roster.update(richer) == []
    assert Roster(store).get(mara["id"])["luck"] == 7
    with pytest.raises(FieldError, match="luck: must be a whole number from 0 to 1000"):
        edited(mara, luck=-1)
    with pytest.raises(FieldError, match="id"):
        edited(mara, id=5)
    with pytest.raises(FieldError, match="no such character"):
        roster.update({**mara, "id": 42})


def test_swift_reads_and_writes_the_pool_sheet(mara):
    changed = with_sheet(mara, "swift", {"traits": {"Wits": 9}, "skills": {}})
    assert changed["sheets"]["pool"] == {"traits": {"Wits": 9}, "skills": {}}
    assert "swift" not in changed["sheets"]


BAD_SHEETS = [
    ("flip", {"aspects": {"XX": 1}}, "sheets.flip.aspects.XX"),
    ("flip", {"aspects": {"AI": 51}}, "sheets.flip.aspects.AI"),
    ("flip", {"aspects": {"AI": True}}, "sheets.flip.aspects.AI"),
    ("flip", {"skills": {"Basket Weaving": {"rank": 1}}}, "sheets.flip.skills.Basket Weaving"),
    ("flip", {"skills": {"Knowledge": {"rank": 1}}}, "sheets.flip.skills.Knowledge"),
    ("flip", {"skills": {"Knowledge:  ": {"rank": 1}}}, "sheets.flip.skills.Knowledge:"),
    ("flip", {"skills": {"Athletics: Rope": {"rank": 1}}}, "sheets.flip.skills.Athletics: Rope"),
    ("flip", {"skills": {"Athletics": {"rank": 53}}}, "sheets.flip.skills.Athletics.rank"),
    ("flip", {"skills": {"Athletics": {"rank": 1, "familiarity": True}}},
     "sheets.flip.skills.Athletics.familiarity"),
    ("flip", {"skills": {"Athletics": {"rank": 1, "specialization": 3}}},
     "sheets.flip.skills.Athletics.specialization"),
    ("flip", {"skills": ["Athletics"]}, "sheets.flip.skills"),
    ("pool", {"traits": {"Dexterity": 11}}, "sheets.pool.traits.Dexterity"),
    ("pool", {"traits": {}, "skills": {"Lockpicking": {"trait": "Dexterity", "score": 7}}},
     "sheets.pool.skills.Lockpicking.trait"),
    ("pool", {"traits": {"Dexterity": 5}, "skills": {"Lockpicking": {"trait": "Dexterity"}}},
     "sheets.pool.skills.Lockpicking.score"),
    ("fluke", {"stats": {"Strength": 0}}, "sheets.fluke.stats.Strength"),
    ("fluke", {"skills": {"": 2}}, "sheets.fluke.skills"),
    ("passages", {"skills": {"Lore": 101}}, "sheets.passages.skills.Lore"),
    ("passages", [], "sheets.passages"),
    ("passages", {"skills": {f"Skill {n}": 5 for n in range(101)}}, "sheets.passages.skills"),
]


@pytest.mark.parametrize(("system", "sheet", "field"), BAD_SHEETS)
def test_a_bad_sheet_names_its_field(mara, system, sheet, field):
    with pytest.raises(FieldError) as caught:
        with_sheet(mara, system, sheet)
    assert caught.value.field == field
    assert isinstance(caught.value, skillcheck.InvalidRequest)  # shown like any field error


SHEET_NUMBERS = [  # a number on a sheet, and the request field it fills
    ("flip", lambda n: {"aspects": {"AI": n}}, "flip", "aspect"),
    ("flip", lambda n: {"skills": {"Athletics": {"rank": n}}}, "flip", "rank"),
    ("pool", lambda n: {"traits": {"Dexterity": n}}, "pool", "trait"),
    ("pool", lambda n: {"traits": {"Dexterity": 5},
                        "skills": {"Lockpicking": {"trait": "Dexterity", "score": n}}}, "pool",
     "skill"),
    ("pool", lambda n: {"traits": {"Dexterity": 5}, "skills": {
        "Lockpicking": {"trait": "Dexterity", "score": 5, "bonus": n}}}, "pool", "bonus"),
    ("fluke", lambda n: {"stats": {"Strength": n}}, "fluke", "dice_count"),
    ("fluke", lambda n: {"skills": {"Sneak": n}}, "fluke", "dice_count"),
    ("passages", lambda n: {"skills": {"Lore": n}}, "passages", "base"),
]


@pytest.mark.parametrize(("sheet_of", "sheet", "system", "field"), SHEET_NUMBERS,
                         ids=[f"{s}.{f}" for s, _, _, f in SHEET_NUMBERS])
def test_a_sheet_number_takes_what_the_engine_takes_in_the_field_it_fills(
        mara, sheet_of, sheet, system, field):
    described = next(f for f in skillcheck.SYSTEMS[system]["fields"] if f["name"] == field)
    for n in (described["min"], described["max"]):
        with_sheet(mara, sheet_of, sheet(n))
    for n in (described["min"] - 1, described["max"] + 1):
        with pytest.raises(FieldError, match=f"from {described['min']} to {described['max']}$"):
            with_sheet(mara, sheet_of, sheet(n))


def test_every_aspect_of_the_seed_is_accepted(mara):
    sheet = {"aspects": {abbreviation: n for n, abbreviation in enumerate(ASPECTS)}}
    assert list(with_sheet(mara, "flip", sheet)["sheets"]["flip"]["aspects"]) == list(ASPECTS)


# ---- filling the form ----------------------------------------------------------------------------


def test_names_saved_in_another_case_load_spelled_as_the_engine_does():
    loaded = read_character({"id": 1, "name": "Mara", "sheets": {
        "flip": {"aspects": {"hs": 4}, "skills": {"athletics": {"rank": 2},
                                                  "knowledge:History": {"rank": 1}}},
        "pool": {"traits": {"Dexterity": 5},
                 "skills": {"Lockpicking": {"trait": "dexterity", "score": 7}}}}})
    assert loaded["sheets"]["flip"]["aspects"] == {"HS": 4}
    assert list(loaded["sheets"]["flip"]["skills"]) == ["Athletics", "Knowledge: History"]
    assert loaded["sheets"]["pool"]["skills"]["Lockpicking"]["trait"] == "Dexterity"
    with pytest.raises(FieldError) as twice:  # the same aspect in two cases: which one?
        read_character({"id": 1, "name": "Mara",
                        "sheets": {"flip": {"aspects": {"HS": 4, "hs": 2}}}})
    assert twice.value.field == "sheets.flip.aspects.HS"


def test_pickable_lists_skills_then_aspects_or_stats(mara):
    assert pickable(mara, "flip") == ["Athletics", "Knowledge: History", "Dueling", "Stealth",
                                      "AI", "HS", "SS"]
    assert pickable(mara, "fluke") == ["Sneak", "Intelligence"]
    assert pickable(mara, "swift") == ["Lockpicking", "Bluff"]
    assert pickable(read_character({"id": 1, "name": "New"}), "flip") == []


FILLS = [
    ("flip", "Athletics", {"rank": 2, "aspect": 2, "advanced": False, "familiarity": False,
                           "specialization": False}),
    ("flip", "Knowledge: History", {"rank": 0, "aspect": 3, "advanced": True,
                                    "familiarity": True, "specialization": False}),
    ("flip", "Dueling", {"rank": 1, "aspect": -1, "advanced": True, "familiarity": False,
                         "specialization": False}),
    ("flip", "AI", {"mode": "aspect", "aspect": 3}),
    ("pool", "Lockpicking", {"trait": 5, "skill": 7, "bonus": 1, "luck": 3}),
    ("swift", "Bluff", {"trait": 3, "skill": 4, "bonus": 0, "luck": 3}),
    ("fluke", "Sneak", {"dice_count": 4}),
    ("fluke", "Intelligence", {"dice_count": 2}),
    ("passages", "Lockpicking", {"base": 26}),
]
DIFFICULTY = {"flip": {"dtn": 12}, "pool": {"dr": 2}, "swift": {}, "fluke": {}, "passages": {}}


@pytest.mark.parametrize(("system", "name", "fields"), FILLS)
def test_fill_gives_the_request_fields_and_the_gm_adds_the_rest(mara, system, name, fields):
    assert fill(mara, system, name) == fields
    result = skillcheck.resolve({"system": system, **fields, **DIFFICULTY[system], "seed": 5})
    assert result["system"] == system


def test_fill_leaves_out_an_aspect_the_sheet_has_not_set(mara):
    sheet = {"skills": {"Persuasion": {"rank": 2}}}
    assert "aspect" not in fill(with_sheet(mara, "flip", sheet), "flip", "Persuasion")


def test_fill_offers_all_luck_up_to_the_contract_limit(mara):
    assert fill(edited(mara, luck=250), "pool", "Bluff")["luck"] == 100


def test_fill_refuses_what_is_not_on_the_sheet(mara):
    with pytest.raises(FieldError, match="Sneak is not on Mara's sheet for flip") as caught:
        fill(mara, "flip", "Sneak")
    assert caught.value.field == "skill"
    with pytest.raises(FieldError):
        fill(read_character({"id": 2, "name": "Blank"}), "passages", "Lockpicking")


# ---- Luck and XP ---------------------------------------------------------------------------------


def test_limits_are_the_stock(mara):
    assert limits(mara, "pool") == {"luck": 3} and limits(mara, "swift") == {"luck": 3}
    assert limits(mara, "fluke") == {"insurance": 4}  # 9 XP at 2 XP a point
    assert limits(edited(mara, xp=1000), "fluke") == {"insurance": 20}
    assert limits(mara, "flip") == {} and limits(mara, "passages") == {}


def test_spend_problem_refuses_before_rolling(mara):
    assert spend_problem(mara, {"system": "pool", "luck": 3}) is None
    assert spend_problem(mara, {"system": "pool", "luck": 4}) == (
        "Mara has 3 Luck: luck can be at most 3.")
    assert spend_problem(mara, {"system": "fluke", "insurance": 4}) is None
    assert spend_problem(mara, {"system": "fluke", "insurance": 5}) == (
        "Mara has 9 XP: insurance can be at most 4 (2 XP a point).")
    assert spend_problem(mara, {"system": "pool", "luck": "lots"}) is None  # the engine says so
    assert spend_problem(mara, {"system": "flip", "rank": 2}) is None


def test_within_limits_lowers_an_offer_to_what_is_left(mara):
    assert within_limits(mara, {"system": "pool", "trait": 6, "luck": 5}) == {
        "system": "pool", "trait": 6, "luck": 3}
    assert within_limits(mara, {"system": "fluke", "insurance": 9}) == {
        "system": "fluke", "insurance": 4}
    assert within_limits(mara, {"system": "swift", "luck": 2}) == {"system": "swift", "luck": 2}
    assert within_limits(mara, {"system": "pool", "luck": "lots"}) == {
        "system": "pool", "luck": "lots"}  # the engine names it
    assert within_limits(mara, {"system": "flip", "rank": 9}) == {"system": "flip", "rank": 9}
    for request in ({"system": "pool", "luck": 7}, {"system": "fluke", "insurance": 7}):
        assert spend_problem(mara, within_limits(mara, request)) is None


def pool_spending(luck_used: int) -> dict:
    return {"system": "pool", "outcome": "barely", "success": True, "luck_used": luck_used,
            "request": {"system": "pool", "trait": 3, "skill": 5, "dr": 3, "luck": luck_used,
                        "dice": [6, 7, 2]}}


def test_a_check_that_spends_luck_takes_it_and_says_so(mara):
    result = skillcheck.resolve({"system": "pool", "trait": 3, "skill": 5, "dr": 3, "luck": 3,
                                 "dice": [6, 7, 2]})
    assert result["luck_used"] == 3
    after, spend = apply_result(mara, result)
    assert after["luck"] == 0 and mara["luck"] == 3
    assert spend == {"character": 1, "name": "Mara", "system": "pool", "resource": "luck",
                     "amount": 3, "before": 3, "after": 0,
                     "text": "Mara spent 3 Luck (3 → 0)."}
    assert after["last_spend"] == {"system": "pool", "amount": 3}


def test_fluke_insurance_spends_xp_whether_needed_or_not(mara):
    result = skillcheck.resolve({"system": "fluke", "dice_count": 3, "insurance": 2,
                                 "dice": [6, 4, 5]})
    after, spend = apply_result(mara, result)
    assert (after["xp"], spend["resource"], spend["amount"]) == (5, "xp", 4)


def test_nothing_spent_means_no_record(mara):
    result = skillcheck.resolve({"system": "passages", "base": 40, "seed": 1})
    assert apply_result(mara, result) == (mara, None)
    assert apply_result(mara, pool_spending(0)) == (mara, None)


def test_luck_spent_after_the_roll_takes_only_the_rest(roster, mara):
    """Mara offers 3 Luck; the roll needed none; she then spends 2 on an offer, then 3: each
    re-judging of the same dice takes what the last one did not, and the offer is checked
    against what she has left plus what the dice already took."""
    rolled = skillcheck.resolve({"system": "pool", "trait": 3, "skill": 5, "dr": 2, "luck": 3,
                                 "dice": [2, 3, 9]})
    assert already_spent(rolled) == 0 and already_spent(None) == 0
    first = {**pool_spending(2), "request": {**pool_spending(2)["request"], "luck": 3}}
    character, record, _ = roster.spend(mara["id"], first, already_spent(rolled))
    assert (character["luck"], record["amount"]) == (1, 2)
    assert spend_problem(character, first["request"], already_spent(first)) is None
    assert spend_problem(character, first["request"]) == (
        "Mara has 1 Luck: luck can be at most 1.")
    character, record, _ = roster.spend(mara["id"], pool_spending(3), already_spent(first))
    assert (character["luck"], record["amount"], record["before"]) == (0, 1, 1)
    assert roster.spend(mara["id"], pool_spending(3), already_spent(pool_spending(3)))[1] is None


def test_what_a_check_already_took_is_its_systems_own_stock():
    fluke = skillcheck.resolve({"system": "fluke", "dice_count": 3, "insurance": 2,
                                "dice": [6, 4, 5]})
    assert already_spent(fluke) == 4  # XP, at 2 a point
    assert already_spent(skillcheck.resolve({"system": "flip", "rank": 2, "aspect": 3,
                                             "dtn": 12, "seed": 1})) == 0


def test_overspending_is_refused(mara):
    with pytest.raises(SpendError, match="Mara has only 3 Luck now, and this would spend 4: "
                                         "nothing was spent"):
        apply_result(mara, pool_spending(4))


def test_undo_gives_back_the_last_spend_once(mara):
    spent, _ = apply_result(mara, pool_spending(2))
    back, undo = undo_spend(spent)
    assert back["luck"] == 3 and back["last_spend"] is None
    assert (undo["before"], undo["after"], undo["amount"]) == (1, 3, 2)
    assert undo["text"] == "Undone: Mara got 2 Luck back (1 → 3)."
    with pytest.raises(SpendError, match="no spend to undo"):
        undo_spend(back)


def test_undo_survives_a_reload_and_every_spend_is_logged(store, roster, mara):
    log = RollLog(store)
    result = skillcheck.resolve({"system": "pool", "trait": 3, "skill": 5, "dr": 3, "luck": 3,
                                 "dice": [6, 7, 2]})
    assert spend_problem(mara, result["request"]) is None
    check, _ = log.record_check(result)
    after, spend = apply_result(mara, result)
    roster.update(after)
    spent, _ = log.record_spend(spend, check["id"])
    reloaded = Roster(store).get(mara["id"])
    assert reloaded["luck"] == 0
    back, undo = undo_spend(reloaded)
    roster.update(back)
    undone, _ = log.record_undo(undo)
    assert undone["undoes"] == spent["id"] and spent["check"] == check["id"]
    assert [e["kind"] for e in RollLog(store).entries()] == ["undo", "spend", "check"]
    assert Roster(store).get(mara["id"])["luck"] == 3


# ---- storage faults ------------------------------------------------------------------------------


def test_bad_characters_are_left_out_and_the_rest_kept(store, roster, mara):
    roster.create("Ash")
    document = json.loads(store.data[CHARACTERS_KEY])
    document["characters"][1]["luck"] = "plenty"
    raw = store.data[CHARACTERS_KEY] = json.dumps(document)
    again = Roster(store)
    assert [c["name"] for c in again.all()] == ["Mara"]
    assert "1 unreadable item" in again.warnings[0]
    assert [v for k, v in store.data.items() if ".corrupt-" in k] == [raw]
    assert Roster(store).warnings == []


@pytest.mark.parametrize("raw", ["<html>", "null", '{"version": 1, "kind": "skillcheck.log"}',
                                 '{"version": 1, "kind": "skillcheck.characters", '
                                 '"characters": {}, "next_id": 1}'])
def test_unreadable_characters_are_backed_up_and_the_app_starts(raw):
    store = MemoryStorage({CHARACTERS_KEY: raw})
    roster = Roster(store)
    assert roster.all() == [] and "could not be read" in roster.warnings[0]
    assert raw in store.data.values()
    roster.create("Fresh")
    assert [c["name"] for c in Roster(store).all()] == ["Fresh"]


def test_duplicate_names_or_ids_in_storage_keep_the_first(store, roster, mara):
    document = json.loads(store.data[CHARACTERS_KEY])
    document["characters"] += [{**mara, "id": 1, "name": "Other"}, {**mara, "name": "mara"}]
    document["next_id"] = 5
    store.data[CHARACTERS_KEY] = json.dumps(document)
    again = Roster(store)
    assert [c["id"] for c in again.all()] == [1] and "2 unreadable items" in again.warnings[0]


def test_a_full_storage_keeps_characters_for_the_session(mara):
    store = MemoryStorage(limit=2000, error=QuotaExceededError)
    roster = Roster(store)
    character, warnings = roster.create("Mara", sheets={"flip": FLIP, "pool": POOL})
    assert warnings == []
    ash, warnings = roster.create("Ash", notes="x" * 1500)
    assert "browser storage is full" in warnings[0] and roster.unsaved
    assert [c["name"] for c in roster.all()] == ["Ash", "Mara"]
    assert [c["name"] for c in Roster(MemoryStorage(dict(store.data))).all()] == ["Mara"]


# ---- files: export, then import into another browser ---------------------------------------------

ON = datetime(2026, 11, 29, 23, 59, tzinfo=UTC)


def imported(roster: Roster, text: str) -> tuple[int, int, list[str]]:
    """What the page does with a chosen file, once the player has said yes."""
    return roster.merge(read_file(text))


def test_export_then_import_into_an_empty_roster_gives_the_same_characters(store, roster, mara):
    roster.create("Ash", luck=1, notes="Two\nlines")
    text = roster.export_json()
    assert text == store.data[CHARACTERS_KEY]  # the file is the document storage keeps
    elsewhere = MemoryStorage()
    other = Roster(elsewhere)
    assert imported(other, text) == (2, 0, [])
    assert other.all() == roster.all()
    assert Roster(elsewhere).all() == roster.all()
    assert other.export_json() == text


def test_the_export_is_named_by_its_utc_date(store):
    roster = Roster(store, clock=lambda: ON.astimezone(timezone(timedelta(hours=-5))))
    assert roster.export_name() == "skillcheck-characters-2026-11-29.json"


def test_an_import_adds_with_new_ids_of_this_roster(store, roster, mara):
    text = roster.export_json()
    here = Roster(MemoryStorage())
    zed, _ = here.create("Zed")
    gone, _ = here.create("Gone")
    here.delete(gone["id"])
    assert imported(here, text) == (1, 0, [])
    assert [(c["name"], c["id"]) for c in here.all()] == [("Mara", 3), ("Zed", 1)]
    assert here.get(3)["sheets"] == mara["sheets"] and here.get(zed["id"]) == zed
    assert here.create("Next")[0]["id"] == 4


def test_a_character_named_like_one_here_replaces_it_and_keeps_its_id(store, roster, mara):
    roster.create("Ash")
    text = roster.export_json()
    here = Roster(MemoryStorage())
    old, _ = here.create("  MARA ", luck=0, notes="the old sheet")
    here.create("Zed")
    characters = read_file(text)
    assert here.replaced_by(characters) == [old]
    assert here.all()[0] == old  # asking changes nothing
    assert here.merge(characters) == (1, 1, [])
    replaced = here.get(old["id"])
    assert (replaced["name"], replaced["luck"], replaced["notes"]) == ("Mara", 3, mara["notes"])
    assert [c["name"] for c in here.all()] == ["Ash", "Mara", "Zed"]


def test_an_undo_recorded_elsewhere_is_dropped(roster, mara):
    spent, _ = apply_result(mara, pool_spending(2))
    roster.update(spent)
    assert json.loads(roster.export_json())["characters"][0]["last_spend"] is not None
    here = Roster(MemoryStorage())
    imported(here, roster.export_json())
    arrived = here.all()[0]
    assert arrived["luck"] == 1 and arrived["last_spend"] is None
    with pytest.raises(SpendError, match="no spend to undo"):
        undo_spend(arrived)


def test_an_import_going_over_the_limit_is_refused_and_changes_nothing(roster, mara):
    roster.create("Ash")
    here_store = MemoryStorage()
    here = Roster(here_store)
    for n in range(MOST_CHARACTERS - 1):
        here.create(f"Local {n}")
    before = here_store.data[CHARACTERS_KEY]
    with pytest.raises(CharactersFileError, match=f"there would be 201 characters and this page "
                                                  f"keeps at most {MOST_CHARACTERS}"):
        imported(here, roster.export_json())
    assert here_store.data[CHARACTERS_KEY] == before and len(here.all()) == MOST_CHARACTERS - 1
    roster.rename(roster.all()[0]["id"], "local 7")  # one replaces: exactly at the limit
    assert imported(here, roster.export_json()) == (1, 1, [])
    assert len(here.all()) == MOST_CHARACTERS


def test_a_full_storage_is_said_after_an_import(roster, mara):
    here = Roster(MemoryStorage(limit=100, error=QuotaExceededError))
    added, replaced, warnings = imported(here, roster.export_json())
    assert (added, replaced) == (1, 0) and "browser storage is full" in warnings[0]


def as_file(*characters, **changes) -> str:
    return json.dumps({"version": 1, "kind": "skillcheck.characters", "next_id": 9,
                       "characters": list(characters), **changes})


MARA = {"id": 1, "name": "Mara", "luck": 3, "sheets": {"pool": POOL}}
BAD_FILES = [
    ("{characters: oops", "it is not valid JSON"),
    ("[1, 2]", "it is not a Skill Check file"),
    ('{"version": 1, "kind": "skillcheck.log", "entries": [], "next_id": 1}',
     "it is not a Skill Check file of the right kind"),
    (as_file(MARA, version=2),
     "it was saved by a newer version of Skill Check (format 2)"),
    (as_file(MARA, version="1"), "its format version is not one this page reads"),
    (as_file(MARA) + " " * LONGEST_FILE, "it is larger than 4,000,000 characters"),
    (as_file(characters={"1": MARA}), "characters: must be a list"),
    (as_file(MARA, next_id=None), "next_id: must be a whole number"),
    (as_file(), "it holds no characters"),
    (as_file(*({**MARA, "id": n, "name": f"N{n}"} for n in range(1, 202))),
     "it holds 201 characters and this page keeps at most 200"),
    (as_file(MARA, {"id": 2, "name": "Ash", "luck": "plenty"}),
     "character 2 (Ash), luck: must be a whole number from 0 to 1000"),
    (as_file("Mara"), "character 1, character: must be an object of named fields"),
    (as_file({**MARA, "name": " "}), "character 1, name: must not be empty"),
    (as_file({**MARA, "notes": "a\x00b"}), "character 1 (Mara), notes: must not hold control"),
    (as_file({**MARA, "sheets": {"pool": {**POOL, "traits": {"Wits": 3}}}}),
     "character 1 (Mara), sheets.pool.skills.Lockpicking.trait: must be one of the character's"),
    (as_file({**MARA, "sheets": {"cards": {}}}), "character 1 (Mara), sheets.cards: must be one"),
    (as_file({**MARA, "last_spend": {"system": ["pool"], "amount": 1}}),
     "character 1 (Mara), last_spend.system: must be a system that spends a resource"),
    (as_file(MARA, {**MARA, "id": 2, "name": "MARA"}), "two characters are called MARA"),
    (as_file(MARA, {**MARA, "name": "Ash"}), "two characters have the id 1"),
]


@pytest.mark.parametrize(("text", "words"), BAD_FILES)
def test_a_bad_file_is_refused_whole_naming_the_problem(store, roster, mara, text, words):
    before = dict(store.data)
    with pytest.raises(CharactersFileError) as caught:
        imported(roster, text)
    assert str(caught.value).startswith(f"This file could not be imported: {words}")
    assert str(caught.value).endswith(". Your characters were not changed.")
    assert store.data == before and roster.all() == [mara]


def test_a_file_holding_a_good_character_is_read_exactly(mara):
    assert read_file(as_file(MARA)) == [read_character(MARA)]


def test_the_question_names_how_many_are_replaced():
    one = [{"name": "Mara"}]
    assert import_question(3, one) == (
        "Import 3 characters? It replaces Mara, the character here with the same name: their "
        "sheet, Luck and XP here are overwritten.")
    five = [{"name": n} for n in "ABCDE"]
    assert import_question(5, five) == (
        "Import 5 characters? It replaces 5 characters here with the same names (A, B, C and "
        "2 more): their sheets, Luck and XP here are overwritten.")
    assert import_summary(2, 1) == "Imported 3 characters (1 replaced)."
    assert import_summary(1, 0) == "Imported 1 character."


# Anything at all: only CharactersFileError comes out, and what is read in is a valid character.
NAMES = st.sampled_from(["Mara", "mara", "", " ", "HS", "AI", "Athletics", "Knowledge: History",
                         "Knowledge:", "Dexterity", "x" * 61, "a\nb"])
JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.floats() | NAMES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=12)
ENTRY = st.fixed_dictionaries({}, optional={
    "rank": JUNK, "trait": JUNK, "score": JUNK, "bonus": JUNK, "familiarity": JUNK,
    "specialization": JUNK}) | JUNK
SHEET = st.fixed_dictionaries({}, optional={
    group: st.dictionaries(NAMES, ENTRY, max_size=3) | JUNK
    for group in ("aspects", "skills", "traits", "stats")})
CHARACTER = st.fixed_dictionaries({}, optional={
    "id": st.integers(0, 3) | JUNK, "name": NAMES | JUNK, "notes": JUNK, "luck": JUNK,
    "xp": JUNK, "last_spend": st.fixed_dictionaries({"system": JUNK, "amount": JUNK}) | JUNK,
    "sheets": st.dictionaries(st.sampled_from(["flip", "pool", "fluke", "passages", "swift"]),
                              SHEET | JUNK, max_size=4) | JUNK}) | JUNK


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=40),
                 JUNK.map(json.dumps),
                 st.lists(CHARACTER, max_size=3).map(lambda raws: as_file(*raws)),
                 st.dictionaries(st.sampled_from(["version", "kind", "next_id", "characters"]),
                                 JUNK).map(json.dumps)))
def test_any_file_gives_characters_or_the_one_error(text):
    try:
        characters = read_file(text)
    except CharactersFileError as error:
        assert str(error).startswith("This file could not be imported: ")
        return
    assert characters == [read_character(c) for c in characters]
    roster = Roster(MemoryStorage())
    assert roster.merge(characters)[:2] == (len(characters), 0)


# ---- the same character edited or spent in two tabs at once (issue 34) -------------------------

def test_an_edit_is_merged_field_by_field_on_top_of_what_another_tab_saved(mara):
    theirs = with_sheet(edited(mara, notes="Owes the guild."), "pool", {**POOL, "traits": {
        "Dexterity": 6, "Wits": 3}})
    mine = with_sheet(edited(mara, xp=40, name="Mara Vey"), "flip", {**FLIP, "aspects": {
        "AI": 4, "HS": 2, "SS": -1}})
    merged, conflicts = merge_edit(mara, mine, theirs)
    assert conflicts == []
    assert (merged["name"], merged["notes"], merged["xp"]) == ("Mara Vey", "Owes the guild.", 40)
    assert merged["sheets"]["pool"]["traits"]["Dexterity"] == 6  # theirs
    assert merged["sheets"]["flip"]["aspects"]["AI"] == 4  # mine


def test_a_field_both_tabs_changed_differently_is_a_conflict_and_keeps_the_stored_one(mara):
    theirs = with_sheet(edited(mara, xp=20), "pool", {**POOL, "skills": {}})
    mine = with_sheet(edited(mara, xp=30, notes="Mine."), "pool", {**POOL, "traits": {
        "Dexterity": 5, "Wits": 4}})
    merged, conflicts = merge_edit(mara, mine, theirs)
    assert conflicts == ["xp", "sheets.pool"]
    assert merged["xp"] == 20 and merged["sheets"]["pool"] == theirs["sheets"]["pool"]
    same, none = merge_edit(mara, edited(mara, xp=20), theirs)  # the same change: no conflict
    assert none == [] and same["xp"] == 20


def test_a_sheet_taken_away_in_one_tab_stays_away_when_the_other_edits_elsewhere(mara):
    theirs = edited(mara, sheets={k: v for k, v in mara["sheets"].items() if k != "fluke"})
    merged, conflicts = merge_edit(mara, edited(mara, luck=5), theirs)
    assert conflicts == [] and "fluke" not in merged["sheets"] and merged["luck"] == 5


def test_a_save_that_conflicts_saves_nothing_and_says_what_is_stored(roster, mara):
    roster.update(edited(mara, xp=20, notes="Theirs."))
    with pytest.raises(EditConflict) as conflict:
        roster.save_edit(mara, edited(mara, xp=30, luck=1))
    assert conflict.value.fields == ["xp"] and conflict.value.stored["notes"] == "Theirs."
    assert roster.get(mara["id"])["luck"] == 3  # the Luck edit is not saved either
    roster.delete(mara["id"])
    with pytest.raises(EditConflict) as gone:
        roster.save_edit(mara, edited(mara, xp=30))
    assert gone.value.stored is None


def test_only_the_luck_offers_the_stock_still_pays_are_offered(mara):
    result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 5,
                                 "dice": [1, 2, 9, 9, 3]})
    assert [o["luck_spend"] for o in result["luck_offers"]] == [2, 4]
    assert [o["luck_spend"] for o in affordable(mara, result)] == [2]  # Luck 3
    assert affordable(edited(mara, luck=1), result) == []


def test_a_check_capped_by_the_stock_stored_now_says_so(mara):
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 5}
    capped = within_limits(mara, request)
    assert capped["luck"] == 3
    assert capped_text(mara, request, capped) == (
        "Mara has only 3 Luck now: Luck 3 was used for this check, not 5.")
    assert capped_text(mara, capped, capped) is None
