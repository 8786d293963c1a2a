"""The roll log: order, filters, persistence, export/import, the cap, and storage faults."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import skillcheck
from app import collection, log_html, log_model
from app.log_model import (
    LOG_KEY,
    LogFileError,
    RollLog,
    changed_since,
    draw_of,
    reveal_request,
    strip_draw,
    summarize,
)
from app.storage import MemoryStorage


class Clock:
    """A clock that moves one second per reading, so every entry has its own time."""

    def __init__(self):
        self.now = datetime(2026, 11, 29, 18, 0, 0, tzinfo=UTC)

    def __call__(self):
        self.now += timedelta(seconds=1)
        return self.now


class QuotaExceededError(Exception):
    """Stands in for the browser's DOMException: any exception class must be handled."""


def passages(base: int, roll: int) -> dict:
    return skillcheck.resolve({"system": "passages", "base": base, "dice": [roll]})


def pool_result(outcome="basic", success=True, **fields) -> dict:
    request = {"system": "pool", "trait": 4, "skill": 7, "dr": 3, "dice": [2, 9, 5, 7], **fields}
    return {"system": "pool", "outcome": outcome, "success": success, "request": request}


def spend(amount=2, before=5, character=1) -> dict:
    return {"character": character, "name": "Mara", "system": "pool", "resource": "luck",
            "amount": amount, "before": before, "after": before - amount,
            "text": f"Mara spent {amount} Luck ({before} → {before - amount})."}


@pytest.fixture
def store():
    return MemoryStorage()


@pytest.fixture
def log(store):
    return RollLog(store, clock=Clock())


def filled(log: RollLog) -> RollLog:
    log.record_check(passages(40, 12))
    log.record_check(pool_result())
    log.record_check(passages(40, 99))
    return log


# ---- requests ------------------------------------------------------------------------------------


def test_strip_draw_removes_every_draw_and_seed_at_any_depth():
    request = {"system": "flip", "mode": "team", "dtn": 15, "seed": 4,
               "primary": {"rank": 2, "aspect": 3, "cards": ["7H", "KS"], "keep": 0},
               "secondaries": [{"rank": 1, "aspect": 1, "cards": ["2C"]}]}
    assert strip_draw(request) == {"system": "flip", "mode": "team", "dtn": 15,
                                   "primary": {"rank": 2, "aspect": 3},
                                   "secondaries": [{"rank": 1, "aspect": 1}]}
    assert request["primary"]["cards"] == ["7H", "KS"]  # the original is left alone


