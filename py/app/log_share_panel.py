"""Share the log (issue 38.3): the log panel's "Share the log" sends tonight's rolls or every
roll as a file (the share sheet where the browser shares files, else a download, which the
other phone opens with Import) or as a sequence of QR codes (qr_panel.show_codes); and a code's
link opened here (by the camera app, or put in the address by a scan inside the page) is kept
until its set is whole, then merged into the log (log_codes.receive), in one turn at the
cross-tab lock.
"""

from __future__ import annotations

from types import ModuleType

from pyscript import web, when, window

from . import browser, log_codes
from .browser import guarded
from .session import Session

session: Session  # handed in by main.py at boot (start), with the panels it calls
log_panel: ModuleType
qr_panel: ModuleType
HOW_TO_OPEN = "on the other phone, open it with the roll log’s Import."


def start(booted: Session, the_log_panel: ModuleType, the_qr_panel: ModuleType) -> None:
    global session, log_panel, qr_panel
    session, log_panel, qr_panel = booted, the_log_panel, the_qr_panel


def say(text: str, problem: bool = False) -> None:
    line = web.page["log-share-status"]
    line.textContent = text
    line._dom_element.classList.toggle("problem", problem)


def _part() -> str:
    checked = web.page.find("input[name='log-share-part']:checked")
    return str(checked[0].value) if len(checked) else "tonight"


def _chosen() -> tuple[list[dict], str]:
    """The rolls to send, and what they are in words ("tonight’s 40 rolls")."""
    part = _part()
    rolls = log_codes.sharable(session.log.items(), part)
    count = log_codes.rolls_said(len(rolls))
    return rolls, (f"tonight’s {count}" if part == "tonight" else f"the log’s {count}")


@when("toggle", "#log-share")
@guarded
def on_open(event) -> None:
    """Opened: each choice says how many rolls it sends."""
    if not web.page["log-share"]._dom_element.open:
        return
    items = session.log.items()
    for part, words in (("tonight", "Tonight’s rolls"), ("all", "The whole log")):
        count = log_codes.rolls_said(len(log_codes.sharable(items, part)))
        web.page[f"log-share-{part}"].textContent = f"{words} ({count})"
    say("")


def _none_to_send(rolls: list[dict]) -> bool:
    if not rolls:
        say("There is no roll to send: secret rolls, withdrawn ones and those drawn from a "
            "seed stay on this phone.", problem=True)
    return not rolls


@when("click", "#log-share-file")
@guarded
async def on_file(event) -> None:
    rolls, what = _chosen()
    if _none_to_send(rolls):
        return
    name, text = log_codes.file_name(), log_codes.file_text(rolls)
    if await browser.share_file(name, text):
        say(f"Sent {what} as {name}: {HOW_TO_OPEN}")
        return
    browser.download(name, text)
    say(f"Saved {what} as {name}: send the file to the other phone, and {HOW_TO_OPEN}")


@when("click", "#log-share-qr")
@guarded
async def on_codes(event) -> None:
    rolls, what = _chosen()
    if _none_to_send(rolls):
        return
    try:
        texts = log_codes.code_links(str(window.location.href), rolls)
    except log_codes.CodeError as error:
        say(str(error), problem=True)
        return
    say("")
    await qr_panel.show_codes(texts, "QR codes of the roll log",
                              f"{what[0].upper()}{what[1:]}: on the other phone, scan each code "
                              "in turn.")


def receive(fragment: str) -> None:
    """A shared log's code opened here: kept, merged once its set is whole, and said in the
    log's status line, brought into view."""
    if session.log is None:
        return
    codes = log_codes.Codes(session.storage)

    async def take() -> None:
        said, warnings, problem = await browser.change(
            lambda: log_codes.receive(fragment, session.log, codes))
        log_panel.say(" ".join([said, *warnings]), problem=problem or bool(warnings))
        log_panel.render()
        web.page["log-status"]._dom_element.scrollIntoView(block="center", behavior="instant")
    browser.spawn(take())
