"""The result side of the page: a check rolled and shown, or a roll shown again — tapped in the
log or opened from a replay link — which never draws anything new. Around a result: take a roll
made by mistake back (Undo, until the next roll), roll the same check again (Re-roll), share it
as a link, and the GM's reveal of a secret difficulty.

Data still flows one way: request → skillcheck → result → HTML; then, once the result is on
screen, the log is written (log_panel.record). A check that costs a character Luck or XP is
paid and logged before it is shown, in one turn at the cross-tab lock (spending.py).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from types import ModuleType

import skillcheck
from pyscript import document, web, when, window
from pyscript.ffi import is_none
from skillcheck import InvalidRequest
from skillcheck.commitment import MISMATCH

from . import browser, dom, forms, gm_links, links, log_html, result_html, spending
from .adjust_html import adjust_html, adjusted
from .characters import SpendError, already_spent
from .check_words import kind_of, title
from .landed_html import landed_html
from .log_model import WHO, WithdrawError, changed_since, reveal_request, strip_draw
from .result_notes_html import (
    announce_html,
    is_secret,
    reveal_difficulty,
    revealed_note,
    share_text,
    source_html,
)
from .session import Session, Shown
from .spoken_words import sentence
from .storage import stamp, utc_now
from .systems import page_of

REVEAL_MISMATCH = (f"This reveal's salt {MISMATCH} of any secret roll on this phone: nothing "
                   "was judged.")
NOTHING_TO_REVEAL = ("No secret roll on this phone was made with a GM's code, so this reveal has "
                     "nothing to judge.")
session: Session  # handed in by main.py at boot (start), with the panels it calls:
log_panel: ModuleType  # record, writer, render, showing, entry_of, log
characters_panel: ModuleType  # picked, who, pays, check_spend, within_stock, paid, render,
# affordable, offers_gone, say


def start(booted: Session, log: ModuleType, characters: ModuleType) -> None:
    """Re-roll repeats the log's last check, also after a reload."""
    global session, log_panel, characters_panel
    session, log_panel, characters_panel = booted, log, characters
    last_check = session.log and session.log.last_check()
    session.again = last_check["request"] if last_check else None
    session.again_who = who_of(last_check) if last_check else None
    session.rejudged = rejudged
    web.page["share-honesty"].textContent = links.HONESTY
    tools()


def who_of(entry: dict) -> dict | None:
    """The character and skill a logged check was rolled for, if it names them."""
    return {field: entry[field] for field in WHO if entry.get(field)} or None


def perform(request: dict, animate: bool, refit: bool = False, again: bool = False
            ) -> bool | Awaitable[bool]:
    """Resolve and show `request`, then log it. With `refit` (another card chosen, or Luck
    spent, on the check shown), the shown check's log entry is amended rather than a second one
    added; a card count the choice changed is the engine's to fit. The roll is said to be for
    the picked character (and the sheet's skill, while the form holds what it filled in); a
    re-roll or a refit, for whoever the check repeated was for. A check that costs the picked
    character Luck or XP is judged at this tab's turn at the cross-tab lock, against the stock
    stored then, and is shown only once it is paid and logged (spending.py): then what it gives
    is that turn, to await. Whether it rolled: False when the rules refused the request (said
    beside its field), for the roll guard (roll_guard.py)."""
    earlier = session.shown if refit else None
    who = (earlier.who if earlier else session.again_who if again
           else characters_panel.who(request))
    form = dom.active_form()
    dom.clear_errors(form)
    browser.trouble("")
    try:
        if earlier is None:
            characters_panel.check_spend(request)
            if characters_panel.pays(request):
                return _pay(request, who, animate)
        result = skillcheck.resolve(request, session.rng)
    except InvalidRequest as error:
        browser.trouble(browser.explain_invalid(form, error))
        return False
    if (earlier is not None and characters_panel.picked() is not None
            and already_spent(result) > already_spent(earlier.result)):
        browser.spawn(_choose(result, earlier))
        return True
    log_panel.record(refitted(result, earlier) if earlier else present(result, who, animate),
                     amends=earlier)
    return True


