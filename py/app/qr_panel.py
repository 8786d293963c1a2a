"""QR codes on screen: a code big enough for another phone's camera across a table, in the page's
<dialog id="qr-dialog"> with what it holds in a line under it and its link to copy (Escape or
Close closes it, and focus goes back where it was). "Show QR" under a result (a roll rolled, or
tapped in the log) shows that roll's replay link this way, unless it was withdrawn; a shared
log's codes are shown in turn (`show_codes`).

The QR library (qrcode-generator, vendored by build.py) is imported the first time a code is
drawn, never at boot; the service worker keeps it, so codes are drawn offline too. `code_rows`
and `show` are for any code the page shows, not only a roll's.
"""

from __future__ import annotations

import traceback

from pyscript import document, js_import, web, when, window
from pyscript.ffi import create_proxy

from . import browser, dom, links
from .qr_html import LEVEL, LIBRARY, roll_label, segments, svg_html
from .result_notes_html import share_text
from .session import Session
from .storage import stamp, utc_now

NOT_DRAWN = "The QR code could not be drawn here: copy the link instead."
_library: list = []  # the library's qrcode(), once imported
_showing = {"text": None}  # what the dialog shows, so a code drawn too late is not put in it
# A sequence of codes shown in turn (show_codes): its texts, the one shown, its heading and
# caption, and the timer turning it (or None).
_sequence: dict = {"texts": [], "at": 0, "label": "", "caption": "", "timer": None}
session: Session  # handed in by main.py at boot (start)


def start(booted: Session) -> None:
    """The roll on screen (session.shown) is what "Show QR" under the result draws."""
    global session
    session = booted


async def code_rows(text: str) -> list[str]:
    """The modules of `text`'s QR code as rows ("1" dark), at error correction LEVEL, in the
    smallest version that holds it; the text is coded as its UTF-8 bytes, a long last run of
    digits as digits (qr_html.segments)."""
    if not _library:
        module, = await js_import(window.URL.new(LIBRARY, document.baseURI).href)
        _library.append(module.qrcode)
    code = _library[0](0, LEVEL)
    for part, mode in segments(text):  # a byte segment takes one character a byte
        code.addData(part.encode("utf-8").decode("latin-1") if mode == "Byte" else part, mode)
    code.make()
    size = range(code.getModuleCount())
    return ["".join("1" if code.isDark(y, x) else "0" for x in size) for y in size]


async def show(text: str, label: str, caption: str, typed: str = "") -> None:
    """Open the dialog with the QR code of `text`, named `label` (its heading and its text
    alternative), `caption` under it, `typed` in large print for a phone with no camera (the
    GM's code), and `text` itself to copy. It opens at once; the code follows as soon as it is
    drawn (the library's first import included)."""
    _sequence["texts"] = []
    web.page["qr-steps"].hidden = True
    await _draw(text, label, caption, label, typed)


async def show_codes(texts: list[str], label: str, caption: str) -> None:
    """The dialog with a sequence of codes, one at a time from the first: "Code 3 of 12",
    Previous and Next (and the arrow keys; both go round), and where motion is welcome a
    box that turns to the next code every few seconds. `label` is the dialog's heading; each
    code is named by it and its place."""
    _sequence.update(texts=list(texts), label=label, caption=caption)
    web.page["qr-steps"].hidden = False
    web.page["qr-auto"].checked = False
    web.page["qr-auto-field"].hidden = dom.reduced_motion()
    await _turn_to(0)


async def _turn_to(at: int) -> None:
    texts = _sequence["texts"]
    if not texts:
        return
    _sequence["at"] = at = at % len(texts)
    place = f"Code {at + 1} of {len(texts)}"
    web.page["qr-step"].textContent = place
    await _draw(texts[at], _sequence["label"], _sequence["caption"],
                f"{_sequence['label']}: {place.lower()}")


