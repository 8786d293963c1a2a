"""The cross-engine set: what a player needs, in WebKitGTK (every iPhone's engine family), Firefox
ESR and Chromium, each on one phone-sized page shared by the tests of its engine.

Boot to ready, one roll per system and every flip mode with the pieces shown checked against the
engine (the rules run here under CPython on the request and draw the page logged), an error
beside its box, the log across a reload, a replay link opened, the roll bar's chips keeping the
result, two quick clicks on Roll rolling once, the GM's committed secret taken by QR into a
secret roll and its reveal verified, a roll's QR code scanned in the page (from a camera stub),
offline reload and roll, and not one request
beyond 127.0.0.1. The engines are driven through tests/e2e/engines.py: their own clicks and key
presses on controls found by their labels and roles (selects are set from JS).
"""

from __future__ import annotations

import contextlib
import html
import io
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
import skillcheck
import zxingcpp
from app import forms, links, log_model, scanned
from app.landed_html import landed_html
from app.spoken_words import sentence
from camera import STUB, code_picture
from engines import Chromium, Element, Engine, EngineError, launch
from PIL import Image
from presses import QUIET_MS
from test_page import CASES, IDS, expected_images
from test_roll_loop import RECORD

import build
from tools import icons

ENGINES = ("chromium", "firefox", "webkit")
BOOT_TIMEOUT_S = 240  # WebKit lacks stack switching: a normal boot, 5-70 s on a busy machine
READY = "() => document.documentElement.dataset.ready === 'true'"
LOG = "() => JSON.parse(localStorage.getItem('skillcheck.log') || '{\"entries\": []}').entries"
DRAWN_BY_HAND = ("My cards", "My dice")
# A page that has stopped scrolling: the same scrollY on three polls running. After a roll the
# page glides to the result; a box found before then can glide out of view under the engine's
# pointer (WebKit says "element not interactable").
STILL = """() => { const seen = (window.__scrolls ||= []); seen.push(scrollY);
  if (seen.length > 3) seen.shift();
  return seen.length === 3 && seen.every(y => y === seen[0]); }"""
# The host the watch's own test visits on purpose; WebKit may ask it for /favicon.ico a moment
# after that test has looked, so its requests never count against a test.
PROBE_HOST = "example.invalid"

# Finding controls as a person does: by the text of their label, group legend or button.
LOOKUP = r"""
const visible = el => el.getClientRects().length > 0;
const text = el => { const copy = el.cloneNode(true);
  copy.querySelectorAll("input, select, textarea").forEach(n => n.remove());
  return copy.textContent.replace(/\s+/g, " ").trim(); };
const startsWord = (name, label) => name.startsWith(label) && !/\w/.test(name.charAt(label.length));
const scopeOf = (formId, group) => { const form = document.getElementById(formId);
  return group ? [...form.querySelectorAll("fieldset")].find(f =>
    f.querySelector("legend") && text(f.querySelector("legend")) === group) : form; };
const control = (scope, label) => [...scope.querySelectorAll("input, select, textarea")].find(
  el => [...(el.labels || [])].some(l => startsWord(text(l), label))
        || startsWord(el.getAttribute("aria-label") || "", label));
const button = (scope, name) => [...scope.querySelectorAll("button, summary")].find(
  b => visible(b) && (b.getAttribute("aria-label") || text(b)) === name);
"""


def js(params: str, body: str) -> str:
    """A JS function of `params` with the lookup helpers in scope, returning `body`."""
    return f"({params}) => {{ {LOOKUP}\n return {body}; }}"


def boot(engine: Engine, url: str) -> None:
    engine.goto(url)
    engine.wait(READY, timeout=BOOT_TIMEOUT_S, message=f"{url} to be ready")


def press(engine: Engine, name: str, scope: str = "main") -> None:
    engine.click(engine.find(js("scope, name", "button(document.querySelector(scope), name)"),
                             scope, name))


def open_form(engine: Engine, system: str, mode: str | None) -> str:
    """Open a system by its link, as a GM's bookmark does; the id of its form, once the page has
    handled the link (the form as it was may already be shown: waiting for it is not enough)."""
    engine.call(OPEN_LINK, forms.fragment(system, mode))
    engine.wait("() => window.__linkHandled", message="the page to handle the link")
    form_id = f"form-{system}" + (f"-{mode}" if mode else "")
    engine.wait(js("id", "visible(document.getElementById(id)) && "
                         "document.querySelector('#result .placeholder') !== null"), form_id)
    settle(engine)
    return form_id