def refitted(result: dict, earlier: Shown, entry: dict | None = None) -> Shown:
    """The check shown judged again on its draw (another card kept, Luck spent), in its place
    (its log `entry`, when already amended). One the GM revealed stays revealed, under the GM's
    note, and Re-roll still repeats the secret check, not the difficulty the GM gave away."""
    if not earlier.revealed:
        return present(result, earlier.who, False, entry=entry)
    shown = Shown(result, entry=entry or earlier.entry, time=earlier.time, who=earlier.who,
                  revealed=True, seeded=earlier.seeded, said=earlier.said)
    show(shown)
    return shown


def present(result: dict, who: dict | None, animate: bool, notes: list[str] = (),
            entry: dict | None = None) -> Shown:
    """Show a check rolled here (its log `entry`, when already written), for Re-roll too."""
    shown = Shown(result, who=who, entry=entry, time=entry and entry["time"],
                  seeded=session.seed is not None)
    session.again, session.again_who = result["request"], who
    show(shown, animate=animate, notes=notes)
    if animate:
        browser.tick()
        scroll_to_result()
    return shown


async def _pay(request: dict, who: dict | None, animate: bool) -> bool:
    """A check that offers the picked character's Luck or Insurance: drawn, paid and logged in
    one turn, offering no more than the stock stored then. Whether it rolled."""
    character_id, form = session.picked, dom.active_form()
    try:
        judged = await browser.change(lambda: spending.judge(
            session.roster, session.log, character_id, request,
            lambda capped: skillcheck.resolve(capped, session.rng), log_panel.writer(who)))
    except InvalidRequest as error:
        browser.trouble(browser.explain_invalid(form, error))
        return False
    except SpendError as error:  # deleted in another tab
        characters_panel.render()
        browser.trouble(str(error))
        return False
    characters_panel.paid(judged)
    shown = present(judged.result, who, animate, [judged.note] if judged.note else [],
                    judged.entry)
    if judged.entry is None:
        log_panel.record(shown)
    else:
        log_panel.render()
    return True


async def _choose(result: dict, earlier: Shown) -> None:
    """Luck spent on the dice shown, paid from the stock stored now and the check's entry
    amended, in one turn; refused, the check stays as it was, its offers drawn again from
    what the character has, with the reason beside it."""
    character_id, already = session.picked, already_spent(earlier.result)
    try:
        judged = await browser.change(lambda: spending.choose(
            session.roster, session.log, character_id, result, already,
            log_panel.writer(earlier.who, amends=earlier)))
    except SpendError as error:
        characters_panel.render()
        if session.shown is earlier:
            show(earlier, notes=[str(error)], heard=False)
            browser.say(str(error))
        return
    characters_panel.paid(judged)
    refitted(judged.result, earlier, judged.entry)
    log_panel.render()


def rejudged(entry: dict, result: dict, notes: list[str] = ()) -> None:
    """A logged roll judged again without a spend given back ("Undo last spend"): shown so, when
    it is the roll on screen, its Luck offers open again; the bar (or `notes`) says what
    happened."""
    shown = session.shown
    if shown is None or shown.entry is None or shown.entry["id"] != entry["id"]:
        return
    shown.result, shown.entry = result, entry
    show(shown, notes=notes, heard=False)


def follow_log() -> None:
    """Another tab changed the log: the roll on screen, if that tab withdrew it or judged it
    again (its spend given back), is redrawn as the log holds it now and says so, as the list
    under it already does."""
    shown = session.shown
    if shown is None or shown.entry is None:
        return
    stored = log_panel.log().get(shown.entry["id"])
    change = changed_since(shown.entry, stored)
    if change == "withdrawn":
        shown.withdrawn, shown.entry = True, stored
        show(shown, notes=["Withdrawn in another tab: this roll no longer counts; the log keeps "
                           "it struck through."], heard=False)
    elif change == "rejudged":
        try:
            result = links.replay(stored["request"])
        except (InvalidRequest, links.MissingDraw):
            return  # an entry no page could have written: the list says what it holds
        rejudged(stored, result, ["Changed in another tab: this roll is judged as the log "
                                  "holds it now."])


