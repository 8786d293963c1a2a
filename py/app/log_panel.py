"""The roll log panel: every check, reveal and spend kept in localStorage, newest first, filtered
by system, exported to a JSON file and imported back (or another phone's shared log merged in),
cleared after a question.

Rolls are written down after the result is on screen (browser.change_later), in the order they
happened; only the newest PAGE entries are drawn until the player asks for more. Every change to
the log is made at this tab's turn at the cross-tab lock (browser.change, shared.py).
"""

from __future__ import annotations

from collections.abc import Callable

from pyscript import web, when
from pyscript.ffi import is_none

from . import browser, log_codes, log_html, tonight, tonight_html
from .browser import guarded
from .log_model import RollLog
from .session import Session, Shown
from .storage import MemoryStorage

session: Session  # handed in by main.py at boot (start)
BAR = browser.FileBar("log-status")
say = BAR.say


def log() -> RollLog:
    return session.log


def start(booted: Session, warnings: list[str]) -> None:
    """Load the log (a damaged one is backed up: the warnings say where), ready to record and
    to show the last result; its list is drawn after ready (main.py: `render`, deferred), as
    nothing the first roll needs is in it. Checks drawn from the page's seed are logged with it."""
    global session
    session = booted
    session.log = RollLog(session.storage)
    web.page["log-filter"].innerHTML = log_html.filter_options_html()
    warnings = [*warnings, *session.log.warnings]
    say(" ".join(warnings), problem=bool(warnings))


def refresh() -> None:
    """Another tab changed the log: take its entries in and redraw the list."""
    if log().refresh():
        render()


def render() -> None:
    system, name = session.log_filter or None, session.log_name or None
    entries = log().entries(system, name, session.log_search, session.log_whose)
    listed = entries[:session.log_drawn]
    showing = session.shown and session.shown.entry
    web.page["log-list"].innerHTML = log_html.list_html(listed, browser.short_time,
                                                        showing and showing["id"])
    web.page["log-count"].textContent = log_html.count_text(
        len(listed), len(entries), system,
        narrowed=bool(name or session.log_search.strip() or session.log_whose))
    web.page["log-more"].hidden = len(listed) >= len(entries)
    names = log().names()
    if session.log_name not in names:
        session.log_name = ""
    web.page["log-character"].innerHTML = log_html.character_options_html(names)
    web.page["log-character"].value = session.log_name
    web.page["log-character-field"].hidden = not names
    web.page["log-whose-field"].hidden = not (session.log_whose or log().entries(whose="table"))
    for control in ("log-export", "log-clear", "log-tonight"):
        web.page[control].disabled = not len(log())
    if not web.page["tonight"].hidden:
        render_tonight()


def render_tonight(announce: bool = False) -> None:
    """The evening's runs, drawn again whenever the log changes while the view is open; one
    sentence read out when it opens (the table's, or the one character's), by the page's live
    region (browser.say)."""
    runs = tonight.runs(log().entries())
    web.page["tonight-runs"].innerHTML = tonight_html.tonight_html(runs)
    if announce:
        browser.say(tonight.sentence(runs[-1]) if runs else "No roll to weigh tonight yet.")


def showing(shown: Shown | None) -> None:
    """The result panel now shows `shown` (its log entry, once written, is marked)."""
    current = shown and shown.entry
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


def writer(who: dict | None, reveals: Shown | None = None, amends: Shown | None = None
           ) -> Callable[[dict], tuple[dict, list[str]]]:
    """How a check rolled for `who` goes into the log: `write(result)` gives its entry and the
    warnings, the entry a reveal of the secret check `reveals` holds, or, re-judging the check
    `amends` holds, that check's entry amended, else a new one. Their entries are read when it
    runs: they are logged by then (changes keep their order)."""
    seed = session.seed

    def write(result: dict) -> tuple[dict, list[str]]:
        earlier = amends and amends.entry
        if reveals is not None:
            return log().record_reveal(reveals.entry["id"], result)
        if earlier is not None:
            return log().amend_check(earlier["id"], result, seed=seed, who=who)
        return log().record_check(result, seed=seed, who=who)
    return write