def test_strip_draw_leaves_out_the_luck_chosen_after_the_roll():
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 5, "luck_spend": 4,
               "dice": [1, 2, 9, 9, 3]}
    assert strip_draw(request) == {"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 5}
    # the log still says what was chosen, in the player's words
    assert "Luck 5 offered (4 spent)" in summarize(request, {"luck_used": 4})


def test_draw_of_names_each_draw_by_its_path():
    request = {"system": "flip", "mode": "opposed",
               "initiator": {"rank": 2, "cards": ["7H", "KS"]},
               "opponent": {"rank": 1, "cards": ["2C"]},
               "secondaries": [{"cards": ["AS"]}]}
    assert draw_of(request) == {"initiator.cards": ["7H", "KS"], "opponent.cards": ["2C"],
                                "secondaries.0.cards": ["AS"]}
    assert draw_of({"system": "pool", "dice": [1, 2]}) == {"dice": [1, 2]}


def test_summary_leaves_out_draw_and_defaults():
    request = {"system": "pool", "trait": 4, "skill": 7, "dr": 3, "bonus": 0, "luck": 2,
               "secret": False, "dice": [1, 2, 3, 4], "seed": 9}
    assert summarize(request) == "Trait 4, Skill 7, DR 3, Luck 2"
    flip = {"system": "flip", "mode": "opposed", "initiator": {"rank": 2, "familiarity": True},
            "opponent": {"rank": 1}}
    assert summarize(flip) == "Initiator rank 2, familiarity vs Opponent rank 1"
    assert len(summarize({"system": "flip", "rank": 10**400})) == log_model.LONGEST_SUMMARY


def test_a_logged_check_without_its_draw_resolves_afresh_to_the_same_inputs(log):
    result = skillcheck.resolve({"system": "passages", "base": 55, "contested": True, "seed": 8})
    log.record_check(result)
    again = strip_draw(log.last_check()["request"])  # the one-tap re-roll
    assert "dice" not in again and "seed" not in again
    assert skillcheck.resolve(again)["request"]["base"] == 55
    assert log.last_check("pool") is None


# ---- appending, order, filters -------------------------------------------------------------------


def test_entries_are_newest_first_and_filter_by_system(log):
    filled(log)
    assert [e["id"] for e in log.entries()] == [3, 2, 1]
    assert [e["id"] for e in log.entries("passages")] == [3, 1]
    assert [e["system"] for e in log.entries("pool")] == ["pool"]
    assert log.entries("fluke") == []
    assert len(log) == 3
    newest = log.entries()[0]
    assert newest["kind"] == "check" and newest["outcome"] == "blown"
    assert newest["success"] is False and newest["request"]["dice"] == [99]
    assert newest["summary"] == "Base 40"
    assert newest["time"] == "2026-11-29T18:00:03Z"
    assert log.get(2)["system"] == "pool" and log.get(99) is None


def test_a_check_keeps_who_rolled_it_and_its_reveal_and_amend_keep_it_too(store, log):
    secret = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "secret": True,
                                 "dice": [6, 3, 7, 1, 2]})
    entry, _ = log.record_check(secret, who={"name": "Mara", "skill": "Stealth"})
    revealed = skillcheck.resolve(reveal_request(entry, {"dr": 2}))
    reveal, _ = log.record_reveal(entry["id"], revealed)
    assert (reveal["name"], reveal["skill"]) == ("Mara", "Stealth")
    plain, _ = log.record_check(passages(40, 12), who={"name": "Bo"})
    assert plain["name"] == "Bo" and "skill" not in plain
    amended, _ = log.amend_check(plain["id"], passages(40, 13))
    assert amended["name"] == "Bo"
    assert "name" not in log.record_check(passages(40, 12))[0]
    assert RollLog(store).get(entry["id"]) == entry  # kept across a reload
    raw = json.loads(store.get(LOG_KEY))
    raw["entries"][0]["name"] = 7
    store.set(LOG_KEY, json.dumps(raw))
    assert RollLog(store).get(entry["id"]) is None  # a name that is not text is refused


def test_search_and_character_narrow_the_log_and_one_entry_can_be_deleted(store, log):
    log.record_check(passages(40, 12), who={"name": "Mara", "skill": "Sneak"})
    log.record_check(pool_result(), who={"name": "bo"})
    log.record_check(passages(40, 99))
    assert log.names() == ["bo", "Mara"]
    assert [e["id"] for e in log.entries(name="Mara")] == [1]
    assert [e["id"] for e in log.entries(search="passages")] == [3, 1]
    assert [e["id"] for e in log.entries(search="  SNEAK  base ")] == [1]
    assert [e["id"] for e in log.entries(search="blown")] == [3]
    assert log.entries("pool", "Mara") == []
    other = RollLog(store)  # another tab
    assert log.delete(2) == []
    assert [e["id"] for e in log.entries()] == [3, 1]
    assert other.refresh() and [e["id"] for e in other.entries()] == [3, 1]
    other.record_check(passages(40, 5))
    assert [e["id"] for e in RollLog(store).entries()] == [4, 3, 1]


def test_the_log_survives_a_reload(store, log):
    filled(log)
    again = RollLog(store)
    assert again.entries() == log.entries()
    assert again.warnings == []
    entry, _ = again.record_check(passages(10, 1))
    assert entry["id"] == 4


def test_clear_empties_the_stored_log_and_ids_keep_counting(store, log):
    filled(log)
    assert log.clear() == []
    assert log.entries() == [] and RollLog(store).entries() == []
    entry, _ = log.record_check(passages(10, 1))
    assert entry["id"] == 4


def test_an_entry_is_validated_before_it_is_added(log):
    with pytest.raises(ValueError, match="system"):
        log.record_check({"system": "chess", "outcome": "x", "success": True,
                          "request": {"system": "chess"}})
    with pytest.raises(ValueError, match="request"):
        log.record_check(pool_result(system="fluke"))
    assert len(log) == 0


def test_another_card_kept_amends_the_flips_entry_keeping_its_id_and_time(store, log):
    request = {"system": "flip", "rank": 3, "aspect": 2, "dtn": 9, "cards": ["2S", "KH", "7D"]}
    first, _ = log.record_check(skillcheck.resolve(request))
    log.record_check(passages(50, 20))
    chosen = skillcheck.resolve({**request, "keep": 0})
    amended, warnings = log.amend_check(first["id"], chosen)
    assert warnings == [] and len(log) == 2
    assert (amended["id"], amended["time"]) == (first["id"], first["time"])
    assert amended["request"]["keep"] == 0 and amended["outcome"] == chosen["outcome"]
    assert first["success"] is True and amended["success"] is False
    assert RollLog(store).get(first["id"]) == amended  # saved


