"""The roll log panel: every check, reveal and spend kept in localStorage, newest first, filtered
by system, exported to a JSON file and imported back, cleared after a question.

Rolls are written down after the result is on screen (browser.later), in the order they
happened; only the newest PAGE entries are drawn until the player asks for more.
"""

from __future__ import annotations

from collections.abc import Callable

from pyscript import web, when
from pyscript.ffi import is_none

from . import browser, log_html
from .browser import guarded
from .log_model import LogFileError, RollLog
from .storage import MemoryStorage, Storage

# shown: how many entries are drawn; showing: the result panel's shown roll (its entry is marked)
state: dict = {"log": None, "system": "", "name": "", "search": "", "shown": log_html.PAGE,
               "seed": None, "showing": None}


def log() -> RollLog:
    return state["log"]


def start(storage: Storage, warnings: list[str], seed: int | None = None) -> None:
    """Load the log (a damaged one is backed up: the warnings say where) and draw it; checks
    drawn from the page's `seed` are logged with it."""
    state["seed"] = seed
    state["log"] = RollLog(storage)
    web.page["log-filter"].innerHTML = log_html.filter_options_html()
    warnings = [*warnings, *state["log"].warnings]
    say(" ".join(warnings), problem=bool(warnings))
    render()


def refresh() -> None:
    """Another tab changed the log: take its entries in and redraw the list."""
    if log().refresh():
        render()


def say(message: str, problem: bool = False) -> None:
    status = web.page["log-status"]
    status.textContent = message
    status._dom_element.classList.toggle("problem", problem)


def render() -> None:
    system, name = state["system"] or None, state["name"] or None
    entries = log().entries(system, name, state["search"])
    shown = entries[:state["shown"]]
    showing = state["showing"] and state["showing"].get("entry")
    web.page["log-list"].innerHTML = log_html.list_html(shown, browser.short_time,
                                                        showing and showing["id"])
    web.page["log-count"].textContent = log_html.count_text(
        len(shown), len(entries), system, narrowed=bool(name or state["search"].strip()))
    web.page["log-more"].hidden = len(shown) >= len(entries)
    names = log().names()
    if state["name"] not in names:
        state["name"] = ""
    web.page["log-character"].innerHTML = log_html.character_options_html(names)
    web.page["log-character"].value = state["name"]
    web.page["log-character-field"].hidden = not names
    for control in ("log-export", "log-clear"):
        web.page[control].disabled = not len(log())


def showing(shown: dict | None) -> None:
    """The result panel now shows `shown` (its log entry, once written, is marked)."""
    state["showing"] = shown
    current = shown and shown.get("entry")
    for button in web.page.find("#log-list [data-entry]"):
        if current and button.getAttribute("data-entry") == str(current["id"]):
            button.setAttribute("aria-current", "true")
        else:
            button.removeAttribute("aria-current")


# ---- recording: after the result is painted ------------------------------------------------------

def _done(warnings: list[str]) -> None:
    if warnings:
        say(" ".join(warnings), problem=True)
    render()


def record(result: dict, spend: dict | None, shown: dict,
           reveals: Callable[[], dict | None] | None = None,
           amends: Callable[[], dict | None] | None = None) -> None:
    """Log a check (with `reveals` giving the secret check's entry: its reveal; with `amends`
    giving the entry of the check it re-judges: that entry, amended) and what it spent; `shown`
    gets the entry and its time, for sharing and for a later reveal. The entries are read when
    the job runs: the check they belong to is logged by then (jobs keep their order)."""
    def job() -> None:
        earlier = amends() if amends is not None else None
        if reveals is not None:
            secret = reveals()
            if secret is None:
                return
            entry, warnings = log().record_reveal(secret["id"], result)
        elif earlier is not None:
            entry, warnings = log().amend_check(earlier["id"], result, seed=state["seed"],
                                                who=shown.get("who"))
        else:
            entry, warnings = log().record_check(result, seed=state["seed"],
                                                 who=shown.get("who"))
        shown.update(entry=entry, time=entry["time"])
        if spend is not None:
            warnings += log().record_spend(spend, entry["id"])[1]
        _done(warnings)
    browser.later(job)


def record_undo(undo: dict) -> None:
    browser.later(lambda: _done(log().record_undo(undo)[1]))


def entry_of(event) -> dict | None:
    """The logged check or reveal a tap in the list chose."""
    button = event.target.closest("[data-entry]")
    if is_none(button):
        return None
    return log().get(int(button.getAttribute("data-entry")))


# ---- the panel's controls ------------------------------------------------------------------------

# Each control that narrows the list, and the state it sets.
NARROWING = {"log-filter": "system", "log-character": "name", "log-search": "search"}


@when("input", "#log-filter, #log-character, #log-search")
@guarded
def on_narrow(event) -> None:
    """A system, a character or words to look for: the list is drawn again from its newest."""
    state[NARROWING[event.target.id]] = str(event.target.value)
    state["shown"] = log_html.PAGE
    render()


@when("click", "#log-list")
@guarded
def on_delete(event) -> None:
    button = event.target.closest("[data-delete]")
    if is_none(button):
        return
    entry = log().get(int(button.getAttribute("data-delete")))
    if entry is None:
        return

    def delete() -> None:
        warnings = log().delete(entry["id"])
        say(" ".join(["The entry was deleted.", *warnings]))
        render()
    browser.ask(f"Delete this entry ({log_html.entry_title(entry)}, "
                f"{browser.short_time(entry['time'])})?", "Delete", delete)


@when("click", "#log-more")
@guarded
def on_more(event) -> None:
    state["shown"] += log_html.PAGE
    render()


@when("click", "#log-export")
@guarded
def on_export(event) -> None:
    browser.download(log().export_name(), log().export_json())
    say(f"Exported {log_html.entries(len(log()))} as {log().export_name()}.")


@when("change", "#log-import")
@guarded
async def on_import(event) -> None:
    text = await browser.chosen_text(event)
    if text is None:
        return
    try:
        count, _ = RollLog(MemoryStorage()).import_json(text)  # read it before asking
    except LogFileError as error:
        say(str(error), problem=True)
        return

    def replace() -> None:
        _, warnings = log().import_json(text)
        state["shown"] = log_html.PAGE
        say(" ".join([f"Imported {log_html.entries(count)}.", *warnings]))
        render()

    if len(log()):
        browser.ask(f"Replace your roll log ({log_html.entries(len(log()))}) with this file's "
                    f"{log_html.entries(count)}?", "Replace my log", replace)
    else:
        replace()


@when("click", "#log-clear")
@guarded
def on_clear(event) -> None:
    def clear() -> None:
        warnings = log().clear()
        say(" ".join(["The log was cleared.", *warnings]))
        render()
    browser.ask(f"Clear the roll log ({log_html.entries(len(log()))})? Export it first to keep "
                "a copy.", "Clear the log", clear)
