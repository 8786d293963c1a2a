"""The GM's side of the table (#gm), on the GM's own phone: commit to a secret difficulty, hand the
player its code (QR, link or typed code), and reveal it once the player has rolled. The secrets
are kept across reloads and tabs (gm_secrets.py), changed at the page's cross-tab lock; main.py
shows this side for the address "#gm" (`show_side`) and hands in the QR dialog's panel.
"""

from __future__ import annotations

from types import ModuleType

from pyscript import document, web, when, window
from pyscript.ffi import is_none
from skillcheck import InvalidRequest

from . import browser, dom, gm_links, links
from .check_words import system_name
from .gm_html import commit_words, reveal_words, secret_name, secrets_html
from .gm_secrets import Secrets
from .result_notes_html import reveal_difficulty
from .session import Session
from .systems import PAGES

session: Session  # handed in by main.py at boot (start), with the QR dialog's panel
qr: ModuleType
_kept: list[Secrets] = []  # the GM's secrets, read at boot


def start(booted: Session, qr_dialog: ModuleType) -> None:
    global session, qr
    session, qr = booted, qr_dialog
    _kept[:] = [Secrets(session.storage)]
    web.page["commit-system"].innerHTML = "".join(
        f'<option value="{system}">{system_name(system)}</option>'
        for system in gm_links.secret_systems())
    say_difficulty()
    render()
    web.page["commit"].disabled = False


def secrets() -> Secrets:
    return _kept[0]


def show_side(gm: bool, moved: bool = False) -> None:
    """The GM's side or the player's, the other hidden (and the nav saying which is shown); when
    the player `moved` there, focus goes to its heading."""
    document.documentElement.dataset.view = "gm" if gm else "player"
    web.page["gm-view"].hidden = not gm
    document.querySelector("main.app").hidden = gm
    for link in document.querySelectorAll(".table-sides a"):
        here = (link.getAttribute("href") == "#gm") == gm
        link.setAttribute("aria-current", "page") if here else link.removeAttribute(
            "aria-current")
    if gm and moved:
        web.page["gm-heading"]._dom_element.focus()


def render() -> None:
    listed = secrets().newest_first()
    web.page["secrets"].innerHTML = secrets_html(
        listed, lambda iso: browser.short_time(iso, seconds=False))
    web.page["secrets-empty"].hidden = bool(listed)


def refresh() -> None:
    """Another tab changed the GM's secrets: list them as storage holds them now."""
    if _kept and secrets().refresh():
        render()


def say_difficulty() -> None:
    """The difficulty box says what the chosen system's reveal takes ("DR", "DTN or
    difficulty"), as the player's reveal box does."""
    reveal = PAGES[web.page["commit-system"].value].reveal
    web.page["commit-difficulty-label"].textContent = reveal.label
    web.page["commit-difficulty-hint"].textContent = reveal.hint


@when("change", "#commit-system")
@browser.guarded
def on_system(event) -> None:
    dom.clear_errors(web.page["commit-form"])
    say_difficulty()


@when("submit", "#commit-form")
@browser.guarded
def on_commit(event) -> None:
    """The form goes nowhere: it commits (at once, so the browser never submits it)."""
    event.preventDefault()
    browser.spawn(commit())


async def commit() -> None:
    """Commit to the difficulty typed: kept with a fresh salt, listed, and its code shown at
    once for the player to take. A mistake is said beside its box. Commit is held down until
    the secret is kept, so a double tap commits once."""
    button = web.page["commit"]
    if button.disabled:
        return
    form = web.page["commit-form"]
    dom.clear_errors(form)
    system = str(web.page["commit-system"].value)
    button.disabled = True
    try:
        difficulty = reveal_difficulty(system, web.page["commit-difficulty"].value)
        secret, warnings = await browser.change(lambda: secrets().commit(
            system, difficulty, str(web.page["commit-label"].value)))
    except InvalidRequest as error:
        dom.show_error(form, "label" if error.field == "label" else "difficulty", error.reason)
        return
    finally:
        button.disabled = False
    render()
    web.page["commit-label"].value = ""
    web.page["commit-difficulty"].value = ""
    web.page["commit-status"].textContent = " ".join(
        [f"Committed: {secret_name(secret)}.", *warnings])
    await show_code(secret)


async def show_code(secret: dict) -> None:
    """The code for the player: a QR of the commitment's link, the link, the typed code."""
    title, caption, typed = commit_words(secret)
    await qr.show(_link(gm_links.commit_fragment(secret["system"], secret["commitment"])),
                  title, caption, typed)


async def show_reveal(secret: dict) -> None:
    """The reveal for the player's page (marked revealed here): difficulty and salt."""
    shown, warnings = await browser.change(lambda: secrets().reveal(secret["id"]))
    render()
    if shown is None:
        web.page["commit-status"].textContent = "That secret was cleared in another tab."
        return
    web.page["commit-status"].textContent = " ".join(warnings)
    title, caption, typed = reveal_words(shown)
    await qr.show(_link(gm_links.reveal_fragment(shown["system"], shown["difficulty"],
                                                 shown["salt"])), title, caption, typed)


def _link(fragment: str) -> str:
    return links.page_address(str(window.location.href)) + fragment


@when("click", "#secrets")
@browser.guarded
async def on_secret(event) -> None:
    button = event.target.closest("button")
    item = None if is_none(button) else button.closest("[data-secret]")
    secret = None if is_none(item) else secrets().get(int(item.getAttribute("data-secret")))
    if secret is None:
        return
    if button.hasAttribute("data-clear"):
        browser.ask(f"Clear \u201c{secret_name(secret)}\u201d? Its reveal can no longer be "
                    "shown to a player.", "Clear", lambda: _clear(secret))
    elif button.getAttribute("data-show") == "reveal":
        await show_reveal(secret)
    else:
        await show_code(secret)


async def _clear(secret: dict) -> None:
    _, warnings = await browser.change(lambda: secrets().clear(secret["id"]))
    render()
    web.page["commit-status"].textContent = " ".join(
        [f"Cleared: {secret_name(secret)}.", *warnings])