async def _draw(text: str, label: str, caption: str, named: str, typed: str = "") -> None:
    _showing["text"] = text
    web.page["qr-title"].textContent = label
    web.page["qr-caption"].textContent = caption
    web.page["qr-typed"].textContent = typed
    web.page["qr-typed"].hidden = not typed
    web.page["qr-link"].value = text
    web.page["qr-status"].textContent = ""
    web.page["qr-code"].innerHTML = '<p class="hint">Drawing the QR code…</p>'
    dialog = web.page["qr-dialog"]._dom_element
    if not dialog.open:
        dialog.showModal()
        web.page["qr-close"]._dom_element.focus()
    try:
        drawn = svg_html(await code_rows(text), named)
    except Exception:  # the library missing or refusing: the link is still there to copy
        window.console.error(traceback.format_exc())
        drawn = f'<p class="problem">{NOT_DRAWN}</p>'
    if _showing["text"] == text and dialog.open:
        web.page["qr-code"].innerHTML = drawn


async def show_roll(result: dict, time: str, who: dict | None, seeded: bool) -> None:
    """A roll's replay link (saying whose roll it is) as a QR code, its "Copy as text" line
    (without the link) under it; a `seeded` roll is marked in both."""
    url = links.share_url(str(window.location.href), result, time, seeded, who)
    await show(url, roll_label(result, who), share_text(result, "", who, seeded))


# ---- the dialog's controls ----------------------------------------------------------------------

@when("click", "#qr-close")
@browser.guarded
def on_close(event) -> None:
    web.page["qr-dialog"]._dom_element.close()


@when("close", "#qr-dialog")
@browser.guarded
def on_closed(event) -> None:
    """Closed by Close or by Escape: a code still being drawn is not put in it, and a
    sequence stops turning."""
    _showing["text"] = None
    _sequence["texts"] = []
    _stop_turning()


@when("click", "#qr-previous, #qr-next")
@browser.guarded
async def on_step(event) -> None:
    _stop_turning()
    web.page["qr-auto"].checked = False
    step = 1 if event.target.closest("button").id == "qr-next" else -1
    await _turn_to(_sequence["at"] + step)


STEP_KEYS = {"ArrowRight": 1, "PageDown": 1, "ArrowLeft": -1, "PageUp": -1}


@when("keydown", "#qr-dialog")
@browser.guarded
async def on_step_key(event) -> None:
    """The arrow keys (and Page Up, Page Down) turn a sequence's codes, but in the link's box,
    where they move the caret."""
    step = STEP_KEYS.get(str(event.key))
    if step is None or not _sequence["texts"] or event.target.id == "qr-link":
        return
    event.preventDefault()
    await _turn_to(_sequence["at"] + step)


TURN_MS = 3000


@when("change", "#qr-auto")
@browser.guarded
def on_auto(event) -> None:
    """The box: the next code every TURN_MS, going round, until it is unticked, a step is
    taken by hand or the dialog closes."""
    _stop_turning()
    if event.target.checked:
        _sequence["timer"] = window.setInterval(_turn_next, TURN_MS)


def _stop_turning() -> None:
    if _sequence["timer"] is not None:
        window.clearInterval(_sequence["timer"])
        _sequence["timer"] = None


_turn_next = create_proxy(lambda *_: browser.spawn(_turn_to(_sequence["at"] + 1)))


@when("click", "#qr-copy")
@browser.guarded
async def on_copy(event) -> None:
    link = web.page["qr-link"]
    copied = await browser.copy_text(str(link.value))
    link._dom_element.select()
    web.page["qr-status"].textContent = ("Link copied." if copied
                                         else "Copy the link from the box.")


# ---- "Show QR" under the result and on each log entry ------------------------------------------

@when("click", "#share-qr")
@browser.guarded
async def on_result_qr(event) -> None:
    shown = session.shown
    if shown is not None and not shown.withdrawn:  # its button is hidden then (result_panel)
        await show_roll(shown.result, shown.time or stamp(utc_now()), shown.who, shown.seeded)
