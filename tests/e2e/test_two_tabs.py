"""Two real tabs of one browser (one context: one localStorage) on phone-sized pages: neither drops
the other's rolls, characters or spends, and each redraws what the other saved (issue 13, part 1).
"""

from __future__ import annotations

import itertools
import json
import operator
import re
import time

import pytest
from playwright.sync_api import Locator, Page, expect
from ready import wait_ready
from test_page import fill, labelled, open_form
from test_table import bar_tool, new_character, pick, pool_sheet, roll, stock, stored_log
from test_trust import run_python

ENTRIES = "#log-list > li"
STATUS = "#who-status"


@pytest.fixture
def tabs(module_contexts, app_url) -> tuple[Page, Page]:
    """Two tabs of a new, empty browser profile, both ready."""
    context = module_contexts()
    pages = []
    for _ in range(2):
        page = context.new_page()
        page.goto(app_url + "#system=passages")
        wait_ready(page)
        pages.append(page)
    return pages[0], pages[1]


def stored(page: Page, key: str) -> dict:
    return json.loads(page.evaluate("key => localStorage.getItem(key)", key))


def test_rolls_in_two_tabs_are_all_kept_and_each_tab_shows_them(tabs):
    a, b = tabs
    roll(a)
    roll(a)
    roll(b)
    assert len(stored(a, "skillcheck.log")["entries"]) == 3
    expect(a.locator(ENTRIES)).to_have_count(3)  # a redraws b's roll
    roll(a)
    assert len(stored(a, "skillcheck.log")["entries"]) == 4
    expect(b.locator(ENTRIES)).to_have_count(4)
    expect(b.locator("#log-count")).to_have_text("4 entries.")


def test_characters_saved_in_two_tabs_are_both_kept_and_both_listed(tabs):
    a, b = tabs
    new_character(a, "Ana")
    new_character(b, "Ben")
    names = sorted(c["name"] for c in stored(a, "skillcheck.characters")["characters"])
    assert names == ["Ana", "Ben"]
    for page in tabs:
        expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(
            ["No character", "Ana", "Ben"])


def test_two_tabs_spending_xp_of_one_character_both_count(tabs):
    a, b = tabs
    new_character(a, "Mara", xp=100)
    character = b.get_by_label("Character", exact=True)
    expect(character.locator("option")).to_have_count(2)
    character.select_option(label="Mara")
    for page in tabs:
        form = open_form(page, "fluke")
        fill(form, "My dice", "4 5 6")
        fill(form, "Insurance", 5)
    roll(a)
    roll(b)
    a.wait_for_function("JSON.parse(localStorage.getItem('skillcheck.log')).entries"
                        ".filter(e => e.kind === 'spend').length >= 2")
    assert stored(a, "skillcheck.characters")["characters"][0]["xp"] == 80
    spends = [e for e in stored(a, "skillcheck.log")["entries"] if e["kind"] == "spend"]
    assert [(e["before"], e["after"]) for e in spends] == [(100, 90), (90, 80)]
    expect(stock(a)).to_contain_text("XP 80")
    expect(stock(b)).to_contain_text("XP 80")

    bar_tool(a, "Undo last spend").click()
    expect(stock(a)).to_contain_text("XP 90")
    expect(stock(b)).to_contain_text("XP 90")
    expect(bar_tool(b, "Undo last spend")).to_be_hidden()  # given back once
    assert stored(b, "skillcheck.characters")["characters"][0]["xp"] == 90


def test_an_entry_deleted_in_one_tab_is_gone_from_the_other(tabs):
    a, b = tabs
    roll(a)
    roll(a)
    expect(b.locator(ENTRIES)).to_have_count(2)
    newest = stored(a, "skillcheck.log")["entries"][-1]["id"]
    a.get_by_role("button", name=re.compile("^Delete this entry")).first.click()
    a.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(b.locator(ENTRIES)).to_have_count(1)
    assert newest not in [e["id"] for e in stored(b, "skillcheck.log")["entries"]]
    roll(b)  # b's next roll does not bring it back
    expect(a.locator(ENTRIES)).to_have_count(2)
    assert newest not in [e["id"] for e in stored(a, "skillcheck.log")["entries"]]


# --- the same moment in two tabs (issue 34, points 1-3) -----------------------------------------