def test_amending_a_check_no_longer_in_the_log_logs_it_afresh(log):
    gone, _ = log.record_check(passages(50, 20))
    log.clear()
    entry, _ = log.amend_check(gone["id"], passages(50, 30))
    assert entry["id"] != gone["id"] and [e["id"] for e in log.entries()] == [entry["id"]]
    spend = log.record_spend({"system": "pool", "text": "x", "character": 1, "name": "A",
                              "resource": "luck", "amount": 1, "before": 2, "after": 1})[0]
    assert log.amend_check(spend["id"], passages(50, 40))[0]["kind"] == "check"
    assert len(log) == 3


def test_another_tabs_change_to_a_shown_roll_is_named_from_the_stored_entry(store, log):
    """The roll on screen against its entry as another tab saved it: withdrawn, judged again
    (its request amended), or unchanged, read back from storage as the other tab wrote it."""
    request = {"system": "flip", "rank": 3, "aspect": 2, "dtn": 9, "cards": ["2S", "KH", "7D"]}
    shown, _ = log.record_check(skillcheck.resolve(request))
    elsewhere = RollLog(store, clock=Clock())  # the other tab's copy of the same log
    assert changed_since(shown, RollLog(store).get(shown["id"])) is None
    elsewhere.amend_check(shown["id"], skillcheck.resolve({**request, "keep": 0}))
    assert changed_since(shown, RollLog(store).get(shown["id"])) == "rejudged"
    elsewhere.withdraw(shown["id"])
    assert changed_since(shown, RollLog(store).get(shown["id"])) == "withdrawn"
    withdrawn = RollLog(store).get(shown["id"])
    assert changed_since(withdrawn, withdrawn) is None  # told once, not at every save
    elsewhere.clear()
    assert changed_since(shown, RollLog(store).get(shown["id"])) is None


def test_reveal_is_linked_to_the_secret_check(log):
    secret, _ = log.record_check(pool_result("secret", None, secret=True, dr=None))
    request = reveal_request(secret, {"dr": 2})
    assert request["secret"] and request["dr"] == 2 and request["dice"] == [2, 9, 5, 7]
    reveal, _ = log.record_reveal(secret["id"], {"system": "pool", "outcome": "success",
                                                 "success": True, "request": request})
    assert reveal["kind"] == "reveal" and reveal["reveals"] == secret["id"]
    assert reveal["summary"].startswith("Revealed: ")
    line = log_html.entry_html(reveal, str)  # the list says "Revealed" once, before the outcome
    assert line.count("Revealed") == 1 and "Revealed: Success" in line
    with pytest.raises(ValueError, match="not a secret check"):
        log.record_reveal(reveal["id"], pool_result())


def test_the_reveal_of_a_seeded_check_keeps_its_seed(store, log):
    secret, _ = log.record_check(pool_result("secret", None, secret=True, dr=None), seed=42)
    judged = skillcheck.resolve(reveal_request(secret, {"dr": 2}))
    reveal, _ = log.record_reveal(secret["id"], judged)
    assert reveal["seed"] == 42
    assert RollLog(store).get(reveal["id"])["seed"] == 42  # read back from storage
    plain, _ = log.record_check(pool_result("secret", None, secret=True, dr=None))
    assert "seed" not in log.record_reveal(plain["id"], judged)[0]


def test_reveal_of_a_real_secret_pool_check_judges_the_same_dice(log):
    secret_result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 6, "secret": True,
                                        "seed": 3})
    secret, _ = log.record_check(secret_result)
    assert secret["outcome"] == "secret"
    judged = skillcheck.resolve(reveal_request(secret, {"dr": 3}))
    assert judged["dice"] == secret_result["dice"]
    reveal, _ = log.record_reveal(secret["id"], judged)
    assert reveal["outcome"] == judged["outcome"]


def test_a_secret_pool_revealed_above_its_trait_is_too_difficult_with_its_dice(log):
    # "task is too difficult" (Trait below DR), but the dice were rolled under a secret DR.
    secret_result = skillcheck.resolve({"system": "pool", "trait": 3, "skill": 6, "secret": True,
                                        "seed": 3})
    secret, _ = log.record_check(secret_result)
    judged = skillcheck.resolve(reveal_request(secret, {"dr": 4}))
    assert judged["outcome"] == "too difficult" and judged["dice"] == secret_result["dice"]


