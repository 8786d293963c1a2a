"""Scan a code: the header's "Scan a code" opens <dialog id="scan-dialog"> with the camera's
picture (the rear camera where there is one) and a status line, and reads QR codes from it until
one is a link the page opens (app/scanned.py says which): then the dialog closes and the link is
set as the page's fragment, so main.py's hashchange opens it as any link (a replay offers "Add
to the table log"; a GM's code goes into a secret roll, a GM's reveal judges it). The codes of a
shared log are opened one by one with the dialog kept open ("Code 3 of 12 read"), until the
last. Any other code is named in the status line and scanning goes on.

Codes are read by the browser's BarcodeDetector where it reads QR codes, else by jsQR (vendored
by build.py), imported the first time a scan needs it, never at boot; the service worker keeps
it, so scanning works offline. The camera is stopped whenever the dialog closes (Close, Escape,
the page hidden), and a camera granted after the dialog closed is stopped at once.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable, Callable

from pyscript import document, js_import, web, when, window
from pyscript.ffi import is_none, to_js

from . import browser, scanned

EVERY = 0.2  # s between two looks at the camera's picture: quick to find, light on a phone
WIDEST = 640  # px: jsQR reads the picture scaled down to this, enough for a code across a table
CAMERA = {"video": {"facingMode": {"ideal": "environment"}}, "audio": False}
_reader: list = []  # the chosen reader (a coroutine function of the <video>), once chosen
_camera: dict = {"run": 0, "stream": None}  # run: which opening of the dialog is current


def start() -> None:
    """Show the button: the page can now answer it (a browser without a camera API is told so
    when it is pressed, with what to do instead)."""
    web.page["scan-open"].hidden = False


def has_camera() -> bool:
    devices = getattr(window.navigator, "mediaDevices", None)
    return devices is not None and not is_none(devices) and hasattr(devices, "getUserMedia")


async def reader() -> Callable[[object], Awaitable[list[str]]]:
    """The texts of the QR codes in a <video>'s current picture: BarcodeDetector's where it
    reads QR codes, else jsQR's (imported now, the first time)."""
    if not _reader:
        detector = getattr(window, "BarcodeDetector", None)
        if (detector is not None and not is_none(detector)
                and "qr_code" in (await detector.getSupportedFormats()).to_py()):
            _reader.append(_detector(detector.new(to_js({"formats": ["qr_code"]}))))
        else:
            await js_import(window.URL.new(scanned.READER, document.baseURI).href)
            _reader.append(_jsqr(window.jsQR))  # jsQR's bundle sets the global as it loads
    return _reader[0]


def _detector(detector) -> Callable[[object], Awaitable[list[str]]]:
    async def read(video) -> list[str]:
        return [str(code.rawValue) for code in await detector.detect(video)]
    return read


def _jsqr(decode) -> Callable[[object], Awaitable[list[str]]]:
    canvas = document.createElement("canvas")
    context = canvas.getContext("2d", to_js({"willReadFrequently": True}))
    options = to_js({"inversionAttempts": "dontInvert"})  # a page's codes are dark on light

    async def read(video) -> list[str]:
        scale = min(1, WIDEST / max(video.videoWidth, video.videoHeight, 1))
        canvas.width = width = max(1, round(video.videoWidth * scale))
        canvas.height = height = max(1, round(video.videoHeight * scale))
        context.drawImage(video, 0, 0, width, height)
        code = decode(context.getImageData(0, 0, width, height).data, width, height, options)
        return [] if is_none(code) else [str(code.data)]
    return read


def say(text: str) -> None:
    """The status line, changed only when what it says changes (a screen reader hears it once)."""
    status = web.page["scan-status"]
    if str(status.textContent) != text:
        status.textContent = text


def stop() -> None:
    """Stop the camera and any scan under way: nothing keeps the camera once the dialog closed."""
    _camera["run"] += 1
    stream, _camera["stream"] = _camera["stream"], None
    if stream is not None:
        for track in stream.getTracks():
            track.stop()
    video = web.page["scan-video"]
    video._dom_element.srcObject = None
    video.hidden = True


def open_link(fragment: str) -> None:
    """Open one of the page's links as the address bar would: main.py's hashchange does the rest.
    The link shown already is opened again (the address first cleared of it, no hashchange)."""
    if str(window.location.hash) == fragment:
        location = window.location
        window.history.replaceState(None, "", f"{location.pathname}{location.search}")
    window.location.hash = fragment


async def scan(run: int) -> None:
    """Read the camera's picture until a code is a link the page opens, while `run` is current;
    a shared log's codes one after another, until the last of them (scanned.Sequence)."""
    try:
        read = await reader()
    except Exception:  # no detector and no jsQR (never fetched while online, say)
        window.console.error(traceback.format_exc())
        say(scanned.NO_READER)
        return
    try:
        stream = await window.navigator.mediaDevices.getUserMedia(to_js(CAMERA))
    except Exception as error:  # NotAllowedError (denied), NotFoundError (no camera), ...
        if run == _camera["run"]:
            say(scanned.camera_problem(str(getattr(error, "name", "") or "")))
        return
    if run != _camera["run"]:  # closed while the browser asked for the camera
        for track in stream.getTracks():
            track.stop()
        return
    _camera["stream"] = stream
    video = web.page["scan-video"]
    video._dom_element.srcObject = stream
    video.hidden = False
    await video._dom_element.play()
    sequence = scanned.Sequence()
    while run == _camera["run"]:
        if video._dom_element.readyState >= 2:  # HAVE_CURRENT_DATA: a picture to read
            for text in await read(video._dom_element):
                if run != _camera["run"]:
                    return
                fragment = scanned.fragment_of(text, str(window.location.href))
                if fragment is None:
                    say(scanned.said_of(text, str(window.location.href)))
                    continue
                fresh, said, done = sequence.take(fragment)
                if done:
                    web.page["scan-dialog"]._dom_element.close()
                if fresh:
                    open_link(fragment)
                if done:
                    return
                say(said)
        await asyncio.sleep(EVERY)


# ---- the dialog ---------------------------------------------------------------------------------

@when("click", "#scan-open")
@browser.guarded
async def on_open(event) -> None:
    dialog = web.page["scan-dialog"]._dom_element
    stop()
    say(scanned.LOOKING if has_camera() else scanned.NO_CAMERA)
    if not dialog.open:
        dialog.showModal()
    web.page["scan-close"]._dom_element.focus()
    if has_camera():
        await scan(_camera["run"])


@when("click", "#scan-close")
@browser.guarded
def on_close(event) -> None:
    web.page["scan-dialog"]._dom_element.close()


@when("close", "#scan-dialog")
@browser.guarded
def on_closed(event) -> None:
    """Closed by Close, by Escape or by a code opened: the camera is stopped."""
    stop()


@when("visibilitychange", document)
@browser.guarded
def on_hidden(event) -> None:
    """A phone switching to another app: the camera is not kept running behind it."""
    dialog = web.page["scan-dialog"]._dom_element
    if document.hidden and dialog.open:
        dialog.close()
