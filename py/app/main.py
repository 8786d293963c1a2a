"""Boot: wire the page's events to the rules engine, then mark <html data-ready="true">.

Data flows one way — form → request → skillcheck → result → HTML — except the player's choice of
another card, which is the last result's own request with `keep` added. Every handler is guarded:
InvalidRequest is shown beside its field, anything else as a plain sentence (details go to the
console), so no traceback ever reaches the page.
"""

from __future__ import annotations

import asyncio
import functools
import random
import traceback

import skillcheck
from pyscript import document, web, when, window
from pyscript.ffi import is_none
from skillcheck import InvalidRequest

from app import forms, page, report

ODDS_DELAY = 0.12  # seconds of quiet typing before the odds are worked out again
SOMETHING_WRONG = "Something went wrong. Please try again; the details are in the console."

SKILLS = {skill["name"]: skill for skill in skillcheck.SYSTEMS.get("flip", {}).get("skills", [])}
state = {"rng": None, "result": None, "odds_task": None}


def guarded(handler):
    """Run an event handler so that no exception escapes to the page."""
    @functools.wraps(handler)
    def run(event):
        try:
            handler(event)
        except Exception:  # the page shows a sentence; the console keeps the traceback
            window.console.error(traceback.format_exc())
            trouble(SOMETHING_WRONG)
    return run


def trouble(message: str) -> None:
    web.page["form-error"].textContent = message


def request_now() -> dict:
    system, mode = page.shown()
    return forms.request_from(system, mode, page.controls(page.active_form()))


def explain_invalid(form, error: InvalidRequest) -> str:
    """Show `error` beside its field; returns the message in the field's own words."""
    if page.show_error(form, error.field, error.reason):
        return f"{page.label_of(form, error.field)}: {error.reason}"
    return str(error)


# ---------------------------------------------------------------------------------------------
# odds, worked out again shortly after the form changes
# ---------------------------------------------------------------------------------------------

def show_odds() -> None:
    form = page.active_form()
    page.clear_errors(form)
    trouble("")
    system, _ = page.shown()
    try:
        odds = skillcheck.odds(request_now())
    except InvalidRequest as error:
        web.page["odds"].innerHTML = report.problem_html(explain_invalid(form, error))
        return
    web.page["odds"].innerHTML = report.odds_html(odds, skillcheck.SYSTEMS[system])


async def _odds_soon() -> None:
    await asyncio.sleep(ODDS_DELAY)
    try:
        show_odds()
    except Exception:
        window.console.error(traceback.format_exc())
        web.page["odds"].innerHTML = report.problem_html(SOMETHING_WRONG)


def odds_soon() -> None:
    if state["odds_task"] is not None:
        state["odds_task"].cancel()
    state["odds_task"] = asyncio.ensure_future(_odds_soon())


# ---------------------------------------------------------------------------------------------
# flip or roll, and choosing another card
# ---------------------------------------------------------------------------------------------

def perform(request: dict, animate: bool, refit: bool = False) -> None:
    """Resolve and show `request`. With `refit` (another card chosen), a side whose card count
    that choice changed — a helper's success gives the primary a card — flips afresh."""
    form = page.active_form()
    page.clear_errors(form)
    trouble("")
    notes = []
    while True:
        try:
            result = skillcheck.resolve(request, state["rng"])
            break
        except InvalidRequest as error:
            fresh = forms.without(request, error.field) if (
                refit and error.field.endswith(".cards")) else None
            if fresh is None:
                trouble(explain_invalid(form, error))
                return
            side = report.side_title(error.field)
            notes.append(f"{side}: that choice changes how many cards are flipped here, so "
                         "these were flipped again.")
            request = fresh
    state["result"] = result
    web.page["result"].innerHTML = report.result_html(result, animate=animate, notes=notes)
    if animate:
        panel = web.page["result"]._dom_element
        panel.scrollIntoView(block="nearest",
                             behavior="auto" if page.reduced_motion() else "smooth")


@when("submit", "#check")
@guarded
def on_submit(event) -> None:
    event.preventDefault()
    if document.documentElement.dataset.ready == "true":
        perform(request_now(), animate=True)


@when("click", "#result")
@guarded
def on_choose_card(event) -> None:
    button = event.target.closest("[data-keep]")
    if is_none(button) or state["result"] is None:
        return
    request = forms.with_value(state["result"]["request"], button.getAttribute("data-keep-path"),
                               int(button.getAttribute("data-keep")))
    perform(request, animate=False, refit=True)


# ---------------------------------------------------------------------------------------------
# the form
# ---------------------------------------------------------------------------------------------

def show_system() -> None:
    """After the pickers change: the button's word, the link, a clean result, fresh odds."""
    system, mode = page.shown()
    description = skillcheck.SYSTEMS.get(system, {})
    web.page["roll"].textContent = description.get("button") or "Roll"
    window.history.replaceState(None, "", forms.fragment(system, mode))
    state["result"] = None
    web.page["result"].innerHTML = report.placeholder_html(description.get("button") or "Roll")
    page.sync(page.active_form())
    show_odds()


@when("change", "#check")
@guarded
def on_change(event) -> None:
    target = event.target
    if target.name in ("system", "mode"):
        show_system()
        return
    if target.hasAttribute("data-skill-picker"):
        page.apply_skill(target, SKILLS)
    page.sync(page.active_form())
    odds_soon()


@when("input", "#check")
@guarded
def on_input(event) -> None:
    if event.target.name not in ("system", "mode"):
        odds_soon()


@when("click", "#check")
@guarded
def on_form_button(event) -> None:
    button = event.target.closest("button")
    if is_none(button):
        return
    if button.hasAttribute("data-step"):
        page.step(button)
    elif button.hasAttribute("data-add-item"):
        page.repeat_add(button.getAttribute("data-add-item"))
        for picker in page.active_form().find("[data-skill-picker]"):
            page.apply_skill(picker._dom_element, SKILLS)
    elif button.hasAttribute("data-remove-item"):
        page.repeat_remove(button)
    else:
        return
    page.sync(page.active_form())
    odds_soon()


def open_link(fresh: bool) -> None:
    """Show the system and mode the address names (#system=flip&mode=opposed); `fresh` also puts
    every form back as the page first drew it, as for a newly opened link."""
    if fresh:
        web.page["check"].reset()
        for group in web.page.find("[data-repeat]"):
            page.reset_repeat(group.getAttribute("data-repeat"))
        for picker in web.page.find("[data-skill-picker]"):
            page.apply_skill(picker._dom_element, SKILLS)
    wanted = forms.route(window.location.hash)
    if wanted and not page.choose(wanted.get("system"), wanted.get("mode")):
        page.choose("flip", "unopposed")
    show_system()


@when("hashchange", window)
@guarded
def on_hashchange(event) -> None:
    open_link(fresh=True)


def boot() -> None:
    seed = forms.seed_from(window.location.search)
    state["rng"] = random.Random(seed) if seed is not None else None
    page.fill_skills(list(SKILLS.values()))
    open_link(fresh=False)  # keep whatever the player typed while Python was loading
    web.page["roll"].disabled = False
    document.documentElement.dataset.ready = "true"


try:
    boot()
except Exception:
    window.console.error(traceback.format_exc())
    trouble(SOMETHING_WRONG)