def restock() -> None:
    """The characters changed in another tab: the Luck offers shown are drawn again from the
    stock stored now, and the player told when some can no longer be paid."""
    shown = session.shown
    if shown is None or not shown.luck_open:
        return
    offers = shown.result.get("luck_offers") or []
    left = characters_panel.affordable(shown.result)
    if len(left) != len(web.page.find("#result [data-luck-spend]")):
        show(shown, notes=[] if len(left) == len(offers)
             else [characters_panel.offers_gone(left)], heard=False)


PIXELS = re.compile(r"(-?[0-9.]+)px")


def scroll_to_result(block: str = "nearest") -> None:
    """Bring the result's whole panel into view, so Re-roll and Share under it are not left
    beneath a phone's fixed roll bar (the page's scroll padding keeps it clear); of a panel
    too tall for the screen, the part _shown says, so its headline is always seen ("nearest"
    would leave a tall panel coming from above, or one filling the screen already, with its
    headline above the screen)."""
    panel = web.page["result"]._dom_element.closest("section")
    behavior = "auto" if dom.reduced_motion() else "smooth"
    if block != "nearest":
        panel.scrollIntoView(block=block, behavior=behavior)
        return
    top, bottom = _shown(panel)
    low = float(window.innerHeight) - _padding()
    shift = top - SCROLL_MARGIN if top < SCROLL_MARGIN else max(0.0, bottom - low)
    if shift:
        window.scrollBy(top=shift, behavior=behavior)


def _shown(panel) -> tuple[float, float]:
    """The top and bottom, on screen now, of what to bring into view of the result's panel:
    all of it when it fits; else from its top (or, when that is too far, its headline) down
    to the control in it that has focus (Re-roll, just pressed again) when that fits too; else
    its top and as much under it as fits."""
    room = float(window.innerHeight) - _padding() - SCROLL_MARGIN
    box = panel.getBoundingClientRect()
    if box.height <= room:
        return box.top, box.bottom
    active, headline = document.activeElement, panel.querySelector(".headline")
    if not is_none(active) and panel.contains(active) and not is_none(headline):
        end = active.getBoundingClientRect().bottom
        for top in (box.top, headline.getBoundingClientRect().top - SCROLL_MARGIN / 2):
            if end - top <= room:
                return top, end
    return box.top, box.top + room


def _padding() -> float:
    """The page's scroll padding at the bottom: the roll bar's room (app.css)."""
    padding = str(window.getComputedStyle(document.documentElement).scrollPaddingBottom)
    return sum(float(px) for px in PIXELS.findall(padding))  # "112px", "calc(0px + …)", "auto"


SCROLL_MARGIN = 12  # px, a panel's scroll-margin-top (app.css)


def show(shown: Shown, animate: bool = False, notes: list[str] = (), heard: bool = True
         ) -> None:
    """Put `shown` in the result panel; unless not `heard` (redrawn for another tab's change,
    or put back at a reload), a screen reader reads it out in one sentence (spoken_words.py).
    Focus inside the old result (the card just kept, the Luck offer just taken) goes to its
    like in the new one (focus_again)."""
    session.shown = shown
    focused = focus_held()
    result = shown.result
    source = source_html(shown.source, browser.long_time(shown.time),
                         inputs_shown(result["request"]) if shown.source == "link" else ()
                         ) if shown.source else ""
    announce = announce_html(result) if is_secret(result) else ""
    heading = title(result["request"], **(shown.who or {}))
    glance = landed_html(result) + knobs_html(result)
    # the cards to keep instead while it is open; Luck also once the GM has revealed it
    offers = shown.playable or (shown.luck_open and bool(result.get("luck_offers")))
    if offers:  # only what the picked character can still pay
        result = {**result, "luck_offers": characters_panel.affordable(result)}
    web.page["result"].innerHTML = source + announce + result_html.result_html(
        result, animate=animate, notes=(*shown.said, *notes), heading=heading, offers=offers,
        seeded=shown.seeded, withdrawn=shown.withdrawn, glance=glance, why_open=why_open())
    focus_again(focused)
    log_panel.showing(shown)
    tools()
    if heard:
        browser.say(sentence(shown.result, shown.who, again=shown.source is not None,
                             revealed=shown.revealed, seeded=shown.seeded,
                             withdrawn=shown.withdrawn))


