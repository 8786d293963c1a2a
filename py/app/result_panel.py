"""The result side of the page: a check rolled and shown, or a roll shown again — tapped in the
log or opened from a replay link — which never draws anything new. Around a result: roll the
same check again (Re-roll), share it as a link, and the GM's reveal of a secret difficulty.

Data still flows one way: request → skillcheck → result → HTML; then, once the result is on
screen, the log and the character's stocks are written (log_panel.record, characters_panel.spend).
"""

from __future__ import annotations

import skillcheck
from pyscript import web, when, window
from pyscript.ffi import is_none
from skillcheck import InvalidRequest

from . import browser, characters_panel, dom, forms, links, log_panel, result_html
from .characters import already_spent
from .check_words import kind_of, title
from .log_model import WHO, reveal_request, strip_draw
from .result_notes_html import (
    REVEAL,
    announce_html,
    is_secret,
    reveal_difficulty,
    revealed_note,
    share_text,
    source_html,
)
from .session import Session, Shown
from .storage import stamp, utc_now

session: Session  # handed in by main.py at boot (start)


def start(booted: Session) -> None:
    """Re-roll repeats the log's last check, also after a reload."""
    global session
    session = booted
    last_check = session.log and session.log.last_check()
    session.again = last_check["request"] if last_check else None
    session.again_who = who_of(last_check) if last_check else None
    web.page["share-honesty"].textContent = links.HONESTY
    tools()


def who_of(entry: dict) -> dict | None:
    """The character and skill a logged check was rolled for, if it names them."""
    return {field: entry[field] for field in WHO if entry.get(field)} or None


def perform(request: dict, animate: bool, refit: bool = False, again: bool = False) -> None:
    """Resolve and show `request`, then log it and take what it spent. With `refit` (another
    card chosen, or Luck spent, on the check shown), the shown check's log entry is amended
    rather than a second one added; a card count the choice changed is the engine's to fit.
    The roll is said to be for the picked character (and the sheet's skill, while the form
    holds what it filled in); a re-roll or a refit, for whoever the check repeated was for."""
    earlier = session.shown if refit else None
    who = (earlier.who if earlier else session.again_who if again
           else characters_panel.who(request))
    already = already_spent(earlier and earlier.result)
    form = dom.active_form()
    dom.clear_errors(form)
    browser.trouble("")
    try:
        characters_panel.check_spend(request, already)
        result = skillcheck.resolve(request, session.rng)
    except InvalidRequest as error:
        browser.trouble(browser.explain_invalid(form, error))
        return
    spent, problem = characters_panel.spend(result, already)
    shown = Shown(result, who=who)
    session.again, session.again_who = result["request"], who
    show(shown, animate=animate, notes=[problem] if problem else [])
    log_panel.record(shown, spent, amends=earlier)
    if animate:
        browser.tick()
        scroll_to_result()


def scroll_to_result(block: str = "nearest") -> None:
    """Bring the result's whole panel into view, so Re-roll and Share under it are not left
    beneath a phone's fixed roll bar (the page's scroll padding keeps it clear)."""
    web.page["result"]._dom_element.closest("section").scrollIntoView(
        block=block, behavior="auto" if dom.reduced_motion() else "smooth")


def show(shown: Shown, animate: bool = False, notes: list[str] = ()) -> None:
    session.shown = shown
    result = shown.result
    source = source_html(shown.source, browser.long_time(shown.time),
                         inputs_shown(result["request"]) if shown.source == "link" else ()
                         ) if shown.source else ""
    announce = announce_html(result) if is_secret(result) else ""
    heading = title(result["request"], **(shown.who or {}))
    web.page["result"].innerHTML = source + announce + result_html.result_html(
        result, animate=animate, notes=tuple(notes), heading=heading,
        offers=shown.source is None and not shown.revealed)
    log_panel.showing(shown)
    tools()


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
    log_panel.showing(None)
    tools()


