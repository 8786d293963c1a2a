"""Boot: wire the page's events to the rules engine, then mark <html data-ready="true">.

Data flows one way — form → request → skillcheck → result → HTML — except the player's choice of
another card, which is the last result's own request with `keep` added (result_panel.py holds the
result side; log_panel.py the roll log; characters_panel.py the saved characters; qr_panel.py the
QR codes; log_share_panel.py the log passed to another phone; scan_panel.py the scanner;
gm_panel.py the GM's side; party_panel.py the party's chances there). The panels do not import each
other: boot() hands each the ones it calls, so this is the one module where they meet. Every
handler is guarded: InvalidRequest is shown beside its field, anything else as a plain sentence
(details go to the console), so no traceback ever reaches the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import traceback

import skillcheck
from pyscript import document, web, when, window
from pyscript.ffi import is_none
from skillcheck import InvalidRequest

from app import (
    advice,
    browser,
    characters_panel,
    dom,
    editor_draft,
    form_memory,
    forms,
    gm_links,
    gm_panel,
    links,
    log_panel,
    log_share_panel,
    party_panel,
    qr_panel,
    result_html,
    result_panel,
    scan_panel,
    systems,
    views,
)
from app.browser import SOMETHING_WRONG, explain_invalid, guarded, trouble
from app.characters import CHARACTERS_KEY
from app.gm_secrets import GM_KEY
from app.log_model import LOG_KEY, strip_draw
from app.session import Session

ODDS_DELAY = 0.12  # seconds of quiet typing before the odds are worked out again

SKILLS = {skill["name"]: skill for skill in systems.SKILL_LIST}
# The page's state, made at boot (see session.py): a module-level name rather than closures,
# because @when registers each handler when its module is imported, before boot has run.
session: Session


def request_now() -> dict:
    system, mode = dom.chosen()
    return forms.request_from(system, mode, dom.controls(dom.active_form()))


# ---------------------------------------------------------------------------------------------
# odds, worked out again shortly after the form changes
# ---------------------------------------------------------------------------------------------

def show_odds() -> None:
    form = dom.active_form()
    remember_form()
    dom.say_folded(form)
    dom.clear_errors(form)
    trouble("")
    system, _ = dom.chosen()
    try:
        request = request_now()
        characters_panel.show_in_use(request)  # the sheet's skill, while the form holds it
        characters_panel.check_spend(request)
        found = advice.advise(characters_panel.within_stock(request))
        # A row of the advisor holds the request's own odds, unless it offers more than ten.
        odds = (found and found.odds_of(request)) or skillcheck.odds(request)
    except InvalidRequest as error:
        web.page["odds"].innerHTML = result_html.problem_html(explain_invalid(form, error))
        show_chance("")
        show_advice(None)
        return
    odds_html = result_html.odds_html(odds, skillcheck.SYSTEMS[system])
    dom.replace_keeping_open(web.page["odds"], odds_html, "data-outcome")
    offered = systems.points_offered(request)
    bare = (found.rows[0].odds if found and offered and offered[0] == found.field
            else skillcheck.odds({**request, offered[0]: 0}) if offered else None)
    show_chance(result_html.chance_html(odds, bare, offered[1] if offered else ""))
    show_advice(found)
    show_notes(form, odds.get("notes") or {})


def show_advice(found: advice.Advice | None) -> None:
    """The spend advisor under the odds (none where a system spends no points, or while the
    form holds a mistake); the rows the player opened stay open."""
    box = web.page["advice"]
    opened = frozenset(int(button.closest("tr").getAttribute("data-points")) for button in
                       box._dom_element.querySelectorAll("button[aria-expanded=true]"))
    box.innerHTML = result_html.advice_html(found, opened) if found else ""
    box.hidden = found is None


@when("click", "#advice")
@guarded
def on_advice(event) -> None:
    """A tap on an advisor's row, or its button, opens the chances in words under it."""
    row = event.target.closest("tr[data-points]")
    if is_none(row):
        return
    button = row.querySelector("button[aria-expanded]")
    opening = button.getAttribute("aria-expanded") != "true"
    button.setAttribute("aria-expanded", "true" if opening else "false")
    document.getElementById(button.getAttribute("aria-controls")).hidden = not opening