def why_open() -> bool:
    """Whether an opposed or team flip's "Why" opens: as the player left the one shown, else
    where the result stands beside the form (740 px and wider), not on a phone."""
    shown = web.page.find("#result details.why")
    if len(shown):
        return bool(shown[0].open)
    return bool(window.matchMedia("(min-width: 740px)").matches)


def knobs_html(result: dict) -> str:
    """The −/+ of the numbers most changed between rolls, under a result of the form on
    screen (a roll of another system or mode has none: they would step a form not shown)."""
    request = result["request"]
    shown_here = (request.get("system"), request.get("mode")) == dom.chosen()
    if not shown_here:
        return ""
    form = dom.active_form()
    knobs = [dom.knob(form, field) for field in adjusted(*dom.chosen())]
    return adjust_html([knob for knob in knobs if knob is not None])


def _redraw_knobs() -> None:
    """Each knob shows what its box holds now, and which ways it can still step."""
    form = dom.active_form()
    for field in adjusted(*dom.chosen()):
        found = dom.knob(form, field)
        for shown in web.page.find(f'#result [data-adjust-value="{field}"]'):
            shown.textContent = found.value if found else ""
        for button in web.page.find(f'#result [data-adjust="{field}"]'):
            way = int(button.getAttribute("data-adjust-step"))
            button.disabled = not (found and (found.up if way > 0 else found.down))


# ---- where keyboard focus goes -----------------------------------------------------------------
#
# A roll moves no focus: the control the player pressed keeps it, which is where a keyboard user
# goes on from. Roll or Flip stays focused in the bar, always on screen, so Enter or Space rolls
# again; Re-roll stays focused under the result, which is scrolled into view with it (but the
# headline first, on a screen too short for both); Enter in a box leaves the box focused, so the
# player changes a number and presses Enter again (typing scrolls the box back into view; a
# roll never takes focus from a box, nor do the odds, which only redraw their own panel). The
# page's scroll padding keeps whatever Tab reaches clear of the roll bar. Only a result redrawn
# in place (another card kept, Luck taken, offers drawn again) would drop focus to the page's
# body with the control it was on: that focus is moved to the control's like in the new result,
# or to the headline when there is none.

FOCUSABLE = "button, a[href], input, select, textarea, [tabindex]"


def focus_held() -> tuple[str, str] | None:
    """What has keyboard focus inside the result about to be redrawn: ("data-keep-path", the
    side's path) for a card of a hand to choose from, ("data-luck-spend", its spend) for a
    Luck offer, ("", a selector of its data- attributes) for anything else in it; None when
    focus is outside the result."""
    active = document.activeElement
    if is_none(active) or not web.page["result"]._dom_element.contains(active):
        return None
    for name in ("data-keep-path", "data-luck-spend"):  # a card's button, or a kept card
        control = active.closest(f"[{name}]")
        if not is_none(control):
            return name, str(control.getAttribute(name))
    return "", "".join(f'[{item.name}="{window.CSS.escape(item.value)}"]'  # a knob's −, say
                       for item in active.attributes if item.name.startswith("data-"))