ROUNDS = 20
DICE = "1 2 9 9 3"  # Lockpicking 7 against DR 3: Basic; 2 Luck make a Success, 4 a Critical
OFFER = {2: "Spend 2 Luck → Success (IoS 2)", 4: "Spend 4 Luck → Critical Success"}
# Click an element at one instant shared by both tabs (each waits for it, busy for the last
# milliseconds): the two handlers start within a millisecond of each other, not one after the
# other. Returns at once, so the next tab is told before the instant comes.
AT = """(element, at) => {
  setTimeout(() => { while (Date.now() < at) {} element.click(); },
             Math.max(0, at - Date.now() - 15));
}"""


def at_once(*elements: Locator) -> None:
    at = time.time() * 1000 + 700
    for element in elements:
        element.evaluate(AT, at)


def turns_waited(page: Page) -> list[int]:
    """How many of this tab's turns at the lock waited for another tab's save to arrive, and
    how many went on without it (shared.Turns)."""
    return run_python(page, "import app.browser\n"
                            "[app.browser._turns.waits, app.browser._turns.gave_up]")


def mara(page: Page) -> dict:
    return next(c for c in stored(page, "skillcheck.characters")["characters"]
                if c["name"] == "Mara")


def pick_mara(page: Page) -> None:
    character = page.get_by_label("Character", exact=True)
    expect(character.locator("option", has_text="Mara")).to_have_count(1)
    character.select_option(label="Mara")


def offers(page: Page) -> Locator:
    return page.locator("#result").get_by_role("group", name="Spend Luck on these dice?")


def clear_status(*pages: Page) -> None:
    """The bar's line empty, so that what it says next is this round's."""
    for page in pages:
        page.evaluate("document.getElementById('who-status').textContent = ''")


def edit(page: Page) -> Locator:
    """The editor opened on Mara, in that tab brought to the front."""
    page.bring_to_front()
    bar_tool(page, "Edit character").click()
    dialog = page.get_by_role("dialog", name="Edit Mara")
    expect(dialog).to_be_visible()
    return dialog


def set_luck(page: Page, luck: int) -> None:
    """Mara's Luck set in the editor, as a GM hands out Luck."""
    dialog = edit(page)
    labelled(dialog, "Luck").fill(str(luck))
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_be_hidden()


def two_pool_tabs(tabs, luck: int) -> tuple[Page, Page]:
    """Mara (Luck `luck`, with Lockpicking) picked in both tabs, the pool form filled in."""
    a, b = tabs
    a.bring_to_front()
    open_form(a, "pool")
    new_character(a, "Mara", luck=luck, sheet=pool_sheet)
    b.bring_to_front()
    open_form(b, "pool")
    pick_mara(b)
    for page in tabs:
        page.bring_to_front()
        form = page.locator("#form-pool")
        pick(page, "Lockpicking")
        fill(form, "DR", 3)
        fill(form, "My dice", DICE)
    return a, b


def roll_with_offers(page: Page, luck: int) -> int:
    """Roll the pool check offering `luck`; the id of its log entry."""
    page.bring_to_front()  # a tab behind the other draws no frames: Playwright's clicks wait
    fill(page.locator("#form-pool"), "Luck", luck)
    roll(page)
    expect(offers(page).get_by_role("button")).to_have_count(2)
    return max(e["id"] for e in stored_log(page)["entries"] if e["kind"] == "check")


