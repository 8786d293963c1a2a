"""Undo of a roll made by mistake (issue 35.3): the entry is kept and marked withdrawn, what it
spent is given back to the character, and a withdrawn roll counts nowhere that counts rolls."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime

import pytest
import skillcheck
from app import spending
from app.characters import Roster, SpendError, already_spent
from app.log_html import entry_html
from app.log_model import RollLog, WithdrawError, counts, read_entry
from app.storage import FieldError, MemoryStorage
from hypothesis import given
from hypothesis import strategies as st

NOON = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def pool(luck: int = 0, luck_spend: int | None = None) -> dict:
    """Lockpicking 7 against DR 3 on 1 2 9 9 3: 2 Luck make it a Success, 4 a Critical."""
    spend = {} if luck_spend is None else {"luck_spend": luck_spend}
    return {"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": luck,
            "dice": [1, 2, 9, 9, 3], **spend}


class Table:
    """One tab's characters and log over `storage` (a second Table on it is another tab)."""

    def __init__(self, storage: MemoryStorage | None = None):
        self.storage = storage or MemoryStorage()
        self.roster = Roster(self.storage)
        self.log = RollLog(self.storage, clock=lambda: NOON)

    def mara(self, luck: int = 5, xp: int = 0) -> int:
        return self.roster.create("Mara", luck=luck, xp=xp)[0]["id"]

    def roll(self, mara: int, request: dict) -> dict:
        """A roll as the page logs it: one that spends is judged, logged and paid in one step
        (spending.judge); one that does not, logged after it is shown."""
        judged = spending.judge(self.roster, self.log, mara, request, skillcheck.resolve,
                                self.log.record_check)
        return judged.entry or self.log.record_check(judged.result)[0]

    def choose(self, mara: int, entry: dict, spend: int, already: int) -> dict:
        """Luck spent on the dice shown, after the roll: the entry amended."""
        result = skillcheck.resolve({**entry["request"], "luck_spend": spend})
        return spending.choose(self.roster, self.log, mara, result, already,
                               lambda r: self.log.amend_check(entry["id"], r)).entry

    def luck(self, mara: int) -> int:
        self.roster.refresh()
        return self.roster.get(mara)["luck"]


def two_luck_spent() -> tuple[Table, int, dict]:
    """Mara, with 5 Luck, spent 2 on a roll: the table, her id and the roll's entry."""
    table = Table()
    mara = table.mara(luck=5)
    return table, mara, table.roll(mara, pool(luck=2, luck_spend=2))


def test_a_roll_that_spent_nothing_is_kept_marked_withdrawn_and_counts_nowhere():
    table = Table()
    first, _ = table.log.record_check(skillcheck.resolve(pool()))
    second, _ = table.log.record_check(skillcheck.resolve(pool()))
    withdrawn = spending.withdraw(table.roster, table.log, second["id"])
    assert withdrawn.given == [] and withdrawn.warnings == []
    assert [e["id"] for e in table.log.entries()] == [second["id"], first["id"]]
    assert table.log.get(second["id"])["withdrawn"] == "2026-12-04T12:00:00Z"
    assert not counts(table.log.get(second["id"])) and counts(first)
    assert table.log.last_check() == first  # Re-roll repeats the last roll that counts


def test_the_luck_a_roll_spent_is_given_back_and_undo_last_spend_has_nothing_left():
    table, mara, entry = two_luck_spent()
    assert table.luck(mara) == 3
    withdrawn = spending.withdraw(table.roster, table.log, entry["id"])
    assert withdrawn.given == ["Roll withdrawn: Mara got 2 Luck back (3 → 5)."]
    assert table.luck(mara) == 5
    spend = next(e for e in table.log.entries() if e["kind"] == "spend")
    undo = table.log.entries()[0]
    assert (undo["kind"], undo["undoes"], undo["amount"], undo["before"], undo["after"]) == (
        "undo", spend["id"], 2, 3, 5)
    with pytest.raises(SpendError, match="no spend to undo"):
        spending.undo(table.roster, table.log, mara)


def luck_chosen_twice() -> tuple[Table, int, dict]:
    """Mara, with 5 Luck, chose 2 Luck on the dice shown, then 2 more: the table, her id and
    the roll's entry (a Critical Success)."""
    table = Table()
    mara = table.mara(luck=5)
    entry = table.roll(mara, pool(luck=4))
    entry = table.choose(mara, entry, 2, 0)
    return table, mara, table.choose(mara, entry, 4, 2)