def tools() -> None:
    """Re-roll, Share (and Show QR) and the GM's reveal, for what the panel shows."""
    shown = session.shown
    result = shown and shown.result
    web.page["result-tools"].hidden = not (shown or session.again)
    web.page["roll-again"].hidden = session.again is None
    if session.again is not None:  # what it repeats, whatever the form shows now
        web.page["roll-again"].textContent = "Re-roll " + title(session.again,
                                                                **(session.again_who or {}))
    web.page["share"].hidden = result is None
    web.page["share-copy"].hidden = result is None
    web.page["share-qr"].hidden = result is None
    web.page["share-box"].hidden = True
    web.page["roll-last"].hidden = result is None
    web.page["roll-last"].innerHTML = result_html.last_html(
        result, kind_of(result["system"], result["request"].get("mode"))) if result else ""
    reveal = is_secret(result) and result["system"] in REVEAL
    web.page["reveal-form"].hidden = not reveal
    if reveal:
        label, hint, _ = REVEAL[result["system"]]
        web.page["reveal-label"].textContent = f"GM: {label}"
        web.page["reveal-hint"].textContent = hint
        web.page["reveal"].value = ""
        dom.clear_errors(web.page["reveal-form"])


def open_replay(fragment: str) -> bool:
    """Show the roll a replay link carries; a link that cannot be shown says why in the panel."""
    try:
        link = links.open_link(fragment)
    except links.LinkError as error:
        session.shown = None
        web.page["result"].innerHTML = result_html.problem_html(
            f"{error} The page works as usual: fill in the form above and roll.")
        tools()
        _to_the_top()
        return False
    session.again = None  # a replay is someone's roll, not one to repeat here
    show(Shown(link["result"], source="link", time=link["time"]))
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
    if is_none(button) or shown is None or shown.source or shown.revealed:
        return  # a roll shown again is not played again, nor one the GM has judged
    request = shown.result["request"]
    if button.hasAttribute("data-keep"):
        request = forms.with_value(request, button.getAttribute("data-keep-path"),
                                   int(button.getAttribute("data-keep")))
    else:
        request = {**request, "luck_spend": int(button.getAttribute("data-luck-spend"))}
    perform(request, animate=False, refit=True)


@when("click", "#roll-again")
@browser.guarded
def on_roll_again(event) -> None:
    if session.again is not None:
        perform(characters_panel.within_stock(strip_draw(session.again)), animate=True,
                again=True)


def _shared() -> tuple[str, str] | None:
    """(replay link, chat line) of the roll shown, or None when nothing is shown."""
    shown = session.shown
    if shown is None:
        return None
    url = links.share_url(str(window.location.href), shown.result,
                          shown.time or stamp(utc_now()))
    return url, share_text(shown.result, url, shown.who)


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
    event.preventDefault()
    shown, form = session.shown, web.page["reveal-form"]
    dom.clear_errors(form)
    if shown is None or not is_secret(shown.result):
        return
    secret = shown.result
    try:
        difficulty = reveal_difficulty(secret["system"], web.page["reveal"].value)
        result = links.replay(reveal_request(secret, difficulty))
    except InvalidRequest as error:
        dom.show_error(form, "reveal", error.reason)
        return
    revealed = Shown(result, source=shown.source, time=shown.time, who=shown.who,
                     revealed=True)
    spent, problem = characters_panel.spend(result) if shown.source != "link" else (None, None)
    show(revealed, notes=[revealed_note(difficulty), *([problem] if problem else [])])
    if shown.source != "link":  # a link's roll is not in this log
        log_panel.record(revealed, spent, reveals=shown)
    scroll_to_result(block="start")  # the verdict's headline, not the reveal box, in view


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


def show_entry(entry: dict) -> str | None:
    """A logged check or reveal shown again from its own draw (never rolled again); why it
    cannot be, or None."""
    try:
        result = links.replay(entry["request"])
    except (InvalidRequest, links.MissingDraw) as error:
        return str(error) or "its cards or dice are missing"
    check = entry if entry["kind"] == "check" else log_panel.log().get(entry["reveals"])
    session.again = check["request"] if check else None
    session.again_who = who_of(check) if check else None
    show(Shown(result, source="log", entry=entry, time=entry["time"], who=who_of(entry)))
    return None


def show_last(log, fragment: str) -> None:
    """After a reload, the result the player last saw: the log's newest check or reveal, shown
    again, when it belongs to the form on screen (a replay link shows its own roll instead)."""
    newest = next((entry for entry in log.entries() if entry["kind"] in ("check", "reveal")),
                  None) if log is not None else None
    if newest is None or links.is_replay(fragment):
        return
    request = newest["request"]
    if (request.get("system"), request.get("mode")) == dom.shown():
        show_entry(newest)