def test_luck_taken_in_two_tabs_at_the_same_moment_is_counted_once_and_never_overspent(tabs):
    a, b = two_pool_tabs(tabs, luck=5)
    refused_rounds = 0
    for n in range(ROUNDS):
        wanted = [(4, 2), (2, 4), (2, 2)][n % 3]  # 6 of 5 Luck: one is refused; 4 of 5: both
        expect(stock(a)).to_have_text("Luck 5 · XP 0")
        expect(stock(b)).to_have_text("Luck 5 · XP 0")
        checks = [roll_with_offers(page, 5) for page in tabs]
        known = {e["id"] for e in stored_log(a)["entries"]}
        clear_status(a, b)
        at_once(*(offers(page).get_by_role("button", name=OFFER[spend], exact=True)
                  for page, spend in zip(tabs, wanted, strict=True)))
        for page in tabs:  # each has either spent or said why not
            expect(page.locator(f"{STATUS}:not(:empty)").or_(
                page.locator("#result .note")).first).to_be_visible()
        # Tab b's saves reach tab a's copy of storage a moment later, the character's before
        # the log's: read a's copy again until both of b's writes have arrived (2 s at most).
        for _ in range(20):
            log = stored_log(a)["entries"]
            spends = [e for e in log if e["id"] not in known and e["kind"] == "spend"]
            luck = mara(a)["luck"]
            if luck == 5 - sum(e["amount"] for e in spends):
                break
            a.wait_for_timeout(100)
        assert luck == 5 - sum(e["amount"] for e in spends) >= 0, (n, spends)
        assert [(e["before"], e["after"]) for e in spends] == list(
            itertools.pairwise(itertools.accumulate(
                [e["amount"] for e in spends], operator.sub, initial=5))), (n, spends)
        claims = [page.locator(STATUS).inner_text() for page in tabs]
        for page, claim, check, spend in zip(tabs, claims, checks, wanted, strict=True):
            entry = next(e for e in log if e["id"] == check)
            said = [e for e in spends if e["check"] == check]
            if claim:  # the screen claims this spend: it is the one logged for its check
                assert [e["summary"] for e in said] == [claim], (n, claim, said)
                assert said[0]["amount"] == spend
                assert entry["request"]["luck_spend"] == spend
                expect(page.locator('#result [data-fact="luck_used"] dd')).to_have_text(str(spend))
            else:  # refused: said beside the check, which is left as it was, and costs nothing
                expect(page.locator("#result .note")).to_contain_text("Mara has only")
                assert said == [] and "luck_spend" not in entry["request"], (n, entry, said)
                assert entry["outcome"] == "basic"
                refused_rounds += 1
        assert len(spends) == sum(bool(claim) for claim in claims) >= 1, (n, claims, spends)
        for page in tabs:
            expect(stock(page)).to_have_text(f"Luck {luck} · XP 0")
        set_luck(a, 5)
    assert refused_rounds >= 1  # 6 of 5 wanted in 14 of the rounds: some were refused
    waited = [turns_waited(page) for page in tabs]
    print(f"turns that waited for the other tab's save: {waited}")
    assert [gave_up for _, gave_up in waited] == [0, 0]


def test_same_moment_edits_of_one_character_keep_both_or_let_the_player_choose(tabs):
    a, b = tabs
    a.bring_to_front()
    new_character(a, "Mara", xp=10)
    b.bring_to_front()
    pick_mara(b)
    conflicts = 0
    for n in range(ROUNDS):
        same = n % 2 == 1  # both change XP, to different numbers; else notes and XP
        notes, xp_a, xp_b = f"Round {n}: owes the guild", 100 + n, 200 + n
        before = mara(a)
        dialogs = [edit(page) for page in tabs]
        dialogs[0].get_by_label("Notes").fill(notes)
        if same:
            labelled(dialogs[0], "XP").fill(str(xp_a))
        labelled(dialogs[1], "XP").fill(str(xp_b))
        clear_status(a, b)
        at_once(*(dialog.get_by_role("button", name="Save") for dialog in dialogs))
        for page, dialog in zip(tabs, dialogs, strict=True):  # saved, or says why not
            expect(dialog.locator("#editor-error:not(:empty)").or_(
                page.locator(STATUS).filter(has_text="Saved Mara."))).to_be_visible()
        saved = [not dialog.is_visible() for dialog in dialogs]
        stored_now = mara(a)
        if not same:  # different fields: both kept, both said so
            assert saved == [True, True], n
            assert (stored_now["notes"], stored_now["xp"]) == (notes, xp_b), n
            continue
        assert saved.count(True) == 1, (n, saved)  # never "Saved" over a lost edit
        conflicts += 1
        winner, loser = (0, 1) if saved[0] else (1, 0)
        kept_xp = (xp_a, xp_b)[winner]
        assert stored_now["xp"] == kept_xp
        assert stored_now["notes"] == (notes if winner == 0 else before["notes"])
        dialog = dialogs[loser]
        expect(dialog.locator("#editor-error")).to_contain_text(
            "Mara was also changed in another tab while you edited: XP. Nothing is saved yet.")
        expect(dialog).to_contain_text(f"Another tab saved {kept_xp}.")
        dialog.page.bring_to_front()
        if n % 4 == 1:  # the player keeps what they typed
            mine = (xp_a, xp_b)[loser]
        else:  # the player takes the other tab's XP, and keeps their other edits
            dialog.get_by_role("button", name="Use the other tab’s XP").click()
            expect(labelled(dialog, "XP")).to_have_value(str(kept_xp))
            mine = kept_xp
        dialog.get_by_role("button", name="Save").click()
        expect(dialog).to_be_hidden()
        assert (mara(a)["xp"], mara(a)["notes"]) == (mine, notes), n
    assert conflicts == ROUNDS // 2
    waited = [turns_waited(page) for page in tabs]
    print(f"turns that waited for the other tab's save: {waited}")
    assert [gave_up for _, gave_up in waited] == [0, 0]