def focus_again(held: tuple[str, str] | None) -> None:
    """Focus, in the result just drawn, the like of what `held` says had it: for a card chosen,
    that side's kept card (the one chosen, now kept, beside the other cards' buttons); for a
    Luck offer, the first offer left costing at least as much (the next one up, once it is
    taken; the same one, when it was refused); else the control with the same data-
    attributes (a knob's − or +), if it is there to take focus; else the headline."""
    if held is None:
        return
    result = web.page["result"]._dom_element
    kind, value = held
    target = None
    if kind == "data-keep-path":
        target = result.querySelector(f'.hand[data-keep-path="{value}"] .card.kept')
    elif kind == "data-luck-spend":
        target = next((offer for offer in result.querySelectorAll("[data-luck-spend]")
                       if int(offer.getAttribute("data-luck-spend")) >= int(value)), None)
    elif value:
        target = result.querySelector(value)
    if is_none(target) or target.matches(":disabled"):
        target = result.querySelector(".headline")
    if is_none(target):
        target = web.page["result-heading"]._dom_element
    if not target.matches(FOCUSABLE):
        target.setAttribute("tabindex", "-1")  # focused from here, not a stop for Tab
    target.focus()


def inputs_shown(request: dict) -> list[tuple[str, str]]:
    """A replay's inputs as the form shown names them ("Helper 1 · Rank", "3"), the draw and
    whatever is off or nothing (a 0, an unticked box) left out."""
    form = dom.active_form()
    return [(dom.field_label(form, name), "yes" if value is True else value)
            for name, value in forms.values_of(strip_draw(request)).items()
            if value not in (False, "0", "")]


def clear(button: str) -> None:
    """A clean result panel (another system was chosen)."""
    session.shown = None
    web.page["result"].innerHTML = result_html.placeholder_html(button)
    browser.say("")
    log_panel.showing(None)
    tools()


def tools() -> None:
    """Re-roll, Share (and Show QR) and the GM's reveal, for what the panel shows: a withdrawn
    roll is not shared, as sharing the log leaves it out."""
    shown = session.shown
    result = shown and shown.result
    web.page["result-tools"].hidden = not (shown or session.again)
    web.page["roll-undo"].hidden = not (shown and shown.playable)
    web.page["roll-again"].hidden = session.again is None
    if session.again is not None:  # what it repeats, whatever the form shows now
        web.page["roll-again"].textContent = "Re-roll " + title(session.again,
                                                                **(session.again_who or {}))
    withdrawn = bool(shown and shown.withdrawn)  # it counts nowhere, so it goes nowhere
    for control in ("share", "share-copy", "share-qr"):
        web.page[control].hidden = result is None or withdrawn
    web.page["share-withdrawn"].hidden = not withdrawn
    web.page["share-box"].hidden = True
    web.page["roll-add"].hidden = not addable(shown)
    web.page["add-status"].textContent = ""
    web.page["roll-last"].hidden = result is None
    web.page["roll-last"].innerHTML = result_html.last_html(
        result, kind_of(result["system"], result["request"].get("mode"))) if result else ""
    page = page_of(result["system"]) if is_secret(result) and not shown.withdrawn else None
    reveal = page.reveal if page else None
    web.page["reveal-form"].hidden = reveal is None
    if reveal:
        web.page["reveal-label"].textContent = f"GM: {reveal.label}"
        web.page["reveal-hint"].textContent = reveal.hint
        web.page["reveal"].value = ""
        web.page["reveal-salt"].value = ""
        web.page["reveal-salt-field"].hidden = "commitment" not in result["request"]
        dom.clear_errors(web.page["reveal-form"])


def addable(shown: Shown | None) -> bool:
    """A roll from another phone's link that this table log does not hold yet. A seeded one is
    a demonstration, not a roll, and is never added."""
    return (shown is not None and shown.source == "link" and not shown.seeded
            and session.log is not None and session.log.same_roll(shown.result, shown.time) is None)


def open_replay(fragment: str) -> bool:
    """Show the roll a replay link carries; a link that cannot be shown says why in the panel."""
    try:
        link = links.open_link(fragment)
    except links.LinkError as error:
        session.shown = None
        problem = f"{error} The page works as usual: fill in the form above and roll."
        web.page["result"].innerHTML = result_html.problem_html(problem)
        browser.say(problem)
        tools()
        _to_the_top()
        return False
    session.again = None  # a replay is someone's roll, not one to repeat here
    show(Shown(link["result"], source="link", time=link["time"], seeded=link["seeded"],
               who=link["who"]))
    _to_the_top()
    return True


