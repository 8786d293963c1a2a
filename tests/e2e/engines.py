"""One small API over the three engines players hold: WebKitGTK, Firefox ESR and Chromium.

    engine = launch("webkit")          # or "firefox"; Chromium(page) wraps a Playwright page
    engine.goto(url)
    engine.call("(a, b) => a + b", 1, 2)              # a JS function, JSON-able or Element args
    engine.wait("() => document.title === 'x'")       # polls until truthy, returns the value
    button = engine.find("() => document.querySelector('#roll')")
    engine.click(button); engine.type(box, "12"); engine.screenshot()  # PNG bytes
    engine.outside()                   # every URL the page asked for beyond this machine
    engine.fresh(preload)              # Firefox: on as a new visitor (a new user context)
    engine.close()

WebKit: Debian's WebKitWebDriver (classic W3C WebDriver, spoken here over urllib) starts
MiniBrowser --automation on an Xvfb display this module starts. Firefox: started with
--remote-debugging-port, driven over the WebDriver BiDi it speaks itself (websocket-client; no
geckodriver). Clicks and typing are the engines' own input events, not JS.

Nothing may leave this machine: both engines send every host but 127.0.0.1 and localhost to a
trap proxy here that answers 403 and records the request; WebKit's outside() is what the trap
saw. Firefox's own background services knock on the trap too, so its outside() is the page's
requests as BiDi's network events report them. tools/browsers.py finds the programs and holds
how they start (Xvfb, Firefox's profile), shared with the benchmarks.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import websocket
from playwright.sync_api import Error as PlaywrightError

from tools import browsers

LOCAL_HOSTS = frozenset(browsers.LOCAL_HOSTS)
PHONE = (390, 844)
START_TIMEOUT_S = 60
SESSION_TIMEOUT_S = 20  # a MiniBrowser that starts answers in about a second
WEBKIT_STARTS = 4  # three crashes running were seen once in 19 starts
ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"  # W3C WebDriver's element reference


class EngineError(Exception):
    """The engine refused a command or could not be started; the message says which."""


@dataclass(frozen=True)
class Element:
    """A reference to one element of the current document, as the engine knows it."""

    ref: object


def is_outside(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS


class Trap:
    """A proxy on 127.0.0.1 that forwards nothing: it records each request line and answers 403."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            with connection:
                connection.settimeout(5)
                try:
                    line = connection.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")
                    method, target = line.split(" ")[:2]
                    self.requests.append(f"https://{target}/" if method == "CONNECT" else target)
                    connection.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                except (OSError, ValueError):
                    pass

    def close(self) -> None:
        self.socket.close()


class Engine(ABC):
    """What every engine offers; the subclasses speak their protocol."""

    name = ""

    @abstractmethod
    def goto(self, url: str) -> None:
        """Load `url` in the page and wait for its load event."""

    @abstractmethod
    def reload(self) -> None:
        """Reload the page, as the browser's reload button does."""

    @abstractmethod
    def call(self, function: str, *args):
        """Run the JS `function` on `args` in the page; its (awaited) value as Python."""

    @abstractmethod
    def find(self, function: str, *args) -> Element:
        """The element `function` returns; AssertionError if it returns none."""

    @abstractmethod
    def click(self, element: Element) -> None:
        """Click `element` with the engine's own pointer."""

    @abstractmethod
    def type(self, element: Element, text: str) -> None:
        """Replace the box's text by typing `text`, key by key."""

    @abstractmethod
    def screenshot(self) -> bytes:
        """The visible page as PNG bytes."""

    @abstractmethod
    def outside(self) -> list[str]:
        """Every URL beyond this machine the page asked for since the engine started."""

    @abstractmethod
    def close(self) -> None:
        """Stop the engine and everything started for it."""

    def wait(self, function: str, *args, timeout: float = 30, message: str = ""):
        """Call `function` until it returns something truthy; that value, or AssertionError."""
        deadline = time.monotonic() + timeout
        while not (value := self.call(function, *args)):
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: waited {timeout} s for {message or function}")
            time.sleep(0.1)
        return value