@pytest.mark.parametrize("delay", [0.05, 0.3, 1.0, 2.5])
def test_luck_offers_after_another_tab_spent_are_redrawn_spent_or_refused_aloud(tabs, delay):
    """B's tap `delay` seconds after A spent 4 of Mara's 6 Luck: the 4 offer is gone or
    refused aloud; the 2 offer (once in two) is spent."""
    a, b = two_pool_tabs(tabs, luck=6)
    spend = 2 if delay in (0.3, 2.5) else 4
    for page in tabs:
        roll_with_offers(page, 6)
    a.bring_to_front()
    offers(a).get_by_role("button", name=OFFER[4], exact=True).click()
    expect(stock(a)).to_have_text("Luck 2 · XP 0")
    b.evaluate("""([spend, delay]) => setTimeout(() => {
        const offer = document.querySelector(`#result [data-luck-spend="${spend}"]`);
        if (offer) offer.click();
    }, delay)""", [spend, delay * 1000])
    result = b.locator("#result")
    if spend == 2:
        expect(result.locator('[data-fact="luck_used"] dd')).to_have_text("2")
        expect(b.locator(STATUS)).to_have_text("Mara spent 2 Luck (2 → 0).")
        expect(stock(b)).to_have_text("Luck 0 · XP 0")
    else:
        expect(result.locator(".note")).to_contain_text("Mara has only 2 Luck now")
        expect(offers(b).get_by_role("button")).to_have_text([OFFER[2]])
        expect(stock(b)).to_have_text("Luck 2 · XP 0")
    spends = [e for e in stored_log(b)["entries"] if e["kind"] == "spend"]
    assert [(e["before"], e["after"]) for e in spends] == (
        [(6, 2), (2, 0)] if spend == 2 else [(6, 2)])
    assert mara(b)["luck"] == 6 - sum(e["amount"] for e in spends)


def test_a_roll_withdrawn_in_one_tab_is_struck_through_in_the_other(tabs):
    a, b = tabs
    roll(a)
    expect(b.locator(ENTRIES)).to_have_count(1)
    a.get_by_role("button", name="Undo this roll").click()
    expect(b.locator(f"{ENTRIES}.withdrawn")).to_have_count(1)
    expect(b.locator(ENTRIES).first).to_contain_text("Withdrawn:")


def test_a_roll_judged_again_or_withdrawn_in_one_tab_is_redrawn_in_the_other(tabs):
    """Tab a's roll bought a Success with 2 Luck; tab b's "Undo last spend" gives the Luck back:
    a shows the dice as first judged, its offers open again. Tab b shows the roll from the log;
    a withdraws it: b's result is struck through and says so."""
    a, b = two_pool_tabs(tabs, luck=5)
    roll_with_offers(a, 5)
    result = a.locator("#result")
    offers(a).get_by_role("button", name=OFFER[2], exact=True).click()
    expect(result.locator(".headline")).to_contain_text("Success (IoS 2)")
    b.bring_to_front()
    bar_tool(b, "Undo last spend (2 Luck)").click()
    expect(stock(b)).to_have_text("Luck 5 · XP 0")
    a.bring_to_front()
    expect(result.locator(".headline")).to_contain_text("Basic Success")
    expect(result).to_contain_text("Changed in another tab: this roll is judged as the log "
                                   "holds it now.")
    expect(offers(a).get_by_role("button")).to_have_count(2)

    b.locator(ENTRIES).get_by_role("button", name=re.compile(r"^Mara · Lockpicking")).click()
    expect(b.locator("#result .headline")).to_contain_text("Basic Success")
    a.get_by_role("button", name="Undo this roll").click()
    expect(b.locator("#result")).to_contain_text("Withdrawn in another tab: this roll no "
                                                 "longer counts")
    expect(b.locator("#result .withdrawn-tag")).to_have_text("Withdrawn")