def show_chance(html: str) -> None:
    """The chance beside Roll in the sticky bar (none while the form holds a mistake)."""
    chance = web.page["roll-chance"]
    chance.innerHTML = html
    chance.hidden = not html


def show_notes(form, notes: dict[str, str]) -> None:
    """The engine's notes on the request, each beside its field, before anything is rolled
    (a contested Passages base with Core 0); notes no longer true are taken away."""
    for old_form, field in session.noted:
        dom.set_note(old_form, field, None)
    for field, text in notes.items():
        dom.set_note(form, field, text)
    session.noted = [(form, field) for field in notes]


async def _odds_soon() -> None:
    await asyncio.sleep(ODDS_DELAY)
    try:
        show_odds()
    except Exception:
        window.console.error(traceback.format_exc())
        web.page["odds"].innerHTML = result_html.problem_html(SOMETHING_WRONG)
        show_chance("")
        show_advice(None)


def odds_soon() -> None:
    if session.odds_task is not None:
        session.odds_task.cancel()
    session.odds_task = asyncio.ensure_future(_odds_soon())


def odds_pending() -> bool:
    """A change to the form is waiting for its odds. Every change to a check form asks for
    them, and working them out keeps the form (`show_odds`): so none is waiting, the form is
    kept as it is, and the page can go without keeping it again. Python's work as the page goes
    made the reload after it 70–90 ms slower (docs/performance.md)."""
    return session.odds_task is not None and not session.odds_task.done()


# ---------------------------------------------------------------------------------------------
# flip or roll
# ---------------------------------------------------------------------------------------------

@when("submit", "#check")
def on_submit(event) -> None:
    """The form's own submission, which follows a press of Roll (on_roll), goes nowhere."""
    event.preventDefault()


@when("click", "#roll")
@guarded
@browser.one_roll
def on_roll(event) -> bool:
    """Roll or Flip pressed (Enter in a box presses it too, as the form's default button). The
    press, not the submission after it, is what the guard times: a tap that waited behind a
    slow roll keeps the time it was made."""
    if document.documentElement.dataset.ready != "true":
        return False
    leave_replay()
    return result_panel.perform(request_now(), animate=True)


@when("keydown", "#check, #roll, #roll-again")
@guarded
def on_key_held(event) -> None:
    """Enter held down repeats as presses, each of which would roll (or submit once more after
    QUIET_MS, roll_guard.py): only the first press counts."""
    if event.key == "Enter" and event.repeat:
        event.preventDefault()


def leave_replay() -> None:
    """The player's own check from now on: the address stops being the replay link it opened
    on (a reload would show that replay again over what they rolled)."""
    if links.is_replay(str(window.location.hash)):
        window.history.replaceState(None, "", forms.fragment(*dom.chosen()))


@when("click", "#result")
@guarded
def on_roll_myself(event) -> None:
    """A replay's "Roll this check myself": its inputs into the form, ready to roll."""
    shown = session.shown
    if is_none(event.target.closest("[data-roll-myself]")) or not shown:
        return
    request = shown.result["request"]
    fill_form(request.get("mode"), forms.values_of(strip_draw(request)), fresh=True)
    characters_panel.caps()  # a picked character offers no more than they have
    leave_replay()
    to_form()


def to_form() -> None:
    """The shown form scrolled to, its first box focused: filled for the player to roll."""
    form = dom.active_form()
    form._dom_element.scrollIntoView(block="start", behavior="auto" if dom.reduced_motion()
                                     else "smooth")
    form.find("input, select")[0]._dom_element.focus(preventScroll=True)


