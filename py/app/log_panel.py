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

state: dict = {"log": None, "system": "", "shown": log_html.PAGE, "seed": None}


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
    system = state["system"] or None
    entries = log().entries(system)
    shown = entries[:state["shown"]]
    web.page["log-list"].innerHTML = log_html.list_html(shown, browser.short_time)
    web.page["log-count"].textContent = log_html.count_text(len(shown), len(entries), system)
    web.page["log-more"].hidden = len(shown) >= len(entries)
    for control in ("log-export", "log-clear"):
        web.page[control].disabled = not len(log())


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
            entry, warnings = log().amend_check(earlier["id"], result, seed=state["seed"])
        else:
            entry, warnings = log().record_check(result, seed=state["seed"])
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

@when("change", "#log-filter")
@guarded
def on_filter(event) -> None:
    state["system"] = event.target.value
    state["shown"] = log_html.PAGE
    render()


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