def test_spend_and_undo_entries_link_to_their_check_and_spend(log):
    check, _ = log.record_check(pool_result())
    spent, _ = log.record_spend(spend(), check["id"])
    assert spent["kind"] == "spend" and spent["check"] == check["id"]
    assert (spent["amount"], spent["before"], spent["after"]) == (2, 5, 3)
    undo = {**spend(), "before": 3, "after": 5, "text": "Mara got 2 Luck back."}
    undone, _ = log.record_undo(undo)
    assert undone["kind"] == "undo" and undone["undoes"] == spent["id"]
    assert [e["kind"] for e in log.entries("pool")] == ["undo", "spend", "check"]


# ---- export and import ---------------------------------------------------------------------------


def test_export_import_round_trip_is_exact(log):
    filled(log)
    log.record_spend(spend(), 2)
    text = log.export_json()
    other = RollLog(MemoryStorage(), clock=Clock())
    other.record_check(passages(1, 1))
    count, warnings = other.import_json(text)
    assert (count, warnings) == (4, [])
    assert other.entries() == log.entries()
    assert other.export_json() == text
    assert json.loads(text)["version"] == 1
    assert log.export_name() == "skillcheck-log-2026-11-29.json"
    entry, _ = other.record_check(passages(1, 1))
    assert entry["id"] == 5


def good_file(log) -> dict:
    return json.loads(filled(log).export_json())


def edit(document: dict, change) -> str:
    change(document)
    return json.dumps(document)