def _to_the_top() -> None:
    """A link opens on what it carries: the result panel at the top of the screen, at once."""
    web.page["result"]._dom_element.closest("section").scrollIntoView(block="start",
                                                                      behavior="instant")


# ---- the result panel's controls ---------------------------------------------------------------

@when("click", "#result")
@browser.guarded
def on_choose(event) -> None:
    """The player's choice on the draw shown — another card kept, or Luck spent on the dice —
    judged again on the same draw."""
    button = event.target.closest("[data-keep], [data-luck-spend]")
    shown = session.shown
    if is_none(button) or shown is None:
        return
    keep = button.hasAttribute("data-keep")
    if not (shown.playable or (shown.luck_open and not keep)):
        return  # a roll shown again is not played again, nor one withdrawn; one the GM
        # revealed takes Luck, never another card (the GM's difficulty is known by then)
    request = shown.result["request"]
    if keep:
        request = forms.with_value(request, button.getAttribute("data-keep-path"),
                                   int(button.getAttribute("data-keep")))
    else:
        request = {**request, "luck_spend": int(button.getAttribute("data-luck-spend"))}
    perform(request, animate=False, refit=True)


@when("click", "#result")
@browser.guarded
def on_adjust(event) -> None:
    """A knob under the result: one step of the form's own box (dom.step), which the form
    hears as typing: the odds and the roll bar's chance follow, and the next Roll takes it."""
    button = event.target.closest("[data-adjust]")
    if is_none(button):
        return
    dom.step(dom.active_form(), button.getAttribute("data-adjust"),
             int(button.getAttribute("data-adjust-step")))
    _redraw_knobs()


@when("input", "#check")
def on_form_input(event) -> None:
    """A box typed in (or stepped) in the form: the knobs under the result show it too."""
    _redraw_knobs()


@when("click", "#roll-add")
@browser.guarded
async def on_add(event) -> None:
    """The roll of another phone's link, into this page's log as the table's, at the time it
    was rolled and for whom the link says; the same roll twice is one entry (another tab may
    have added it meanwhile)."""
    shown = session.shown
    if shown is None or shown.source != "link" or shown.seeded or session.log is None:
        return
    entry, added, warnings = await browser.change(
        lambda: session.log.add_shared(shown.result, shown.time, shown.who))
    web.page["roll-add"].hidden = True
    whose = f"{shown.who['name']}’s roll" if shown.who else "This roll"
    web.page["add-status"].textContent = " ".join([
        f"{whose} is in the table log{'' if added else ' already'}.", *warnings])
    shown.entry = entry  # marked in the list as the roll shown
    log_panel.render()


@when("click", "#roll-undo")
@browser.guarded
async def on_undo(event) -> None:
    """The roll shown taken back: its log entry kept and marked withdrawn, what it spent given
    back, in one turn at the cross-tab lock, read when that turn comes (the roll's own entry is
    written by then: changes keep their order). The roll stays on screen, struck through."""
    shown = session.shown
    if shown is None or not shown.playable:
        return
    web.page["roll-undo"].disabled = True

    def withdraw() -> spending.Withdrawn:
        if shown.entry is None:
            raise WithdrawError("That roll never reached the log, so there is nothing to "
                                "withdraw.")
        return spending.withdraw(session.roster, session.log, shown.entry["id"])
    try:
        withdrawn = await browser.change(withdraw)
    except WithdrawError as error:
        browser.trouble(str(error))
        return
    finally:
        web.page["roll-undo"].disabled = False
    shown.withdrawn, shown.entry = True, withdrawn.entry
    characters_panel.render()
    if withdrawn.given:  # the bar said what the roll spent: now, what came back
        characters_panel.say(" ".join(withdrawn.given))
    if session.shown is shown:
        show(shown, notes=[" ".join(["Withdrawn: this roll no longer counts; the log keeps it "
                                     "struck through.", *withdrawn.given]), *withdrawn.warnings],
             heard=False)
        browser.say(" ".join([sentence(shown.result, shown.who, withdrawn=True),
                              *withdrawn.given]))  # the roll, then what came back
        web.page["result-heading"]._dom_element.focus()
    log_panel.render()


