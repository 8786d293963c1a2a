"""Small browser services every panel shares: no exception reaches the page as a traceback (a
problem is said beside its field when the page has one, else under the main button), localStorage
as a Storage, changes to it one tab at a time (the Web Locks API, see shared.py), work put off
until the browser has painted, local times, a file download, the clipboard and a yes/no question.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from pyodide.ffi import create_once_callable
from pyscript import document, web, when, window
from pyscript.ffi import create_proxy, is_none, to_js
from skillcheck import InvalidRequest

from . import dom
from .roll_guard import RollGuard
from .shared import Recorded, Turns
from .storage import FileRefused, MemoryStorage, Storage

SOMETHING_WRONG = "Something went wrong. Please try again; the details are in the console."


def guarded(handler):
    """Run an event handler so that no exception escapes to the page (async ones too)."""
    if inspect.iscoroutinefunction(handler):
        @functools.wraps(handler)
        async def run_async(event):
            try:
                await handler(event)
            except Exception:
                failed()
        return run_async

    @functools.wraps(handler)
    def run(event):
        try:
            handler(event)
        except Exception:  # the page shows a sentence; the console keeps the traceback
            failed()
    return run


ROLLS = RollGuard()  # the page's one guard: every button that rolls shares it


def one_roll(handler):
    """An event handler that starts a roll (Roll, Flip, Re-roll) and says whether it rolled,
    run only for a press ROLLS admits: a double tap's second tap, or a press while the last
    roll is still being drawn, does nothing at all — not even its default action (a form's own
    submission). The handler runs at once, so that a refused press is refused before the
    browser acts on it; a roll that must wait its turn at the cross-tab lock (a spend) gives
    that turn to await, and the guard holds until it is done."""
    @functools.wraps(handler)
    def run(event):
        if not ROLLS.admits(float(event.timeStamp)):
            event.preventDefault()
            return
        try:
            rolled = handler(event)
        except BaseException:
            ROLLS.done(window.performance.now(), False)
            raise
        if not inspect.isawaitable(rolled):
            ROLLS.done(window.performance.now(), bool(rolled))
            return

        async def finish() -> None:
            drawn = False
            try:
                drawn = bool(await rolled)
            finally:
                ROLLS.done(window.performance.now(), drawn)
        spawn(finish())
    return run


def button_clicks(selector: str):
    """@when("click", selector), guarded, for clicks on a <button> inside it (one listener for
    rows that come and go): the decorated handler is given the button."""
    def decorate(handler):
        @functools.wraps(handler)
        def on_click(event):
            button = event.target.closest("button")
            if not is_none(button):
                handler(button)
        return when("click", selector)(guarded(on_click))
    return decorate


def failed() -> None:
    window.console.error(traceback.format_exc())
    trouble(SOMETHING_WRONG)


def spawn(work: Awaitable) -> None:
    """Run `work` (a handler's coroutine) on its own, guarded as a handler is."""
    async def run() -> None:
        try:
            await work
        except Exception:
            failed()
    asyncio.ensure_future(run())


def trouble(message: str) -> None:
    web.page["form-error"].textContent = message


def explain_invalid(form, error: InvalidRequest) -> str:
    """Show `error` beside its field; returns the message in the field's own words."""
    if dom.show_error(form, error.field, error.reason):
        return f"{dom.label_of(form, error.field)}: {error.reason}"
    return str(error)


class LocalStorage:
    """window.localStorage as a storage.Storage (Pyodide gives JS null as jsnull, not None)."""

    def get(self, key: str) -> str | None:
        value = window.localStorage.getItem(key)
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        window.localStorage.setItem(key, value)

    def remove(self, key: str) -> None:
        window.localStorage.removeItem(key)


NOT_SAVED = ("This browser does not let the page save anything here (a private window or a"
             " blocked site?): the log and characters last only until the page is closed.")


def local_storage() -> tuple[Storage, list[str]]:
    """localStorage, or memory for this session when the browser refuses it (a sandbox, a
    privacy mode) — with a warning then, so the player knows nothing will be kept. What is
    shared with other tabs is changed only through `change` and `change_later`."""
    global _turns
    try:
        window.localStorage.getItem("skillcheck.probe")
        storage, warnings, locks = Recorded(LocalStorage()), [], web_locks()
    except Exception:
        storage, warnings, locks = Recorded(MemoryStorage()), [NOT_SAVED], None
    _turns = Turns(storage, locks, warn=window.console.warn)
    return storage, warnings


# ---- changes to the log and the characters: one tab at a time -----------------------------------

class WebLocks:
    """navigator.locks as a shared.Locks."""

    def __init__(self, locks):
        self._locks = locks

    def request(self, name: str, granted: Callable[[], Awaitable[None]],
                refused: Callable[[str], None]) -> None:
        # the callback's answer, a Task, is a thenable: the lock is held until it is done
        asked = self._locks.request(name, create_once_callable(
            lambda lock: asyncio.ensure_future(granted())))
        asked.catch(lambda error: refused(str(error)))  # Pyodide frees it once settled

    async def held(self) -> list[str]:
        return [str(lock.name) for lock in (await self._locks.query()).held]

    async def hold(self, name: str) -> Callable[[], None]:
        taken = asyncio.get_event_loop().create_future()
        release: list = []

        def granted(lock):
            taken.set_result(None)
            return window.Promise.new(create_once_callable(lambda done, _: release.append(done)))
        self._locks.request(name, to_js({"mode": "shared"}), create_once_callable(granted))
        await taken
        return lambda: release.pop()()


def web_locks() -> WebLocks | None:
    """The Web Locks API, where the browser has it (not on an http:// address but localhost)."""
    locks = getattr(window.navigator, "locks", None)
    return None if locks is None or is_none(locks) else WebLocks(locks)


_turns: Turns | None = None  # made with the storage (local_storage)


def change(job: Callable[[], object]) -> asyncio.Future:
    """Run `job`, a synchronous read-modify-write of the log or the characters, at this tab's
    next turn at the cross-tab lock, after every change asked for before it: await its answer
    (or its exception). Nothing another tab saved is missing from what it reads."""
    return _turns.change(job)


def change_later(job: Callable[[], None]) -> None:
    """`change`, with the lock asked for only once the page has painted (a roll's log entry);
    an exception goes to the console."""
    _turns.add(job, _logged)
    later(_turns.ask)


def _logged(_, error: BaseException | None) -> None:
    if error is not None:
        window.console.error("".join(traceback.format_exception(error)))


# ---- later: after the result is on screen ------------------------------------------------------

_queue: list[Callable[[], None]] = []


def _run_queue(*_) -> None:
    while _queue:
        job = _queue.pop(0)
        try:
            job()
        except Exception:  # one failed save must not stop the next
            window.console.error(traceback.format_exc())


_after_paint = create_proxy(lambda *_: window.setTimeout(_run_now, 0))
_run_now = create_proxy(_run_queue)
_IDLE = to_js({"timeout": 500})  # ms: a busy page still saves soon


def later(job: Callable[[], None]) -> None:
    """Run `job` once the browser has painted what the handler changed and is idle (jobs keep
    their order): saving and redrawing the log never hold a roll back nor the frames after it.
    A hidden page paints nothing, so it runs soon instead; without requestIdleCallback
    (Safari), right after the next paint."""
    _queue.append(job)
    if len(_queue) > 1:
        return
    if document.hidden:
        window.setTimeout(_run_now, 0)
    elif hasattr(window, "requestIdleCallback"):
        window.requestIdleCallback(_run_now, _IDLE)
    else:
        window.requestAnimationFrame(_after_paint)


# ---- the live region -------------------------------------------------------------------------

SAY_AFTER_MS = 100  # emptied, then filled this much later: the same words twice still change it
_saying: dict[str, object] = {"text": "", "timer": None}


def say(text: str) -> None:
    """Set what a screen reader reads out now (#spoken, a polite live region): emptied at once,
    the words set a moment later, so a roll read the same as the last is read out too."""
    document.getElementById("spoken").textContent = ""
    if _saying["timer"] is not None:
        window.clearTimeout(_saying["timer"])
    _saying["text"] = text
    _saying["timer"] = window.setTimeout(_say_now, SAY_AFTER_MS) if text else None


def _said(*_) -> None:
    _saying["timer"] = None
    document.getElementById("spoken").textContent = _saying["text"]


_say_now = create_proxy(_said)


def run_pending() -> None:
    """Run what is waiting now (the page is being hidden or closed): changes too, without
    waiting for the lock, which a closing page would not get."""
    _run_queue()
    if _turns is not None:
        _turns.run()


# ---- times, files, clipboard ---------------------------------------------------------------------

_FORMATS = {"short": {"month": "short", "day": "numeric", "hour": "2-digit", "minute": "2-digit",
                      "second": "2-digit"},
            "today": {"hour": "2-digit", "minute": "2-digit", "second": "2-digit"},
            "short-minutes": {"month": "short", "day": "numeric", "hour": "2-digit",
                              "minute": "2-digit"},
            "today-minutes": {"hour": "2-digit", "minute": "2-digit"},
            "long": {"dateStyle": "medium", "timeStyle": "medium"}}


@functools.cache
def _format(kind: str):
    """One Intl.DateTimeFormat per kind, in the browser's own language, made on first use:
    `toLocaleString` with options makes a new one on every call, twice for each log entry drawn."""
    return window.Intl.DateTimeFormat.new(to_js([]), to_js(_FORMATS[kind]))


def short_time(iso: str, seconds: bool = True) -> str:
    """An entry's time in the player's zone and language, to the second (a table rolls several
    times a minute) unless told, its date only when not today: "18:48:05", "29 Nov, 18:48"."""
    date = window.Date.new(iso)
    today = date.toDateString() == window.Date.new().toDateString()
    return _format(("today" if today else "short") + ("" if seconds else "-minutes")).format(date)


def long_time(iso: str) -> str:
    return _format("long").format(window.Date.new(iso))


def download(name: str, text: str, kind: str = "application/json") -> None:
    """Offer `text` as a file called `name` (a Blob URL: nothing leaves the browser)."""
    blob = window.Blob.new(to_js([text]), to_js({"type": kind}))
    url = window.URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href = url
    link.download = name
    link.hidden = True
    document.body.appendChild(link)
    link.click()
    link.remove()
    window.setTimeout(create_proxy(lambda *_: window.URL.revokeObjectURL(url)), 60_000)


# Bytes of the biggest file an import reads at all: four times the longest export (the roll
# log's 20 million characters), so none that could be one is refused unread. A bigger file is
# not read into memory, where it could take the runtime's down with it.
BIGGEST_FILE = 80_000_000


async def chosen_text(event) -> str | None:
    """The text of the file just chosen in a file input (None if it was cancelled); the input is
    emptied so that choosing the same file again is a change too. FileRefused, saying why, for a
    file too big to be an export or one the browser cannot read (moved, deleted, not allowed)."""
    files = event.target.files
    if not files.length:
        return None
    chosen = files.item(0)
    event.target.value = ""
    if chosen.size > BIGGEST_FILE:
        raise FileRefused(f"This file could not be imported: at {chosen.size / 1e6:,.0f} MB it "
                          "is far bigger than any Skill Check file. Nothing was changed.")
    try:
        return await chosen.text()
    except Exception as error:  # NotReadableError, NotFoundError, ...
        name = getattr(error, "name", "") or type(error).__name__
        raise FileRefused(f"This file could not be read ({name}). Nothing was changed.") from None


async def share(title: str, text: str, url: str) -> bool:
    """Open the device's share sheet (navigator.share) with a link; False where there is none or
    it refused (then the page offers the link itself). Closing the sheet counts as shared."""
    if not hasattr(window.navigator, "share"):
        return False
    try:
        await window.navigator.share(to_js({"title": title, "text": text, "url": url}))
    except Exception as error:  # the player closed the sheet: AbortError; else it failed
        return "AbortError" in str(error)
    return True


async def share_file(name: str, text: str, kind: str = "application/json") -> bool:
    """Offer `text` as a file called `name` on the device's share sheet, where the browser can
    share files (navigator.canShare says so); False where it cannot or it failed (then the
    page downloads it). Closing the sheet counts as shared, as for `share`."""
    navigator = window.navigator
    if not (hasattr(navigator, "canShare") and hasattr(navigator, "share")):
        return False
    sent = to_js({"files": [window.File.new(to_js([text]), name, to_js({"type": kind}))],
                  "title": name})
    if not navigator.canShare(sent):
        return False
    try:
        await navigator.share(sent)
    except Exception as error:
        return "AbortError" in str(error)
    return True


def tick() -> None:
    """A light haptic tick (navigator.vibrate) where the device has one, never under reduced
    motion."""
    if hasattr(window.navigator, "vibrate") and not dom.reduced_motion():
        window.navigator.vibrate(12)


async def copy_text(text: str) -> bool:
    """Put `text` on the clipboard; False when the browser does not allow it."""
    clipboard = getattr(window.navigator, "clipboard", None)
    if clipboard is None:
        return False
    try:
        await clipboard.writeText(text)
    except Exception:
        return False
    return True


# ---- an export/import bar: its status line, a download, a file read before it is taken in --------

# What an import will do once the file is read: (a question to ask first, or None; the yes
# button's words; what taking the file in does).
ImportPlan = tuple[str | None, str, Callable[[], object]]


@dataclass(frozen=True)
class FileBar:
    """The roll log's and the characters' bars: Export downloads the stored document, Import
    reads the chosen file whole before anything changes, and one status line says what
    happened (a refused file in the problem style)."""

    status: str  # the id of the status line

    def say(self, message: str, problem: bool = False, aside: bool = False) -> None:
        """`aside`: words the page shows otherwise too, read out but left unshown where the
        bar has no room for them (app.css)."""
        line = web.page[self.status]
        line.textContent = message
        line._dom_element.classList.toggle("problem", problem)
        line._dom_element.classList.toggle("aside", aside)

    def export(self, name: str, text: str, what: str) -> None:
        """Download `text` as `name`, and say that `what` ("3 entries") went into it."""
        download(name, text)
        self.say(f"Exported {what} as {name}.")

    async def import_file(self, event, plan: Callable[[str], ImportPlan]) -> None:
        """The chosen file through `plan`: refused (FileRefused) → said, nothing changes; else
        its question asked first, if any, then taken in."""
        try:
            text = await chosen_text(event)
            if text is None:
                return
            question, yes, take = plan(text)
        except FileRefused as error:
            self.say(str(error), problem=True)
            return
        if question:
            ask(question, yes, take)
        elif inspect.isawaitable(done := take()):
            await done


# ---- a yes/no question in the page's own <dialog id="confirm"> ---------------------------------

_answer: dict[str, Callable[[], object] | None] = {"yes": None}


def ask(question: str, yes: str, then: Callable[[], object]) -> None:
    """Ask before something that cannot be undone; `then` runs only if the player says `yes`
    (a coroutine function's, on its own).
    A modal <dialog>: Escape or "Cancel" says no, and focus returns where it was."""
    web.page["confirm-text"].textContent = question
    web.page["confirm-yes"].textContent = yes
    _answer["yes"] = then
    dialog = web.page["confirm"]._dom_element
    dialog.showModal()
    web.page["confirm-no"]._dom_element.focus()


def answer(yes: bool) -> None:
    then, _answer["yes"] = _answer["yes"], None
    web.page["confirm"]._dom_element.close()
    if yes and then is not None:
        done = then()
        if inspect.isawaitable(done):  # a change, made at this tab's turn (`change`)
            spawn(done)


@when("click", "#confirm-yes, #confirm-no")
@guarded
def on_answer(event) -> None:
    answer(event.currentTarget.id == "confirm-yes")


@when("cancel", "#confirm")
@guarded
def on_escape(event) -> None:
    _answer["yes"] = None  # Escape closes the dialog: the answer is no


# ---- every dialog closed, as Escape closes one -------------------------------------------------

def close_dialogs(then: Callable[[], object]) -> bool:
    """Send each open <dialog> the close request Escape sends (a cancelable `cancel` event), so
    that its own clean-up runs (the camera stopped, a question answered no), and close it unless
    its handler refused: False while one stays open. One that refused to ask first (the
    editor's unsaved edits, `ask`) runs `then` after its own yes."""
    for dialog in document.querySelectorAll("dialog[open]"):
        if dialog.dispatchEvent(window.Event.new("cancel", to_js({"cancelable": True}))):
            dialog.close()
    if is_none(document.querySelector("dialog[open]")):
        return True
    if (asked := _answer["yes"]) is not None:
        def yes_then():
            done = asked()
            then()
            return done  # a change, which `answer` runs on its own
        _answer["yes"] = yes_then
    return False