# Open the link `f`, through "#reset" so that the same link still counts as newly opened. A
# listener added after the page's own runs after it: __linkHandled is set once the page's
# handler of `f` has returned.
OPEN_LINK = """f => { window.__linkHandled = false;
  if (!window.__linkWatch) {
    window.__linkWatch = true;
    addEventListener("hashchange", e => {
      if (new URL(e.newURL).hash === window.__linkWanted) window.__linkHandled = true; });
  }
  window.__linkWanted = f; location.hash = "#reset"; location.hash = f; }"""


def settle(engine: Engine) -> None:
    """Wait for the page to stop scrolling."""
    engine.call("() => { window.__scrolls = []; }")
    engine.wait(STILL, message="the page to stop scrolling")


def fill(engine: Engine, form_id: str, group: str | None, label: str, value) -> Element:
    """Set the control labelled `label` (in `group`): typed into boxes, ticked, or chosen."""
    box = engine.find(js("id, group, label", "control(scopeOf(id, group), label)"),
                      form_id, group, label)
    kind = engine.call("el => el.tagName === 'SELECT' ? 'select' : el.type", box)
    if kind == "checkbox":
        if engine.call("el => el.checked", box) != value:
            engine.click(box)
    elif kind == "select":
        engine.call("""(el, value) => { el.value = value;
            el.dispatchEvent(new Event("input", {bubbles: true}));
            el.dispatchEvent(new Event("change", {bubbles: true})); }""", box, value)
    else:
        try:
            engine.type(box, str(value))
        except EngineError as error:
            raise AssertionError(f"{label!r} ({group}): {error}; the box: " + repr(engine.call(
                WHERE, box))) from None
    return box


# Where a box is, for a failure's message: its place on screen, the view's, what covers its
# middle, and whether it is shown and enabled.
WHERE = """el => { const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return {rect: [r.x, r.y, r.width, r.height], view: [innerWidth, innerHeight, scrollY],
          covered_by: top && top !== el ? top.outerHTML.slice(0, 200) : null,
          disabled: el.disabled, hidden: el.closest("[hidden]") !== null}; }"""


def roll(engine: Engine) -> dict:
    """Press the main button, never within QUIET_MS of the last roll (tests/e2e/presses.py);
    the log entry the page wrote for it."""
    before = len(engine.call(LOG))
    engine.wait("quiet => !(performance.now() - window.__pressed < quiet)", QUIET_MS + 20)
    engine.click(engine.find("() => document.getElementById('roll')"))
    engine.call("() => { window.__pressed = performance.now(); }")
    try:
        engine.wait(f"n => ({LOG})().length > n", before, timeout=60)
    except AssertionError:
        raise AssertionError(f"{engine.name}: no roll in the log; the page shows " + repr(
            engine.call("() => document.querySelector('main').innerText.slice(0, 1500)"))) from None
    settle(engine)
    return engine.call(LOG)[-1]


# The headline, the chance it had and the outcome bar, all on screen (issue 35.4).
TOGETHER = """() => ["#result .headline", "#result .had", "#result .outcome-bar"].every(s => {
    const r = document.querySelector(s)?.getBoundingClientRect();
    return r && r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1; })"""


def shown(engine: Engine) -> dict:
    return engine.call("""() => ({
        headline: document.querySelector("#result .headline")?.textContent ?? "",
        images: [...document.querySelectorAll("#result [role=img]:not(.outcome-bar)")].map(
            el => el.getAttribute("aria-label")),
        had: document.querySelector("#result .had")?.textContent ?? "",
        bar: document.querySelector("#result .outcome-bar")?.getAttribute("aria-label") ?? "",
        explain: [...document.querySelectorAll("#result .explain li")].map(li => li.textContent),
        replay: document.querySelector("#result")?.textContent.includes("Replay of a roll from"),
    })""")


# --- one page per engine -----------------------------------------------------------------------

@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    if request.param == "chromium":
        made = Chromium(request.getfixturevalue("session_contexts")().new_page())
    else:
        try:
            made = launch(request.param)
        except EngineError as error:  # never skipped: the run stops and says how to install
            pytest.exit(f"{request.param}: {error}", returncode=1)
    yield made
    made.close()


@pytest.fixture(autouse=True)
def stays_on_this_machine(engine: Engine) -> Iterator[None]:
    """Fails the test if the engine asked for anything beyond 127.0.0.1 meanwhile."""
    engine.checked = len(engine.outside())
    yield
    left = [url for url in engine.outside()[engine.checked:]
            if urlsplit(url).hostname != PROBE_HOST]
    assert left == [], f"{engine.name}: requests left this machine"


