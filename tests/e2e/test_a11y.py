"""Accessibility: an axe-core audit of every system's form and result on the phone and the desktop
page, text contrast in the light and the dark scheme, a whole check done by keyboard alone and
heard in its live region, and no motion when the player asks for less.

axe-core comes bundled in axe-playwright-python (pinned in requirements-test.txt) and is injected
with page.evaluate: it fetches nothing (checked below, on top of the fixtures' outside-request
watch).
"""

from __future__ import annotations

import re
import struct
import zlib
from collections import Counter

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from presses import press_roll, pressed, rested
from test_trust import FORMS, open_system, roll

AXE = Axe()
CONTRAST = {"runOnly": {"type": "rule", "values": ["color-contrast"]}}
FORM_IDS = [f"{s}-{m}" if m else s for s, m in FORMS]


def axe(page: Page, options: dict) -> dict:
    """axe's answer for the page as it is now; axe itself must fetch nothing."""
    requests: list[str] = []

    def seen(request) -> None:
        requests.append(request.url)

    page.on("request", seen)
    try:
        results = AXE.run(page, options=options)
    finally:
        page.remove_listener("request", seen)
    assert requests == [], f"axe fetched {requests}"
    return results.response


def audit(page: Page, options: dict | None = None) -> list[str]:
    """axe's violations, one line each: rule, impact, what it means, where."""
    found = axe(page, {"resultTypes": ["violations"], **(options or {})})["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + ", ".join(" ".join(node["target"]) for node in v["nodes"]) for v in found]


def settle(page: Page) -> None:
    """Wait for the deal, flip and tumble animations to end, so axe sees the final colours."""
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")


@pytest.fixture(params=["phone", "desktop"])
def screen(request) -> Page:
    return request.getfixturevalue("booted" if request.param == "phone" else "desktop")


@pytest.mark.parametrize(("system", "mode"), FORMS, ids=FORM_IDS)
def test_every_form_and_result_passes_axe(screen, system, mode):
    open_system(screen, system, mode)
    assert audit(screen) == []
    roll(screen)
    settle(screen)
    assert audit(screen) == []


def test_an_error_beside_a_field_passes_axe(booted):
    form = open_system(booted, "pool")
    form.get_by_label(re.compile(r"^Trait\b")).fill("11")
    press_roll(booted)
    expect(form.locator(".field-error")).to_be_visible()
    assert audit(booted) == []


def test_the_table_passes_axe_with_a_log_a_share_link_and_the_editor_open(screen):
    open_system(screen, "swift")
    roll(screen)
    settle(screen)
    screen.locator("#share").click()
    expect(screen.locator("#share-url")).not_to_have_value("")
    expect(screen.locator("#log-list li").first).to_be_visible()
    assert audit(screen) == []
    screen.locator("#who-new").click()
    editor = screen.locator("#character-editor")
    expect(editor).to_be_visible()
    try:
        assert audit(screen) == []
    finally:
        screen.keyboard.press("Escape")
        expect(editor).to_be_hidden()


BACKGROUND = "getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3)"
COLOURS = """el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]
    .map(c => c.match(/[\\d.]+/g).map(Number))"""
IN_BAR = "el => !!el.closest('.action')"  # the fixed roll bar, drawn over the page it scrolls
ON_CHIP = """el => { let ground = el;
    while (getComputedStyle(ground).backgroundColor.startsWith('rgba'))
        ground = ground.parentElement;
    return [getComputedStyle(el).color, getComputedStyle(ground).backgroundColor]
        .map(c => c.match(/[\\d.]+/g).map(Number)); }"""  # text against its nearest solid ground
LARGE = 3.0  # WCAG 1.4.3 for large text (the cards' 19px bold indices) and 1.4.11 for graphics
NORMAL = 4.5


def luminance(rgb) -> float:
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def undecided_by_axe(page: Page, found: dict) -> list[str]:
    """What axe's color-contrast rule left open, judged here: a control whose background image
    only draws its arrow is measured against its own solid background; text drawn inside a card
    or die (role="img") is left to test_cards_and_dice_stand_out; glyphs that are not text pass."""
    left = []
    for rule in found["incomplete"]:
        for node in rule["nodes"]:
            target = " ".join(node["target"])
            reason = " ".join(check["message"] for check in node["any"])
            if "non-text characters" in reason:
                continue
            element = page.locator(target).first
            if element.evaluate("el => !!el.closest('[role=img]')"):
                continue
            text, ground = element.evaluate(COLOURS)
            opaque = len(ground) == 3 or ground[3] == 1
            if "gradient" in reason and opaque and contrast(text, ground) >= NORMAL:
                continue
            if "overlaps other elements" in reason and element.evaluate(IN_BAR):
                text, ground = element.evaluate(ON_CHIP)  # the bar is drawn over the page
                if contrast(text, ground) >= NORMAL:
                    continue
            left.append(f"{target}: {reason}")
    return left


@pytest.mark.parametrize(("scheme", "dark"), [("light", False), ("dark", True)])
def test_text_contrast_in_light_and_dark(booted, scheme, dark):
    """axe's color-contrast rule on every form and result, and what it leaves undecided."""
    booted.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    try:
        assert (sum(map(int, booted.evaluate(BACKGROUND))) < 3 * 128) == dark
        for system, mode in FORMS:
            open_system(booted, system, mode)
            roll(booted)
            found = axe(booted, {**CONTRAST, "resultTypes": ["violations", "incomplete"]})
            where = f"{scheme}: {system} {mode or ''}"
            assert found["violations"] == [], (where, audit(booted, CONTRAST))
            assert undecided_by_axe(booted, found) == [], where
    finally:
        booted.emulate_media(color_scheme="no-preference", reduced_motion="no-preference")


def png_pixels(data: bytes) -> list[list[tuple[int, int, int]]]:
    """Rows of (r, g, b) from an 8-bit, non-interlaced RGB or RGBA PNG (Chromium's screenshots),
    so the test needs no imaging package."""
    chunks, pos = {}, 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks[kind] = chunks.get(kind, b"") + data[pos + 8:pos + 8 + length]
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and colour in (2, 6) and not interlace
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(chunks[b"IDAT"]), width * step
    rows, above = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            corner = above[i - step] if i >= step else 0
            guess = (0, left, above[i], (left + above[i]) // 2,
                     _paeth(left, above[i], corner))[kind]
            line[i] = (line[i] + guess) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, step)])
        above = line
    return rows


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def ink_contrast(image) -> float:
    """How far the strongest mark in the middle of a card or die (pips, index, number) stands
    out from the face's main colour, as rendered: opacity and filters included."""
    rows = png_pixels(image.screenshot(animations="disabled"))
    height, width = len(rows), len(rows[0])
    middle = [pixel for row in rows[height // 4:3 * height // 4]
              for pixel in row[width // 5:4 * width // 5]]
    face = Counter(middle).most_common(1)[0][0]
    return max(contrast(p, face) for p in middle)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_cards_and_dice_stand_out(booted, scheme):
    """axe cannot judge text drawn in SVG: measure every card and die of a result from pixels,
    kept and left-aside cards alike."""
    booted.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    try:
        for system, mode in FORMS:
            form = open_system(booted, system, mode)
            if (system, mode) == ("flip", "unopposed"):
                form.get_by_label(re.compile(r"^Rank\b")).fill("6")  # six cards: most set aside
            roll(booted)
            images = booted.locator("#result [role=img]:not(.outcome-bar)")
            for i in range(images.count()):
                label = images.nth(i).get_attribute("aria-label")
                assert ink_contrast(images.nth(i)) >= LARGE, f"{scheme} {system}: {label}"
    finally:
        booted.emulate_media(color_scheme="no-preference", reduced_motion="no-preference")


def test_a_check_by_keyboard_alone_is_heard_in_the_live_region(app):
    """Choose the d10 pool with the arrow keys, type a Trait, roll with Enter: no mouse at all.
    A reset page: with a character left picked by another test, the sentence would name them."""
    open_system(app, "flip", "unopposed")
    app.evaluate("document.activeElement.blur()")
    keyboard = app.keyboard
    keyboard.press("Tab")
    while not app.evaluate("document.activeElement.name === 'system'"):
        keyboard.press("Tab")
    keyboard.press("ArrowRight")  # Card flip → d10 pool
    expect(app.locator("#form-pool")).to_be_visible()
    while app.evaluate("document.activeElement.id") != "pool-trait":
        keyboard.press("Tab")
    assert app.evaluate("getComputedStyle(document.activeElement.closest('.stepper'))"
                           ".borderColor") != app.evaluate(
        "getComputedStyle(document.querySelector('#pool-skill').closest('.stepper')).borderColor")
    keyboard.press("Control+A")
    keyboard.type("6")
    rested(app)  # this shared page's last roll was a while ago, as a person's would be
    keyboard.press("Enter")
    pressed(app)
    status = app.get_by_role("status").and_(app.locator("#spoken"))  # not the bar's own
    expect(status).to_have_attribute("aria-live", "polite")
    expect(status).to_contain_text(re.compile(  # one sentence, its six dice at the end
        r"^d10 pool: (critical|success|basic|barely|failure|disaster|flubbed|too difficult)"
        r".* — dice( \d+){6}\.$", re.I))
    panel = app.get_by_role("region", name="Result")  # read when the player goes to it
    # six d10s, each with a text label
    expect(panel.locator("[role=img]:not(.outcome-bar)")).to_have_count(6)
    assert app.evaluate("document.activeElement.id") == "pool-trait"  # focus stays put


MOTION = """() => [...document.querySelectorAll('#result *')].map(el => {
    const style = getComputedStyle(el);
    return [el.className.baseVal ?? el.className, style.animationName, style.animationDuration,
            style.transitionDuration];
}).filter(([, name, animation, transition]) =>
    (name !== 'none' && animation.split(',').some(t => parseFloat(t) > 0)) ||
    transition.split(',').some(t => parseFloat(t) > 0))"""


@pytest.mark.parametrize(("system", "mode"), [("flip", "opposed"), ("pool", None),
                                              ("fluke", None), ("passages", None)])
def test_no_animation_when_reduced_motion_is_asked_for(booted, system, mode):
    open_system(booted, system, mode)
    roll(booted)
    assert booted.evaluate(MOTION), "the cards and dice should move when motion is welcome"
    booted.emulate_media(reduced_motion="reduce")
    try:
        open_system(booted, system, mode)
        roll(booted)
        assert booted.locator("#result .card, #result .die").count() > 0
        assert booted.evaluate(MOTION) == []
    finally:
        booted.emulate_media(reduced_motion="no-preference")