@when("click", "#roll-again")
@browser.guarded
@browser.one_roll
def on_roll_again(event) -> bool:
    if session.again is None:
        return False
    return perform(characters_panel.within_stock(strip_draw(session.again)), animate=True,
                   again=True)


def _shared() -> tuple[str, str] | None:
    """(replay link, chat line) of the roll shown, or None when nothing is shown, or it was
    withdrawn (its buttons are hidden then: a tap already on its way finds nothing)."""
    shown = session.shown
    if shown is None or shown.withdrawn:
        return None
    url = links.share_url(str(window.location.href), shown.result,
                          shown.time or stamp(utc_now()), shown.seeded, shown.who)
    return url, share_text(shown.result, url, shown.who, shown.seeded)


def _offer(box: str, text: str, copied: bool, what: str) -> None:
    """Show `text` in the share box's `box` (the link, or the chat line) to copy by hand."""
    web.page["share-box"].hidden = False
    for field in ("share-url", "share-line"):
        web.page[f"{field}-field"].hidden = field != box
    web.page[box].value = text
    web.page[box]._dom_element.select()
    web.page["share-status"].textContent = (
        f"{what} copied: paste it to show this roll." if copied
        else f"Copy the {what.lower()} from the box to show this roll.")


@when("click", "#share")
@browser.guarded
async def on_share(event) -> None:
    """The phone's share sheet with the link where there is one; else the link, copied."""
    shared = _shared()
    if shared is None:
        return
    url, line = shared
    web.page["share-url"].value = url  # the link is there at once, whatever the sheet does
    if await browser.share("Skill Check roll", line.removesuffix(f" — {url}"), url):
        web.page["share-box"].hidden = True
        return
    _offer("share-url", url, await browser.copy_text(url), "Link")


@when("click", "#share-copy")
@browser.guarded
async def on_copy_text(event) -> None:
    """The roll as a line for a chat app, its link last, on the clipboard."""
    shared = _shared()
    if shared is not None:
        _offer("share-line", shared[1], await browser.copy_text(shared[1]), "Text")


@when("submit", "#reveal-form")
@browser.guarded
def on_reveal(event) -> None:
    """The GM's difficulty typed in (and, for a committed secret, the GM's salt): a mistake or a
    mismatch is said beside its box, and nothing is judged."""
    event.preventDefault()
    shown, form = session.shown, web.page["reveal-form"]
    dom.clear_errors(form)
    if shown is None or not is_secret(shown.result):
        return
    try:
        difficulty = reveal_difficulty(shown.result["system"], web.page["reveal"].value)
        salt = forms.value_of(forms.HEX, web.page["reveal-salt"].value)
        reveal(difficulty, salt if "commitment" in shown.result["request"] else None)
    except InvalidRequest as error:
        dom.show_error(form, "salt" if error.field == "salt" else "reveal", error.reason)


def reveal(difficulty: dict, salt: str | None = None) -> None:
    """Judge the secret check shown with the GM's `difficulty` ({"dr": 4}) and `salt`: paid and
    logged as a reveal of it (unless it is someone else's roll, from a link). InvalidRequest
    when the rules refuse them; a committed check is judged only if they hash to its
    commitment."""
    shown = session.shown
    request = {**reveal_request(shown.result, difficulty), **({"salt": salt} if salt else {})}
    result = links.replay(request)
    if shown.source == "link":  # someone else's roll: neither paid nor logged here
        _revealed(shown, result, difficulty)
    elif characters_panel.picked() is not None and already_spent(result):
        browser.spawn(_reveal_paid(shown, request, difficulty))
    else:
        log_panel.record(_revealed(shown, result, difficulty), reveals=shown)