@pytest.fixture
def app_page(engine: Engine, app_url: str) -> Engine:
    """The engine's shared page, on the app and ready (booted once, again after other servers)."""
    if not engine.call("url => location.href.startsWith(url)", app_url) or not engine.call(READY):
        boot(engine, app_url)
    return engine


# --- the set -----------------------------------------------------------------------------------

def test_the_page_boots_to_ready(app_page):
    assert app_page.call("() => document.documentElement.dataset.boot") in ("snapshot", "normal")
    assert app_page.call("() => document.getElementById('roll').disabled") is False
    width = app_page.call("() => innerWidth")
    assert width <= 480  # phone-sized (MiniBrowser goes down to 447)
    assert app_page.call("() => document.documentElement.scrollWidth") <= width  # no side-scroll
    shot_width, _ = icons.png_size(app_page.screenshot())
    assert shot_width >= width  # device pixels: 2 per CSS px in Firefox
    if app_page.name != "chromium":  # a fresh profile: this boot was a first visit
        amount = app_page.call("() => document.getElementById('boot-amount').textContent")
        received = amount.partition(" of ")[0]
        assert received and float(received) > 0, f"the download bar counted nothing: {amount!r}"


@pytest.mark.parametrize(("system", "mode", "controls", "request_"), CASES, ids=IDS)
def test_a_roll_shows_the_engines_result_for_the_cards_or_dice_drawn(app_page, system, mode,
                                                                     controls, request_):
    form_id = open_form(app_page, system, mode)
    if any(group == "Helper 2" for group, _, _ in controls):
        press(app_page, "Add a helper", f"#{form_id}")
    for group, label, value in controls:
        if label not in DRAWN_BY_HAND:  # the page draws: the log says what it drew
            fill(app_page, form_id, group, label, value)
    request = roll(app_page)["request"]
    assert skillcheck.odds(log_model.strip_draw(request)) == skillcheck.odds(
        log_model.strip_draw(request_))  # the form asked for what its boxes say
    assert log_model.draw_of(request).keys() == log_model.draw_of(request_).keys()
    result = skillcheck.resolve(request)
    on_page = shown(app_page)
    assert result["outcome"].lower() in on_page["headline"].lower()
    assert on_page["images"] == expected_images(result)
    assert on_page["explain"] == result["explain"]
    # Issue 35.4: the chance it had and where it landed, on screen with the headline.
    landed = landed_html(result)
    assert on_page["had"] and html.escape(on_page["had"]) in landed
    assert on_page["bar"] and html.escape(on_page["bar"]) in landed
    app_page.wait(TOGETHER, message="headline, chance and bar on one screen")
    # Issue 35.10: a screen reader hears it in one sentence, the same in every engine.
    said = sentence(result)
    app_page.wait("said => document.getElementById('spoken').textContent === said", said,
                  message=f"the live region to say {said!r}")


def test_a_bad_box_is_named_beside_it(app_page):
    form_id = open_form(app_page, "flip", "unopposed")
    rank = fill(app_page, form_id, None, "Rank", 60)
    beside = js("el", """el.getAttribute("aria-invalid") === "true" &&
        document.getElementById(el.getAttribute("aria-describedby").split(" ")[0]).innerText""")
    expected = "Must be a whole number from 0 to 52"
    try:  # while the keys go in, the empty box says "Is needed" for a moment
        app_page.wait(f"(el, want) => ({beside})(el) === want", rank, expected)
    except AssertionError:
        raise AssertionError(f"beside Rank: {app_page.call(beside, rank)!r}") from None
    fill(app_page, form_id, None, "Rank", 2)
    app_page.wait("el => el.getAttribute('aria-invalid') !== 'true'", rank)


def test_the_roll_log_survives_a_reload(app_page):
    open_form(app_page, "swift", None)
    roll(app_page)
    entries = "() => [...document.querySelectorAll('#log-list > li')].map(li => li.innerText)"
    before = app_page.wait(entries)
    app_page.reload()
    app_page.wait(READY, timeout=BOOT_TIMEOUT_S)
    assert app_page.wait(entries) == before


