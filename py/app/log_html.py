"""The roll log as the page lists it: one line per entry, newest first, as escaped HTML.

Pure, so CPython tests read it. Times are shown by a `when(iso) -> text` the page passes in
(the browser knows the player's clock and language); everything else comes from the entry.
A check or a reveal is a button (tapping it shows that roll again); a spend or an undo is a note.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from skillcheck import SYSTEMS, InvalidRequest, resolve

from .check_words import system_name, title
from .log_model import draw_of
from .result_html import side_title, tone
from .systems import outcome_name

PAGE = 50  # entries drawn at first and at each "show more": a long log costs no more than this
KINDS_SHOWN_AGAIN = ("check", "reveal")


def draw_text(request: dict) -> str:
    """The cards or dice a request carries: "JC 10S", or by side "Initiator 3H 4D · Opponent 2H"."""
    draws = draw_of(request)
    if len(draws) == 1:
        return " ".join(map(str, next(iter(draws.values()))))
    return " · ".join(f"{side_title(path.rsplit('.', 1)[0])} {' '.join(map(str, items))}"
                      for path, items in draws.items())


def entry_title(entry: dict) -> str:
    """Who rolled what, as the result's header says it: "Mara · Stealth (d10 pool)"."""
    if entry["kind"] not in KINDS_SHOWN_AGAIN:
        return system_name(entry["system"])
    return title(entry["request"], entry.get("name"), entry.get("skill"))


def entry_html(entry: dict, when: Callable[[str], str], shown: int | None = None) -> str:
    """One entry as a list item: two short lines (who and what · the time; the outcome, the
    inputs and the draw; tapped, a check or a reveal is shown again in the result, where Show
    QR draws it) and a button that deletes it. The entry `shown` in the result is marked."""
    time = (f'<time class="log-when" datetime="{escape(entry["time"])}">'
            f"{escape(when(entry['time']))}</time>")
    named = escape(entry_title(entry))
    which = f"this entry ({named}, {escape(when(entry['time']))})"
    delete = (f'<button type="button" class="log-delete" data-delete="{entry["id"]}" '
              f'aria-label="Delete {which}"><span aria-hidden="true">×</span></button>')
    if entry["kind"] not in KINDS_SHOWN_AGAIN:
        return (f'<li class="log-row"><p class="log-note" data-kind="{entry["kind"]}">{time}'
                f'<span class="log-system">{named}</span>'
                f'<span class="log-summary">{escape(entry["summary"])}</span></p>{delete}</li>')
    outcome = regraded(entry) or outcome_name(entry["request"].get("system", ""),
                                              entry["outcome"])  # as headlined
    summary = entry["summary"]
    if entry["kind"] == "reveal":  # said once, before the outcome, not again before the summary
        outcome, summary = f"Revealed: {outcome}", summary.removeprefix("Revealed: ")
    withdrawn = "withdrawn" in entry  # kept, struck through and said: the table trusts the log
    if withdrawn:
        outcome = f"Withdrawn: {outcome}"
    draw = draw_text(entry["request"])
    current = ' aria-current="true"' if entry["id"] == shown else ""
    return (f'<li class="log-row{" withdrawn" * withdrawn}"><button type="button" '
            f'class="log-entry" '
            f'data-entry="{entry["id"]}"{current}>'
            f'<span class="log-system">{named}</span>{time}'
            + seed_mark(entry)
            + ('<span class="log-shared">From another phone</span>' if "shared" in entry
               else "")
            + f'<span class="log-detail"><span class="log-outcome {tone(entry["success"])}">'
            + f'{escape(outcome)}</span> '
            + f'<span class="log-summary">{escape(summary)}</span>'
            + (f' <span class="log-draw">· {escape(draw)}</span>' if draw else "")
            + "</span></button>" + delete + "</li>")


def regraded(entry: dict) -> str:
    """Both outcomes, "logged as Barely Succeeding; Critical Success under the current rules",
    when today's rules judge the stored request and draw otherwise than the entry logged (the
    degree ruling changed), else ""; the entry itself is never rewritten, so the log keeps what
    the player was told."""
    request = entry["request"]
    if not draw_of(request):  # the d10 pool's and Swift's degrees were ruled again 2026-12-02
        return ""
    try:
        now = resolve(request)["outcome"]
    except InvalidRequest:
        return ""
    if now == entry["outcome"]:
        return ""
    return (f"logged as {outcome_name(request['system'], entry['outcome'])}; "
            f"{outcome_name(request['system'], now)} under the current rules")


def seed_mark(entry: dict) -> str:
    """A check drawn from the page's ?seed says so: repeatable, not random."""
    if entry.get("seed") is None:
        return ""
    return (f'<span class="log-seed" data-seed="{entry["seed"]}">Seed {entry["seed"]}'
            " — not random</span>")


def list_html(entries: list[dict], when: Callable[[str], str], shown: int | None = None) -> str:
    return "".join(entry_html(entry, when, shown) for entry in entries)


def entries(count: int) -> str:
    """"1 entry", "1,234 entries"."""
    return f"{count:,} {'entry' if count == 1 else 'entries'}"


def count_text(listed: int, total: int, system: str | None, narrowed: bool = False) -> str:
    """"Showing 50 of 1,234 entries" (of one system when filtered; "matching" when a search or
    a character narrows the list)."""
    which = f" {system_name(system)}" if system else ""
    if narrowed:
        which = f" matching{which}"
    if total == 0:
        return f"No{which} entries yet." if system and not narrowed else (
            "No entries match." if narrowed else "Nothing rolled yet.")
    noun = "entry" if total == 1 else "entries"
    if listed >= total:
        return f"{total:,}{which} {noun}."
    return f"Showing the newest {listed:,} of {total:,}{which} {noun}."


def filter_options_html() -> str:
    """The systems to filter by; "" is every system."""
    return '<option value="">All systems</option>' + "".join(
        f'<option value="{escape(name)}">{escape(system_name(name))}</option>'
        for name in SYSTEMS)


def character_options_html(names: list[str]) -> str:
    """The characters the log names, to filter by; "" is everyone."""
    return '<option value="">Everyone</option>' + "".join(
        f'<option value="{escape(name)}">{escape(name)}</option>' for name in names)