def open_reveal(fragment: str) -> None:
    """A GM's reveal link: the committed secret roll of this phone's log it opens, shown and
    judged (or its reveal shown again, if judged already); else why nothing was judged."""
    try:
        system, difficulty, salt = gm_links.read_reveal(fragment)
    except gm_links.GmLinkError as error:
        browser.trouble(str(error))
        return
    entry, waiting = session.log.opened_by(system, *difficulty.values(), salt)
    if entry is None:
        browser.trouble(REVEAL_MISMATCH if waiting else NOTHING_TO_REVEAL)
        return
    problem = show_entry(entry, heard=entry["kind"] == "reveal")
    if problem:
        browser.trouble(f"The secret roll cannot be shown again ({problem}).")
    elif entry["kind"] == "check":
        reveal(difficulty, salt)
    scroll_to_result(block="start")


def _revealed(secret: Shown, result: dict, difficulty: dict, note: str | None = None,
              entry: dict | None = None) -> Shown:
    # judged now, on this phone: no longer a roll "shown again" (unless another phone's link)
    source = "link" if secret.source == "link" else None
    revealed = Shown(result, source=source, entry=entry, time=secret.time,
                     who=secret.who, revealed=True, seeded=secret.seeded,
                     said=(revealed_note(difficulty, result.get("verified", False)),))
    show(revealed, notes=[note] if note else [])
    scroll_to_result(block="start")  # the verdict's headline, not the reveal box, in view
    return revealed


async def _reveal_paid(secret: Shown, request: dict, difficulty: dict) -> None:
    """A reveal that spends the picked character's Luck: judged with no more than the stock
    stored now, paid and logged in one turn."""
    character_id = session.picked
    try:
        judged = await browser.change(lambda: spending.judge(
            session.roster, session.log, character_id, request, links.replay,
            log_panel.writer(secret.who, reveals=secret)))
    except SpendError as error:  # deleted in another tab
        characters_panel.render()
        browser.trouble(str(error))
        return
    characters_panel.paid(judged)
    _revealed(secret, judged.result, difficulty, judged.note, judged.entry)
    log_panel.render()


@when("click", "#log-list")
@browser.guarded
def on_log_entry(event) -> None:
    entry = log_panel.entry_of(event)
    if entry is None:
        return
    problem = show_entry(entry)
    if problem:
        browser.trouble(f"This log entry cannot be shown again ({problem}).")
        return
    scroll_to_result()


def show_entry(entry: dict, heard: bool = True) -> str | None:
    """A logged check or reveal shown again from its own draw (never rolled again), read out
    unless not `heard`; why it cannot be, or None."""
    try:
        result = links.replay(entry["request"])
    except (InvalidRequest, links.MissingDraw) as error:
        return str(error) or "its cards or dice are missing"
    check = entry if entry["kind"] == "check" else log_panel.log().get(entry["reveals"])
    session.again = check["request"] if check else None
    session.again_who = who_of(check) if check else None
    seeded = any(logged.get("seed") is not None for logged in (entry, check) if logged)
    regraded = log_html.regraded(entry)  # shown today's way, with what the log told the table
    withdrawn = "withdrawn" in entry
    notes = [f"{regraded[0].upper()}{regraded[1:]}."] if regraded else []
    if withdrawn:
        notes.insert(0, "Withdrawn: this roll was taken back and no longer counts.")
    show(Shown(result, source="log", entry=entry, time=entry["time"], who=who_of(entry),
               seeded=seeded, withdrawn=withdrawn),  # a reveal logged before reveals kept
         notes=notes, heard=heard)  # the seed: its check's
    return None


def show_last(log, fragment: str) -> None:
    """After a reload, the result the player last saw: the log's newest check or reveal, shown
    again, when it belongs to the form on screen (a replay link shows its own roll instead)."""
    newest = next((entry for entry in log.entries() if entry["kind"] in ("check", "reveal")),
                  None) if log is not None else None
    if newest is None or links.is_replay(fragment):
        return
    request = newest["request"]
    if (request.get("system"), request.get("mode")) == dom.chosen():
        show_entry(newest, heard=False)  # put back as it was, not news to read out