def play_for(system: str, character_id: int, skill: str, fields: dict, asked: dict) -> None:
    """A row of the GM's party table tapped: the player's side on that system's first kind of
    check, at its own address (Back returns to the GM's side), the character picked, the form
    filled as "From the sheet" fills it, and the GM's difficulty in its box — an open check,
    so never a secret one."""
    gm_panel.show_side(False)
    dom.choose(system, (systems.PAGES[system].modes or (None,))[0])
    show_system()
    window.history.pushState(None, "", forms.fragment(*dom.chosen()))
    characters_panel.pick(character_id)
    character = characters_panel.picked()
    if character is None:  # deleted in another tab since the table was drawn
        return
    characters_panel.fill_from(character, skill, fields, gm_set=True)
    form = dom.active_form()
    dom.set_values(form, {"secret": False, **asked})
    dom.sync(form)
    remember_form()
    odds_soon()
    to_form()


# ---------------------------------------------------------------------------------------------
# the form
# ---------------------------------------------------------------------------------------------

def show_system() -> None:
    """After the pickers change: the button's word, the link, a clean result, fresh odds."""
    system, mode = dom.chosen()
    description = skillcheck.SYSTEMS.get(system, {})
    web.page["roll"].textContent = description.get("button") or "Roll"
    fragment, address = forms.fragment(system, mode), str(window.location.hash)
    if address not in (fragment, views.GM):  # a boot's link says so already: 3 ms saved
        window.history.replaceState(None, "", fragment)
    result_panel.clear(description.get("button") or "Roll")
    form = dom.active_form()
    prepare(form)
    dom.sync(form)
    characters_panel.follow()  # a form another character's pick filled: theirs no longer
    characters_panel.render()
    show_odds()


@when("change", "#check")
@guarded
def on_change(event) -> None:
    target = event.target
    if not is_none(target.closest(".who")):
        return  # the character bar has handlers of its own
    if target.name in ("system", "mode"):
        show_system()
        return
    if target.hasAttribute("data-skill-picker"):
        dom.apply_skill(target, SKILLS)
    dom.sync(dom.active_form())
    leave_replay()
    remember_form()
    odds_soon()


@when("input", "#check")
@guarded
def on_input(event) -> None:
    if event.target.name not in ("system", "mode"):
        leave_replay()
        remember_form()  # now: the player may switch forms before the odds are worked out
        odds_soon()


@browser.button_clicks("#check")
def on_form_button(button) -> None:
    """A repeated group's add or remove button. (A box's −/+ are early-form.js's, from before
    Python runs: one step, then the input and change events that typing sends.)"""
    if not dom.repeat_button(button, added=lambda _: apply_skills(dom.active_form())):
        return
    dom.sync(dom.active_form())
    leave_replay()
    odds_soon()


def apply_skills(scope) -> None:
    """Each skill picker in `scope` shows its skill's aspect, Advanced box, specializations."""
    for picker in scope.find("[data-skill-picker]"):
        dom.apply_skill(picker._dom_element, SKILLS)


def open_link(fresh: bool) -> None:
    """Show the system and mode the address names (#system=flip&mode=opposed); `fresh` also puts
    every form back as the page first drew it, as for a newly opened link. A shared log's code
    is taken in, and the address goes back to the form shown (at boot, the form kept)."""
    if links.is_log_part(str(window.location.hash)):
        log_share_panel.receive(str(window.location.hash))
        if fresh:  # the forms stay as they are: a code is not a check
            window.history.replaceState(None, "", forms.fragment(*dom.chosen()))
            return
    if fresh:
        session.afresh = True  # and the forms not shown yet as it draws them, once shown
        web.page["check"].reset()
        for group in web.page.find("#check [data-repeat]"):
            dom.reset_repeat(group.getAttribute("data-repeat"))
        apply_skills(web.page)
    fragment = str(window.location.hash)
    if links.is_replay(fragment):
        open_replay(fragment)
        return
    wanted = form_memory.opening(forms.route(fragment), session.forms_kept)
    if wanted and not dom.choose(*wanted):
        dom.choose(systems.FIRST, systems.FIRST_MODE)
    show_system()