def test_a_replay_link_opens_the_same_roll(app_page, app_url):
    open_form(app_page, "flip", "unopposed")
    fill(app_page, "form-flip-unopposed", None, "Rank", 2)
    roll(app_page)
    rolled = shown(app_page)
    press(app_page, "Share")
    link = app_page.wait(js("", "control(document, 'Replay link')?.value"))
    assert link.startswith(app_url) and "#r=2." in link
    app_page.goto("about:blank")
    boot(app_page, link)
    replayed = shown(app_page)
    assert replayed["replay"]
    assert replayed["images"] == rolled["images"] and len(rolled["images"]) == 2
    assert replayed["explain"] == rolled["explain"]


# What the scan dialog shows: its status line, whether it is open, the camera's live tracks.
SCANNING = """() => ({status: document.getElementById("scan-status").textContent,
  open: document.getElementById("scan-dialog").open, live: window.__camera.live()})"""
OFFERED = js("", "button(document.getElementById('result-tools'), 'Add to the table log') "
                 "!== undefined")


def test_a_roll_scanned_in_the_page_is_opened_and_offered_for_the_table_log(app_page, app_url):
    """Issue 38.2 in each engine: the camera a canvas stream painting a replay link's QR code
    (tests/e2e/camera.py); "Scan a code" reads it (BarcodeDetector where the engine reads QR
    codes with it, else jsQR) and opens the roll, offering it for the table log. An engine that
    gives pages no camera API says so when the button is pressed, and what to do instead."""
    roll = skillcheck.resolve({"system": "pool", "trait": 4, "skill": 6, "dr": 2,
                               "dice": [2, 4, 6, 8]})
    link = links.share_url(app_url, roll, "2026-11-29T18:00:00Z", who={"name": "Ines"})
    app_page.call(STUB)
    has_camera = app_page.call("() => Boolean(navigator.mediaDevices?.getUserMedia)")
    press(app_page, "Scan a code", "header")
    if not has_camera:
        app_page.wait(f"() => ({SCANNING})().status === {scanned.NO_CAMERA!r}",
                      message="the scanner to say there is no camera")
        press(app_page, "Close", "#scan-dialog")
        app_page.wait(f"() => !({SCANNING})().open", message="the dialog to close")
        return
    app_page.wait(f"() => ({SCANNING})().live > 0", message="the camera to be on")
    app_page.call("shown => window.__camera.show(shown)", code_picture(link))
    app_page.wait(f"() => !({SCANNING})().open", timeout=60, message="the code to be read")
    assert app_page.call(SCANNING)["live"] == 0  # the camera stopped with the dialog
    app_page.wait(OFFERED, message="'Add to the table log' to be offered")
    assert app_page.call("() => location.hash") == "#" + link.partition("#")[2]
    assert app_page.call("() => document.querySelector('#result .result-title').textContent"
                         ) == "Ines (d10 pool)"


IN_VIEW = """id => { const r = document.getElementById(id).getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"""


def test_the_roll_bars_chips_go_to_what_they_name_and_keep_the_result(app_page):
    open_form(app_page, "flip", "unopposed")
    roll(app_page)
    rolled, address = shown(app_page), app_page.call("() => location.hash")
    for chip, place in (("roll-last", "result-heading"), ("roll-chance", "odds-heading")):
        app_page.call("() => scrollTo({top: 0, behavior: 'instant'})")
        app_page.click(app_page.find("id => document.getElementById(id)", chip))
        app_page.wait(IN_VIEW, place, message=f"#{place} to come into view")
        settle(app_page)
        assert shown(app_page) == rolled, chip
        assert app_page.call("() => location.hash") == address


def test_a_knob_under_the_result_steps_the_forms_box_and_the_next_roll_takes_it(app_page):
    """Issue 35.5 in each engine: the DR's + under a d10 pool result steps the form's own box,
    in view with the headline, and the next Roll rolls against it."""
    form_id = open_form(app_page, "pool", None)
    fill(app_page, form_id, None, "DR", 2)
    roll(app_page)
    app_page.wait(TOGETHER, message="headline, chance and bar on one screen")
    up = app_page.find("() => document.querySelector('#result [data-adjust=dr]"
                       "[data-adjust-step=\"1\"]')")
    assert app_page.call("el => el.getAttribute('aria-label')", up) == "DR up"
    app_page.click(up)
    app_page.wait("() => document.querySelector('#form-pool [name=dr]').value === '3'",
                  message="the form's DR to step to 3")
    app_page.wait("() => document.querySelector('#result [data-adjust-value=dr]')"
                  ".textContent === '3'", message="the knob to show 3")
    assert roll(app_page)["request"]["dr"] == 3