# --- WebKitGTK: MiniBrowser through WebKitWebDriver, on Xvfb ----------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class WebKit(Engine):
    name = "webkit"

    def __init__(self, programs: dict[str, str]) -> None:
        self.trap = Trap()
        proxy = f"127.0.0.1:{self.trap.port}"
        capabilities = {
            "browserName": "MiniBrowser",
            "webkitgtk:browserOptions": {"binary": programs["minibrowser"],
                                         "args": ["--automation"]},
            "proxy": {"proxyType": "manual", "httpProxy": proxy, "sslProxy": proxy,
                      "noProxy": sorted(LOCAL_HOSTS)},
            "timeouts": {"script": START_TIMEOUT_S * 1000},
        }
        for attempt in range(1, WEBKIT_STARTS + 1):
            try:
                self._start(programs, capabilities)
                return
            except TimeoutError:
                self._stop()
                if attempt == WEBKIT_STARTS:
                    raise EngineError(f"MiniBrowser did not start in {attempt} tries") from None
            except BaseException:
                self.close()  # no Xvfb or driver left behind by a start that failed
                raise

    def _start(self, programs: dict[str, str], capabilities: dict) -> None:
        """Xvfb, the driver, a session in a phone-sized window. MiniBrowser 2.50 sometimes dies
        of a segfault as it starts (3 starts in 19 here, exit 139) and the driver
        waits for it for ever, so the session gets a short timeout and the caller tries again."""
        try:
            self.xvfb, display = browsers.start_xvfb(programs["xvfb"])
        except RuntimeError as error:
            raise EngineError(str(error)) from None
        port = free_port()
        self.driver = subprocess.Popen([programs["webkit_driver"], f"--port={port}"],
                                       env={**os.environ, "DISPLAY": display},
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        self._wait_until_ready()
        self.session = self._send("POST", "/session", {
            "capabilities": {"alwaysMatch": capabilities}}, timeout=SESSION_TIMEOUT_S)["sessionId"]
        self._command("POST", "/window/rect", {"width": PHONE[0], "height": PHONE[1]})

    def _wait_until_ready(self) -> None:
        """Ask /status until the driver answers that it is ready."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                if self._send("GET", "/status", timeout=2).get("ready"):
                    return
            except (OSError, EngineError):  # refused, reset, timed out: not up yet
                pass
            if time.monotonic() > deadline:
                raise EngineError("WebKitWebDriver did not answer")
            time.sleep(0.2)

    def _send(self, method: str, path: str, body: dict | None = None,
              timeout: float = START_TIMEOUT_S * 2):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            value = json.load(error)["value"]
            raise EngineError(f"webkit: {value['error']}: {value['message']}") from None

    def _command(self, method: str, path: str, body: dict | None = None):
        return self._send(method, f"/session/{self.session}{path}", body)

    def goto(self, url: str) -> None:
        self._command("POST", "/url", {"url": url})

    def reload(self) -> None:
        self._command("POST", "/refresh", {})

    def call(self, function: str, *args):
        args = [{ELEMENT_KEY: a.ref} if isinstance(a, Element) else a for a in args]
        return self._command("POST", "/execute/sync", {
            "script": f"return ({function}).apply(null, arguments)", "args": args})

    def find(self, function: str, *args) -> Element:
        found = self.call(function, *args)
        if not isinstance(found, dict) or ELEMENT_KEY not in found:
            raise AssertionError(f"webkit: no element from {function} {args}")
        return Element(found[ELEMENT_KEY])

    def click(self, element: Element) -> None:
        # WebDriver scrolls the element to the bottom of the view (under a phone's fixed roll
        # bar), and does not wait for a smooth scroll the page is making (after a roll): a
        # scroll of our own, to the middle and at once, ends that one and clears the bar.
        self.call("el => el.scrollIntoView({block: 'center', behavior: 'instant'})", element)
        self._command("POST", f"/element/{element.ref}/click", {})

    def type(self, element: Element, text: str) -> None:
        # WebDriver's Element Clear is to scroll the box into view first; WebKitWebDriver 2.50
        # does not (a box above the view: "element not interactable"), so it is done here.
        self.call("el => el.scrollIntoView({block: 'center', behavior: 'instant'})", element)
        self._command("POST", f"/element/{element.ref}/clear", {})
        if text:
            self._command("POST", f"/element/{element.ref}/value", {"text": text})

    def screenshot(self) -> bytes:
        # WebKitWebDriver's screenshot may be of a frame painted before the page's last change
        # (a QR code just put in its dialog came out as "Drawing the QR code…", 3 runs in 12):
        # two frames first, so the page has painted what it holds.
        self._command("POST", "/execute/async", {
            "script": "requestAnimationFrame(() => requestAnimationFrame(arguments[0]));",
            "args": []})
        return base64.b64decode(self._command("GET", "/screenshot"))

    def outside(self) -> list[str]:
        return list(self.trap.requests)

    def close(self) -> None:
        self._stop()
        self.trap.close()

    def _stop(self) -> None:
        """End the session, the driver (and its MiniBrowser) and Xvfb, whatever got started."""
        if getattr(self, "session", None):
            with contextlib.suppress(EngineError, OSError):
                self._command("DELETE", "")
        for process in (getattr(self, "driver", None), getattr(self, "xvfb", None)):
            if process is None or process.poll() is not None:
                continue
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        self.session = self.driver = self.xvfb = None


# --- Firefox ESR over WebDriver BiDi ------------------------------------------------------------

KEYS = {"backspace": "\ue003", "control": "\ue009"}


def from_remote(value: dict):
    """A BiDi RemoteValue as Python; nodes as Element."""
    kind, inner = value["type"], value.get("value")
    if kind in ("undefined", "null"):
        return None
    if kind == "number" and isinstance(inner, str):
        return float(inner.replace("Infinity", "inf"))
    if kind in ("array", "set"):
        return [from_remote(item) for item in inner]
    if kind in ("object", "map"):
        return {key if isinstance(key, str) else from_remote(key): from_remote(item)
                for key, item in inner}
    if kind == "node":
        return Element(value["sharedId"])
    return inner


def to_local(value) -> dict:
    """A Python value (or Element) as a BiDi LocalValue."""
    if isinstance(value, Element):
        return {"sharedId": value.ref}
    if value is None:
        return {"type": "null"}
    if isinstance(value, bool):
        return {"type": "boolean", "value": value}
    if isinstance(value, int | float):
        return {"type": "number", "value": value}
    if isinstance(value, str):
        return {"type": "string", "value": value}
    if isinstance(value, list | tuple):
        return {"type": "array", "value": [to_local(item) for item in value]}
    return {"type": "object", "value": [[key, to_local(item)] for key, item in value.items()]}


class Firefox(Engine):
    name = "firefox"

    def __init__(self, programs: dict[str, str]) -> None:
        self.trap = Trap()
        self.profile = Path(tempfile.mkdtemp(prefix="skillcheck-firefox-"))
        browsers.firefox_profile(self.profile, self.trap.port)  # every other host: the trap
        port = free_port()
        self.process = subprocess.Popen(
            [programs["firefox"], "--headless", "--no-remote", "--profile", str(self.profile),
             f"--remote-debugging-port={port}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.ids = itertools.count(1)
        self.requests: list[str] = []
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                self.socket = websocket.create_connection(
                    f"ws://127.0.0.1:{port}/session", timeout=START_TIMEOUT_S * 2,
                    suppress_origin=True)  # the remote agent refuses a web page's Origin
                break
            except (OSError, websocket.WebSocketException):
                if time.monotonic() > deadline:
                    self.close()
                    raise EngineError("Firefox's WebDriver BiDi did not answer") from None
                time.sleep(0.2)
        self._send("session.new", {"capabilities": {}})
        self._send("session.subscribe", {"events": ["network.beforeRequestSent"]})
        self.context = self._send("browsingContext.getTree", {})["contexts"][0]["context"]
        self.user_context = None  # the profile's own
        self._phone_sized()

    def _phone_sized(self) -> None:
        self._send("browsingContext.setViewport", {
            "context": self.context, "viewport": {"width": PHONE[0], "height": PHONE[1]},
            "devicePixelRatio": 2})

    def fresh(self, preload: str | None = None) -> None:
        """Go on in a new tab of a new user context, as a new visitor: no storage, cache or
        service worker from before. `preload`, a JS function's source, runs in each of its pages
        before the page's own scripts. The tab and user context before it are closed."""
        before, before_user = self.context, self.user_context
        self.user_context = self._send("browser.createUserContext", {})["userContext"]
        self.context = self._send("browsingContext.create", {
            "type": "tab", "userContext": self.user_context})["context"]
        if preload:
            self._send("script.addPreloadScript", {
                "functionDeclaration": preload, "userContexts": [self.user_context]})
        self._phone_sized()
        self._send("browsingContext.close", {"context": before})
        if before_user:
            self._send("browser.removeUserContext", {"userContext": before_user})

    def _send(self, method: str, params: dict):
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("method") == "network.beforeRequestSent":
                url = message["params"]["request"]["url"]
                if is_outside(url):
                    self.requests.append(url)
            elif message.get("id") == number:
                if message["type"] == "error":
                    raise EngineError(f"firefox: {message['error']}: {message['message']}")
                return message["result"]

    def goto(self, url: str) -> None:
        self._send("browsingContext.navigate",
                   {"context": self.context, "url": url, "wait": "complete"})

    def reload(self) -> None:
        self._send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def call(self, function: str, *args):
        result = self._send("script.callFunction", {
            "functionDeclaration": function, "arguments": [to_local(a) for a in args],
            "target": {"context": self.context}, "awaitPromise": True})
        if result["type"] == "exception":
            raise EngineError(f"firefox: {result['exceptionDetails']['text']}")
        return from_remote(result["result"])

    def find(self, function: str, *args) -> Element:
        found = self.call(function, *args)
        if not isinstance(found, Element):
            raise AssertionError(f"firefox: no element from {function} {args}")
        return found

    def _actions(self, *sources: dict) -> None:
        self._send("input.performActions", {"context": self.context, "actions": list(sources)})

    def click(self, element: Element) -> None:
        self.call("el => el.scrollIntoView({block: 'center'})", element)
        origin = {"type": "element", "element": {"sharedId": element.ref}}
        self._actions({"type": "pointer", "id": "mouse", "actions": [
            {"type": "pointerMove", "x": 0, "y": 0, "origin": origin},
            {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]})

    def type(self, element: Element, text: str) -> None:
        self.click(element)
        keys = [KEYS["control"], "a", "a", KEYS["control"], KEYS["backspace"], KEYS["backspace"]]
        downs = ["keyDown", "keyDown", "keyUp", "keyUp", "keyDown", "keyUp"]
        actions = [{"type": kind, "value": key} for kind, key in zip(downs, keys, strict=True)]
        for char in text:
            actions += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
        self._actions({"type": "key", "id": "keyboard", "actions": actions})

    def screenshot(self) -> bytes:
        return base64.b64decode(self._send("browsingContext.captureScreenshot",
                                           {"context": self.context})["data"])

    def outside(self) -> list[str]:
        self._send("session.status", {})  # events sent before its answer are read by then
        return list(self.requests)

    def close(self) -> None:
        if getattr(self, "socket", None):
            with contextlib.suppress(EngineError, OSError, websocket.WebSocketException):
                self._send("browser.close", {})
            self.socket.close()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.trap.close()
        shutil.rmtree(self.profile, ignore_errors=True)


# --- Chromium, through the suite's Playwright ---------------------------------------------------

class Chromium(Engine):
    """A Playwright page of the suite's Chromium (tests/e2e/conftest.py launches it)."""

    name = "chromium"

    def __init__(self, page) -> None:
        self.page = page
        self.requests: list[str] = []
        page.context.on("request", lambda r: is_outside(r.url) and self.requests.append(r.url))

    def goto(self, url: str) -> None:
        try:
            self.page.goto(url)
        except PlaywrightError as error:
            raise EngineError(f"chromium: {error.message}") from None

    def reload(self) -> None:
        self.page.reload()

    def call(self, function: str, *args):
        args = [a.ref if isinstance(a, Element) else a for a in args]
        value = self.page.evaluate_handle(f"args => ({function})(...args)", args)
        element = value.as_element()
        return Element(element) if element else value.json_value()

    def find(self, function: str, *args) -> Element:
        found = self.call(function, *args)
        if not isinstance(found, Element):
            raise AssertionError(f"chromium: no element from {function} {args}")
        return found

    def click(self, element: Element) -> None:
        element.ref.click()

    def type(self, element: Element, text: str) -> None:
        element.ref.fill("")
        element.ref.type(text)

    def screenshot(self) -> bytes:
        return self.page.screenshot()

    def outside(self) -> list[str]:
        return list(self.requests)

    def close(self) -> None:
        self.page.close()


def launch(name: str) -> Engine:
    """Start WebKit or Firefox as tools/browsers.py finds them; EngineError if one is missing."""
    programs, missing = browsers.find_engines()
    if missing:
        raise EngineError(f"missing: `apt-get install {' '.join(missing)}`")
    return {"webkit": WebKit, "firefox": Firefox}[name](programs)
