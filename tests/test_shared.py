"""Two tabs changing one character at the same moment over one browser's storage (issue 34,
points 1-2), in CPython: each tab reads a copy of its own that another tab's write reaches only
later, as in a browser, and every change takes its turn at one lock (shared.Turns). No spend is
counted twice or over the stock, and no edit is lost."""

from __future__ import annotations

import asyncio
import json

import pytest
import skillcheck
from app import spending
from app.characters import EditConflict, Roster, SpendError
from app.gm_secrets import Secrets
from app.log_codes import CODES_KEY, Codes, code_links, file_text, receive, rolls_of, sharable
from app.log_model import RollLog, WithdrawError
from app.shared import LOCK, Recorded, Turns, behind, fingerprint, latest, token
from evenings import evening
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

START_LUCK = 5
HOST = "https://someone.github.io/skill-check/"


class Browser:
    """One browser's localStorage as its tabs see it: every write goes into one sequence, as the
    browser's own copy takes them, and each tab reads a copy of its own that takes the writes of
    other tabs only when `deliver` brings them, in that order. A tab's own write is read at once
    and wins over the other tabs' writes of its key delivered before it (as Chromium's copy
    does)."""

    def __init__(self, tabs: int):
        self.writes: list[tuple[int, str, str | None]] = []  # (tab, key, text: None removed)
        self.seen = [0] * tabs  # how many of `writes` each tab's copy has taken

    def storage(self, tab: int) -> TabCopy:
        return TabCopy(self, tab)

    def read(self, tab: int, key: str) -> str | None:
        for writer, written, text in reversed(self.writes[self.seen[tab]:]):
            if writer == tab and written == key:
                return text
        for _, written, text in reversed(self.writes[:self.seen[tab]]):
            if written == key:
                return text
        return None

    def pending(self, tab: int) -> bool:
        return self.seen[tab] < len(self.writes)

    def deliver(self, tab: int) -> None:
        self.seen[tab] += 1

    def deliver_all(self) -> None:
        self.seen = [len(self.writes)] * len(self.seen)


class TabCopy:
    """A Storage: one tab's copy of the browser's localStorage."""

    def __init__(self, browser: Browser, tab: int):
        self.browser, self.tab = browser, tab

    def get(self, key: str) -> str | None:
        return self.browser.read(self.tab, key)

    def set(self, key: str, value: str | None) -> None:
        self.browser.writes.append((self.tab, key, value))

    def remove(self, key: str) -> None:
        self.set(key, None)


class Locks:
    """navigator.locks of one browser, shared by its tabs: one exclusive lock granted in the
    order asked for, and shared locks (the tokens) held until let go."""

    def __init__(self):
        self.waiting: list = []
        self.busy = False
        self.tokens: list[str] = []

    def request(self, name: str, granted, refused) -> None:
        assert name == LOCK
        self.waiting.append(granted)
        self._grant()

    def _grant(self) -> None:
        if self.busy or not self.waiting:
            return
        self.busy, granted = True, self.waiting.pop(0)

        async def turn() -> None:
            try:
                await granted()
            finally:
                self.busy = False
                self._grant()
        asyncio.ensure_future(turn())

    async def held(self) -> list[str]:
        return [LOCK] * self.busy + list(self.tokens)

    async def hold(self, name: str):
        self.tokens.append(name)
        return lambda: self.tokens.remove(name)


async def no_wait(_: float) -> None:
    await asyncio.sleep(0)


class Tab:
    """One tab: its roster, log and turns at the lock over its copy of the storage."""

    def __init__(self, browser: Browser, tab: int, locks: Locks | None):
        self.storage = Recorded(browser.storage(tab))
        self.turns = Turns(self.storage, locks, sleep=no_wait, clock=lambda: 0.0,
                           warn=lambda _: None)
        self.roster, self.log = Roster(self.storage), RollLog(self.storage)
        self.opened: dict | None = None