def test_two_quick_clicks_on_roll_roll_once(app_page):
    """Two of the engine's own clicks in quick succession: the nearest a driven browser comes to
    a thumb's double tap (WebDriver has no touch for these engines)."""
    open_form(app_page, "passages", None)
    before = len(app_page.call(LOG))
    app_page.call(RECORD)
    button = app_page.find("() => document.getElementById('roll')")
    app_page.click(button)
    app_page.click(button)
    first, second = app_page.wait("() => window.__taps.length >= 2 && window.__taps")
    assert second - first < QUIET_MS, f"{app_page.name}: the clicks came {second - first} ms apart"
    app_page.wait(f"n => ({LOG})().length > n", before)
    settle(app_page)
    app_page.call("() => dispatchEvent(new Event('pagehide'))")  # any write still pending, done
    assert len(app_page.call(LOG)) == before + 1


def read_off_screen(engine: Engine) -> str:
    """The QR dialog's code as a camera reads it off the engine's own screenshot; closed."""
    engine.wait("() => document.querySelector('#qr-dialog[open] svg.qr') !== null",
                message="the QR code to be drawn")
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(engine.screenshot())),
                                   formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1, f"{engine.name}: {len(found)} QR codes read"
    press(engine, "Close", "#qr-dialog")
    return found[0].text


def test_the_gms_secret_is_taken_by_qr_rolled_and_its_reveal_verified(app_page):
    open_form(app_page, "pool", None)
    app_page.call("() => { location.hash = '#gm'; }")
    app_page.wait(js("", "visible(document.getElementById('commit-form'))"))
    fill(app_page, "commit-form", None, "System", "pool")
    fill(app_page, "commit-form", None, "DR", 4)
    fill(app_page, "commit-form", None, "What it is for", "Vault")
    press(app_page, "Commit", "#gm-view")
    link = read_off_screen(app_page)
    assert "#commit=pool." in link
    app_page.goto(link)  # the player's page, here the same phone
    app_page.wait(js("", """control(document.getElementById("form-pool"), "GM's code")"""
                         "?.value.length > 0"), message="the GM's code in the form")
    settle(app_page)
    entry = roll(app_page)
    assert entry["outcome"] == "secret" and link.endswith(entry["request"]["commitment"])
    app_page.call("() => { location.hash = '#gm'; }")
    press(app_page, "Reveal", "#secrets")
    app_page.goto(read_off_screen(app_page))
    app_page.wait(js("", "document.getElementById('result').textContent.includes('Verified')"),
                  message="the reveal to be verified")
    judged = skillcheck.resolve({**{key: value for key, value in entry["request"].items()
                                    if key not in ("secret", "commitment")}, "dr": 4})
    assert judged["outcome"].lower() in shown(app_page)["headline"].lower()


def test_offline_it_reloads_and_rolls(engine, serve_dist):
    server = serve_dist()  # its own server, stopped below
    boot(engine, server.url)
    engine.wait("() => navigator.serviceWorker.controller !== null", timeout=BOOT_TIMEOUT_S,
                message="the service worker to control the page")
    open_form(engine, "passages", None)
    roll(engine)
    server.close()
    engine.reload()
    engine.wait(READY, timeout=BOOT_TIMEOUT_S, message="ready offline")
    assert len(engine.call(LOG)) == 1  # the log from before
    # where it starts from the snapshot, from the copy the worker keeps unpacked (sw-template.js),
    # read from the worker's cache by the page itself, as the standard library is
    cached = engine.call("() => document.documentElement.dataset.cached ?? ''").split()
    snapshot = engine.call("() => document.documentElement.dataset.boot") == "snapshot"
    assert sorted(cached) == sorted([*build.READ_FROM_CACHE,
                                     *(["pyodide.snapshot.pages"] if snapshot else [])])
    open_form(engine, "passages", None)
    assert skillcheck.resolve(roll(engine)["request"])["system"] == "passages"


def test_a_request_beyond_this_machine_is_seen(engine, outside):
    """The watch itself: a navigation to another host is refused and recorded."""
    before, chromium_before = len(engine.outside()), len(outside.urls)
    with contextlib.suppress(EngineError):  # a refused load may be an error: the record counts
        engine.goto(f"http://{PROBE_HOST}/")
    seen = engine.outside()[before:]
    assert any(urlsplit(url).hostname == PROBE_HOST for url in seen), seen
    del outside.urls[chromium_before:]  # conftest's watch of Chromium saw it too