def open_replay(fragment: str) -> None:
    """A replay link: its system's form, and its roll shown again; the link stays in the
    address, so reloading shows it again."""
    try:
        request = links.read_link(fragment)["request"]
        dom.choose(request.get("system"), request.get("mode"))
    except links.LinkError:
        pass  # result_panel.open_replay says what is wrong with it
    show_system()
    if result_panel.open_replay(fragment):
        window.history.replaceState(None, "", fragment)


def fill_form(mode: str | None, values: dict, fresh: bool = False) -> None:
    """A saved character's pick: its mode shown if it needs another, then its values, with the
    chosen skill's own aspect hint and specializations; the sheet's ticks win over the skill's.
    `fresh`: on a form first put back as the page draws it."""
    system, shown_mode = dom.chosen()
    if mode and mode != shown_mode and dom.choose(system, mode):
        show_system()
    form = dom.active_form()
    if fresh:
        dom.reset_form(form)
    dom.clear_errors(form)
    dom.fit_repeats(form, values)
    dom.set_values(form, values)
    for picker in form.find("[data-skill-picker]"):
        if fresh or picker.name in values:
            dom.apply_skill(picker._dom_element, SKILLS)
    dom.set_values(form, values)
    dom.sync(form)
    remember_form()  # now, with its pick: the player may switch forms before the odds are out
    odds_soon()


def take_commitment(fragment: str) -> None:
    """A GM's commitment link: the system's secret check form (in the mode shown, if it can be
    secret), ticked secret, with the GM's code in its box, ready to roll."""
    try:
        system, commitment = gm_links.read_commit(fragment)
    except gm_links.GmLinkError as error:
        trouble(str(error))
        return
    shown = dom.chosen()
    for mode in dict.fromkeys([shown[1] if shown[0] == system else None,
                               *skillcheck.SYSTEMS[system]["modes"]]):
        dom.choose(system, mode)
        if len(dom.active_form().find('[name="commitment"]')):
            break
    if dom.chosen() != shown:
        show_system()
    form = dom.active_form()
    dom.set_values(form, {"secret": True, "commitment": gm_links.grouped(commitment)})
    dom.sync(form)
    dom.set_note(form, "commitment", "From the GM's link: it goes with your secret roll, so "
                 "the GM's reveal can be checked.")
    remember_form()
    odds_soon()
    box = form.find('[name="commitment"]')[0]._dom_element
    box.scrollIntoView(block="center", behavior="auto" if dom.reduced_motion() else "smooth")


def open_gm_link(fragment: str) -> None:
    """A GM's link opened on a player's page: a commitment goes into a secret check's form, a
    reveal judges the secret roll it opens. The address becomes the check's own again."""
    gm_panel.show_side(False)
    if gm_links.is_commit(fragment):
        take_commitment(fragment)
    else:
        result_panel.open_reveal(fragment)
    window.history.replaceState(None, "", forms.fragment(*dom.chosen()))


def shows_another(address: str) -> bool:
    """Whether opening `address` shows another view than the one any open dialog is about: a
    side of the table, a GM's link, a check or a replay — not a shared log's code, taken in
    under the view shown (a scan goes on to the next), nor a place on the page."""
    return (views.is_side(address) or gm_links.is_commit(address) or gm_links.is_reveal(address)
            or (links.is_link(address) and not links.is_log_part(address)))