def test_luck_spent_twice_on_the_dice_shown_is_all_given_back():
    table, mara, entry = luck_chosen_twice()
    assert table.luck(mara) == 1
    withdrawn = spending.withdraw(table.roster, table.log, entry["id"])
    assert withdrawn.given == ["Roll withdrawn: Mara got 2 Luck back (1 → 3).",
                               "Roll withdrawn: Mara got 2 Luck back (3 → 5)."]
    assert table.luck(mara) == 5


def test_a_spend_given_back_already_by_undo_last_spend_is_not_given_back_twice():
    table, mara, entry = two_luck_spent()
    spending.undo(table.roster, table.log, mara)
    assert table.luck(mara) == 5
    assert spending.withdraw(table.roster, table.log, entry["id"]).given == []
    assert table.luck(mara) == 5


def test_an_older_spend_given_back_leaves_the_newest_for_undo_last_spend():
    table = Table()
    mara = table.mara(luck=6)
    older = table.roll(mara, pool(luck=2, luck_spend=2))
    table.roll(mara, pool(luck=2, luck_spend=2))
    spending.withdraw(table.roster, table.log, older["id"])
    assert table.luck(mara) == 4
    record = spending.undo(table.roster, table.log, mara).record  # the newer roll's 2
    assert record["amount"] == 2 and table.luck(mara) == 6


INSURED = {"system": "fluke", "dice_count": 4, "base": 12, "insurance": 2, "dice": [1, 1, 6, 6]}


def insured() -> tuple[Table, int, dict]:
    """Mara, with 10 XP, rolled a fluke check with 2 Insurance (4 XP): the table, her id and the
    roll's entry."""
    table = Table()
    mara = table.mara(xp=10)
    return table, mara, table.roll(mara, INSURED)


def test_insurance_xp_is_given_back():
    table, mara, entry = insured()
    assert table.roster.get(mara)["xp"] == 6
    withdrawn = spending.withdraw(table.roster, table.log, entry["id"])
    assert withdrawn.given == ["Roll withdrawn: Mara got 4 XP back (6 → 10)."]
    assert table.roster.get(mara)["xp"] == 10


def test_what_is_given_back_stops_at_the_most_a_character_holds():
    table, mara, entry = two_luck_spent()
    character = table.roster.get(mara)
    table.roster.save_edit(character, {**character, "luck": 999})
    withdrawn = spending.withdraw(table.roster, table.log, entry["id"])
    assert withdrawn.given == ["Roll withdrawn: Mara got 1 Luck back (999 → 1000, the most Mara "
                               "can hold)."]
    assert table.luck(mara) == 1000


def test_a_character_deleted_since_gets_nothing_and_the_roll_is_still_withdrawn():
    table, mara, entry = two_luck_spent()
    table.roster.delete(mara)
    withdrawn = spending.withdraw(table.roster, table.log, entry["id"])
    assert withdrawn.given == ["Mara is no longer saved here: nothing was given back."]
    assert not counts(table.log.get(entry["id"]))
    assert [e["kind"] for e in table.log.entries()] == ["spend", "check"]


def test_a_roll_withdrawn_in_another_tab_is_refused_here_and_nothing_is_given_twice():
    here = Table()
    there = Table(here.storage)
    mara = here.mara(luck=5)
    entry = here.roll(mara, pool(luck=2, luck_spend=2))
    spending.withdraw(there.roster, there.log, entry["id"])
    before = here.storage.get("skillcheck.log")
    with pytest.raises(WithdrawError, match="already withdrawn"):
        spending.withdraw(here.roster, here.log, entry["id"])
    assert here.storage.get("skillcheck.log") == before
    assert here.luck(mara) == 5


def test_a_roll_deleted_or_cleared_cannot_be_withdrawn():
    table = Table()
    entry, _ = table.log.record_check(skillcheck.resolve(pool()))
    table.log.delete(entry["id"])
    with pytest.raises(WithdrawError, match="no longer in the log"):
        spending.withdraw(table.roster, table.log, entry["id"])


def test_a_withdrawn_secret_check_cannot_be_revealed():
    table = Table()
    secret = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "secret": True,
                                 "dice": [1, 2, 9, 9, 3]})
    entry, _ = table.log.record_check(secret)
    spending.withdraw(table.roster, table.log, entry["id"])
    revealed = skillcheck.resolve({**secret["request"], "dr": 3})
    with pytest.raises(ValueError, match="withdrawn"):
        table.log.record_reveal(entry["id"], revealed)


