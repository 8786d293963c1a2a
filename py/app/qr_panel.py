"""QR codes on screen: a code big enough for another phone's camera across a table, in the page's
<dialog id="qr-dialog"> with what it holds in a line under it and its link to copy (Escape or
Close closes it, and focus goes back where it was). "Show QR" under a result and on each log
entry shows that roll's replay link this way.

The QR library (qrcode-generator, vendored by build.py) is imported the first time a code is
drawn, never at boot; the service worker keeps it, so codes are drawn offline too. `code_rows`
and `show` are for any code the page shows, not only a roll's.
"""

from __future__ import annotations

import traceback

from pyscript import document, js_import, web, when, window

from . import browser, links
from .qr_html import LEVEL, LIBRARY, roll_label, segments, svg_html
from .result_notes_html import share_text
from .session import Session
from .storage import stamp, utc_now

NOT_DRAWN = "The QR code could not be drawn here: copy the link instead."
_library: list = []  # the library's qrcode(), once imported
_showing = {"text": None}  # what the dialog shows, so a code drawn too late is not put in it
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


async def show(text: str, label: str, caption: str) -> None:
    """Open the dialog with the QR code of `text`, named `label` (its heading and its text
    alternative), `caption` under it and `text` itself to copy. It opens at once; the code
    follows as soon as it is drawn (the library's first import included)."""
    _showing["text"] = text
    web.page["qr-title"].textContent = label
    web.page["qr-caption"].textContent = caption
    web.page["qr-link"].value = text
    web.page["qr-status"].textContent = ""
    web.page["qr-code"].innerHTML = '<p class="hint">Drawing the QR code…</p>'
    dialog = web.page["qr-dialog"]._dom_element
    if not dialog.open:
        dialog.showModal()
    web.page["qr-close"]._dom_element.focus()
    try:
        drawn = svg_html(await code_rows(text), label)
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
    """Closed by Close or by Escape: a code still being drawn is not put in it."""
    _showing["text"] = None


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
    if shown is not None:
        await show_roll(shown.result, shown.time or stamp(utc_now()), shown.who, shown.seeded)