@when("hashchange", window)
@guarded
def on_hashchange(event) -> None:
    """A link opened in this tab (pasted, a bookmark, Back) is opened afresh; a side of the table
    is shown; a GM's link is opened on the check shown. Any other address (a place on the page,
    "#result-heading") is no link: what the page shows stays, and the address goes back to the
    link it was, or to the check shown. A dialog open over the view it leaves is closed first,
    as Escape would; one that asks first (the editor's edits) keeps the view and its address
    until the player says yes, then goes where the address went."""
    address = str(window.location.hash)
    if shows_another(address) and not browser.close_dialogs(lambda: window.history.back()):
        window.history.pushState(None, "", str(event.oldURL))
        return
    if views.is_side(address):
        gm_panel.show_side(address == views.GM, moved=True)
        if address == views.GM:
            party_panel.render()  # the characters as this tab changed them meanwhile
        if address == views.PLAYER:
            window.history.replaceState(None, "", forms.fragment(*dom.chosen()))
        return
    if gm_links.is_commit(address) or gm_links.is_reveal(address):
        open_gm_link(address)
        return
    if links.is_link(address):
        gm_panel.show_side(False)
        open_link(fresh=True)
        return
    _, hashed, before = str(event.oldURL).partition("#")
    before = hashed + before
    window.history.replaceState(None, "", before if links.is_link(before)
                                else forms.fragment(*dom.chosen()))


@when("click", "a[href^='#']")
@guarded
def on_place_link(event) -> None:
    """The roll bar's chips name a place on the page ("#result-heading"): a tap goes there, as a
    link would, and changes nothing else — the address keeps naming the check shown."""
    href = str(event.currentTarget.getAttribute("href"))
    if links.is_link(href) or views.is_side(href):
        return  # one of the page's own links: the browser opens it (on_hashchange)
    event.preventDefault()
    place = document.getElementById(href.removeprefix("#"))
    if is_none(place):
        return
    place.focus(preventScroll=True)  # where Tab goes on from, as after a link (tabindex -1)
    place.scrollIntoView(block="start", behavior="auto" if dom.reduced_motion() else "smooth")


@when("storage", window)
@guarded
def on_storage(event) -> None:
    """Another tab saved: take in its log entries and characters, and offer its editor's draft
    (a null key: all cleared)."""
    key = event.key
    if is_none(key) or key == LOG_KEY:
        log_panel.refresh()
        result_panel.follow_log()  # the roll on screen, withdrawn or judged again there
    if (is_none(key) or key == CHARACTERS_KEY) and characters_panel.refresh():
        result_panel.restock()  # the Luck offers shown, from the stock stored now
        party_panel.render()
    if is_none(key) or key == editor_draft.KEY:
        characters_panel.offer_draft()  # another tab's editor kept a draft, or saved it
    if is_none(key) or key == GM_KEY:
        gm_panel.refresh()


@when("pagehide", window)
@guarded
def on_pagehide(event) -> None:
    browser.run_pending()  # what a roll has not yet written down, before the page goes
    if odds_pending():  # a change the odds, which keep the form, have not yet seen
        remember_form()


def boot() -> None:
    """Each optional step on its own: whatever a link, a file or storage holds, a step that fails
    is said on the page (details in the console) and the page still becomes ready to roll."""
    global session
    seed = forms.seed_from(window.location.search)
    address = str(window.location.hash)  # what the link steps open, before they change it
    storage, warnings = browser.local_storage()
    session = Session(storage, seed=seed, rng=random.Random(seed) if seed is not None else None,
                      fill_form=fill_form)
    failed = [name for name, step in (
        ("the roll log", lambda: log_panel.start(session, warnings)),
        ("the characters", lambda: characters_panel.start(session, log_panel)),
        ("the last roll", lambda: result_panel.start(session, log_panel, characters_panel)),
        ("the QR codes", lambda: qr_panel.start(session)),
        ("sharing the log", lambda: log_share_panel.start(session, log_panel, qr_panel)),
        ("the GM's side", lambda: gm_panel.start(session, qr_panel)),
        ("the party's chances", lambda: party_panel.start(session, play_for)),
        ("the side of the table", lambda: gm_panel.show_side(address == views.GM)),
        ("the scanner", scan_panel.start),
        ("the forms as you left them", restore_forms),
        ("the link", _open_address),
        ("the last result", lambda: result_panel.show_last(log_panel.log(),
                                                           str(window.location.hash))),
        *((("the GM's link", lambda: open_gm_link(address)),)
          if gm_links.is_commit(address) or gm_links.is_reveal(address) else ()),
    ) if not _step(step, name)]
    if seed is not None:
        web.page["seeded"].textContent = forms.seeded_text(seed)
        web.page["seeded"].hidden = False
    if failed:
        trouble(f"Part of the page could not start ({', '.join(failed)}); the details are in "
                "the console. You can still roll.")
    web.page["roll"].disabled = False
    document.documentElement.dataset.ready = "true"
    window.performance.mark("skillcheck ready")
    for name, step in AFTER_READY:
        browser.later(lambda name=name, step=step: _later_step(name, step))
    browser.later(lambda: window.performance.measure("skillcheck after ready", "skillcheck ready"))