def test_the_mark_is_read_back_strictly_and_the_log_line_says_withdrawn():
    table = Table()
    entry, _ = table.log.record_check(skillcheck.resolve(pool()))
    withdrawn = spending.withdraw(table.roster, table.log, entry["id"]).entry
    assert read_entry(withdrawn) == withdrawn
    with pytest.raises(FieldError, match="withdrawn"):
        read_entry({**withdrawn, "withdrawn": "yesterday"})
    line = entry_html(withdrawn, str)
    assert 'class="log-row withdrawn"' in line and "Withdrawn:" in line
    assert "withdrawn" not in entry_html(entry, str)
    assert table.log.entries(search="withdrawn") == [withdrawn]


@given(steps=st.lists(st.sampled_from(["roll", "more", "undo"]), min_size=1, max_size=8),
       start=st.integers(4, 10))
def test_withdrawing_every_roll_gives_back_exactly_what_was_spent_and_not_undone(steps, start):
    table = Table()
    mara = table.mara(luck=start)
    rolls: list[dict] = []
    for step in steps:
        luck = table.luck(mara)
        if step == "roll" and luck >= 2:
            rolls.append(table.roll(mara, pool(luck=min(luck, 4), luck_spend=2)))
        elif step == "more" and rolls and rolls[-1]["request"]["luck"] == 4:
            shown = table.log.get(rolls[-1]["id"])  # as an undo may have judged it again
            already = already_spent(skillcheck.resolve(shown["request"]))
            if already in (0, 2) and luck >= 4 - already:
                rolls[-1] = table.choose(mara, shown, 4, already)
        elif step == "undo":
            with contextlib.suppress(SpendError):
                spending.undo(table.roster, table.log, mara)
        assert every_roll_holds_what_it_paid(table)
    for entry in rolls:
        spending.withdraw(table.roster, table.log, entry["id"])
    assert table.luck(mara) == start
    assert all(not counts(table.log.get(entry["id"])) for entry in rolls)
    assert table.log.last_check() is None


def every_roll_holds_what_it_paid(table: Table) -> bool:
    """Each roll that counts spends, judged on its draw, exactly the Luck or XP its spends
    still hold (those not given back)."""
    entries = table.log.items()
    undone = {e["undoes"] for e in entries if e["kind"] == "undo"}
    for check in (e for e in entries if e["kind"] == "check" and counts(e)):
        held = sum(e["amount"] for e in entries if e["kind"] == "spend"
                   and e["check"] == check["id"] and e["id"] not in undone)
        if already_spent(skillcheck.resolve(check["request"])) != held:
            return False
    return True


# ---- Undo last spend: the roll it paid for no longer keeps what it bought -----------------------

def test_luck_chosen_after_the_roll_and_undone_puts_the_roll_back_as_first_judged():
    table = Table()
    mara = table.mara(luck=5)
    entry = table.roll(mara, pool(luck=4))
    assert entry["outcome"] == "basic" and table.luck(mara) == 5
    entry = table.choose(mara, entry, 2, 0)
    assert entry["outcome"] == "success" and table.luck(mara) == 3
    undone = spending.undo(table.roster, table.log, mara)
    assert table.luck(mara) == 5
    assert undone.entry["id"] == entry["id"] and undone.entry["time"] == entry["time"]
    assert undone.entry["outcome"] == "basic" == undone.result["outcome"]
    assert "luck_spend" not in undone.entry["request"]
    assert undone.result["luck_offers"][0] == {"luck_spend": 2, "outcome": "success"}
    assert undone.text == ("Undone: Mara got 2 Luck back (3 → 5). The roll it paid for is "
                           "judged without it: Basic Success.")
    assert table.log.get(entry["id"]) == undone.entry
    assert [e["kind"] for e in table.log.entries()] == ["undo", "spend", "check"]
    assert every_roll_holds_what_it_paid(table)


def test_the_second_of_two_choices_undone_leaves_the_first():
    table, mara, entry = luck_chosen_twice()
    assert entry["outcome"] == "critical" and table.luck(mara) == 1
    undone = spending.undo(table.roster, table.log, mara)
    assert table.luck(mara) == 3
    assert undone.entry["request"]["luck_spend"] == 2
    assert undone.entry["outcome"] == skillcheck.resolve(pool(luck=4, luck_spend=2))["outcome"]
    assert every_roll_holds_what_it_paid(table)


def test_luck_the_roll_itself_spent_undone_leaves_the_dice_alone():
    table = Table()
    mara = table.mara(luck=3)
    entry = table.roll(mara, {**pool(luck=3), "dr": 4})  # 2 Luck reach DR 4
    assert entry["outcome"] == "barely" and table.luck(mara) == 1
    undone = spending.undo(table.roster, table.log, mara)
    assert table.luck(mara) == 3
    assert undone.entry["outcome"] == "failure" and undone.entry["request"]["luck"] == 0
    assert every_roll_holds_what_it_paid(table)