def luck_check(luck: int) -> dict:
    """Lockpicking 7 against DR 3 on 1 2 9 9 3 with `luck` Luck spent on the dice: 2 make it a
    Success, 4 a Critical (as tests/e2e/test_two_tabs.py rolls it)."""
    return skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": luck,
                               "luck_spend": luck, "dice": [1, 2, 9, 9, 3]})


def own_loop() -> tuple[asyncio.AbstractEventLoop, object]:
    """A new event loop for this thread, and the one found running in it: Playwright's sync API
    keeps its loop marked running in the main thread while the browser tests' session lasts, and
    a loop cannot run inside another. Put that one back with `give_back`."""
    running = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    return loop, running


def give_back(loop: asyncio.AbstractEventLoop, running: object) -> None:
    loop.close()
    asyncio.set_event_loop(None)
    asyncio._set_running_loop(running)


@pytest.fixture
def loop():
    loop, running = own_loop()
    yield loop
    give_back(loop, running)


def settle(loop, *tabs: Tab, browser: Browser) -> None:
    """Every change asked for made, and every write delivered."""
    for _ in range(1000):
        browser.deliver_all()
        loop.run_until_complete(asyncio.sleep(0))
        if not any(tab.turns for tab in tabs) and not any(map(browser.pending, range(len(tabs)))):
            return
    raise AssertionError("the tabs never settled")


def two_tabs(locks: Locks | None = None) -> tuple[Browser, Tab, Tab, int]:
    browser = Browser(2)
    a, b = Tab(browser, 0, locks), Tab(browser, 1, locks)
    character, _ = a.roster.create("Mara", luck=START_LUCK, notes="Smuggler.")
    browser.deliver_all()
    return browser, a, b, character["id"]


# ---- the tokens: what was saved last under the lock -------------------------------------------

def test_a_token_names_the_newest_save_of_each_key_and_its_text():
    names = [LOCK, token(1, "k", "old"), token(2, "k", "new"), token(1, "j", None), "other",
             "skillcheck.saved x k 1-0"]
    found = latest(names)
    assert sorted(found) == ["j", "k"]
    assert found["k"].count == 2 and found["k"].mark == fingerprint("new")
    assert found["j"].mark == "none"


def test_a_copy_is_behind_until_it_holds_the_text_last_saved():
    browser = Browser(2)
    browser.storage(0).set("k", "new")
    assert browser.storage(0).get("k") == "new"
    saved = latest([token(3, "k", "new")])
    copy = browser.storage(1)
    assert behind(copy, saved) == ["k"]
    assert behind(copy, saved, own=[token(3, "k", "new")]) == []  # its own save
    browser.deliver(1)
    assert behind(copy, saved) == []


# ---- the same moment in two tabs --------------------------------------------------------------

def test_two_spends_at_once_wait_for_each_other_and_the_second_is_refused(loop):
    browser, a, b, mara = two_tabs(Locks())
    spends = [tab.turns.change(lambda tab=tab: spending.choose(
        tab.roster, tab.log, mara, luck_check(4), 0, tab.log.record_check)) for tab in (a, b)]
    settle(loop, a, b, browser=browser)
    assert spends[0].result().record["text"] == "Mara spent 4 Luck (5 → 1)."
    with pytest.raises(SpendError, match="Mara has only 1 Luck now"):
        spends[1].result()
    assert b.turns.waits == 1 and b.turns.gave_up == 0  # b waited for a's save to reach it
    log = json.loads(a.storage.get("skillcheck.log"))["entries"]
    assert [e["kind"] for e in log] == ["check", "spend"]  # the refused one logged nothing
    assert a.roster.get(mara)["luck"] == 1