BAD_FILES = {
    "not JSON": lambda log: "{not json",
    "a list": lambda log: "[]",
    "empty": lambda log: "",
    "bytes": lambda log: b'{"version": 1}',
    "another kind": lambda log: edit(good_file(log), lambda d: d.update(kind="other")),
    "newer version": lambda log: edit(good_file(log), lambda d: d.update(version=2)),
    "version as text": lambda log: edit(good_file(log), lambda d: d.update(version="1")),
    "entries not a list": lambda log: edit(good_file(log), lambda d: d.update(entries={})),
    "no next_id": lambda log: edit(good_file(log), lambda d: d.pop("next_id")),
    "bad time": lambda log: edit(good_file(log), lambda d: d["entries"][1].update(time="noon")),
    "naive time": lambda log: edit(good_file(log),
                                   lambda d: d["entries"][0].update(time="2026-11-29T18:00:00")),
    "bad kind": lambda log: edit(good_file(log), lambda d: d["entries"][0].update(kind="x")),
    "bool id": lambda log: edit(good_file(log), lambda d: d["entries"][0].update(id=True)),
    "shared id": lambda log: edit(good_file(log), lambda d: d["entries"][1].update(id=1)),
    "id past next_id": lambda log: edit(good_file(log), lambda d: d["entries"][0].update(id=50)),
    "summary not text": lambda log: edit(good_file(log),
                                         lambda d: d["entries"][0].update(summary=["<b>"])),
    "control characters": lambda log: edit(good_file(log),
                                           lambda d: d["entries"][0].update(summary="a\x00b")),
    "request of another system": lambda log: edit(
        good_file(log), lambda d: d["entries"][0]["request"].update(system="pool")),
    "success as text": lambda log: edit(good_file(log),
                                        lambda d: d["entries"][0].update(success="yes")),
    "too many entries": lambda log: edit(
        good_file(log), lambda d: d.update(entries=d["entries"] * 2000, next_id=10**6)),
    "deeply nested": lambda log: '{"version":1,"kind":"skillcheck.log","entries":'
                                 + "[" * 100000 + "]" * 100000 + "}",
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_a_bad_import_is_refused_clearly_and_leaves_the_log_untouched(name, store):
    log = filled(RollLog(store, clock=Clock()))
    before, stored = log.entries(), store.data[LOG_KEY]
    with pytest.raises(LogFileError, match=r"^This file could not be imported: .+ "
                                           r"Your log was not changed\.$"):
        log.import_json(BAD_FILES[name](RollLog(MemoryStorage(), clock=Clock())))
    assert log.entries() == before and store.data[LOG_KEY] == stored


@pytest.mark.parametrize("seed", [-1, 2**63, "42", True])
def test_an_entrys_seed_must_be_a_seed(log, seed):
    text = edit(good_file(filled(RollLog(MemoryStorage(), clock=Clock()))),
                lambda d: d["entries"][0].update(seed=seed))
    with pytest.raises(LogFileError, match="entry 1: seed: must be a whole number"):
        log.import_json(text)


def test_import_message_names_the_bad_entry_and_field(log):
    text = edit(good_file(log), lambda d: d["entries"][1].update(time="noon"))
    with pytest.raises(LogFileError, match="entry 2: time: must be an ISO 8601 time"):
        log.import_json(text)


# ---- the cap -------------------------------------------------------------------------------------


def test_the_oldest_are_dropped_only_over_the_cap_and_the_player_is_told_once(store):
    log = RollLog(store, cap=3, clock=Clock())
    warnings = [log.record_check(passages(50, n))[1] for n in range(1, 4)]
    assert warnings == [[], [], []] and log.dropped == 0
    _, first = log.record_check(passages(50, 4))
    _, second = log.record_check(passages(50, 5))
    assert len(first) == 1 and "newest 3" in first[0] and second == []
    assert [e["request"]["dice"] for e in log.entries()] == [[5], [4], [3]]
    assert log.dropped == 2
    assert len(RollLog(store).entries()) == 3


def test_an_append_serialises_one_entry_however_long_the_log(store, monkeypatch):
    log = RollLog(store, clock=Clock())
    for n in range(1, 201):
        log.record_check(passages(50, n % 100 + 1))
    calls = []
    real = log_model.dump
    monkeypatch.setattr(log_model, "dump", lambda doc: calls.append(doc) or real(doc))
    monkeypatch.setattr(collection, "dump", lambda doc: calls.append(doc) or real(doc))
    log.record_check(passages(50, 7))
    # one dump of the new entry, one of the envelope's small head
    assert len(calls) == 2 and calls[1]["entries"] == []
    assert len(json.loads(store.data[LOG_KEY])["entries"]) == 201


# ---- storage faults ------------------------------------------------------------------------------


def backups(store) -> dict:
    return {k: v for k, v in store.data.items() if ".corrupt-" in k}


@pytest.mark.parametrize("raw", ["{not json", "[1, 2]", '"text"', '{"version": 1}',
                                 '{"version": 1, "kind": "skillcheck.log", "entries": 5, '
                                 '"next_id": 1}', '{"version": 0, "kind": "skillcheck.log"}'])
def test_unreadable_storage_is_backed_up_and_the_log_starts_afresh(raw):
    store = MemoryStorage({LOG_KEY: raw})
    log = RollLog(store, clock=Clock())
    assert log.entries() == [] and len(log.warnings) == 1
    (key, kept), = backups(store).items()
    assert kept == raw and key.startswith("skillcheck.log.corrupt-2026-11-29T180001Z")
    assert key in log.warnings[0] and "could not be read" in log.warnings[0]
    # the clean log was written at once, so the next start has nothing to say or back up
    again = RollLog(store, clock=Clock())
    assert again.warnings == [] and len(backups(store)) == 1
    log.record_check(passages(5, 5))
    assert len(RollLog(store).entries()) == 1


def test_a_partly_bad_log_keeps_its_valid_entries(store):
    filled(RollLog(store, clock=Clock()))
    document = json.loads(store.data[LOG_KEY])
    document["entries"][1]["success"] = "maybe"
    document["entries"].append("junk")
    raw = store.data[LOG_KEY] = json.dumps(document)
    log = RollLog(store, clock=Clock())
    assert [e["id"] for e in log.entries()] == [3, 1]
    assert "had 2 unreadable items" in log.warnings[0]
    assert list(backups(store).values()) == [raw]


def deep_request(levels: int) -> dict:
    request = passages(40, 12)["request"]
    request["notes"] = json.loads("[" * levels + "]" * levels)
    return request


def test_a_stored_request_nested_too_deep_is_set_aside_and_the_rest_loads(store, log):
    filled(log)
    data = json.loads(store.data[LOG_KEY])
    data["entries"][0]["request"] = deep_request(50)
    raw = store.data[LOG_KEY] = json.dumps(data)
    again = RollLog(store, clock=Clock())
    assert len(again) == 2 and "1 unreadable item" in again.warnings[0]
    assert list(backups(store).values()) == [raw]
    for entry in again.entries():
        draw_of(entry["request"])  # what drawing the log walks: no RecursionError


def test_an_imported_request_nested_too_deep_is_refused(log):
    text = edit(good_file(filled(RollLog(MemoryStorage(), clock=Clock()))),
                lambda d: d["entries"][0].update(request=deep_request(50)))
    with pytest.raises(LogFileError, match="entry 1: request: must not nest more than"):
        log.import_json(text)
    assert len(log) == 0


def test_a_second_backup_in_the_same_second_gets_its_own_key():
    clock = lambda: datetime(2026, 1, 1, tzinfo=UTC)  # noqa: E731
    store = MemoryStorage({LOG_KEY: "bad"})
    RollLog(store, clock=clock)
    store.data[LOG_KEY] = "bad again"
    RollLog(store, clock=clock)
    assert sorted(backups(store).values()) == ["bad", "bad again"]


def test_a_log_from_a_newer_version_is_left_alone(store):
    raw = store.data[LOG_KEY] = json.dumps({"version": 2, "kind": "skillcheck.log"})
    log = RollLog(store, clock=Clock())
    assert "newer version" in log.warnings[0] and log.unsaved
    log.record_check(passages(5, 5))
    assert len(log) == 1 and store.data == {LOG_KEY: raw}


def test_a_full_storage_drops_the_oldest_so_the_newest_fits_and_says_how_many():
    store = MemoryStorage(limit=1500, error=QuotaExceededError)
    log = RollLog(store, clock=Clock())
    results = [log.record_check(passages(50, n))[1] for n in range(1, 12)]
    shed = [(n, warnings) for n, warnings in enumerate(results) if warnings]
    assert shed and all("Browser storage is full: the oldest" in w[0] for _, w in shed)
    assert not log.unsaved
    stored = RollLog(MemoryStorage(dict(store.data))).entries()
    assert stored == log.entries() and stored[0]["request"]["dice"] == [11]
    assert [e["request"]["dice"][0] for e in stored] == list(range(11, 11 - len(stored), -1))
    # the fewest were dropped: one more entry would not have fitted
    one_more = len(log_model.dump(stored[-1])) + 1
    assert len(LOG_KEY) + len(store.data[LOG_KEY]) + one_more > store.limit


def test_a_storage_that_takes_nothing_keeps_the_log_in_memory_and_warns_once():
    store = MemoryStorage(limit=10, error=QuotaExceededError)
    log = RollLog(store, clock=Clock())
    results = [log.record_check(passages(50, n))[1] for n in range(1, 4)]
    assert "browser storage is full" in results[0][0] and results[1:] == [[], []]
    assert len(log) == 3 and log.unsaved and store.data == {}
    store.limit = None
    assert log.record_check(passages(50, 7))[1] == [] and not log.unsaved
    assert len(RollLog(store).entries()) == 4


def test_the_log_is_capped_by_size_as_well_as_count(store):
    log = RollLog(store, biggest=2000, clock=Clock())
    warnings = [log.record_check(passages(50, n % 100 + 1))[1] for n in range(40)]
    assert sum(1 for w in warnings if w) == 1 and "newest 5,000 entries" in next(
        w for w in warnings if w)[0]
    assert len(store.data[LOG_KEY]) < 2000 + 200 and log.dropped > 0
    assert log.entries()[0]["request"]["dice"] == [40]


def test_when_bad_data_cannot_be_backed_up_it_is_never_overwritten():
    raw = "{" + "x" * 500
    store = MemoryStorage({LOG_KEY: raw}, limit=600, error=QuotaExceededError)
    log = RollLog(store, clock=Clock())
    assert "could not be backed up" in log.warnings[0] and log.unsaved
    log.record_check(passages(5, 5))
    log.clear()
    assert store.data == {LOG_KEY: raw}


def test_storage_that_cannot_be_read_at_all_still_starts():
    class Locked(MemoryStorage):
        def get(self, key):
            raise PermissionError("SecurityError: access denied")

    log = RollLog(Locked(), clock=Clock())
    assert "unavailable" in log.warnings[0] and log.unsaved
    entry, warnings = log.record_check(passages(5, 5))
    assert entry["id"] == 1 and warnings == []


def test_an_adapter_that_returns_a_null_object_counts_as_nothing_stored():
    class JsNullStorage(MemoryStorage):
        """Pyodide gives JS null as `jsnull`, not None, if the adapter passes it through."""

        def get(self, key):
            return self.data.get(key, object())

    store = JsNullStorage()
    log = RollLog(store, clock=Clock())
    assert log.warnings == [] and len(log) == 0
    log.record_check(passages(5, 5))
    assert len(RollLog(store).entries()) == 1
    store.data[LOG_KEY] = "bad"
    again = RollLog(store, clock=Clock())  # finding a free backup key must not loop forever
    assert "could not be read" in again.warnings[0] and list(backups(store).values()) == ["bad"]