def test_insurance_undone_judges_the_fluke_roll_without_it():
    table, mara, entry = insured()
    undone = spending.undo(table.roster, table.log, mara)
    assert table.roster.get(mara)["xp"] == 10
    assert undone.entry["request"]["insurance"] == 0
    assert undone.entry["outcome"] == skillcheck.resolve({**INSURED, "insurance": 0})["outcome"]
    assert undone.entry["id"] == entry["id"] and every_roll_holds_what_it_paid(table)


def test_luck_a_reveal_spent_undone_judges_the_reveal_without_it():
    """A secret roll's Luck is spent when the GM reveals the DR (to reach it): given back, the
    reveal stands at the dice alone, still a reveal of the same secret check."""
    table = Table()
    mara = table.mara(luck=3)
    secret, _ = table.log.record_check(skillcheck.resolve(
        {**pool(luck=3), "secret": True, "dr": None}))
    request = {**secret["request"], "dr": 4}
    judged = spending.judge(table.roster, table.log, mara, request, skillcheck.resolve,
                            lambda result: table.log.record_reveal(secret["id"], result))
    assert judged.entry["outcome"] == "barely" and table.luck(mara) == 1
    undone = spending.undo(table.roster, table.log, mara)
    assert table.luck(mara) == 3
    reveal = table.log.get(judged.entry["id"])
    assert (reveal["kind"], reveal["reveals"], reveal["outcome"]) == (
        "reveal", secret["id"], "failure")
    assert reveal["summary"].startswith("Revealed: ") and undone.entry == reveal


def test_a_spend_whose_roll_is_gone_is_simply_given_back():
    table, mara, entry = two_luck_spent()
    table.log.delete(entry["id"])
    undone = spending.undo(table.roster, table.log, mara)
    assert undone.entry is None and undone.result is None and table.luck(mara) == 5
    assert undone.text == "Undone: Mara got 2 Luck back (3 → 5)."


def test_a_spend_no_judgement_takes_out_is_refused_and_changes_nothing():
    """A spend linked to a roll that, judged on its draw, spends nothing (a log made by
    another version of the page, say): no judgement spends 2 less than nothing."""
    table = Table()
    mara = table.mara(luck=5)
    entry, _ = table.log.record_check(skillcheck.resolve(pool()))
    _, record, _ = table.roster.spend(mara, skillcheck.resolve(pool(luck=2, luck_spend=2)))
    table.log.record_spend(record, entry["id"])
    before = (table.storage.get("skillcheck.log"), table.storage.get("skillcheck.characters"))
    with pytest.raises(SpendError, match="part of the roll it paid for"):
        spending.undo(table.roster, table.log, mara)
    assert (table.storage.get("skillcheck.log"),
            table.storage.get("skillcheck.characters")) == before
    assert table.log.get(entry["id"])["outcome"] == entry["outcome"]


# ---- a roll from another phone, added to the table log (issue 38.2) -----------------------------

def test_a_roll_from_another_phone_is_added_once_marked_and_filtered_as_the_tables():
    table = Table()
    mine, _ = table.log.record_check(skillcheck.resolve(pool()))
    theirs = skillcheck.resolve(pool(luck=0) | {"dice": [6, 3, 7, 1, 9]})
    who = {"name": "Mara", "skill": "Lockpicking"}
    entry, added, _ = table.log.add_shared(theirs, "2026-12-04T11:00:00Z", who)
    assert added and entry["shared"] is True and entry["time"] == "2026-12-04T11:00:00Z"
    assert (entry["name"], entry["skill"]) == ("Mara", "Lockpicking")
    again, added, _ = table.log.add_shared(theirs, "2026-12-04T11:00:00Z", who)
    assert not added and again == entry and len(table.log.entries()) == 2
    other_tab = RollLog(table.storage)
    assert not other_tab.add_shared(theirs, "2026-12-04T11:00:00Z")[1]  # added in a tab
    assert table.log.entries(whose="table") == [entry]
    assert table.log.entries(whose="mine") == [mine]
    assert table.log.last_check() == mine  # Re-roll repeats this phone's own roll
    assert read_entry(entry) == entry
    with pytest.raises(FieldError, match="shared"):
        read_entry({**entry, "shared": "yes"})
    assert "From another phone" in entry_html(entry, str)
    assert "From another phone" not in entry_html(mine, str)


def test_this_phones_own_roll_coming_back_by_link_is_the_same_entry():
    table = Table()
    mine, _ = table.log.record_check(skillcheck.resolve(pool()))
    result = skillcheck.resolve(mine["request"])
    held, added, _ = table.log.add_shared(result, mine["time"])
    assert not added and held == mine