def test_one_roll_undone_in_two_tabs_at_once_gives_its_luck_back_once(loop):
    """Undo this roll (issue 35.3) pressed in both tabs at the same moment: the first turn
    withdraws it and gives the 4 Luck back; the second, reading what the first saved, is
    refused and changes nothing."""
    browser, a, b, mara = two_tabs(Locks())
    spent = a.turns.change(lambda: spending.choose(a.roster, a.log, mara, luck_check(4), 0,
                                                   a.log.record_check))
    settle(loop, a, b, browser=browser)
    check = spent.result().entry["id"]
    undos = [tab.turns.change(lambda tab=tab: spending.withdraw(tab.roster, tab.log, check))
             for tab in (a, b)]
    settle(loop, a, b, browser=browser)
    assert undos[0].result().given == ["Roll withdrawn: Mara got 4 Luck back (1 → 5)."]
    with pytest.raises(WithdrawError, match="already withdrawn"):
        undos[1].result()
    log = json.loads(a.storage.get("skillcheck.log"))["entries"]
    assert [e["kind"] for e in log] == ["check", "spend", "undo"]
    for tab in (a, b):
        tab.roster.refresh()
        assert tab.roster.get(mara)["luck"] == 5


def test_one_roll_added_from_a_link_in_two_tabs_at_once_is_one_entry(loop):
    """Add to the table log (issue 38.2) pressed in both tabs at the same moment."""
    browser, a, b, _ = two_tabs(Locks())
    theirs = luck_check(0)
    adds = [tab.turns.change(lambda tab=tab: tab.log.add_shared(
        theirs, "2026-12-04T20:00:00Z", {"name": "Vex"})) for tab in (a, b)]
    settle(loop, a, b, browser=browser)
    assert [add.result()[1] for add in adds] == [True, False]
    assert adds[0].result()[0] == adds[1].result()[0]
    log = json.loads(b.storage.get("skillcheck.log"))["entries"]
    assert [(e["kind"], e["name"], e.get("shared")) for e in log] == [("check", "Vex", True)]


def test_two_secrets_committed_in_two_tabs_at_once_are_both_kept(loop):
    """The GM's Commit (issue 37.2) pressed in two tabs at the same moment: each turn reads
    what the other saved, so both secrets are kept, under ids of their own."""
    browser, a, b, _ = two_tabs(Locks())
    commits = [tab.turns.change(lambda tab=tab, dr=dr: Secrets(tab.storage).commit(
        "pool", {"dr": dr}, f"DR {dr}")) for tab, dr in ((a, 3), (b, 4))]
    settle(loop, a, b, browser=browser)
    made = [commit.result()[0] for commit in commits]
    assert made[0]["id"] != made[1]["id"]
    for tab in (a, b):
        assert [(s["label"], s["difficulty"]) for s in Secrets(tab.storage).items()] == [
            ("DR 3", 3), ("DR 4", 4)]


def test_a_shared_logs_last_two_codes_read_in_two_tabs_at_once_merge_it_once(loop):
    """A phone's camera app opening the last two codes of a shared log (issue 38.3) in two tabs
    at the same moment: each turn keeps its code with what the other kept, so the set is whole
    in exactly one of them, which merges every roll once."""
    browser, a, b, _ = two_tabs(Locks())
    codes = ["#" + link.partition("#")[2]
             for link in code_links(HOST, sharable(evening(60).items()))]
    assert len(codes) >= 3
    for code in codes[:-2]:
        a.turns.change(lambda code=code: receive(code, a.log, Codes(a.storage)))
    settle(loop, a, b, browser=browser)
    last = [tab.turns.change(lambda tab=tab, code=code: receive(code, tab.log,
                                                                 Codes(tab.storage)))
            for tab, code in ((a, codes[-2]), (b, codes[-1]))]
    settle(loop, a, b, browser=browser)
    said = [turn.result()[0] for turn in last]
    assert said[0] == f"Log from another phone: {len(codes) - 1} of {len(codes)} codes read — " \
        "show the next."
    assert said[1] == "60 rolls added from another phone, 0 already here."
    for tab in (a, b):
        tab.log.refresh()
        assert len([e for e in tab.log.items() if e.get("shared")]) == 60
        assert tab.storage.get(CODES_KEY) is None  # the set, forgotten once merged