# What the first roll does not need, done once the page is ready and idle (browser.later: in
# this order, before any roll's log job queued meanwhile, whose own drawing follows it).
AFTER_READY = (
    ("the roll log's list", log_panel.render),
)


def _later_step(name: str, step) -> None:
    if not _step(step, name, "skillcheck after ready: "):
        trouble(f"Part of the page could not start ({name}); the details are in the console. "
                "You can still roll.")


def kept_forms() -> form_memory.FormMemory:
    try:
        return form_memory.read(session.storage.get(form_memory.KEY))
    except Exception:  # unreadable storage: the forms start as the page draws them
        return form_memory.FormMemory()


def restore_forms() -> None:
    """The shown check form as the player left it before the page was reloaded; each other
    form is, the first time it is shown (`prepare`). The link's step shows it next, and
    carries out its links (`show_system`)."""
    session.forms_kept = kept_forms()
    for mode in session.forms_kept.modes.values():
        dom.tick("mode", mode)
    prepare(dom.active_form())


def prepare(form) -> None:
    """A check form the first time it is shown: its skill lists, and what was kept of it
    (whatever the player typed while Python was loading stays)."""
    if form.id in session.prepared:
        return
    session.prepared.add(form.id)
    dom.fill_skills(form, list(SKILLS.values()))
    kept = session.forms_kept.of(form.getAttribute("data-system"), form.getAttribute("data-mode"))
    dom.restore(form, {} if session.afresh else kept, SKILLS)


def remember_form() -> None:
    """Keep the shown form as it is now, with the pick that filled it, for the next load, on
    top of the other forms as storage holds them (another tab may have kept one meanwhile)."""
    system, mode = dom.chosen()
    session.forms_kept = kept_forms().remember(system, mode, dom.form_values(dom.active_form()),
                                               session.forms_kept.pick_of(system, mode))
    with contextlib.suppress(Exception):  # full or refused: a convenience, not worth a warning
        session.storage.set(form_memory.KEY, session.forms_kept.dump())


def _open_address() -> None:
    """The address's form and link, keeping whatever the player typed while Python was loading;
    one that cannot be opened leaves the first form shown, and still counts as failed."""
    if not _step(lambda: open_link(fresh=False)):
        dom.choose(systems.FIRST, systems.FIRST_MODE)
        show_system()
        raise RuntimeError("the address could not be opened")


def _step(step, name: str = "", timing: str = "skillcheck boot: ") -> bool:
    """Run one boot step; a named one is timed (User Timing: `skillcheck boot: NAME`, seen in the
    browser's performance panel and read by benchmarks/boot_steps.py)."""
    if name:
        window.performance.mark(timing + name)
    try:
        step()
    except Exception:
        window.console.error(traceback.format_exc())
        return False
    finally:
        if name:
            window.performance.measure(timing + name, timing + name)
    return True


window.performance.mark("skillcheck imported")
try:
    boot()
except Exception:
    window.console.error(traceback.format_exc())
    trouble(SOMETHING_WRONG)