def record(shown: Shown, reveals: Shown | None = None, amends: Shown | None = None) -> None:
    """Log the check `shown` holds once it is on screen (see `writer`), when it spent nothing
    (a spend is logged with it: spending.py); `shown` gets the entry and its time, for sharing
    and for a later reveal."""
    write = writer(shown.who, reveals, amends)

    def job() -> None:
        if reveals is not None and reveals.entry is None:
            return  # the secret check itself never reached the log
        entry, warnings = write(shown.result)
        shown.entry, shown.time = entry, entry["time"]
        _done(warnings)
    browser.change_later(job)


def entry_of(event) -> dict | None:
    """The logged check or reveal a tap in the list chose."""
    button = event.target.closest("[data-entry]")
    if is_none(button):
        return None
    return log().get(int(button.getAttribute("data-entry")))


# ---- the panel's controls ------------------------------------------------------------------------

# Each control that narrows the list, and the state it sets.
NARROWING = {"log-filter": "log_filter", "log-character": "log_name", "log-search": "log_search",
             "log-whose": "log_whose"}


@when("input", "#log-filter, #log-character, #log-search, #log-whose")
@guarded
def on_narrow(event) -> None:
    """A system, a character or words to look for: the list is drawn again from its newest."""
    setattr(session, NARROWING[event.target.id], str(event.target.value))
    session.log_drawn = log_html.PAGE
    render()


@when("click", "#log-tonight")
@guarded
def on_tonight(event) -> None:
    """Open or close the evening's luck under the log's count."""
    opening = web.page["tonight"].hidden
    web.page["tonight"].hidden = not opening
    web.page["log-tonight"].setAttribute("aria-expanded", "true" if opening else "false")
    if opening:
        render_tonight(announce=True)


@when("click", "#log-list")
@guarded
def on_delete(event) -> None:
    button = event.target.closest("[data-delete]")
    if is_none(button):
        return
    entry = log().get(int(button.getAttribute("data-delete")))
    if entry is None:
        return

    async def delete() -> None:
        warnings = await browser.change(lambda: log().delete(entry["id"]))
        say(" ".join(["The entry was deleted.", *warnings]))
        render()
    browser.ask(f"Delete this entry ({log_html.entry_title(entry)}, "
                f"{browser.short_time(entry['time'])})?", "Delete", delete)


@when("click", "#log-more")
@guarded
def on_more(event) -> None:
    session.log_drawn += log_html.PAGE
    render()


@when("click", "#log-export")
@guarded
def on_export(event) -> None:
    BAR.export(log().export_name(), log().export_json(), log_html.entries(len(log())))


@when("change", "#log-import")
@guarded
async def on_import(event) -> None:
    await BAR.import_file(event, import_plan)


def import_plan(text: str) -> browser.ImportPlan:
    """Another phone's shared log (log_codes.py) is merged into this one, its rolls marked as
    the table's, nothing of this log dropped: no question. A log file (a backup: Export's)
    replaces the log, after a question when the log holds anything."""
    shared = log_codes.read_file(text)
    if shared is not None:
        rolls, left_out = shared

        async def merge() -> None:
            found, warnings = await browser.change(lambda: log().merge_shared(rolls))
            say(" ".join([log_codes.merged_text(found, left_out), *warnings]))
            render()
        return None, "", merge
    count, _ = RollLog(MemoryStorage()).import_json(text)  # read it before asking

    async def replace() -> None:
        _, warnings = await browser.change(lambda: log().import_json(text))
        session.log_drawn = log_html.PAGE
        say(" ".join([f"Imported {log_html.entries(count)}.", *warnings]))
        render()

    question = len(log()) and (f"Replace your roll log ({log_html.entries(len(log()))}) with "
                               f"this file's {log_html.entries(count)}?")
    return question or None, "Replace my log", replace


@when("click", "#log-clear")
@guarded
def on_clear(event) -> None:
    async def clear() -> None:
        warnings = await browser.change(log().clear)
        say(" ".join(["The log was cleared.", *warnings]))
        render()
    browser.ask(f"Clear the roll log ({log_html.entries(len(log()))})? Export it first to keep "
                "a copy.", "Clear the log", clear)