def test_one_batch_merged_in_two_tabs_at_once_adds_each_roll_once(loop):
    """The same shared log's file imported in two tabs at the same moment."""
    browser, a, b, _ = two_tabs(Locks())
    rolls, _ = rolls_of(json.loads(file_text(sharable(evening(20).items())))["rolls"])
    merges = [tab.turns.change(lambda tab=tab: tab.log.merge_shared(rolls)) for tab in (a, b)]
    settle(loop, a, b, browser=browser)
    added = [sum(new for _, new in merge.result()[0]) for merge in merges]
    assert added == [20, 0]
    log = json.loads(b.storage.get("skillcheck.log"))["entries"]
    assert len(log) == 20 and all(e["shared"] for e in log)


def test_without_the_lock_the_same_moment_overspends(loop):
    """The fault of issue 34 this guards against: each tab spends what it read."""
    browser, a, b, mara = two_tabs(None)
    for tab in (a, b):
        tab.turns.change(lambda tab=tab: spending.choose(
            tab.roster, tab.log, mara, luck_check(4), 0, tab.log.record_check))
    browser.deliver_all()
    assert [tab.roster.get(mara)["luck"] for tab in (a, b)] == [1, 1]  # 8 spent, 4 counted


def test_a_turn_that_waits_in_vain_goes_on_and_says_so(loop):
    """Another writer that takes no lock (an old page): after PATIENCE, the change is made on
    what this tab has, and counted."""
    browser, a, b, mara = two_tabs(Locks())
    clock = iter(range(0, 100, 1))
    b.turns.clock = lambda: float(next(clock))
    said = []
    b.turns.warn = said.append
    loop.run_until_complete(a.turns.change(lambda: a.roster.spend(mara, luck_check(2))))
    # a's save never reaches b
    b.roster.refresh()
    assert loop.run_until_complete(b.turns.change(lambda: b.roster.get(mara)["luck"])) == (
        START_LUCK)
    assert b.turns.gave_up == 1
    assert "did not arrive from another tab" in said[0]


def test_a_lock_the_browser_refuses_makes_the_change_at_once_and_says_so(loop):
    class Refusing(Locks):
        def request(self, name, granted, refused):
            refused("SecurityError: The request was denied.")
    browser, a, _, mara = two_tabs(Refusing())
    said = []
    a.turns.warn = said.append
    spend = a.turns.change(lambda: a.roster.spend(mara, luck_check(2)))
    assert spend.result()[1]["text"] == "Mara spent 2 Luck (5 → 3)."
    assert "no cross-tab lock (SecurityError" in said[0]
    assert a.turns.change(lambda: "next").result() == "next"  # and so does the next


def test_edits_of_other_fields_at_once_are_both_kept(loop):
    browser, a, b, mara = two_tabs(Locks())
    opened = a.roster.get(mara)
    saves = [a.turns.change(lambda: a.roster.save_edit(opened, {**opened, "notes": "Owes."})),
             b.turns.change(lambda: b.roster.save_edit(opened, {**opened, "xp": 40}))]
    settle(loop, a, b, browser=browser)
    assert [save.result()[0]["name"] for save in saves] == ["Mara", "Mara"]
    assert {k: b.roster.get(mara)[k] for k in ("notes", "xp")} == {"notes": "Owes.", "xp": 40}


def test_edits_of_one_field_at_once_save_one_and_name_the_conflict_to_the_other(loop):
    browser, a, b, mara = two_tabs(Locks())
    opened = a.roster.get(mara)
    saves = [a.turns.change(lambda: a.roster.save_edit(opened, {**opened, "xp": 10})),
             b.turns.change(lambda: b.roster.save_edit(opened, {**opened, "xp": 20,
                                                                 "notes": "Owes."}))]
    settle(loop, a, b, browser=browser)
    assert saves[0].result()[0]["xp"] == 10
    with pytest.raises(EditConflict) as conflict:
        saves[1].result()
    assert conflict.value.fields == ["xp"] and conflict.value.stored["xp"] == 10
    assert b.roster.get(mara)["notes"] == "Smuggler."  # nothing of b's saved


# ---- the property: any interleaving, no lost update --------------------------------------------

FIELDS = st.sampled_from(["notes", "xp", "luck"])


class TwoTabs(RuleBasedStateMachine):
    """Two tabs over one browser's storage: opening the editor, saving it, spending Luck, the
    other tab's writes arriving and the event loop running, in any order. Each change is checked,
    at the moment it is made, against a model of the character that takes every change in the
    order the lock let them in; at the end both tabs read the model's character, and the log
    holds one spend per spend a tab was told of."""

    def __init__(self):
        super().__init__()
        self.loop, self.running = own_loop()
        self.browser, a, b, self.mara = two_tabs(Locks())
        self.tabs = (a, b)
        self.model = {"notes": "Smuggler.", "xp": 0, "luck": START_LUCK}
        self.wrong: list[str] = []
        self.spent: list[int] = []  # the amounts of the spends the tabs were told were made
        self.edits = 0

    def teardown(self):
        try:
            if not self.wrong:
                self.settle()
        finally:
            give_back(self.loop, self.running)

    def settle(self) -> None:
        settle(self.loop, *self.tabs, browser=self.browser)
        assert not self.wrong, self.wrong
        for tab in self.tabs:
            tab.roster.refresh()
            character = tab.roster.get(self.mara)
            assert {k: character[k] for k in self.model} == self.model
            log = tab.storage.get("skillcheck.log")
            spends = [e for e in (json.loads(log)["entries"] if log else [])
                      if e["kind"] == "spend"]
            assert [e["amount"] for e in spends] == self.spent
            assert [(e["before"] - e["after"]) for e in spends] == self.spent
        assert all(tab.turns.gave_up == 0 for tab in self.tabs)

    @rule(tab=st.integers(0, 1))
    def open_editor(self, tab):
        me = self.tabs[tab]
        me.roster.refresh()
        me.opened = me.roster.get(self.mara)

    @precondition(lambda self: any(tab.opened for tab in self.tabs))
    @rule(tab=st.integers(0, 1), field=FIELDS, value=st.integers(0, 9))
    def save_editor(self, tab, field, value):
        me = self.tabs[tab]
        if me.opened is None:
            return
        opened, me.opened = me.opened, None
        mine = {**opened, field: f"Note {value}" if field == "notes" else value}

        def save():
            changed = [k for k in self.model if mine[k] != opened[k]]
            clash = [k for k in changed if self.model[k] not in (opened[k], mine[k])]
            try:
                saved, _ = me.roster.save_edit(opened, mine)
            except EditConflict as conflict:
                if conflict.fields != clash or not clash:
                    self.wrong.append(f"conflict {conflict.fields}, expected {clash}")
                raise
            if clash:
                self.wrong.append(f"saved over {clash}")
            self.model.update({k: mine[k] for k in changed})
            self.edits += 1
            if {k: saved[k] for k in self.model} != self.model:
                self.wrong.append(f"saved {saved}, expected {self.model}")
        me.turns.change(save).add_done_callback(asyncio.Future.exception)

    @rule(tab=st.integers(0, 1), luck=st.sampled_from([2, 4]))
    def spend(self, tab, luck):
        me = self.tabs[tab]

        def spend():
            affordable = luck <= self.model["luck"]
            try:
                judged = spending.choose(me.roster, me.log, self.mara, luck_check(luck), 0,
                                         me.log.record_check)
            except SpendError:
                if affordable:
                    self.wrong.append(f"refused {luck} of {self.model['luck']}")
                raise
            if not affordable:
                self.wrong.append(f"spent {luck} of {self.model['luck']}")
            self.model["luck"] -= luck
            self.spent.append(judged.record["amount"])
        me.turns.change(spend).add_done_callback(asyncio.Future.exception)

    @rule(tab=st.integers(0, 1))
    def arrive(self, tab):
        if self.browser.pending(tab):
            self.browser.deliver(tab)

    @rule()
    def run(self):
        self.loop.run_until_complete(asyncio.sleep(0))

    @invariant()
    def nothing_wrong(self):
        assert not self.wrong, self.wrong


TwoTabs.TestCase.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)
test_two_tabs_changing_one_character_lose_no_update = TwoTabs.TestCase
